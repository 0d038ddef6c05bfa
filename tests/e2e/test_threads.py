"""Games in threads, through the fake Discord: a thread is a table of its own (lobby, board, DMs, moderation), and
``/newgame thread:True`` opens the game in a new thread so that the channel keeps only the notice and the result."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from dataclasses import replace
from typing import Any

from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.test_the_game import Table
from tests.fake_discord import PRIVATE_THREAD, PUBLIC_THREAD, Channel, Member, Message, Perm
from tests.players import answer, public_messages, sabotage, saved_row

THREAD_ROUTE = "/channels/{channel_id}/messages/{message_id}/threads"
# With this bot seed the first game's one player lays one card, then nothing fits (93 cards never laid).
SHORT_GAME = 3


def games_in(world: World, channel: Channel) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(world.database_path)) as db:
        db.row_factory = sqlite3.Row
        rows: list[sqlite3.Row] = db.execute("SELECT * FROM games WHERE channel_id = ?", (channel.id,)).fetchall()
    return rows


def requests_to(world: World, method: str, route: str, **where: int) -> int:
    """How many requests the bot made to ``route``, with the given path segments (``channel_id=...``)."""
    pattern = re.escape(route)
    for name in re.findall(r"{(\w+)}", route):
        pattern = pattern.replace(re.escape(f"{{{name}}}"), str(where[name]) if name in where else "[0-9]+")
    return sum(
        1
        for r in world.fake.bot_requests
        if r.method == method and r.route == route and re.search(pattern + "$", r.path)
    )


async def number_is_removed(world: World, thread: Channel, member: Member) -> None:
    """The Game's rule holds in the thread: a number is removed and its author told privately; other talk stays."""
    fake = world.fake
    dms = len(fake.dms(member))
    bad = await fake.send_message(thread, member, "I hold the forty-two, lay on B?")
    good = await fake.send_message(thread, member, "no big jump on B please")
    await fake.wait_for(lambda: bad.deleted, what="the number in the thread to be removed")
    told = await fake.wait_dm(member, lambda m: "reveal card numbers" in m.content)
    assert f"<#{thread.id}>" in told.content
    assert len(fake.dms(member)) == dms + 1
    await fake.invoke("rules", user=world.spectator, channel=world.other_channel)  # a round trip: all was handled
    assert not good.deleted


async def play_short_game(table: Table) -> None:
    last = await table.play_to_end(sabotage)
    table.check_game_over(last)
    assert the_game.score(table.replica()) == 93


def thread_lobby(world: World, thread: Channel) -> Message:
    lobbies = [m for m in public_messages(world.fake, thread) if m.embeds and m.embeds[0]["title"].endswith("lobby")]
    assert len(lobbies) == 1, lobbies
    return lobbies[0]


async def test_a_whole_game_in_a_thread_with_a_number_removed_and_the_channel_left_alone(world: World) -> None:
    fake, ana, ben = world.fake, world.players[0], world.players[1]
    thread = fake.add_channel(world.guild, "game night", type=PUBLIC_THREAD, parent=world.channel, owner=ana)
    at_thread = replace(world, channel=thread)
    async with world.bot(seed=SHORT_GAME) as bot:
        table = Table(at_thread, bot, [ana])
        await table.open()  # lobby, board and buttons in the thread; the hand by DM
        assert saved_row(at_thread)["status"] == "running"
        await number_is_removed(world, thread, ben)
        # The talk that stayed is below the board: /board brings it below the talk (else the next card would).
        await fake.invoke("board", user=ben, channel=thread)
        await play_short_game(table)
        assert saved_row(at_thread)["status"] == "finished"
        # Moderation ends with the game.
        after = await fake.send_message(thread, ben, "that was 93 cards too many")
        await fake.invoke("rules", user=world.spectator, channel=world.other_channel)
        assert not after.deleted
        # The channel the thread hangs off saw nothing, and is free: a game of its own opens there.
        assert not fake.bot_messages(world.channel)
        assert not games_in(world, world.channel)
        opened = await fake.invoke("newgame", user=ben, channel=world.channel)
        assert answer(opened).embeds[0]["title"] == "The Game: lobby"
        await fake.wait_idle()


