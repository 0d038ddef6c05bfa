"""benchmarks/ai.py plays honestly: the AI never gets the deck's generator, and each --signals mode signals exactly
when it says."""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks import ai as bench
from engine import the_game as tg
from engine.ai import THE_GAME


def recorded(monkeypatch: pytest.MonkeyPatch, players: int, mode: str) -> list[tuple[int, tg.Action, bool]]:
    """Every move of one benchmark game: (player, action, whether the game had started)."""
    moves: list[tuple[int, tg.Action, bool]] = []
    apply = tg.apply

    def spy(state: tg.State, player: int, action: tg.Action) -> tg.State:
        moves.append((player, action, state.turn is not None))
        return apply(state, player, action)

    monkeypatch.setattr(bench.the_game, "apply", spy)
    bench.play_the_game(players, bench.deal_seed(3, 1), frozenset(), bench.Tally(), mode)
    return moves


def test_no_signal_at_all_with_none(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = recorded(monkeypatch, 3, "none")
    assert moves
    assert not any(isinstance(action, tg.Signal) for _, action, _ in moves)


def test_with_turn_a_seat_signals_only_right_after_its_own_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = recorded(monkeypatch, 3, "turn")
    signals = [index for index, (_, action, _) in enumerate(moves) if isinstance(action, tg.Signal)]
    assert signals
    for index in signals:
        player = moves[index][0]
        before = next(move for move in reversed(moves[:index]) if not isinstance(move[1], tg.Signal))
        assert before[:2] == (player, tg.EndTurn())


def test_with_live_every_seat_signals_after_every_move(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = recorded(monkeypatch, 3, "live")
    signallers = {player for player, action, _ in moves if isinstance(action, tg.Signal)}
    assert signallers == {1, 2, 3}
    # Between two moves, the seats signal in seat order (each updates once).
    run: list[int] = []
    for player, action, _ in moves:
        if isinstance(action, tg.Signal):
            run.append(player)
        else:
            assert run == sorted(run)
            run = []


def test_the_computer_players_never_get_the_decks_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = bench.deal_seed(1, 0)
    given: list[Any] = []
    act = THE_GAME.act

    def spy(observation: tg.Observation, rng: random.Random) -> tg.Action:
        given.append(rng.getstate())
        return act(observation, rng)

    monkeypatch.setattr(bench, "_timed_act", lambda player, observation, rng, tally: spy(observation, rng))
    bench.play_the_game(2, seed, frozenset(), bench.Tally(), "none")
    assert given
    assert random.Random(seed).getstate() not in given
    assert bench.ai_rng(seed).getstate() == given[0]  # seeded apart, and still reproducible


def test_the_run_seed_picks_the_deals_whatever_the_player_count() -> None:
    assert [bench.deal_seed(2, number) for number in range(3)] == [2_000_006, 2_000_007, 2_000_008]
