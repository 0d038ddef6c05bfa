"""The course of a game of The Game: the figures the end screen's picture draws, checked against the states."""

from __future__ import annotations

import pytest
from hypothesis import example, given

from engine import the_game as tg
from engine.errors import CorruptState
from engine.game import Move, Setup
from engine.the_game import EndTurn, Leave, Play, Signal
from engine.the_game_course import Laid, course
from tests.engine.test_the_game_properties import PLAYOUTS, WON, game_setups, play_out, setup_of

ROW = {"A": 1, "B": 1, "C": 100, "D": 100}


def test_a_short_game_turn_by_turn() -> None:
    """Two players: a turn of two cards and its draw, a signal between turns, the first card of the next turn."""
    setup = Setup((1, 2), seed=7)
    state = tg.GAME.new_game(setup)
    ana, ben = tg.hand(state, 1), tg.hand(state, 2)
    log: list[Move[tg.Action]] = [
        Move(1, Play(ana[0], "A")),
        Move(1, Play(ana[-1], "C")),
        Move(2, Signal("small_steps", "A")),  # not a move of the turn: changes no figure
        Move(1, EndTurn()),
        Move(2, Play(ben[-1], "D")),
    ]
    figures = course(setup, log)
    assert figures.players == 2
    assert figures.status == "playing"
    assert [(c.turn, c.pile, c.card, c.over, c.trick) for c in figures.laid] == [
        (1, "A", ana[0], 1, False),
        (1, "C", ana[-1], 100, False),
        (2, "D", ben[-1], 100, False),
    ]
    # The deal, ana's turn after her draw (two laid, two drawn), and ben's turn so far (one laid).
    draw = 98 - 14
    assert [(left.turn, left.draw_pile, left.hands) for left in figures.left] == [
        (0, draw, (7, 7)),
        (1, draw - 2, (7, 7)),
        (2, draw - 2, (7, 6)),
    ]
    assert figures.turns == 2
    assert figures.cards_in_turn(1) == 2
    assert figures.path("C") == (figures.laid[1],)
    assert figures.score == 95


def test_a_backwards_trick_and_a_leave() -> None:
    """A solo game where the mover lays a card, then one exactly ten back on the same pile, then leaves."""
    for seed in range(500):
        state = tg.GAME.new_game(Setup((1,), seed=seed))
        cards = tg.hand(state, 1)
        pair = next(((low, low + 10) for low in cards if low + 10 in cards), None)
        if pair is not None:
            break
    else:
        pytest.fail("no deal with a pair ten apart")
    low, high = pair
    log: list[Move[tg.Action]] = [Move(1, Play(high, "A")), Move(1, Play(low, "A")), Move(1, Leave())]
    figures = course(Setup((1,), seed=seed), log)
    assert figures.laid == (Laid(1, "A", high, 1, False), Laid(1, "A", low, high, True))
    assert figures.tricks == (figures.laid[1],)
    assert figures.status == "abandoned"
    # The leaver's hand went back into the draw pile: 96 cards there, none in hands.
    assert (figures.left[-1].draw_pile, figures.left[-1].hands, figures.score) == (96, (0,), 96)


def test_a_log_that_breaks_the_rules_is_refused() -> None:
    with pytest.raises(CorruptState, match="Move 1"):
        course(Setup((1,), seed=1), [Move(1, EndTurn())])


@PLAYOUTS
@given(game_setups)
@example(WON[0])
def test_the_course_agrees_with_every_state(setup: dict[str, int | float | bool]) -> None:
    states, log = play_out(setup, check=False)
    final = states[-1]
    figures = course(setup_of(setup), log)
    assert (figures.status, figures.score, figures.players) == (final.status, tg.score(final), len(final.players))
    assert figures.turns == final.turns
    assert [left.turn for left in figures.left] == list(range(final.turns + 1))
    # Each pile's path is the pile, and each card went over the top before it.
    for pile, cards in zip(tg.PILES, final.piles, strict=True):
        path = figures.path(pile)
        assert tuple(c.card for c in path) == cards
        assert [c.over for c in path] == [ROW[pile], *cards][: len(cards)]
        assert all(c.trick == tg.is_backwards_trick(pile, c.over, c.card) for c in path)
    assert len(figures.tricks) == tg.summary(final).backwards_tricks
    # What is left after a turn is every card not laid by then; turns come in order.
    assert [c.turn for c in figures.laid] == sorted(c.turn for c in figures.laid)
    for left in figures.left:
        assert left.total == 98 - sum(1 for c in figures.laid if c.turn <= left.turn)
    assert (figures.left[-1].draw_pile, figures.left[-1].hands) == (
        len(final.draw_pile),
        tuple(map(len, final.hands)),
    )
