"""The slash commands reach Discord in German, French and Spanish, and the English names keep working for everyone."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import discord
import pytest

import i18n
from i18n.slash import COMMAND_LOCALES, reader_locale, table_locale_for
from tests.e2e.conftest import World

LOCALES = {locale.value for locale in COMMAND_LOCALES}


def option(command: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in command["options"] if o["name"] == name)


async def test_the_synced_commands_carry_names_descriptions_and_choices_in_every_locale_with_a_catalog(
    world: World,
) -> None:
    async with world.bot():
        synced = {c["name"]: c for c in world.fake.commands()}
        assert synced
        assert {"de", "fr", "es-ES", "es-419"} <= LOCALES
        for name, command in synced.items():
            assert set(command["name_localizations"]) == LOCALES, name
            assert set(command["description_localizations"]) == LOCALES, name
            for opt in command["options"]:
                assert set(opt["description_localizations"]) == LOCALES, (name, opt["name"])
                assert set(opt["name_localizations"]) == LOCALES, (name, opt["name"])
                for choice in opt.get("choices", []):
                    assert set(choice["name_localizations"]) == LOCALES, (name, choice["name"])

        newgame = synced["newgame"]
        assert (
            newgame["name_localizations"].items()
            >= {
                "de": "neuesspiel",
                "fr": "nouvellepartie",
                "es-ES": "nuevapartida",
                "es-419": "nuevapartida",
            }.items()
        )  # and a name in every other language with a catalog (the set is checked above)
        assert newgame["description_localizations"]["fr"] == "Ouvre une partie dans ce salon, dont tu seras l'hôte."
        pile = option(synced["play"], "pile")
        assert pile["name_localizations"]["de"] == "stapel"
        # The pile letter and its arrow stay; the values the bot receives are never translated.
        assert [(c["name_localizations"]["es-419"], c["value"]) for c in pile["choices"]] == [
            ("A ↑ ascendente", "A"),
            ("B ↑ ascendente", "B"),
            ("C ↓ descendente", "C"),
            ("D ↓ descendente", "D"),
        ]

        # Whatever a German player's client shows, the interaction names the command and its options in English.
        answer = await world.fake.invoke(
            "rules", user=world.players[0], channel=world.channel, options={"game": "no_thanks"}, locale="de"
        )
        assert answer.response is not None


async def test_a_restart_syncs_again_only_when_a_translation_changed(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world.bot():
        pass
    syncs = len(world.fake.command_syncs)
    async with world.bot():
        assert len(world.fake.command_syncs) == syncs

    # A translator rewords one German description: the next start sends it.
    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES_DIR, locales)
    german = locales / "de" / "LC_MESSAGES" / "messages.po"
    before = 'msgstr "Eine Handkarte auf einen Stapel legen."'
    assert before in german.read_text()
    german.write_text(german.read_text().replace(before, 'msgstr "Lege eine Karte aus deiner Hand auf einen Stapel."'))
    monkeypatch.setattr(i18n, "LOCALES_DIR", locales)
    i18n.translations.cache_clear()
    try:
        async with world.bot():
            assert len(world.fake.command_syncs) == syncs + 1
            play = next(c for c in world.fake.commands() if c["name"] == "play")
            assert play["description_localizations"]["de"] == "Lege eine Karte aus deiner Hand auf einen Stapel."
    finally:
        i18n.translations.cache_clear()


async def test_the_reader_is_the_person_who_typed_and_the_table_is_the_server(world: World) -> None:
    seen: list[discord.Interaction[Any]] = []
    async with world.bot() as bot:

        async def note(interaction: discord.Interaction[Any]) -> None:
            seen.append(interaction)

        bot.add_listener(note, "on_interaction")
        await world.fake.invoke("rules", user=world.players[0], channel=world.channel, options={}, locale="es-419")
    (interaction,) = seen
    assert reader_locale(interaction) == "es-419"
    assert table_locale_for(interaction) == "en-US"  # the fake server's Discord locale
    assert table_locale_for(interaction.guild) == "en-US"
    assert table_locale_for(interaction, chosen="fr") == "fr"  # the server's own choice wins
    assert table_locale_for(None) == "en"


@pytest.mark.parametrize(
    ("change", "refused"),
    [
        ({"name_localizations": {"de": "Neues Spiel"}}, "Invalid name"),
        ({"name_localizations": {"xx": "neu"}}, "Invalid Locale"),
        ({"description_localizations": {"fr": "x" * 101}}, "100 in length"),
    ],
)
async def test_the_fake_refuses_localisations_discord_refuses(
    world: World, change: dict[str, Any], refused: str
) -> None:
    command = {"name": "newgame", "description": "Open a game.", "type": 1, **change}
    async with world.bot() as bot:
        assert bot.application_id is not None
        with pytest.raises(discord.HTTPException, match=refused):
            await bot.http.bulk_upsert_global_commands(bot.application_id, [command])
    assert len(world.fake.violations) == 1
    world.fake.violations.clear()  # refused on purpose: keep the fixture's check for the bot's own requests


async def test_two_commands_may_not_share_a_name_in_a_language(world: World) -> None:
    commands = [
        {"name": "take", "description": "Take it.", "name_localizations": {"fr": "prendre"}},
        {"name": "grab", "description": "Grab it.", "name_localizations": {"fr": "prendre"}},
    ]
    async with world.bot() as bot:
        assert bot.application_id is not None
        with pytest.raises(discord.HTTPException, match="unique"):
            await bot.http.bulk_upsert_global_commands(bot.application_id, commands)
    assert len(world.fake.violations) == 1
    world.fake.violations.clear()  # refused on purpose: keep the fixture's check for the bot's own requests
