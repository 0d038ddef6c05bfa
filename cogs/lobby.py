"""Opening, joining and starting games: /newgame, /join, /leave, /start and the lobby's buttons.

The lobby is the game's row before its deal; starting hands it to the table (``table.flow``). The lobby's
buttons are a persistent view, so they keep working after a restart. /newgame's options come from the games'
registry (``cogs._newgame``); the commands a running game shares are ``cogs.table_commands``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._learning import first_game_note
from cogs._newgame import DEFAULT_GAME, MAX_BOTS, VARIANTS, checked_choices, newgame_command, no_computer_players
from cogs._permissions import explain_missing_permissions
from cogs._results import variants_text
from cogs._ui import ErrorHandlingView, in_text_channel
from cogs.daily import DAILY_DEAL, daily_seed, utc_today
from cogs.moderation import MISSING_PERMISSION
from cogs.threads import PARENT, GameThread, open_thread, post_lobby_in_thread
from engine import GAMES
from engine.ai import PLAYERS as AI_PLAYERS
from engine.game import NO_NUMBERS_IN_CHAT
from i18n import Localized, Text, _, _n, _p, lines, render
from storage import ChannelBusy, Conflict, GameRecord, NewGame, now
from table.answer import UserError, committed, detached, in_time, send, update
from table.clock import TURN_TIMES, turn_time, turn_time_words
from table.language import CHOSEN_LANGUAGE_OPTION, GUILD_LOCALE_OPTION, guild_locale_of
from table.people import ai_seat_id, is_ai, mention
from table.settings import check_games_allowed_here

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

# Where the other cogs find them.
__all__ = ["DEFAULT_GAME", "VARIANTS", "Lobby", "lobby_embed"]

LOBBY_COLOUR = discord.Colour.blurple()


def lobby_seat(record: GameRecord, player: int) -> Text | str:
    host, computer = player == record.host_id, is_ai(player)
    if host and computer:
        return _("{player} (host) (computer)", player=mention(player))
    if host:
        return _("{player} (host)", player=mention(player))
    if computer:
        return _("{player} (computer)", player=mention(player))
    return mention(player)


def lobby_embed(record: GameRecord, locale: str) -> discord.Embed:
    """The lobby in the table's ``locale``."""
    info = GAMES[record.kind].info

    def say(text: Localized) -> str:
        return render(text, locale)

    embed = discord.Embed(title=say(_("{game}: lobby", game=info.title)), colour=LOBBY_COLOUR)
    embed.add_field(name=say(_("Variant")), value=say(variants_text(record.kind, record.variants)), inline=False)
    embed.add_field(name=say(_("Turn time")), value=say(turn_time_words(turn_time(record))), inline=False)
    if record.options.get("deal") == "daily":
        embed.add_field(name=say(_("Deal")), value=say(DAILY_DEAL), inline=False)
    players = lines(*(lobby_seat(record, p) for p in record.players)) if record.players else _("nobody")
    embed.add_field(
        name=say(_("Players ({count}/{most})", count=len(record.players), most=info.max_players)),
        value=say(players),
        inline=False,
    )
    if record.host_id is not None:
        footer = _(
            "{least}-{most} players. Join, then the host presses Start.", least=info.min_players, most=info.max_players
        )
    else:
        footer = _(
            "{least}-{most} players. Join, then any player presses Start.",
            least=info.min_players,
            most=info.max_players,
        )
    embed.set_footer(text=say(footer))
    return embed


class LobbyView(ErrorHandlingView):
    """Join / Leave / Start under a lobby message; stateless, so one instance serves every lobby (its labels are in
    the table's language when it is sent; clicks match by custom id)."""

    def __init__(self, cog: Lobby, locale: str = "en") -> None:
        super().__init__()
        self.cog = cog
        labels = {
            self.join_button: _p("button", "Join"),
            self.leave_button: _p("button", "Leave"),
            self.start_button: _p("button", "Start"),
            self.add_bot_button: _p("button", "Add bot"),
            self.remove_bot_button: _p("button", "Remove bot"),
            self.turn_time_button: _p("button", "Turn time"),
        }
        for button, label in labels.items():
            button.label = render(label, locale)

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id="lobby:join")
    async def join_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.join(interaction)

    @discord.ui.button(label="Leave", style=discord.ButtonStyle.secondary, custom_id="lobby:leave")
    async def leave_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.leave(interaction)

    @discord.ui.button(label="Start", style=discord.ButtonStyle.primary, custom_id="lobby:start")
    async def start_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.start(interaction)

    @discord.ui.button(label="Add bot", style=discord.ButtonStyle.secondary, custom_id="lobby:add_bot", row=1)
    async def add_bot_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.change_bots(interaction, +1)

    @discord.ui.button(label="Remove bot", style=discord.ButtonStyle.secondary, custom_id="lobby:remove_bot", row=1)
    async def remove_bot_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.change_bots(interaction, -1)

    @discord.ui.button(label="Turn time", style=discord.ButtonStyle.secondary, custom_id="lobby:turn_time", row=1)
    async def turn_time_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.next_turn_time(interaction)


