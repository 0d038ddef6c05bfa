"""The seat driver: every move no person made, through the same commit as people's moves.

Computer players signal and move after a short pause (so people can follow), one step at a time, in the
background; the autopilot plays an away person's turn when the clock runs out or the table voted for it. Both commit
through ``Games.play`` like a click, and are shown through ``Boards.publish``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from contextlib import suppress

from engine.errors import GameError
from i18n import _
from storage import Conflict, GameRecord
from table.answer import UserError
from table.boards import Boards, Framing
from table.clock import TurnClock
from table.events import TurnRanOut
from table.games import Games
from table.live import Live
from table.options import options_of
from table.people import is_ai
from table.presenter import SomePresenter
from table.registry import SomeGame, computer_player
from table.transition import Transition

log = logging.getLogger(__name__)

AI_PAUSE_SECONDS = 1.0
TURN_MOVES = 20  # at most this many moves make one turn (The Game: a few cards and the end; No Thanks!: one)


def decide(kind: str, game: SomeGame, state: object, seat: int) -> object:
    """The computer player's action from what its seat may see; any failure falls back to the game's safe move."""
    ai = computer_player(kind)
    assert ai is not None, f"{kind} has no computer player"
    observation = game.observation(state, seat)
    try:
        return ai.act(observation, random.Random(f"{seat}:{game.move_count(state)}"))
    except Exception:
        log.exception("A computer player failed to decide; playing safe")
        return game.default_action(state, seat)


def stand_in(kind: str, game: SomeGame, state: object, seat: int) -> object:
    """What the autopilot plays for an away person: the computer player's choice where the game has one that plays
    autopilot, else the game's safe default move."""
    ai = computer_player(kind)
    if ai is not None and ai.plays_autopilot:
        return decide(kind, game, state, seat)
    return game.default_action(state, seat)


class Seats:
    def __init__(self, games: Games, boards: Boards, clock: TurnClock) -> None:
        self.games = games
        self.boards = boards
        self.clock = clock
        self.pause = AI_PAUSE_SECONDS
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.closing = False

    async def on_moved(self, event: Transition) -> None:
        self.wake(event.live.record.kind, event.live.record.channel_id, event.live.record)

    def wake(self, kind: str, channel_id: int, record: GameRecord) -> None:
        """Let the game's computer players signal and, on their turn, move, and the autopilot play for an away
        person (in the background, after a pause)."""
        if self.closing:
            return
        if not any(is_ai(p) for p in record.players) and not options_of(record).autopilot:
            return
        task = self._tasks.get(record.id)
        if task is not None and not task.done():
            self._again.add(record.id)  # it may have looked before this move: look again
            return
        self._tasks[record.id] = asyncio.ensure_future(self._run(channel_id, record.id))

    async def _run(self, channel_id: int, game_id: int) -> None:
        try:
            while await self._step(channel_id, game_id) or game_id in self._again:
                self._again.discard(game_id)
        except Exception:
            log.exception("The computer players of game %s stopped", game_id)
        finally:
            self._tasks.pop(game_id, None)
            self._again.discard(game_id)

    async def _step(self, channel_id: int, game_id: int) -> bool:
        """One step: the computer players' signals, then one move if a computer player or an away person is to
        move. Returns whether to go on."""
        await asyncio.sleep(self.pause)
        try:
            live, presenter = await self.games.running(channel_id)
        except UserError:
            return False
        if live.record.id != game_id or presenter.game.is_over(live.state):
            return False
        game = presenter.game
        ai = computer_player(live.record.kind)
        last = await self._signal(channel_id, live, presenter)
        if last is not None:
            live = last.live
            if game.is_over(live.state):
                await self.show(last)
                return False
        mover = game.current_player(live.state)
        if mover is None and live.record.players and is_ai(live.record.players[0]):
            mover = live.record.players[0]  # a table of computer players lays its first card itself
        away = mover is not None and mover in options_of(live.record).autopilot
        if mover is None or not ((ai is not None and is_ai(mover)) or away):
            if last is not None:
                await self.show(last)
            return False
        if away:
            await self.play_for(channel_id, game_id, mover, False)
            return True
        assert ai is not None
        action = decide(live.record.kind, game, live.state, mover)
        try:
            played = await self.games.play(channel_id, mover, action)
        except (UserError, GameError):
            log.exception("A computer player's move was refused in game %s; playing safe", game_id)
            played = await self.games.play(channel_id, mover, game.default_action(live.state, mover))
        await self.show(played)
        return True

    async def _signal(self, channel_id: int, live: Live, presenter: SomePresenter) -> Transition | None:
        """The computer players' signals (The Game: "don't play on this pile"); the last one made, if any."""
        game, ai = presenter.game, computer_player(live.record.kind)
        last: Transition | None = None
        for seat in [p for p in live.record.players if is_ai(p) and game.legal_actions(live.state, p)]:
            signals = ai.signals(game.observation(live.state, seat)) if ai is not None else ()
            for signal in signals:
                with suppress(UserError, GameError):
                    last = await self.games.play(channel_id, seat, signal)
        return last

    async def on_turn_ran_out(self, event: TurnRanOut) -> None:
        """The clock ran out on a person's turn: the autopilot plays it, and it counts as missed."""
        await self.play_for(event.channel_id, event.game_id, event.player, True)

    async def play_for(self, channel_id: int, game_id: int, player: int, missed: bool) -> None:
        """Play ``player``'s whole turn for them, each move announced as played for them; a turn the clock ran out
        on counts as missed (a turn the table voted onto the autopilot does not)."""
        for _move in range(TURN_MOVES):
            live, presenter = await self.games.running(channel_id)
            if live.record.id != game_id or presenter.game.current_player(live.state) not in (player, None):
                break
            action = stand_in(live.record.kind, presenter.game, live.state, player)
            try:
                played = await self.games.play(channel_id, player, action, auto=True)
            except (UserError, GameError):
                log.exception("The autopilot's move was refused in game %s", game_id)
                break
            await self.show(played, lambda move: _("⏰ On autopilot: {move}", move=move))
            if played.moved_on or played.ended:
                break
        if missed:
            await self.clock.missed(channel_id, game_id, player)
        await self.close_if_all_away(channel_id, game_id)

    async def close_if_all_away(self, channel_id: int, game_id: int) -> None:
        """A table whose people are all away ends as abandoned: nobody would ever finish it."""
        record = await self.games.storage.game(game_id)
        if record is None or record.status != "running":
            return
        live = await self.games.live(record)
        game = self.games.presenter(record).game
        people = [p for p in record.players if not is_ai(p) and game.legal_actions(live.state, p)]
        if not people or not all(p in options_of(record).autopilot for p in people):
            return
        async with self.games.lock(channel_id):
            fresh = await self.games.storage.game(game_id)
            if fresh is None or fresh.status != "running":
                return
            try:
                await self.games.abandon(fresh)
            except Conflict:
                return  # changed at this moment (ended, or somebody came back): the next away turn decides again
            await self.clock.stop_game(game_id)
        with suppress(Exception):
            await self.boards.edit(fresh, {"view": None})
        await self.clock.announce(
            record, _("Everybody at the table is away, so the game ends as abandoned (no score).")
        )

    async def show(self, played: Transition, framing: Framing | None = None) -> None:
        """Show a move nobody clicked for; a failure to show it is logged (the move is made)."""
        try:
            await self.boards.publish(played, framing)
        except Exception:
            log.warning("Could not show a move in channel %s", played.live.record.channel_id, exc_info=True)

    def close(self) -> None:
        self.closing = True
        for task in self._tasks.values():
            task.cancel()
