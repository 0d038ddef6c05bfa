"""Issue 10, kept fixed: every failure fault injection found, one test each, through the fake Discord.

Each test names the item of the issue it keeps fixed. Damaged rows are made as an owner's mishap would make them:
with the bot stopped, by editing the database file; the other faults are injected into the fake Discord (errors and
rate limits on one route, channels of other kinds, deleted channels, raw option values a client could send) or come
from a second SQLite connection holding the write lock, as another process would.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

from benchmarks.load import TOKEN, BotProcess
from engine import the_game
from engine.the_game import EndTurn, Play
from tests.e2e.conftest import World
from tests.fake_discord import (
    GUILD_FORUM,
    GUILD_VOICE,
    INTERACTION_CALLBACK,
    PUBLIC_THREAD,
    Channel,
    FakeDiscord,
    InteractionRecord,
    Member,
)
from tests.players import CLOSED_DMS, best_play, latest_hand, public_messages, saved_game, saved_row, saved_state

APOLOGY = "Nothing was changed"
CANT_LOAD = "can't be loaded"

# ---- helpers: the table, the database, what an interaction showed ----------------------------------------------------


def mover(world: World, channel: Channel | None = None) -> Member:
    """Whose turn it is (the first player when anybody may lay the first card)."""
    state = saved_state(world, channel)
    current = the_game.current_player(state)
    return next(m for m in world.players if m.id == (state.players[0] if current is None else current))


async def act(
    world: World, member: Member, action: Play | EndTurn, channel: Channel | None = None, **kwargs: Any
) -> InteractionRecord:
    channel = channel or world.channel
    if isinstance(action, Play):
        options = {"card": action.card, "pile": action.pile}
        return await world.fake.invoke("play", user=member, channel=channel, options=options, **kwargs)
    return await world.fake.invoke("endturn", user=member, channel=channel, **kwargs)


async def lay(world: World, channel: Channel | None = None) -> InteractionRecord:
    """The player to move lays their best card."""
    member = mover(world, channel)
    return await act(world, member, best_play(saved_state(world, channel), member.id), channel)


async def lay_minimum(world: World, channel: Channel | None = None) -> Member:
    """The player to move lays the turn's minimum; returns them (their /endturn is next)."""
    member = mover(world, channel)
    while True:
        state = saved_state(world, channel)
        if the_game.current_player(state) == member.id and state.laid >= state.minimum:
            return member
        await act(world, member, best_play(state, member.id), channel)


async def deal(world: World, members: list[Member], channel: Channel | None = None) -> None:
    channel = channel or world.channel
    fake = world.fake
    await fake.invoke("newgame", user=members[0], channel=channel)
    for member in members[1:]:
        await fake.invoke("join", user=member, channel=channel)
    await fake.invoke("start", user=members[0], channel=channel)
    await fake.wait_idle()


def shown(rec: InteractionRecord) -> list[str]:
    """Everything the interaction showed its user: the response and every followup."""
    texts = [rec.response.content] if rec.response is not None else []
    return texts + [m.content for m in rec.followups if m is not rec.original]


def refusal(rec: InteractionRecord) -> str:
    assert rec.response is not None
    assert rec.response.ephemeral, rec.response.content
    return rec.response.content


def row(world: World, channel: Channel | None = None) -> sqlite3.Row:
    """The channel's newest game row, read without decoding anything (it may be damaged)."""
    found = saved_row(world, channel)
    assert found is not None
    return found


def edit(world: World, sql: str, *args: Any) -> None:
    """Change the database behind the (stopped) bot's back."""
    with closing(sqlite3.connect(world.database_path)) as db:
        assert db.execute(sql, args).rowcount > 0, sql
        db.commit()


def dm_messages(fake: FakeDiscord, member: Member) -> str:
    return f"/channels/{fake.dm_channel(member).id}/messages"


def real_hands_shown(world: World, members: list[Member]) -> bool:
    state = saved_state(world)
    return all(latest_hand(world.fake, m) == list(the_game.hand(state, m.id)) for m in members)


