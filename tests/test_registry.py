"""One registration per game (issue 35): what the registry hands the core, and what a game without the optional parts
gets instead (the race of ``tests/third_game``: no computer player, no picture, no first-game texts)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cogs import no_thanks as no_thanks_adapter
from cogs import the_game as the_game_adapter
from cogs._learning import AT_ANY_TABLE, FIRST_ANY_GAME, at_the_table, first_game_note
from engine import ai, no_thanks, the_game
from engine.ai import AIPlayer
from engine.game import NO_NUMBERS_IN_CHAT, Game, Setup
from i18n import render
from storage import GameRecord, NewGame
from storage.sqlite import SQLiteStorage
from table.events import Events
from table.games import Games, GameUnavailable
from table.registry import GAMES, REGISTRY, computer_player, register, registered, registration, unregister
from table.seats import decide, stand_in
from tests.third_game import rules as race
from tests.third_game import table as race_table


@pytest.fixture
def race_hosted() -> Iterator[None]:
    register(race_table.REGISTRATION)
    yield
    unregister(race.INFO.kind)


def test_each_game_is_registered_once_with_all_it_brings() -> None:
    assert list(REGISTRY) == ["the_game", "no_thanks"]  # the first is the lobby's default
    assert [hosted.kind for hosted in registered()] == list(REGISTRY)
    hosted = REGISTRY["the_game"]
    assert hosted is the_game_adapter.REGISTRATION
    assert (hosted.game, hosted.ai, hosted.extension) == (the_game.GAME, ai.THE_GAME, "cogs.the_game")
    assert hosted.presenter.game is the_game.GAME
    assert hosted.end_picture is not None
    assert REGISTRY["no_thanks"] is no_thanks_adapter.REGISTRATION
    assert REGISTRY["no_thanks"].end_picture is None  # No Thanks!'s end screen has no picture
    assert at_the_table("the_game") is hosted.at_the_table is not None
    assert first_game_note("no_thanks") is REGISTRY["no_thanks"].first_game is not None


def test_the_rules_view_follows_the_registry(race_hosted: None) -> None:
    assert GAMES["race"] is race.GAME
    assert "race" in GAMES
    assert list(GAMES) == list(REGISTRY)
    unregister("race")
    assert "race" not in GAMES
    with pytest.raises(KeyError):
        GAMES["race"]


def test_a_presenter_of_another_game_is_refused() -> None:
    wrong = replace(race_table.REGISTRATION, game=no_thanks.GAME)
    with pytest.raises(ValueError, match="presents another game"):
        register(wrong)
    assert registration("no_thanks") is no_thanks_adapter.REGISTRATION


def test_a_game_that_removes_numbers_from_chat_must_say_why(race_hosted: None) -> None:
    """The chat rule's words are the game's own (The Game's names its piles): the generic moderation has none."""
    silent = replace(race.GAME, info=replace(race.INFO, kind="silent", capabilities=frozenset({NO_NUMBERS_IN_CHAT})))
    presenter = replace_presenter(silent)
    with pytest.raises(ValueError, match="tells nobody why"):
        register(replace(race_table.REGISTRATION, game=silent, presenter=presenter))
    assert registration("silent") is None
    rule = REGISTRY["the_game"].chat_rule
    assert rule is not None
    assert "<#5>" in render(rule.told("<#5>"), "en")
    assert render(rule.notice("@ana"), "de").startswith("@ana")


def replace_presenter(game: Game[Any, Any]) -> Any:
    presenter = copy.copy(race_table.PRESENTER)
    presenter.game = game
    return presenter


def test_a_second_game_under_a_registered_kind_is_refused() -> None:
    impostor = replace(the_game_adapter.REGISTRATION, ai=None)
    with pytest.raises(ValueError, match="Another game is registered as 'the_game'"):
        register(impostor)
    assert register(the_game_adapter.REGISTRATION) is REGISTRY["the_game"]  # the same one again changes nothing
    assert computer_player("the_game") is ai.THE_GAME


def test_a_game_without_the_optional_parts_gets_the_generic_ones(race_hosted: None) -> None:
    assert computer_player("race") is None
    assert race_table.REGISTRATION.end_picture is None
    assert at_the_table("race") is AT_ANY_TABLE
    assert first_game_note("race") is FIRST_ANY_GAME
    assert not race.INFO.has_secrets
    # The autopilot's move for an away person is the game's own safe move, as there is no computer player.
    state = race.new_game(Setup((1, 2), seed=0))
    assert stand_in("race", race.GAME, state, 1) == race.Add(1)


def test_an_unknown_kind_has_nothing() -> None:
    assert registration("chess") is None
    assert computer_player("chess") is None
    assert at_the_table("chess") is AT_ANY_TABLE


def failing(observation: object, rng: random.Random) -> object:
    raise RuntimeError("the computer player broke")


def test_a_computer_player_that_fails_plays_the_games_safe_move(race_hosted: None) -> None:
    """The safe move is written once, in the rules (``Game.default_action``): the same for the autopilot and for a
    computer player whose decision failed."""
    broken: AIPlayer[race.State, race.Action] = AIPlayer(act=failing, signals=lambda observation: [])
    unregister("race")
    register(replace(race_table.REGISTRATION, ai=broken))
    state = race.new_game(Setup((1, 2), seed=0))
    assert decide("race", race.GAME, state, 1) == race.GAME.default_action(state, 1) == race.Add(1)
    # A computer player that plays the autopilot stands in for an away person too, and fails the same safe way.
    assert stand_in("race", race.GAME, state, 1) == race.Add(1)


async def test_the_core_finds_a_games_presenter_by_its_registration(tmp_path: Path, race_hosted: None) -> None:
    storage = await SQLiteStorage.open(str(tmp_path / "bot.sqlite3"))
    try:
        games = Games(storage, Events())
        created = await storage.create_game(NewGame(10, 1, "race", 1, (1, 2), (), 5, 1))
        assert games.presenter(created) is race_table.PRESENTER
        unregister("race")
        stray: GameRecord = await storage.update_game(created, status="running", started_at="now")
        with pytest.raises(GameUnavailable):
            games.presenter(stray)
    finally:
        await storage.close()
