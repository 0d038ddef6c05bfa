"""Issue 36, panels that follow the game on the real service: a panel is edited only through a token Discord accepts
for it. Before its token runs out (15 minutes on Discord; scaled down here, the fake's token lifetime and the bot's
margin together) a panel stops with one line and a Refresh button, which redraws it in place; a panel whose token
died before that (Discord refused the edit) is stale, and the player's next move brings a fresh panel that follows the
game from then on. Whole games outlive their tokens several times over with every board and panel right at the end."""

from __future__ import annotations

import pytest

import table.boards
from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import (
    assert_only_newest_board_is_live,
    click_panel,
    newest_board,
    open_game,
    panel_button,
)
from tests.e2e.test_discord_limits import play_through, refused
from tests.e2e.test_discord_time import check_panels, end_screen
from tests.fake_discord import INVALID_WEBHOOK_TOKEN, WEBHOOK_MESSAGE, Message
from tests.players import hand_in, read_panel, saved_game, saved_state, tops_of

STOPPED = "This panel stopped following the game: press Refresh or use /hand."
FRESH = "Your earlier panel could no longer follow the game; this one does:"
TOKEN_SECONDS = 2.0  # a token's life in these tests (15 minutes on Discord)


def stopped(panel: Message) -> bool:
    return panel.content == STOPPED and [b.get("label") for b in panel.buttons] == ["Refresh"]


def game_id(world: World) -> int:
    saved = saved_game(world)
    assert saved is not None
    return int(saved[0]["id"])


async def test_a_panel_whose_token_died_early_is_replaced_by_a_fresh_one_at_the_players_next_move(
    world: World,
) -> None:
    fake = world.fake
    members = world.players[:3]
    async with world.bot(seed=12) as bot:
        await open_game(world, members, game="no_thanks")
        state = saved_state(world)
        first = no_thanks.current_player(state)
        order = [m for m in members if m.id == first] + [m for m in members if m.id != first]
        mover, late = order[0], order[1]
        # ``late``'s panel: Discord will refuse every edit through its token (as for a token that died early).
        opening = await fake.click(newest_board(world, "No Thanks!"), label="My cards and chips", user=late)
        panel = opening.original
        assert panel is not None
        fake.fail("PATCH", WEBHOOK_MESSAGE, interaction=opening, error=INVALID_WEBHOOK_TOKEN, times=None)
        await fake.click(newest_board(world, "No Thanks!"), label="No thanks!", user=mover)
        await fake.wait_idle()
        assert bot.tables.panels.stale(game_id(world), late.id)
        assert "Your turn." not in panel.content  # it could not follow: it shows the position it was opened on
        fake.clear_failures()
        # Their next move, a click on the board, brings a fresh panel below, privately.
        now = no_thanks.current_player(saved_state(world))
        assert now == late.id
        rec = await fake.click(newest_board(world, "No Thanks!"), label="No thanks!", user=late)
        await fake.wait_idle()
        fresh = [m for m in rec.followups if m.ephemeral and m.content.startswith(FRESH)]
        assert len(fresh) == 1, [m.content for m in rec.followups]
        new = fresh[0]
        assert f"Your chips: {no_thanks.chips(saved_state(world), late.id)}" in new.content
        assert not bot.tables.panels.stale(game_id(world), late.id)
        # It follows the game from then on: the next player's move shows on it, through its own token.
        after = order[2]
        await fake.click(newest_board(world, "No Thanks!"), label="Take", user=after)
        await fake.wait_for(lambda: len(new.history) > 1, what="the fresh panel to follow the move")
        assert f"Your chips: {no_thanks.chips(saved_state(world), late.id)}" in new.content
        # The only refusals were the ones Discord was told to give: nothing went through a token it would refuse.
        assert {(r.method, r.status) for r in refused(fake)} == {("PATCH", 401)}


