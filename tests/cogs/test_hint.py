"""The Game's Hint without Discord: which tables offer it, the panel's button, the answer's words, and
``Panels.hint`` (refused out of turn, at a table of people and for an earlier game's panel; the game marked)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import discord
import pytest

from cogs.the_game_panel import hand_panel, hint_text
from engine import the_game
from engine.the_game import EndTurn, Play
from i18n import _, render
from storage import GameRecord, NewGame
from storage.sqlite import SQLiteStorage
from table.answer import UserError
from table.buttons import Buttons, Press
from table.events import Events
from table.games import Games
from table.panels import HINTS_ON_YOUR_TURN, NO_HINTS_HERE, Panels, offers_hint

ANA, BEN, BOT = 101, 102, -1
CHANNEL = 10


def record(players: tuple[int, ...], kind: str = "the_game") -> GameRecord:
    return GameRecord(1, CHANNEL, 1, kind, players[0], players, (), 7, 1, "running", 0, 0)


def test_hint_is_offered_at_a_solo_table_or_with_a_computer_player_where_the_game_has_one() -> None:
    assert offers_hint(record((ANA,)))
    assert offers_hint(record((ANA, BOT)))
    assert offers_hint(record((ANA, BEN, BOT)))
    assert not offers_hint(record((ANA, BEN)))
    assert not offers_hint(record((ANA,), kind="no_thanks"))  # its computer player gives no hint
    assert not offers_hint(record((ANA,), kind="a game nobody registered"))


def hint_button(message: dict[str, Any]) -> Press | None:
    view: Buttons = message["view"]
    found = [press for press in view.presses if ":hint:" in press.custom_id]
    assert len(found) <= 1
    return found[0] if found else None


def test_the_panel_shows_hint_where_offered_and_only_on_ones_turn() -> None:
    state = the_game.new_game((ANA, BOT), seed=3)
    button = hint_button(hand_panel(record((ANA, BOT)), state, ANA, None, "en"))
    assert button is not None
    assert button.label == "Hint (this game won't rank for you)"
    assert not button.disabled  # anyone may lay the first card
    german = hint_button(hand_panel(record((ANA, BOT)), state, ANA, None, "de"))
    assert german is not None
    assert german.label == "Tipp (das Spiel zählt dann nicht für dich)"
    state = the_game.apply(state, BOT, Play(next(iter(the_game.hand(state, BOT))), "A"))
    waiting = hint_button(hand_panel(record((ANA, BOT)), state, ANA, None, "en"))
    assert waiting is not None
    assert waiting.disabled  # the computer player's turn
    people = the_game.new_game((ANA, BEN), seed=3)
    assert hint_button(hand_panel(record((ANA, BEN)), people, ANA, None, "en")) is None
    assert hint_button(hand_panel(record((ANA,)), the_game.new_game((ANA,), seed=3), ANA, "signals", "en")) is None


def test_the_hint_names_the_card_the_pile_and_why() -> None:
    state = the_game.new_game((ANA,), seed=3)
    why = _("No card of yours fits any pile.")
    card = the_game.hand(state, ANA)[0]
    said = render(hint_text(state, Play(card, "C"), why), "en")
    assert said.splitlines() == [
        f"💡 Hint: lay {card} on C ↓ (100 → {card}).",
        "No card of yours fits any pile.",
        "This game no longer counts on your leaderboard; your partners' results still do.",
    ]
    assert render(hint_text(state, EndTurn(), why), "fr").startswith("💡 Conseil : termine ton tour")


@pytest.fixture
async def games(tmp_path: Path) -> AsyncIterator[Games]:
    storage = await SQLiteStorage.open(str(tmp_path / "bot.sqlite3"))
    flow = Games(storage, Events())
    yield flow
    await storage.close()


async def running(games: Games, players: tuple[int, ...]) -> GameRecord:
    created = await games.storage.create_game(NewGame(CHANNEL, 1, "the_game", players[0], players, (), 5, 1))
    return await games.storage.update_game(created, status="running", started_at="now")


def no_compose(*args: Any) -> dict[str, Any]:
    raise AssertionError("a hint composes no panel")


async def test_a_hint_is_given_on_ones_turn_from_ones_seat_and_marks_the_game(games: Games) -> None:
    panels = Panels(cast(discord.Client, None), games, no_compose)
    game = await running(games, (ANA, BOT))
    live, given = await panels.hint(CHANNEL, ANA, "the_game", game.id)
    assert isinstance(given.action, Play)
    assert given.action.card in the_game.hand(live.state, ANA)
    marked = await games.storage.game(game.id)
    assert marked is not None
    assert marked.hinted
    with pytest.raises(UserError) as stale:
        await panels.hint(CHANNEL, ANA, "the_game", game.id + 1)
    assert "earlier game" in render(stale.value.text, "en")
    with pytest.raises(UserError):
        await panels.hint(CHANNEL, BEN, "the_game", game.id)  # not at this table


async def test_a_hint_is_refused_out_of_turn_and_at_a_table_of_people(games: Games) -> None:
    panels = Panels(cast(discord.Client, None), games, no_compose)
    game = await running(games, (ANA, BOT))
    live, _presenter = await games.running(CHANNEL)
    await games.play(CHANNEL, BOT, Play(the_game.hand(live.state, BOT)[0], "A"))
    with pytest.raises(UserError) as waiting:
        await panels.hint(CHANNEL, ANA, "the_game", game.id)
    assert waiting.value.text == HINTS_ON_YOUR_TURN
    unmarked = await games.storage.game(game.id)
    assert unmarked is not None
    assert not unmarked.hinted  # nothing was told, so nothing is marked
    await games.storage.update_game(unmarked, status="abandoned")
    people = await running(games, (ANA, BEN))
    with pytest.raises(UserError) as refused:
        await panels.hint(CHANNEL, ANA, "the_game", people.id)
    assert refused.value.text == NO_HINTS_HERE
