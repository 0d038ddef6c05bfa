"""Every rule and ruling of No Thanks!, one table of cases each, on hand-built states."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine import no_thanks
from engine.errors import CorruptState, GameError, GameOver, IllegalAction, NotAPlayer, NotYourTurn
from engine.game import Move, Setup, decode_moves, replay
from engine.no_thanks import Leave, NoThanks, State, Take
from table.registry import GAMES
from tests.engine.test_game_contract import rows_of, saved

PLAYERS = (101, 102, 103, 104, 105, 106, 107)
STRANGER = 999


def table(
    hands: tuple[tuple[int, ...], ...] = ((), (), ()),
    *,
    chips: tuple[int, ...] | None = None,
    face_up: int | None = 20,
    draw_pile: tuple[int, ...] = (21, 22),
    chips_on_card: int = 0,
    turn: int = 0,
    left: tuple[bool, ...] | None = None,
    status: str = "playing",
    open_chips: bool = False,
) -> State:
    """A hand-built position: one seat per hand, players 101, 102, ...; the nine removed cards are the lowest unused."""
    count = len(hands)
    used = {*draw_pile, *(card for cards in hands for card in cards), face_up}
    return State(
        players=PLAYERS[:count],
        seed=0,
        open_chips=open_chips,
        removed=tuple(card for card in no_thanks.CARDS if card not in used)[:9],
        draw_pile=draw_pile,
        face_up=face_up,
        chips_on_card=chips_on_card,
        hands=hands,
        chips=chips if chips is not None else (no_thanks.starting_chips(count),) * count,
        left=left if left is not None else (False,) * count,
        departed_cards=(),
        departed_chips=0,
        turn=turn,
        status=status,
        move_count=0,
    )


def finished(hands: tuple[tuple[int, ...], ...], chips: tuple[int, ...], left: tuple[bool, ...] | None = None) -> State:
    return table(hands, chips=chips, face_up=None, draw_pile=(), status="finished", left=left)


# --- setup ----------------------------------------------------------------------------------------------------------


def test_info() -> None:
    assert no_thanks.INFO.kind == "no_thanks"
    assert no_thanks.INFO.title == "No Thanks!"
    assert (no_thanks.INFO.min_players, no_thanks.INFO.max_players) == (3, 7)
    assert [variant.name for variant in no_thanks.INFO.variants] == ["open_chips"]
    assert no_thanks.INFO.rules_version == 1
    assert no_thanks.INFO.capabilities == frozenset()
    assert GAMES["no_thanks"] is no_thanks.GAME
    assert no_thanks.GAME.info is no_thanks.INFO
    assert no_thanks.GAME.leave == Leave()


@pytest.mark.parametrize(("count", "chips"), [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)])
def test_setup_deals_chips_by_player_count_and_24_cards(count: int, chips: int) -> None:
    state = no_thanks.new_game(PLAYERS[:count], seed=42)

    assert state.chips == (chips,) * count
    assert all(no_thanks.chips(state, player) == chips for player in PLAYERS[:count])
    assert len(state.removed) == 9
    assert no_thanks.face_up_card(state) is not None
    assert no_thanks.cards_left(state) == 23  # 24 cards, one of them face up
    assert no_thanks.chips_on_card(state) == 0
    assert state.face_up is not None
    assert sorted((*state.removed, *state.draw_pile, state.face_up)) == list(range(3, 36))
    assert all(no_thanks.hand(state, player) == () for player in PLAYERS[:count])
    assert state.status == "playing"
    assert state.move_count == 0


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, -5])
def test_setup_shuffles_and_draws_the_starting_player_from_the_seed(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(range(3, 36))
    rng.shuffle(deck)

    state = no_thanks.new_game(PLAYERS[:5], seed=seed)

    assert state.removed == tuple(sorted(deck[:9]))
    assert (state.face_up, *state.draw_pile) == tuple(deck[9:])
    assert no_thanks.current_player(state) == PLAYERS[rng.randrange(5)]
    assert no_thanks.new_game(PLAYERS[:5], seed=seed) == state


def test_every_seat_can_start() -> None:
    starters = {no_thanks.current_player(no_thanks.new_game(PLAYERS[:4], seed=seed)) for seed in range(100)}
    assert starters == set(PLAYERS[:4])


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ((1, 2), "No Thanks! is for 3 to 7 players, not 2."),
        ((), "No Thanks! is for 3 to 7 players, not 0."),
        (tuple(range(8)), "No Thanks! is for 3 to 7 players, not 8."),
        ((1, 2, 1), "Each player can take only one seat."),
    ],
)
def test_new_game_refuses_bad_tables(players: tuple[int, ...], message: str) -> None:
    with pytest.raises(IllegalAction) as error:
        no_thanks.new_game(players, seed=1)
    assert str(error.value) == message


# --- a turn ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "turn", "left", "next_turn"),
    [
        (3, 0, (), 1),
        (3, 2, (), 0),  # clockwise wraps round the table
        (4, 0, (1,), 2),  # players who left are skipped
        (5, 3, (4, 0), 1),
        (7, 6, (), 0),
    ],
)
def test_no_thanks_pays_one_chip_and_passes_the_turn(
    seats: int, turn: int, left: tuple[int, ...], next_turn: int
) -> None:
    state = table(
        ((),) * seats,
        chips=(5,) * seats,
        chips_on_card=2,
        turn=turn,
        left=tuple(seat in left for seat in range(seats)),
    )
    player = PLAYERS[turn]

    after = no_thanks.apply(state, player, NoThanks())

    assert no_thanks.chips(after, player) == 4
    assert no_thanks.chips_on_card(after) == 3
    assert no_thanks.face_up_card(after) == 20
    assert no_thanks.current_player(after) == PLAYERS[next_turn]
    assert after.move_count == 1
    assert state.chips_on_card == 2  # apply never changes its input


def test_a_player_without_chips_must_take() -> None:
    state = table(chips=(0, 11, 11))

    assert no_thanks.legal_actions(state, 101) == [Take(), Leave()]
    with pytest.raises(IllegalAction) as error:
        no_thanks.apply(state, 101, NoThanks())
    assert str(error.value) == "You have no chips left, so you must take the card."


@pytest.mark.parametrize(("hand", "on_card", "after_hand"), [((), 0, (20,)), ((19, 21), 7, (19, 20, 21))])
def test_take_gives_the_card_and_its_chips_and_the_taker_moves_again(
    hand: tuple[int, ...], on_card: int, after_hand: tuple[int, ...]
) -> None:
    state = table(((), hand, ()), chips=(3, 4, 5), chips_on_card=on_card, draw_pile=(30, 8), turn=1)

    after = no_thanks.apply(state, 102, Take())

    assert no_thanks.hand(after, 102) == after_hand
    assert no_thanks.chips(after, 102) == 4 + on_card
    assert no_thanks.chips_on_card(after) == 0
    assert no_thanks.face_up_card(after) == 30  # the top of the draw pile is turned up
    assert no_thanks.cards_left(after) == 1
    assert no_thanks.current_player(after) == 102
    assert after.status == "playing"


def test_taking_the_last_card_ends_the_game() -> None:
    state = table(((3,), (4,), (5,)), chips=(1, 2, 3), chips_on_card=2, face_up=35, draw_pile=(), turn=2)

    after = no_thanks.apply(state, 103, Take())

    assert no_thanks.is_over(after)
    assert after.status == "finished"
    assert no_thanks.hand(after, 103) == (5, 35)
    assert no_thanks.chips(after, 103) == 5
    assert no_thanks.face_up_card(after) is None
    assert no_thanks.chips_on_card(after) == 0
    assert no_thanks.current_player(after) is None
    assert all(no_thanks.legal_actions(after, player) == [] for player in PLAYERS[:3])


@pytest.mark.parametrize(
    ("state", "player", "expected"),
    [
        (table(), 101, [Take(), NoThanks(), Leave()]),
        (table(chips=(0, 11, 11)), 101, [Take(), Leave()]),
        (table(), 102, [Leave()]),  # leaving needs no turn
        (table(), STRANGER, []),
        (table(((),) * 4, left=(False, True, False, False)), 102, []),
        (finished(((3,), (4,), (5,)), (1, 1, 1)), 101, []),
    ],
)
def test_legal_actions(state: State, player: int, expected: list[no_thanks.Action]) -> None:
    assert no_thanks.legal_actions(state, player) == expected


# --- refusals, with the exact sentences players see -----------------------------------------------------------------

ABANDONED = table(left=(False, False, True), status="abandoned")


@pytest.mark.parametrize(
    ("state", "player", "action", "error", "message"),
    [
        (table(), 102, Take(), NotYourTurn, "It's not your turn."),
        (table(), 103, NoThanks(), NotYourTurn, "It's not your turn."),
        (table(), STRANGER, Take(), NotAPlayer, "You're not playing in this game."),
        (table(), STRANGER, Leave(), NotAPlayer, "You're not playing in this game."),
        (
            table(((),) * 4, left=(False, True, False, False)),
            102,
            Leave(),
            NotAPlayer,
            "You left this game, so you can't act in it any more.",
        ),
        (table(chips=(0, 1, 1)), 101, NoThanks(), IllegalAction, "You have no chips left, so you must take the card."),
        (table(), 101, "take", IllegalAction, "That is not a No Thanks! move."),
        (
            finished(((3,), (4,), (5,)), (1, 1, 1)),
            101,
            Take(),
            GameOver,
            "This game is over: the last card has been taken.",
        ),
        (
            finished(((3,), (4,), (5,)), (1, 1, 1)),
            101,
            Leave(),
            GameOver,
            "This game is over: the last card has been taken.",
        ),
        (ABANDONED, 101, Take(), GameOver, "This game was abandoned."),
    ],
)
def test_refusals(state: State, player: int, action: Any, error: type[GameError], message: str) -> None:
    with pytest.raises(error) as raised:
        no_thanks.apply(state, player, action)
    assert str(raised.value) == message


# --- leaving (a ruling) ---------------------------------------------------------------------------------------------


def test_leaving_a_table_of_three_abandons_the_game() -> None:
    state = table(((5, 6), (), ()), chips=(4, 11, 11), chips_on_card=8, turn=1)

    after = no_thanks.apply(state, 101, Leave())

    assert after.status == "abandoned"
    assert no_thanks.is_over(after)
    assert no_thanks.current_player(after) is None
    assert no_thanks.legal_actions(after, 102) == []
    with pytest.raises(GameError, match=r"^This game was abandoned, so it has no score\.$"):
        no_thanks.scores(after)
    with pytest.raises(GameError, match=r"^This game was abandoned, so it has no score\.$"):
        no_thanks.winner(after)
    assert no_thanks.removed_cards(after) == state.removed  # the game has ended, so they may be revealed


@pytest.mark.parametrize(
    ("turn", "leaver", "next_player"),
    [
        (1, 103, 102),  # someone else leaves: the turn stays
        (2, 103, 104),  # the player to move leaves: the turn passes on
        (3, 104, 101),
    ],
)
def test_leaving_a_table_of_four_plays_on_without_them(turn: int, leaver: int, next_player: int) -> None:
    state = table(((), (), (7, 8, 30), ()), chips=(11, 11, 9, 11), chips_on_card=2, turn=turn)

    after = no_thanks.apply(state, leaver, Leave())

    assert after.status == "playing"
    assert no_thanks.current_player(after) == next_player
    assert no_thanks.hand(after, leaver) == ()
    assert no_thanks.chips(after, leaver) == 0
    assert no_thanks.chips_on_card(after) == 2  # the chips on the card stay in play
    leaver_seat = PLAYERS.index(leaver)
    assert after.departed_cards == state.hands[leaver_seat]
    assert after.departed_chips == state.chips[leaver_seat]
    view = no_thanks.public_view(after)
    assert [seat.player for seat in view.players] == [p for p in PLAYERS[:4] if p != leaver]
    assert view.left == (leaver,)


def test_turn_order_skips_players_who_left() -> None:
    state = table(((),) * 5, turn=0)
    for player in (102, 103):
        state = no_thanks.apply(state, player, Leave())

    state = no_thanks.apply(state, 101, NoThanks())

    assert no_thanks.current_player(state) == 104


def test_the_game_ends_for_the_remaining_players_after_a_leave() -> None:
    state = table(((3,), (4,), (5,), (6,)), chips=(1, 2, 3, 4), face_up=35, draw_pile=(), turn=0)
    state = no_thanks.apply(state, 104, Leave())

    state = no_thanks.apply(state, 101, Take())

    assert state.status == "finished"
    assert [line.player for line in no_thanks.scores(state)] == [101, 102, 103]


# --- scoring --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected_runs", "points"),
    [
        ((), [], 0),
        ((17,), [(17,)], 17),
        ((13, 3, 12, 5, 4, 10), [(3, 4, 5), (10,), (12, 13)], 25),
        ((10, 12), [(10,), (12,)], 22),  # a gap makes two cards
        ((10, 11, 12), [(10, 11, 12)], 10),
        (tuple(range(3, 36)), [tuple(range(3, 36))], 3),
        ((35, 33, 31), [(31,), (33,), (35,)], 99),
    ],
)
def test_runs_and_card_points(cards: tuple[int, ...], expected_runs: list[tuple[int, ...]], points: int) -> None:
    assert no_thanks.runs(cards) == expected_runs
    assert no_thanks.card_points(cards) == points


@pytest.mark.parametrize(
    ("cards", "chips", "total"),
    [
        ((3, 4, 5, 10, 12, 13), 4, 21),  # 3 + 10 + 12 - 4
        ((), 5, -5),
        ((35,), 0, 35),
        ((20, 21, 22, 23), 11, 9),
    ],
)
def test_score_is_card_points_minus_chips(cards: tuple[int, ...], chips: int, total: int) -> None:
    state = finished((cards, (), ()), (chips, 0, 0))

    line = no_thanks.scores(state)[0]

    assert line == no_thanks.ScoreLine(101, tuple(no_thanks.runs(cards)), no_thanks.card_points(cards), chips, total)


@pytest.mark.parametrize(
    ("hands", "chips", "left", "expected"),
    [
        (((10,), (20,), (30,)), (0, 0, 0), None, (101, False)),  # lowest total wins
        (((10,), (20,), (30,)), (0, 15, 0), None, (102, False)),  # chips count
        (((10,), (12,), (30,)), (0, 2, 0), None, (102, True)),  # tie: the highest card (12) wins
        (((10, 25), (12, 34), (30,)), (15, 26, 0), None, (102, True)),  # 20 == 20: 34 beats 25
        (((3,), (), (30,)), (8, 5, 0), None, (101, True)),  # tie at -5: holding a card beats holding none
        (((), (), (3, 4)), (2, 2, 0), None, (101, True)),  # only empty hands tied: the earliest seat
        (((), (), (), (3,)), (2, 2, 9, 0), (False, False, True, False), (101, True)),
        (((30,), (20,), (25,), (10,)), (0, 0, 0, 0), (False, False, False, True), (102, False)),  # leavers don't win
    ],
)
def test_winner_and_tie_break(
    hands: tuple[tuple[int, ...], ...],
    chips: tuple[int, ...],
    left: tuple[bool, ...] | None,
    expected: tuple[int, bool],
) -> None:
    assert no_thanks.winner(finished(hands, chips, left)) == expected


def test_scores_list_the_remaining_players_in_seating_order() -> None:
    state = finished(((3,), (4,), (5,), (6,)), (1, 0, 2, 0), left=(False, True, False, False))
    assert [line.player for line in no_thanks.scores(state)] == [101, 103, 104]


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (no_thanks.scores, "The scores stay secret until the last card is taken."),
        (no_thanks.winner, "The scores stay secret until the last card is taken."),
        (no_thanks.removed_cards, "The removed cards stay secret until the game ends."),
    ],
)
def test_end_of_game_information_is_refused_while_playing(read: Callable[[State], Any], message: str) -> None:
    with pytest.raises(GameError) as error:
        read(table())
    assert str(error.value) == message


# --- what each reader sees ------------------------------------------------------------------------------------------


def test_public_view_hides_chips_unless_they_are_open() -> None:
    hands = ((3, 4, 9), (), (20,))
    secret = no_thanks.public_view(table(hands, face_up=25, chips=(1, 2, 3), chips_on_card=4, turn=2), viewer=101)

    assert secret == no_thanks.PublicView(
        face_up_card=25,
        chips_on_card=4,
        cards_left=2,
        players=(
            no_thanks.PlayerView(101, (3, 4, 9), ((3, 4), (9,)), 12, None),
            no_thanks.PlayerView(102, (), (), 0, None),
            no_thanks.PlayerView(103, (20,), ((20,),), 20, None),
        ),
        left=(),
        turn=103,
        open_chips=False,
        status="playing",
    )
    opened = no_thanks.public_view(table(hands, face_up=25, chips=(1, 2, 3), open_chips=True))
    assert [seat.chips for seat in opened.players] == [1, 2, 3]


def test_public_view_is_the_same_for_every_viewer() -> None:
    state = table(((5,), (6,), (7,)), chips=(1, 2, 3))
    views = {no_thanks.public_view(state, viewer) for viewer in (None, 101, 102, STRANGER)}
    assert len(views) == 1


@pytest.mark.parametrize("moves", [0, 10, 40, 1000])
def test_public_view_never_shows_a_removed_card(moves: int) -> None:
    state = no_thanks.new_game(PLAYERS[:3], seed=3)
    for _ in range(moves):
        if no_thanks.is_over(state):
            break
        player = no_thanks.current_player(state)
        assert player is not None
        state = no_thanks.apply(state, player, no_thanks.legal_actions(state, player)[state.move_count % 2])

    view = no_thanks.public_view(state)

    shown = {view.face_up_card, *(card for seat in view.players for card in seat.cards)}
    assert not shown & set(state.removed)
    assert "removed" not in no_thanks.PublicView.__dataclass_fields__


def test_private_view_hand_and_chips() -> None:
    state = table(((8, 9), (), ()), chips=(2, 11, 11))

    assert no_thanks.private_view(state, 101) == no_thanks.PrivateView(cards=(8, 9), chips=2)
    assert no_thanks.hand(state, 101) == (8, 9)
    assert no_thanks.chips(state, 101) == 2
    for read in (no_thanks.private_view, no_thanks.hand, no_thanks.chips):
        with pytest.raises(NotAPlayer, match=r"^You're not playing in this game\.$"):
            read(state, STRANGER)


def test_the_removed_cards_are_revealed_after_the_end() -> None:
    state = finished(((3,), (4,), (5,)), (1, 1, 1))
    assert no_thanks.removed_cards(state) == state.removed
    assert len(no_thanks.removed_cards(state)) == 9


# --- saving: the move log -------------------------------------------------------------------------------------------

SETUP = Setup(PLAYERS[:4], seed=11)
Log = list[Move[no_thanks.Action]]


def moved(state: State, log: Log, player: int | None, action: no_thanks.Action) -> State:
    assert player is not None
    log.append(Move(player, action))
    return no_thanks.apply(state, player, action)


def played(setup: Setup = SETUP) -> tuple[Log, State]:
    """A 4-player game some moves in, and its log: takes, passes and one leave, so every field holds something."""
    state = no_thanks.GAME.new_game(setup)
    log: Log = []
    before: list[no_thanks.Action] = [NoThanks(), NoThanks(), Take(), NoThanks(), Take(), Take(), NoThanks(), Take()]
    after: list[no_thanks.Action] = [NoThanks(), Take(), NoThanks()]
    for action in before:
        state = moved(state, log, no_thanks.current_player(state), action)
    leaver = next(p for p in setup.players if no_thanks.hand(state, p) and p != no_thanks.current_player(state))
    state = moved(state, log, leaver, Leave())
    for action in after:
        state = moved(state, log, no_thanks.current_player(state), action)
    return log, state


def to_the_end(setup: Setup, action: no_thanks.Action) -> tuple[Log, State]:
    """A game in which the mover always does ``action`` while they can, else takes."""
    state = no_thanks.GAME.new_game(setup)
    log: Log = []
    while not no_thanks.is_over(state):
        player = no_thanks.current_player(state)
        assert player is not None
        state = moved(state, log, player, action if action in no_thanks.legal_actions(state, player) else Take())
    return log, state


def load(log: Log, setup: Setup = SETUP) -> State:
    """The state the log leads to, once saved and loaded again."""
    return replay(no_thanks.GAME, setup, saved(no_thanks.GAME, log))


@pytest.mark.parametrize(
    "setup", [SETUP, replace(SETUP, variants=frozenset({"open_chips"})), replace(SETUP, players=PLAYERS, seed=-3)]
)
def test_the_log_rebuilds_the_game_through_json(setup: Setup) -> None:
    log, state = played(setup)
    assert state.move_count == len(log) == 12
    assert state.open_chips == ("open_chips" in setup.variants)
    assert load(log, setup) == state
    for moves in (0, 5, 11):
        assert load(log[:moves], setup).move_count == moves


@pytest.mark.parametrize("action", [Take(), NoThanks()])
def test_a_whole_game_rebuilds_from_its_log(action: no_thanks.Action) -> None:
    log, state = to_the_end(SETUP, action)
    assert state.status == "finished"
    assert load(log) == state


def test_the_stored_log_layout() -> None:
    log, _ = played()
    rows = rows_of(no_thanks.GAME, log)
    assert rows[:3] == [[101, ["no_thanks"]], [102, ["no_thanks"]], [103, ["take"]]]
    assert [raw for _, raw in rows].count(["leave"]) == 1


@pytest.mark.parametrize(("action", "raw"), [(Take(), ["take"]), (NoThanks(), ["no_thanks"]), (Leave(), ["leave"])])
def test_actions_encode_and_decode(action: no_thanks.Action, raw: list[str]) -> None:
    assert no_thanks.encode_action(action) == raw
    assert no_thanks.decode_action(json.loads(json.dumps(raw))) == action


@pytest.mark.parametrize(
    "raw",
    [["pass"], ["take", 1], ["TAKE"], ["no thanks"], [], [["take"]], [1], [None], "take", None, 0, {"take": 1}],
)
def test_decode_action_refuses_what_encode_action_never_writes(raw: Any) -> None:
    with pytest.raises(CorruptState) as error:
        no_thanks.decode_action(raw)
    assert str(error.value) == f"The saved game is damaged (unknown move {raw!r})."


@pytest.mark.parametrize("player", [True, False, "101", None, 101.5, [101]])
def test_decode_moves_refuses_a_row_without_a_player(player: Any) -> None:
    with pytest.raises(CorruptState) as error:
        decode_moves(no_thanks.GAME, [(101, ["take"]), (player, ["take"])])
    assert str(error.value) == "The saved game is damaged (a move names no player)."


def broken(number: int, why: str) -> str:
    return f"Move {number} of the saved game breaks the rules: {why}"


LOG, _ = played()  # 101 and 102 pass, 103 takes, ...
TAKEN, _ = to_the_end(SETUP, Take())
BROKE, _ = to_the_end(replace(SETUP, players=PLAYERS[:3]), NoThanks())  # everybody passes while they can
SPENT = next(i for i, move in enumerate(BROKE) if isinstance(move.action, Take))  # the first pass nobody can pay
THREE = replace(SETUP, players=PLAYERS[:3])


@pytest.mark.parametrize(
    ("setup", "log", "message"),
    [
        (SETUP, [Move(STRANGER, Take()), *LOG], broken(1, "You're not playing in this game.")),
        (SETUP, [*LOG[:4], Move(STRANGER, Leave()), *LOG[4:]], broken(5, "You're not playing in this game.")),
        (SETUP, [Move(102, NoThanks()), *LOG[1:]], broken(1, "It's not your turn.")),
        (SETUP, [*LOG[:2], Move(101, Take()), *LOG[3:]], broken(3, "It's not your turn.")),
        (
            THREE,
            [*BROKE[:SPENT], Move(BROKE[SPENT].player, NoThanks())],
            broken(SPENT + 1, "You have no chips left, so you must take the card."),
        ),
        (
            SETUP,
            [*LOG, Move(next(m.player for m in LOG if m.action == Leave()), Leave())],
            broken(13, "You left this game, so you can't act in it any more."),
        ),
        (SETUP, [*TAKEN, Move(101, Leave())], broken(25, "This game is over: the last card has been taken.")),
        (THREE, [Move(103, Leave()), Move(101, Take())], broken(2, "This game was abandoned.")),
        # the log of one game does not fit another setup
        (replace(SETUP, seed=13), LOG, broken(1, "It's not your turn.")),  # 103 starts that one
        (replace(SETUP, players=PLAYERS[1:5]), LOG, broken(1, "You're not playing in this game.")),
        (
            replace(SETUP, rules_version=0),
            LOG,
            "This game was started under rules version 0 of No Thanks!, and this bot plays version 1.",
        ),
        (
            replace(SETUP, variants=frozenset({"expert"})),
            LOG,
            "This game uses a variant this bot doesn't know (expert).",
        ),
        (
            replace(SETUP, players=PLAYERS[:2]),
            [],
            "The saved game cannot be set up: No Thanks! is for 3 to 7 players, not 2.",
        ),
        (
            replace(SETUP, players=(101, 102, 101)),
            [],
            "The saved game cannot be set up: Each player can take only one seat.",
        ),
    ],
)
def test_replay_refuses_a_log_that_breaks_the_rules(setup: Setup, log: Log, message: str) -> None:
    with pytest.raises(CorruptState) as error:
        load(log, setup)
    assert str(error.value) == message
