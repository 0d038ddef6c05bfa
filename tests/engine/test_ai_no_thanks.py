"""No Thanks!'s computer player: its decisions on built positions, and that it sees only its seat."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine import no_thanks as nt
from engine.ai import NO_THANKS
from engine.ai import no_thanks as ai
from engine.game import Setup
from engine.no_thanks import Leave, NoThanks, State, Take

P1, P2, P3, P4, P5, P6, P7 = 101, 202, 303, 404, 505, 606, 707
RNG = random.Random(0)


def make_state(
    face_up: int, chips_on_card: int, hands: Sequence[Sequence[int]], chips: Sequence[int], cards_left: int = 10
) -> State:
    """A position mid-game with seat 0 to move; the draw pile and the removed cards are the lowest unused cards."""
    used = {face_up, *(card for cards in hands for card in cards)}
    unused = [card for card in nt.CARDS if card not in used]
    return State(
        players=(P1, P2, P3, P4, P5, P6, P7)[: len(hands)],
        seed=5,
        open_chips=False,
        removed=tuple(unused[: nt.REMOVED_CARDS]),
        draw_pile=tuple(unused[nt.REMOVED_CARDS : nt.REMOVED_CARDS + cards_left]),
        face_up=face_up,
        chips_on_card=chips_on_card,
        hands=tuple(tuple(sorted(cards)) for cards in hands),
        chips=tuple(chips),
        left=(False,) * len(hands),
        departed_cards=(),
        departed_chips=0,
        turn=0,
        status="playing",
        move_count=0,
    )


def decide(state: State) -> nt.Action:
    action = ai.act(nt.observation(state, P1), RNG)
    assert action in nt.legal_actions(state, P1)
    return action


def test_the_registered_player_signals_nothing() -> None:
    state = make_state(20, 0, [(), (), ()], [11, 11, 11])
    assert NO_THANKS.signals(nt.observation(state, P1)) == []


def test_without_chips_it_takes() -> None:
    assert decide(make_state(35, 0, [(), (), ()], [0, 11, 11])) == Take()


def test_it_says_no_thanks_to_a_high_card_without_chips_on_it() -> None:
    assert decide(make_state(33, 0, [(), (), ()], [11, 11, 11])) == NoThanks()


def test_it_takes_a_card_once_enough_chips_lie_on_it() -> None:
    assert decide(make_state(20, 14, [(), (), ()], [11, 11, 11])) == Take()
    # With 8 chips the next seat takes it (8 + 1 >= 0.4 x 20): letting it go costs one chip, taking it 12 points.
    assert decide(make_state(20, 8, [(), (), ()], [11, 11, 11])) == NoThanks()


def test_it_takes_a_card_that_links_two_of_its_runs() -> None:
    # 21 turns 20 and 22 (42 points) into one run worth 20; with 7 chips on it the third seat would take it.
    assert decide(make_state(21, 7, [(20, 22), (30,), ()], [2, 11, 11])) == Take()
    # With no chips on it nobody else will take it yet: it goes round once more for their chips.
    assert decide(make_state(21, 0, [(20, 22), (30,), ()], [2, 11, 11])) == NoThanks()


def test_it_lets_a_card_only_it_wants_go_round_for_chips() -> None:
    assert decide(make_state(26, 0, [(25,), (10,), (33,)], [11, 11, 11])) == NoThanks()
    # Another seat wants it too: take it before they do.
    assert decide(make_state(26, 0, [(25,), (27,), (33,)], [11, 11, 11])) == Take()


def test_a_card_that_puts_it_out_of_the_running_is_refused_while_it_has_a_chip() -> None:
    # 30 with 12 chips adds 18 points net: with one chip left the lookahead would take it rather than run dry.
    assert decide(make_state(30, 12, [(), (), ()], [1, 11, 11])) == NoThanks()
    # With 13 chips on it the card costs 17 net: short of chips, the seat takes it.
    assert decide(make_state(30, 13, [(), (), ()], [1, 11, 11])) == Take()
    # Without a chip there is no choice.
    assert decide(make_state(30, 12, [(), (), ()], [0, 11, 11])) == Take()


def test_the_observation_holds_nothing_the_seat_may_not_see() -> None:
    """Deals that differ in the removed cards, the draw pile's order and the others' chips look the same to P1."""
    state = make_state(20, 3, [(4, 5), (30,), (12,)], [6, 9, 2])
    hidden = replace(
        state,
        removed=(*state.removed[1:], state.draw_pile[0]),
        draw_pile=(state.removed[0], *reversed(state.draw_pile[1:])),
        chips=(6, 1, 10),
    )
    observation = nt.observation(state, P1)
    assert nt.observation(hidden, P1) == observation
    assert observation.chips == 6
    assert ai.act(nt.observation(hidden, P1), RNG) == ai.act(observation, RNG)


def test_whole_games_stay_legal() -> None:
    seats = (P1, P2, P3, P4)
    for seed in range(3):
        state = nt.GAME.new_game(Setup(seats, seed))
        while not nt.is_over(state):
            mover = nt.current_player(state)
            assert mover is not None
            action = ai.act(nt.observation(state, mover), RNG)
            assert action in nt.legal_actions(state, mover)
            state = nt.apply(state, mover, action)
        assert nt.outcome(state) is not None


def test_the_safe_move_a_failed_decision_falls_back_to_says_no_thanks_if_it_can_else_takes() -> None:
    """What the table plays when the computer player fails: the game's own safe move, written once in the rules."""
    assert nt.default_action(make_state(20, 0, [(), (), ()], [1, 11, 11]), P1) == NoThanks()
    assert nt.default_action(make_state(20, 0, [(), (), ()], [0, 11, 11]), P1) == Take()
    assert nt.GAME.default_action(make_state(20, 0, [(), (), ()], [0, 11, 11]), P1) != Leave()


def test_on_a_close_call_at_a_big_table_it_plays_the_rest_of_the_game_out() -> None:
    # 7 players, 7 chips each: the lookahead alone says no thanks here by about one point (the next seat takes 16 with
    # 8 chips). Played out, taking 16 with its 7 chips wins clearly more games (5 to 8 more of 24).
    hands = [(18,), (), (28,), (), (20,), (), (8,)]
    state = make_state(16, 7, hands, [10, 2, 14, 1, 9, 1, 5], cards_left=19)
    for seed in range(4):
        assert ai.act(nt.observation(state, P1), random.Random(seed)) == Take()


def test_the_same_generator_gives_the_same_choice() -> None:
    state = make_state(16, 7, [(18,), (), (28,), (), (20,), (), (8,)], [10, 2, 14, 1, 9, 1, 5], cards_left=19)
    choices = {ai.act(nt.observation(state, P1), random.Random(3)) for _ in range(3)}
    assert len(choices) == 1
