"""Computer players at the table: seated by /newgame bots:<n> or the lobby's buttons, playing their own turns after a
pause, announced like people, restart-safe, and never told anything their seat may not see."""

from __future__ import annotations

import asyncio

import pytest

import table.boards
from bot import Bot
from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.fake_discord import InteractionRecord, Member
from tests.players import best_play, latest_hand, public_messages, saved_game, saved_state

PAUSE = 0.01  # the computer players' thinking pause, short for tests (a second in play)


async def settle(world: World) -> None:
    """Give the computer players time to think, then wait until the bot falls quiet."""
    await asyncio.sleep(PAUSE * 3)
    await world.fake.wait_idle(quiet=PAUSE * 5)


def fast(bot: Bot) -> Bot:
    bot.tables.seats.pause = PAUSE
    return bot


def ok(rec: InteractionRecord) -> InteractionRecord:
    assert rec.response is not None
    assert not (rec.response.ephemeral and "can't" in rec.response.content.lower()), rec.response.content
    return rec


async def person_turn(world: World, member: Member) -> None:
    """The person lays the cards that use up the least room on their piles, then ends the turn."""
    state: the_game.State = saved_state(world)
    while the_game.current_player(state) in (member.id, None) and not the_game.is_over(state):
        view = the_game.public_view(state)
        if view.current_player == member.id and view.laid >= view.minimum:
            ok(await world.fake.invoke("endturn", user=member, channel=world.channel))
            return
        best = best_play(state, member.id)
        ok(
            await world.fake.invoke(
                "play", user=member, channel=world.channel, options={"card": best.card, "pile": best.pile}
            )
        )
        state = saved_state(world)


async def test_one_person_and_two_bots_play_the_game_to_the_end(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=21) as bot:
        fast(bot)
        lobby = await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"bots": 2})
        assert "Bot Ada" in str(lobby.response.embeds if lobby.response else "")  # type: ignore[union-attr]
        await world.fake.invoke("start", user=ana, channel=world.channel)
        for _ in range(200):
            await settle(world)
            state = saved_state(world)
            if state is None or the_game.is_over(state):
                break
            if the_game.current_player(state) in (ana.id, None):
                await person_turn(world, ana)
        state = saved_state(world)
        assert the_game.is_over(state)
        bots = [p for p in state.players if p < 0]
        assert len(bots) == 2
        # The bots played: cards left their hands, and their moves were announced by name.
        text = "\n".join(m.content for m in public_messages(world.fake, world.channel))
        assert "Bot Ada" in text or "Bot Grace" in text
        assert "Game over" in text
        assert latest_hand(world.fake, ana) is not None
        # Only the person ever got a DM.
        dm_users = {r.path for r in world.fake.requests if r.route == "/users/@me/channels"}
        assert len(dm_users) <= 1


async def test_the_lobby_seats_and_removes_bots_and_a_table_of_bots_alone_is_refused(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=22) as bot:
        fast(bot)
        opened = await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "no_thanks"})
        lobby = opened.original
        assert lobby is not None
        await world.fake.click(lobby, label="Add bot", user=ana)
        refused = await world.fake.click(lobby, label="Add bot", user=ben)
        assert refused.response is not None
        assert refused.response.ephemeral
        await world.fake.click(lobby, label="Add bot", user=ana)
        await world.fake.click(lobby, label="Remove bot", user=ana)
        await world.fake.click(lobby, label="Add bot", user=ana)
        row = saved_game(world)
        assert row is not None
        assert [p for p in __import__("json").loads(row[0]["players"]) if p < 0] == [-1, -2]
        await world.fake.click(lobby, label="Start", user=ana)
        await settle(world)
        state: no_thanks.State = saved_state(world)
        assert state.players[0] == ana.id


async def test_no_thanks_against_two_bots_and_a_restart_with_a_bot_to_move(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=23) as bot:
        fast(bot)
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "no_thanks", "bots": 2})
        await world.fake.invoke("start", user=ana, channel=world.channel)
        await settle(world)
        state: no_thanks.State = saved_state(world)
        # Play until it is a bot's turn right after the person's action, then stop the bot at once.
        while no_thanks.current_player(state) == ana.id:
            verb = "nothanks" if no_thanks.chips(state, ana.id) else "take"
            bot.tables.seats.pause = 60.0  # the bot won't get to move before the stop
            await world.fake.invoke(verb, user=ana, channel=world.channel)
            state = saved_state(world)
    moves_before = state.move_count
    async with world.bot(seed=24) as bot:
        fast(bot)
        # After the restart the bot whose turn it is carries on by itself.
        await world.fake.wait_for(lambda: saved_state(world).move_count > moves_before, what="the bot to move")
        for _ in range(400):
            await settle(world)
            state = saved_state(world)
            if no_thanks.is_over(state):
                break
            if no_thanks.current_player(state) == ana.id:
                verb = "nothanks" if no_thanks.chips(state, ana.id) and state.chips_on_card < 3 else "take"
                await world.fake.invoke(verb, user=ana, channel=world.channel)
        assert no_thanks.is_over(saved_state(world))
        assert "Game over" in public_messages(world.fake, world.channel)[-1].content


async def ana_pinged_over_turns(world: World, turns: int) -> list[int]:
    """ana plays her turns beside a computer partner; who the new boards pinged meanwhile."""
    ana = world.players[0]
    pinged: list[int] = []
    for _ in range(turns):
        await settle(world)
        state = saved_state(world)
        if the_game.is_over(state) or the_game.current_player(state) not in (ana.id, None):
            continue
        before = len(public_messages(world.fake, world.channel))
        await person_turn(world, ana)
        await settle(world)  # the computer partner plays its turn; the board comes back to ana
        pinged.extend(user.id for m in public_messages(world.fake, world.channel)[before:] for user in m.pinged)
    return pinged


@pytest.mark.parametrize("window", [10.0, 0.0])
async def test_a_person_at_the_keyboard_is_not_pinged_after_a_computer_partners_turn(
    world: World, monkeypatch: pytest.MonkeyPatch, window: float
) -> None:
    monkeypatch.setattr(table.boards, "AT_THE_KEYBOARD_SECONDS", window)
    ana = world.players[0]
    async with world.bot(seed=24) as bot:
        fast(bot)
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"bots": 1})
        await world.fake.invoke("start", user=ana, channel=world.channel)
        pinged = await ana_pinged_over_turns(world, 4)
    if window:
        assert pinged == []  # she clicked a second ago: the board coming back to her needs no ping
    else:
        assert ana.id in pinged  # the same table with no window: the ping that this rule saves
