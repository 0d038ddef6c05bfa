"""Issue 36, time and latency: whole games through a fake Discord that answers every request 100-300 ms late, and a
game that outlasts its interactions' tokens (15 minutes on Discord, scaled down here: the fake's token lifetime and the
bot's margin shrink together), with every board and every hand panel still right at the end: a panel with live
buttons shows the hand as it is, older ones have shrunk or gone to sleep."""

from __future__ import annotations

import pytest

import table.boards
from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import assert_only_newest_board_is_live, open_game
from tests.e2e.test_discord_limits import play_through, refused
from tests.fake_discord import Member
from tests.players import hand_in


def enabled_buttons(message: object) -> list[str]:
    return [str(b.get("label")) for b in getattr(message, "buttons", []) if not b.get("disabled")]


def check_panels(world: World, members: list[Member], final: the_game.State) -> int:
    """No private panel offers buttons over a hand that is not the player's hand now; the panels checked."""
    checked = 0
    for member in members:
        for panel in world.fake.ephemeral_messages(member):
            if hand_in(panel.content) is None or not enabled_buttons(panel):
                continue  # not a hand panel, or one that shrank, slept or ended
            assert sorted(hand_in(panel.content) or []) == sorted(the_game.hand(final, member.id)), (
                panel.id,
                [(v.at, v.content[:50]) for v in panel.history],
                [(p.id, p.content[:30]) for p in world.fake.ephemeral_messages(member) if p.id > panel.id],
                the_game.is_over(final),
            )
            checked += 1
    return checked


async def end_screen(world: World) -> object:
    end = max(world.fake.bot_messages(world.channel), key=lambda m: m.id)
    await world.fake.wait_for(lambda: bool(end.attachments), what="the end picture", timeout=30)
    return end


async def test_a_game_with_100_to_300_ms_of_latency(world: World) -> None:
    fake = world.fake
    fake.latency = (0.1, 0.3)
    members = world.players[:3]
    async with world.bot(seed=163):
        await open_game(world, members)
        final = await play_through(world, members)
        end = await end_screen(world)
        await fake.wait_idle(quiet=0.5, timeout=60)
    assert the_game.is_over(final)
    assert_only_newest_board_is_live(world, end)  # type: ignore[arg-type]
    assert not [i for i in fake.interactions if i.expired], "an interaction missed its 3 seconds"
    assert not refused(fake)
    check_panels(world, members, final)


async def test_a_game_longer_than_its_tokens_keeps_boards_and_panels_right(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    # Tokens live 3 s here (15 minutes on Discord); the bot keeps the same one-minute-in-fifteen margin.
    fake.interaction_token_lifetime = 3.0
    monkeypatch.setattr(table.boards, "INTERACTION_TOKEN_SECONDS", 3.0 * 14 / 15)
    members = world.players[:2]
    async with world.bot(seed=109) as bot:
        bot.tables.panels.awake_seconds = 3.0 * 14 / 15
        await open_game(world, members)
        for member in members:  # each player keeps the panel "My hand" opens on the first board
            await fake.click(max(fake.bot_messages(world.channel), key=lambda m: m.id), label="My hand", user=member)
        started = fake.interactions[-1].created_at
        final = await play_through(world, members, pause=0.3)
        end = await end_screen(world)
        await fake.wait_idle(quiet=0.5, timeout=60)
        lasted = fake.interactions[-1].created_at - started
    assert lasted > 2 * fake.interaction_token_lifetime, lasted  # the game outlived its first tokens twice over
    assert the_game.is_over(final)
    assert_only_newest_board_is_live(world, end)  # type: ignore[arg-type]
    assert not refused(fake), [(r.method, r.path, r.status) for r in refused(fake)]
    check_panels(world, members, final)
