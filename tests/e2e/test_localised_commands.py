"""The slash commands reach Discord in German, French and Spanish, and the English names keep working for everyone."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import World

LOCALES = {"de", "fr", "es-ES", "es-419"}


def option(command: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in command["options"] if o["name"] == name)


async def test_the_synced_commands_carry_names_descriptions_and_choices_in_the_four_locales(world: World) -> None:
    async with world.bot():
        synced = {c["name"]: c for c in world.fake.commands()}
        assert synced
        for name, command in synced.items():
            assert set(command["name_localizations"]) == LOCALES, name
            assert set(command["description_localizations"]) == LOCALES, name
            for opt in command["options"]:
                assert set(opt["description_localizations"]) == LOCALES, (name, opt["name"])
                assert set(opt["name_localizations"]) == LOCALES, (name, opt["name"])
                for choice in opt.get("choices", []):
                    assert set(choice["name_localizations"]) == LOCALES, (name, choice["name"])

        newgame = synced["newgame"]
        assert newgame["name_localizations"] == {
            "de": "neuesspiel",
            "fr": "nouvellepartie",
            "es-ES": "nuevapartida",
            "es-419": "nuevapartida",
        }
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


async def test_a_restart_with_the_same_catalogs_does_not_sync_again(world: World) -> None:
    async with world.bot():
        pass
    syncs = len(world.fake.command_syncs)
    async with world.bot():
        assert len(world.fake.command_syncs) == syncs
