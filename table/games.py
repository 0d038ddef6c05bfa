"""The games: find a channel's game, replay its move log once per process, commit moves, keep them in memory.

A running game's state is derived from its log by replay once per process (at first use), then kept in memory and
advanced move by move. Correctness never rests on that cache or on the per-channel lock: appending move ``n + 1``
fails if anybody (another click, another process) appended it first, and then the game is re-read and the action
decided again against the newer position. Every committed move is announced once as a ``Moved`` event; this part
does not know who listens.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, NamedTuple, TypeVar

from engine.errors import CorruptState, GameError
from engine.game import NO_NUMBERS_IN_CHAT, GameInfo, Move, Outcome, Setup, decode_moves, replay
from i18n import Localized, Text, _, render
from storage import Ending, GameRecord, GameStore, Result, now
from table.answer import UserError
from table.events import Events, Moved
from table.people import is_ai
from table.presenter import Presenter, Step
from table.registry import GAMES, registration

log = logging.getLogger(__name__)

StateT = TypeVar("StateT")

NO_GAME = _("There's no game in this channel: open one with /newgame.")
STALE_PANEL = _("This panel belongs to an earlier game: open a fresh one with /hand.")
# Running games kept in memory; a game past this many is replayed again from its log when next used.
LIVE_GAMES = 5000
# A turn's moves kept in memory at most (The Game: a few cards, the end and signals; No Thanks!: a card's round).
TURN_STEPS = 200


def dm_readers(presenter: Presenter[Any, Any], players: Iterable[int]) -> list[int]:
    """Who of ``players`` gets a DM of their own: the people at a game with secrets; nobody at a game without."""
    if not presenter.game.info.has_secrets:
        return []
    return [player for player in players if not is_ai(player)]


class GameUnavailable(UserError):
    """The channel's game cannot be loaded; only /endgame helps."""


@dataclass
class Live(Generic[StateT]):
    """A running game in memory: its row, its state, and the private text each player's DM must show."""

    record: GameRecord
    state: StateT
    dm_text: dict[int, Localized] = field(default_factory=dict)  # rendered in each player's own language
    # What each player's DM is known to show (the same objects as ``dm_text`` once delivered): a move that changes
    # no DM asks the database nothing.
    dm_sent: dict[int, Localized] = field(default_factory=dict)
    # The stored DMs of the game (player -> message id, text), once read: None until the courier first needs them,
    # and again whenever another writer moved the game on (it may have delivered DMs itself).
    dm_stored: dict[int, tuple[int | None, str]] | None = None
    last: Localized | None = None  # what happened last, for the private panels
    # What the table did lately, for the channel's log (``Presenter.summary``): the moves of the turn under way and
    # of the turn before (a turn ends when the presenter's ``new_board`` says the table moved on). After a restart
    # they are rebuilt from the move log.
    turn: list[Step] = field(default_factory=list)
    previous: list[Step] = field(default_factory=list)
    # The move count when the board on show went up: a superseded board shrinks to the moves since (after a
    # restart, the start of the turn under way). ``board_text`` is what it opened with, for a repost.
    board_from: int = 0
    board_text: Localized | None = None

    def remember(self, step: Step, moved_on: bool) -> None:
        """Keep ``step`` with the turn under way; a move that moved the table on closes the turn."""
        self.turn.append(step)
        del self.turn[:-TURN_STEPS]
        if moved_on:
            self.previous, self.turn = self.turn, []

    def turn_of(self, number: int) -> list[Step]:
        """The remembered moves of the turn that move ``number`` belongs to, up to it."""
        for turn in (self.turn, self.previous):
            if any(step.number == number for step in turn):
                return [step for step in turn if step.number <= number]
        return []

    def since(self, start: int, end: int) -> list[Step]:
        """The remembered moves after move ``start`` up to move ``end``."""
        return [step for step in (*self.previous, *self.turn) if start < step.number <= end]


class Played(NamedTuple):
    """An action that was appended to the log, with the positions around it."""

    live: Live[Any]
    presenter: Presenter[Any, Any]
    before: Any
    after: Any
    player: int
    action: Any


def setup_of(record: GameRecord) -> Setup:
    return Setup(record.players, record.seed, frozenset(record.variants), record.rules_version)


