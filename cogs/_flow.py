"""The one flow every game shares: find the channel's game, apply an action, append it to the log, answer.

A running game's state is derived from its log by replay once per process (at first use), then kept in memory and
advanced move by move. Correctness never rests on that cache or on the per-channel lock: appending move ``n + 1``
fails if anybody (another click, another process) appended it first, and then the game is re-read and the action
decided again against the newer position.

Each game plugs in a ``Presenter``: pure functions from states to what people read. Private views (a hand, chips)
reach players by one DM per game, edited in place; what each DM last showed is kept in the database, so a restart
delivers whatever a kill interrupted.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

import discord

from cogs._clock import TurnClock, autopilot
from cogs._ui import NO_GAME, NO_PINGS, USERS_ONLY, DMsClosed, UserError, detached, is_ai, mention, send
from engine import GAMES
from engine.ai import PLAYERS as AI_PLAYERS
from engine.errors import CorruptState, GameError
from engine.game import NO_NUMBERS_IN_CHAT, Game, Move, Setup, decode_moves, replay
from storage import Ending, GameRecord, Storage
from storage.sqlite import now

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")

# Discord drops an interaction not acknowledged within 3 s; past this, defer first and answer with a followup.
DEFER_AFTER_SECONDS = 2.0
STALE_PANEL = "This panel belongs to an earlier game: open a fresh one with /hand."
AI_PAUSE_SECONDS = 1.0
# An interaction's token edits its messages for 15 minutes; leave a margin.
INTERACTION_TOKEN_SECONDS = 14 * 60
# A DM Discord kept failing is tried again after this long.
RETRY_DM_SECONDS = 30.0
# Chat messages after the board that push it out of sight: the next change posts the board again below them.
REPOST_AFTER_MESSAGES = 8
# Running games kept in memory; a game past this many is replayed again from its log when next used.
LIVE_GAMES = 5000


class Presenter(Protocol[StateT, ActionT]):
    """How one game reads to people. Pure: no I/O, no interaction, the same answer for the same state."""

    game: Game[StateT, ActionT]
    rules_text: str
    closed_dms_hint: str

    def board(self, state: StateT) -> discord.Embed: ...
    def board_view(self, record: GameRecord, state: StateT) -> discord.ui.View | None: ...
    def headline(self, state: StateT) -> str | None: ...
    def private_text(self, state: StateT, player: int) -> str: ...
    def start_text(self, state: StateT) -> str: ...
    def announce(self, before: StateT, after: StateT, player: int, action: ActionT) -> str: ...
    def game_over_text(self, state: StateT) -> str: ...
    def dm_due(self, before: StateT, after: StateT, player: int, action: ActionT) -> list[int]:
        """Players whose DM must now show their private view again."""
        ...

    def show_after(self, before: StateT, after: StateT, player: int, action: ActionT) -> bool:
        """Whether the mover also gets their private panel as an ephemeral followup when a new board is posted."""
        ...

    def new_board(self, before: StateT, after: StateT, player: int, action: ActionT) -> bool:
        """Whether the table moved on (a new turn, a card taken): the board is posted anew and pings the next
        player. Otherwise the board is edited in place and pings nobody."""
        ...

    def panel(self, record: GameRecord, state: StateT, player: int, page: str | None) -> dict[str, Any]:
        """The private panel of ``player`` (content and buttons), shown ephemerally; ``page`` is the game's own
        name for a page of it (None: the main page)."""
        ...


class Played(NamedTuple):
    """An action that was appended to the log, with the positions around it."""

    live: Live[Any]
    presenter: Presenter[Any, Any]
    before: Any
    after: Any
    player: int
    action: Any


@dataclass(slots=True)
class BoardHandle:
    """How to edit a board posted as an interaction's answer: through that interaction's webhook token (15
    minutes), which costs nothing against the rate limits. Only the token is kept, not the interaction."""

    message_id: int
    application_id: int
    token: str
    since: float = field(default_factory=time.monotonic)

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], message_id: int) -> BoardHandle:
        return cls(message_id, interaction.application_id, interaction.token)

    def fresh(self) -> bool:
        return time.monotonic() - self.since < INTERACTION_TOKEN_SECONDS

    async def edit(self, client: discord.Client, **message: Any) -> None:
        await discord.Webhook.partial(self.application_id, self.token, client=client).edit_message(
            self.message_id, **message
        )


class GameUnavailable(UserError):
    """The channel's game cannot be loaded; only /endgame helps."""


