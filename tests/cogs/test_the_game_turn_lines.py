"""The Game's turn lines (issue 38, "texts a person would write"): at most 200 characters with computer partners
signalling at every moment, one signal per pile (the latest), a pile's cards together, nothing said twice."""

from __future__ import annotations

import random

import pytest

from cogs.the_game_presenter import PRESENTER
from engine import the_game
from engine.game import Setup
from engine.the_game import EndTurn, Play, Signal
from i18n import languages, render
from table.presenter import Step
from table.registry import computer_player

TURN_LINE = 200
# Real Discord ids: a mention is written <@1575985424776560645> in the message, 22 characters.
BASE = 1575985424776560645


def steps_of(state: the_game.State, moves: list[tuple[int, the_game.Action]]) -> list[Step]:
    steps = []
    for number, (player, action) in enumerate(moves, start=1):
        after = the_game.apply(state, player, action)
        steps.append(Step(number, player, action, state, after))
        state = after
    return steps


def turn_lines(players: int, seed: int) -> list[list[Step]]:
    """The moves of each turn of a seeded game of computer players who signal after every move (as at a table),
    cut where the board moves on."""
    ai = computer_player("the_game")
    assert ai is not None
    seats = tuple(BASE + seat for seat in range(players))
    state = the_game.GAME.new_game(Setup(seats, seed, frozenset(), the_game.INFO.rules_version))
    rng = random.Random(seed)
    turns: list[list[Step]] = [[]]
    number = 0

    def step(player: int, action: the_game.Action) -> None:
        nonlocal state, number
        after = the_game.apply(state, player, action)
        number += 1
        turns[-1].append(Step(number, player, action, state, after))
        if PRESENTER.new_board(state, after, player, action):
            turns.append([])
        state = after

    while not the_game.is_over(state):
        for seat in seats:
            for signal in ai.signals(the_game.observation(state, seat)):
                step(seat, signal)
        mover = the_game.current_player(state) or seats[0]
        step(mover, ai.act(the_game.observation(state, mover), rng))
    return [turn for turn in turns if turn]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_turn_line_of_computer_partners_fits_in_200_characters(players: int) -> None:
    longest = {language: 0 for language in ("en", *languages())}
    for seed in range(30):
        for turn in turn_lines(players, seed):
            line = PRESENTER.summary(turn)
            if line is None:
                continue
            for language in longest:
                text = render(line, language)
                longest[language] = max(longest[language], len(text))
                assert len(text) <= TURN_LINE, (language, text)
                assert text.count("Signal") <= 1, text
    assert longest["en"] > 80  # real lines were measured, not empty ones


def test_one_signal_per_pile_the_latest_and_a_signal_taken_down_is_not_told() -> None:
    ana, ben = BASE, BASE + 1
    state = the_game.GAME.new_game(Setup((ana, ben), 3, frozenset(), the_game.INFO.rules_version))
    hand = the_game.hand(state, ana)
    down = sorted(hand)[-2:]
    moves: list[tuple[int, the_game.Action]] = [
        (ben, Signal("dont_lay", "A")),
        (ben, Signal("small_steps", "B")),
        (ana, Signal("small_steps", "A")),  # the latest on A: ben's is not told any more
        (ben, Signal(the_game.CLEAR, "B")),  # taken down: not told
        (ana, Play(down[1], "C")),
        (ana, Play(down[0], "C")),
        (ana, EndTurn()),
    ]
    line = render(PRESENTER.summary(steps_of(state, moves)), "en")
    assert line == (f"<@{ana}> laid {down[1]}, {down[0]} on C and drew 2 cards. Signals: 🐢 A."), line
    german = render(PRESENTER.summary(steps_of(state, moves)), "de")
    assert german.startswith(f"<@{ana}> hat {down[1]}, {down[0]} auf C gelegt"), german


def test_a_player_who_clears_every_signal_of_theirs_leaves_the_others_standing() -> None:
    ana, ben = BASE, BASE + 1
    state = the_game.GAME.new_game(Setup((ana, ben), 3, frozenset(), the_game.INFO.rules_version))
    moves: list[tuple[int, the_game.Action]] = [
        (ana, Signal("dont_lay", "A")),
        (ben, Signal("dont_lay", "D")),
        (ana, Signal("nearly_stuck", None)),
        (ana, Signal(the_game.CLEAR, None)),
    ]
    assert render(PRESENTER.summary(steps_of(state, moves)), "en") == "Signals: 🛑 D."