def stats_result(info: GameInfo, outcome: Outcome) -> Result:
    """The figures kept for statistics: the game's own, completed from the typed outcome in the one convention the
    statistics read (a team result has ``won`` and ``score``, a per-player one ``winner`` and ``scores``)."""
    given = Result.load(outcome.result) or Result()
    if info.cooperative:
        won = given.won if given.won is not None else bool(outcome.winners)
        return replace(given, won=won, score=given.score if given.score is not None else outcome.score)
    if not outcome.winners:
        return given
    winner = given.winner if given.winner is not None else outcome.winners[0]
    scores = given.scores or ({} if outcome.score is None else {winner: outcome.score})
    return replace(given, winner=winner, scores=scores)


def title(kind: str) -> str | Text:
    """A game's name (the same in every language: it is the name on the box)."""
    game = GAMES.get(kind)
    return game.info.title if game else _("this game")


class Games:
    def __init__(self, storage: GameStore, events: Events, owns: Callable[[GameRecord], bool] = lambda _: True) -> None:
        self.storage = storage
        self.events = events
        self.owns = owns  # whether this process runs the game's shard
        self._live: OrderedDict[int, Live[Any]] = OrderedDict()
        # The fast path that keeps one channel's actions in order within this process; the log's unique key, not
        # this lock, is what keeps two writers from both acting at one position.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Chat moderation asks for every message whether a game that forbids numbers runs in the channel; answer
        # from memory. Kept by start, load and end (a channel's messages all reach the process that runs its game).
        self.running_kinds: dict[int, str] = {}
        self._channel_games: dict[int, int] = {}  # channel id -> the id of its running game in memory
        self._reported: set[int] = set()  # damaged games already logged: one line per game, not per use
        self._last_person: dict[int, tuple[int, float]] = {}  # game id -> the person who acted last, and when

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def forbids_numbers(self, channel_id: int) -> bool:
        kind = self.running_kinds.get(channel_id)
        return kind is not None and NO_NUMBERS_IN_CHAT in GAMES[kind].info.capabilities

    def unavailable(self, record: GameRecord, why: Text | str) -> GameUnavailable:
        """The refusal for a game that cannot be loaded; ``why`` is a reason (an error's text, or the English reason
        stored with a damaged row)."""
        if record.id not in self._reported:
            self._reported.add(record.id)
            log.error("Game %s in channel %s cannot be loaded: %s", record.id, record.channel_id, render(why, "en"))
        return GameUnavailable(
            _(
                "The game in this channel can't be loaded ({why}). The host or a member with Manage Channels can "
                "clear it with /endgame.",
                why=why,
            )
        )

    def presenter(self, record: GameRecord) -> Presenter[Any, Any]:
        hosted = registration(record.kind)
        if hosted is None:
            raise self.unavailable(record, _("this bot doesn't know the game {kind}", kind=repr(record.kind[:40])))
        return hosted.presenter

    def cached(self, game_id: int) -> Live[Any] | None:
        return self._live.get(game_id)

    # ---- loading ----------------------------------------------------------------------------------------------

    async def open_record(self, channel_id: int) -> GameRecord:
        record = await self.storage.open_game(channel_id)
        if record is None:
            raise UserError(NO_GAME)
        return record

    async def live(self, record: GameRecord) -> Live[Any]:
        """The running game of ``record`` in memory, brought up to the log's length."""
        if record.damaged:
            raise self.unavailable(record, record.damaged)
        presenter = self.presenter(record)
        live = self._live.get(record.id)
        if live is None or presenter.game.move_count(live.state) > record.moves:
            live = await self._replay(record, presenter)
            self._keep(live)
            if self.owns(live.record):
                # Whatever loaded it first: what a stop interrupted (a DM, a computer player's turn) is taken up now.
                self.events.loaded(live)
            return live
        known = presenter.game.move_count(live.state)
        if known < record.moves:
            await self._catch_up(live, presenter, known)
        # The board this process posted last is newer than the row until set_message lands.
        live.record = replace(record, message_id=live.record.message_id or record.message_id)
        self._keep(live)
        return live

    def _running_here(self, channel_id: int, kind: str | None) -> tuple[Live[Any], Presenter[Any, Any]] | None:
        """The channel's running game as this process last left it, if it has it in memory."""
        live = self._live.get(self._channel_games.get(channel_id, 0))
        if live is None or live.record.status != "running" or (kind is not None and live.record.kind != kind):
            return None
        hosted = registration(live.record.kind)
        return (live, hosted.presenter) if hosted is not None else None

    def _keep(self, live: Live[Any]) -> None:
        self._channel_games[live.record.channel_id] = live.record.id
        self._live[live.record.id] = live
        self._live.move_to_end(live.record.id)
        self.running_kinds[live.record.channel_id] = live.record.kind
        while len(self._live) > LIVE_GAMES:
            self._live.popitem(last=False)

    async def _replay(self, record: GameRecord, presenter: Presenter[Any, Any]) -> Live[Any]:
        game = presenter.game
        logged = await self.storage.moves(record.id)
        try:
            moves = decode_moves(game, [(m.player, m.action) for m in logged])
            live: Live[Any] = Live(record, replay(game, setup_of(record), ()))
            for player in dm_readers(presenter, record.players):
                live.dm_text[player] = presenter.private_text(live.state, player)
            self._advance(live, presenter, moves)
        except CorruptState as error:
            raise self.unavailable(record, error.text) from error
        # The board on show went up when the turn under way began (unless chat or /board moved it since).
        live.board_from = live.turn[0].number - 1 if live.turn else game.move_count(live.state)
        return live

    async def _catch_up(self, live: Live[Any], presenter: Presenter[Any, Any], known: int) -> None:
        logged = await self.storage.moves(live.record.id, after=known)
        live.dm_stored = None
        try:
            self._advance(live, presenter, decode_moves(presenter.game, [(m.player, m.action) for m in logged]))
        except CorruptState as error:
            self.forget(live.record)
            raise self.unavailable(live.record, error.text) from error

    def _advance(self, live: Live[Any], presenter: Presenter[Any, Any], moves: list[Move[Any]]) -> None:
        """Apply logged moves, keeping track of what each DM should show (raises CorruptState for a bad log)."""
        game = presenter.game
        for number, move in enumerate(moves, start=game.move_count(live.state) + 1):
            try:
                after = game.apply(live.state, move.player, move.action)
            except Exception as error:
                reason = error.text if isinstance(error, GameError) else str(error)
                raise CorruptState(
                    _("Move {number} of the saved game breaks the rules: {error}", number=number, error=reason)
                ) from error
            self._note_dms(live, presenter, after, move.player, move.action)
            self._remember(live, presenter, after, move.player, move.action)
            live.state = after

    @staticmethod
    def _remember(live: Live[Any], presenter: Presenter[Any, Any], after: Any, player: int, action: Any) -> None:
        step = Step(presenter.game.move_count(after), player, action, live.state, after)
        live.remember(step, presenter.new_board(live.state, after, player, action))

    @staticmethod
    def _note_dms(live: Live[Any], presenter: Presenter[Any, Any], after: Any, player: int, action: Any) -> None:
        for upcoming in dm_readers(presenter, presenter.dm_due(live.state, after, player, action)):
            live.dm_text[upcoming] = presenter.private_text(after, upcoming)

    async def running(self, channel_id: int, kind: str | None = None) -> tuple[Live[Any], Presenter[Any, Any]]:
        """The channel's running game (of ``kind``, if given), or a friendly refusal."""
        record = await self.open_record(channel_id)
        if record.status == "lobby":
            raise UserError(_("The game hasn't started yet: the host starts it with /start once everybody has joined."))
        presenter = self.presenter(record)
        if kind is not None and record.kind != kind:
            raise UserError(
                _(
                    "This channel is playing {game}; {other} commands don't work here.",
                    game=title(record.kind),
                    other=title(kind),
                )
            )
        return await self.live(record), presenter

    async def final_state(self, record: GameRecord) -> Any:
        """The last position of a game that ended (replayed from its log)."""
        presenter = self.presenter(record)
        logged = await self.storage.moves(record.id)
        try:
            moves = decode_moves(presenter.game, [(m.player, m.action) for m in logged])
            return replay(presenter.game, setup_of(record), moves)
        except CorruptState as error:
            raise self.unavailable(record, error.text) from error

    # ---- committing -------------------------------------------------------------------------------------------

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
        ready: Callable[[], Awaitable[None]] | None = None,
    ) -> Played:
        """Apply ``action`` by ``player`` to the channel's running game, append it to the log, announce it.

        ``board`` is (game id, move count) of the board whose button was pressed: the action is refused unless that
        board shows the current position of the current game; ``game`` is the game a private panel was made for.
        Raises GameError or UserError, changing nothing, when the action is refused; if another writer appended
        first, the action is decided again on the newer position. ``auto``: no person made it (the autopilot).
        ``ready`` is awaited once the channel's turn has come, before anything is decided or written (it may raise to
        change nothing: the interaction's token died while it waited).
        """
        async with self.lock(channel_id):
            if ready is not None:
                await ready()
            for attempt in range(3):
                # Optimistic first: the game as this process last left it, without asking the database; the append
                # below checks it is still the newest position. A refusal is only ever decided on the stored game.
                cached = self._running_here(channel_id, kind) if attempt == 0 else None
                live, presenter = cached or await self.running(channel_id, kind)
                rules = presenter.game
                before = live.state
                try:
                    if board is not None and board != (live.record.id, rules.move_count(before)):
                        raise UserError(_("That board is out of date: use the buttons on the newest board below."))
                    if game is not None and game != live.record.id:
                        raise UserError(STALE_PANEL)
                    after = rules.apply(before, player, action)
                except (GameError, UserError):
                    if cached is None:
                        raise
                    continue  # decided on the remembered position: decide again on the stored one
                if await self._append(live, presenter, player, action, after, auto):
                    if not auto and not is_ai(player):
                        self._last_person[live.record.id] = (player, time.monotonic())
                    moved_on = presenter.new_board(before, after, player, action)
                    await self.events.moved(
                        Moved(live, presenter, before, after, player, action, moved_on, auto=auto or is_ai(player))
                    )
                    return Played(live, presenter, before, after, player, action)
                log.info("Move %d of game %s was taken; deciding again", rules.move_count(after), live.record.id)
                await asyncio.sleep(0.01 * (attempt + 1))
        raise UserError(_("Several moves arrived at once; yours was not made. Please try again."))

    async def _append(
        self, live: Live[Any], presenter: Presenter[Any, Any], player: int, action: Any, after: Any, auto: bool
    ) -> bool:
        game = presenter.game
        outcome = game.outcome(after)
        ending = None
        if outcome is not None:
            status = "abandoned" if outcome.abandoned else "finished"
            ending = Ending(status, None if outcome.abandoned else stats_result(game.info, outcome))
        seq = game.move_count(after)
        if not await self.storage.append_move(
            live.record.id, seq, player, game.encode_action(action), ending, auto=auto
        ):
            self._live.pop(live.record.id, None)  # re-read from the log on the next round
            return False
        self._note_dms(live, presenter, after, player, action)
        self._remember(live, presenter, after, player, action)
        live.state = after
        if ending is not None:
            log.info("%s in channel %s ended: %s", live.record.kind, live.record.channel_id, ending.status)
            live.record = replace(live.record, status=ending.status, ended_at=now())
            self.forget(live.record)
        return True

    async def start(self, record: GameRecord) -> Live[Any]:
        """Deal the game in the lobby ``record`` (the caller holds the channel's lock) and announce the deal."""
        presenter = self.presenter(record)
        try:
            state = replay(presenter.game, setup_of(record), ())
        except CorruptState as error:
            raise self.unavailable(record, error.text) from error
        record = await self.storage.update_game(record, status="running", started_at=now())
        live: Live[Any] = Live(
            record, state, {p: presenter.private_text(state, p) for p in dm_readers(presenter, record.players)}
        )
        self._keep(live)
        log.info("%s started in channel %s with %d players", record.kind, record.channel_id, len(record.players))
        await self.events.moved(Moved(live, presenter, None, state, None, None, True, dealt=True))
        return live

    async def abandon(self, record: GameRecord) -> GameRecord:
        """End an open game without a score (the caller holds the channel's lock)."""
        self.forget(record)
        return await self.storage.update_game(record, status="abandoned", ended_at=now())

    async def modify(self, game_id: int, change: Callable[[GameRecord], dict[str, Any] | None]) -> GameRecord | None:
        """Change a game's row by compare-and-swap: ``change`` computes the columns from the row as it is, again
        after every lost race, so two people changing it at the same moment both count. The cached game follows."""
        updated = await self.storage.modify_game(game_id, change)
        live = self._live.get(game_id)
        if live is not None and updated is not None:
            live.record = replace(updated, message_id=live.record.message_id or updated.message_id)
        return updated

    def last_to_act(self, game_id: int, player: int, seconds: float) -> bool:
        """Whether ``player`` is the last person who acted in this game (only computer players or the autopilot
        moved since), and did so in the last ``seconds``."""
        last, when = self._last_person.get(game_id, (None, 0.0))
        return last == player and time.monotonic() - when < seconds

    def forget(self, record: GameRecord) -> None:
        """Drop a game that ended (or whose log another writer moved on) from memory."""
        self._live.pop(record.id, None)
        if self._channel_games.get(record.channel_id) == record.id:
            del self._channel_games[record.channel_id]
        self._last_person.pop(record.id, None)
        if self.running_kinds.get(record.channel_id) == record.kind:
            del self.running_kinds[record.channel_id]
