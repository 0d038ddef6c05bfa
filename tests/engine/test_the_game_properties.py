"""Property tests of The Game: seeded games played with random legal moves, checked at every step."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from engine import the_game as tg
from engine.errors import CorruptState
from engine.game import Move, Setup, replay
from engine.the_game import EndTurn, Leave, Play, Signal, State
from tests import players
from tests.engine.test_game_contract import saved

PLAYOUTS = settings(derandomize=True, deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(derandomize=True, deadline=None, max_examples=300)

UP = (True, True, False, False)


def fits(up: bool, top: int, card: int) -> bool:
    """The laying rule, written out again independently of the engine."""
    return card > top or card == top - 10 if up else card < top or card == top + 10


def brute_force(hand: Sequence[int], tops: Sequence[int], needed: int) -> bool:
    """Try every order of every card on every pile: obviously right, and slow."""
    if needed <= 0:
        return True
    for card in hand:
        for pile in range(4):
            if fits(UP[pile], tops[pile], card):
                rest = [other for other in hand if other != card]
                after = [card if i == pile else top for i, top in enumerate(tops)]
                if brute_force(rest, after, needed - 1):
                    return True
    return False


def tops_of(state: State) -> list[int]:
    return [tg.top(state, pile) for pile in tg.PILES]


def check_invariants(state: State) -> None:
    cards = [*(card for cards in state.hands for card in cards), *state.draw_pile, *sum(state.piles, ())]
    assert sorted(cards) == list(range(2, 100))
    for up, row, pile in zip(UP, (1, 1, 100, 100), state.piles, strict=True):
        below = (row, *pile)
        assert all(fits(up, before, card) for before, card in zip(below, pile, strict=False))
    size = tg.public_view(state).hand_size
    assert all(list(cards) == sorted(cards) and len(cards) <= size for cards in state.hands)
    assert all(not cards for cards, gone in zip(state.hands, state.left, strict=True) if gone)
    assert tg.public_view(state).seats == tuple(
        tg.SeatView(player, len(cards), gone)
        for player, cards, gone in zip(state.players, state.hands, state.left, strict=True)
    )
    assert tg.score(state) == sum(map(len, state.hands)) + len(state.draw_pile)
    if state.status == "won":
        assert tg.score(state) == 0


def check_end_detection(before: State, after: State, player: int, action: tg.Action) -> None:
    """The engine's end checks agree with the brute force search and with the rules' wording."""
    mover_left = isinstance(action, Leave) and before.turn == before.players.index(player)
    if (isinstance(action, EndTurn) or mover_left) and after.turn is not None:
        cards = after.hands[after.turn]
        possible = brute_force(cards, tops_of(after), after.minimum)
        assert (after.status == "lost") == (not possible)
        if after.status == "lost":
            event("lost at the start of a turn")
        assert after.minimum == min(len(cards), (3 if after.expert else 2) if after.draw_pile else 1)
    if isinstance(action, Play) and after.status != "won":
        stuck = not brute_force(after.hands[after.turn], tops_of(after), 1)
        assert (after.status == "lost") == (after.laid < after.minimum and stuck)
        if after.status == "lost":
            event("lost part-way through a turn")


def turns_in(log: Sequence[Move[tg.Action]]) -> int:
    """Turns in which a card was laid, counted from the log alone: a card starts a turn unless the same player laid
    the previous card with no EndTurn since (the turn passes only on EndTurn or when the mover leaves)."""
    turns = 0
    last_player: int | None = None
    for move in log:
        if isinstance(move.action, EndTurn):
            last_player = None
        elif isinstance(move.action, Play):
            turns += move.player != last_player
            last_player = move.player
    return turns


def choose(state: State, rng: random.Random, leave_rate: float, careful: float) -> tuple[int, tg.Action]:
    here = [player for player, gone in zip(state.players, state.left, strict=True) if not gone]
    if rng.random() < leave_rate:
        return rng.choice(here), Leave()
    player = tg.current_player(state)
    if player is None:
        player = rng.choice([p for p in here if tg.hand(state, p)])
    actions = [action for action in tg.legal_actions(state, player) if not isinstance(action, Leave)]
    if rng.random() >= careful:
        return player, rng.choice(actions)
    tops = dict(zip(tg.PILES, tops_of(state), strict=True))

    def jump(action: tg.Action) -> int:  # a careful player makes the smallest jump, so games last
        if not isinstance(action, Play):
            return 4
        return players.jump(action.pile, tops[action.pile], action.card)

    return player, min(actions, key=jump)


game_setups = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "players": st.integers(1, 5),
        "expert": st.booleans(),
        "smaller_hands": st.booleans(),
        "chooser": st.integers(0, 2**32),
        "leave_rate": st.sampled_from([0.0, 0.01, 0.05]),
        "careful": st.sampled_from([0.0, 0.5, 0.9, 1.0]),
    }
)


def setup_of(setup: dict[str, int | float | bool]) -> Setup:
    variants = frozenset(name for name in ("expert", "smaller_hands") if setup[name])
    players = tuple(1000 + 7 * i for i in range(int(setup["players"])))
    return Setup(players, seed=int(setup["seed"]), variants=variants, rules_version=tg.INFO.rules_version)


def play_out(setup: dict[str, int | float | bool], check: bool) -> tuple[list[State], list[Move[tg.Action]]]:
    """Every state of one game, and its log: ``states[i]`` is the state after the first ``i`` moves."""
    state = tg.GAME.new_game(setup_of(setup))
    rng = random.Random(int(setup["chooser"]))
    states, log = [state], []
    for _ in range(250):  # at most 98 plays, one EndTurn after each turn's plays, and 5 leaves
        if tg.is_over(state):
            break
        player, action = choose(state, rng, float(setup["leave_rate"]), float(setup["careful"]))
        after = tg.apply(state, player, action)
        log.append(Move(player, action))
        assert after.move_count == state.move_count + 1 == len(log)
        if check:
            check_invariants(after)
            check_end_detection(state, after, player, action)
            assert after.turns == turns_in(log)
        state = after
        states.append(state)
    assert tg.is_over(state), "the game did not terminate"
    return states, log


def won_game(seed: int, players: int) -> dict[str, int | float | bool]:
    """A careful game that is won: it runs out the draw pile, then lays every card."""
    return dict(
        seed=seed, players=players, expert=False, smaller_hands=False, chooser=seed, leave_rate=0.0, careful=1.0
    )


WON = [won_game(24, 5), won_game(45, 3), won_game(73, 1)]


@pytest.mark.parametrize("setup", WON)
def test_the_examples_of_long_games_are_won(setup: dict[str, int | float | bool]) -> None:
    states, log = play_out(setup, check=False)
    assert (states[-1].status, len(states[-1].draw_pile)) == ("won", 0)
    assert len(log) > 98


@PLAYOUTS
@given(game_setups)
@example(WON[0])
@example(WON[1])
@example(WON[2])
def test_random_games_keep_every_rule(setup: dict[str, int | float | bool]) -> None:
    states, log = play_out(setup, check=True)
    final = states[-1]
    event(f"game {final.status}")  # pytest --hypothesis-show-statistics shows what the examples covered
    event("the draw pile ran out" if not final.draw_pile else "the draw pile never ran out")
    event(f"{final.move_count // 50 * 50}+ moves")
    assert final.status in ("won", "lost", "abandoned")
    assert (final.status == "abandoned") == all(final.left)
    assert tg.summary(final).turns == turns_in(log)
    loaded = saved(tg.GAME, log)
    assert loaded == log
    for moves in sorted({0, 1, len(log) // 3, len(log) // 2, len(log) - 1, len(log)}):
        assert replay(tg.GAME, setup_of(setup), loaded[:moves]) == states[moves]


@QUICK
@given(
    hand=st.lists(st.integers(2, 99), max_size=8, unique=True),
    tops=st.tuples(st.integers(1, 99), st.integers(1, 99), st.integers(2, 100), st.integers(2, 100)),
    needed=st.integers(0, 4),
)
def test_can_meet_minimum_agrees_with_brute_force(hand: list[int], tops: tuple[int, ...], needed: int) -> None:
    hand = [card for card in hand if card not in tops]
    assert tg.can_meet_minimum(hand, tops, needed) == brute_force(hand, tops, needed)


@QUICK
@given(
    # hands and tops close together, where the backwards trick decides most often
    base=st.integers(15, 85),
    offsets=st.lists(st.integers(-14, 14), max_size=8, unique=True),
    top_offsets=st.tuples(*(st.integers(-12, 12) for _ in range(4))),
    needed=st.integers(1, 3),
)
def test_can_meet_minimum_agrees_with_brute_force_near_the_tops(
    base: int, offsets: list[int], top_offsets: tuple[int, ...], needed: int
) -> None:
    tops = [base + offset for offset in top_offsets]
    hand = [base + offset for offset in offsets if base + offset not in tops]
    assert tg.can_meet_minimum(hand, tops, needed) == brute_force(hand, tops, needed)


def _trick_without_the_card(states: list[State], log: list[Move[tg.Action]], rng: random.Random) -> None:
    at = rng.randrange(len(log))
    state, player = states[at], log[at].player  # who moves next, so is seated and the game runs
    held = tg.hand(state, player)
    piles = [pile for pile in tg.PILES if tg.top(state, pile) + (-10 if pile in tg.ASCENDING else 10) not in held]
    log.insert(at, Move(player, Signal("trick", rng.choice(piles))) if piles else Move(-1, Signal("trick", "A")))


def _play_a_card_not_held(states: list[State], log: list[Move[tg.Action]], rng: random.Random) -> None:
    plays = [i for i, move in enumerate(log) if isinstance(move.action, Play)]
    at = rng.choice(plays) if plays else 0  # a log of leaves only: a play before them
    player = log[at].player
    card = rng.choice(sorted(set(tg.CARDS) - set(tg.hand(states[at], player))))
    log[at : at + bool(plays)] = [Move(player, Play(card, rng.choice(tg.PILES)))]  # replace the play, or insert


def _end_before_the_first_card(states: list[State], log: list[Move[tg.Action]], rng: random.Random) -> None:
    log.insert(0, Move(rng.choice(states[0].players), EndTurn()))


def _a_stranger_moves(states: list[State], log: list[Move[tg.Action]], rng: random.Random) -> None:
    action = rng.choice([Leave(), EndTurn(), Signal("nearly_stuck"), Play(50, "A")])
    log.insert(rng.randrange(len(log) + 1), Move(rng.choice([-1, 0, 1001, 2**40]), action))


def _a_move_after_the_end(states: list[State], log: list[Move[tg.Action]], rng: random.Random) -> None:
    player = rng.choice(states[-1].players)
    log.append(Move(player, rng.choice([Leave(), EndTurn(), Signal("clear"), Play(50, "B")])))


def _a_leaver_moves_again(states: list[State], log: list[Move[tg.Action]], rng: random.Random) -> None:
    leaves = [i for i, move in enumerate(log) if isinstance(move.action, Leave)]
    at = rng.choice(leaves) if leaves else len(log) - 1
    log.insert(at + 1, Move(log[at].player, Leave() if leaves else EndTurn()))


# Each breaks the log for sure: a move by nobody, a card not held, a move after the end, or out of turn.
TAMPERING = [
    _trick_without_the_card,
    _play_a_card_not_held,
    _end_before_the_first_card,
    _a_stranger_moves,
    _a_move_after_the_end,
    _a_leaver_moves_again,
]


@settings(derandomize=True, deadline=None, max_examples=80)
@given(setup=game_setups, how=st.sampled_from(TAMPERING), rng_seed=st.integers(0, 2**16))
def test_replay_refuses_a_log_that_breaks_the_rules(
    setup: dict[str, int | float | bool],
    how: Callable[[list[State], list[Move[tg.Action]], random.Random], None],
    rng_seed: int,
) -> None:
    states, log = play_out(setup, check=False)
    how(states, log, random.Random(rng_seed))
    with pytest.raises(CorruptState, match=r"^Move \d+ of the saved game breaks the rules: "):
        replay(tg.GAME, setup_of(setup), saved(tg.GAME, log))


@settings(derandomize=True, deadline=None, max_examples=20)
@given(setup=game_setups, rules_version=st.integers(-3, 5), variant=st.sampled_from(["open_chips", "", "Expert"]))
def test_replay_refuses_a_setup_this_bot_cannot_play(
    setup: dict[str, int | float | bool], rules_version: int, variant: str
) -> None:
    states, log = play_out(setup, check=False)
    right = setup_of(setup)
    assert replay(tg.GAME, right, log) == states[-1]
    for wrong in (
        replace(right, rules_version=rules_version + 2 * (rules_version >= 1)),  # never 1 or 2
        replace(right, variants=right.variants | {variant}),
    ):
        with pytest.raises(CorruptState, match=r"^This game (was started under rules version|uses a variant)"):
            replay(tg.GAME, wrong, log)
