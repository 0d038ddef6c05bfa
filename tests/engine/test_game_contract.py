"""The game contract (engine.game), checked for every game in the registry: a third game is tested here on arrival.

Seeded games are played with random legal actions (and, in The Game, random signals); at every step the move log,
saved as JSON and loaded again, must rebuild exactly the live state, and no seat may learn another seat's secrets.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import no_thanks
from engine import the_game as tg
from engine.errors import CorruptState, IllegalAction, NotAPlayer
from engine.game import Game, Move, Setup, decode_moves, replay
from table.registry import GAMES
from tests import players

KINDS = sorted(GAMES)
STRANGER = 0  # never seated: the strategies draw player ids from 1 on
PLAYOUTS = settings(derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(derandomize=True, deadline=None, max_examples=200)


def setups(game: Game[Any, Any]) -> st.SearchStrategy[Setup]:
    info = game.info
    names = [variant.name for variant in info.variants]
    return st.builds(
        Setup,
        players=st.lists(st.integers(1, 2**40), min_size=info.min_players, max_size=info.max_players, unique=True).map(
            tuple
        ),
        seed=st.integers(0, 2**32),
        variants=st.frozensets(st.sampled_from(names)) if names else st.just(frozenset()),
        rules_version=st.just(info.rules_version),
    )


# --- what only some games have -------------------------------------------------------------------------------------


def the_game_signal(state: tg.State, player: int, rng: random.Random) -> tuple[int, tg.Action]:
    """Any signal a player might raise, well-formed or not: the rules refuse some (a trick they can't do, ...)."""
    kind = rng.choice((*tg.SIGNALS, tg.CLEAR))
    pile = None if kind in tg.PLAYER_SIGNALS else rng.choice(tg.PILES)
    if kind == tg.CLEAR and rng.random() < 0.5:
        pile = None
    return player, tg.Signal(kind, pile)


def the_game_careful(state: tg.State, options: list[Move[tg.Action]]) -> Move[tg.Action]:
    """The play that jumps least (ending the turn rather than jumping more than 5), so that games last."""

    def jump(move: Move[tg.Action]) -> int:
        if not isinstance(move.action, tg.Play):
            return 5
        return players.jump(move.action.pile, tg.top(state, move.action.pile), move.action.card)

    return min(options, key=jump)


# Actions a game allows beside legal_actions (table talk); refused ones must raise IllegalAction and are skipped.
CHATTER: dict[str, Callable[[Any, int, random.Random], tuple[int, Any]]] = {"the_game": the_game_signal}
# How a careful player picks among the legal moves, where random moves would end a game too soon to test it much.
CAREFUL: dict[str, Callable[[Any, list[Move[Any]]], Move[Any]]] = {"the_game": the_game_careful}


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar in a nest of dataclasses, sequences and mappings, with its path (``view.piles[].top``)."""
    if is_dataclass(value) and not isinstance(value, type):
        for item in fields(value):
            yield from leaves(getattr(value, item.name), f"{path}.{item.name}" if path else item.name)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from leaves(item, f"{path}[]")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from leaves(key, f"{path}{{}}")
            yield from leaves(item, f"{path}{{}}")
    else:
        yield path, value


def check_numbers(seen: Any, allowed: Mapping[str, Callable[[int], bool]]) -> None:
    """Every number in ``seen`` sits where ``allowed`` expects one and passes its check; no text hides a number."""
    for path, value in leaves(seen):
        if isinstance(value, str):
            assert not any(char.isdigit() for char in value), (path, value)
        elif isinstance(value, int) and not isinstance(value, bool):
            assert path in allowed, f"a number at {path} that no check knows of"
            assert allowed[path](value), (path, value)


def the_game_secrets(state: tg.State, player: int, rng: random.Random) -> None:
    seen = tg.observation(state, player)
    seat = state.players.index(player)
    assert (seen.player, seen.hand, seen.view) == (player, state.hands[seat], tg.public_view(state))
    tops = {tg.top(state, pile) for pile in tg.PILES}
    anything = lambda value: True  # noqa: E731 (a count or a player id: not a card)
    check_numbers(
        seen,
        {
            "player": lambda value: value == player,
            "hand[]": lambda card: card in state.hands[seat],
            "view.piles[].top": lambda card: card in tops,
            # Laid cards are public: every one was laid in front of the table.
            "view.piles[].cards[]": lambda card: any(card in pile for pile in state.piles),
            **dict.fromkeys(
                (
                    "view.piles[].size", "view.draw_pile", "view.seats[].player", "view.seats[].cards",
                    "view.hand_size", "view.current_player", "view.laid", "view.minimum", "view.score",
                    "view.signals[].player",
                ),
                anything,
            ),
        },
    )  # fmt: skip
    # Deal the other hands and the draw pile again, sizes kept: nothing this seat sees may change.
    others = [other for other in range(len(state.players)) if other != seat]
    pool = [*state.draw_pile, *(card for other in others for card in state.hands[other])]
    rng.shuffle(pool)
    hands = list(state.hands)
    for other in others:
        size = len(hands[other])
        hands[other], pool = tuple(sorted(pool[:size])), pool[size:]
    assert tg.observation(replace(state, hands=tuple(hands), draw_pile=tuple(pool)), player) == seen


def no_thanks_secrets(state: no_thanks.State, player: int, rng: random.Random) -> None:
    seen = no_thanks.observation(state, player)
    seat = state.players.index(player)
    assert (seen.player, seen.chips, seen.view) == (player, state.chips[seat], no_thanks.public_view(state))
    for shown in seen.view.players:
        assert shown.chips == (state.chips[state.players.index(shown.player)] if state.open_chips else None)
    not_removed = lambda card: card not in state.removed  # noqa: E731
    anything = lambda value: True  # noqa: E731
    check_numbers(
        seen,
        {
            "player": lambda value: value == player,
            "chips": lambda value: value == state.chips[seat],
            "view.face_up_card": not_removed,
            "view.players[].cards[]": not_removed,
            "view.players[].runs[][]": not_removed,
            "view.players[].chips": lambda value: state.open_chips,
            **dict.fromkeys(
                ("view.chips_on_card", "view.cards_left", "view.players[].player", "view.players[].points",
                 "view.left[]", "view.turn"),
                anything,
            ),
        },
    )  # fmt: skip
    # Swap removed cards with face-down ones, and (unless chips are open) hand the other seats other chip counts.
    pool = [*state.removed, *state.draw_pile]
    rng.shuffle(pool)
    chips = tuple(
        count if other == seat or gone or state.open_chips else rng.randrange(60)
        for other, (count, gone) in enumerate(zip(state.chips, state.left, strict=True))
    )
    hidden = replace(state, removed=tuple(sorted(pool[:9])), draw_pile=tuple(pool[9:]), chips=chips)
    assert no_thanks.observation(hidden, player) == seen


# What each game keeps secret, checked on one seat's observation. A new game must say here what it hides.
SECRETS: dict[str, Callable[[Any, int, random.Random], None]] = {
    "the_game": the_game_secrets,
    "no_thanks": no_thanks_secrets,
}


def test_every_game_says_what_it_keeps_secret() -> None:
    assert set(SECRETS) == set(GAMES)
    assert set(CHATTER) <= set(GAMES)


# --- playing ---------------------------------------------------------------------------------------------------------


@dataclass
class Played:
    setup: Setup
    states: list[Any]  # states[i] is the state after the first i moves of the log
    log: list[Move[Any]]


@dataclass(frozen=True)
class Policy:
    seed: int
    leave: float  # chance of a leave at each step
    chat: float  # chance of table talk (CHATTER) at each step
    careful: float  # chance of the careful move (CAREFUL) rather than a random one


def choose(game: Game[Any, Any], state: Any, setup: Setup, rng: random.Random, policy: Policy) -> Move[Any]:
    seated = [player for player in setup.players if game.legal_actions(state, player)]
    roll = rng.random()
    if roll < policy.leave:
        return Move(rng.choice(seated), game.leave)
    chatter = CHATTER.get(game.info.kind)
    if chatter is not None and roll < policy.leave + policy.chat:
        return Move(*chatter(state, rng.choice(seated), rng))
    mover = game.current_player(state)
    options = [
        Move(player, action)
        for player in ([mover] if mover is not None else seated)
        for action in game.legal_actions(state, player)
        if action != game.leave
    ]
    if not options:
        return Move(rng.choice(seated), game.leave)
    careful = CAREFUL.get(game.info.kind)
    if careful is not None and rng.random() < policy.careful:
        return careful(state, options)
    return rng.choice(options)


def play(game: Game[Any, Any], setup: Setup, policy: Policy) -> Played:
    rng = random.Random(policy.seed)
    state = game.new_game(setup)
    played = Played(setup, [state], [])
    for _ in range(3000):
        if game.is_over(state):
            return played
        move = choose(game, state, setup, rng, policy)
        try:
            state = game.apply(state, move.player, move.action)
        except IllegalAction:
            assert move.action not in game.legal_actions(state, move.player)
            continue
        played.states.append(state)
        played.log.append(move)
    raise AssertionError("the game did not end")


def playouts(kind: str) -> st.SearchStrategy[Played]:
    game = GAMES[kind]
    return st.builds(
        play,
        st.just(game),
        setups(game),
        st.builds(
            Policy,
            seed=st.integers(0, 2**32),
            leave=st.sampled_from([0.0, 0.01, 0.05]),
            chat=st.sampled_from([0.0, 0.1, 0.3]),
            careful=st.sampled_from([0.0, 0.8, 1.0]),
        ),
    )


def rows_of(game: Game[Any, Any], log: Sequence[Move[Any]]) -> list[list[Any]]:
    """The log as the database keeps it: [player, encoded action] rows, through JSON."""
    rows: list[list[Any]] = json.loads(json.dumps([[move.player, game.encode_action(move.action)] for move in log]))
    return rows


def saved(game: Game[Any, Any], log: Sequence[Move[Any]]) -> list[Move[Any]]:
    """The log saved and loaded again: encoded, through JSON, and decoded."""
    return decode_moves(game, [(player, raw) for player, raw in rows_of(game, log)])


# --- the log is the truth --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@PLAYOUTS
@given(data=st.data())
def test_the_saved_log_rebuilds_every_state(kind: str, data: st.DataObject) -> None:
    game = GAMES[kind]
    played = data.draw(playouts(kind))
    loaded = saved(game, played.log)
    assert loaded == played.log
    state = game.new_game(played.setup)
    assert state == played.states[0]
    for move, live in zip(loaded, played.states[1:], strict=True):
        state = game.apply(state, move.player, move.action)
        assert state == live
    for steps in {0, len(loaded) // 2, len(loaded)}:
        assert replay(game, played.setup, loaded[:steps]) == played.states[steps]


@pytest.mark.parametrize("kind", KINDS)
@PLAYOUTS
@given(data=st.data())
def test_every_step_keeps_the_contract(kind: str, data: st.DataObject) -> None:
    game = GAMES[kind]
    played = data.draw(playouts(kind))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for count, state in enumerate(played.states):
        assert game.move_count(state) == count
        over = game.is_over(state)
        outcome = game.outcome(state)
        assert (outcome is None) == (not over)
        assert game.legal_actions(state, STRANGER) == []
        with pytest.raises(NotAPlayer):
            game.observation(state, STRANGER)
        for player in played.setup.players:
            SECRETS[kind](state, player, rng)
            actions = game.legal_actions(state, player)
            assert not (over and actions)
            assert not actions or game.leave in actions  # a seated player may always leave a running game
            for action in actions:
                assert game.decode_action(json.loads(json.dumps(game.encode_action(action)))) == action
        if outcome is None:
            continue
        assert game.current_player(state) is None
        assert outcome.abandoned == (outcome.status == "abandoned")
        assert json.loads(json.dumps(outcome.result)) == outcome.result  # ready for the statistics, as it is


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_is_registered_under_its_kind(kind: str) -> None:
    game = GAMES[kind]
    assert game.info.kind == kind
    assert 1 <= game.info.min_players <= game.info.max_players
    assert len({variant.name for variant in game.info.variants}) == len(game.info.variants)
    assert game.decode_action(game.encode_action(game.leave)) == game.leave


# --- replay refuses a log that breaks the rules ----------------------------------------------------------------------


@cache
def finished_game(kind: str) -> Played:
    game = GAMES[kind]
    players = tuple(range(1, game.info.min_players + 1))
    setup = Setup(players, seed=5, rules_version=game.info.rules_version)
    return play(game, setup, Policy(seed=5, leave=0.0, chat=0.0, careful=0.5))


def refusal(game: Game[Any, Any], setup: Setup, log: list[Move[Any]]) -> str:
    with pytest.raises(CorruptState) as error:
        replay(game, setup, log)
    return str(error.value)


@pytest.mark.parametrize("kind", KINDS)
def test_replay_refuses_another_rules_version(kind: str) -> None:
    game, played = GAMES[kind], finished_game(kind)
    setup = replace(played.setup, rules_version=game.info.rules_version + 1)
    assert refusal(game, setup, played.log) == (
        f"This game was started under rules version {setup.rules_version} of {game.info.title}, "
        f"and this bot plays version {game.info.rules_version}."
    )


@pytest.mark.parametrize("kind", KINDS)
def test_replay_refuses_an_unknown_variant(kind: str) -> None:
    game, played = GAMES[kind], finished_game(kind)
    setup = replace(played.setup, variants=frozenset({"no_such_rule"}))
    assert refusal(game, setup, played.log) == "This game uses a variant this bot doesn't know (no_such_rule)."


@pytest.mark.parametrize("kind", KINDS)
def test_replay_refuses_a_table_the_game_cannot_seat(kind: str) -> None:
    game = GAMES[kind]
    setup = Setup(tuple(range(1, game.info.max_players + 2)), seed=1, rules_version=game.info.rules_version)
    assert refusal(game, setup, []).startswith("The saved game cannot be set up: ")


@pytest.mark.parametrize("kind", KINDS)
def test_replay_refuses_a_move_after_the_end(kind: str) -> None:
    game, played = GAMES[kind], finished_game(kind)
    assert game.is_over(played.states[-1])
    assert replay(game, played.setup, played.log) == played.states[-1]
    late = Move(played.setup.players[0], game.leave)
    assert refusal(game, played.setup, [*played.log, late]).startswith(
        f"Move {len(played.log) + 1} of the saved game breaks the rules: This game "
    )


@pytest.mark.parametrize("kind", KINDS)
def test_replay_refuses_a_move_by_somebody_not_at_the_table(kind: str) -> None:
    game, played = GAMES[kind], finished_game(kind)
    log = [*played.log[:1], Move(STRANGER, game.leave), *played.log[1:]]
    assert refusal(game, played.setup, log) == (
        "Move 2 of the saved game breaks the rules: You're not playing in this game."
    )


@pytest.mark.parametrize("kind", KINDS)
@QUICK
@given(data=st.data())
def test_replay_raises_nothing_but_corrupt_state(kind: str, data: st.DataObject) -> None:
    """Any log of real actions by anybody, in any order: replay rebuilds it or refuses it with CorruptState."""
    game, played = GAMES[kind], finished_game(kind)
    actions = sorted({json.dumps(game.encode_action(move.action)) for move in played.log} | {'["leave"]'})
    if kind == "the_game":
        signals = (tg.Signal("trick", "A"), tg.Signal("dont_lay", "C"), tg.Signal(tg.CLEAR))
        actions += [json.dumps(tg.encode_action(signal)) for signal in signals]
    moves = data.draw(
        st.lists(
            st.builds(Move, st.sampled_from([*played.setup.players, STRANGER]), st.sampled_from(actions)), max_size=12
        )
    )
    log = [Move(move.player, game.decode_action(json.loads(move.action))) for move in moves]
    try:
        state = replay(game, played.setup, log)
    except CorruptState as error:
        refused = str(error)
    else:
        assert game.move_count(state) == len(log)
        return
    assert refused.startswith("Move ")


# --- decoding refuses what encoding cannot produce -------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 120) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@cache
def encodings(kind: str) -> tuple[Any, ...]:
    """Every encoded action met in a finished game, as JSON: the starting points of the damage below."""
    game, played = GAMES[kind], finished_game(kind)
    found = {
        json.dumps(game.encode_action(action))
        for state in played.states
        for player in played.setup.players
        for action in game.legal_actions(state, player)
    }
    if kind == "the_game":
        signals = [tg.Signal(name) for name in (*tg.PLAYER_SIGNALS, tg.CLEAR)]
        signals += [tg.Signal(name, "B") for name in (*tg.PILE_SIGNALS, tg.CLEAR)]
        found |= {json.dumps(tg.encode_action(signal)) for signal in signals}
    return tuple(json.loads(text) for text in sorted(found))


@st.composite
def damaged(draw: st.DrawFn, kind: str) -> Any:
    raw = draw(st.sampled_from(encodings(kind)))
    how = draw(st.sampled_from(["replace", "append", "drop", "junk", "shift"]))
    if how == "junk":
        return draw(json_values)
    raw = list(raw)
    at = draw(st.integers(0, len(raw) - 1))
    if how == "replace":
        raw[at] = draw(json_values)
    elif how == "append":
        raw.insert(at + draw(st.integers(0, 1)), draw(json_values))
    elif how == "drop":
        del raw[at]
    elif isinstance(raw[at], int):
        raw[at] += draw(st.sampled_from([-100, -1, 1, 100]))
    else:
        raw[at] = draw(st.sampled_from([True, 1, 1.0, None, [raw[at]], str(raw[at]).upper()]))
    return raw


@pytest.mark.parametrize("kind", KINDS)
@QUICK
@given(data=st.data())
def test_decode_refuses_whatever_encode_cannot_produce(kind: str, data: st.DataObject) -> None:
    game = GAMES[kind]
    raw = data.draw(damaged(kind))
    player = data.draw(st.one_of(st.integers(1, 9), json_values))
    try:
        (move,) = decode_moves(game, [(player, raw)])
    except CorruptState as error:
        refused = str(error)
    else:  # it decoded: then it is exactly what encode_action writes
        assert json.dumps([move.player, game.encode_action(move.action)]) == json.dumps([player, raw])
        return
    assert refused.startswith("The saved game is damaged (")
