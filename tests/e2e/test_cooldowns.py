"""Cooldowns (issue 33): a command that makes the bot post in the channel can't be repeated at once by the same
member (the friendly line, privately, in their language); a move never waits for one."""

from __future__ import annotations

import re

from tests.e2e.conftest import World
from tests.e2e.table_helpers import no_thanks_board, open_game
from tests.players import answer, public_messages

SLOW_DOWN = re.compile(r"^Slow down a little: try again in (\d+) seconds?\.$")


async def test_a_second_board_right_away_is_refused_privately_and_others_are_not_slowed(world: World) -> None:
    ana, ben, cy, dee = world.players[:4]
    async with world.bot():
        await open_game(world, [ana, ben, cy], "no_thanks")
        posted = len(public_messages(world.fake, world.channel))
        first = await world.fake.invoke("board", user=dee, channel=world.channel)
        assert not answer(first).ephemeral
        again = await world.fake.invoke("board", user=dee, channel=world.channel)
        assert answer(again).ephemeral
        refused = SLOW_DOWN.match(answer(again).content)
        assert refused, answer(again).content
        assert 1 <= int(refused.group(1)) <= 10
        assert len(public_messages(world.fake, world.channel)) == posted + 1  # the refused one posted nothing
        # In German, for a German client: the same line from the catalog.
        german = await world.fake.invoke("board", user=dee, channel=world.channel, locale="de")
        assert answer(german).ephemeral
        assert answer(german).content.startswith("Nicht so schnell: versuch es in ")
        # Another member asks for it: theirs is posted.
        other = await world.fake.invoke("board", user=ana, channel=world.channel)
        assert not answer(other).ephemeral


async def test_moves_are_never_refused_for_speed(world: World) -> None:
    players = world.players[:3]
    async with world.bot():
        await open_game(world, players, "no_thanks")
        accepted = 0
        # In No Thanks! whoever takes the card moves again: the same member's moves come back to back, at once.
        for _ in range(6):
            for member in players:
                record = await world.fake.invoke("take", user=member, channel=world.channel)
                text = answer(record).content or ""
                assert not SLOW_DOWN.match(text), text
                if "not your turn" not in text:
                    accepted += 1
        assert accepted == 6
        for _ in range(3):
            for member in players:
                board = await no_thanks_board(world)
                record = await world.fake.click(board, label="Take", user=member)
                assert not SLOW_DOWN.match(answer(record).content or "")


async def test_public_stats_are_slowed_and_private_ones_never(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        shown = await world.fake.invoke("stats", user=ana, channel=world.channel, options={"public": True})
        assert not answer(shown).ephemeral
        again = await world.fake.invoke("stats", user=ana, channel=world.channel, options={"public": True})
        assert answer(again).ephemeral
        assert SLOW_DOWN.match(answer(again).content), answer(again).content
        for _ in range(3):
            private = await world.fake.invoke("stats", user=ana, channel=world.channel)
            assert answer(private).ephemeral
            assert not SLOW_DOWN.match(answer(private).content or "")
        pages = [await world.fake.invoke(name, user=ana, channel=world.channel, options={"public": True})
                 for name in ("leaderboard", "daily", "history") for _ in range(2)]  # fmt: skip
        assert [answer(page).ephemeral for page in pages] == [False, True] * 3
