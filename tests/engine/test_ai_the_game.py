"""The Game's computer player: its decisions on built positions, its signals, and that it sees only its seat."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import the_game as tg
from engine.ai import THE_GAME, the_game_variants
from engine.ai import the_game as ai
from engine.game import Setup
from engine.the_game import EndTurn, Leave, Mark, Play, Signal, State
from i18n import render

P1, P2, P3 = 101, 202, 303
RNG = random.Random(0)


def make_state(
    hands: Sequence[Sequence[int]],
    *,
    tops: Mapping[str, int] | None = None,
    draw_pile: Sequence[int] | None = None,
    laid: int = 0,
    minimum: int = 2,
    signals: Sequence[Mark] = (),
) -> State:
    """A position mid-game: each pile in ``tops`` holds just that card; seat 0 is to move.

    The draw pile holds every other card unless given, so that the cards still to come are as many as in a real game.
    """
    if draw_pile is None:
        used = {card for cards in hands for card in cards} | set((tops or {}).values())
        draw_pile = [card for card in tg.CARDS if card not in used]
    return State(
        players=(P1, P2, P3)[: len(hands)],
        seed=7,
        expert=False,
        smaller_hands=False,
        hands=tuple(tuple(sorted(cards)) for cards in hands),
        draw_pile=tuple(draw_pile),
        piles=tuple(((tops[name],) if tops and name in tops else ()) for name in tg.PILES),
        left=(False,) * len(hands),
        turn=0,
        laid=laid,
        minimum=minimum,
        status="playing",
        move_count=0,
        turns=1,
        signals=tuple(signals),
    )


def decide(state: State, player: int = P1) -> tg.Action:
    action = ai.act(tg.observation(state, player), RNG)
    assert action in tg.legal_actions(state, player)
    return action


def test_the_registered_player_is_this_module() -> None:
    assert THE_GAME.act is ai.act


def test_it_lays_the_backwards_trick() -> None:
    state = make_state([(45, 80, 90), (3, 4)], tops={"A": 55, "B": 30, "C": 70, "D": 60})
    assert decide(state) == Play(45, "A")


def test_it_lays_a_card_that_opens_its_own_backwards_trick() -> None:
    # 50 then 40 leaves A lower than it was, with two cards laid.
    state = make_state([(40, 50, 97), (3, 4)], tops={"A": 45, "B": 57, "C": 99, "D": 98})
    first = decide(state)
    assert first == Play(50, "A")
    state = tg.apply(state, P1, first)
    assert decide(state) == Play(40, "A")


def test_it_never_lays_into_a_dead_end_when_a_safe_sequence_exists() -> None:
    # 58 on A is a backwards trick, but then neither 51 nor 54 fits anywhere; 58 on C keeps both playable.
    state = make_state([(51, 54, 58), (3, 4)], tops={"A": 68, "B": 99, "C": 48, "D": 2})
    first = decide(state)
    assert first == Play(58, "C")
    second = decide(tg.apply(state, P1, first))
    assert second in (Play(51, "C"), Play(54, "C"))


def test_it_counts_the_laid_cards_exactly() -> None:
    # 75 on C jumps further than 35 on A, but 76..84 are already laid on B: only 75 on C skips no card to come.
    piles = ((30,), (2, *range(76, 85)), (85,), (99,))
    used = {35, 75, 3, 4}.union(*piles)
    state = make_state([(35, 75), (3, 4)], draw_pile=[card for card in tg.CARDS if card not in used], laid=1)
    state = replace(state, piles=piles)
    assert decide(state) == Play(75, "C")


def test_it_keeps_a_pair_ten_apart_together() -> None:
    # 30 alone on A skips one unseen card, as 88 on D does, but it would strand 40 (only a long jump down D would take
    # it): the pair goes together (40 then 30) or stays for later, never 30 alone.
    start = make_state([(30, 40, 86, 88), (3, 4)], tops={"A": 28, "B": 60, "C": 25, "D": 90})
    state = start
    while (action := decide(state)) != EndTurn():
        state = tg.apply(state, P1, action)
    kept = set(tg.hand(state, P1))
    assert len(kept) == 2
    assert {30, 40} <= kept or not {30, 40} & kept
    # With 40 laid, 30 is the backwards trick that gives A back every card between.
    assert decide(tg.apply(start, P1, Play(40, "A"))) == Play(30, "A")


def test_it_lays_the_first_card_of_the_game() -> None:
    state = tg.GAME.new_game(Setup((P1, P2), seed=3))
    observation = tg.observation(state, P2)
    assert observation.view.current_player is None
    action = ai.act(observation, RNG)
    assert isinstance(action, Play)
    assert action in tg.legal_actions(state, P2)


def test_it_ends_the_turn_rather_than_make_a_big_jump() -> None:
    state = make_state([(20, 80), (3, 4)], tops={"A": 50, "B": 60, "C": 40, "D": 30}, laid=2)
    assert decide(state) == EndTurn()


def test_it_avoids_a_pile_another_seat_asks_it_to_leave() -> None:
    # One card still to lay: 45 skips one card still to come on A or B, 96 one on C.
    free = make_state([(45, 96), (41, 42)], tops={"A": 43, "B": 43, "C": 98, "D": 60}, laid=1)
    asked = replace(free, signals=(Mark(P2, "dont_lay", "A"), Mark(P2, "dont_lay", "B")))
    assert decide(free) in (Play(45, "A"), Play(45, "B"))
    assert decide(asked) == Play(96, "C")


def test_it_signals_a_backwards_trick_and_a_close_card_then_stays_quiet() -> None:
    state = make_state(
        [(3, 4), (30, 61, 88)], tops={"A": 40, "B": 60, "C": 20, "D": 10}, draw_pile=tuple(range(70, 80))
    )
    wanted = ai.signals(tg.observation(state, P2))
    assert Signal("trick", "A") in wanted
    assert Signal("dont_lay", "B") in wanted
    for signal in wanted:
        state = tg.apply(state, P2, signal)
    assert ai.signals(tg.observation(state, P2)) == []


def test_an_expert_pair_asks_dont_lay_where_a_standard_pair_asks_small_steps() -> None:
    # P2's 63 fits B two cards still to come past its top. At two expert seats the partner's next turn lays three
    # cards, so a gap of up to three already asks "don't lay" (engine.ai.the_game_variants).
    state = make_state([(30, 31, 32), (63,)], tops={"A": 70, "B": 60, "C": 20, "D": 10})
    assert ai.signals(tg.observation(state, P2)) == [Signal("small_steps", "B")]
    expert = replace(state, expert=True, minimum=3)
    assert ai.signals(tg.observation(expert, P2)) == [Signal("dont_lay", "B")]


def test_standard_rules_weigh_alike_at_every_player_count() -> None:
    assert {the_game_variants.weights(False, False, players) for players in range(1, 6)} == {the_game_variants.STANDARD}


def test_it_clears_a_signal_it_no_longer_needs() -> None:
    state = make_state([(3, 4), (61, 88)], tops={"A": 40, "B": 60, "C": 20, "D": 10}, draw_pile=tuple(range(70, 80)))
    state = tg.apply(state, P2, Signal("small_steps", "C"))
    assert Signal("clear", "C") in ai.signals(tg.observation(state, P2))


def test_a_raised_signal_stays_until_its_owners_turn_unless_it_became_untrue() -> None:
    # P2's 63 fits B two cards still to come past its top: "small steps" there.
    state = make_state([(61, 64, 80), (63,), (30,)], tops={"A": 70, "B": 60, "C": 20, "D": 10})
    assert ai.signals(tg.observation(state, P2)) == [Signal("small_steps", "B")]
    state = tg.apply(state, P2, Signal("small_steps", "B"))
    # P1's 61 leaves one card in the gap: P2 would now ask "don't lay", but what its signal says still holds.
    closer = tg.apply(state, P1, Play(61, "B"))
    assert ai.wanted_signals(tg.observation(closer, P2)) == {"B": "dont_lay"}
    assert ai.signals(tg.observation(closer, P2)) == []
    # At its own turn (and right after it) P2 re-decides.
    ended = tg.apply(tg.apply(closer, P1, Play(80, "A")), P1, EndTurn())
    assert tg.current_player(ended) == P2
    assert ai.signals(tg.observation(ended, P2)) == [Signal("dont_lay", "B")]
    # P1's 64 goes past P2's card: the signal is untrue at once.
    past = tg.apply(state, P1, Play(64, "B"))
    assert ai.signals(tg.observation(past, P2)) == [Signal("clear", "B")]


def test_a_backwards_trick_that_opens_amid_another_turn_replaces_a_weaker_signal_at_once() -> None:
    state = make_state([(61, 80), (51, 63), (30,)], tops={"A": 70, "B": 60, "C": 20, "D": 10})
    state = tg.apply(state, P2, Signal("small_steps", "B"))
    # After P1's 61, P2's 51 is B's backwards trick: it says so before anybody lays on B again.
    opened = tg.apply(state, P1, Play(61, "B"))
    assert ai.signals(tg.observation(opened, P2)) == [Signal("trick", "B")]


@pytest.mark.parametrize(
    ("players", "variants"),
    [(1, ()), (3, ()), (1, ("expert",)), (2, ("expert", "smaller_hands")), (3, ("smaller_hands",))],
)
def test_whole_games_stay_legal_and_signals_never_flip_flop(players: int, variants: tuple[str, ...]) -> None:
    seats = tuple(range(1, players + 1))
    for seed in range(2):
        state = tg.GAME.new_game(Setup(seats, seed, frozenset(variants)))
        while not tg.is_over(state):
            for seat in seats:
                for signal in ai.signals(tg.observation(state, seat)):
                    if tg.current_player(state) not in (None, seat) and state.laid:
                        # Amid another seat's turn a signal of its own changes only once no card of its hand fits
                        # the pile, or to say the backwards trick it now holds there.
                        marked = {mark.pile for mark in state.signals if mark.player == seat}
                        if signal.pile in marked and signal.kind != "trick":
                            top = tg.top(state, signal.pile)
                            assert not any(tg.is_legal(signal.pile, top, card) for card in tg.hand(state, seat))
                    state = tg.apply(state, seat, signal)  # the engine refuses any signal it must not raise
                assert ai.signals(tg.observation(state, seat)) == []
            mover = tg.current_player(state) or seats[0]
            action = ai.act(tg.observation(state, mover), RNG)
            assert action in tg.legal_actions(state, mover)
            state = tg.apply(state, mover, action)
        assert tg.outcome(state) is not None


def test_the_same_observation_gives_the_same_action() -> None:
    state = tg.GAME.new_game(Setup((P1, P2, P3), seed=11))
    observation = tg.observation(state, P1)
    assert ai.act(observation, random.Random(1)) == ai.act(observation, random.Random(2))


def test_the_observation_holds_nothing_the_seat_may_not_see() -> None:
    """Two deals that differ only in what P1 cannot see give P1 the same observation, hence the same decisions."""
    state = make_state(
        [(10, 20, 30), (40, 50, 60), (70, 80, 90)], tops={"A": 5, "C": 95}, draw_pile=(11, 21, 31, 41, 51)
    )
    # Swap a card of P2's hand with one of the draw pile, and reorder the draw pile.
    hidden = replace(state, hands=(state.hands[0], (11, 50, 60), state.hands[2]), draw_pile=(51, 41, 40, 31, 21))
    observation = tg.observation(state, P1)
    assert tg.observation(hidden, P1) == observation
    assert set(observation.hand) == {10, 20, 30}
    assert ai.act(tg.observation(hidden, P1), RNG) == ai.act(observation, RNG)
    assert ai.signals(tg.observation(hidden, P1)) == ai.signals(observation)


# What the table plays when the computer player fails: the game's own safe move, written once in the rules.
def test_the_safe_move_ends_the_turn_when_it_may() -> None:
    state = make_state([(20, 80), (3, 4)], tops={"A": 50, "B": 60, "C": 40, "D": 30}, laid=2)
    assert tg.default_action(state, P1) == EndTurn()


def test_the_safe_move_lays_the_smallest_step_and_never_leaves() -> None:
    state = make_state([(20, 55, 80), (3, 4)], tops={"A": 50, "B": 60, "C": 40, "D": 30})
    assert tg.GAME.default_action(state, P1) == Play(55, "A")
    assert tg.default_action(state, P1) != Leave()


def test_it_refuses_to_act_for_a_seat_that_is_not_to_move() -> None:
    state = make_state([(20, 80), (3, 4)], tops={"A": 50, "B": 60, "C": 40, "D": 30})
    with pytest.raises(ValueError, match="not this seat's turn"):
        ai.act(tg.observation(state, P2), RNG)


# --- the hint: the computer player's choice for a person's seat ------------------------------------------------------


def test_the_hint_is_the_computer_players_move_and_names_the_backwards_trick() -> None:
    state = make_state([(45, 80, 90), (3, 4)], tops={"A": 55, "B": 30, "C": 70, "D": 60})
    given = ai.hint(tg.observation(state, P1))
    assert given is not None
    assert given.action == decide(state) == Play(45, "A")
    assert render(given.why, "en").startswith("The backwards trick: A goes back ten")


def test_the_hint_says_how_much_room_a_card_wastes() -> None:
    # A shows 10 and nothing below 20 is still to come but 12: laying 11 skips no card, 14 would skip 12.
    state = make_state([(11, 14), (12, 99)], tops={"A": 10, "B": 10, "C": 3, "D": 3}, draw_pile=range(20, 40))
    given = ai.hint(tg.observation(state, P1))
    assert given is not None
    assert given.action == Play(11, "A")
    assert render(given.why, "en") == "Of the cards you must lay, this wastes least: it skips no card still to come."
    assert render(given.why, "de") != render(given.why, "en")  # told in the reader's language


def test_the_hint_ends_the_turn_once_more_cards_would_cost_room() -> None:
    state = make_state([(20, 80), (3, 4)], tops={"A": 50, "B": 60, "C": 40, "D": 30}, laid=2)
    given = ai.hint(tg.observation(state, P1))
    assert given is not None
    assert given.action == EndTurn() == decide(state)
    assert "room the team still needs" in render(given.why, "en")


def test_the_hint_out_of_turn_is_a_signal_and_nothing_once_shown() -> None:
    state = make_state(
        [(3, 4), (30, 61, 88)], tops={"A": 40, "B": 60, "C": 20, "D": 10}, draw_pile=tuple(range(70, 80))
    )
    given = ai.hint(tg.observation(state, P2))
    assert given is not None
    assert given.action == Signal("trick", "A")
    assert render(given.why, "en") == "Signal on A: you hold its backwards trick."
    for signal in ai.signals(tg.observation(state, P2)):
        state = tg.apply(state, P2, signal)
    assert ai.hint(tg.observation(state, P2)) is None


def test_no_hint_once_the_game_is_over_or_the_seat_left() -> None:
    state = make_state([(20, 80), (3, 4)], tops={"A": 50, "B": 60, "C": 40, "D": 30})
    assert ai.hint(tg.observation(replace(state, status="lost", turn=None), P1)) is None
    assert ai.hint(tg.observation(tg.apply(state, P2, Leave()), P2)) is None


def test_the_hint_sees_only_its_seat() -> None:
    """Two states that differ only in the other hand and the draw pile give the same hint."""
    state = make_state([(20, 33, 80), (3, 4, 60)], tops={"A": 30, "B": 60, "C": 40, "D": 70})
    swap = {5: 3, 6: 4, 61: 60}
    other = replace(
        state, hands=(state.hands[0], tuple(swap)), draw_pile=tuple(swap.get(card, card) for card in state.draw_pile)
    )
    assert ai.hint(tg.observation(state, P1)) == ai.hint(tg.observation(other, P1)) is not None


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 60),
    variants=st.sampled_from([(), ("expert",), ("smaller_hands",)]),
    kept=st.lists(st.booleans(), min_size=8, max_size=8),
    tops=st.tuples(st.integers(1, 99), st.integers(1, 99), st.integers(2, 100), st.integers(2, 100)),
)
def test_no_end_position_scores_below_the_floor_the_search_prunes_with(
    seed: int, moves: int, variants: tuple[str, ...], kept: list[bool], tops: tuple[int, int, int, int]
) -> None:
    """The plan leaves unscored every end position whose room alone already costs more than the best plan plus this
    floor: it chooses as an exhaustive search only while no position, of any part of the hand at any tops, is lower."""
    state = tg.GAME.new_game(Setup((P1, P2), seed, frozenset(variants), tg.INFO.rules_version))
    for _ in range(moves):
        if tg.is_over(state):
            break
        mover = tg.current_player(state) or P1
        state = tg.apply(state, mover, ai.act(tg.observation(state, mover), RNG))
    board = ai._board(tg.observation(state, P1))
    rest = [card for card, keep in zip(board.hand, kept, strict=False) if keep]
    assert ai._position(board, tops, rest) >= ai._lowest_position(board.hand)


def test_the_floor_is_reached_by_a_hand_of_backwards_tricks_ten_apart() -> None:
    """The floor is reached: a hand whose every card is a pile's backwards trick, the cards ten apart, scores exactly
    it (a higher floor would leave unscored a position that can win; a lower one would score more than needed)."""
    state = make_state([[40, 50], [2, 3]], tops={"A": 50, "B": 60, "C": 99, "D": 98})
    board = ai._board(tg.observation(state, P1))
    assert ai._position(board, board.tops, board.hand) == ai._lowest_position(board.hand) == -4.0
