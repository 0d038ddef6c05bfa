"""Adding a language works as written (issue 33): a catalog dropped into the locales folder is a language for the
bot's texts, its slash commands, /settings and the catalog checks, with no list to edit anywhere."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from babel.messages.pofile import read_po, write_po
from discord.app_commands import TranslationContextLocation as Where

import i18n
from i18n import _p, render
from i18n.checks import read_catalog, translated_languages, translation_problems
from i18n.slash import command_locales, localize_command_string
from tests.e2e.conftest import World
from tests.e2e.test_server_settings import choose, manager, open_panel, saved
from tools.i18n_update import new_language_problem

NEWGAME = "Open a game in this channel and join it as the host."
ITALIAN = {
    ("command description", NEWGAME): "Apri una partita in questo canale, come host.",
    ("menu", "Language: {language}"): "Lingua: {language}",
}


def write_stub(folder: Path, *, untranslated: str | None = None) -> Path:
    """An Italian catalog as a translator would start it from the Spanish one, a few entries in Italian."""
    with (folder / "es" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, domain=i18n.DOMAIN)
    catalog.locale = "it"  # type: ignore[assignment]  # Babel parses a code given as text
    for (context, msgid), text in ITALIAN.items():
        message = catalog.get(msgid, context=context)
        assert message is not None, msgid
        message.string = text
    if untranslated is not None:
        message = catalog.get(untranslated)
        assert message is not None
        message.string = ""
    path = folder / "it" / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as po:
        write_po(po, catalog, width=120)
    return path


def forget_catalogs() -> None:
    i18n.translations.cache_clear()


@pytest.fixture
def italian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The shipped catalogs and an Italian stub, in a folder of the test's own that the bot reads instead."""
    folder = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, folder)
    write_stub(folder)
    monkeypatch.setattr(i18n, "LOCALES_DIR", folder)
    forget_catalogs()
    yield folder
    forget_catalogs()


def test_a_new_catalog_is_a_language_for_texts_commands_and_checks(italian: Path) -> None:
    assert "it" in i18n.languages()
    assert "it" not in i18n.LANGUAGES  # the shipped ones: no Italian was harmed
    assert i18n.language("it") == "it"
    assert render(_p("menu", "Language: {language}", language="Italiano"), "it") == "Lingua: Italiano"
    assert discord.Locale.italian in command_locales()
    italian_description = localize_command_string(NEWGAME, discord.Locale.italian, Where.command_description)
    assert italian_description == "Apri una partita in questo canale, come host."
    # The checks read it like the others: complete, and a gap is named.
    assert "it" in translated_languages()
    assert translation_problems(read_catalog("it")) == []
    write_stub(italian, untranslated="Waiting for players.")
    assert any("'Waiting for players.' is not translated" in p for p in translation_problems(read_catalog("it")))
    # tools/i18n_update.py --add starts a language only once, and only one Discord has.
    assert new_language_problem("it", list(translated_languages())) == "it has a catalog already"
    assert new_language_problem("pt", list(translated_languages())) is None
    assert new_language_problem("tlh", list(translated_languages())) is not None


async def test_settings_offers_a_new_language_and_its_commands_are_synced_in_it(world: World, italian: Path) -> None:
    ana = manager(world)
    async with world.bot():
        newgame = next(c for c in world.fake.commands() if c["name"] == "newgame")
        assert newgame["description_localizations"]["it"] == "Apri una partita in questo canale, come host."
        panel = await open_panel(world, ana)
        menu = next(
            row["components"][0] for row in panel.components if row["components"][0]["custom_id"] == "settings:language"
        )
        offered = {option["value"]: option["label"] for option in menu["options"]}
        assert offered["it"] == "Language: Italiano"
        assert {"auto", "en", "de", "fr", "es"} <= set(offered)
        panel = await choose(world, panel, "settings:language", ["it"], ana)
        assert {f["name"]: f["value"] for f in panel.embeds[0]["fields"]}["Language of the tables"] == "Italiano"
    assert saved(world).language == "it"
