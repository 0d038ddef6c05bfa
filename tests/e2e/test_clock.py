"""The turn clock with "30 seconds" (run fifty times faster here): a reminder, then the autopilot plays for an away
player and the table sees it; three misses put the seat on autopilot until its player acts; a vote removes a player;
a deadline that passed while the bot was down fires at start; "off" never fires."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from bot import Bot
from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.fake_discord import Member
from tests.players import public_messages, saved_game, saved_state

SCALE = 0.02  # 30 s -> 0.6 s


def fast(bot: Bot) -> Bot:
    bot.tables.clock.scale = SCALE
    bot.tables.seats.pause = 0.01
    return bot


def said(world: World, text: str) -> list[str]:
    return [m.content for m in public_messages(world.fake, world.channel) if text in m.content]


async def deal(world: World, members: list[Member], game: str, turn_time: str = "30 seconds") -> None:
    options = {"game": game, "turn_time": turn_time}
    await world.fake.invoke("newgame", user=members[0], channel=world.channel, options=options)
    for member in members[1:]:
        await world.fake.invoke("join", user=member, channel=world.channel)
    await world.fake.invoke("start", user=members[0], channel=world.channel)


async def test_an_away_player_is_reminded_then_played_for_and_three_misses_mean_autopilot(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=31) as bot:
        fast(bot)
        await deal(world, [ana, ben, cy], "no_thanks")
        first: no_thanks.State = saved_state(world)
        away = no_thanks.current_player(first)
        assert away is not None
        # Nobody acts: the mover is reminded (pinged), then the autopilot plays for them.
        reminder = await world.fake.wait_message(world.channel, lambda m: "your turn ends" in m.content, timeout=5)
        assert f"<@{away}>" in reminder.content
        assert "<t:" in reminder.content
        await world.fake.wait_for(lambda: said(world, f"On autopilot: <@{away}>"), timeout=5, what="the autopilot")
        after: no_thanks.State = saved_state(world)
        assert after.move_count == first.move_count + 1
        assert no_thanks.chips(after, away) == no_thanks.chips(first, away) - 1  # "no thanks" while chips last
        # The board shows the next mover's deadline as a relative timestamp.
        assert any("turn ends <t:" in m.content for m in public_messages(world.fake, world.channel)[-3:])
        # Everybody stays away: each seat misses turns; after three in a row it is on autopilot.
        await world.fake.wait_for(lambda: said(world, "missed 3 turns in a row"), timeout=15, what="autopilot")
        # With everybody away, the game ends as abandoned, said plainly.
        await world.fake.wait_for(lambda: said(world, "ends as abandoned"), timeout=15, what="the abandoned game")
        saved = saved_game(world)
        assert saved is not None
        assert saved[0]["status"] == "abandoned"


async def test_the_players_own_action_takes_the_seat_back(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=32) as bot:
        fast(bot)
        await deal(world, [ana, ben, cy], "no_thanks")
        state: no_thanks.State = saved_state(world)
        away = next(m for m in (ana, ben, cy) if m.id == no_thanks.current_player(state))
        others = [m for m in (ana, ben, cy) if m is not away]
        # The others act at once on their turns; the away player lets the clock run out three times.
        for _ in range(200):
            await asyncio.sleep(0.02)
            options = saved_game(world)[0]["options"]  # type: ignore[index]
            if (
                f"{away.id}" in options
                and '"autopilot":[' in options
                and str(away.id) in options.split('"autopilot":')[1]
            ):
                break
            state = saved_state(world)
            mover = no_thanks.current_player(state)
            member = next((m for m in others if m.id == mover), None)
            if member is not None:
                verb = "nothanks" if no_thanks.chips(state, member.id) else "take"
                await world.fake.invoke(verb, user=member, channel=world.channel)
        else:
            raise AssertionError("the away seat never went on autopilot")
        # Back: any action of their own (here /hand is not one; a move or a signal is) ends the autopilot.
        await world.fake.wait_idle()
        state = saved_state(world)
        while no_thanks.current_player(state) != away.id and not no_thanks.is_over(state):
            mover = next(m for m in others if m.id == no_thanks.current_player(state))
            await world.fake.invoke("take", user=mover, channel=world.channel)
            await asyncio.sleep(0.05)
            state = saved_state(world)
        row = saved_game(world)
        assert row is not None
        if no_thanks.current_player(saved_state(world)) == away.id:
            await world.fake.invoke("take", user=away, channel=world.channel)
            row = saved_game(world)
            assert row is not None
            assert '"autopilot":[]' in row[0]["options"]


async def test_a_vote_of_the_table_removes_an_away_player(world: World) -> None:
    ana, ben, cy, dee = world.players[:4]
    async with world.bot(seed=33) as bot:
        fast(bot)
        await deal(world, [ana, ben, cy, dee], "no_thanks", turn_time="30 seconds")
        state: no_thanks.State = saved_state(world)
        away = no_thanks.current_player(state)
        await world.fake.wait_for(lambda: said(world, f"On autopilot: <@{away}>"), timeout=5, what="a missed turn")
        bot.tables.clock.scale = 10.0  # no more misses while the table votes
        # Make the away player the mover again, so that the vote buttons are under the board.
        for _ in range(20):
            state = saved_state(world)
            mover = no_thanks.current_player(state)
            if mover == away:
                break
            member = next(m for m in (ana, ben, cy, dee) if m.id == mover)
            await world.fake.invoke(
                "nothanks" if no_thanks.chips(state, mover) else "take", user=member, channel=world.channel
            )
            await world.fake.wait_idle()
        board = next(
            m
            for m in reversed(public_messages(world.fake, world.channel))
            if any(b.get("label") == "Vote them out of the game" for b in m.buttons)
        )
        voters = [m for m in (ana, ben, cy, dee) if m.id != away]
        refused = await world.fake.click(board, label="Vote them out of the game", user=world.spectator)
        assert refused.response is not None
        assert refused.response.ephemeral
        for voter in voters[:2]:  # 2 of 3 is a majority
            await world.fake.click(board, label="Vote them out of the game", user=voter)
        await world.fake.wait_idle()
        state = saved_state(world)
        assert state.left[state.players.index(away)]
        assert said(world, f"Voted out by the table: <@{away}>")


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_at_start(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=34):
        await deal(world, [ana, ben, cy], "no_thanks")  # a real 30 s clock
        await world.fake.wait_idle()
        state: no_thanks.State = saved_state(world)
        away = no_thanks.current_player(state)
    with sqlite3.connect(world.database_path) as db:
        (due,) = db.execute("SELECT due_at FROM timers").fetchone()
        assert due > time.time()
        db.execute("UPDATE timers SET due_at = ?, remind_at = NULL", (time.time() - 1,))  # as if a minute went by
    async with world.bot(seed=35):
        await world.fake.wait_for(lambda: said(world, f"On autopilot: <@{away}>"), timeout=5, what="the overdue turn")
        assert saved_state(world).move_count == state.move_count + 1


async def test_off_never_fires(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=36) as bot:
        fast(bot)
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"turn_time": "off"})
        await world.fake.invoke("start", user=ana, channel=world.channel)
        state: the_game.State = saved_state(world)
        plays = [a for a in the_game.legal_actions(state, ana.id) if isinstance(a, the_game.Play)]
        await world.fake.invoke(
            "play", user=ana, channel=world.channel, options={"card": plays[0].card, "pile": plays[0].pile}
        )
        await asyncio.sleep(30 * SCALE * 3)
        assert saved_state(world).move_count == 1
        assert not said(world, "On autopilot:")
        with sqlite3.connect(world.database_path) as db:
            assert db.execute("SELECT COUNT(*) FROM timers").fetchone() == (0,)
