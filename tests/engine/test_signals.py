"""The Game's signals (table talk without numbers): who may raise which, what replaces and clears them, and the
refusals, one table each, on hand-built states."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine import the_game as tg
from engine.errors import GameError, GameOver, IllegalAction, NotAPlayer
from engine.game import Setup
from engine.the_game import EndTurn, Leave, Mark, Play, Signal, State
from tests.engine.test_the_game import P1, P2, P3, make_state
from tests.engine.test_the_game_properties import choose

STRANGER = 999

# P1 is to move, one card laid of two. The tops are A 45, B 60, C 40, D 70; the backwards tricks are 35 on A and 80 on
# D (P1 holds both), and 50 on B or C (P2 holds it). P3 holds 30, 10 the right way from C.
TABLE = make_state(
    [[35, 55, 61, 80], [50, 62, 75], [12, 30, 90]],
    piles={"A": [45], "B": [60], "C": [40], "D": [70]},
    draw_pile=[95, 96, 97],
    laid=1,
)


SEATS = {"P1": P1, "P2": P2, "P3": P3}


def signs(text: str) -> tuple[Mark, ...]:
    """Signals written the short way, oldest first: "P1 dont_lay A, P2 nearly_stuck"."""
    found = []
    for part in filter(None, (part.strip() for part in text.split(","))):
        who, kind, *pile = part.split()
        found.append(Mark(SEATS[who], kind, pile[0] if pile else None))
    return tuple(found)


def up(state: State, text: str) -> State:
    """``state`` with these signals on the table."""
    return replace(state, signals=signs(text))


def test_the_signals_carry_no_number() -> None:
    assert tg.PILE_SIGNALS == ("dont_lay", "trick", "small_steps")
    assert tg.PLAYER_SIGNALS == ("nearly_stuck",)
    assert tg.SIGNALS == tg.PILE_SIGNALS + tg.PLAYER_SIGNALS
    assert tg.CLEAR == "clear"
    assert not any(char.isdigit() for kind in (*tg.SIGNALS, tg.CLEAR) for char in kind)


# --- raising a signal ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "player", "signal"),
    [
        *((TABLE, P2, Signal(kind, pile)) for kind in ("dont_lay", "small_steps") for pile in tg.PILES),
        (TABLE, P1, Signal("dont_lay", "C")),  # the mover, during their turn
        (TABLE, P3, Signal("nearly_stuck")),  # out of turn, about themselves
        (TABLE, P1, Signal("trick", "A")),  # P1 holds 35, exactly 10 below A's 45
        (TABLE, P2, Signal("trick", "C")),  # P2 holds 50, exactly 10 above C's 40
        (TABLE, P2, Signal("trick", "B")),  # ... and 10 below B's 60
        (TABLE, P1, Signal("trick", "D")),  # P1 holds 80, 10 above D's 70
        (tg.new_game([P1, P2, P3], seed=4), P3, Signal("small_steps", "D")),  # before the first card
        (tg.new_game([P1], seed=4), P1, Signal("nearly_stuck")),  # alone at the table
    ],
)
def test_any_seated_player_may_signal_at_any_time(state: State, player: int, signal: Signal) -> None:
    after = tg.apply(state, player, signal)
    assert after.signals == (Mark(player, signal.kind, signal.pile),)
    assert tg.public_view(after).signals == after.signals
    assert after.move_count == state.move_count + 1  # a log entry like any other
    # nothing else changes: not the turn, not the cards, not what anybody may do
    assert replace(after, signals=(), move_count=state.move_count) == state
    assert tg.current_player(after) == tg.current_player(state)
    for seat in state.players:
        assert tg.legal_actions(after, seat) == tg.legal_actions(state, seat)


@pytest.mark.parametrize(
    ("before", "player", "signal", "after"),
    [
        # one signal per player and pile: a new one replaces the old, and is the newest
        ("P1 dont_lay A, P2 dont_lay B", P1, Signal("small_steps", "A"), "P2 dont_lay B, P1 small_steps A"),
        ("P2 small_steps C", P2, Signal("trick", "C"), "P2 trick C"),
        ("P2 dont_lay A", P2, Signal("trick", "C"), "P2 dont_lay A, P2 trick C"),
        ("P1 dont_lay A", P1, Signal("dont_lay", "B"), "P1 dont_lay A, P1 dont_lay B"),
        # other players' signals on the same pile stay
        ("P1 dont_lay A", P2, Signal("small_steps", "A"), "P1 dont_lay A, P2 small_steps A"),
        ("P1 nearly_stuck", P2, Signal("nearly_stuck"), "P1 nearly_stuck, P2 nearly_stuck"),
        # a signal about yourself sits beside your pile signals
        ("P3 dont_lay D", P3, Signal("nearly_stuck"), "P3 dont_lay D, P3 nearly_stuck"),
        # clearing: one pile, or everything of yours, never anybody else's
        ("P1 dont_lay A, P1 dont_lay B, P2 dont_lay A", P1, Signal("clear", "A"), "P1 dont_lay B, P2 dont_lay A"),
        ("P1 dont_lay A, P2 trick C, P1 nearly_stuck", P1, Signal("clear"), "P2 trick C"),
        ("P3 nearly_stuck, P1 small_steps B", P3, Signal("clear"), "P1 small_steps B"),
        ("P2 trick C, P2 dont_lay D", P2, Signal("clear", "C"), "P2 dont_lay D"),
    ],
)
def test_replacing_and_clearing(before: str, player: int, signal: Signal, after: str) -> None:
    state = tg.apply(up(TABLE, before), player, signal)
    assert state.signals == signs(after)
    assert state.move_count == TABLE.move_count + 1


ALONE = tg.new_game([P1], seed=1)
LEFT = replace(TABLE, left=(False, False, True), hands=(*TABLE.hands[:2], ()))


def no_trick(pile: str) -> str:
    return f"You can't do a backwards trick on {pile} right now."


@pytest.mark.parametrize(
    ("state", "player", "signal", "message"),
    [
        (TABLE, P1, Signal("wave", "A"), "There is no signal 'wave'."),
        (TABLE, P1, Signal("Dont_lay", "A"), "There is no signal 'Dont_lay'."),
        (TABLE, P1, Signal("dont_lay", "E"), "There is no pile 'E': the piles are A, B, C and D."),
        (TABLE, P1, Signal("clear", "a"), "There is no pile 'a': the piles are A, B, C and D."),
        (TABLE, P1, Signal("dont_lay"), "Choose the pile this signal is about: A, B, C or D."),
        (TABLE, P1, Signal("trick"), "Choose the pile this signal is about: A, B, C or D."),
        (TABLE, P1, Signal("nearly_stuck", "A"), "That signal is about you, not about a pile."),
        # the trick needs the card exactly 10 the wrong way, in the signaller's own hand
        (TABLE, P2, Signal("trick", "A"), no_trick("A")),  # 35 is P1's
        (TABLE, P1, Signal("trick", "C"), no_trick("C")),  # 50 is P2's
        (TABLE, P1, Signal("trick", "B"), no_trick("B")),  # 50 is P2's
        (TABLE, P3, Signal("trick", "D"), no_trick("D")),  # 80 is P1's
        (TABLE, P3, Signal("trick", "C"), no_trick("C")),  # P3's 30 is 10 the right way
        (ALONE, P1, Signal("trick", "A"), no_trick("A")),  # no card is 10 below the row card
        (ALONE, P1, Signal("trick", "C"), no_trick("C")),
        # the same signal again, and clearing what is not there
        (up(TABLE, "P1 dont_lay B"), P1, Signal("dont_lay", "B"), "That signal is already up."),
        (up(TABLE, "P3 nearly_stuck"), P3, Signal("nearly_stuck"), "That signal is already up."),
        (TABLE, P1, Signal("clear"), "You have no signal to clear."),
        (up(TABLE, "P2 dont_lay A"), P1, Signal("clear"), "You have no signal to clear."),
        (up(TABLE, "P1 dont_lay A"), P1, Signal("clear", "B"), "You have no signal there to clear."),
        (up(TABLE, "P1 nearly_stuck"), P1, Signal("clear", "A"), "You have no signal there to clear."),
    ],
)
def test_refused_signals_say_why(state: State, player: int, signal: Signal, message: str) -> None:
    with pytest.raises(IllegalAction) as raised:
        tg.apply(state, player, signal)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("state", "player", "error", "message"),
    [
        (TABLE, STRANGER, NotAPlayer, "You're not playing in this game."),
        (LEFT, P3, NotAPlayer, "You left this game, so you can't act in it any more."),
        (replace(TABLE, status="lost", turn=None), P1, GameOver, "This game is over."),
        (replace(TABLE, status="won", turn=None), P2, GameOver, "This game is over."),
        (replace(TABLE, status="abandoned", turn=None), P3, GameOver, "This game is over."),
    ],
)
def test_only_players_at_a_running_game_may_signal(
    state: State, player: int, error: type[GameError], message: str
) -> None:
    for signal in (Signal("dont_lay", "A"), Signal("nearly_stuck"), Signal("clear")):
        with pytest.raises(error) as raised:
            tg.apply(up(state, "P1 nearly_stuck, P3 nearly_stuck"), player, signal)
        assert str(raised.value) == message


# --- what takes a signal down ----------------------------------------------------------------------------------------

P2_MOVES = replace(TABLE, turn=1)
P1_HOLDS_TWO_TRICKS = make_state(
    [[35, 40, 80], [50, 62, 75]], piles={"A": [45], "B": [60], "C": [40], "D": [70]}, draw_pile=[95], turn=1
)
ONE_CARD_TO_WIN = make_state([[50], [], []], piles={"A": list(range(2, 50)), "D": list(range(99, 50, -1))})
ONE_CARD_TO_LOSE = make_state(
    [[50, 51, 62], [70], [71]], piles={"A": [45], "B": [98], "C": [3], "D": [3]}, draw_pile=[90]
)


@pytest.mark.parametrize(
    ("state", "before", "moves", "after"),
    [
        # the owner lays a card on the pile: their signal there has done its job, whoever else's stays
        (
            TABLE,
            "P1 dont_lay A, P1 small_steps B, P2 dont_lay A",
            [(P1, Play(55, "A"))],
            "P1 small_steps B, P2 dont_lay A",
        ),
        (TABLE, "P1 trick A", [(P1, Play(35, "A"))], ""),
        (TABLE, "P1 dont_lay A, P3 small_steps B", [(P1, Play(61, "B"))], "P1 dont_lay A, P3 small_steps B"),
        (P2_MOVES, "P1 dont_lay A", [(P2, Play(50, "A"))], "P1 dont_lay A"),
        # a trick signal lasts while the pile's top stays and its card is not laid elsewhere
        (TABLE, "P1 trick A, P1 trick D", [(P1, Play(61, "B"))], "P1 trick A, P1 trick D"),
        (TABLE, "P1 trick A, P1 trick D", [(P1, Play(35, "C"))], "P1 trick D"),  # 35 laid elsewhere
        (P2_MOVES, "P1 trick A, P1 trick D, P2 trick C", [(P2, Play(50, "A"))], "P1 trick D"),
        (P2_MOVES, "P1 trick D", [(P2, Play(62, "D"))], ""),  # D shows 62: the trick is 72 now
        # ... and never longer: P1 also holds 40, the trick for A's new 50, but nobody else may learn that
        (P1_HOLDS_TWO_TRICKS, "P1 trick A", [(P2, Play(50, "A"))], ""),
        (P1_HOLDS_TWO_TRICKS, "P1 trick A", [(P2, Play(62, "B"))], "P1 trick A"),  # another pile moved
        # "nearly stuck" ends with its owner's turn, not with a card or with anybody else's turn
        (TABLE, "P1 nearly_stuck", [(P1, Play(55, "A"))], "P1 nearly_stuck"),
        (
            TABLE,
            "P1 nearly_stuck, P1 dont_lay C, P2 nearly_stuck",
            [(P1, Play(61, "B")), (P1, EndTurn())],
            "P1 dont_lay C, P2 nearly_stuck",
        ),
        # a leaver's signals go with them, whether they were moving or not
        (TABLE, "P2 dont_lay A, P2 nearly_stuck, P2 trick C, P1 dont_lay A", [(P2, Leave())], "P1 dont_lay A"),
        (TABLE, "P1 dont_lay B, P1 trick A, P3 small_steps B", [(P1, Leave())], "P3 small_steps B"),
        # everything ends with the game
        (ONE_CARD_TO_WIN, "P1 dont_lay B, P2 nearly_stuck", [(P1, Play(50, "A"))], ""),
        (ONE_CARD_TO_LOSE, "P2 dont_lay C, P3 nearly_stuck", [(P1, Play(62, "A"))], ""),
        (make_state([[30], [40]]), "P1 dont_lay A, P2 dont_lay B", [(P2, Leave()), (P1, Leave())], ""),
    ],
)
def test_what_takes_a_signal_down(state: State, before: str, moves: list[tuple[int, tg.Action]], after: str) -> None:
    state = up(state, before)
    for player, action in moves:
        state = tg.apply(state, player, action)
    assert state.signals == signs(after)
    assert tg.public_view(state).signals == state.signals


def test_rules_version_1_kept_a_trick_signal_by_the_hidden_hand() -> None:
    # Old logs replay as they were played: the mark stayed while its owner held the card ten back from the new top.
    old = replace(up(P1_HOLDS_TWO_TRICKS, "P1 trick A"), rules_version=1)
    assert tg.apply(old, P2, Play(50, "A")).signals == signs("P1 trick A")
    assert tg.apply(replace(old, hands=((35, 80), *old.hands[1:])), P2, Play(50, "A")).signals == ()
    assert tg.new_game([P1], seed=1, rules_version=1).rules_version == 1
    assert tg.GAME.new_game(Setup((P1,), seed=1, rules_version=1)).rules_version == 1
    assert tg.GAME.new_game(Setup((P1,), seed=1, rules_version=2)).rules_version == 2


def test_a_leave_by_somebody_else_takes_nothing_down() -> None:
    state = tg.apply(up(TABLE, "P1 dont_lay A, P2 trick C"), P3, Leave())
    assert state.signals == signs("P1 dont_lay A, P2 trick C")
    state = tg.apply(state, P2, Leave())
    assert state.signals == signs("P1 dont_lay A")
    assert tg.is_over(tg.apply(state, P1, Leave()))


# --- signals in a real game ------------------------------------------------------------------------------------------


def test_signals_in_a_real_game() -> None:
    state = tg.new_game([P1, P2, P3], seed=5)
    state = tg.apply(state, P3, Signal("small_steps", "A"))
    state = tg.apply(state, P1, Signal("nearly_stuck"))
    assert (tg.current_player(state), state.move_count, state.turns) == (None, 2, 0)
    state = tg.apply(state, P2, Play(tg.hand(state, P2)[0], "A"))  # P3's signal on A is not P2's to take down
    assert (tg.current_player(state), state.move_count, state.turns) == (P2, 3, 1)
    assert state.signals == signs("P3 small_steps A, P1 nearly_stuck")
    state = tg.apply(state, P1, Signal("clear"))
    assert state.signals == signs("P3 small_steps A")
    for player in state.players:  # the whole table sees every signal
        assert tg.observation(state, player).view.signals == state.signals == (Mark(P3, "small_steps", "A"),)
    assert state.move_count == 4


# --- signals tell nothing that nobody could see ----------------------------------------------------------------------


def signalled_game(
    players: int, seed: int, chooser: int, rules_version: int
) -> tuple[State, list[tuple[int, tg.Action]], set[int]]:
    """A whole game of careful random moves where every seat raises every trick signal it can after each move (and
    other signals at random); returns the deal, the log, and the cards a trick signal announced when raised."""
    deal = tg.new_game([P1, P2, P3, 404, 505][:players], seed=seed, rules_version=rules_version)
    rng = random.Random(chooser)
    state, log, announced = deal, [], set()
    while not tg.is_over(state):
        for player in state.players:
            for pile in tg.PILES:
                held = tg._trick_card(state, pile) in tg.hand(state, player)
                kind = "trick" if held else rng.choice(("dont_lay", "small_steps", "nearly_stuck"))
                if kind == "trick":
                    announced.add(tg._trick_card(state, pile))
                signal = Signal(kind, None if kind in tg.PLAYER_SIGNALS else pile)
                if Mark(player, signal.kind, signal.pile) not in state.signals and rng.random() < 0.6:
                    log.append((player, signal))
                    state = tg.apply(state, player, signal)
        player, action = choose(state, rng, leave_rate=0.0, careful=0.8)
        log.append((player, action))
        state = tg.apply(state, player, action)
    return deal, log, announced


def hidden_from(deal: State, log: list[tuple[int, tg.Action]], announced: set[int], seat: int) -> set[int]:
    """The cards ``seat`` never sees in this game: never in its hand, never laid, never announced by a trick signal."""
    seen = set(announced)
    state = deal
    for player, action in log:
        seen.update(state.hands[seat])
        if isinstance(action, Play):
            seen.add(action.card)
        state = tg.apply(state, player, action)
    return set(tg.CARDS) - seen - set(state.hands[seat])


def reshuffled(deal: State, hidden: set[int], rng: random.Random) -> State:
    """``deal`` with the ``hidden`` cards shuffled among the places they occupy (other hands, draw pile)."""
    cards = sorted(hidden)
    moved = dict(zip(cards, rng.sample(cards, len(cards)), strict=True))
    hands = tuple(tuple(sorted(moved.get(card, card) for card in cards)) for cards in deal.hands)
    return replace(deal, hands=hands, draw_pile=tuple(moved.get(card, card) for card in deal.draw_pile))


def signals_over(deal: State, log: list[tuple[int, tg.Action]]) -> list[tuple[Mark, ...]]:
    """The signals on the board after each move, for as long as the game runs (a loss is found from hidden cards)."""
    shown = []
    state = deal
    for player, action in log:
        state = tg.apply(state, player, action)
        if tg.is_over(state):
            break
        shown.append(state.signals)
    return shown


@settings(derandomize=True, deadline=None, max_examples=60)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    chooser=st.integers(0, 2**32),
    seat=st.integers(0, 4),
)
def test_deals_that_differ_only_in_hidden_cards_show_the_same_signals(
    players: int, seed: int, chooser: int, seat: int
) -> None:
    deal, log, announced = signalled_game(players, seed, chooser, tg.INFO.rules_version)
    hidden = hidden_from(deal, log, announced, seat % players)
    other = reshuffled(deal, hidden, random.Random(chooser))
    first, second = signals_over(deal, log), signals_over(other, log)
    event(f"hidden cards: {'none' if not hidden else 'some'}")
    length = min(len(first), len(second))
    assert first[:length] == second[:length]


def test_the_property_catches_the_leak_of_rules_version_1() -> None:
    """The same check on version 1's rule finds a pair of deals that show different signals: the test has teeth."""
    for seed in range(40):
        deal, log, announced = signalled_game(3, seed, seed, rules_version=1)
        for seat in range(3):
            hidden = hidden_from(deal, log, announced, seat)
            first, second = signals_over(deal, log), signals_over(reshuffled(deal, hidden, random.Random(seed)), log)
            length = min(len(first), len(second))
            if first[:length] != second[:length]:
                return
    pytest.fail("no leak found in version 1")