async def test_the_thread_option_opens_the_game_in_a_new_thread_and_the_channel_gets_the_result(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    async with world.bot(seed=SHORT_GAME) as bot:
        opened = await fake.invoke("newgame", user=ana, channel=world.channel, options={"thread": True})
        notice = opened.original
        assert notice is not None
        assert not notice.ephemeral
        assert not notice.buttons
        assert not notice.embeds
        # The thread is started from the notice (so it takes its id), named after the game and the host.
        await fake.wait_for(lambda: "<#" in notice.content, what="the notice to link to the thread")
        thread = fake.channels[notice.id]
        assert thread.is_thread
        assert thread.parent_id == world.channel.id
        assert thread.name == "The Game — ana"
        assert requests_to(world, "POST", THREAD_ROUTE, channel_id=world.channel.id) == 1
        # The lobby lives in the thread; the notice links to it.
        assert notice.content == (
            f"{ana.mention} opened a game of The Game in <#{thread.id}>: join it there. The result will be posted here."
        )
        lobby = thread_lobby(world, thread)
        assert [b["label"] for b in lobby.buttons][:3] == ["Join", "Leave", "Start"]
        (row,) = games_in(world, thread)
        assert row["message_id"] == lobby.id
        assert json.loads(row["options"])["thread_of"] == world.channel.id
        assert not games_in(world, world.channel)
        # A whole game there, by the thread's buttons and commands.
        at_thread = replace(world, channel=thread)
        table = Table(at_thread, bot, [ana])
        table.first_message = 0
        started = await fake.click(lobby, "lobby:start", user=ana)
        assert "The Game begins" in answer(started).content
        table.state = the_game.new_game([ana.id], seed=saved_row(at_thread)["seed"])
        await table.settle()
        await table.learn_hand(ana)
        await play_short_game(table)
        # The channel: the notice, then one line with the result, in one request.
        await fake.wait_for(lambda: len(fake.bot_messages(world.channel)) == 2, what="the result line in the channel")
        notice_again, result = fake.bot_messages(world.channel)
        assert notice_again is notice
        assert result.content == f"The Game in <#{thread.id}> ({ana.mention}): 93 cards left."
        assert not result.pinged
        assert requests_to(world, "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id) == 1
        assert all(not m.deleted for m in fake.channel_messages(world.channel))
        assert not fake.bot_messages(world.other_channel)


async def test_the_parent_stays_free_while_its_thread_plays(world: World) -> None:
    fake, ana, ben = world.fake, world.players[0], world.players[1]
    async with world.bot():
        await fake.invoke("newgame", user=ana, channel=world.channel, options={"thread": True})
        first = await fake.invoke("newgame", user=ben, channel=world.channel, options={"thread": True})
        second = await fake.invoke("newgame", user=ana, channel=world.channel)
        threads = [c for c in fake.channels.values() if c.parent_id == world.channel.id]
        assert len(threads) == 2
        assert first.original is not None
        assert first.original.id in {t.id for t in threads}
        assert answer(second).embeds[0]["title"] == "The Game: lobby"
        for thread in threads:
            assert len(games_in(world, thread)) == 1
        assert len(games_in(world, world.channel)) == 1
        # One game per thread still: a second /newgame inside a thread is refused as in any channel.
        again = await fake.invoke("newgame", user=ben, channel=threads[0])
        assert answer(again).ephemeral
        assert "already" in answer(again).content
        # Ended early, a thread's game is reported to the channel all the same.
        (ana_thread,) = [t for t in threads if t.id != first.original.id]
        await fake.invoke("endgame", user=ana, channel=ana_thread)
        line = f"The Game in <#{ana_thread.id}> ({ana.mention}): abandoned."
        await fake.wait_for(lambda: any(m.content == line for m in fake.bot_messages(world.channel)), what=line)
        await fake.wait_idle()


async def test_the_thread_option_inside_a_thread_opens_the_game_right_there(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    thread = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.channel, owner=ana)
    async with world.bot():
        opened = await fake.invoke("newgame", user=ana, channel=thread, options={"thread": True})
        assert not answer(opened).ephemeral
        assert answer(opened).embeds[0]["title"] == "The Game: lobby"
        assert opened.original is thread_lobby(world, thread)
        assert requests_to(world, "POST", THREAD_ROUTE) == 0
        assert [c for c in fake.channels.values() if c.is_thread] == [thread]
        (row,) = games_in(world, thread)
        assert "thread_of" not in json.loads(row["options"])
        await fake.wait_idle()
        assert not fake.bot_messages(world.channel)


async def test_a_private_thread_plays_once_the_bot_is_in_it(world: World) -> None:
    fake, ana, ben = world.fake, world.players[0], world.players[1]
    secret = fake.add_channel(world.guild, "just us", type=PRIVATE_THREAD, parent=world.channel, owner=ana)
    for member in (ben, world.spectator):
        fake.add_thread_member(secret, member)
    async with world.bot():
        # Not a member yet: the bot can answer the command, but sees nothing there and says so.
        outside = await fake.invoke("newgame", user=ana, channel=secret)
        await fake.wait_for(lambda: outside.followups, what="the heads-up")
        heads_up = [m.content for m in outside.followups if m.ephemeral]
        assert any("View Channel" in text and f"<#{secret.id}>" in text for text in heads_up), heads_up
        assert any("added to it: mention me there" in text for text in heads_up), heads_up
        await fake.invoke("endgame", user=ana, channel=secret)
        fake.add_thread_member(secret, fake.bot)
        await fake.wait_for(lambda: fake.permissions(secret, fake.bot), what="the bot to join")
        await fake.invoke("newgame", user=ana, channel=secret)
        await fake.invoke("join", user=ben, channel=secret)
        started = await fake.invoke("start", user=ana, channel=secret)
        assert "The Game begins" in answer(started).content
        await fake.wait_for(lambda: fake.dms(ana) and fake.dms(ben), what="the hands by DM")
        await number_is_removed(world, secret, world.spectator)
        shown = await fake.invoke("board", user=ben, channel=secret)
        assert answer(shown).embeds[0]["title"] == "The Game"
        await fake.wait_idle()
        assert not fake.bot_messages(world.channel)


async def test_a_thread_without_send_messages_in_threads_is_explained(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    thread = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.channel, owner=ana)
    fake.set_permissions(world.channel, fake.bot, deny=Perm.SEND_MESSAGES_IN_THREADS)
    async with world.bot():
        opened = await fake.invoke("newgame", user=ana, channel=thread)
        assert answer(opened).embeds[0]["title"] == "The Game: lobby"  # an answer needs no permission
        await fake.wait_for(lambda: opened.followups, what="the heads-up")
        (heads_up,) = [m for m in opened.followups if m.ephemeral]
        assert "**Send Messages in Threads**" in heads_up.content
        assert f"<#{thread.id}>" in heads_up.content
        assert "**Send Messages**" not in heads_up.content.replace("**Send Messages in Threads**", "")
        await fake.wait_idle()


async def test_the_thread_option_is_refused_where_the_bot_cannot_open_one(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    cases: list[tuple[int, str]] = [
        (int(Perm.CREATE_PUBLIC_THREADS), "Create Public Threads"),
        (int(Perm.SEND_MESSAGES_IN_THREADS), "Send Messages in Threads"),
    ]
    async with world.bot():
        for denied, words in cases:
            fake.set_permissions(world.channel, fake.bot, deny=denied)
            refused = await fake.invoke("newgame", user=ana, channel=world.channel, options={"thread": True})
            assert answer(refused).ephemeral
            assert words in answer(refused).content
            assert "without the thread option" in answer(refused).content
        assert not public_messages(fake, world.channel)
        assert not [c for c in fake.channels.values() if c.is_thread]
        assert not games_in(world, world.channel)


async def test_a_refused_thread_takes_the_notice_back_and_opens_nothing(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    async with world.bot():
        # Say an admin took the permission away a moment ago, after the command arrived.
        fake.fail("POST", THREAD_ROUTE, status=403, code=50013, message="Missing Permissions")
        refused = await fake.invoke("newgame", user=ana, channel=world.channel, options={"thread": True})
        await fake.wait_for(lambda: refused.followups, what="the refusal")
        await fake.wait_idle()
        said: list[Any] = [m for m in refused.followups if m.ephemeral]
        assert said
        assert "no game was opened" in said[-1].content
        assert not public_messages(fake, world.channel)
        assert not games_in(world, world.channel)
        assert not [c for c in fake.channels.values() if c.is_thread]
        await fake.wait_idle()


async def test_a_thread_with_its_own_game_follows_its_own_rule(world: World) -> None:
    fake, (ana, ben, cy, dee) = world.fake, world.players[:4]
    side = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.channel, owner=dee)
    async with world.bot():
        await fake.invoke("newgame", user=ana, channel=world.channel)  # The Game in the channel
        await fake.invoke("start", user=ana, channel=world.channel)
        opened = await fake.invoke(
            "newgame", user=ben, channel=world.channel, options={"game": "no_thanks", "thread": True}
        )
        await fake.wait_for(lambda: "<#" in (opened.original.content if opened.original else ""), what="the thread")
        assert opened.original is not None
        thread = fake.channels[opened.original.id]
        for member in (cy, dee):
            await fake.invoke("join", user=member, channel=thread)
        started = await fake.invoke("start", user=ben, channel=thread)
        assert not answer(started).ephemeral
        # No Thanks! has no rule about numbers: its thread's chat is left alone, while the channel's The Game and a
        # thread without a game of its own keep The Game's rule.
        free = await fake.send_message(thread, cy, "I'll take the 35, thanks")
        await number_is_removed(world, world.channel, dee)
        removed = await fake.send_message(side, ben, "seventy on C?")
        await fake.wait_for(lambda: removed.deleted, what="the number in a thread of The Game's channel to be removed")
        assert not free.deleted
        await fake.wait_idle()
