"""The Game's endgame search: exact where every hand is known, never fooled by its shortcut, and it overrules the turn
planner only for a move that keeps the game winnable."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import the_game as tg
from engine.ai import the_game as ai
from engine.ai import the_game_endgame as endgame_module
from engine.ai.the_game_endgame import _deal, _Search, _stuck, endgame
from engine.the_game import EndTurn, Play, State
from i18n import render
from tests.engine.test_the_game import P1, P2, make_state

_UP = (True, True, False, False)


def endgame_state(hands: Sequence[Sequence[int]], tops: Sequence[int], *, laid: int = 0) -> State:
    """A position once the draw pile is empty: every card not in a hand is laid (under pile A's top); seat 0 moves."""
    held = {card for cards in hands for card in cards}
    under = [card for card in tg.CARDS if card not in held and card not in tops]
    piles = {"A": (*under, tops[0]), "B": (tops[1],), "C": (tops[2],), "D": (tops[3],)}
    return make_state(hands, piles=piles, laid=laid)


def reference_wins(tops: tuple[int, ...], hands: tuple[tuple[int, ...], ...], mover: int, laid: bool) -> bool:
    """Plain recursion over every move, without the search's table or its shortcut: what the search must agree with."""
    if not any(hands):
        return True
    if laid:
        for step in range(1, len(hands) + 1):
            nxt = (mover + step) % len(hands)
            if hands[nxt]:
                if reference_wins(tops, hands, nxt, False):
                    return True
                break
    for card in hands[mover]:
        for pile in range(4):
            top = tops[pile]
            fits = (card > top or card == top - 10) if _UP[pile] else (card < top or card == top + 10)
            if fits:
                rest = tuple(other for other in hands[mover] if other != card)
                after = (*tops[:pile], card, *tops[pile + 1 :])
                if reference_wins(after, (*hands[:mover], rest, *hands[mover + 1 :]), mover, True):
                    return True
    return False


Position = tuple[tuple[int, int, int, int], list[int], int, int]
# Cards from a narrow band, so that piles cross, cards go dead and backwards tricks are common.
positions = st.tuples(
    st.tuples(st.integers(30, 60), st.integers(30, 60), st.integers(30, 60), st.integers(30, 60)),
    st.lists(st.integers(25, 65), min_size=2, max_size=7, unique=True),
    st.integers(2, 3),
    st.integers(0, 6),
)


def split(cards: list[int], seats: int, seed: int) -> tuple[tuple[int, ...], ...]:
    shuffled = random.Random(seed).sample(cards, len(cards))
    return tuple(tuple(sorted(shuffled[seat::seats])) for seat in range(seats))


@settings(max_examples=300, deadline=None)
@given(positions, st.booleans())
def test_the_search_agrees_with_plain_recursion(position: Position, laid: bool) -> None:
    tops, cards, seats, seed = position
    cards = [card for card in cards if card not in tops]
    hands = split(cards, seats, seed)
    if not hands[0]:
        return
    assert _Search(10**9).wins(tops, hands, 0, laid) == reference_wins(tops, hands, 0, laid)


@settings(max_examples=300, deadline=None)
@given(positions)
def test_a_position_called_stuck_cannot_be_won_by_any_seat_at_any_moment(position: Position) -> None:
    tops, cards, seats, seed = position
    cards = [card for card in cards if card not in tops]
    hands = split(cards, seats, seed)
    if _stuck(tops, hands):
        for mover in range(seats):
            if hands[mover]:
                assert not reference_wins(tops, hands, mover, False)
                assert not reference_wins(tops, hands, mover, True)


def test_stuck_sees_a_card_no_pile_can_take_and_a_trick_chain_that_saves_it() -> None:
    # 50 lies between the piles (up at 80 and 85, down at 30 and 20), and nothing can bring a pile back.
    assert _stuck((80, 85, 30, 20), ((50,), (90,)))
    # 70 is a backwards trick on pile A (80), 60 one on 70, and then 65 fits: a chain of tricks saves it.
    assert not _stuck((80, 85, 30, 20), ((65, 70), (60,)))
    assert _stuck((80, 85, 30, 20), ((55, 70), (60,)))  # but 55 stays below the lowest A can come back to


def test_it_overrules_a_planned_card_that_loses_and_a_turn_kept_too_long() -> None:
    # Only pile A still takes cards. Laying 55 first shuts out the partner's 53; laying 52, then passing, wins.
    state = endgame_state([(52, 55), (53,)], (50, 99, 2, 3))
    observation = tg.observation(state, P1)
    assert endgame(observation, Play(55, "A")) == Play(52, "A")
    assert endgame(observation, Play(52, "A")) == Play(52, "A")
    later = tg.apply(state, P1, Play(52, "A"))
    assert endgame(tg.observation(later, P1), Play(55, "A")) == EndTurn()
    state = tg.apply(tg.apply(tg.apply(later, P1, EndTurn()), P2, Play(53, "A")), P2, EndTurn())
    state = tg.apply(state, P1, ai.act(tg.observation(state, P1), random.Random(0)))
    assert tg.won(state)


def test_it_keeps_the_planned_move_when_nothing_wins_more_or_the_search_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lost = endgame_state([(52, 55), (40,)], (50, 99, 2, 3))  # the partner's 40 fits no pile whatever happens
    assert endgame(tg.observation(lost, P1), Play(55, "A")) == Play(55, "A")
    winnable = endgame_state([(52, 55), (53,)], (50, 99, 2, 3))
    monkeypatch.setattr(endgame_module, "POSITIONS", 1)
    assert endgame(tg.observation(winnable, P1), Play(55, "A")) == Play(55, "A")


def test_it_waits_for_the_empty_draw_pile_and_few_cards() -> None:
    state = endgame_state([(52, 55), (53,)], (50, 99, 2, 3))
    # 60 goes back from pile A to the draw pile: the same hands and tops, one card still to draw.
    drawing = replace(state, draw_pile=(60,), piles=(tuple(c for c in state.piles[0] if c != 60), *state.piles[1:]))
    assert endgame(tg.observation(drawing, P1), Play(55, "A")) == Play(55, "A")
    many = endgame_state([(52, 55, *range(70, 78)), (53, *range(78, 86))], (50, 99, 2, 3))
    assert len(many.hands[0]) + len(many.hands[1]) > endgame_module.MOST_CARDS
    assert endgame(tg.observation(many, P1), Play(55, "A")) == Play(55, "A")


def test_a_seat_named_by_its_trick_signal_gets_that_card_in_every_deal() -> None:
    rng = random.Random(1)
    for _ in range(50):
        hands = _deal(rng, [10, 20, 30, 40, 50], [0, 2, 3], {30: 1})
        assert hands is not None
        assert 30 in hands[1]
        assert [len(hand) for hand in hands] == [0, 2, 3]
        assert sorted(card for hand in hands for card in hand) == [10, 20, 30, 40, 50]
    assert _deal(rng, [10, 20], [0, 0, 2], {10: 1}) is None  # the signal's seat holds no card: not a real position


def test_with_hidden_hands_it_mends_the_planners_move_alike_for_the_same_view_and_hints_why() -> None:
    # Found in a seeded game of three: the planner lays 88 on B, which shuts out the 83 that another seat holds (no
    # pile takes it after that); the search keeps B open. Who holds 13, 17, 83 and 23 this seat cannot see.
    state = endgame_state([(21, 88), (13, 17, 83), (23,)], (99, 72, 4, 44))
    observation = tg.observation(state, P1)
    assert ai._decide(observation)[0] == Play(88, "B")
    assert ai.act(observation, random.Random(0)) == Play(21, "D")
    swapped = endgame_state([(21, 88), (13, 17, 23), (83,)], (99, 72, 4, 44))
    assert tg.observation(swapped, P1).hand == observation.hand
    assert ai.act(tg.observation(swapped, P1), random.Random(5)) == Play(21, "D")  # the hidden cards don't matter
    hint = ai.hint(observation)
    assert hint is not None
    assert hint.action == Play(21, "D")
    assert render(hint.why, "en").startswith("The draw pile is empty: tried against the ways the others' cards may lie")
