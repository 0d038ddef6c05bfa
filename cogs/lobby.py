"""Opening, joining and starting games, and the commands every game shares (/hand, /board, /rules, /endgame).

The lobby is the game's row before its deal; starting hands it to the table (``table.flow``). The lobby's
buttons are a persistent view, so they keep working after a restart. /newgame's options come from the games'
registry: each game's variants are its own data.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs._permissions import explain_missing_permissions
from cogs._ui import ErrorHandlingView, in_text_channel, reply_error
from cogs.moderation import MISSING_PERMISSION
from cogs.threads import PARENT, THREAD_OPTION, GameThread, open_thread, post_lobby_in_thread, report_result
from engine import GAMES
from engine.ai import PLAYERS as AI_PLAYERS
from engine.game import NO_NUMBERS_IN_CHAT, GameInfo, Variant
from i18n import Localized, Text, _, _n, _p, joined, lines, listing, render
from storage import ChannelBusy, Conflict, GameRecord, NewGame, now
from table.answer import UserError, committed, detached, in_time, send, update
from table.clock import TURN_TIMES, turn_time, turn_time_words
from table.games import NO_GAME
from table.language import CHOSEN_LANGUAGE_OPTION, GUILD_LOCALE_OPTION, guild_locale_of
from table.people import ai_seat_id, is_ai, mention
from table.settings import check_games_allowed_here, may_end_any_game

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

DEFAULT_GAME = "the_game"
MAX_BOTS = 6
LOBBY_COLOUR = discord.Colour.blurple()


def no_computer_players(info: GameInfo) -> Text:
    return _("{game} has no computer players yet: invite people to fill the seats.", game=info.title)


def all_variants() -> dict[str, tuple[Variant, list[GameInfo]]]:
    """Every variant of every registered game by option name, with the games that have it."""
    found: dict[str, tuple[Variant, list[GameInfo]]] = {}
    for game in GAMES.values():
        for variant in game.info.variants:
            found.setdefault(variant.name, (variant, []))[1].append(game.info)
    return found


VARIANTS = all_variants()
# /newgame's deal choices (translated with the command strings); the lobby says the daily deal in the table's language.
DEALS = {"random": "a random shuffle (default)", "daily": "today's daily deal: the same cards on every server"}
DAILY_DEAL = _("today's daily deal: the same cards on every server")


def utc_today() -> date:
    return datetime.now(UTC).date()


def daily_seed(kind: str, day: date, players: int) -> int:
    """The daily deal: one seed per game, UTC date and number of players, the same on every server (52 bits, like
    every seed, so that it stays exact through JSON)."""
    digest = hashlib.sha256(f"{kind}:{day.isoformat()}:{players}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 12


def variants_text(kind: str, variants: tuple[str, ...]) -> Localized:
    info = GAMES[kind].info
    labels = [v.label for name in variants if (v := info.variant(name)) is not None]
    return joined(labels, ", ") if labels else _("standard rules")


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


async def _newgame(
    self: Lobby,
    interaction: discord.Interaction[Bot],
    game: str = DEFAULT_GAME,
    bots: int = 0,
    turn_time: str | None = None,
    deal: str = "random",
    thread: bool = False,
    **variants: Any,
) -> None:
    await self.newgame(interaction, game, variants, bots, turn_time, deal, thread)


# /newgame takes one optional boolean per variant of any registered game: its parameters are built from the
# registry, so a new variant or game needs no change here.
_newgame.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str, default=DEFAULT_GAME),
        inspect.Parameter(
            "bots", inspect.Parameter.KEYWORD_ONLY, annotation=app_commands.Range[int, 0, MAX_BOTS], default=0
        ),
        inspect.Parameter("turn_time", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=None),
        inspect.Parameter("deal", inspect.Parameter.KEYWORD_ONLY, annotation=str, default="random"),
        inspect.Parameter("thread", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=False),
        *(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=bool | None, default=None)
            for name in VARIANTS
        ),
    ]
)
_newgame.__annotations__ = {}
_newgame.__qualname__ = "Lobby.newgame_command"  # discord.py binds a command defined in a class to its cog
newgame_command: app_commands.Command[Any, Any, None] = app_commands.command(
    name="newgame", description="Open a game in this channel and join it as the host."
)(
    app_commands.guild_only()(
        app_commands.describe(
            game=f"Which game to play (default: {GAMES[DEFAULT_GAME].info.title})",
            bots="Computer players to seat at the table (default none)",
            turn_time="Time for each turn before the autopilot plays it (default: 3 minutes, No Thanks! 1 minute)",
            deal="A random shuffle, or today's daily deal: the same cards on every server (compare with /daily)",
            thread=THREAD_OPTION,
            **{
                name: f"{' / '.join(info.title for info in infos)}: {variant.description}"[:100]
                for name, (variant, infos) in VARIANTS.items()
            },
        )(
            app_commands.choices(
                game=[app_commands.Choice(name=g.info.title, value=g.info.kind) for g in GAMES.values()],
                turn_time=[app_commands.Choice(name=words, value=words) for words in TURN_TIMES],
                deal=[app_commands.Choice(name=words, value=name) for name, words in DEALS.items()],
            )(cast(Any, _newgame))
        )
    )
)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rematch:(?P<game>[0-9]+)"):
    """Under a finished game's last board: a lobby with the same players and options, two clicks from a new game."""

    def __init__(self, game: int) -> None:
        # Matched by custom id only: the board's own button carries the label, in the table's language.
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.success, custom_id=f"rematch:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.client.get_cog("Lobby").rematch(interaction, self.game)
        except Exception as error:
            await reply_error(interaction, error)


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"vote:(?P<game>[0-9]+):(?P<kind>autopilot|remove):(?P<target>-?[0-9]+)",
):
    """The table's vote on a player who let the clock run out: autopilot for them, or out of the game."""

    def __init__(self, game: int, kind: str, target: int) -> None:
        # Matched by custom id only: the board's own button carries the label, in the table's language.
        super().__init__(discord.ui.Button(custom_id=f"vote:{game}:{kind}:{target}"))
        self.game, self.kind, self.target = game, kind, target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VoteButton:
        return cls(int(match["game"]), match["kind"], int(match["target"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            in_text_channel(interaction)
            await interaction.client.tables.vote(interaction, self.game, self.kind, self.target)
        except Exception as error:
            await reply_error(interaction, error)


class Lobby(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.today: Callable[[], date] = utc_today  # the daily deal's date; tests set their own

    newgame_command = newgame_command

    async def cog_load(self) -> None:
        self.bot.add_view(LobbyView(self))
        self.bot.add_dynamic_items(RematchButton, VoteButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RematchButton, VoteButton)

    async def rematch(self, interaction: discord.Interaction[Bot], game_id: int) -> None:
        in_text_channel(interaction)
        old = await self.bot.storage.game(game_id)
        if old is None or old.channel_id != interaction.channel_id or old.is_open:
            raise UserError(_("That game can't be played again from here; open a new one with /newgame."))
        if interaction.user.id not in old.players:
            raise UserError(_("Only the players of that game can ask for a rematch; open a new one with /newgame."))
        info = GAMES[old.kind].info
        # The presser hosts and comes first; the others keep their order.
        players = (interaction.user.id, *(p for p in old.players if p != interaction.user.id))
        new = NewGame(
            channel_id=old.channel_id,
            guild_id=old.guild_id,
            kind=old.kind,
            host_id=interaction.user.id,
            players=players,
            variants=old.variants,
            seed=self.bot.seeds.getrandbits(52),
            rules_version=info.rules_version,
            options=old.options,
        )
        async with self.bot.tables.lock(old.channel_id):
            try:
                record = await self.bot.storage.create_game(new)
            except ChannelBusy:
                raise UserError(
                    _("A game is already open in this channel: join it, or ask its host to /endgame.")
                ) from None
            await self.post_lobby(
                interaction,
                record,
                _(
                    "{player} wants a rematch of {game}: press Start to deal.",
                    player=interaction.user.mention,
                    game=info.title,
                ),
            )

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None and not message.author.bot:
            self.bot.tables.note_chat(message.channel.id)

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
        game = GAMES.get(kind)
        if game is None:
            raise UserError(_("Choose a game from the list."))
        info = game.info
        if not isinstance(bots, int) or isinstance(bots, bool) or not 0 <= bots <= MAX_BOTS:
            raise UserError(_("bots is a number of computer players, from 0 to {most}.", most=MAX_BOTS))
        if turn_time is not None and turn_time not in TURN_TIMES:
            raise UserError(
                _(
                    "Choose a turn time from the list: {choices}.",
                    choices=joined([turn_time_words(seconds) for seconds in TURN_TIMES.values()], ", "),
                )
            )
        if deal not in DEALS:
            raise UserError(_("Choose the deal from the list: random or daily."))
        if bots and info.kind not in AI_PLAYERS:
            raise UserError(no_computer_players(info))
        if bots and bots + 1 > info.max_players:
            raise UserError(
                _n(
                    "{game} is for at most {most} players: you and {count} bot.",
                    "{game} is for at most {most} players: you and {count} bots.",
                    info.max_players - 1,
                    game=info.title,
                    most=info.max_players,
                )
            )
        for name, value in chosen.items():
            if value is not None and not isinstance(value, bool):
                raise UserError(_("The option {option} is either true or false.", option=name.replace("_", " ")))
        misfits = [name for name, value in chosen.items() if value is not None and info.variant(name) is None]
        if misfits:
            labels = [v.label for v in info.variants]
            option = VARIANTS[misfits[0]][0].label
            if not labels:
                refusal = _(
                    "The option {option} doesn't fit {game}: it has no options.", option=option, game=info.title
                )
            elif len(labels) == 1:
                refusal = _(
                    "The option {option} doesn't fit {game}: its only option is {only}.",
                    option=option,
                    game=info.title,
                    only=labels[0],
                )
            else:
                refusal = _(
                    "The option {option} doesn't fit {game}: its options are {options}.",
                    option=option,
                    game=info.title,
                    options=listing(labels),
                )
            raise UserError(refusal)
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
        await explain_missing_permissions(interaction, place.thread_id if place else None)

    async def post_lobby(self, interaction: discord.Interaction[Bot], record: GameRecord, text: Text) -> None:
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

    @app_commands.command(name="endgame", description="End this channel's lobby or game (host or Manage Channels).")
    @app_commands.guild_only()
    async def endgame(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.bot.tables.open_record(channel_id)
            if (
                interaction.user.id != record.host_id
                and not interaction.permissions.manage_channels
                and not await may_end_any_game(interaction, self.bot.storage)
            ):
                raise UserError(_("Only the host or a member with Manage Channels can end this game."))
            await self.bot.tables.abandon(record)
        log.info("%s in channel %s ended by %s", record.kind, channel_id, interaction.user.id)
        values = {"player": interaction.user.mention, "game": self.bot.tables.title(record.kind)}
        ended = (
            _("{player} ended the lobby of {game}. No score is recorded; the channel is free for /newgame.", **values)
            if record.status == "lobby"
            else _(
                "{player} ended the game of {game}. No score is recorded; the channel is free for /newgame.", **values
            )
        )
        await send(interaction, content=render(ended, self.bot.tables.languages.for_table(interaction)))
        await report_result(self.bot, record, ended_early=True)

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

    # ---- commands every running game shares ---------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your own hand (and chips) privately.")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Bot]) -> None:
        await self.bot.tables.show_panel(interaction)

    @app_commands.command(name="board", description="Post the board of this channel's game again.")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction[Bot]) -> None:
        record = await self.bot.storage.open_game(interaction.channel_id or 0)
        if record is None:
            # For a while after the end (until the next /newgame), the board shows how the last game ended.
            last = await self.bot.storage.channel_games(interaction.channel_id or 0, limit=1)
            if not last or last[0].started_at is None:
                raise UserError(NO_GAME)
            await self.bot.tables.show_result(interaction, last[0])
            return
        if record.status == "lobby" and record.kind in GAMES and not record.damaged:
            locale = self.bot.tables.languages.for_table(interaction)
            await send(
                interaction,
                content=render(_("Waiting for players."), locale),
                embed=lobby_embed(record, locale),
                view=self.lobby_view(locale),
            )
            return
        await self.bot.tables.show_board(interaction, record)

    @app_commands.command(name="rules", description="The rules in short, privately.")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game's rules (default: the game in this channel, else The Game)")
    @app_commands.choices(game=[app_commands.Choice(name=g.info.title, value=g.info.kind) for g in GAMES.values()])
    async def rules(self, interaction: discord.Interaction[Bot], game: str | None = None) -> None:
        if game is None:
            record = await self.bot.storage.open_game(interaction.channel_id or 0)
            game = record.kind if record and record.kind in GAMES else DEFAULT_GAME
        presenter = self.bot.tables.presenters.get(game)
        if presenter is None:
            raise UserError(_("{game} isn't available on this bot yet.", game=self.bot.tables.title(game)))
        await send(interaction, content=render(presenter.rules_text, interaction.locale.value), ephemeral=True)

    # ---- the channel is gone ----------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.close_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.close_deleted(payload.thread_id)

    async def close_deleted(self, channel_id: int) -> None:
        """A deleted channel's game can never be played again: end it as abandoned rather than running forever."""
        async with self.bot.tables.lock(channel_id):
            record = await self.bot.storage.open_game(channel_id)
            if record is None:
                return
            try:
                await self.bot.tables.abandon(record)
            except Conflict:
                return
        log.info("Channel %s was deleted; its game %s is abandoned", channel_id, record.id)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Lobby(bot))
