"""The games: find a channel's game, replay its move log once per process, commit moves, keep them in memory.

A running game's state is derived from its log by replay once per process (at first use), then kept in memory and
advanced move by move. Correctness never rests on that cache or on the per-channel lock: appending move ``n + 1``
fails if anybody (another click, another process) appended it first, and then the game is re-read and the action
decided again against the newer position. Every committed move is announced once, as one ``Transition``
(``table.transition``), made here after the commit; this part does not know who listens.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from contextlib import suppress
from dataclasses import replace
from typing import Any

from engine.errors import CorruptState, GameError
from engine.game import NO_NUMBERS_IN_CHAT, GameInfo, Move, Outcome, Setup, decode_moves, replay
from i18n import Text, _, render
from storage import Ending, GameRecord, GameStore, LoggedMove, Result, StorageError, now
from table.answer import UserError
from table.events import Events
from table.live import Live
from table.people import is_ai
from table.presenter import SomePresenter, Step
from table.registry import GAMES, registration
from table.transition import Actor, Transition, transition

log = logging.getLogger(__name__)

NO_GAME = _("There's no game in this channel: open one with /newgame.")
STALE_PANEL = _("This panel belongs to an earlier game: open a fresh one with /hand.")
# Running games kept in memory; a game past this many is replayed again from its log when next used.
LIVE_GAMES = 5000


def dm_readers(presenter: SomePresenter, players: Iterable[int]) -> list[int]:
    """Who of ``players`` gets a DM of their own: the people at a game with secrets; nobody at a game without."""
    if not presenter.game.info.has_secrets:
        return []
    return [player for player in players if not is_ai(player)]


class GameUnavailable(UserError):
    """The channel's game cannot be loaded; only /endgame helps."""


def cannot_load(why: Text | str) -> GameUnavailable:
    return GameUnavailable(
        _(
            "The game in this channel can't be loaded ({why}). The host or a member with Manage Channels can clear it "
            "with /endgame.",
            why=why,
        )
    )


def replayed(record: GameRecord, presenter: SomePresenter, logged: Iterable[LoggedMove]) -> Live:
    """A game in memory, replayed from its whole log (raises ``CorruptState`` for a log the rules refuse)."""
    game = presenter.game
    moves = decode_moves(game, [(m.player, m.action) for m in logged])
    live = Live(record, replay(game, setup_of(record), ()))
    for player in dm_readers(presenter, record.players):
        live.dm_text[player] = presenter.private_text(live.state, player)
    advance_by(live, presenter, moves)
    return live


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


def advance(
    live: Live, presenter: SomePresenter, after: object, player: int, action: object
) -> tuple[bool, frozenset[int]]:
    """Move ``live`` on to ``after``: the turn log, the DMs' texts. Returns whether the table moved on to a new
    turn and whose private view changed (the presenter is asked once per move)."""
    before = live.state
    moved_on = presenter.new_board(before, after, player, action)
    revealed = frozenset(dm_readers(presenter, presenter.dm_due(before, after, player, action)))
    for reader in revealed:
        live.dm_text[reader] = presenter.private_text(after, reader)
    live.remember(Step(presenter.game.move_count(after), player, action, before, after), moved_on)
    live.state = after
    return moved_on, revealed


def advance_by(live: Live, presenter: SomePresenter, moves: list[Move[object]]) -> None:
    """Apply logged moves, keeping the turn log and what each DM should show (raises CorruptState for a bad
    log)."""
    game = presenter.game
    for number, move in enumerate(moves, start=game.move_count(live.state) + 1):
        try:
            after = game.apply(live.state, move.player, move.action)
        except Exception as error:
            reason = error.text if isinstance(error, GameError) else str(error)
            raise CorruptState(
                _("Move {number} of the saved game breaks the rules: {error}", number=number, error=reason)
            ) from error
        advance(live, presenter, after, move.player, move.action)


def decide(
    live: Live, presenter: SomePresenter, player: int, action: object, board: tuple[int, int] | None, game: int | None
) -> object:
    """The position ``action`` leads to, or the refusal (GameError, UserError)."""
    rules = presenter.game
    if board is not None and board != (live.record.id, rules.move_count(live.state)):
        raise UserError(_("That board is out of date: use the buttons on the newest board below."))
    if game is not None and game != live.record.id:
        raise UserError(STALE_PANEL)
    return rules.apply(live.state, player, action)


