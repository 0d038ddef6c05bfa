"""The misclick guard's judgement (``engine.ai.the_game_guard``): never about the hand's best lay, only about lays
clearly worse by the planner's reckoning, sooner onto a pile somebody else asked to keep."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import the_game
from engine.ai.the_game_guard import KEPT_REGRET_TO_ASK, REGRET_TO_ASK, regrets, worth_asking
from engine.game import Setup
from engine.the_game import Play, Signal


def position(players: int, seed: int, steps: int) -> the_game.State:
    """A position of a game played by random legal moves (signals included) for ``steps`` moves."""
    seats = tuple(range(1, players + 1))
    state = the_game.GAME.new_game(Setup(seats, seed, frozenset(), the_game.INFO.rules_version))
    rng = random.Random(seed)
    for _ in range(steps):
        if the_game.is_over(state):
            break
        mover = the_game.current_player(state) or seats[0]
        actions = the_game.legal_actions(state, mover)
        if not actions:
            break
        state = the_game.apply(state, mover, rng.choice(actions))
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10_000), st.integers(0, 60))
def test_the_best_lay_is_never_asked_about_and_every_legal_lay_is_judged(players: int, seed: int, steps: int) -> None:
    state = position(players, seed, steps)
    mover = the_game.current_player(state) or 1
    observation = the_game.observation(state, mover)
    judged = regrets(observation)
    legal = {
        Play(card, pile)
        for card in observation.hand
        for pile in the_game.PILES
        if the_game.is_legal(pile, the_game.top(state, pile), card)
    }
    assert set(judged) == legal
    if judged:
        assert min(judged.values()) == 0.0
        best = [play for play, regret in judged.items() if regret == 0.0]
        assert not any(worth_asking(observation, play) for play in best)
    for play, regret in judged.items():
        assert regret >= 0.0
        kept = any(m.pile == play.pile and m.kind == "dont_lay" and m.player != mover for m in state.signals)
        assert worth_asking(observation, play) == (regret >= (KEPT_REGRET_TO_ASK if kept else REGRET_TO_ASK))


def test_a_kept_pile_lowers_the_bar_and_only_anothers_signal_counts() -> None:
    for seed in range(200):
        state = position(3, seed, 0)
        observation = the_game.observation(state, 1)
        judged = regrets(observation)
        middling = [play for play, regret in judged.items() if KEPT_REGRET_TO_ASK <= regret < REGRET_TO_ASK]
        if middling:
            break
    else:
        raise AssertionError("no opening hand with a middling lay in 200 deals")
    play = middling[0]
    assert not worth_asking(observation, play)
    kept_by_other = the_game.apply(state, 2, Signal("dont_lay", play.pile))
    assert worth_asking(the_game.observation(kept_by_other, 1), play)
    kept_by_self = the_game.apply(state, 1, Signal("dont_lay", play.pile))
    assert not worth_asking(the_game.observation(kept_by_self, 1), play)
