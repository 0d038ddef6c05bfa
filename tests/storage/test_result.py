"""``Result``: a finished game's figures, typed, stored as the flat JSON object the results trigger and every older
row share."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.game import Setup
from storage import Ending, NewGame, Result, Storage
from table.games import stats_result
from table.registry import GAMES

# The shapes stored over the versions: The Game's and No Thanks!'s own figures, a version 1 row of No Thanks! (no
# scores yet), and what the statistics completed for a game without figures of its own.
THE_GAME = {"won": False, "score": 12, "turns": 30, "backwards_tricks": 2, "pile_lengths": [9, 8, 7, 5]}
NO_THANKS = {"winner": 8, "tie_break": True, "scores": {"7": 40, "8": 31, "9": 55}}
VERSION_1 = {"winner": 7, "tie_break": False}
COMPLETED = {"won": True, "score": 0}


def test_every_stored_shape_is_read_typed() -> None:
    the_game = Result.load(THE_GAME)
    assert the_game == Result(
        won=False, score=12, figures={"turns": 30, "backwards_tricks": 2, "pile_lengths": [9, 8, 7, 5]}
    )
    assert the_game.team
    assert the_game.score_of(7) == 12  # a team's score is everyone's
    no_thanks = Result.load(NO_THANKS)
    assert no_thanks == Result(winner=8, scores={7: 40, 8: 31, 9: 55}, figures={"tie_break": True})
    assert not no_thanks.team
    assert no_thanks.score_of(9) == 55
    assert Result.load(VERSION_1) == Result(winner=7, figures={"tie_break": False})
    assert Result.load(COMPLETED) == Result(won=True, score=0)


@pytest.mark.parametrize("stored", [THE_GAME, NO_THANKS, VERSION_1, COMPLETED])
def test_dump_writes_back_what_was_stored(stored: dict[str, Any]) -> None:
    result = Result.load(json.loads(json.dumps(stored)))
    assert result is not None
    assert json.loads(json.dumps(result.dump())) == stored


@pytest.mark.parametrize("stored", [None, {}, [], "won", 3])
def test_nothing_readable_is_no_result(stored: object) -> None:
    assert Result.load(stored) is None


def test_a_figure_of_the_wrong_type_is_absent_and_the_rest_is_kept() -> None:
    result = Result.load({"won": "yes", "score": True, "winner": "x", "scores": {"7": "many", "8": 3, "x": 1}})
    assert result == Result(scores={8: 3})


def test_each_game_result_is_the_convention_the_statistics_read() -> None:
    for kind, game in GAMES.items():
        state = game.new_game(Setup((7, 8, 9), seed=1, variants=frozenset(), rules_version=game.info.rules_version))
        while (outcome := game.outcome(state)) is None:
            player, action = next((p, a) for p in (7, 8, 9) for a in game.legal_actions(state, p) if a != game.leave)
            state = game.apply(state, player, action)
        result = stats_result(game.info, outcome)
        assert result.figures.keys().isdisjoint({"won", "score", "winner", "scores"}), kind
        if game.info.cooperative:
            assert (result.won, result.score) == (bool(outcome.winners), outcome.score)
        else:
            assert result.winner == outcome.winners[0]
            assert result.score_of(result.winner) == outcome.score
        assert Result.load(json.loads(json.dumps(result.dump()))) == result


async def test_the_stored_result_is_read_back_and_counted_by_the_database(storage: Storage) -> None:
    lobby = await storage.create_game(NewGame(1, 2, "no_thanks", 7, (7, 8, 9), (), 5, 1))
    await storage.update_game(lobby, status="running", started_at="2026-01-01T00:00:00+00:00")
    result = Result.load(NO_THANKS)
    assert await storage.append_move(lobby.id, 1, 8, ["end"], Ending("finished", result))
    ended = await storage.game(lobby.id)
    assert ended is not None
    assert ended.result == result
    lines = {line.kind: line for line in await storage.player_tallies(2, 8)}
    assert (lines["no_thanks"].won, lines["no_thanks"].best) == (1, 31)  # the trigger read the same JSON
