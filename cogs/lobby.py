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
from engine import GAMES
from engine.ai import PLAYERS as AI_PLAYERS
from engine.game import NO_NUMBERS_IN_CHAT, GameInfo, Variant
from storage import ChannelBusy, Conflict, GameRecord, NewGame, now
from table.answer import UserError, committed, detached, in_time, send, update
from table.clock import TURN_TIMES, turn_time, turn_time_words
from table.games import NO_GAME
from table.people import ai_seat_id, is_ai, mention
from table.settings import check_games_allowed_here, may_end_any_game

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

DEFAULT_GAME = "the_game"
MAX_BOTS = 6
LOBBY_COLOUR = discord.Colour.blurple()


def no_computer_players(info: GameInfo) -> str:
    return f"{info.title} has no computer players yet: invite people to fill the seats."


def all_variants() -> dict[str, tuple[Variant, list[GameInfo]]]:
    """Every variant of every registered game by option name, with the games that have it."""
    found: dict[str, tuple[Variant, list[GameInfo]]] = {}
    for game in GAMES.values():
        for variant in game.info.variants:
            found.setdefault(variant.name, (variant, []))[1].append(game.info)
    return found


VARIANTS = all_variants()
DEALS = {"random": "a random shuffle (default)", "daily": "today's daily deal: the same cards on every server"}


def utc_today() -> date:
    return datetime.now(UTC).date()


