"""Issue 39: a bot with more interactions than it works on at once acknowledges the others (a deferral) and answers
them in turn, each in the same place as ever: nothing lost, a private answer private, no "thinking" left."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from engine.the_game import Play
from table.admission import Admission
from tests.e2e.conftest import World
from tests.e2e.test_hardening import deal, lay_minimum, mover, other_writer, row
from tests.fake_discord import INTERACTION_CALLBACK, InteractionRecord, Member
from tests.players import best_play, public_messages, saved_state


def one_place(bot: Any) -> Admission:
    """From now on the bot works on one interaction at a time (set once the table is ready: the helpers that set it
    up expect each command to be done when it is answered)."""
    bot.tables.admission = Admission(running=1)
    return bot.tables.admission


@asynccontextmanager
async def end_of_turn_waiting(
    world: World, bot: Any, member: Member
) -> AsyncIterator[tuple[InteractionRecord, Admission, sqlite3.Connection]]:
    """``member`` ends their turn while another process holds the database's write lock: the end of turn holds the
    bot's one place until the block commits that lock (``db.commit()``)."""
    await world.fake.wait_idle()
    admission = one_place(bot)
    with other_writer(world) as db:
        ending = await world.fake.invoke("endturn", user=member, channel=world.channel, wait=False)
        await world.fake.wait_for(lambda: admission.full, what="the end of turn to take the place")
        yield ending, admission, db


async def lay_while_a_hand_waits(
    world: World, bot: Any, member: Member, other: Member
) -> tuple[InteractionRecord, Play, Admission]:
    """``member`` lays their best card by /play while ``other``'s /hand holds the bot's one place (until Discord takes
    its answer): the lay waits in the queue, is deferred privately, and is answered once the place is free."""
    admission = one_place(bot)
    looking = await world.fake.invoke("hand", user=other, channel=world.channel, wait=False)
    async with world.fake.hold("POST", INTERACTION_CALLBACK, interaction=looking) as held:
        await held.wait_held()  # /hand holds the one place until Discord takes its answer
        play = best_play(saved_state(world), member.id)
        options = {"card": play.card, "pile": play.pile}
        lay = await world.fake.invoke("play", user=member, channel=world.channel, options=options)
        assert lay.response is not None
        assert lay.response.deferred
        assert lay.response.ephemeral
    await world.fake.wait_idle()
    return lay, play, admission


async def test_a_command_that_finds_the_bot_busy_is_deferred_at_once_and_answered_in_turn(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=31) as bot:
        await deal(world, [ana, ben])
        member = await lay_minimum(world)
        other = ben if member.id == ana.id else ana
        logged = row(world)["logged"]
        async with end_of_turn_waiting(world, bot, member) as (ending, admission, db):
            hand = await world.fake.invoke("hand", user=other, channel=world.channel)
            # /hand only reads: the deferral is the queue's, while the end of turn waits for the database.
            assert hand.response is not None
            assert hand.response.deferred
            assert hand.response.ephemeral  # its answer is private: so is its "thinking"
            assert admission.waiting == 1
            db.commit()
        board = await ending.wait_original()
        filled = await hand.wait_original()
        await world.fake.wait_idle()
        assert row(world)["logged"] == logged + 1
        assert " and drew " in board.content
        assert not board.ephemeral
        assert filled.ephemeral
        assert "Your hand:" in filled.content
        assert admission.waiting == 0
        assert not admission.full
        assert not [m for m in world.fake.channel_messages(world.channel) if m.loading]


async def test_a_click_that_finds_the_bot_busy_keeps_its_message_until_answered(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=32) as bot:
        await deal(world, [ana, ben])
        member = await lay_minimum(world)
        other = ben if member.id == ana.id else ana
        panel = await world.fake.invoke("hand", user=other, channel=world.channel)
        assert panel.response is not None
        assert panel.response.message is not None
        async with end_of_turn_waiting(world, bot, member) as (ending, admission, db):
            click = await world.fake.click(panel.response.message, label="Signals…", user=other)
            assert click.response is not None
            assert click.response.type == 6  # acknowledged, the panel unchanged until its turn comes
            db.commit()
        await ending.wait_original()
        await world.fake.wait_idle()
        labels = [button.get("label") for row in panel.response.message.components for button in row["components"]]
        assert "Back" in labels, labels  # the click's answer: the panel turned to its signals page
        assert not admission.full


async def test_a_queued_lay_thinks_privately_and_a_new_board_it_puts_up_is_public(world: World) -> None:
    """/play is answered privately (the panel) unless the board goes up anew, here because of talk since it went up:
    the private "thinking" of a queued lay is replaced by a public board, never filled in with it."""
    ana, ben = world.players[:2]
    async with world.bot(seed=33) as bot:
        await deal(world, [ana, ben])
        member = mover(world)
        other = ben if member.id == ana.id else ana
        await world.fake.send_message(world.channel, other, "good luck everyone")
        await world.fake.wait_idle()
        boards_before = len(public_messages(world.fake, world.channel))
        lay, play, admission = await lay_while_a_hand_waits(world, bot, member, other)
        assert lay.original is not None
        assert lay.original.deleted  # the private thinking made way
        public = [m for m in lay.followups if not m.ephemeral and not m.deleted]
        assert len(public) == 1
        assert str(play.card) in public[0].content or any(str(play.card) in str(e) for e in public[0].embeds)
        assert len(public_messages(world.fake, world.channel)) > boards_before
        assert not admission.full


async def test_a_queued_lay_answered_by_its_panel_keeps_the_panels_buttons(world: World) -> None:
    """/play's private answer is the mover's panel: queued, its private thinking is filled in with the whole panel,
    buttons included, and that panel is the one the bot keeps current from then on."""
    ana, ben = world.players[:2]
    async with world.bot(seed=34) as bot:
        await deal(world, [ana, ben])
        member = mover(world)
        other = ben if member.id == ana.id else ana
        lay, _play, admission = await lay_while_a_hand_waits(world, bot, member, other)
        panel = lay.original
        assert panel is not None
        assert panel.ephemeral
        assert not panel.deleted
        labels = [button.get("label") for row in panel.components for button in row["components"]]
        assert "End turn" in labels, labels
        assert bot.tables.panels.following(row(world)["id"], member.id, panel.id)
        assert not admission.full
