"""Issue 21: after a commit, the truth. Every answer path works whether or not the interaction was deferred (a slow
database makes the bot defer after a moment), a Discord refusal after a commit is reported as such and never as a
refusal of the action, and a damaged game is logged once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import table.answer
from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import newest_board
from tests.e2e.test_hardening import act, deal, edit, lay_minimum, mover, other_writer, row, shown
from tests.fake_discord import WEBHOOK_MESSAGE, Perm
from tests.players import best_play, public_messages, saved_state

SLOW = 0.8  # how long another process holds the database's write lock: well past the (shortened) defer


@pytest.fixture(autouse=True)
def defer_early(monkeypatch: pytest.MonkeyPatch) -> None:
    # The bot defers after 2 s in production; here after 0.2 s, so a lock held for under a second is "slow".
    monkeypatch.setattr(table.answer, "DEFER_AFTER_SECONDS", 0.2)


@contextmanager
def slow_database(world: World) -> Iterator[None]:
    """Another process holds the write lock for ``SLOW`` seconds from now."""
    with other_writer(world) as db:
        asyncio.get_running_loop().call_later(SLOW, db.commit)
        yield


def no_refusal(texts: list[str]) -> None:
    assert not any("Nothing was changed" in text or "showing it failed" in text for text in texts), texts


async def test_a_slowed_end_of_turn_is_deferred_and_still_posts_the_new_board_and_pings(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=21):
        await deal(world, [ana, ben])
        member = await lay_minimum(world)
        logged = row(world)["logged"]
        with slow_database(world):
            rec = await world.fake.invoke("endturn", user=member, channel=world.channel)
        await world.fake.wait_idle()
        assert rec.deferred
        assert row(world)["logged"] == logged + 1
        no_refusal(shown(rec))
        assert rec.original is not None
        assert not rec.original.loading
        assert not rec.original.ephemeral
        assert " and drew " in rec.original.content  # the new turn's board opens with what the turn did
        following = the_game.current_player(saved_state(world))
        assert following is not None
        assert following != member.id
        assert f"<@{following}>" in rec.original.content  # the next mover is pinged on the new board


async def test_a_slowed_panel_click_updates_its_panel(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=22):
        await deal(world, [ana, ben])
        member = mover(world)
        opened = await world.fake.invoke("hand", user=member, channel=world.channel)
        panel = opened.response.message if opened.response else None
        assert panel is not None
        play = best_play(saved_state(world), member.id)
        card = await world.fake.click(panel, f"tg:{saved_game_id(world)}:card:{play.card}:", user=member)
        assert card.response is not None
        logged = row(world)["logged"]
        with slow_database(world):
            rec = await world.fake.click(panel, f"tg:{saved_game_id(world)}:pile:{play.card}:{play.pile}", user=member)
        await world.fake.wait_idle()
        assert rec.deferred
        assert row(world)["logged"] == logged + 1
        no_refusal(shown(rec))
        assert f"laid {play.card} on {play.pile}" in panel.content  # the panel itself shows what was done


def saved_game_id(world: World) -> int:
    return int(row(world)["id"])


async def test_a_slowed_take_is_deferred_and_still_posts_the_new_board(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=23):
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "no_thanks"})
        for member in (ben, cy):
            await world.fake.invoke("join", user=member, channel=world.channel)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        await world.fake.wait_idle()
        state = saved_state(world)
        taker = next(m for m in (ana, ben, cy) if m.id == state.players[state.turn])
        logged = row(world)["logged"]
        with slow_database(world):
            rec = await world.fake.invoke("take", user=taker, channel=world.channel)
        await world.fake.wait_idle()
        assert rec.deferred
        assert row(world)["logged"] == logged + 1
        no_refusal(shown(rec))
        assert rec.original is not None
        assert "took" in rec.original.content
        assert rec.original.embeds


async def test_a_slowed_join_is_deferred_and_the_lobby_follows(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=24):
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
        with slow_database(world):
            rec = await world.fake.invoke("join", user=ben, channel=world.channel)
        await world.fake.wait_idle()
        assert rec.deferred
        no_refusal(shown(rec))
        assert str(ben.id) in row(world)["players"]
        lobby = public_messages(world.fake, world.channel)[0]
        assert ben.mention in lobby.content
        answered = [m for m in [rec.original, *rec.followups] if m is not None and not m.deleted]
        assert answered
        assert all(m.ephemeral for m in answered)


async def test_a_join_whose_lobby_cannot_be_edited_says_it_was_made_and_what_to_grant(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=25):
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
        world.fake.set_permissions(world.channel, world.fake.bot, deny=Perm.SEND_MESSAGES | Perm.EMBED_LINKS)
        rec = await world.fake.invoke("join", user=ben, channel=world.channel)
        await world.fake.wait_idle()
        assert str(ben.id) in row(world)["players"]  # applied
        texts = shown(rec)
        no_refusal(texts)
        assert any(
            "You joined" in text and "Send Messages" in text and f"<#{world.channel.id}>" in text for text in texts
        ), texts
        assert not any("refused me a permission" in text for text in texts), texts


async def test_an_expired_token_after_a_commit_loses_nothing_and_board_catches_up(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=26):
        await deal(world, [ana, ben])
        member = await lay_minimum(world)
        logged = row(world)["logged"]
        with slow_database(world):
            rec = await world.fake.invoke("endturn", user=member, channel=world.channel, wait=False)
            await rec.wait_response()
            world.fake.expire_interaction(rec)  # 15 minutes pass while the database is slow
        await world.fake.wait_idle()
        assert row(world)["logged"] == logged + 1  # the move is committed all the same
        shown_board = await world.fake.invoke("board", user=ana, channel=world.channel)
        assert shown_board.response is not None
        assert " and drew " in shown_board.response.content  # /board brings the table up to date


async def test_a_board_edit_whose_connection_is_lost_is_sent_once_more(world: World) -> None:
    """Discord closes a kept-alive connection just as the board's edit goes out, and never answers it: the bot sends
    the edit again, and the board shows the card."""
    ana, ben = world.players[:2]
    async with world.bot(seed=26):
        await deal(world, [ana, ben])
        board = newest_board(world)
        member = mover(world)
        play = best_play(saved_state(world), member.id)
        lost = world.fake.drop("PATCH", WEBHOOK_MESSAGE, message_id=board)
        await act(world, member, play)
        await world.fake.wait_idle()
        assert lost.hits == 1
        edits = [r for r in world.fake.requests if r.route == WEBHOOK_MESSAGE]
        edits = [r.status for r in edits if r.params["message_id"] == str(board.id)]
        assert edits == [0, 200]
        assert f"laid {play.card} on {play.pile}" in board.content


async def test_a_damaged_game_is_logged_once(world: World, caplog: pytest.LogCaptureFixture) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=27):
        await deal(world, [ana, ben])
    edit(world, "UPDATE games SET players = '[1, 2' WHERE id = ?", row(world)["id"])
    caplog.set_level(logging.ERROR)
    async with world.bot(seed=28):
        for _ in range(3):
            await world.fake.invoke("board", user=ana, channel=world.channel)
            await world.fake.invoke("hand", user=ben, channel=world.channel)
        await world.fake.wait_idle()
    reports = [r for r in caplog.records if "cannot be loaded" in r.getMessage()]
    assert len(reports) == 1, [r.getMessage() for r in reports]