def keep_scaled(monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    """Tokens live ``TOKEN_SECONDS`` (15 minutes on Discord); the bot keeps its one-minute-in-fifteen margin."""
    world.fake.interaction_token_lifetime = TOKEN_SECONDS
    monkeypatch.setattr(table.boards, "INTERACTION_TOKEN_SECONDS", TOKEN_SECONDS * 14 / 15)


async def test_a_game_outliving_its_tokens_stops_panels_in_time_and_refresh_brings_them_back(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = world.fake
    keep_scaled(monkeypatch, world)
    members = world.players[:3]
    async with world.bot(seed=163) as bot:
        bot.tables.panels.awake_seconds = TOKEN_SECONDS * 14 / 15
        await open_game(world, members)
        panels: dict[int, Message] = {}
        for member in members:  # each player keeps the panel "My hand" opens on the first board
            rec = await fake.click(newest_board(world), label="My hand", user=member)
            assert rec.original is not None
            panels[member.id] = rec.original
        started = fake.interactions[-1].created_at
        ana = members[0]
        # Nobody clicks it: before its token runs out it stops, with only Refresh left.
        await fake.wait_for(lambda: stopped(panels[ana.id]), what="ana's panel to stop", timeout=TOKEN_SECONDS * 3)
        refreshed = await fake.click(panels[ana.id], label="Refresh", user=ana)
        assert refreshed.response is not None
        assert refreshed.response.type == 7  # redrawn in place
        assert hand_in(panels[ana.id].content) == list(the_game.hand(saved_state(world), ana.id))
        final = await play_through(world, members, pause=0.25)
        end = await end_screen(world)
        await fake.wait_idle(quiet=0.5, timeout=60)
        lasted = fake.interactions[-1].created_at - started
    assert lasted > 3 * TOKEN_SECONDS, lasted  # the game outlived its first tokens three times over
    assert the_game.is_over(final)
    assert_only_newest_board_is_live(world, end)  # type: ignore[arg-type]
    assert not refused(fake), [(r.method, r.path, r.status) for r in refused(fake)]
    # Every panel with live buttons shows its owner's hand as it is; every other one stopped, shrank or ended.
    check_panels(world, members, final)
    assert any(stopped(p) for member in members for p in fake.ephemeral_messages(member))


async def test_a_refused_click_on_a_panel_nobody_followed_redraws_it_as_the_game_is_now(world: World) -> None:
    """A restart forgets which panels were kept current: a panel opened before it is behind the game; a click on it
    that the rules refuse first redraws it in place as the game is now, then says why."""
    fake = world.fake
    ana, ben = world.players[:2]
    async with world.bot(seed=109):
        await open_game(world, [ana, ben])
        # Anyone may lay the first card: Ben opens his panel and picks his lowest card, for pile A.
        low, high = sorted(the_game.hand(saved_state(world), ben.id))[:2]
        panel = (await fake.click(newest_board(world), label="My hand", user=ben)).original
        assert panel is not None
        await click_panel(world, panel, ben, "card", low)
        assert not panel_button(panel, "pile", low, "A").get("disabled")
    async with world.bot(seed=110):
        # After the restart Ben lays a higher card on A by command: his old panel is left behind, unknown.
        await fake.invoke("play", user=ben, channel=world.channel, options={"card": high, "pile": "A"})
        await fake.wait_idle()
        now = tops_of(saved_state(world))
        assert now["A"] == high
        assert high - low != 10  # (no backwards trick: the lower card no longer fits A)
        rec = await fake.click(panel, panel_button(panel, "pile", low, "A")["custom_id"], user=ben)
        await fake.wait_idle()
        redrawn = read_panel(panel.content)
        assert redrawn is not None
        assert redrawn.tops == now
        assert hand_in(panel.content) == list(the_game.hand(saved_state(world), ben.id))
        refusals = [m.content for m in rec.followups if m.ephemeral]
        assert len(refusals) == 1, refusals
        assert str(low) in refusals[0]
