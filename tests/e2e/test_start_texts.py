"""Issue 38: the start text teaches the panel, not slash commands, says who may lay the first card, and shows a
deadline only where it applies to the player it names (never the host's while anyone may start), in English and
German alike."""

from __future__ import annotations

import pytest

from engine import no_thanks
from tests.e2e.conftest import World
from tests.e2e.table_helpers import newest_board
from tests.e2e.test_clock import fast
from tests.players import public_messages, saved_state

TEXTS = {
    "en": {
        "teaches": ("Press **My hand** under the board", "**End turn**"),
        "first": "Anyone may lay the first card, and whoever does takes the first turn;",
        "commands": ("/play", "/endturn"),
    },
    "de": {
        "teaches": ("Drückt **Meine Hand** unter dem Spielfeld", "**Zug beenden**"),
        "first": "Jeder darf die erste Karte legen, und wer das tut, hat den ersten Zug.",
        "commands": ("/legen", "/zugbeenden"),
    },
}


async def deal(world: World, game: str, turn_time: str) -> None:
    ana, ben, cy = world.players[:3]
    options = {"game": game, "turn_time": turn_time}
    await world.fake.invoke("newgame", user=ana, channel=world.channel, options=options)
    for member in (ben, cy):
        await world.fake.invoke("join", user=member, channel=world.channel)
    await world.fake.invoke("start", user=ana, channel=world.channel)
    await world.fake.wait_idle()


@pytest.mark.parametrize("language", ["en", "de"])
async def test_the_games_start_teaches_the_panel_and_shows_the_host_no_deadline(world: World, language: str) -> None:
    world.guild.preferred_locale = language
    words = TEXTS[language]
    async with world.bot(seed=5):
        await deal(world, "the_game", "3 minutes")
        board = newest_board(world)
        text = board.content
        for taught in words["teaches"]:
            assert taught in text, text
        assert words["first"] in text, text
        for command in words["commands"]:
            assert command not in text, text
        # Anyone may lay the first card: no deadline names the host (the clock waits on the host's seat all the same).
        assert "⏰" not in text, text
        assert f"<@{world.players[0].id}>'s" not in text


@pytest.mark.parametrize("language", ["en", "de"])
async def test_no_thanks_start_names_the_first_mover_with_their_deadline(world: World, language: str) -> None:
    world.guild.preferred_locale = language
    async with world.bot(seed=5):
        await deal(world, "no_thanks", "3 minutes")
        first = no_thanks.current_player(saved_state(world))
        text = public_messages(world.fake, world.channel)[-1].content
        if language == "en":
            assert f"<@{first}> goes first: press **Take** or **No thanks!** under the board." in text, text
            assert f"⏰ <@{first}>'s turn ends <t:" in text
        else:
            assert f"<@{first}> fängt an: drück **Nehmen** oder **Nein danke!** unter dem Spielfeld." in text, text
            assert f"⏰ Der Zug von <@{first}> endet <t:" in text
        assert "/take" not in text
        assert "/nehmen" not in text


@pytest.mark.parametrize("language", ["en", "de"])
async def test_before_the_first_card_only_the_host_is_told_the_clock_waits_on_them(world: World, language: str) -> None:
    world.guild.preferred_locale = language
    host = world.players[0]
    async with world.bot(seed=5) as bot:
        fast(bot)
        await deal(world, "the_game", "30 seconds")
        reminder = await world.fake.wait_message(world.channel, lambda m: "⏰" in m.content, timeout=5)
        expected = {
            "en": f"⏰ <@{host.id}>, nobody has laid the first card yet: if nobody does, the autopilot lays one",
            "de": f"⏰ <@{host.id}>, noch hat niemand die erste Karte gelegt: Wenn das niemand tut, legt der Autopilot",
        }[language]
        assert reminder.content.startswith(expected), reminder.content
        assert [u.id for u in reminder.pinged] == [host.id]  # the one it applies to
