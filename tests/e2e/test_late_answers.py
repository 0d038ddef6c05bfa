"""Issue 39, the interaction side of overload: an interaction's 3 s are counted from its arrival, not from when its
handler ran; an answer that comes too late anyway is one warning line, with no traceback and nothing more sent
through the dead token; a saved move is never answered as failed.

A saturated bot is played by blocking the event loop (which the bot and the fake Discord share) right after an
interaction is sent: the interaction waits in the queue, as it would behind a thousand others.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from engine import the_game
from table.transition import Transition
from tests.e2e.conftest import World
from tests.e2e.test_hardening import deal, mover, other_writer, row
from tests.fake_discord import INTERACTION_CALLBACK, UNKNOWN_INTERACTION, InteractionRecord
from tests.players import best_play, saved_state

TOO_LATE = "came too late"


def queued(seconds: float) -> None:
    """The bot is busy with other work for ``seconds``: nothing runs meanwhile, the interaction just sent waits."""
    asyncio.get_running_loop().call_soon(time.sleep, seconds)


def through_token(world: World, rec: InteractionRecord) -> list[str]:
    """Every request the bot made with the interaction's token."""
    return [f"{r.method} {r.path}" for r in world.fake.requests if rec.token in r.path]


def refused_once(world: World, rec: InteractionRecord) -> None:
    """The bot tried the interaction's one response, Discord refused it (too late), and nothing else went through
    the dead token."""
    assert through_token(world, rec) == [f"POST /interactions/{rec.id}/{rec.token}/callback"]
    assert not rec.responded


async def play(world: World, *, wait: bool = True) -> InteractionRecord:
    member = mover(world)
    card = best_play(saved_state(world), member.id)
    options = {"card": card.card, "pile": card.pile}
    return await world.fake.invoke("play", user=member, channel=world.channel, options=options, wait=wait)


async def test_an_interaction_that_waited_in_the_queue_is_deferred_before_its_3_s_run_out(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=39):
        await deal(world, [ana, ben])
        logged = row(world)["logged"]
        with other_writer(world) as db, caplog.at_level(logging.WARNING):
            # The move waits 2.2 s in the queue, then for the database until 3.7 s after it arrived.
            asyncio.get_running_loop().call_later(3.7, db.commit)
            rec = await play(world, wait=False)
            queued(2.2)
            await rec.wait_response(timeout=5)
            assert rec.response is not None
            assert rec.response.deferred
            assert rec.response.latency < 3.0
            # The answer follows once the move is saved (the panel, privately: the public "thinking" is taken away).
            await world.fake.wait_for(
                lambda: any("laid" in m.content and m.ephemeral for m in rec.followups), timeout=5, what="the move"
            )
        assert row(world)["logged"] == logged + 1
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], caplog.text


@pytest.mark.parametrize("command", ["board", "play"])
async def test_an_interaction_queued_past_its_3_s_is_one_warning_and_changes_nothing(
    world: World, caplog: pytest.LogCaptureFixture, command: str
) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=40):
        await deal(world, [ana, ben])
        logged = row(world)["logged"]
        caplog.clear()
        with caplog.at_level(logging.INFO):
            if command == "play":
                rec = await play(world, wait=False)
            else:
                rec = await world.fake.invoke("board", user=ana, channel=world.channel, wait=False)
            queued(3.2)
            await world.fake.wait_for(lambda: rec.errors, timeout=5, what="the late answer")
            await world.fake.wait_idle(quiet=0.3)
        assert not rec.responded
        refused_once(world, rec)
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        assert TOO_LATE in warnings[0].getMessage()
        assert "10062" in warnings[0].getMessage()
        assert warnings[0].levelno == logging.WARNING
        assert not warnings[0].exc_info
        assert row(world)["logged"] == logged  # the person saw "This interaction failed": nothing was done


async def test_a_saved_move_whose_answer_came_too_late_is_never_called_failed(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=41) as bot:
        await deal(world, [ana, ben])
        logged = row(world)["logged"]
        caplog.clear()
        with caplog.at_level(logging.INFO):
            # The bot is saturated right after the move is saved, before it is answered.
            async def saturated(event: Transition) -> None:
                queued(3.1)
                await asyncio.sleep(0)  # the loop runs the blocking work now, before the answer goes out

            bot.tables.events.subscribe("saturation", saturated)
            rec = await play(world, wait=False)
            await world.fake.wait_for(lambda: rec.errors, timeout=8, what="the late answer")
            bot.tables.events.unsubscribe("saturation")
            await world.fake.wait_idle(quiet=0.3)
        assert row(world)["logged"] == logged + 1
        refused_once(world, rec)
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        assert TOO_LATE in warnings[0].getMessage()
        assert "Your move was made" in warnings[0].getMessage()
        assert "10062" in warnings[0].getMessage()
        assert not warnings[0].exc_info
        assert "failed" not in caplog.text


async def test_a_move_whose_token_died_while_it_waited_for_the_channel_is_not_made(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A move waits behind the channel's previous one past its deferral time; its deferral finds the token dead (the
    queue was long): it is not made, so the person's "This interaction failed" tells the truth."""
    ana, ben = world.players[:2]
    async with world.bot(seed=42) as bot:
        await deal(world, [ana, ben])
        logged = row(world)["logged"]
        member = mover(world)
        state = saved_state(world)
        first = best_play(state, member.id)
        second = best_play(the_game.apply(state, member.id, first), member.id)
        slow = True

        async def busy_table(event: Transition) -> None:
            nonlocal slow
            if slow:
                slow = False
                await asyncio.sleep(2.0)  # the first move's aftermath keeps the channel's turn

        bot.tables.events.subscribe("busy table", busy_table)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            options = {"card": first.card, "pile": first.pile}
            one = await world.fake.invoke("play", user=member, channel=world.channel, options=options, wait=False)
            options = {"card": second.card, "pile": second.pile}
            two = await world.fake.invoke("play", user=member, channel=world.channel, options=options, wait=False)
            world.fake.fail("POST", INTERACTION_CALLBACK, error=UNKNOWN_INTERACTION, interaction=two)
            await world.fake.wait_for(lambda: two.errors, timeout=5, what="the second move's deferral")
            # Its turn at the channel comes when the first move's aftermath is over.
            await world.fake.wait_for(lambda: TOO_LATE in caplog.text, timeout=5, what="the second move's end")
            await world.fake.wait_idle(quiet=0.3)
        assert one.responded
        assert row(world)["logged"] == logged + 1  # the first move only
        refused_once(world, two)
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert [TOO_LATE in r.getMessage() and "play" in r.getMessage() for r in warnings] == [True]
        assert "Your move was made" not in caplog.text
        assert not warnings[0].exc_info
