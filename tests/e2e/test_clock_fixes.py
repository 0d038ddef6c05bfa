"""The turn clock's faults found in the core, each with the test that failed before it was mended: two votes at
the same moment both count; a passed autopilot vote plays the turn within the computer players' pause, with no
reminder after it and not counted as missed; every first board shows the first mover's deadline; a database that is
busy in the clock's bookkeeping after a move was saved never says nothing changed; and a deadline left from an
earlier turn never acts on the current one."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from typing import Any

from engine import no_thanks
from storage import StorageBusy, Timer
from tests.e2e.conftest import World
from tests.e2e.test_clock import deal, fast, said
from tests.fake_discord import Member, Message
from tests.players import public_messages, saved_game, saved_state


async def away_player_to_move_again(world: World, members: list[Member]) -> tuple[Member, Message]:
    """Let the first mover miss one turn (the autopilot plays it), stop the clock's hurry, and play on until that
    player moves again: the board then carries the table's vote buttons."""
    state: no_thanks.State = saved_state(world)
    away = no_thanks.current_player(state)
    await world.fake.wait_for(lambda: said(world, f"On autopilot: <@{away}>"), timeout=5, what="a missed turn")
    for _ in range(20):
        state = saved_state(world)
        mover = no_thanks.current_player(state)
        if mover == away:
            break
        member = next(m for m in members if m.id == mover)
        await world.fake.invoke(
            "nothanks" if no_thanks.chips(state, mover) else "take", user=member, channel=world.channel
        )
        await world.fake.wait_idle()
    board = next(
        m
        for m in reversed(public_messages(world.fake, world.channel))
        if any(b.get("label") == "Let the autopilot play for them" for b in m.buttons)
    )
    return next(m for m in members if m.id == away), board


def options(world: World) -> dict[str, Any]:
    saved = saved_game(world)
    assert saved is not None
    return dict(json.loads(saved[0]["options"]))


async def test_two_votes_at_the_same_moment_both_count_and_the_autopilot_plays_at_once(world: World) -> None:
    members = world.players[:4]
    async with world.bot(seed=33) as bot:
        fast(bot)
        await deal(world, members, "no_thanks", turn_time="30 seconds")
        bot.tables.clock.scale = 0.02
        away, board = await asyncio.wait_for(away_player_to_move_again(world, members), 30)
        bot.tables.clock.scale = 10.0  # the turn clock is far off: only the vote can make the autopilot play now
        # The clock restarts the mover's deadline with the slow scale on the next turn; this turn's may be near.
        missed_before = options(world)["misses"][str(away.id)]
        moves_before = saved_state(world).move_count
        voters = [m for m in members if m is not away][:2]  # 2 of 3 is a majority
        label = "Let the autopilot play for them"
        await asyncio.gather(*(world.fake.click(board, label=label, user=voter) for voter in voters))
        await world.fake.wait_for(
            lambda: said(world, f"put <@{away.id}> on autopilot"), timeout=5, what="the passed vote"
        )
        voted_at = time.monotonic()
        await world.fake.wait_for(
            lambda: said(world, f"On autopilot: <@{away.id}>") and saved_state(world).move_count > moves_before,
            timeout=5,
            what="the autopilot's move",
        )
        assert time.monotonic() - voted_at < 3  # within the computer players' pause, not a whole turn time later
        assert options(world)["misses"][str(away.id)] == missed_before  # a voted turn is not a missed one
        reminders = [m for m in said(world, "your turn ends") if f"<@{away.id}>" in m]
        await asyncio.sleep(0.3)
        assert [m for m in said(world, "your turn ends") if f"<@{away.id}>" in m] == reminders


async def test_the_first_board_shows_the_first_movers_deadline(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=41):
        await deal(world, [ana, ben, cy], "no_thanks", turn_time="3 minutes")
        first = no_thanks.current_player(saved_state(world))
        board = public_messages(world.fake, world.channel)[-1]
        assert f"<@{first}>'s turn ends <t:" in board.content


async def test_a_busy_database_in_the_clocks_bookkeeping_never_says_nothing_changed(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=42) as bot:
        await deal(world, [ana, ben, cy], "no_thanks", turn_time="3 minutes")
        state: no_thanks.State = saved_state(world)
        mover = next(m for m in (ana, ben, cy) if m.id == no_thanks.current_player(state))
        # The mover had missed a turn: acting takes their seat back, which the clock writes down after the move.
        with sqlite3.connect(world.database_path) as db:
            db.execute("UPDATE games SET options = json_set(options, '$.misses', json(?))", (f'{{"{mover.id}": 1}}',))
        storage = bot.tables.storage
        saved = storage.update_game

        async def busy(record: Any, **changes: Any) -> Any:
            if "options" in changes:
                raise StorageBusy("another process holds the write lock")
            return await saved(record, **changes)

        storage.update_game = busy  # type: ignore[method-assign]
        answer = await world.fake.invoke("take", user=mover, channel=world.channel)
        await world.fake.wait_idle()
        assert saved_state(world).move_count == state.move_count + 1
        texts = [answer.response.content if answer.response else "", *(f.content for f in answer.followups)]
        assert not any("Nothing was changed" in text for text in texts), texts
        assert answer.response is not None
        assert not answer.response.ephemeral  # the new board, as always


async def test_a_deadline_left_from_an_earlier_turn_never_acts_on_the_current_one(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=43) as bot:
        await deal(world, [ana, ben, cy], "no_thanks", turn_time="3 minutes")
        state: no_thanks.State = saved_state(world)
        mover = next(m for m in (ana, ben, cy) if m.id == no_thanks.current_player(state))
        record = await bot.tables.storage.open_game(world.channel.id)
        assert record is not None
        old_seq = state.move_count
        await world.fake.invoke("take", user=mover, channel=world.channel)
        await world.fake.wait_idle()
        # The heap still holds the first turn's deadline (the database row now is the new turn's): make it due now.
        clock = bot.tables.clock
        clock._remember(Timer(record.id, old_seq, mover.id, None, time.time() - 1))
        await asyncio.sleep(0.3)
        assert saved_state(world).move_count == state.move_count + 1
        assert not said(world, "On autopilot:")