async def endgame_clears(world: World, host: Member) -> None:
    """The host's /endgame ends the channel's game in public, and the channel is free for the next."""
    ended = await world.fake.invoke("endgame", user=host, channel=world.channel)
    assert ended.response is not None
    assert not ended.response.ephemeral
    assert "ended the game" in ended.response.content
    assert row(world)["status"] == "abandoned"
    opened = await world.fake.invoke("newgame", user=host, channel=world.channel)
    assert opened.response is not None
    assert not opened.response.ephemeral
    # The lobby remembers its message after answering: let it, before the bot stops.
    assert opened.original is not None
    lobby = opened.original.id
    await world.fake.wait_for(lambda: row(world)["message_id"] == lobby, what="the lobby's message to be stored")


# ---- 1. one damaged game row ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    [
        "players",
        "move",
    ],
)
async def test_1_a_damaged_game_is_reported_in_its_own_channel_and_endgame_clears_it(
    world: World, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    ana, ben, cy, dee = world.players[:4]
    async with world.bot(seed=3):
        await deal(world, [ana, ben])
        await deal(world, [cy, dee], world.other_channel)
        await lay(world)
        await world.fake.wait_idle()  # the board's edit follows the answer
    damaged = row(world)["id"]
    if damage == "players":
        edit(world, "UPDATE games SET players = '[1, 2' WHERE id = ?", damaged)
    else:
        edit(world, "UPDATE moves SET action = '{\"oops' WHERE game_id = ?", damaged)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        async with world.bot(seed=4):
            named = [r for r in caplog.records if f"channel {world.channel.id}" in r.getMessage()]
            assert any(f"Game {damaged} " in r.getMessage() and r.levelno >= logging.ERROR for r in named)
            # The other channel plays on.
            laid = await lay(world, world.other_channel)
            assert laid.response is not None
            assert "laid" in laid.response.content  # answered privately, and the board edited in place
            await world.fake.wait_idle()
            board = public_messages(world.fake, world.other_channel)[-1]
            assert board.content.startswith(laid.response.content.splitlines()[0]), board.content
            # The damaged channel says so, and how to clear it.
            for command, options in [("board", None), ("hand", None), ("play", {"card": 50, "pile": "A"})]:
                rec = await world.fake.invoke(command, user=ana, channel=world.channel, options=options)
                text = refusal(rec)
                assert CANT_LOAD in text, text
                assert "/endgame" in text, text
            await endgame_clears(world, ana)
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
        assert row(world, world.other_channel)["status"] == "running"


# ---- 2. another process holds the write lock ------------------------------------------------------------------------


@contextmanager
def other_writer(world: World) -> Iterator[sqlite3.Connection]:
    """Another process's connection, holding SQLite's write lock (and writing a row) until it commits."""
    with closing(sqlite3.connect(world.database_path, isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO meta (key, value) VALUES ('another process', 'was here') ON CONFLICT DO NOTHING")
        try:
            yield db
        finally:
            if db.in_transaction:
                db.commit()


@pytest.mark.parametrize("hold", [2.5, 3.5])
async def test_2_a_write_lock_held_elsewhere_is_waited_for_or_refused_and_never_wedges(
    world: World, hold: float
) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=5) as bot:
        await deal(world, [ana, ben])
        await lay(world)
        logged = row(world)["logged"]
        loop = asyncio.get_running_loop()
        with other_writer(world) as db:
            released = loop.create_future()
            loop.call_later(hold, lambda: (db.commit(), released.set_result(None)))
            rec = await lay(world)  # the fake raises InteractionTimeout if it is not acknowledged within 3 s
            assert rec.response is not None
            assert rec.response.latency < 3.0
            await released
        await world.fake.wait_idle(quiet=0.2)
        if row(world)["logged"] == logged:
            busy = [m for m in [rec.response.message, *rec.followups] if m and "busy" in m.content and not m.deleted]
            assert len(busy) == 1, shown(rec)
            assert busy[0].ephemeral
            assert APOLOGY in busy[0].content
            assert not [m for m in public_messages(world.fake, world.channel) if "busy" in m.content or m.loading]
        else:
            assert rec.original is not None
            assert "laid" in rec.original.content
        assert not bot.storage._db.in_transaction  # type: ignore[attr-defined]
        # The lock is gone: the next actions work at once.
        for _ in range(2):
            after = await lay(world)
            assert after.response is not None
            assert "laid" in after.response.content
            assert after.response.latency < 1.0
        assert row(world)["logged"] >= logged + 2


# ---- 3. threads and forum posts are tables; voice channels' chats are not -------------------------------------------


@pytest.mark.parametrize("where", ["thread", "forum post"])
async def test_3_a_thread_or_a_forum_post_is_a_table_of_its_own(world: World, where: str) -> None:
    fake, ana = world.fake, world.players[0]
    if where == "thread":
        channel = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.channel)
    else:
        forum = fake.add_channel(world.guild, "ideas", type=GUILD_FORUM)
        channel = fake.add_channel(world.guild, "let's play", type=PUBLIC_THREAD, parent=forum, owner=ana)
    async with world.bot():
        opened = await fake.invoke("newgame", user=ana, channel=channel)
        assert opened.response is not None
        assert not opened.response.ephemeral, opened.response.content
        started = await fake.invoke("start", user=ana, channel=channel)
        assert started.response is not None
        assert "The Game begins" in started.response.content
        shown = await fake.invoke("hand", user=ana, channel=channel)
        assert "Your hand" in refusal(shown)  # private, as everywhere
    assert [m.embeds[0]["title"] for m in fake.bot_messages(channel)] == ["The Game: lobby", "The Game"]
    assert not fake.bot_messages(world.channel)


async def test_3_commands_in_a_voice_channels_chat_are_refused_in_words(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    channel = fake.add_channel(world.guild, "Lounge", type=GUILD_VOICE)
    async with world.bot():
        for command, options in [
            ("newgame", None),
            ("board", None),
            ("hand", None),
            ("play", {"card": 50, "pile": "A"}),
            ("take", None),
        ]:
            rec = await fake.invoke(command, user=ana, channel=channel, options=options)
            assert "Games are played in a server's text channels and threads" in refusal(rec)
    assert not fake.channel_messages(channel)


# ---- 4. a slow DM never holds up the channel ------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["429 for 4 s", "two 500s"])
async def test_4_a_slow_dm_does_not_delay_the_next_players_answer(world: World, fault: str) -> None:
    ana, ben = world.players[:2]
    fake = world.fake
    async with world.bot(seed=6):
        await deal(world, [ana, ben])
        drawer = await lay_minimum(world)
        route = f"{dm_messages(fake, drawer)}/{{message_id}}"  # the hand's DM is edited in place
        if fault == "two 500s":
            fake.fail("PATCH", route, status=500, times=2)
        else:
            fake.rate_limit("PATCH", route, retry_after=4.0)
        ended = await act(world, drawer, EndTurn())
        assert ended.response is not None
        assert "your turn" in ended.response.content  # the new turn's board, opening with what the turn did
        nxt = mover(world)
        assert nxt is not drawer
        answered = await lay(world)
        assert answered.response is not None
        assert "laid" in answered.response.content
        assert answered.response.latency < 1.0, "the next player's move waited for the DM"
        # The DM does arrive, showing the hand drawn.
        await fake.wait_for(lambda: real_hands_shown(world, [drawer]), timeout=10, what="the delayed DM")


# ---- 5. never "nothing was changed" after a commit -----------------------------------------------------------------


async def test_5_a_failed_answer_after_the_move_never_says_nothing_was_changed(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=7):
        await deal(world, [ana, ben])
        logged = row(world)["logged"]
        rule = world.fake.fail("POST", INTERACTION_CALLBACK, status=400, code=50035, message="Invalid Form Body")
        rec = await lay(world)
        assert rule.hits == 1
        assert [e.status for e in rec.errors] == [400]
        assert row(world)["logged"] == logged + 1  # the move is made
        texts = shown(rec)
        assert texts
        assert not any(APOLOGY in text for text in texts), texts
        assert any("move was made" in text for text in texts), texts


async def test_5_endgame_on_a_lobby_of_an_unknown_kind_ends_it_without_an_apology(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
    edit(world, "UPDATE games SET kind = 'chess' WHERE channel_id = ?", world.channel.id)
    async with world.bot():
        rec = await world.fake.invoke("endgame", user=ana, channel=world.channel)
        assert rec.response is not None
        assert not rec.response.ephemeral
        assert "ended the lobby" in rec.response.content
        assert not any(APOLOGY in text for text in shown(rec))
    assert row(world)["status"] == "abandoned"


# ---- 6. DMs: retried, "closed" only when closed, delivered after a restart -------------------------------------------


async def test_6_a_single_503_on_a_dm_is_retried_and_nobody_is_told_their_dms_are_closed(world: World) -> None:
    ana, ben = world.players[:2]
    fake = world.fake
    rule = fake.fail("POST", dm_messages(fake, ben), status=503)
    async with world.bot(seed=8):
        await deal(world, [ana, ben])
        await fake.wait_for(lambda: fake.dms(ben), what="ben's hand after the retry")
        assert rule.hits == 1
        assert real_hands_shown(world, [ana, ben])
        assert not [m for m in public_messages(fake, world.channel) if CLOSED_DMS in m.content]


@pytest.mark.parametrize("failure", [(403, 50001), (503, 0)])
async def test_6_only_a_403_50007_means_closed_dms(world: World, failure: tuple[int, int]) -> None:
    ana, ben = world.players[:2]
    fake = world.fake
    status, code = failure
    fake.fail("POST", dm_messages(fake, ben), status=status, code=code, times=10)
    async with world.bot(seed=8):
        await deal(world, [ana, ben])
        await fake.wait_idle(quiet=2.0, timeout=10)  # past the bot's retries
        assert not [m for m in public_messages(fake, world.channel) if CLOSED_DMS in m.content]


# ---- 7. a game of a kind this bot doesn't know ----------------------------------------------------------------------


async def test_7_a_game_of_an_unknown_kind_says_so_and_endgame_clears_it(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=9):
        await deal(world, [ana, ben])
    edit(world, "UPDATE games SET kind = 'chess' WHERE channel_id = ?", world.channel.id)
    caplog.clear()
    async with world.bot(seed=10):
        for command in ("board", "hand"):
            text = refusal(await world.fake.invoke(command, user=ben, channel=world.channel))
            assert CANT_LOAD in text, text
            assert "chess" in text
            assert "/endgame" in text
        await endgame_clears(world, ana)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


# ---- 9. smaller things -----------------------------------------------------------------------------------------------


async def test_9_a_button_no_handler_knows_is_answered(world: World) -> None:
    old = world.fake.add_bot_message(
        world.channel,
        "A board from an older version",
        components=[{"type": 1, "components": [{"type": 2, "style": 1, "label": "Draw", "custom_id": "tg:draw:7"}]}],
    )
    async with world.bot():
        rec = await world.fake.click(old, label="Draw", user=world.players[0])
        text = refusal(rec)
        assert "older version" in text
        assert "/board" in text


async def test_9_a_deleted_channel_ends_its_game_as_abandoned(world: World) -> None:
    ana, ben, cy, dee = world.players[:4]
    async with world.bot(seed=11):
        await deal(world, [ana, ben])
        await deal(world, [cy, dee], world.other_channel)
        await world.fake.delete_channel(world.channel)
        await world.fake.wait_for(lambda: row(world)["status"] == "abandoned", what="the game to be abandoned")
        assert row(world, world.other_channel)["status"] == "running"
        laid = await lay(world, world.other_channel)
        assert laid.response is not None
        assert "laid" in laid.response.content


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("play", {"card": 50, "pile": "x" * 6000}),
        ("play", {"card": "9" * 6000, "pile": "A"}),
        ("newgame", {"game": "x" * 6000}),
        ("rules", {"game": "x" * 6000}),
    ],
    ids=["play pile", "play card", "newgame game", "rules game"],
)
async def test_9_a_refusal_never_echoes_a_6000_character_option(
    world: World, command: str, options: dict[str, Any]
) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=12):
        await deal(world, [ana, ben])
        rec = await world.fake.invoke(command, user=ana, channel=world.channel, options=options, unchecked=True)
        assert len(refusal(rec)) <= 2000
        assert not any(APOLOGY in text for text in shown(rec))


