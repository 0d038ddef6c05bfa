"""One name per game per language (issue 38): the name a player picks in /newgame's list is the one the board, the
start text and every sentence use. Each game keeps its box name in every language ("The Game", "No Thanks!")."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from i18n import LOCALES_DIR, SOURCE_LANGUAGE, languages
from table.registry import GAMES


@pytest.mark.parametrize("language", [code for code in languages() if code != SOURCE_LANGUAGE])
def test_every_text_naming_a_game_names_it_as_the_game_list_does(language: str) -> None:
    with (LOCALES_DIR / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file)
    names = [game.info.title for game in GAMES.values()]
    for name in names:
        choice = catalog.get(name, context="option choice")
        assert choice is not None
        assert choice.string == name
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for name in names:
            if any(name in text for text in ids):
                assert all(name in text for text in strings), (message.id, message.string)
