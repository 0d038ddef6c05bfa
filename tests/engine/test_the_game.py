"""Table-driven tests of every rule and ruling of The Game, mostly on hand-built states."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from engine import the_game as tg
from engine.errors import CorruptState, GameOver, IllegalAction, NotAPlayer, NotYourTurn
from engine.game import NO_NUMBERS_IN_CHAT, Move, Setup, decode_moves, replay
from engine.the_game import EndTurn, Leave, Play, Signal, State
from table.registry import GAMES
from tests.engine.test_game_contract import rows_of, saved

P1, P2, P3, P4, P5 = 101, 202, 303, 404, 505  # ids unlike seat numbers, so a mix-up shows


def make_state(
    hands: Sequence[Sequence[int]],
    *,
    piles: Mapping[str, Sequence[int]] | None = None,
    draw_pile: Sequence[int] = (),
    turn: int | None = 0,
    laid: int = 0,
    minimum: int | None = None,
    expert: bool = False,
    smaller_hands: bool = False,
    left: Sequence[bool] | None = None,
) -> State:
    """A position in the middle of a game. Cards not mentioned are simply out of play; the engine never counts them."""
    minimum_now = 1 if not draw_pile else 3 if expert else 2
    return State(
        players=(P1, P2, P3, P4, P5)[: len(hands)],
        seed=7,
        expert=expert,
        smaller_hands=smaller_hands,
        hands=tuple(tuple(sorted(cards)) for cards in hands),
        draw_pile=tuple(draw_pile),
        piles=tuple(tuple((piles or {}).get(name, ())) for name in tg.PILES),
        left=tuple(left) if left is not None else (False,) * len(hands),
        turn=turn,
        laid=laid,
        minimum=minimum_now if minimum is None else minimum,
        status="playing",
        move_count=0,
        turns=0,
    )


def cards_everywhere(state: State) -> list[int]:
    return sorted([*(card for cards in state.hands for card in cards), *state.draw_pile, *sum(state.piles, ())])


# --- setup ----------------------------------------------------------------------------------------------------------


def test_game_info() -> None:
    assert tg.INFO.kind == "the_game"
    assert (tg.INFO.min_players, tg.INFO.max_players) == (1, 5)
    assert [variant.name for variant in tg.INFO.variants] == ["expert", "smaller_hands"]
    assert tg.INFO.variant("expert") == tg.INFO.variants[0]
    assert tg.INFO.variant("open_chips") is None
    assert tg.INFO.rules_version == 2
    assert tg.INFO.replays_versions == {1}  # logs of version 1 replay under its trick-signal rule
    assert tg.INFO.capabilities == {NO_NUMBERS_IN_CHAT}
    assert tg.GAME.info is tg.INFO
    assert GAMES["the_game"] is tg.GAME
    assert tg.PILES == ("A", "B", "C", "D")
    assert frozenset({"A", "B"}) == tg.ASCENDING


@pytest.mark.parametrize(
    ("players", "smaller_hands", "size"),
    [
        (1, False, 8),
        (2, False, 7),
        (3, False, 6),
        (4, False, 6),
        (5, False, 6),
        (1, True, 7),
        (2, True, 6),
        (3, True, 5),
        (4, True, 5),
        (5, True, 5),
    ],
)
@pytest.mark.parametrize("expert", [False, True])
def test_hand_sizes(players: int, smaller_hands: bool, size: int, expert: bool) -> None:
    state = tg.new_game(range(1, players + 1), seed=3, expert=expert, smaller_hands=smaller_hands)
    assert [len(cards) for cards in state.hands] == [size] * players
    assert len(state.draw_pile) == 98 - size * players
    assert cards_everywhere(state) == list(range(2, 100))
    assert all(list(cards) == sorted(cards) for cards in state.hands)
    assert tg.public_view(state).hand_size == size
    assert state.minimum == (3 if expert else 2)
    assert (state.turn, state.laid, state.status, state.move_count, state.turns) == (None, 0, "playing", 0, 0)
    assert state.signals == ()


def test_the_seed_decides_the_deal() -> None:
    assert tg.new_game([P1, P2], seed=1) == tg.new_game([P1, P2], seed=1)
    assert tg.new_game([P1, P2], seed=1).hands != tg.new_game([P1, P2], seed=2).hands


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([], "The Game is for 1 to 5 players, not 0."),
        ([1, 2, 3, 4, 5, 6], "The Game is for 1 to 5 players, not 6."),
        ([1, 2, 1], "Each player can take only one seat."),
    ],
)
def test_new_game_refuses_bad_tables(players: list[int], message: str) -> None:
    with pytest.raises(IllegalAction) as error:
        tg.new_game(players, seed=1)
    assert str(error.value) == message


# --- laying a card --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "top", "card", "legal", "trick"),
    [
        # ascending piles: higher, or exactly 10 lower
        ("A", 1, 2, True, False),
        ("A", 45, 46, True, False),
        ("A", 45, 99, True, False),
        ("A", 45, 44, False, False),
        ("A", 45, 35, True, True),
        ("A", 45, 25, False, False),
        ("A", 45, 36, False, False),
        ("B", 1, 99, True, False),
        ("B", 70, 60, True, True),
        ("B", 70, 61, False, False),
        ("B", 70, 80, True, False),
        ("B", 99, 89, True, True),
        ("B", 99, 98, False, False),
        # descending piles: lower, or exactly 10 higher
        ("C", 100, 99, True, False),
        ("C", 100, 2, True, False),
        ("C", 55, 54, True, False),
        ("C", 55, 56, False, False),
        ("C", 55, 65, True, True),
        ("C", 55, 75, False, False),
        ("C", 55, 45, True, False),
        ("D", 30, 40, True, True),
        ("D", 30, 39, False, False),
        ("D", 30, 20, True, False),
        ("D", 2, 12, True, True),
        ("D", 2, 3, False, False),
    ],
)
def test_which_cards_fit(pile: str, top: int, card: int, legal: bool, trick: bool) -> None:
    assert tg.is_legal(pile, top, card) is legal
    assert tg.is_backwards_trick(pile, top, card) is trick


@pytest.mark.parametrize(("pile", "top", "card"), [("A", 45, 35), ("B", 70, 60), ("C", 55, 65), ("D", 30, 40)])
def test_the_backwards_trick_on_every_pile(pile: str, top: int, card: int) -> None:
    state = make_state([[card, 50]], piles={pile: [top]}, draw_pile=[90])
    after = tg.apply(state, P1, Play(card, pile))
    assert tg.top(after, pile) == card
    assert tg.hand(after, P1) == (50,)
    assert after.laid == 1
    assert tg.summary(after).backwards_tricks == 1
    assert (after.move_count, after.turns) == (1, 1)
    assert state.piles == tuple(() if name != pile else (top,) for name in tg.PILES)  # the input is untouched


def test_the_backwards_trick_works_again_and_again() -> None:
    state = make_state([[25, 35, 45, 60]], piles={"A": [55]}, draw_pile=[90])
    for card in (45, 35, 25):
        state = tg.apply(state, P1, Play(card, "A"))
    assert state.piles[0] == (55, 45, 35, 25)
    assert tg.summary(state).backwards_tricks == 3


def test_legal_piles_and_tops() -> None:
    state = make_state([[50]], piles={"A": [45], "B": [61], "C": [40], "D": [55]})
    assert [tg.top(state, name) for name in tg.PILES] == [45, 61, 40, 55]
    assert tg.legal_piles(state, 50) == ("A", "C", "D")  # C by the backwards trick
    assert tg.legal_piles(state, 35) == ("A", "C", "D")
    assert tg.top(make_state([[2]]), "C") == 100


@pytest.mark.parametrize(
    ("pile", "top", "card", "message"),
    [
        (
            "A",
            45,
            37,
            "37 can't go on A (ascending, top 45): it must be higher than 45, or exactly 35 for the backwards trick.",
        ),
        (
            "C",
            55,
            70,
            "70 can't go on C (descending, top 55): it must be lower than 55, or exactly 65 for the backwards trick.",
        ),
        ("B", 5, 3, "3 can't go on B (ascending, top 5): it must be higher than 5."),
        ("B", 99, 50, "50 can't go on B (ascending, top 99): it must be exactly 89 for the backwards trick."),
        ("D", 95, 97, "97 can't go on D (descending, top 95): it must be lower than 95."),
        ("D", 2, 50, "50 can't go on D (descending, top 2): it must be exactly 12 for the backwards trick."),
    ],
)
def test_an_illegal_pile_says_what_would_fit(pile: str, top: int, card: int, message: str) -> None:
    state = make_state([[card, 60]], piles={pile: [top]}, draw_pile=[90])
    with pytest.raises(IllegalAction) as error:
        tg.apply(state, P1, Play(card, pile))
    assert str(error.value) == message


def test_is_legal_refuses_an_unknown_pile() -> None:
    with pytest.raises(IllegalAction, match="There is no pile 'E'"):
        tg.is_legal("E", 1, 2)


# --- refusals -------------------------------------------------------------------------------------------------------

MIDGAME = make_state([[30, 60], [40, 70]], piles={"A": [20]}, draw_pile=[90, 91], laid=1, minimum=2)


@pytest.mark.parametrize(
    ("player", "action", "error", "message"),
    [
        (P1, Play(31, "A"), IllegalAction, "You don't hold that card."),
        (P1, Play(40, "A"), IllegalAction, "You don't hold that card."),  # another player's card
        (P1, Play(30.0, "A"), IllegalAction, "You don't hold that card."),  # type: ignore[arg-type]
        (P1, Play(30, "E"), IllegalAction, "There is no pile 'E': the piles are A, B, C and D."),
        (P1, Play(30, "a"), IllegalAction, "There is no pile 'a': the piles are A, B, C and D."),
        (P2, Play(40, "A"), NotYourTurn, "It's not your turn."),
        (P2, EndTurn(), NotYourTurn, "It's not your turn."),
        (P1, EndTurn(), IllegalAction, "Lay 1 more card before ending your turn."),
        (999, Play(30, "A"), NotAPlayer, "You're not playing in this game."),
        (999, Leave(), NotAPlayer, "You're not playing in this game."),
        (P1, "pass", IllegalAction, "That is not a move in The Game."),
    ],
)
def test_refusals_say_why(player: int, action: tg.Action, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        tg.apply(MIDGAME, player, action)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("expert", "laid", "message"),
    [
        (False, 0, "Lay 2 more cards before ending your turn."),
        (False, 1, "Lay 1 more card before ending your turn."),
        (True, 1, "Lay 2 more cards before ending your turn."),
        (True, 2, "Lay 1 more card before ending your turn."),
    ],
)
def test_ending_the_turn_too_early(expert: bool, laid: int, message: str) -> None:
    state = make_state([[60, 70, 80]], draw_pile=[90], laid=laid, expert=expert)
    with pytest.raises(IllegalAction) as error:
        tg.apply(state, P1, EndTurn())
    assert str(error.value) == message


def test_nobody_can_end_a_turn_before_the_first_card() -> None:
    with pytest.raises(IllegalAction) as error:
        tg.apply(tg.new_game([P1, P2], seed=1), P2, EndTurn())
    assert str(error.value) == "Nobody has laid a card yet: lay the first card to take the first turn."


@pytest.mark.parametrize("status", ["won", "lost", "abandoned"])
def test_nothing_goes_after_the_end(status: str) -> None:
    state = replace(MIDGAME, status=status)
    for action in (Play(30, "A"), EndTurn(), Leave(), Signal("dont_lay", "A"), Signal("clear")):
        with pytest.raises(GameOver, match=r"^This game is over\.$"):
            tg.apply(state, P1, action)
    assert tg.legal_actions(state, P1) == []
    assert tg.current_player(state) is None
    assert tg.is_over(state)


def test_hand_of_a_stranger() -> None:
    with pytest.raises(NotAPlayer):
        tg.hand(MIDGAME, 999)
    assert tg.legal_actions(MIDGAME, 999) == []


# --- turns ----------------------------------------------------------------------------------------------------------


def test_the_first_card_claims_the_first_turn() -> None:
    state = tg.new_game([P1, P2, P3], seed=5)
    assert tg.current_player(state) is None
    for player in (P1, P2, P3):  # anyone may start
        assert {type(action) for action in tg.legal_actions(state, player)} == {Play, Leave}
    card = tg.hand(state, P2)[0]
    state = tg.apply(state, P2, Play(card, "A"))
    assert tg.current_player(state) == P2
    assert (state.turn, state.laid, state.minimum) == (1, 1, 2)
    assert tg.legal_actions(state, P1) == [Leave()]
    with pytest.raises(NotYourTurn):
        tg.apply(state, P1, Play(tg.hand(state, P1)[0], "B"))
    state = tg.apply(state, P2, Play(tg.hand(state, P2)[0], "B"))
    assert EndTurn() in tg.legal_actions(state, P2)
    state = tg.apply(state, P2, EndTurn())
    assert tg.current_player(state) == P3  # then on in seating order ...
    assert len(tg.hand(state, P2)) == 6
    state = tg.apply(state, P3, Play(tg.hand(state, P3)[0], "C"))
    state = tg.apply(state, P3, Play(tg.hand(state, P3)[0], "D"))
    state = tg.apply(state, P3, EndTurn())
    assert tg.current_player(state) == P1  # ... wrapping round


def test_ending_the_turn_draws_back_up_to_the_hand_size() -> None:
    state = make_state([[10, 20, 30, 40, 50, 60, 70], [81, 82, 83, 84, 85, 86, 87]], draw_pile=[77, 5, 88, 9])
    state = tg.apply(state, P1, Play(70, "A"))
    state = tg.apply(state, P1, Play(60, "C"))
    state = tg.apply(state, P1, EndTurn())
    assert tg.hand(state, P1) == (5, 10, 20, 30, 40, 50, 77)  # the two from the front, sorted in
    assert state.draw_pile == (88, 9)
    assert tg.current_player(state) == P2


def test_the_draw_pile_running_out_lowers_the_minimum_from_the_next_turn_on() -> None:
    state = make_state([[10, 20, 30, 40, 50, 60, 70], [80, 81, 82, 83, 84, 85, 86]], draw_pile=[90])
    state = tg.apply(state, P1, Play(10, "A"))
    assert state.minimum == 2
    with pytest.raises(IllegalAction, match="Lay 1 more card"):  # the last card is still in the draw pile
        tg.apply(state, P1, EndTurn())
    state = tg.apply(state, P1, Play(20, "A"))
    state = tg.apply(state, P1, EndTurn())
    assert tg.hand(state, P1) == (30, 40, 50, 60, 70, 90)  # drew the only card left
    assert state.draw_pile == ()
    assert (tg.current_player(state), state.minimum) == (P2, 1)
    state = tg.apply(state, P2, Play(86, "C"))
    assert EndTurn() in tg.legal_actions(state, P2)
    state = tg.apply(state, P2, EndTurn())
    assert (tg.current_player(state), state.minimum, tg.hand(state, P2)) == (P1, 1, (80, 81, 82, 83, 84, 85))


def test_the_minimum_stays_as_it_was_when_the_turn_started() -> None:
    # The draw pile is empty (minimum 1) and P2 leaves mid-turn, refilling it: P1's turn still needs only one card.
    state = make_state([[30, 40], [50, 51, 52, 53, 54, 55], [70, 71]], turn=0)
    state = tg.apply(state, P1, Play(30, "A"))
    state = tg.apply(state, P2, Leave())
    assert (len(state.draw_pile), state.minimum) == (6, 1)
    state = tg.apply(state, P1, EndTurn())
    assert tg.hand(state, P1) == (40, *sorted(set(state.hands[0]) - {40}))
    assert len(tg.hand(state, P1)) == 6
    assert (tg.current_player(state), state.minimum) == (P3, 2)  # a card is left in the draw pile


DRAW = [90, 91, 92, 93, 94, 95, 96, 97]


@pytest.mark.parametrize(
    ("expert", "draw_pile", "minimum"), [(False, DRAW, 2), (True, DRAW, 3), (False, [], 1), (True, [], 1)]
)
def test_expert_minimum(expert: bool, draw_pile: list[int], minimum: int) -> None:
    state = make_state([[], [60, 61, 62, 63, 64]], draw_pile=draw_pile, expert=expert, laid=3)
    state = tg.apply(state, P1, EndTurn())
    assert (tg.current_player(state), state.minimum) == (P2, minimum)
    for card in (64, 63, 62)[:minimum]:
        assert EndTurn() not in tg.legal_actions(state, P2)
        state = tg.apply(state, P2, Play(card, "C"))
    assert EndTurn() in tg.legal_actions(state, P2)


@pytest.mark.parametrize(
    ("hands", "mover", "next_player"),
    [
        ([[30, 31], [], [50]], 0, P3),  # an empty hand is skipped
        ([[30, 31], [], []], 0, P1),  # ... so with nobody else holding cards the mover goes again
        ([[30], [40], [50]], 2, P1),  # seating order wraps round
    ],
)
def test_empty_hands_are_skipped(hands: list[list[int]], mover: int, next_player: int) -> None:
    state = make_state(hands, turn=mover)
    player = state.players[mover]
    state = tg.apply(state, player, Play(hands[mover][0], "A"))
    state = tg.apply(state, player, EndTurn())
    assert tg.current_player(state) == next_player


def test_a_player_who_laid_their_whole_hand_is_skipped() -> None:
    state = make_state([[30, 40], [50, 60, 70]])
    state = tg.apply(state, P1, Play(30, "A"))
    state = tg.apply(state, P1, Play(40, "A"))
    assert tg.legal_actions(state, P1) == [EndTurn(), Leave()]
    state = tg.apply(state, P1, EndTurn())
    assert tg.current_player(state) == P2
    state = tg.apply(state, P2, Play(50, "A"))
    state = tg.apply(state, P2, EndTurn())
    assert tg.current_player(state) == P2
    assert tg.public_view(state).seats[0] == tg.SeatView(P1, 0, False)


# --- leaving --------------------------------------------------------------------------------------------------------


def test_a_player_who_is_not_moving_leaves() -> None:
    state = make_state([[30, 31], [40, 41], [50, 51]], draw_pile=[90, 91, 92], laid=1)
    after = tg.apply(state, P3, Leave())
    assert after.left == (False, False, True)
    assert tg.hand(after, P3) == ()
    assert sorted(after.draw_pile) == [50, 51, 90, 91, 92]
    assert (after.turn, after.laid, after.minimum, after.status) == (0, 1, 2, "playing")
    assert tg.legal_actions(after, P3) == []
    with pytest.raises(NotAPlayer) as error:
        tg.apply(after, P3, Play(50, "A"))
    assert str(error.value) == "You left this game, so you can't act in it any more."
    assert tg.public_view(after).seats[2] == tg.SeatView(P3, 0, True)
    # the shuffle is seeded by the game, so the same leave shuffles the same way
    assert tg.apply(state, P3, Leave()) == after


def test_the_mover_leaves_and_the_next_player_starts_a_turn() -> None:
    state = make_state([[30, 31], [40, 41], [50, 51]], draw_pile=[90, 91, 92])
    state = tg.apply(state, P1, Play(30, "A"))
    after = tg.apply(state, P1, Leave())
    assert after.piles[0] == (30,)  # laid cards stay laid
    assert sorted(after.draw_pile) == [31, 90, 91, 92]
    assert (tg.current_player(after), after.laid, after.minimum) == (P2, 0, 2)
    assert [len(cards) for cards in after.hands] == [0, 2, 2]  # hand sizes stay as dealt: nobody draws now


def test_the_mover_leaves_and_the_next_player_is_stuck() -> None:
    state = make_state([[30, 31], [10, 11], [50, 51]], piles={"A": [60], "B": [60], "C": [5], "D": [5]}, draw_pile=[90])
    after = tg.apply(state, P1, Leave())
    assert after.status == "lost"
    assert tg.score(after) == 7


def test_leaving_before_the_first_card() -> None:
    state = tg.new_game([P1, P2], seed=4)
    after = tg.apply(state, P1, Leave())
    assert (after.turn, tg.current_player(after), len(after.draw_pile)) == (None, None, 98 - 7)
    card = tg.hand(after, P2)[0]
    after = tg.apply(after, P2, Play(card, "A"))
    assert tg.current_player(after) == P2


def test_the_last_player_to_leave_abandons_the_game() -> None:
    state = make_state([[30], [40]], draw_pile=[90])
    state = tg.apply(state, P2, Leave())
    state = tg.apply(state, P1, Leave())
    assert state.status == "abandoned"
    assert tg.is_over(state)
    assert not tg.won(state)
    assert tg.current_player(state) is None
    assert tg.public_view(state).score is None


@pytest.mark.parametrize(("hand", "minimum"), [([45], 1), ([45, 46], 2), ([45, 46, 47], 2)])
def test_a_leave_that_refills_the_draw_pile_never_asks_for_more_cards_than_a_hand_holds(
    hand: list[int], minimum: int
) -> None:
    # Ruling: only a leave can put cards back into an empty draw pile. The minimum then returns to 2, but a hand of
    # one card cannot lay two: laying the whole hand completes the turn instead of ending the game for everybody.
    state = make_state([[30, 31], hand, [50, 51, 52]], turn=0)
    state = tg.apply(state, P1, Leave())
    assert (tg.current_player(state), state.minimum, len(state.draw_pile)) == (P2, minimum, 2)
    for card in hand[:minimum]:
        state = tg.apply(state, P2, Play(card, "A"))
    state = tg.apply(state, P2, EndTurn())
    assert set(tg.hand(state, P2)) >= {30, 31}  # drew the leaver's cards
    assert state.status == "playing"


def test_nobody_left_holding_cards_loses_the_cards_in_the_draw_pile() -> None:
    # Ruling: empty hands are skipped, also after a leave refilled the draw pile.
    state = make_state([[30, 31], []], turn=0)
    state = tg.apply(state, P1, Leave())
    assert (state.status, tg.score(state), state.turn) == ("lost", 2, None)


# --- the end --------------------------------------------------------------------------------------------------------


def test_laying_the_last_card_wins() -> None:
    state = make_state([[50], []], piles={"A": list(range(2, 50)), "D": list(range(99, 50, -1))})
    state = tg.apply(state, P1, Play(50, "A"))
    assert state.status == "won"
    assert tg.won(state)
    assert tg.is_over(state)
    assert tg.score(state) == 0
    assert tg.current_player(state) is None
    view = tg.public_view(state)
    assert (view.over, view.score, view.status) == (True, 0, "won")


# Tops A, B, C, D = 45, 98, 3, 3 and a draw pile: the minimum is 2. Only 50 fits at the start of the turn.
TRICKY_TOPS = {"A": [45], "B": [98], "C": [3], "D": [3]}


@pytest.mark.parametrize(
    ("hand", "lost"),
    [
        ([50, 40, 5, 6, 7, 8], False),  # 50 on A opens 40 by the backwards trick: a single-card check says lost
        ([50, 41, 5, 6, 7, 8], True),
        ([50, 49, 5, 6, 7, 8], False),  # two plain cards on the same pile, lowest first
        ([35, 46, 5, 6, 7, 8], False),  # 35 by the trick first, then 46
        ([44, 4, 5, 6, 7, 8], True),  # nothing fits at all
        ([88, 36, 5, 6, 7, 8], True),  # 88 fits A, or B by the trick; nothing after it
        ([88, 78, 5, 6, 7, 8], False),  # two tricks in a row on B, or both on A
        ([13, 23, 4, 5, 6, 7], False),  # descending: 13 by the trick on C, then 23 on C, and so on
    ],
)
def test_the_end_check_at_the_start_of_a_turn(hand: list[int], lost: bool) -> None:
    # P1 has laid their two cards elsewhere and ends the turn; P2's turn starts on these tops.
    state = make_state([[], hand], piles=TRICKY_TOPS, draw_pile=[90, 91, 92, 93, 94, 95, 96, 97, 98], laid=2)
    state = tg.apply(state, P1, EndTurn())
    assert len(state.draw_pile) == 2
    assert state.status == ("lost" if lost else "playing")
    assert tg.current_player(state) == (None if lost else P2)
    assert tg.score(state) == 7 + 6 + 2  # P1's hand, P2's hand, the draw pile


def test_the_end_check_part_way_through_a_turn() -> None:
    state = make_state([[50, 51, 62], [70]], piles=TRICKY_TOPS, draw_pile=[90])
    after = tg.apply(state, P1, Play(62, "A"))  # now neither 50 nor 51 fits, with one card still owed
    assert after.status == "lost"
    assert tg.score(after) == 2 + 1 + 1
    after = tg.apply(state, P1, Play(50, "A"))
    assert after.status == "playing"
    after = tg.apply(after, P1, Play(62, "A"))  # the minimum is laid: a stuck hand just ends the turn
    assert after.status == "playing"
    assert tg.legal_actions(after, P1) == [EndTurn(), Leave()]


@pytest.mark.parametrize(
    ("hand", "tops", "needed", "expected"),
    [
        ((), (1, 1, 100, 100), 0, True),
        ((), (1, 1, 100, 100), 1, False),
        ((50,), (1, 1, 100, 100), 2, False),
        ((50, 40, 30), (45, 98, 3, 3), 3, True),  # a chain of two tricks opened by the first card
        ((50, 40, 31), (45, 98, 3, 3), 3, False),
        ((50, 40), (45, 45, 3, 3), 2, True),
        ((50, 60), (45, 98, 55, 3), 2, True),  # 50 on C, then 60 back on C by the trick
        ((60, 61), (70, 70, 50, 50), 2, True),  # both only by tricks? 60 on A, then 61 plain on A
        ((47, 38), (48, 98, 3, 3), 2, True),  # 38 by the trick on A, then 47 plain
        ((47, 38), (48, 98, 3, 3), 3, False),
        ((2, 3, 4, 5, 6, 7, 8, 9), (1, 1, 100, 100), 8, True),
    ],
)
def test_can_meet_minimum(hand: tuple[int, ...], tops: tuple[int, ...], needed: int, expected: bool) -> None:
    assert tg.can_meet_minimum(hand, tops, needed) is expected


# --- views ----------------------------------------------------------------------------------------------------------


def test_public_view_shows_no_card_of_any_hand() -> None:
    state = tg.new_game([P1, P2, P3], seed=11)
    state = tg.apply(state, P1, Play(tg.hand(state, P1)[-1], "A"))
    # Swapping a hand card for a draw pile card must not change anything anybody can see.
    swapped = list(state.hands[1])
    swapped[0], draw_card = state.draw_pile[0], swapped[0]
    other = replace(
        state,
        hands=(state.hands[0], tuple(sorted(swapped)), state.hands[2]),
        draw_pile=(draw_card, *state.draw_pile[1:]),
    )
    assert tg.public_view(state) == tg.public_view(other)
    assert [field.name for field in fields(tg.PublicView)] == [
        "piles", "draw_pile", "seats", "hand_size", "current_player", "laid", "minimum", "expert",
        "smaller_hands", "status", "over", "score", "signals",
    ]  # fmt: skip


def test_public_view_during_a_game() -> None:
    state = make_state([[30, 31], [40]], piles={"A": [20], "C": [80]}, draw_pile=[90, 91, 92], laid=1, expert=True)
    view = tg.public_view(state)
    assert view.piles == (
        tg.PileView("A", True, 20, 1, (20,)),
        tg.PileView("B", True, 1, 0),
        tg.PileView("C", False, 80, 1, (80,)),
        tg.PileView("D", False, 100, 0),
    )
    assert view.seats == (tg.SeatView(P1, 2, False), tg.SeatView(P2, 1, False))
    assert (view.draw_pile, view.current_player, view.laid, view.minimum) == (3, P1, 1, 3)
    assert (view.expert, view.smaller_hands, view.status, view.over, view.score) == (
        True,
        False,
        "playing",
        False,
        None,
    )


def test_summary_counts_turns_tricks_and_piles() -> None:
    state = make_state([[30, 31, 40], [71, 81, 91]], piles={"A": [35]}, draw_pile=[2, 3])
    for card in (40, 30, 31):  # 30 by the backwards trick
        state = tg.apply(state, P1, Play(card, "A"))
    state = tg.apply(state, P1, EndTurn())
    for card in (81, 91, 71):  # 91 by the backwards trick
        state = tg.apply(state, P2, Play(card, "C"))
    state = tg.apply(state, P2, EndTurn())  # the draw pile is empty now: P2 is out of cards and skipped
    state = tg.apply(state, P1, Play(3, "D"))
    state = tg.apply(state, P2, Leave())  # a leave by somebody else does not start a new turn
    state = tg.apply(state, P1, Play(2, "D"))
    assert state.status == "won"
    assert tg.summary(state) == tg.Summary(turns=3, backwards_tricks=2, pile_lengths=(4, 0, 3, 2))


# --- saving: the move log -------------------------------------------------------------------------------------------

SETUP = Setup((P1, P2, P3), seed=21)
Log = list[Move[tg.Action]]


def played_game(moves: int, setup: Setup = SETUP) -> tuple[Log, State]:
    """A real game and its log: the first legal play each time, ending the turn on every third move when allowed."""
    state = tg.GAME.new_game(setup)
    log: Log = []
    while len(log) < moves and not tg.is_over(state):
        player = tg.current_player(state) or setup.players[0]
        actions = tg.legal_actions(state, player)
        plays = [action for action in actions if isinstance(action, Play)]
        action = EndTurn() if EndTurn() in actions and (state.move_count % 3 == 2 or not plays) else plays[0]
        log.append(Move(player, action))
        state = tg.apply(state, player, action)
    return log, state


def then(log: Log, state: State, *moves: Move[tg.Action]) -> tuple[Log, State]:
    for move in moves:
        state = tg.apply(state, move.player, move.action)
    return [*log, *moves], state


def load(log: Log, setup: Setup = SETUP) -> State:
    """The state the log leads to, once saved and loaded again."""
    return replay(tg.GAME, setup, saved(tg.GAME, log))


def saved_games() -> list[tuple[Setup, Log, State]]:
    signalled = then(
        *played_game(7), Move(P3, Signal("dont_lay", "B")), Move(P2, Signal("nearly_stuck")), Move(P1, Leave())
    )
    expert = Setup((P4, P5), seed=3, variants=frozenset({"expert", "smaller_hands"}))
    return [
        (SETUP, [], tg.GAME.new_game(SETUP)),
        (SETUP, *played_game(9)),
        (SETUP, *then(*played_game(5), Move(P2, Leave()))),
        (SETUP, *signalled),
        (expert, *played_game(12, expert)),
        (SETUP, *played_game(1000)),
        (Setup((P1,), seed=8), *played_game(1000, Setup((P1,), seed=8))),
    ]


@pytest.mark.parametrize(("setup", "log", "state"), saved_games())
def test_the_log_rebuilds_the_game_through_json(setup: Setup, log: Log, state: State) -> None:
    assert state.move_count == len(log)
    assert load(log, setup) == state


def test_the_saved_games_cover_signals_leaves_and_ends() -> None:
    states = [state for _, _, state in saved_games()]
    assert {state.status for state in states} == {"playing", "lost"}
    assert any(state.signals for state in states)
    assert any(any(state.left) for state in states)


def test_a_shorter_log_is_an_earlier_position() -> None:
    log, _ = played_game(12)
    for moves in (0, 1, 5, 11):
        assert load(log[:moves]) == played_game(moves)[1]


def test_the_stored_log_layout() -> None:
    log, _ = then(*played_game(3), Move(P2, Signal("dont_lay", "C")), Move(P3, Leave()), Move(P2, Leave()))
    rows = rows_of(tg.GAME, log)
    assert rows[:3] == [[P1, ["play", 8, "A"]], [P1, ["play", 19, "A"]], [P1, ["end"]]]
    assert rows[-3:] == [[P2, ["signal", "dont_lay", "C"]], [P3, ["leave"]], [P2, ["leave"]]]


@pytest.mark.parametrize(
    ("action", "raw"),
    [
        (Play(37, "C"), ["play", 37, "C"]),
        (Play(2, "A"), ["play", 2, "A"]),
        (Play(99, "D"), ["play", 99, "D"]),
        (EndTurn(), ["end"]),
        (Leave(), ["leave"]),
        (Signal("trick", "A"), ["signal", "trick", "A"]),
        (Signal("nearly_stuck"), ["signal", "nearly_stuck", None]),
        (Signal("clear"), ["signal", "clear", None]),
        (Signal("clear", "D"), ["signal", "clear", "D"]),
    ],
)
def test_actions_encode_and_decode(action: tg.Action, raw: list[Any]) -> None:
    assert tg.encode_action(action) == raw
    assert tg.decode_action(json.loads(json.dumps(raw))) == action


@pytest.mark.parametrize(
    "raw",
    [
        ["play", 50],
        ["play", 50, "A", 1],
        ["play", "50", "A"],
        ["play", 50.0, "A"],  # 50.0 == 50, but a float must never reach a pile
        ["play", True, "A"],  # True == 1, and 1 is no card either
        ["play", 1, "A"],
        ["play", 100, "C"],
        ["play", -5, "D"],
        ["play", 50, "E"],
        ["play", 50, "a"],
        ["play", 50, None],
        ["play", 50, ["A"]],  # unhashable where the pile goes
        ["play", 50, {"pile": "A"}],
        ["end", 1],
        ["leave", None],
        ["END"],
        ["jump"],
        ["signal", "wave", "A"],
        ["signal", "dont_lay", "E"],
        ["signal", "dont_lay"],
        ["signal", True, "A"],
        ["signal", "trick", 1],
        ["signal", "clear", None, None],
        [],
        "end",
        None,
        7,
        {"play": [50, "A"]},
    ],
)
def test_decode_action_refuses_what_encode_action_never_writes(raw: Any) -> None:
    with pytest.raises(CorruptState) as error:
        tg.decode_action(raw)
    assert str(error.value) == f"The saved game is damaged (unknown move {raw!r})."


@pytest.mark.parametrize("player", [True, "101", None, 101.0, [101]])
def test_decode_moves_refuses_a_row_without_a_player(player: Any) -> None:
    with pytest.raises(CorruptState) as error:
        decode_moves(tg.GAME, [(P1, ["end"]), (player, ["end"])])
    assert str(error.value) == "The saved game is damaged (a move names no player)."


START = tg.GAME.new_game(SETUP)
NINE, _ = played_game(9)
OVER, LOST = played_game(1000)


def broken(number: int, why: str) -> str:
    return f"Move {number} of the saved game breaks the rules: {why}"


START = tg.GAME.new_game(SETUP)
NINE, _ = played_game(9)  # P1 lays 8 and 19 on A and ends; P2 lays 5 on B and 30 on A and ends; P3 ...
OVER, LOST = played_game(1000)
STRANGER = 999


@pytest.mark.parametrize(
    ("setup", "log", "message"),
    [
        (SETUP, [Move(P1, Play(5, "A")), *NINE[1:]], broken(1, "You don't hold that card.")),  # P2 holds it
        (SETUP, [NINE[0], Move(P1, Play(8, "B")), *NINE[2:]], broken(2, "You don't hold that card.")),  # laid already
        (
            SETUP,
            [NINE[1], NINE[0], *NINE[2:]],
            broken(
                2,
                "8 can't go on A (ascending, top 19): it must be higher than 19, or exactly 9 for the backwards trick.",
            ),
        ),
        (SETUP, [NINE[0], Move(P2, Play(5, "B")), *NINE[1:]], broken(2, "It's not your turn.")),
        (
            SETUP,
            [Move(P1, EndTurn()), *NINE],
            broken(1, "Nobody has laid a card yet: lay the first card to take the first turn."),
        ),
        (SETUP, [NINE[0], Move(P1, EndTurn()), *NINE[1:]], broken(2, "Lay 1 more card before ending your turn.")),
        (SETUP, [*NINE[:3], Move(STRANGER, Leave()), *NINE[3:]], broken(4, "You're not playing in this game.")),
        (SETUP, [Move(STRANGER, Signal("dont_lay", "A")), *NINE], broken(1, "You're not playing in this game.")),
        (
            SETUP,
            [*NINE, Move(P3, Leave()), Move(P3, Signal("nearly_stuck"))],
            broken(11, "You left this game, so you can't act in it any more."),
        ),
        (SETUP, [*OVER, Move(P1, Leave())], broken(len(OVER) + 1, "This game is over.")),
        (SETUP, [*OVER, Move(P2, Signal("nearly_stuck"))], broken(len(OVER) + 1, "This game is over.")),
        (SETUP, [Move(P1, Signal("trick", "A")), *NINE], broken(1, "You can't do a backwards trick on A right now.")),
        (
            SETUP,
            [Move(P2, Signal("dont_lay", "C")), Move(P2, Signal("dont_lay", "C"))],
            broken(2, "That signal is already up."),
        ),
        (SETUP, [Move(P2, Signal("clear"))], broken(1, "You have no signal to clear.")),
        # the log of one game does not fit another setup
        (replace(SETUP, seed=22), NINE, broken(1, "You don't hold that card.")),
        (replace(SETUP, variants=frozenset({"smaller_hands"})), NINE, broken(4, "You don't hold that card.")),
        (replace(SETUP, players=(P1, P2, P4)), NINE, broken(7, "You're not playing in this game.")),
        (
            replace(SETUP, rules_version=3),
            NINE,
            "This game was started under rules version 3 of The Game, and this bot plays version 2.",
        ),
        (
            replace(SETUP, variants=frozenset({"expert", "open_chips"})),
            NINE,
            "This game uses a variant this bot doesn't know (open_chips).",
        ),
        (replace(SETUP, players=()), [], "The saved game cannot be set up: The Game is for 1 to 5 players, not 0."),
        (replace(SETUP, players=(P1, P1)), [], "The saved game cannot be set up: Each player can take only one seat."),
    ],
)
def test_replay_refuses_a_log_that_breaks_the_rules(setup: Setup, log: Log, message: str) -> None:
    assert LOST.status == "lost"
    with pytest.raises(CorruptState) as error:
        load(log, setup)
    assert str(error.value) == message


# --- purity ---------------------------------------------------------------------------------------------------------


def test_the_engine_imports_nothing_impure() -> None:
    source = Path(tg.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not imported & {"discord", "asyncio", "aiosqlite", "time", "datetime"}
    random_uses = {
        node.attr for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random"
    }  # fmt: skip
    assert random_uses == {"Random"}