class Lobby(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.today: Callable[[], date] = utc_today  # the daily deal's date; tests set their own

    newgame_command = newgame_command()

    async def cog_load(self) -> None:
        self.bot.add_view(LobbyView(self))

    def lobby_view(self, locale: str) -> LobbyView:
        return detached(LobbyView(self, locale))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- lobby commands --------------------------------------------------------------------------------------

    async def newgame(
        self,
        interaction: discord.Interaction[Bot],
        kind: str,
        chosen: dict[str, Any],
        bots: int = 0,
        turn_time: str | None = None,
        deal: str = "random",
        thread: bool = False,
    ) -> None:
        info = checked_choices(kind, chosen, bots, turn_time, deal)
        channel_id = interaction.channel_id
        assert channel_id is not None
        assert interaction.guild_id is not None
        server = await check_games_allowed_here(interaction, self.bot.storage)
        # In a thread already, the option changes nothing: the game opens in this thread.
        place: GameThread | None = None
        if thread and not isinstance(interaction.channel, discord.Thread):
            place = await open_thread(self.bot, interaction, info.title)
            channel_id = place.thread_id
        new = NewGame(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            kind=info.kind,
            host_id=interaction.user.id,
            players=(interaction.user.id, *(ai_seat_id(n) for n in range(bots))),
            variants=tuple(v.name for v in info.variants if chosen.get(v.name)),
            seed=self.bot.seeds.getrandbits(52),  # 52 bits stay exact through JSON in every client
            rules_version=info.rules_version,
            options={
                "turn_time": TURN_TIMES[turn_time] if turn_time else server.turn_time(info.kind),
                **({"deal": "daily"} if deal == "daily" else {}),
                # The server's choice when the game opened: a later change applies from the next game on.
                **({} if server.pings else {"pings": False}),
                **({PARENT: place.parent_id} if place else {}),
                # For the posts no interaction causes (the clock, computer players): the server's language.
                **({GUILD_LOCALE_OPTION: guild_locale} if (guild_locale := guild_locale_of(interaction)) else {}),
                **({CHOSEN_LANGUAGE_OPTION: server.chosen_language} if server.chosen_language else {}),
            },
        )
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            try:
                record = await self.bot.storage.create_game(new)
            except ChannelBusy:
                existing = await self.bot.storage.open_game(channel_id)
                title = self.bot.tables.title(existing.kind) if existing else _("a game")
                if existing and existing.status == "lobby":
                    busy = _(
                        "A game of {game} is waiting in its lobby in this channel already: finish it or ask the host "
                        "to /endgame.",
                        game=title,
                    )
                else:
                    busy = _(
                        "A game of {game} is being played in this channel already: finish it or ask the host to "
                        "/endgame.",
                        game=title,
                    )
                raise UserError(busy) from None
            log.info("Lobby for %s opened in channel %s", info.kind, channel_id)
            text = _(
                "{player} opened a game of {game}. Press Join to play!",
                player=interaction.user.mention,
                game=info.title,
            )
            if place is None:
                await self.post_lobby(interaction, record, text)
            else:
                locale = self.bot.tables.languages.for_table(interaction)
                await post_lobby_in_thread(
                    self.bot,
                    interaction,
                    place,
                    record,
                    content=render(text, locale),
                    embed=lobby_embed(record, locale),
                    view=self.lobby_view(locale),
                )
        note = await self.newcomer_note(interaction, record)
        await explain_missing_permissions(interaction, place.thread_id if place else None, also=note)

    async def post_lobby(self, interaction: discord.Interaction[Bot], record: GameRecord, text: Localized) -> None:
        """The lobby's one message, in the table's language: every join and leave edits it."""
        locale = self.bot.tables.languages.for_table(interaction)
        posted = await send(
            interaction, content=render(text, locale), embed=lobby_embed(record, locale), view=self.lobby_view(locale)
        )
        if posted is not None:
            await self.bot.storage.set_message(record.id, posted)

    @app_commands.command(name="join", description="Join the game waiting in this channel's lobby.")
    @app_commands.guild_only()
    async def join_command(self, interaction: discord.Interaction[Bot]) -> None:
        await self.join(interaction)

    @app_commands.command(name="leave", description="Leave this channel's game (lobby or running).")
    @app_commands.guild_only()
    async def leave_command(self, interaction: discord.Interaction[Bot]) -> None:
        await self.leave(interaction)

    @app_commands.command(name="start", description="Start the game in this channel (the host starts it).")
    @app_commands.guild_only()
    async def start_command(self, interaction: discord.Interaction[Bot]) -> None:
        await self.start(interaction)

    # ---- what the buttons and commands do ----------------------------------------------------------------------

    async def lobby(self, channel_id: int) -> GameRecord:
        record = await self.bot.tables.open_record(channel_id)
        if record.status != "lobby":
            title = self.bot.tables.title(record.kind)
            raise UserError(_("The game of {game} here has already started; join the next one!", game=title))
        if record.damaged:
            raise self.bot.tables.unavailable(record, record.damaged)
        self.bot.tables.presenter(record)  # refuses a game this bot doesn't know
        return record

    async def answer_lobby(
        self, interaction: discord.Interaction[Bot], record: GameRecord, text: Text, done: Text
    ) -> None:
        """Keep the lobby one message (in the table's language): a click edits it in place; a command edits it and
        answers privately (in the user's language). The change is saved already: a refusal from Discord now is told
        as what was done (``done``) and what failed."""
        locale = self.bot.tables.languages.for_table(interaction)
        message: dict[str, Any] = {
            "content": render(text, locale),
            "embed": lobby_embed(record, locale),
            "view": self.lobby_view(locale),
        }
        clicked = interaction.message if interaction.type is discord.InteractionType.component else None
        async with committed(interaction, done):
            if clicked is not None and not interaction.response.is_done():
                await update(interaction, **message)
                if clicked.id != record.message_id:
                    await self.bot.storage.set_message(record.id, clicked.id)
                return
            if record.message_id is None or not await self.edit_lobby(record, message):
                await self.post_lobby(interaction, record, text)
                return
            await send(
                interaction,
                content=render(_("{news} The lobby above is up to date.", news=text), interaction.locale.value),
                ephemeral=True,
            )

    async def edit_lobby(self, record: GameRecord, message: dict[str, Any]) -> bool:
        """Edit the lobby message in place; False if it is gone."""
        if record.message_id is None:
            return False
        channel = self.bot.get_partial_messageable(record.channel_id)
        try:
            await channel.get_partial_message(record.message_id).edit(**message)
        except discord.NotFound:
            return False
        return True

    async def change_lobby(self, channel_id: int, change: Any) -> GameRecord:
        """Apply ``change(record) -> changes`` to the channel's lobby, again if somebody changed it meanwhile."""
        for _attempt in range(5):
            record = await self.lobby(channel_id)
            try:
                return await self.bot.storage.update_game(record, **change(record))
            except Conflict:
                continue
        raise UserError(_("The lobby is changing fast; please try again."))

    async def join(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id

        def add(record: GameRecord) -> dict[str, Any]:
            info = GAMES[record.kind].info
            if user in record.players:
                raise UserError(_("You're already in this game."))
            if len(record.players) >= info.max_players:
                raise UserError(
                    _(
                        "The lobby is full: {game} is for at most {most} players.",
                        game=info.title,
                        most=info.max_players,
                    )
                )
            return {"players": (*record.players, user)}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, add)
        await self.answer_lobby(
            interaction, record, _("{player} joined.", player=interaction.user.mention), _("You joined")
        )
        note = await self.newcomer_note(interaction, record)
        if note is None:
            return
        try:
            await send(interaction, content=render(note, interaction.locale.value), ephemeral=True)
        except discord.HTTPException:
            # The lobby is up and the player is in: a note that could not go out changes nothing.
            log.info("The first-game note for %s could not be sent", interaction.user.id, exc_info=True)

    async def newcomer_note(self, interaction: discord.Interaction[Bot], record: GameRecord) -> Text | None:
        """For a person's first game on this server (no game of theirs has ended here yet): a short private note on
        how the table is played here."""
        if await self.bot.storage.player_tallies(record.guild_id, interaction.user.id):
            return None
        return first_game_note(record.kind)

    async def leave(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.bot.tables.open_record(channel_id)
            if user not in record.players:
                raise UserError(_("You aren't in this game."))
            if record.status == "lobby":
                await self.leave_lobby(interaction, record, user)
                return
        presenter = self.bot.tables.presenter(record)
        await self.bot.tables.act(interaction, presenter.game.leave, kind=record.kind)

    async def next_turn_time(self, interaction: discord.Interaction[Bot]) -> None:
        """The host steps through the turn times, one click each."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id
        choices = list(TURN_TIMES.values())

        def step(record: GameRecord) -> dict[str, Any]:
            if record.host_id is not None and user != record.host_id:
                raise UserError(_("Only the host, {host}, sets the turn time.", host=mention(record.host_id)))
            current = turn_time(record)
            following = choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]
            return {"options": {**record.options, "turn_time": following}}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, step)
        await self.answer_lobby(
            interaction,
            record,
            _("Turn time: {time} (press again to change).", time=turn_time_words(turn_time(record))),
            _("The turn time was changed"),
        )

    async def change_bots(self, interaction: discord.Interaction[Bot], change: int) -> None:
        """Seat a computer player (``change`` 1) or send the last one away (-1); the host's choice."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id

        def seat(record: GameRecord) -> dict[str, Any]:
            info = GAMES[record.kind].info
            if record.host_id is not None and user != record.host_id:
                raise UserError(_("Only the host, {host}, seats computer players.", host=mention(record.host_id)))
            if record.host_id is None and user not in record.players:
                raise UserError(_("Only a player in the lobby can seat computer players; press Join first."))
            bots = [p for p in record.players if is_ai(p)]
            if change > 0:
                if info.kind not in AI_PLAYERS:
                    raise UserError(no_computer_players(info))
                if len(record.players) >= info.max_players:
                    raise UserError(
                        _(
                            "The table is full: {game} is for at most {most} players.",
                            game=info.title,
                            most=info.max_players,
                        )
                    )
                taken = set(bots)
                new = next(ai_seat_id(n) for n in range(MAX_BOTS + 1) if ai_seat_id(n) not in taken)
                return {"players": (*record.players, new)}
            if not bots:
                raise UserError(_("There is no computer player to remove."))
            return {"players": tuple(p for p in record.players if p != bots[-1])}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, seat)
        player = interaction.user.mention
        done = (
            _("{player} seated a computer player.", player=player)
            if change > 0
            else _("{player} sent a computer player away.", player=player)
        )
        mine = _("You seated a computer player") if change > 0 else _("You sent a computer player away")
        await self.answer_lobby(interaction, record, done, mine)

    async def leave_lobby(self, interaction: discord.Interaction[Bot], record: GameRecord, user: int) -> None:
        players = tuple(p for p in record.players if p != user)
        host = None if user == record.host_id else record.host_id
        if all(is_ai(p) for p in players):
            await self.bot.storage.update_game(record, players=players, status="abandoned", ended_at=now())
            closed = _("Everybody left, so the lobby is closed. Open a new one with /newgame.")
            await send(interaction, content=render(closed, self.bot.tables.languages.for_table(interaction)))
            return
        host_left = host != record.host_id
        try:
            record = await self.bot.storage.update_game(record, players=players, host_id=host)
        except Conflict:
            raise UserError(_("The lobby changed at the same moment; please try again.")) from None
        player = interaction.user.mention
        left = (
            _("{player} left. The host left: any player may start now.", player=player)
            if host_left
            else _("{player} left.", player=player)
        )
        await self.answer_lobby(interaction, record, left, _("You left"))

    async def start(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.lobby(channel_id)
            info = GAMES[record.kind].info
            user = interaction.user.id
            if record.host_id is not None and user != record.host_id:
                raise UserError(_("Only the host, {host}, can start the game.", host=mention(record.host_id)))
            if record.host_id is None and user not in record.players:
                raise UserError(_("Only a player in the lobby can start the game; press Join first."))
            if len(record.players) < info.min_players:
                raise UserError(
                    _n(
                        "{game} needs at least {least} players; {count} joined so far. Press Add bot to seat a "
                        "computer player.",
                        "{game} needs at least {least} players; {count} joined so far. Press Add bot to seat a "
                        "computer player.",
                        len(record.players),
                        game=info.title,
                        least=info.min_players,
                    )
                )
            if all(is_ai(p) for p in record.players):
                raise UserError(_("A table of computer players alone is not started from Discord: join it first."))
            if record.options.get("deal") == "daily":
                # The table's size is known only now: deal the day's cards for it.
                day = self.today()
                try:
                    record = await self.bot.storage.set_daily_deal(
                        record, daily_seed(record.kind, day, len(record.players)), day.isoformat()
                    )
                except Conflict:
                    raise UserError(_("The lobby changed at the same moment; press Start again.")) from None
            extra = None
            if NO_NUMBERS_IN_CHAT in info.capabilities and not interaction.app_permissions.manage_messages:
                extra = MISSING_PERMISSION
            if interaction.type is not discord.InteractionType.component:
                # Started by command: the lobby keeps its player list but loses its buttons; the board follows below.
                # (Start pressed on the lobby turns the lobby message itself into the board.)
                started = render(_("The game has started."), self.bot.tables.languages.for_table(interaction))
                await self.edit_lobby(record, {"content": started, "view": None})
            try:
                await self.bot.tables.start(interaction, record, extra)
            except Conflict:
                raise UserError(_("The lobby changed at the same moment; press Start again.")) from None


async def setup(bot: Bot) -> None:
    await bot.add_cog(Lobby(bot))