class Games:
    def __init__(self, storage: GameStore, events: Events, owns: Callable[[GameRecord], bool] = lambda _: True) -> None:
        self.storage = storage
        self.events = events
        self.owns = owns  # whether this process runs the game's shard
        self._live: OrderedDict[int, Live] = OrderedDict()
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
        return cannot_load(why)

    def presenter(self, record: GameRecord) -> SomePresenter:
        hosted = registration(record.kind)
        if hosted is None:
            raise self.unavailable(record, _("this bot doesn't know the game {kind}", kind=repr(record.kind[:40])))
        return hosted.presenter

    def cached(self, game_id: int) -> Live | None:
        return self._live.get(game_id)

    async def open_record(self, channel_id: int) -> GameRecord:
        record = await self.storage.open_game(channel_id)
        if record is None:
            raise UserError(NO_GAME)
        return record

    async def live(self, record: GameRecord) -> Live:
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

    def _running_here(self, channel_id: int, kind: str | None) -> tuple[Live, SomePresenter] | None:
        """The channel's running game as this process last left it, if it has it in memory."""
        live = self._live.get(self._channel_games.get(channel_id, 0))
        if live is None or live.record.status != "running" or (kind is not None and live.record.kind != kind):
            return None
        hosted = registration(live.record.kind)
        return (live, hosted.presenter) if hosted is not None else None

    def _keep(self, live: Live) -> None:
        self._channel_games[live.record.channel_id] = live.record.id
        self._live[live.record.id] = live
        self._live.move_to_end(live.record.id)
        self.running_kinds[live.record.channel_id] = live.record.kind
        while len(self._live) > LIVE_GAMES:
            self._live.popitem(last=False)

    async def _replay(self, record: GameRecord, presenter: SomePresenter) -> Live:
        try:
            return replayed(record, presenter, await self.storage.moves(record.id))
        except CorruptState as error:
            raise self.unavailable(record, error.text) from error

    async def _catch_up(self, live: Live, presenter: SomePresenter, known: int) -> None:
        logged = await self.storage.moves(live.record.id, after=known)
        try:
            advance_by(live, presenter, decode_moves(presenter.game, [(m.player, m.action) for m in logged]))
        except CorruptState as error:
            self.forget(live.record)
            raise self.unavailable(live.record, error.text) from error

    async def running(self, channel_id: int, kind: str | None = None) -> tuple[Live, SomePresenter]:
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

    async def play(
        self,
        channel_id: int,
        player: int,
        action: object,
        *,
        kind: str | None = None,
        board: tuple[int, int] | None = None,
        game: int | None = None,
        auto: bool = False,
        ready: Callable[[], Awaitable[None]] | None = None,
    ) -> Transition:
        """Apply ``action`` by ``player`` to the channel's running game, append it to the log, announce it.

        ``board`` is (game id, move count) of the board whose button was pressed: the action is refused unless that
        board shows the current position of the current game; ``game`` is the game a private panel was made for.
        Raises GameError or UserError, changing nothing, when the action is refused; if another writer appended
        first, the action is decided again on the newer position. ``auto``: no person made it (the autopilot).
        ``ready`` is awaited once the channel's turn has come, before anything is decided or written (it may raise to
        change nothing: the interaction's token died while it waited).
        """
        actor = Actor.AUTOPILOT if auto else Actor.COMPUTER if is_ai(player) else Actor.PERSON
        async with self.lock(channel_id):
            if ready is not None:
                await ready()
            for attempt in range(3):
                where = (kind, board, game)
                live, presenter, after = await self._position(channel_id, player, action, where, attempt == 0)
                done = await self._append(live, presenter, player, action, after, actor)
                if done is not None:
                    await self.events.moved(done)
                    return done
                log.info(
                    "Move %d of game %s was taken; deciding again", presenter.game.move_count(after), live.record.id
                )
                await asyncio.sleep(0.01 * (attempt + 1))
        raise UserError(_("Several moves arrived at once; yours was not made. Please try again."))

    async def _position(
        self,
        channel_id: int,
        player: int,
        action: object,
        where: tuple[str | None, tuple[int, int] | None, int | None],
        optimistic: bool,
    ) -> tuple[Live, SomePresenter, object]:
        """The game, and the position ``action`` leads to there (``where``: kind, board, game as for ``play``).
        Optimistic first: the game as this process last left it, without asking the database; the append checks it
        is still the newest position. A refusal is only ever decided on the stored game."""
        kind, board, game = where
        cached = self._running_here(channel_id, kind) if optimistic else None
        if cached is not None:
            with suppress(GameError, UserError):
                return cached[0], cached[1], decide(cached[0], cached[1], player, action, board, game)
        live, presenter = await self.running(channel_id, kind)
        return live, presenter, decide(live, presenter, player, action, board, game)

    async def _append(
        self, live: Live, presenter: SomePresenter, player: int, action: object, after: object, actor: Actor
    ) -> Transition | None:
        """Append the move to the log and move the cache on; None when another writer appended first."""
        game = presenter.game
        outcome = game.outcome(after)
        ending = None
        if outcome is not None:
            status = "abandoned" if outcome.abandoned else "finished"
            ending = Ending(status, None if outcome.abandoned else stats_result(game.info, outcome))
        seq = game.move_count(after)
        auto = actor is Actor.AUTOPILOT
        if not await self.storage.append_move(
            live.record.id, seq, player, game.encode_action(action), ending, auto=auto
        ):
            self._live.pop(live.record.id, None)  # re-read from the log on the next round
            return None
        if actor is Actor.PERSON:
            self._last_person[live.record.id] = (player, time.monotonic())
        record_before, before = live.record, live.state
        moved_on, revealed = advance(live, presenter, after, player, action)
        if ending is not None:
            log.info("%s in channel %s ended: %s", live.record.kind, live.record.channel_id, ending.status)
            live.record = replace(live.record, status=ending.status, ended_at=now())
            self.forget(live.record)
        return transition(
            live, presenter, record_before, before, player, action, actor, moved_on=moved_on, revealed=revealed
        )

    async def start(self, record: GameRecord) -> Live:
        """Deal the game in the lobby ``record`` (the caller holds the channel's lock) and announce the deal."""
        presenter = self.presenter(record)
        try:
            state = replay(presenter.game, setup_of(record), ())
        except CorruptState as error:
            raise self.unavailable(record, error.text) from error
        started = await self.storage.update_game(record, status="running", started_at=now())
        live = Live(started, state)
        readers = dm_readers(presenter, started.players)
        live.dm_text.update({p: presenter.private_text(state, p) for p in readers})
        self._keep(live)
        log.info("%s started in channel %s with %d players", record.kind, record.channel_id, len(record.players))
        dealt = transition(
            live, presenter, record, None, None, None, Actor.DEAL, moved_on=True, revealed=frozenset(readers)
        )
        await self.events.moved(dealt)
        return live

    async def abandon(self, record: GameRecord) -> GameRecord:
        """End an open game without a score (the caller holds the channel's lock)."""
        self.forget(record)
        return await self.storage.update_game(record, status="abandoned", ended_at=now())

    async def modify(self, game_id: int, change: Callable[[GameRecord], dict[str, object] | None]) -> GameRecord | None:
        """Change a game's row by compare-and-swap: ``change`` computes the columns from the row as it is, again
        after every lost race, so two people changing it at the same moment both count. The cached game follows."""
        updated = await self.storage.modify_game(game_id, change)
        live = self._live.get(game_id)
        if live is not None and updated is not None:
            live.record = replace(updated, message_id=live.record.message_id or updated.message_id)
        return updated

    async def board_at(self, live: Live, message_id: int | None) -> None:
        """The game's board now lives in message ``message_id`` (None: it was deleted; the next change posts one)."""
        live.record = replace(live.record, message_id=message_id)
        if message_id is None:
            return
        try:
            await self.storage.set_message(live.record.id, message_id)
        except StorageError as error:
            # Presentation only, and the board is up: this process remembers it; after a restart the older board is
            # edited until the next new one (a busy database must not turn a shown board into an apology).
            log.warning("Could not remember board %s of game %s: %s", message_id, live.record.id, error)

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
