"""Random seeded games of No Thanks!, checked at every step: conservation, legality, the log, replays, scoring."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import no_thanks
from engine.errors import CorruptState, GameError
from engine.game import Move, Setup, replay
from engine.no_thanks import Leave, NoThanks, State, Take
from tests.engine.test_game_contract import saved

SETTINGS = settings(derandomize=True, deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])

# Between two takes every "No thanks!" moves one chip off a player (55 at most in play), and each player leaves once.
MOST_MOVES = 24 * (55 + 1) + 7
STRANGER = -1


@dataclass(frozen=True)
class Plan:
    players: tuple[int, ...]
    seed: int
    open_chips: bool
    policy: int  # seeds the random choice of moves
    take_chance: float
    leave_chance: float


plans = st.builds(
    Plan,
    players=st.lists(st.integers(0, 2**63), min_size=3, max_size=7, unique=True).map(tuple),
    seed=st.integers(-(2**64), 2**64),
    open_chips=st.booleans(),
    policy=st.integers(0, 2**32),
    take_chance=st.floats(0.2, 0.9),
    leave_chance=st.sampled_from([0.0, 0.0, 0.02, 0.1]),
)


class Game(NamedTuple):
    states: tuple[State, ...]  # states[i] is the state after the first i moves of the log
    log: tuple[Move[no_thanks.Action], ...]


def setup_of(plan: Plan) -> Setup:
    return Setup(plan.players, seed=plan.seed, variants=frozenset({"open_chips"} if plan.open_chips else ()))


@lru_cache(maxsize=256)
def play(plan: Plan) -> Game:
    """Every state of one random game, from the deal to the end, and its log."""
    rng = random.Random(plan.policy)
    state = no_thanks.GAME.new_game(setup_of(plan))
    states = [state]
    log: list[Move[no_thanks.Action]] = []
    while not no_thanks.is_over(state) and len(states) <= MOST_MOVES + 1:
        mover = no_thanks.current_player(state)
        assert mover is not None
        action: no_thanks.Action
        if rng.random() < plan.leave_chance:
            player = rng.choice([p for p in plan.players if Leave() in no_thanks.legal_actions(state, p)])
            action = Leave()
        elif NoThanks() in no_thanks.legal_actions(state, mover) and rng.random() >= plan.take_chance:
            player, action = mover, NoThanks()
        else:
            player, action = mover, Take()
        state = no_thanks.apply(state, player, action)
        states.append(state)
        log.append(Move(player, action))
    return Game(tuple(states), tuple(log))


def seat_of(state: State, player: int) -> int:
    return state.players.index(player)


# --- conservation and termination -----------------------------------------------------------------------------------


@SETTINGS
@given(plans)
def test_every_card_and_chip_is_always_accounted_for(plan: Plan) -> None:
    states, log = play(plan)
    start = no_thanks.starting_chips(len(plan.players)) * len(plan.players)
    departed_chips = 0
    for (before, after), move in zip(itertools.pairwise(states), log, strict=True):
        cards = [*after.removed, *after.draw_pile, *after.departed_cards, *(c for hand in after.hands for c in hand)]
        if after.face_up is not None:
            cards.append(after.face_up)
        assert sorted(cards) == list(range(3, 36))
        assert after.removed == states[0].removed
        assert all(list(hand) == sorted(hand) for hand in after.hands)

        assert after.move_count == before.move_count + 1
        if isinstance(move.action, Leave):
            departed_chips += before.chips[seat_of(before, move.player)]
        assert after.departed_chips == departed_chips
        assert sum(after.chips) + after.chips_on_card == start - departed_chips
        assert all(count >= 0 for count in after.chips)


@SETTINGS
@given(plans)
def test_every_game_ends(plan: Plan) -> None:
    states, log = play(plan)
    end = states[-1]

    assert no_thanks.is_over(end)
    assert end.move_count == len(log) <= MOST_MOVES
    assert no_thanks.current_player(end) is None
    if end.status == "finished":
        assert end.draw_pile == ()
        assert end.face_up is None
        assert sum(map(len, end.hands)) + len(end.departed_cards) == 24
    else:
        assert end.status == "abandoned"
        assert end.left.count(False) == 2


@SETTINGS
@given(plans)
def test_apply_accepts_exactly_the_legal_actions(plan: Plan) -> None:
    for state in play(plan).states[::3]:
        for player in (*plan.players, STRANGER):
            legal = no_thanks.legal_actions(state, player)
            for action in (Take(), NoThanks(), Leave()):
                if action in legal:
                    no_thanks.apply(state, player, action)
                else:
                    with pytest.raises(GameError):
                        no_thanks.apply(state, player, action)


# --- the log -------------------------------------------------------------------------------------------------------


@SETTINGS
@given(plans, st.integers(0, MOST_MOVES))
def test_the_saved_log_rebuilds_every_state(plan: Plan, step: int) -> None:
    states, log = play(plan)
    loaded = saved(no_thanks.GAME, log)
    assert loaded == list(log)
    for moves in {0, step % len(states), len(log)}:
        assert replay(no_thanks.GAME, setup_of(plan), loaded[:moves]) == states[moves]


def _a_stranger_moves(game: Game, at: int, rng: random.Random) -> list[Move[no_thanks.Action]]:
    action = rng.choice([Take(), NoThanks(), Leave()])
    return [*game.log[:at], Move(STRANGER, action), *game.log[at:]]


def _somebody_else_moves(game: Game, at: int, rng: random.Random) -> list[Move[no_thanks.Action]]:
    """A take or pass by a seated player who is not the mover (or any move once the game is over)."""
    state = game.states[at]
    others = [p for p in state.players if p != no_thanks.current_player(state)]
    return [*game.log[:at], Move(rng.choice(others), rng.choice([Take(), NoThanks()])), *game.log[at:]]


def _a_leaver_moves_again(game: Game, at: int, rng: random.Random) -> list[Move[no_thanks.Action]]:
    leaves = [i for i, move in enumerate(game.log) if move.action == Leave()]
    if not leaves:
        return _somebody_else_moves(game, len(game.log), rng)  # after the end
    at = rng.choice(leaves) + 1
    return [*game.log[:at], Move(game.log[at - 1].player, rng.choice([Take(), NoThanks(), Leave()]))]


def _a_pass_without_chips(game: Game, at: int, rng: random.Random) -> list[Move[no_thanks.Action]]:
    broke = [i for i, state in enumerate(game.states) if not no_thanks.is_over(state) and state.chips[state.turn] == 0]
    if not broke:
        return _somebody_else_moves(game, at, rng)
    at = rng.choice(broke)
    return [*game.log[:at], Move(game.states[at].players[game.states[at].turn], NoThanks())]


# Each breaks the log for sure at some move: the replay must say so.
TAMPERING = [_a_stranger_moves, _somebody_else_moves, _a_leaver_moves_again, _a_pass_without_chips]


@SETTINGS
@given(plans, st.integers(0, MOST_MOVES), st.sampled_from(TAMPERING), st.integers(0, 2**16))
def test_a_log_that_breaks_the_rules_is_refused(
    plan: Plan,
    step: int,
    tamper: Callable[[Game, int, random.Random], list[Move[no_thanks.Action]]],
    seed: int,
) -> None:
    game = play(plan)
    log = tamper(game, step % len(game.states), random.Random(seed))

    with pytest.raises(CorruptState, match=r"^Move \d+ of the saved game breaks the rules: "):
        replay(no_thanks.GAME, setup_of(plan), saved(no_thanks.GAME, log))


@SETTINGS
@given(plans, st.integers(-2, 4), st.sampled_from(["expert", "open", ""]))
def test_a_setup_this_bot_cannot_play_is_refused(plan: Plan, rules_version: int, variant: str) -> None:
    setup = setup_of(plan)
    log = saved(no_thanks.GAME, play(plan).log)
    for wrong in (
        replace(setup, rules_version=rules_version + (rules_version >= 1)),
        replace(setup, variants=setup.variants | {variant}),
    ):
        with pytest.raises(CorruptState, match=r"^This game (was started under rules version|uses a variant)"):
            replay(no_thanks.GAME, wrong, log)


# --- scoring and secrets --------------------------------------------------------------------------------------------


def brute_force_runs(cards: set[int]) -> list[tuple[int, ...]]:
    """Every card without its predecessor starts a run that goes on while the next number is held."""
    found = []
    for start in sorted(card for card in cards if card - 1 not in cards):
        end = start
        while end + 1 in cards:
            end += 1
        found.append(tuple(range(start, end + 1)))
    return found


@SETTINGS
@given(st.sets(st.integers(3, 35)))
def test_runs_agree_with_a_brute_force_count(cards: set[int]) -> None:
    shuffled = sorted(cards, key=lambda card: (card * 7919) % 37)
    assert no_thanks.runs(shuffled) == brute_force_runs(cards)
    assert no_thanks.card_points(shuffled) == sum(card for card in cards if card - 1 not in cards)


@SETTINGS
@given(plans.filter(lambda plan: plan.leave_chance < 0.1))
def test_final_scores_agree_with_a_brute_force_count(plan: Plan) -> None:
    end = play(plan).states[-1]
    if end.status != "finished":
        return
    remaining = [p for p, gone in zip(end.players, end.left, strict=True) if not gone]
    totals = {}
    for line, player in zip(no_thanks.scores(end), remaining, strict=True):
        cards = set(end.hands[seat_of(end, player)])
        chips = end.chips[seat_of(end, player)]
        points = sum(card for card in cards if card - 1 not in cards)
        assert line == no_thanks.ScoreLine(player, tuple(brute_force_runs(cards)), points, chips, points - chips)
        totals[player] = points - chips

    best = min(totals.values())
    tied = [p for p in remaining if totals[p] == best]
    highest = {p: max(end.hands[seat_of(end, p)], default=0) for p in tied}
    expected = next(p for p in tied if highest[p] == max(highest.values()))
    assert no_thanks.winner(end) == (expected, len(tied) > 1)


@SETTINGS
@given(plans)
def test_the_public_view_keeps_the_secrets(plan: Plan) -> None:
    for state in play(plan).states:
        view = no_thanks.public_view(state)
        shown = {view.face_up_card, *(card for seat in view.players for card in seat.cards)}
        assert not shown & set(state.removed)
        for seat in view.players:
            expected = no_thanks.chips(state, seat.player) if plan.open_chips else None
            assert seat.chips == expected
            assert seat.points == no_thanks.card_points(seat.cards)
        assert view.cards_left == len(state.draw_pile)