def daily_seed(kind: str, day: date, players: int) -> int:
    """The daily deal: one seed per game, UTC date and number of players, the same on every server (52 bits, like
    every seed, so that it stays exact through JSON)."""
    digest = hashlib.sha256(f"{kind}:{day.isoformat()}:{players}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 12


def variants_text(kind: str, variants: tuple[str, ...]) -> str:
    info = GAMES[kind].info
    labels = [v.label for name in variants if (v := info.variant(name)) is not None]
    return ", ".join(labels) if labels else "standard rules"


def lobby_embed(record: GameRecord) -> discord.Embed:
    info = GAMES[record.kind].info
    embed = discord.Embed(title=f"{info.title}: lobby", colour=LOBBY_COLOUR)
    embed.add_field(name="Variant", value=variants_text(record.kind, record.variants), inline=False)
    embed.add_field(name="Turn time", value=turn_time_words(turn_time(record)), inline=False)
    if record.options.get("deal") == "daily":
        embed.add_field(name="Deal", value=DEALS["daily"], inline=False)
    players = "\n".join(
        f"{mention(p)}{' (host)' if p == record.host_id else ''}{' (computer)' if is_ai(p) else ''}"
        for p in record.players
    )
    embed.add_field(name=f"Players ({len(record.players)}/{info.max_players})", value=players or "nobody", inline=False)
    starter = "the host" if record.host_id is not None else "any player"
    embed.set_footer(text=f"{info.min_players}-{info.max_players} players. Join, then {starter} presses Start.")
    return embed


class LobbyView(ErrorHandlingView):
    """Join / Leave / Start under a lobby message; stateless, so one instance serves every lobby."""

    def __init__(self, cog: Lobby) -> None:
        super().__init__()
        self.cog = cog

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
    **variants: Any,
) -> None:
    await self.newgame(interaction, game, variants, bots, turn_time, deal)


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
        super().__init__(
            discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success, custom_id=f"rematch:{game}")
        )
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
        super().__init__(discord.ui.Button(label="Vote", custom_id=f"vote:{game}:{kind}:{target}"))
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
            raise UserError("That game can't be played again from here; open a new one with /newgame.")
        if interaction.user.id not in old.players:
            raise UserError("Only the players of that game can ask for a rematch; open a new one with /newgame.")
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
                    "A game is already open in this channel: join it, or ask its host to /endgame."
                ) from None
            await self.post_lobby(
                interaction, record, f"{interaction.user.mention} wants a rematch of {info.title}: press Start to deal."
            )

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None and not message.author.bot:
            self.bot.tables.note_chat(message.channel.id)

    def lobby_view(self) -> LobbyView:
        return detached(LobbyView(self))

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
    ) -> None:
        game = GAMES.get(kind)
        if game is None:
            raise UserError("Choose a game from the list.")
        info = game.info
        if not isinstance(bots, int) or isinstance(bots, bool) or not 0 <= bots <= MAX_BOTS:
            raise UserError(f"bots is a number of computer players, from 0 to {MAX_BOTS}.")
        if turn_time is not None and turn_time not in TURN_TIMES:
            raise UserError(f"Choose a turn time from the list: {', '.join(TURN_TIMES)}.")
        if deal not in DEALS:
            raise UserError("Choose the deal from the list: random or daily.")
        if bots and info.kind not in AI_PLAYERS:
            raise UserError(no_computer_players(info))
        if bots and bots + 1 > info.max_players:
            raise UserError(
                f"{info.title} is for at most {info.max_players} players: you and {info.max_players - 1} bots."
            )
        for name, value in chosen.items():
            if value is not None and not isinstance(value, bool):
                raise UserError(f"The option {name.replace('_', ' ')} is either true or false.")
        misfits = [name for name, value in chosen.items() if value is not None and info.variant(name) is None]
        if misfits:
            labels = [v.label for v in info.variants]
            if not labels:
                fits = "it has no options"
            elif len(labels) == 1:
                fits = f"its only option is {labels[0]}"
            else:
                fits = f"its options are {' and '.join(labels)}"
            raise UserError(f"The option {VARIANTS[misfits[0]][0].label} doesn't fit {info.title}: {fits}.")
        channel_id = interaction.channel_id
        assert channel_id is not None
        assert interaction.guild_id is not None
        server = await check_games_allowed_here(interaction, self.bot.storage)
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
            },
        )
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            try:
                record = await self.bot.storage.create_game(new)
            except ChannelBusy:
                existing = await self.bot.storage.open_game(channel_id)
                title = self.bot.tables.title(existing.kind) if existing else "a game"
                state = "is waiting in its lobby" if existing and existing.status == "lobby" else "is being played"
                raise UserError(
                    f"A game of {title} {state} in this channel already: finish it or ask the host to /endgame."
                ) from None
            log.info("Lobby for %s opened in channel %s", info.kind, channel_id)
            await self.post_lobby(
                interaction, record, f"{interaction.user.mention} opened a game of {info.title}. Press Join to play!"
            )
        await explain_missing_permissions(interaction)

    async def post_lobby(self, interaction: discord.Interaction[Bot], record: GameRecord, text: str) -> None:
        """The lobby's one message: every join and leave edits it."""
        posted = await send(interaction, content=text, embed=lobby_embed(record), view=self.lobby_view())
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
                raise UserError("Only the host or a member with Manage Channels can end this game.")
            await self.bot.tables.abandon(record)
        log.info("%s in channel %s ended by %s", record.kind, channel_id, interaction.user.id)
        what = "lobby" if record.status == "lobby" else "game"
        await send(
            interaction,
            content=f"{interaction.user.mention} ended the {what} of {self.bot.tables.title(record.kind)}. "
            "No score is recorded; the channel is free for /newgame.",
        )

    # ---- what the buttons and commands do ----------------------------------------------------------------------

    async def lobby(self, channel_id: int) -> GameRecord:
        record = await self.bot.tables.open_record(channel_id)
        if record.status != "lobby":
            title = self.bot.tables.title(record.kind)
            raise UserError(f"The game of {title} here has already started; join the next one!")
        if record.damaged:
            raise self.bot.tables.unavailable(record, record.damaged)
        self.bot.tables.presenter(record)  # refuses a game this bot doesn't know
        return record

    async def answer_lobby(
        self, interaction: discord.Interaction[Bot], record: GameRecord, text: str, done: str
    ) -> None:
        """Keep the lobby one message: a click edits it in place; a command edits it and answers privately. The
        change is saved already: a refusal from Discord now is told as what was done (``done``) and what failed."""
        message: dict[str, Any] = {"content": text, "embed": lobby_embed(record), "view": self.lobby_view()}
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
            await send(interaction, content=f"{text} The lobby above is up to date.", ephemeral=True)

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
        for _ in range(5):
            record = await self.lobby(channel_id)
            try:
                return await self.bot.storage.update_game(record, **change(record))
            except Conflict:
                continue
        raise UserError("The lobby is changing fast; please try again.")

    async def join(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id

        def add(record: GameRecord) -> dict[str, Any]:
            info = GAMES[record.kind].info
            if user in record.players:
                raise UserError("You're already in this game.")
            if len(record.players) >= info.max_players:
                raise UserError(f"The lobby is full: {info.title} is for at most {info.max_players} players.")
            return {"players": (*record.players, user)}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, add)
        await self.answer_lobby(interaction, record, f"{interaction.user.mention} joined.", "You joined")

    async def leave(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.bot.tables.open_record(channel_id)
            if user not in record.players:
                raise UserError("You aren't in this game.")
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
                raise UserError(f"Only the host, {mention(record.host_id)}, sets the turn time.")
            current = turn_time(record)
            following = choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]
            return {"options": {**record.options, "turn_time": following}}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, step)
        words = turn_time_words(turn_time(record))
        await self.answer_lobby(
            interaction, record, f"Turn time: {words} (press again to change).", f"The turn time is {words}"
        )

    async def change_bots(self, interaction: discord.Interaction[Bot], change: int) -> None:
        """Seat a computer player (``change`` 1) or send the last one away (-1); the host's choice."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id

        def seat(record: GameRecord) -> dict[str, Any]:
            info = GAMES[record.kind].info
            if record.host_id is not None and user != record.host_id:
                raise UserError(f"Only the host, {mention(record.host_id)}, seats computer players.")
            if record.host_id is None and user not in record.players:
                raise UserError("Only a player in the lobby can seat computer players; press Join first.")
            bots = [p for p in record.players if is_ai(p)]
            if change > 0:
                if info.kind not in AI_PLAYERS:
                    raise UserError(no_computer_players(info))
                if len(record.players) >= info.max_players:
                    raise UserError(f"The table is full: {info.title} is for at most {info.max_players} players.")
                taken = set(bots)
                new = next(ai_seat_id(n) for n in range(MAX_BOTS + 1) if ai_seat_id(n) not in taken)
                return {"players": (*record.players, new)}
            if not bots:
                raise UserError("There is no computer player to remove.")
            return {"players": tuple(p for p in record.players if p != bots[-1])}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, seat)
        what = "seated a computer player" if change > 0 else "sent a computer player away"
        await self.answer_lobby(interaction, record, f"{interaction.user.mention} {what}.", f"You {what}")

    async def leave_lobby(self, interaction: discord.Interaction[Bot], record: GameRecord, user: int) -> None:
        players = tuple(p for p in record.players if p != user)
        host = None if user == record.host_id else record.host_id
        if all(is_ai(p) for p in players):
            await self.bot.storage.update_game(record, players=players, status="abandoned", ended_at=now())
            await send(interaction, content="Everybody left, so the lobby is closed. Open a new one with /newgame.")
            return
        note = " The host left: any player may start now." if host != record.host_id else ""
        try:
            record = await self.bot.storage.update_game(record, players=players, host_id=host)
        except Conflict:
            raise UserError("The lobby changed at the same moment; please try again.") from None
        await self.answer_lobby(interaction, record, f"{interaction.user.mention} left.{note}", "You left")

    async def start(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.lobby(channel_id)
            info = GAMES[record.kind].info
            user = interaction.user.id
            if record.host_id is not None and user != record.host_id:
                raise UserError(f"Only the host, {mention(record.host_id)}, can start the game.")
            if record.host_id is None and user not in record.players:
                raise UserError("Only a player in the lobby can start the game; press Join first.")
            if len(record.players) < info.min_players:
                raise UserError(
                    f"{info.title} needs at least {info.min_players} players; {len(record.players)} joined so far. "
                    "Press Add bot to seat a computer player."
                )
            if all(is_ai(p) for p in record.players):
                raise UserError("A table of computer players alone is not started from Discord: join it first.")
            if record.options.get("deal") == "daily":
                # The table's size is known only now: deal the day's cards for it.
                day = self.today()
                try:
                    record = await self.bot.storage.set_daily_deal(
                        record, daily_seed(record.kind, day, len(record.players)), day.isoformat()
                    )
                except Conflict:
                    raise UserError("The lobby changed at the same moment; press Start again.") from None
            extra = ""
            if NO_NUMBERS_IN_CHAT in info.capabilities and not interaction.app_permissions.manage_messages:
                extra = f"\n\n{MISSING_PERMISSION}"
            if interaction.type is not discord.InteractionType.component:
                # Started by command: the lobby keeps its player list but loses its buttons; the board follows below.
                # (Start pressed on the lobby turns the lobby message itself into the board.)
                await self.edit_lobby(record, {"content": "The game has started.", "view": None})
            try:
                await self.bot.tables.start(interaction, record, extra)
            except Conflict:
                raise UserError("The lobby changed at the same moment; press Start again.") from None

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
            await send(interaction, content="Waiting for players.", embed=lobby_embed(record), view=self.lobby_view())
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
            raise UserError(f"{self.bot.tables.title(game)} isn't available on this bot yet.")
        await send(interaction, content=presenter.rules_text, ephemeral=True)

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
