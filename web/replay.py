"""The replay on the web table: a game that ended, turn by turn (not move by move), every hand shown, for anyone at
the table (players and spectators). A daily deal's replay stays closed until its UTC day is over, as in /history.

A turn ends where the presenter's ``new_board`` says the table moved on (the board's own turns); the replay shows
the position at the start of each turn, the moves that led there, and at the last step the result.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from cogs.daily import hidden_today, today_of
from engine.game import decode_moves, positions
from i18n import _, render
from storage import GameRecord, GameStore
from table.games import setup_of
from table.presenter import Presenter
from web.page import page_state, plain

# Games whose turns are kept in memory: a replay is stepped through by a few people at once.
KEPT = 32


def replayable(record: GameRecord, client: Any) -> bool:
    """Whether the game's replay may open: it ended, and it is not today's daily deal."""
    return record.status in ("finished", "abandoned") and not hidden_today(record, today_of(client))


class Replays:
    def __init__(self, storage: GameStore) -> None:
        self.storage = storage
        self._turns: OrderedDict[int, list[tuple[int, Any, list[Any]]]] = OrderedDict()

    async def turns(self, record: GameRecord, presenter: Presenter[Any, Any]) -> list[tuple[int, Any, list[Any]]]:
        """(moves made, position, the moves of the turn that led there) at the deal and after each turn."""
        kept = self._turns.get(record.id)
        if kept is not None:
            self._turns.move_to_end(record.id)
            return kept
        game = presenter.game
        logged = await self.storage.moves(record.id)
        moves = decode_moves(game, [(m.player, m.action) for m in logged])
        states = list(positions(game, setup_of(record), moves))
        turns: list[tuple[int, Any, list[Any]]] = [(0, states[0], [])]
        since: list[Any] = []
        for number, move in enumerate(moves, start=1):
            before, after = states[number - 1], states[number]
            since.append((before, after, move))
            if presenter.new_board(before, after, move.player, move.action) or number == len(moves):
                turns.append((number, after, since))
                since = []
        self._turns[record.id] = turns
        while len(self._turns) > KEPT:
            self._turns.popitem(last=False)
        return turns

    async def step(
        self, record: GameRecord, presenter: Presenter[Any, Any], turn: int, locale: str, names: Mapping[int, str]
    ) -> dict[str, Any]:
        """The replay at the start of ``turn`` (0: the deal), as a spectator's page with every hand revealed."""
        turns = await self.turns(record, presenter)
        turn = max(0, min(turn, len(turns) - 1))
        moves, state, led_here = turns[turn]
        log = [
            plain(render(presenter.announce(before, after, move.player, move.action), locale), names)
            for before, after, move in led_here
        ]
        page = page_state(record.kind, presenter, state, 0, locale, names, log)
        page.update(
            turn=turn,
            turns=len(turns) - 1,
            moves=moves,
            revealed=[
                f"{names.get(p, '?')}: {plain(render(presenter.revealed_text(state, p), locale), names)}"
                for p in record.players
            ],
        )
        if turn == len(turns) - 1 and not presenter.game.is_over(state):
            page.update(over=True, status=render(_("The game was ended here, without a score (abandoned)."), locale))
        return page
