"""Random seeded games of No Thanks!, checked at every step: conservation, legality, round trips, replays, scoring."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import no_thanks
from engine.errors import CorruptState, GameError
from engine.no_thanks import Leave, NoThanks, State, Take

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


@lru_cache(maxsize=256)
def play(plan: Plan) -> tuple[State, ...]:
    """Every state of one random game, from the deal to the end."""
    rng = random.Random(plan.policy)
    state = no_thanks.new_game(plan.players, seed=plan.seed, open_chips=plan.open_chips)
    states = [state]
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
    return tuple(states)


def seat_of(state: State, player: int) -> int:
    return state.players.index(player)


# --- conservation and termination -----------------------------------------------------------------------------------


@SETTINGS
@given(plans)
def test_every_card_and_chip_is_always_accounted_for(plan: Plan) -> None:
    states = play(plan)
    start = no_thanks.starting_chips(len(plan.players)) * len(plan.players)
    departed_chips = 0
    for before, after in itertools.pairwise(states):
        cards = [*after.removed, *after.draw_pile, *after.departed_cards, *(c for hand in after.hands for c in hand)]
        if after.face_up is not None:
            cards.append(after.face_up)
        assert sorted(cards) == list(range(3, 36))
        assert after.removed == states[0].removed
        assert all(list(hand) == sorted(hand) for hand in after.hands)

        move = after.moves[-1]
        if isinstance(move.action, Leave):
            departed_chips += before.chips[seat_of(before, move.player)]
        assert after.departed_chips == departed_chips
        assert sum(after.chips) + after.chips_on_card == start - departed_chips
        assert all(count >= 0 for count in after.chips)


@SETTINGS
@given(plans)
def test_every_game_ends(plan: Plan) -> None:
    end = play(plan)[-1]

    assert no_thanks.is_over(end)
    assert len(end.moves) <= MOST_MOVES
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
    for state in play(plan)[::3]:
        for player in (*plan.players, STRANGER):
            legal = no_thanks.legal_actions(state, player)
            for action in (Take(), NoThanks(), Leave()):
                if action in legal:
                    no_thanks.apply(state, player, action)
                else:
                    with pytest.raises(GameError):
                        no_thanks.apply(state, player, action)


# --- saving, loading and replaying ----------------------------------------------------------------------------------


@SETTINGS
@given(plans)
def test_every_state_survives_json_and_replay(plan: Plan) -> None:
    for state in play(plan):
        data = json.loads(json.dumps(no_thanks.to_dict(state)))
        assert no_thanks.from_dict(data) == state
        assert no_thanks.to_dict(no_thanks.from_dict(data)) == data
        rebuilt = no_thanks.replay(plan.players, seed=plan.seed, open_chips=plan.open_chips, moves=state.moves)
        assert rebuilt == state


def _append_a_take(data: dict[str, Any]) -> None:
    data["moves"].append([data["players"][data["turn"]], "take"])


def _bump(key: str, index: int | None = None) -> Callable[[dict[str, Any]], None]:
    def bump(data: dict[str, Any]) -> None:
        if index is None:
            data[key] += 1
        else:
            data[key][index % len(data[key])] += 1

    return bump


def _flip_left(data: dict[str, Any]) -> None:
    data["left"][0] = not data["left"][0]


def _next_turn(data: dict[str, Any]) -> None:
    data["turn"] = (data["turn"] + 1) % len(data["players"])


def _next_status(data: dict[str, Any]) -> None:
    data["status"] = {"playing": "finished", "finished": "abandoned", "abandoned": "playing"}[data["status"]]


def _duplicate_a_card(data: dict[str, Any]) -> None:
    data["hands"][0] = sorted([*data["hands"][0], data["removed"][0]])


# Each changes the position (or its history) for sure, so the saved game can no longer be the one its moves make.
TAMPERING = [
    _append_a_take,
    _bump("seed"),
    _bump("chips", 0),
    _bump("chips", 5),
    _bump("chips_on_card"),
    _bump("departed_chips"),
    _flip_left,
    _next_turn,
    _next_status,
    _duplicate_a_card,
]


@SETTINGS
@given(plans, st.integers(0, MOST_MOVES), st.sampled_from(TAMPERING))
def test_tampered_saves_are_rejected(plan: Plan, step: int, tamper: Callable[[dict[str, Any]], None]) -> None:
    states = play(plan)
    data = no_thanks.to_dict(states[step % len(states)])
    tamper(data)

    with pytest.raises(CorruptState):
        no_thanks.from_dict(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-40, 40) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=8,
)


@SETTINGS
@given(plans, st.integers(0, MOST_MOVES), st.data())
def test_from_dict_refuses_or_loads_exactly_what_it_read(plan: Plan, step: int, data: st.DataObject) -> None:
    states = play(plan)
    saved = no_thanks.to_dict(states[step % len(states)])
    key = data.draw(st.sampled_from(sorted(saved)))
    if data.draw(st.booleans()):
        del saved[key]
    else:
        saved[key] = data.draw(json_values)

    try:
        loaded = no_thanks.from_dict(saved)
    except CorruptState:
        return
    assert no_thanks.to_dict(loaded) == saved


@SETTINGS
@given(json_values)
def test_from_dict_raises_only_corrupt_state_on_junk(junk: Any) -> None:
    with pytest.raises(CorruptState):
        no_thanks.from_dict(junk)


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
    end = play(plan)[-1]
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
    for state in play(plan):
        view = no_thanks.public_view(state)
        shown = {view.face_up_card, *(card for seat in view.players for card in seat.cards)}
        assert not shown & set(state.removed)
        for seat in view.players:
            expected = no_thanks.chips(state, seat.player) if plan.open_chips else None
            assert seat.chips == expected
            assert seat.points == no_thanks.card_points(seat.cards)
        assert view.cards_left == len(state.draw_pile)