@dataclass
class Live(Generic[StateT]):
    """A running game in memory: its row, its state, and the private text each player's DM must show."""

    record: GameRecord
    state: StateT
    dm_text: dict[int, str] = field(default_factory=dict)
    last: str = ""  # what happened last, for the private panels


def setup_of(record: GameRecord) -> Setup:
    return Setup(record.players, record.seed, frozenset(record.variants), record.rules_version)


def unavailable(record: GameRecord, why: str) -> GameUnavailable:
    log.error("Game %s in channel %s cannot be loaded: %s", record.id, record.channel_id, why)
    return GameUnavailable(
        f"The game in this channel can't be loaded ({why}). The host or a member with Manage Channels can clear it "
        "with /endgame."
    )


class Tables:
    """The bot's games: loading, acting, answering, and keeping DMs current."""

    def __init__(self, bot: Bot, storage: Storage) -> None:
        self.bot = bot
        self.storage = storage
        self.presenters: dict[str, Presenter[Any, Any]] = {}
        self._live: OrderedDict[int, Live[Any]] = OrderedDict()
        # The fast path that keeps one channel's actions in order within this process; the log's unique key, not
        # this lock, is what keeps two writers from both acting at one position.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._delivery: dict[int, asyncio.Task[None]] = {}
        self._retries: set[asyncio.TimerHandle] = set()
        self.clock = TurnClock(self)
        self._ai: dict[int, asyncio.Task[None]] = {}
        self._ai_again: set[int] = set()
        # Computer players wait this long before each move, so that people can follow.
        self.ai_pause = AI_PAUSE_SECONDS
        self._told_closed_dms: set[tuple[int, int]] = set()
        # Chat moderation asks for every message whether a game that forbids numbers runs in the channel; answer
        # from memory. Kept by start, load and end (a channel's messages all reach the process that runs its game).
        self._running: dict[int, str] = {}
        self._chat_since: dict[int, int] = {}
        self._handles: dict[int, BoardHandle] = {}  # game id -> how to edit its board for free
        self._board_turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.closing = False

    def forbids_numbers(self, channel_id: int) -> bool:
        kind = self._running.get(channel_id)
        return kind is not None and NO_NUMBERS_IN_CHAT in GAMES[kind].info.capabilities

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def presenter(self, record: GameRecord) -> Presenter[Any, Any]:
        presenter = self.presenters.get(record.kind)
        if presenter is None:
            raise unavailable(record, f"this bot doesn't know the game {record.kind[:40]!r}")
        return presenter

    def title(self, kind: str) -> str:
        game = GAMES.get(kind)
        return game.info.title if game else "this game"

    # ---- loading ----------------------------------------------------------------------------------------------

    async def open_record(self, channel_id: int) -> GameRecord:
        record = await self.storage.open_game(channel_id)
        if record is None:
            raise UserError(NO_GAME)
        return record

    async def live(self, record: GameRecord) -> Live[Any]:
        """The running game of ``record`` in memory, brought up to the log's length."""
        if record.damaged:
            raise unavailable(record, record.damaged)
        presenter = self.presenter(record)
        live = self._live.get(record.id)
        if live is None or presenter.game.move_count(live.state) > record.moves:
            live = await self._replay(record, presenter)
        else:
            known = presenter.game.move_count(live.state)
            if known < record.moves:
                await self._catch_up(live, presenter, known)
            # The board this process posted last is newer than the row until set_message lands.
            live.record = replace(record, message_id=live.record.message_id or record.message_id)
        self._live[record.id] = live
        self._live.move_to_end(record.id)
        self._running[record.channel_id] = record.kind
        while len(self._live) > LIVE_GAMES:
            self._live.popitem(last=False)
        return live

    async def _replay(self, record: GameRecord, presenter: Presenter[Any, Any]) -> Live[Any]:
        game = presenter.game
        logged = await self.storage.moves(record.id)
        try:
            moves = decode_moves(game, [(m.player, m.action) for m in logged])
            live: Live[Any] = Live(record, replay(game, setup_of(record), ()))
            for player in record.players:
                if not is_ai(player):
                    live.dm_text[player] = presenter.private_text(live.state, player)
            self._advance(live, presenter, moves)
        except CorruptState as error:
            raise unavailable(record, str(error).rstrip(".")) from error
        return live

    async def _catch_up(self, live: Live[Any], presenter: Presenter[Any, Any], known: int) -> None:
        logged = await self.storage.moves(live.record.id, after=known)
        try:
            self._advance(live, presenter, decode_moves(presenter.game, [(m.player, m.action) for m in logged]))
        except CorruptState as error:
            self.forget(live.record)
            raise unavailable(live.record, str(error).rstrip(".")) from error

    def _advance(self, live: Live[Any], presenter: Presenter[Any, Any], moves: list[Move[Any]]) -> None:
        """Apply logged moves, keeping track of what each DM should show (raises CorruptState for a bad log)."""
        game = presenter.game
        for number, move in enumerate(moves, start=game.move_count(live.state) + 1):
            try:
                after = game.apply(live.state, move.player, move.action)
            except Exception as error:
                raise CorruptState(f"move {number} breaks the rules: {error}") from error
            for player in presenter.dm_due(live.state, after, move.player, move.action):
                if not is_ai(player):
                    live.dm_text[player] = presenter.private_text(after, player)
            live.state = after

    async def running(self, channel_id: int, kind: str | None = None) -> tuple[Live[Any], Presenter[Any, Any]]:
        """The channel's running game (of ``kind``, if given), or a friendly refusal."""
        record = await self.open_record(channel_id)
        if record.status == "lobby":
            raise UserError("The game hasn't started yet: the host starts it with /start once everybody has joined.")
        presenter = self.presenter(record)
        if kind is not None and record.kind != kind:
            raise UserError(
                f"This channel is playing {self.title(record.kind)}; {self.title(kind)} commands don't work here."
            )
        return await self.live(record), presenter

    # ---- acting -----------------------------------------------------------------------------------------------

    @asynccontextmanager
    async def in_time(self, interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
        """Defer the interaction if the work inside takes long (a busy database), so Discord never drops it."""
        deferral: list[asyncio.Future[Any]] = []

        def defer() -> None:
            if not interaction.response.is_done():
                deferral.append(asyncio.ensure_future(interaction.response.defer(thinking=True)))

        handle = asyncio.get_running_loop().call_later(DEFER_AFTER_SECONDS, defer)
        try:
            yield
        finally:
            handle.cancel()
            for task in deferral:
                with suppress(discord.HTTPException):
                    await task

    async def act(
        self,
        interaction: discord.Interaction[Any],
        action: Any,
        *,
        kind: str | None = None,
        board: tuple[int, int] | None = None,
        game: int | None = None,
        page: str | None = None,
    ) -> None:
        """Apply ``action`` by the interaction's user to the channel's game, append it to the log, then answer.
        ``game`` is the game id a private panel's button was made for, ``page`` the panel page to show after."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with self.in_time(interaction):
            played = await self.play(channel_id, interaction.user.id, action, kind=kind, board=board, game=game)
        await self.answer(interaction, played, page)

    async def play(
        self,
        channel_id: int,
        player: int,
        action: Any,
        *,
        kind: str | None = None,
        board: tuple[int, int] | None = None,
        game: int | None = None,
        auto: bool = False,
    ) -> Played:
        """Apply ``action`` by ``player`` to the channel's running game and append it to the log.

        ``board`` is (game id, move count) of the board whose button was pressed: the action is refused unless that
        board shows the current position of the current game. Raises GameError or UserError, changing nothing, when
        the action is refused; if another writer appended first, the action is decided again on the newer position.
        """
        async with self.lock(channel_id):
            for attempt in range(3):
                live, presenter = await self.running(channel_id, kind)
                rules = presenter.game
                before = live.state
                if board is not None and board != (live.record.id, rules.move_count(before)):
                    raise UserError("That board is out of date: use the buttons on the newest board below.")
                if game is not None and game != live.record.id:
                    raise UserError(STALE_PANEL)
                after = rules.apply(before, player, action)
                if await self._append(live, presenter, player, action, after, auto):
                    if not auto and not is_ai(player):
                        await self.clock.acted(live.record, player)
                    try:
                        # Before the answer, so that the board it shows carries the new turn's deadline.
                        await self.clock.moved(live, presenter, presenter.new_board(before, after, player, action))
                    except Exception:
                        log.exception("Could not set the turn clock of game %s", live.record.id)
                    return Played(live, presenter, before, after, player, action)
                log.info("Move %d of game %s was taken; deciding again", rules.move_count(after), live.record.id)
                await asyncio.sleep(0.01 * (attempt + 1))
        raise UserError("Several moves arrived at once; yours was not made. Please try again.")

    async def _append(
        self, live: Live[Any], presenter: Presenter[Any, Any], player: int, action: Any, after: Any, auto: bool
    ) -> bool:
        game = presenter.game
        outcome = game.outcome(after)
        ending = None
        if outcome is not None:
            status = "abandoned" if outcome.abandoned else "finished"
            ending = Ending(status, None if outcome.abandoned else dict(outcome.result))
        seq = game.move_count(after)
        if not await self.storage.append_move(
            live.record.id, seq, player, game.encode_action(action), ending, auto=auto
        ):
            self._live.pop(live.record.id, None)  # re-read from the log on the next round
            return False
        for upcoming in presenter.dm_due(live.state, after, player, action):
            if not is_ai(upcoming):
                live.dm_text[upcoming] = presenter.private_text(after, upcoming)
        live.state = after
        if ending is not None:
            log.info("%s in channel %s ended: %s", live.record.kind, live.record.channel_id, ending.status)
            live.record = replace(live.record, status=ending.status, ended_at=now())
            self.forget(live.record)
        return True

    async def answer(self, interaction: discord.Interaction[Any], played: Played, page: str | None = None) -> None:
        """Tell the table what happened. The move is already in the log, so a failure here never says otherwise.

        The channel stays quiet: the board is one message edited in place, and a new board is posted at the bottom
        only when the presenter says the table moved on (a new turn, a card taken), when the game ends, or when chat
        has pushed the board out of sight. Only a new board pings, and only the player who must act next.
        """
        live = played.live
        try:
            await self._answer(interaction, played, page)
        except Exception:
            # Never let the error handler say "nothing was changed": the move is made.
            log.exception("Move made in channel %s but the answer failed", live.record.channel_id)
            with suppress(Exception):
                await send(
                    interaction, content="Your move was made, but showing it failed: use /board.", ephemeral=True
                )
        self.deliver_later(live, interaction)
        await self.after_move(played)

    async def after_move(self, played: Played) -> None:
        """What every move sets going: the computer players."""
        self.wake_ai(played.live)

    def cached(self, game_id: int) -> Live[Any] | None:
        return self._live.get(game_id)

    async def _answer(self, interaction: discord.Interaction[Any], played: Played, page: str | None) -> None:
        live, presenter, _, _, player, _ = played
        record = live.record
        board, fresh = self._board_after(played)
        on_board = self._is_board_click(interaction, record)
        on_panel = interaction.type is discord.InteractionType.component and not on_board
        if not fresh:
            if on_board:
                await interaction.response.edit_message(**board)  # the clicked board itself: free
                return
            if on_panel:
                await interaction.response.edit_message(**self.panel(live, presenter, player, page, ack=True))
            else:
                await send(interaction, ephemeral=True, **self.panel(live, presenter, player, None, ack=True))
            await self._show_in_place(played, board)
            return
        async with self._board_turn(record.id):
            await self._post_new_board(interaction, played, board, page, on_board=on_board, on_panel=on_panel)

    async def _post_new_board(
        self,
        interaction: discord.Interaction[Any],
        played: Played,
        board: dict[str, Any],
        page: str | None,
        *,
        on_board: bool,
        on_panel: bool,
    ) -> None:
        live, presenter, before, after, player, action = played
        over = presenter.game.is_over(after)
        mentions = self.pings(played)
        old = live.record.message_id
        if on_board or on_panel:
            if on_board:
                # The clicked board keeps what happened but loses its buttons; the new board goes below.
                await interaction.response.edit_message(content=board.get("content"), embed=board["embed"], view=None)
                old = None
            else:
                await interaction.response.edit_message(**self.panel(live, presenter, player, page, ack=True))
            posted = await interaction.followup.send(wait=True, allowed_mentions=mentions, **board)
            handle = BoardHandle.of(interaction, posted.id)
        else:
            response = await interaction.response.send_message(allowed_mentions=mentions, **board)
            handle = BoardHandle.of(interaction, response.message_id or 0)
            if not over and presenter.show_after(before, after, player, action):
                await interaction.followup.send(ephemeral=True, **self.panel(live, presenter, player, None))
        await self._moved_board(live, handle.message_id, old, handle)

    def _board_after(self, played: Played, prefix: str = "") -> tuple[dict[str, Any], bool]:
        """The board a move leaves, with what happened (and the end), and whether it goes up as a new message: when
        the table moved on, the game ended, there is no board yet, or chat has pushed it out of sight."""
        live, presenter, before, after, player, action = played
        record = live.record
        text = prefix + presenter.announce(before, after, player, action)
        live.last = text
        over = presenter.game.is_over(after)
        if over:
            text = f"{text}\n\n{presenter.game_over_text(after)}"
        fresh = (
            over
            or record.message_id is None
            or presenter.new_board(before, after, player, action)
            or self._chat_since.get(record.channel_id, 0) >= REPOST_AFTER_MESSAGES
        )
        return self.public(record, presenter, after, text), fresh

    @staticmethod
    def pings(played: Played) -> discord.AllowedMentions:
        """A new board pings the person whose turn begins, never the actor and never for a mere repost."""
        _, presenter, before, after, player, action = played
        upcoming = presenter.game.current_player(after)
        if upcoming is None or upcoming == player or is_ai(upcoming):
            return NO_PINGS
        began = presenter.new_board(before, after, player, action) and upcoming != presenter.game.current_player(before)
        ping = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(upcoming)])
        return ping if began else NO_PINGS

    def _is_board_click(self, interaction: discord.Interaction[Any], record: GameRecord) -> bool:
        message = interaction.message if interaction.type is discord.InteractionType.component else None
        return message is not None and not message.flags.ephemeral and message.id == record.message_id

    async def _moved_board(
        self, live: Live[Any], new_id: int | None, old_id: int | None, handle: BoardHandle | None = None
    ) -> None:
        """The board now lives in message ``new_id``: remember it, and take the buttons off the old one."""
        record = live.record
        if new_id is None:
            return
        live.record = replace(record, message_id=new_id)
        self._chat_since[record.channel_id] = 0
        await self.storage.set_message(record.id, new_id)
        if old_id is not None and old_id != new_id:
            await self._edit_board(record, {"view": None}, old_id)
        if handle is not None:
            self._handles[record.id] = handle
        else:
            self._handles.pop(record.id, None)

    def _board_turn(self, game_id: int) -> asyncio.Lock:
        """Board changes of one game in order: answers go out after the channel's lock, so a slow answer to an
        earlier move must not overwrite (or give buttons back to) the board a later move put up."""
        lock = self._board_turns.get(game_id)
        if lock is None:
            lock = self._board_turns[game_id] = asyncio.Lock()
        return lock

    async def _show_in_place(self, played: Played, board: dict[str, Any]) -> None:
        """Edit the current board to show ``played``, unless a later move already shows itself."""
        presenter = played.presenter
        async with self._board_turn(played.live.record.id):
            current = self._live.get(played.live.record.id, played.live)
            if presenter.game.move_count(current.state) > presenter.game.move_count(played.after):
                return
            await self._edit_board(current.record, board)

    async def _edit_board(self, record: GameRecord, message: dict[str, Any], message_id: int | None = None) -> None:
        """Edit the board in place. Through the interaction that posted it while its token lasts (free, like every
        interaction response), else as a channel message (one rate-limited request); a board that is gone is
        posted again at the next change."""
        target = message_id or record.message_id
        if target is None:
            return
        handle = self._handles.get(record.id)
        try:
            if handle is not None and handle.message_id == target and handle.fresh():
                try:
                    await handle.edit(self.bot, **message)
                    return
                except Exception:
                    # The token expired early, or its connection broke: edit it as a channel message instead.
                    log.debug("Editing the board of game %s through its token failed", record.id, exc_info=True)
                    self._handles.pop(record.id, None)
            channel = self.bot.get_partial_messageable(record.channel_id)
            await channel.get_partial_message(target).edit(**message)
        except discord.NotFound:
            log.info("The board of game %s was deleted; the next change posts a new one", record.id)
            live = self._live.get(record.id)
            if live is not None and message_id is None:
                live.record = replace(live.record, message_id=None)

    def note_chat(self, channel_id: int) -> None:
        """A person wrote in the channel: after a few messages the board is out of sight and is posted again."""
        if channel_id in self._running:
            self._chat_since[channel_id] = self._chat_since.get(channel_id, 0) + 1

    def public(
        self, record: GameRecord, presenter: Presenter[Any, Any], state: Any, text: str | None
    ) -> dict[str, Any]:
        """A public message: ``text``, the headline, the board and its buttons (none once the game is over)."""
        over = presenter.game.is_over(state)
        deadline = None if over else self.clock.deadline_line(record, presenter.game.current_player(state))
        lines = [line for line in (text, presenter.headline(state)) if line]
        if deadline:
            # On the last line rather than one of its own: the board stays short.
            lines = [*lines[:-1], f"{lines[-1]} {deadline}"] if lines else [deadline]
        message: dict[str, Any] = {"embed": presenter.board(state)}
        if lines:
            message["content"] = "\n".join(lines)
        view = self.final_view(record) if over else presenter.board_view(record, state)
        if not over:
            for button in self.clock.vote_buttons(record, state, presenter):
                view = view or discord.ui.View(timeout=None)
                view.add_item(button)
        if view is not None:
            message["view"] = detached(view)
        return message

    # ---- starting and ending ------------------------------------------------------------------------------------

    async def start(self, interaction: discord.Interaction[Any], record: GameRecord, extra: str = "") -> None:
        """Deal the game in the lobby ``record`` (the caller holds the channel's lock)."""
        presenter = self.presenter(record)
        try:
            state = replay(presenter.game, setup_of(record), ())
        except CorruptState as error:
            raise unavailable(record, str(error).rstrip(".")) from error
        record = await self.storage.update_game(record, status="running", started_at=now())
        live: Live[Any] = Live(
            record, state, {p: presenter.private_text(state, p) for p in record.players if not is_ai(p)}
        )
        self._live[record.id] = live
        self._running[record.channel_id] = record.kind
        log.info("%s started in channel %s with %d players", record.kind, record.channel_id, len(record.players))
        text = presenter.start_text(state) + extra
        try:
            message = self.public(record, presenter, state, text)
            clicked = interaction.message if interaction.type is discord.InteractionType.component else None
            if clicked is not None and not interaction.response.is_done():
                # Start pressed on the lobby: the lobby message becomes the first board, no new message.
                await interaction.response.edit_message(**message)
                handle = BoardHandle.of(interaction, clicked.id)
            else:
                handle = await self.post_board(interaction, message)
            await self._moved_board(live, handle.message_id, None, handle)
        except Exception:
            log.exception("Game started in channel %s but the answer failed", record.channel_id)
        self.deliver_later(live, interaction)
        with suppress(Exception):
            await self.clock.moved(live, presenter, True)
        self.wake_ai(live)

    async def abandon(self, record: GameRecord) -> GameRecord:
        """End an open game without a score (the caller holds the channel's lock); its board or lobby loses its
        buttons."""
        self.forget(record)
        ended = await self.storage.update_game(record, status="abandoned", ended_at=now())
        with suppress(Exception):
            await self._edit_board(ended, {"view": None})
        return ended

    async def show_panel(
        self,
        interaction: discord.Interaction[Any],
        kind: str | None = None,
        *,
        game: int | None = None,
        page: str | None = None,
    ) -> None:
        """The user's private panel (their hand or chips, with buttons): redrawn in place when a panel's own button
        asked for it, else sent ephemerally."""
        live, presenter = await self.running(interaction.channel_id or 0, kind)
        if interaction.user.id not in live.record.players:
            raise UserError("You're not playing in this game.")
        if game is not None and game != live.record.id:
            raise UserError(STALE_PANEL)
        message = self.panel(live, presenter, interaction.user.id, page)
        if game is not None and interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(**message)
        else:
            await send(interaction, ephemeral=True, **message)

    def panel(
        self, live: Live[Any], presenter: Presenter[Any, Any], player: int, page: str | None, *, ack: bool = False
    ) -> dict[str, Any]:
        """The private panel; as the answer to an action (``ack``) it opens with what that action did."""
        message = presenter.panel(live.record, live.state, player, page)
        if live.last:
            content = message["content"]
            message["content"] = f"{live.last}\n{content}" if ack else f"{content}\nLast: {live.last}"
        return message

    async def show_board(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Post the board again at the bottom; the old one loses its buttons."""
        live = await self.live(record)
        presenter = self.presenter(record)
        handle = await self.post_board(interaction, self.public(live.record, presenter, live.state, live.last or None))
        await self._moved_board(live, handle.message_id, live.record.message_id, handle)

    @staticmethod
    async def post_board(interaction: discord.Interaction[Any], message: dict[str, Any]) -> BoardHandle:
        """Post a board as the interaction's answer (or followup), keeping how to edit it for free."""
        message.setdefault("allowed_mentions", NO_PINGS)
        if interaction.response.is_done():
            posted = await interaction.followup.send(wait=True, **message)
            return BoardHandle.of(interaction, posted.id)
        response = await interaction.response.send_message(**message)
        return BoardHandle.of(interaction, response.message_id or 0)

    async def show_result(self, interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """The final board of the channel's last game, for a while after it ended."""
        presenter = self.presenter(record)
        try:
            state = await self._final_state(record, presenter)
        except CorruptState as error:
            raise unavailable(record, str(error).rstrip(".")) from error
        text = presenter.game_over_text(state) if presenter.game.is_over(state) else "This game was ended early."
        message = self.public(record, presenter, state, text)
        message["view"] = detached(self.final_view(record))
        await send(interaction, **message)

    async def _final_state(self, record: GameRecord, presenter: Presenter[Any, Any]) -> Any:
        logged = await self.storage.moves(record.id)
        moves = decode_moves(presenter.game, [(m.player, m.action) for m in logged])
        return replay(presenter.game, setup_of(record), moves)

    def final_view(self, record: GameRecord) -> discord.ui.View:
        """What stays under a finished game's last board: the rematch."""
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success, custom_id=f"rematch:{record.id}")
        )
        return view

    # ---- computer players ---------------------------------------------------------------------------------------

    def wake_ai(self, live: Live[Any]) -> None:
        """Let the game's computer players signal and, on their turn, move (in the background, after a pause)."""
        if live.record.kind not in AI_PLAYERS or self.closing:
            return
        if not any(is_ai(p) for p in live.record.players) and not autopilot(live.record):
            return
        task = self._ai.get(live.record.id)
        if task is not None and not task.done():
            self._ai_again.add(live.record.id)  # it may have looked before this move: look again
            return
        self._ai[live.record.id] = asyncio.ensure_future(self._run_ai(live.record.channel_id, live.record.id))

    async def _run_ai(self, channel_id: int, game_id: int) -> None:
        try:
            while await self._ai_step(channel_id, game_id) or game_id in self._ai_again:
                self._ai_again.discard(game_id)
        except Exception:
            log.exception("The computer players of game %s stopped", game_id)
        finally:
            self._ai.pop(game_id, None)
            self._ai_again.discard(game_id)

    async def _ai_step(self, channel_id: int, game_id: int) -> bool:
        """One step of the computer players: their signals, then one move if one of them is to move. Returns
        whether to go on (a computer player may move again)."""
        await asyncio.sleep(self.ai_pause)
        try:
            live, presenter = await self.running(channel_id)
        except UserError:
            return False
        if live.record.id != game_id or presenter.game.is_over(live.state):
            return False
        ai = AI_PLAYERS[live.record.kind]
        game = presenter.game
        last: Played | None = None
        for seat in [p for p in live.record.players if is_ai(p)]:
            if not game.legal_actions(live.state, seat):
                continue  # left the game
            for signal in ai.signals(game.observation(live.state, seat)):
                with suppress(UserError, GameError):
                    last = await self.play(channel_id, seat, signal)
        if last is not None:
            live = last.live
            if game.is_over(live.state):
                await self.publish(last)
                return False
        mover = game.current_player(live.state)
        if mover is None and live.record.players and is_ai(live.record.players[0]):
            mover = live.record.players[0]  # a table of computer players lays its first card itself
        away = mover is not None and mover in autopilot(live.record)
        if mover is None or not (is_ai(mover) or away):
            if last is not None:
                await self.publish(last)
            return False
        if away:
            await self.clock.play_for(channel_id, game_id, mover, missed=False)
            return True
        action = self.decide(live.record.kind, game, live.state, mover)
        try:
            played = await self.play(channel_id, mover, action)
        except (UserError, GameError):
            log.exception("A computer player's move was refused in game %s; playing safe", game_id)
            played = await self.play(channel_id, mover, ai.fallback(game.legal_actions(live.state, mover), None))
        await self.publish(played)
        return True

    def decide(self, kind: str, game: Game[Any, Any], state: Any, seat: int) -> Any:
        """The computer player's action from what its seat may see; any failure falls back to a safe legal move."""
        ai = AI_PLAYERS[kind]
        observation = game.observation(state, seat)
        try:
            return ai.act(observation, random.Random(f"{seat}:{game.move_count(state)}"))
        except Exception:
            log.exception("A computer player failed to decide; playing safe")
            return ai.fallback(game.legal_actions(state, seat), observation)

    async def publish(self, played: Played, prefix: str = "") -> None:
        """Show a move made without an interaction (a computer player's, the autopilot's): the board edited in
        place, or posted anew when the table moved on (one rate-limited request either way)."""
        live = played.live
        record = live.record
        board, fresh = self._board_after(played, prefix)
        try:
            if not fresh:
                await self._show_in_place(played, board)
            else:
                async with self._board_turn(record.id):
                    channel = self.bot.get_partial_messageable(record.channel_id)
                    message = await channel.send(allowed_mentions=self.pings(played), **board)
                    await self._moved_board(live, message.id, live.record.message_id)
        except discord.HTTPException:
            log.warning("Could not show a computer player's move in channel %s", record.channel_id, exc_info=True)
        self.deliver_later(live)

    # ---- private messages ---------------------------------------------------------------------------------------

    def deliver_later(self, live: Live[Any], interaction: discord.Interaction[Any] | None = None) -> None:
        """Bring the game's DMs up to date in the background: a slow DM never holds up the channel."""
        if self.closing:
            return  # a restart delivers what is left (what each DM shows is stored)
        task = self._delivery.get(live.record.id)
        if task is not None and not task.done():
            task.add_done_callback(lambda _: self.deliver_later(live, interaction))
            return
        self._delivery[live.record.id] = asyncio.ensure_future(self._deliver(live, interaction))

    async def _deliver(self, live: Live[Any], interaction: discord.Interaction[Any] | None) -> None:
        try:
            await self.deliver(live, interaction)
        except Exception:
            log.exception("Delivering DMs of game %s failed", live.record.id)
        finally:
            self._delivery.pop(live.record.id, None)

    async def close(self) -> None:
        """Let DMs under way finish (briefly) before the database closes."""
        self.closing = True
        for retry in self._retries:
            retry.cancel()
        for task in self._ai.values():
            task.cancel()
        self.clock.stop()
        pending = [task for task in self._delivery.values() if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=2)
        for task in pending:
            task.cancel()

    async def deliver(self, live: Live[Any], interaction: discord.Interaction[Any] | None = None) -> None:
        """Make every player's DM show the private text it should; tell the table once about closed DMs (as a
        followup to the action, which keeps the board the newest message and costs no rate-limited request)."""
        record = live.record
        sent = await self.storage.private_messages(record.id)
        closed = []
        for player, text in list(live.dm_text.items()):
            message_id, shown = sent.get(player, (None, ""))
            if shown == text:
                continue
            try:
                delivered = await self.bot.deliver_dm(player, text, message_id)
            except DMsClosed:
                closed.append(player)
                continue
            if delivered is None:
                # Discord kept failing: nothing is recorded as shown, so a later delivery (or a restart) tries again.
                retry = asyncio.get_running_loop().call_later(RETRY_DM_SECONDS, self.deliver_later, live)
                self._retries.add(retry)
                continue
            await self.storage.set_private_message(record.id, player, delivered, text)
        untold = [p for p in closed if (record.id, p) not in self._told_closed_dms]
        presenter = self.presenters.get(record.kind)
        if untold and presenter is not None and record.status == "running":
            self._told_closed_dms.update((record.id, p) for p in untold)
            who = ", ".join(mention(p) for p in untold)
            notice = f"{who}: I can't send you direct messages. {presenter.closed_dms_hint}"
            # Without a copy of the board: one live board only (its buttons would act), and no chips shown to all.
            with suppress(discord.HTTPException):
                if interaction is not None:
                    await interaction.followup.send(notice, allowed_mentions=USERS_ONLY)
                else:
                    channel = self.bot.get_partial_messageable(record.channel_id)
                    await channel.send(notice, allowed_mentions=USERS_ONLY)

    async def resume(self) -> None:
        """At start: load every running game once, deliver the DMs a stop interrupted, start the turn clock (a
        deadline that passed while the bot was down fires at once) and let the computer players carry on."""
        await self.clock.start()
        for record in await self.storage.open_games():
            if record.status != "running" or not self.owns(record):
                continue
            try:
                live = await self.live(record)
            except UserError as error:
                log.error("Channel %s: %s", record.channel_id, error)
                continue
            self.deliver_later(live)
            self.wake_ai(live)

    def owns(self, record: GameRecord) -> bool:
        """Whether this process runs the shard of the game's server (every game, without sharding)."""
        count = getattr(self.bot, "shard_count", None)
        shards = getattr(self.bot, "shard_ids", None)
        if not count or shards is None:
            return True
        return (record.guild_id >> 22) % count in shards

    def forget(self, record: GameRecord) -> None:
        """Drop a game that ended (or whose log another writer moved on) from memory."""
        self._live.pop(record.id, None)
        self._handles.pop(record.id, None)
        if self._running.get(record.channel_id) == record.kind:
            del self._running[record.channel_id]
