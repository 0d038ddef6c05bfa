"""The catalogs stay complete: every text of the code is in every catalog, translated, with its placeholders and
plural forms; and the checks that say so do catch each kind of gap."""

from __future__ import annotations

import asyncio
import fnmatch
import tomllib
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
from discord.app_commands import TranslationContextLocation as Where

import i18n
from i18n.checks import (
    TRANSLATED_LANGUAGES,
    Source,
    code_sources,
    coverage_problems,
    read_catalog,
    translation_problems,
)
from i18n.slash import COMMAND_LOCALES, localize_command_string
from tools.i18n_update import all_sources

ROOT = Path(__file__).resolve().parents[2]
Catalogs = Callable[..., Path]


@pytest.fixture(scope="module")
def sources() -> list[Source]:
    return asyncio.run(all_sources())  # once for the module: it loads every extension into an offline bot


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_catalog_translates_everything_with_its_placeholders_and_plural_forms(language: str) -> None:
    assert translation_problems(read_catalog(language)) == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_catalog_holds_exactly_the_texts_of_the_code_and_the_commands(
    language: str, sources: list[Source]
) -> None:
    # Run tools/i18n_update.py when this fails, then translate what it added.
    assert {source.context for source in sources} >= {"command name", "command description", "option choice"}
    assert coverage_problems(read_catalog(language), sources) == []


def test_the_catalogs_are_installed_with_the_package() -> None:
    """``pip install .`` ships what the bot reads at run time: every catalog matches the package data."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["i18n"]
    shipped = sorted(path.relative_to(i18n.LOCALES_DIR.parent).as_posix() for path in i18n.LOCALES_DIR.rglob("*.po"))
    assert len(shipped) == len(TRANSLATED_LANGUAGES)
    assert all(any(fnmatch.fnmatch(path, pattern) for pattern in patterns) for path in shipped)
    assert "Babel" in " ".join(config["project"]["dependencies"])


def test_commands_read_the_catalog_of_their_language() -> None:
    # Four of the locales with a catalog (a language added later brings its own).
    german, french, spain, latin_america = (
        discord.Locale.german,
        discord.Locale.french,
        discord.Locale.spain_spanish,
        discord.Locale.latin_american_spanish,
    )
    assert {german, french, spain, latin_america} <= set(COMMAND_LOCALES)
    assert localize_command_string("newgame", german, Where.command_name) == "neuesspiel"
    assert localize_command_string("play", french, Where.command_name) == "poser"
    assert localize_command_string("play", spain, Where.command_name) == "jugar"
    assert localize_command_string("play", latin_america, Where.command_name) == "jugar"
    assert localize_command_string("A ↑ ascending", german, Where.choice_name) == "A ↑ aufsteigend"
    assert localize_command_string("The Game", german, Where.choice_name) == "The Game"  # the same in German
    # Other locales, English among them, get no localisation: Discord shows them the English.
    assert localize_command_string("play", discord.Locale.japanese, Where.command_name) is None
    assert localize_command_string("play", discord.Locale.american_english, Where.command_name) is None


# ---- the checks themselves -----------------------------------------------------------------------------------------


def test_the_checks_catch_missing_dropped_added_and_malformed_translations(catalogs: Catalogs) -> None:
    catalogs(
        "de",
        [
            ("{player} laid {card}", "{player} legte"),  # drops {card}
            ("Your turn", "Du bist dran, {player}"),  # adds {player}
            ("Draw pile", ""),  # untranslated
            ("Pass", "Passen"),
            (("{count} card", "{count} cards"), ("eine Karte", "")),  # a plural form missing
            (("{count} chip", "{count} chips"), ("eine Chip", "Chips")),  # the form for many drops {count}
            ("Clock: {left}", "Uhr: {left"),  # malformed
            ("play", "Legen", "command name"),  # Discord wants names lowercase
            ("hand", "hand karten", "command name"),  # and without spaces
            ("See /hand", "Siehe /hand", "option description"),  # not the German name of /hand
            ("**Your turn**", "**Du bist dran*"),  # bold that never closes
        ],
        fuzzy=frozenset({"Pass"}),
    )
    problems = "\n".join(translation_problems(read_catalog("de")))
    for expected in (
        "'{player} laid {card}'",
        "drops ['card']",
        "adds ['player']",
        "'Draw pile' is not translated",
        "'Pass' is marked fuzzy",
        "'{count} card' is not translated",
        "'Chips' drops ['count']",
        "is malformed",
        "'Legen' is not a Discord name",
        "'hand karten' is not a Discord name",
        "names /hand: say /hand karten",
        "has 1 ** where the English has 2",
    ):
        assert expected in problems
    assert "eine Karte" not in problems  # a form for one thing may leave out {count}


def test_the_checks_catch_a_text_of_the_code_that_no_catalog_holds(catalogs: Catalogs, tmp_path: Path) -> None:
    code = tmp_path / "cogs" / "example.py"
    code.parent.mkdir()
    code.write_text(
        "from i18n import _, _n, _p\n"
        "a = _('Your turn, {player}', player=name)\n"
        "b = _n('{count} card', '{count} cards', n)\n"
        "c = _p('button', 'Take')\n"
    )
    catalogs("fr", [("Your turn, {player}", "À toi, {player}"), ("Gone", "Parti")])
    found = code_sources(tmp_path, [code])
    assert [(s.context, s.msgid, s.plural) for s in found] == [
        (None, "Your turn, {player}", None),
        (None, "{count} card", "{count} cards"),
        ("button", "Take", None),
    ]
    problems = coverage_problems(read_catalog("fr"), found)
    assert problems == [
        "fr: missing cogs/example.py:3: '{count} card'",
        "fr: missing cogs/example.py:4: 'Take' [button]",
        "fr: 'Gone' is in no code any more",
    ]
