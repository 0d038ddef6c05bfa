"""/me end to end (issue 38): a person's own preferences (misclick guard, pings, language) in a private panel of select
menus, stored per person, winning over the server's settings, kept across a restart, and erased by /forget."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from typing import Any

from engine import the_game
from engine.ai.the_game_guard import regrets
from tests.e2e.conftest import World
from tests.e2e.table_helpers import click_panel, newest_board, open_game, panel_button
from tests.e2e.test_lobby import answer, invoke
from tests.fake_discord import Member, Message
from tests.players import choose, public_messages, saved_state

PANEL = ["me:guard", "me:pings", "me:language"]


def fields(message: Message | None) -> dict[str, str]:
    assert message is not None
    assert message.embeds, message
    return {item["name"]: item["value"] for item in message.embeds[0]["fields"]}


def stored(world: World, user: Member) -> dict[str, Any] | None:
    """A person's preferences as committed, read from outside the bot."""
    with sqlite3.connect(world.database_path) as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (f"prefs:{user.id}",)).fetchone()
    return None if row is None else dict(json.loads(row[0]))


async def open_me(world: World, user: Member, locale: str = "en") -> Message:
    rec = await world.fake.invoke("me", user=user, channel=world.channel, locale=locale)
    shown = answer(rec)
    assert shown.ephemeral  # nobody else sees a person's preferences
    assert shown.message is not None
    return shown.message


async def pick(world: World, panel: Message, custom_id: str, value: str, user: Member) -> Message:
    picked = answer(await world.fake.select(panel, custom_id, [value], user=user))
    assert picked.type == 7, picked  # the panel itself is updated, nothing else posted
    assert picked.message is not None
    return picked.message


