"""Pictures through the fake Discord: the end screen of The Game carries its course, one upload per game and none
before (the end goes up at once, and its picture follows in an edit of that message); games that end without a
score, and No Thanks!, carry none; ``/stats chart:True`` attaches results over time."""

from __future__ import annotations

import io
import json
import sqlite3

from PIL import Image

from cogs.the_game_picture import course_png
from engine import the_game
from engine.game import Setup, decode_moves
from engine.the_game_course import course
from table.registry import GAMES
from tests.e2e.conftest import World
from tests.e2e.test_ai import fast, settle
from tests.e2e.test_stats import no_thanks_against_bots
from tests.e2e.test_the_game import Table
from tests.fake_discord import Message, Perm, RequestRecord
from tests.players import answer, best_play, public_messages, saved_state


def uploads(world: World) -> list[RequestRecord]:
    return [r for r in world.fake.requests if r.files]


def last_message(world: World) -> Message:
    return public_messages(world.fake, world.channel)[-1]


def course_of_saved_game(world: World) -> bytes:
    """The picture the newest game's log draws, computed here from the database."""
    db = sqlite3.connect(world.database_path)
    try:
        game_id, players, seed = db.execute("SELECT id, players, seed FROM games ORDER BY id DESC LIMIT 1").fetchone()
        logged = db.execute("SELECT player, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    finally:
        db.close()
    moves = decode_moves(GAMES["the_game"], [(p, json.loads(a)) for p, a in logged])
    return course_png(course(Setup(tuple(json.loads(players)), seed), moves))


async def picture_of(world: World, message: Message) -> bytes:
    """The picture an end screen carries, once it arrived."""
    await world.fake.wait_for(lambda: bool(message.attachments), what="the picture of the game")
    [attachment] = message.attachments
    assert attachment["filename"] == "course.png"
    assert attachment["content_type"] == "image/png"
    assert message.embeds[0]["image"]["url"] == attachment["url"]
    return world.fake._files[int(attachment["id"])]


async def test_the_end_screen_carries_the_course_of_the_game_in_one_upload(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=135) as bot:
        table = Table(world, bot, [ana, ben])
        await table.open()
        last = await table.step()
        while not the_game.is_over(table.replica()):
            assert not uploads(world), "a picture before the end"
            last = await table.step()
        table.check_game_over(last)
        # Exactly one upload: the end screen, the answer to the last card, edited through the interaction's token.
        end = last.original
        assert end is not None
        assert end is public_messages(world.fake, world.channel)[-1]
        png = await picture_of(world, end)
        [upload] = uploads(world)
        assert (upload.route, upload.files) == (
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            [("course.png", len(png))],
        )
        assert png == course_of_saved_game(world)
        with Image.open(io.BytesIO(png)) as image:
            assert (image.format, image.size) == ("PNG", (800, 450))
        assert len(png) < 60_000
        # The message the card was laid from shows no picture it does not carry; /board after the end neither.
        for message in public_messages(world.fake, world.channel):
            if message is not end:
                assert not message.attachments
                assert all("image" not in embed for embed in message.embeds)
        shown = await world.fake.invoke("board", user=ana, channel=world.channel)
        assert "image" not in answer(shown).embeds[0]
        assert len(uploads(world)) == 1


async def test_a_game_everybody_left_and_no_thanks_carry_no_picture(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=7) as bot:
        fast(bot)
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        left = await world.fake.invoke("leave", user=ana, channel=world.channel)
        assert answer(left) is not None
        assert saved_state(world).status == "abandoned"
        await no_thanks_against_bots(world, bot, ana)
        await settle(world)
        assert "Game over" in "\n".join(m.content for m in public_messages(world.fake, world.channel))
        assert not uploads(world)


async def test_an_end_the_bot_posts_by_itself_carries_the_picture_or_goes_without_attach_files(world: World) -> None:
    """The person lays the first card and leaves, and two computer players play the game to its end: the bot posts
    the end screen itself, and adds the picture where it may attach files, not where it may not (a server that
    invited it before it drew pictures)."""
    ana = world.players[0]
    for allowed in (True, False):
        if not allowed:
            world.fake.set_permissions(world.channel, world.fake.bot, deny=Perm.ATTACH_FILES)
        async with world.bot(seed=21) as bot:
            fast(bot)
            await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"bots": 2})
            await world.fake.invoke("start", user=ana, channel=world.channel)
            first = best_play(saved_state(world), ana.id)  # the first card: then the turn passes on when she leaves
            await world.fake.invoke(
                "play", user=ana, channel=world.channel, options={"card": first.card, "pile": first.pile}
            )
            await world.fake.invoke("leave", user=ana, channel=world.channel)
            await world.fake.wait_for(
                lambda: "Game over" in last_message(world).content, what="the end screen", timeout=60
            )
            end = last_message(world)
            assert end.interaction_id is None
            assert saved_state(world).status in ("won", "lost")
            if allowed:
                assert await picture_of(world, end) == course_of_saved_game(world)
            else:
                await world.fake.wait_for(lambda: any(r.status == 403 for r in uploads(world)), what="the refusal")
                assert not end.attachments
                assert all("image" not in embed for embed in end.embeds)
    assert [r.status for r in uploads(world)] == [200, 403]


async def test_stats_chart_attaches_results_over_time(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=31) as bot:
        fast(bot)
        await no_thanks_against_bots(world, bot, ana)
        plain = await world.fake.invoke("stats", user=ana, channel=world.channel)
        assert not uploads(world)
        assert "image" not in answer(plain).embeds[0]
        charted = await world.fake.invoke("stats", user=ana, channel=world.channel, options={"chart": True})
        message = charted.original
        assert message is not None
        assert message.ephemeral
        [attachment] = message.attachments
        assert attachment["filename"] == "results.png"
        assert message.embeds[0]["image"]["url"] == attachment["url"]
        with Image.open(io.BytesIO(world.fake._files[int(attachment["id"])])) as image:
            assert (image.format, image.size) == ("PNG", (800, 450))
        # Somebody without a game gets the embed alone.
        nothing = await world.fake.invoke(
            "stats", user=world.players[3], channel=world.channel, options={"chart": True}
        )
        assert "hasn't finished a game" in answer(nothing).embeds[0]["description"]
        assert len(uploads(world)) == 1