async def test_9_a_boolean_option_sent_as_a_string_is_refused(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        rec = await world.fake.invoke(
            "newgame", user=ana, channel=world.channel, options={"expert": "yes"}, unchecked=True
        )
        assert "either true or false" in refusal(rec)
        assert saved_game(world) is None  # no lobby, let alone an expert one


# ---- the real bot process, killed ------------------------------------------------------------------------------------


@asynccontextmanager
async def bot_process(tmp_path: Path) -> AsyncIterator[tuple[World, BotProcess]]:
    """A world whose bot is ``python bot.py`` in its own process (as benchmarks/load.py runs it)."""
    async with FakeDiscord(bot_name="CardTable") as fake:
        guild = fake.add_guild("Card Club")
        channel = fake.add_text_channel(guild, "the-table")
        other = fake.add_text_channel(guild, "general")
        players = [fake.add_member(guild, name) for name in ("ana", "ben", "cy")]
        world = World(fake, tmp_path / "bot.sqlite3", guild, channel, other, players, fake.add_member(guild, "spec"))
        process = BotProcess(tmp_path, fake, {}, "INFO")
        try:
            yield world, process
        finally:
            await process.stop()
    assert TOKEN  # the launcher's token is what the fake accepts


async def restart(process: BotProcess) -> None:
    await process.start()
    await process.wait_ready()


def kill(process: BotProcess) -> None:
    assert process.proc is not None
    if process.proc.returncode is None:
        process.proc.kill()


async def test_6_a_kill_between_the_answer_and_the_dm_is_made_good_at_restart(tmp_path: Path) -> None:
    async with bot_process(tmp_path) as (world, process):
        fake, members = world.fake, world.players[:2]
        await restart(process)
        await deal(world, members)
        drawer = await lay_minimum(world)
        # The DM is held up until the kill: the answer is out, the hand never reaches the DM.
        held = fake.rate_limit("PATCH", f"{dm_messages(fake, drawer)}/{{message_id}}", retry_after=30.0)
        ended = await act(world, drawer, EndTurn())
        await fake.wait_for(lambda: held.hits, what="the DM to be under way")
        assert ended.response is not None
        assert "your turn" in ended.response.content  # the new turn's board, opening with what the turn did
        assert not real_hands_shown(world, [drawer])
        kill(process)
        assert await process.proc.wait() != 0  # type: ignore[union-attr]
        await restart(process)
        await fake.wait_for(lambda: real_hands_shown(world, members), timeout=10, what="the DM after the restart")


async def test_kill_9_at_random_moments_during_dm_delivery_leaves_every_newest_dm_showing_the_real_hand(
    tmp_path: Path,
) -> None:
    rng = random.Random(10)
    async with bot_process(tmp_path) as (world, process):
        fake, members = world.fake, world.players[:3]
        await restart(process)
        await deal(world, members)
        for _ in range(4):
            drawer = await lay_minimum(world)
            # Every DM costs a little time now, so that the kill lands among them.
            fake.rate_limit("PATCH", "/channels/{channel_id}/messages/{message_id}", retry_after=0.05, times=3)
            await act(world, drawer, EndTurn())
            await asyncio.sleep(rng.uniform(0.0, 0.12))
            kill(process)
            await process.proc.wait()  # type: ignore[union-attr]
            await restart(process)
        await fake.wait_idle(quiet=0.5, timeout=15)
        assert real_hands_shown(world, members)
        assert "Traceback" not in process.log()
