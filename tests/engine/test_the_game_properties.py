"""Property tests of The Game: seeded games played with random legal moves, checked at every step."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import the_game as tg
from engine.errors import CorruptState
from engine.the_game import EndTurn, Leave, Play, State

PLAYOUTS = settings(derandomize=True, deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
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


def check_saving(state: State) -> None:
    data = json.loads(json.dumps(tg.to_dict(state)))
    assert tg.from_dict(data) == state  # from_dict also replays the moves


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
        top = tops[action.pile]
        return action.card - top if action.pile in tg.ASCENDING else top - action.card

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


def play_out(setup: dict[str, int | float | bool], check: bool) -> list[State]:
    players = [1000 + 7 * i for i in range(int(setup["players"]))]
    state = tg.new_game(
        players, seed=int(setup["seed"]), expert=bool(setup["expert"]), smaller_hands=bool(setup["smaller_hands"])
    )
    rng = random.Random(int(setup["chooser"]))
    states = [state]
    for _ in range(250):  # at most 98 plays, one EndTurn after each turn's plays, and 5 leaves
        if tg.is_over(state):
            break
        player, action = choose(state, rng, float(setup["leave_rate"]), float(setup["careful"]))
        after = tg.apply(state, player, action)
        assert after.moves == (*state.moves, tg.Move(player, action))
        if check:
            check_invariants(after)
            check_end_detection(state, after, player, action)
        state = after
        states.append(state)
    assert tg.is_over(state), "the game did not terminate"
    return states


@PLAYOUTS
@given(game_setups)
def test_random_games_keep_every_rule(setup: dict[str, int | float | bool]) -> None:
    states = play_out(setup, check=True)
    final = states[-1]
    event(f"game {final.status}")  # pytest --hypothesis-show-statistics shows what the examples covered
    event("the draw pile ran out" if not final.draw_pile else "the draw pile never ran out")
    event(f"{len(final.moves) // 50 * 50}+ moves")
    assert final.status in ("won", "lost", "abandoned")
    assert (final.status == "abandoned") == all(final.left)
    assert (
        tg.replay(
            final.players, seed=final.seed, expert=final.expert, smaller_hands=final.smaller_hands, moves=final.moves
        )
        == final
    )
    for state in states:
        check_saving(state)


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


TAMPERING = [
    lambda data, rng: data.update(v=rng.choice([0, 2, "1", None])),
    lambda data, rng: data.update(kind="no_thanks"),
    lambda data, rng: data.pop(rng.choice(sorted(set(data) - {"kind", "v"}))),
    lambda data, rng: data.update({rng.choice(["seed", "laid", "minimum", "turn"]): rng.choice(["1", 1.5, [], True])}),
    lambda data, rng: data.update({rng.choice(["expert", "smaller_hands"]): rng.choice([0, 1, "yes", None])}),
    lambda data, rng: data.update(
        players=[*data["players"][:-1], data["players"][0]] if len(data["players"]) > 1 else []
    ),
    lambda data, rng: data["draw_pile"].append(rng.randint(2, 99)),
    lambda data, rng: data["draw_pile"].append(rng.choice([1, 100, -5, "7"])),
    lambda data, rng: next(part for part in (data["draw_pile"], *data["hands"], *data["piles"].values()) if part).pop(),
    lambda data, rng: data["piles"].update(A=data["piles"]["C"], C=data["piles"]["A"]),
    lambda data, rng: data.update(turn=len(data["players"])),
    lambda data, rng: data.update(minimum=rng.choice([0, 4, -1])),
    lambda data, rng: data.update(status=rng.choice(["paused", "over", ""])),
    lambda data, rng: data.update(laid=data["laid"] + rng.randint(1, 5)),
    lambda data, rng: data["moves"].append(rng.choice([[1, "jump"], ["1", "end"], [1, "play", 2], [1, "end", 3], 5])),
    lambda data, rng: data["moves"].append([rng.choice(data["players"]), "play", 1, "A"]),
    lambda data, rng: data.update(moves=data["moves"][:-1]),
]


def swap_hand_and_draw_card(data: dict, rng: random.Random) -> None:
    """Cards all there exactly once, every field well-formed: only the replay can tell it is wrong."""
    holders = [cards for cards in data["hands"] if cards]
    if not holders or not data["draw_pile"]:
        data["v"] = 99
        return
    cards = rng.choice(holders)
    i, j = rng.randrange(len(cards)), rng.randrange(len(data["draw_pile"]))
    cards[i], data["draw_pile"][j] = data["draw_pile"][j], cards[i]
    cards.sort()


@settings(derandomize=True, deadline=None, max_examples=80)
@given(setup=game_setups, when=st.floats(0, 1), how=st.integers(0, len(TAMPERING)), rng_seed=st.integers(0, 2**16))
def test_from_dict_rejects_tampered_data(
    setup: dict[str, int | float | bool], when: float, how: int, rng_seed: int
) -> None:
    states = play_out(setup, check=False)
    state = states[int(when * (len(states) - 1))]
    data = json.loads(json.dumps(tg.to_dict(state)))
    original = json.loads(json.dumps(data))
    tamper = TAMPERING[how] if how < len(TAMPERING) else swap_hand_and_draw_card
    tamper(data, random.Random(rng_seed))
    if data == original:
        return  # the edit happened to change nothing
    with pytest.raises(CorruptState, match=r"^The saved game is damaged \("):
        tg.from_dict(data)