async def test_me_shows_and_stores_a_persons_own_choices_across_a_restart(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot():
        panel = await open_me(world, ana)
        assert sorted(row["components"][0]["custom_id"] for row in panel.components) == sorted(PANEL)
        assert fields(panel) == {
            "Misclick guard": "on: a lay that looks like a slip asks once",
            "Pings": "as the server chose (/settings)",
            "Language of what only you see": "my Discord's language",
        }
        panel = await pick(world, panel, "me:guard", "off", ana)
        panel = await pick(world, panel, "me:pings", "off", ana)
        panel = await pick(world, panel, "me:language", "de", ana)
        # The panel now speaks the language she chose, whatever her Discord's.
        assert fields(panel) == {
            "Schutz vor Verklicken": "aus: jede erlaubte Karte wird sofort gelegt",
            "Pings": "aus: niemand erwähnt mich",
            "Sprache von allem, was nur du siehst": "Deutsch",
        }
        assert stored(world, ana) == {"guard": False, "pings": False, "language": "de"}
        assert stored(world, ben) is None  # hers alone
    async with world.bot():  # after a restart: the same, and the open panel still works
        assert fields(await open_me(world, ana))["Pings"] == "aus: niemand erwähnt mich"
        panel = await pick(world, panel, "me:pings", "default", ana)
        assert fields(panel)["Pings"] == "wie der Server es eingestellt hat (/einstellungen)"
        panel = await pick(world, panel, "me:language", "default", ana)
        assert "Misclick guard" in fields(panel)
    assert stored(world, ana) == {"guard": False}


async def test_a_guard_switched_off_lays_a_clearly_worse_card_at_once_for_that_person_only(world: World) -> None:
    members = world.players[:3]
    ana, ben, _carol = members
    async with world.bot(seed=10):
        await pick(world, await open_me(world, ana), "me:guard", "off", ana)
        await open_game(world, members)
        state = saved_state(world)
        # Ben's guard is still on: his worst lay asks first.
        bens = regrets(the_game.observation(state, ben.id))
        his = max(bens, key=lambda play: bens[play])
        his_panel = (await world.fake.click(newest_board(world), label="My hand", user=ben)).original
        assert his_panel is not None
        await click_panel(world, his_panel, ben, "card", his.card)
        assert panel_button(his_panel, "pile", his.card, his.pile)["style"] == 4  # red: it asks first
        # Ana's worst lay goes straight onto its pile: no red button, no question.
        worse = regrets(the_game.observation(state, ana.id))
        bad = max(worse, key=lambda play: worse[play])
        panel = (await world.fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        await click_panel(world, panel, ana, "card", bad.card)
        assert panel_button(panel, "pile", bad.card, bad.pile)["style"] != 4
        await click_panel(world, panel, ana, "pile", bad.card, bad.pile)
        assert "anyway?" not in panel.content
        assert the_game.top(saved_state(world), bad.pile) == bad.card


async def test_pings_switched_off_are_never_sent_to_that_person_whatever_the_server_says(world: World) -> None:
    members = world.players[:3]
    by_id = {m.id: m for m in members}
    fake = world.fake
    ben = members[1]
    async with world.bot(seed=10):
        await pick(world, await open_me(world, ben), "me:pings", "off", ben)
        await open_game(world, members)
        state = saved_state(world)
        turns: Counter[int] = Counter()
        while not the_game.is_over(state) and min(turns[m.id] for m in members) < 2:
            mover = the_game.current_player(state) or members[0].id
            view = the_game.public_view(state)
            tops = {pile.name: pile.top for pile in view.piles}
            play = choose(the_game.hand(state, mover), tops, view.laid, view.minimum or 1)
            if play is not None:
                laid = {"card": play.card, "pile": play.pile}
                await fake.invoke("play", user=by_id[mover], channel=world.channel, options=laid)
            else:
                await fake.invoke("endturn", user=by_id[mover], channel=world.channel)
                upcoming = the_game.current_player(saved_state(world))
                if upcoming is not None:
                    turns[upcoming] += 1
            await fake.wait_idle()
            state = saved_state(world)
        pinged = Counter(u.id for m in public_messages(fake, world.channel) for u in m.pinged)
        assert turns[ben.id] >= 2
        assert pinged[ben.id] == 0
        assert all(pinged[m.id] >= 1 for m in members if m is not ben)  # the others keep the server's pings


async def test_a_chosen_language_wins_for_what_only_that_person_sees(world: World) -> None:
    members = world.players[:3]
    ana = members[0]
    async with world.bot(seed=10):
        await pick(world, await open_me(world, ana), "me:language", "de", ana)
        await open_game(world, members)
        # Her Discord speaks English; her panel speaks the German she chose. The board stays the table's English.
        panel = (await world.fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        assert "Zug beenden" in json.dumps(panel.components)
        assert newest_board(world).embeds[0]["title"] == "The Game"
        assert "My hand" in json.dumps(newest_board(world).components)
        # A refusal is hers alone too: in German.
        refusal = answer(await invoke(world, "endturn", ana))
        assert refusal.ephemeral
        assert refusal.content == "Noch hat niemand eine Karte gelegt: leg die erste, dann hast du den ersten Zug."


async def test_forget_erases_a_persons_preferences(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        await pick(world, await open_me(world, ana), "me:guard", "off", ana)
        assert stored(world, ana) == {"guard": False}
        asked = answer(await invoke(world, "forget", ana))
        assert asked.message is not None
        await world.fake.click(asked.message, label="Forget me", user=ana)
        assert stored(world, ana) is None
        # And the bot no longer acts on them: the panel shows the defaults again.
        assert fields(await open_me(world, ana))["Misclick guard"] == "on: a lay that looks like a slip asks once"


async def test_the_private_pages_speak_the_language_a_person_chose(world: World) -> None:
    """/help, /mygames and /settings answer only the person who asked: in the language they chose in /me, not their
    Discord's (here English)."""
    ana, ben = world.players[:2]
    async with world.bot():
        await pick(world, await open_me(world, ana), "me:language", "de", ana)
        helped = answer(await invoke(world, "help", ana))
        assert helped.ephemeral
        assert helped.embeds[0]["title"] == "Die Befehle"
        refused = answer(await invoke(world, "mygames", ana))
        assert refused.ephemeral
        assert refused.content == "Du sitzt an keinem Tisch. /neuesspiel eröffnet einen."
        shown = answer(await invoke(world, "settings", ana))
        assert shown.embeds[0]["title"] == "Einstellungen der Kartentische dieses Servers"
        # Someone who chose nothing reads their Discord's language.
        assert answer(await invoke(world, "help", ben)).embeds[0]["title"] == "The commands"
