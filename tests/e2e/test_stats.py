"""Statistics through the fake Discord: whole games won, lost and abandoned, with and without computer players, then
/stats, /leaderboard, /history and a replay show the right figures; the daily deal deals the same cards in two
channels on one date and others the next day, and /daily compares the tables' first tries."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from bot import Bot
from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.e2e.test_ai import fast, settle
from tests.fake_discord import Channel, InteractionRecord, Member, Message
from tests.players import biggest_jump, latest_hand, saved_game, saved_state, tops_of


def text_of(rec: InteractionRecord) -> str:
    """Everything the answer shows: its content and its embeds' texts."""
    assert rec.response is not None
    message = rec.original or rec.response.message
    content = message.content if message is not None else rec.response.content
    embeds = message.embeds if message is not None else rec.response.embeds
    return content + "\n" + json.dumps(embeds, ensure_ascii=False)


def shown(message: Message) -> str:
    return message.content + "\n" + json.dumps(message.embeds, ensure_ascii=False)


async def lose_the_game_alone(world: World, member: Member, channel: Channel) -> None:
    """A solo game of The Game, played badly on purpose until it is lost."""
    await world.fake.invoke("newgame", user=member, channel=channel)
    await world.fake.invoke("start", user=member, channel=channel)
    await lose_the_game_alone_from_here(world, member, channel)


async def no_thanks_against_bots(world: World, bot: Bot, member: Member) -> None:
    await world.fake.invoke("newgame", user=member, channel=world.channel, options={"game": "no_thanks", "bots": 2})
    await world.fake.invoke("start", user=member, channel=world.channel)
    for _ in range(400):
        await settle(world)
        state: no_thanks.State = saved_state(world)
        if no_thanks.is_over(state):
            return
        if no_thanks.current_player(state) == member.id:
            await world.fake.invoke("take", user=member, channel=world.channel)
    raise AssertionError("the game against bots did not end")


async def test_stats_leaderboard_history_and_a_replay_after_whole_games(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=31) as bot:
        fast(bot)
        await lose_the_game_alone(world, ana, world.channel)
        lost = saved_game(world)
        assert lost is not None
        left = the_game.score(lost[1])
        await no_thanks_against_bots(world, bot, ana)
        nt = saved_state(world)
        ana_points = next(line.total for line in no_thanks.scores(nt) if line.player == ana.id)
        # An abandoned game: dealt, one card, then ended by the host.
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"bots": 0})
        await world.fake.invoke("join", user=ben, channel=world.channel)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        await world.fake.invoke("endgame", user=ana, channel=world.channel)

        stats = await world.fake.invoke("stats", user=ana, channel=world.channel)
        assert stats.response is not None
        assert stats.response.ephemeral
        text = text_of(stats)
        assert "The Game (people only)" in text
        assert "Played **1**, won **0** (0%), abandoned 1" in text
        assert f"Best {left} cards left" in text
        assert "No Thanks! (with computer players or autopilot turns)" in text
        assert f"Best {ana_points} points" in text
        assert "Winning streak: 0 now" in text
        posted = await world.fake.invoke("stats", user=ben, channel=world.channel, options={"public": True})
        assert posted.response is not None
        assert not posted.response.ephemeral
        assert "Played **0**, won **0**, abandoned 1" in text_of(posted)  # his only game was abandoned
        other = await world.fake.invoke("stats", user=ben, channel=world.channel, options={"player": ana})
        assert "Played **1**" in text_of(other)

        # The leaderboards: Ana's solo team has one game, under the three that qualify; games with bots are apart.
        board = await world.fake.invoke("leaderboard", user=ben, channel=world.channel)
        assert "No teams with 3 finished games" in text_of(board)
        bot.get_cog("Stats").min_games = 1  # type: ignore[union-attr]
        board = await world.fake.invoke("leaderboard", user=ben, channel=world.channel)
        assert f"<@{ana.id}>: 0 won in 1, average {left}.0 cards left" in text_of(board)
        nt_board = await world.fake.invoke(
            "leaderboard", user=ben, channel=world.channel, options={"game": "no_thanks"}
        )
        assert "No players" in text_of(nt_board)
        assert nt_board.original is not None
        mixed = await world.fake.click(nt_board.original, label="With computer players", user=ben)
        assert mixed.response is not None
        assert mixed.response.type == 7  # the page turned in place
        assert f"<@{ana.id}>: " in shown(nt_board.original)
        assert "Bot Ada" not in shown(nt_board.original)  # computer players are not on the board

        # The history lists the three dealt games, newest first; the solo game replays step by step.
        history = await world.fake.invoke("history", user=ben, channel=world.channel)
        listing = text_of(history)
        assert listing.index("abandoned") < listing.index("No Thanks!") < listing.index(f"{left} cards left")
        assert "🤖" in listing
        assert history.original is not None
        picked = await world.fake.select(history.original, "hist:pick", [str(lost[0]["id"])], user=ben)
        replay = picked.original or (picked.response.message if picked.response else None)
        assert replay is not None
        assert replay.ephemeral
        assert "move 0 of" in replay.content
        assert "The deal" in replay.content
        assert f"<@{ana.id}>: hand: " in replay.content  # every hand is shown: the game is over
        await world.fake.click(replay, label="Next ▶", user=ben)
        assert "move 1 of" in replay.content
        assert "laid" in replay.content
        await world.fake.click(replay, label="End ⏭", user=ben)
        assert "Game over" in replay.content
        assert "was stuck" in replay.content  # the moment it was lost
        assert f"{left} cards not laid" in replay.content
        await world.fake.click(replay, label="◀ Back", user=ben)
        assert "Game over" not in replay.content

    # After a restart, the old pages still turn.
    async with world.bot(seed=32):
        await world.fake.click(replay, label="⏮ Start", user=ben)
        assert "move 0 of" in replay.content


async def newest_hand(world: World, member: Member) -> list[int]:
    await world.fake.wait_idle()
    return latest_hand(world.fake, member)


async def daily_game(world: World, member: Member, channel: Channel) -> dict[str, Any]:
    await world.fake.invoke("newgame", user=member, channel=channel, options={"deal": "daily"})
    await world.fake.invoke("start", user=member, channel=channel)
    saved = saved_game(world, channel)
    assert saved is not None
    return dict(saved[0])


async def test_the_daily_deal_is_the_same_everywhere_on_a_date_and_daily_compares_first_tries(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=41) as bot:
        lobby = bot.tables.lobby  # the daily deal's clock is the core lobby's
        lobby.today = lambda: date(2025, 3, 1)
        first = await daily_game(world, ana, world.channel)
        ana_hand = await newest_hand(world, ana)
        second = await daily_game(world, ben, world.other_channel)
        assert first["seed"] == second["seed"]
        assert await newest_hand(world, ben) == ana_hand  # the same cards in both channels
        assert json.loads(first["options"])["date"] == "2025-03-01"
        # Ana's table gives up and tries again: only its first try counts.
        await world.fake.invoke("endgame", user=ana, channel=world.channel)
        again = await daily_game(world, ana, world.channel)
        assert again["seed"] == first["seed"]
        await world.fake.invoke("endgame", user=ana, channel=world.channel)
        await lose_the_game_alone_from_here(world, ben, world.other_channel)

        daily = await world.fake.invoke("daily", user=ana, channel=world.channel)
        text = text_of(daily)
        assert "March 1, 2025" in text  # the day written the reader's way
        assert "The Game, 1 player" in text
        assert f"<#{world.channel.id}>" in text
        assert f"<#{world.other_channel.id}>" in text
        assert text.count(f"<#{world.channel.id}>") == 1  # the first try only
        # Ben's finished game ranks above Ana's abandoned one.
        assert text.index(f"<#{world.other_channel.id}>") < text.index(f"<#{world.channel.id}>")

        lobby.today = lambda: date(2025, 3, 2)
        tomorrow = await daily_game(world, ana, world.channel)
        assert tomorrow["seed"] != first["seed"]
        assert await newest_hand(world, ana) != ana_hand
        empty = await world.fake.invoke("daily", user=ana, channel=world.channel)
        assert "No table here has finished today's deal yet" in text_of(empty)
        # A two-player table gets another deal than a solo one on the same date. Ben opens it: Ana has opened three
        # lobbies here within the minute, and a fourth would wait for /newgame's cooldown.
        await world.fake.invoke("endgame", user=ana, channel=world.channel)
        await world.fake.invoke("newgame", user=ben, channel=world.channel, options={"deal": "daily"})
        await world.fake.invoke("join", user=ana, channel=world.channel)
        await world.fake.invoke("start", user=ben, channel=world.channel)
        pair = saved_game(world)
        assert pair is not None
        assert pair[0]["seed"] != tomorrow["seed"]


async def lose_the_game_alone_from_here(world: World, member: Member, channel: Channel) -> None:
    """Play the running solo game in ``channel`` badly (the biggest jumps) until it is lost."""
    for _ in range(200):
        saved = saved_game(world, channel)
        assert saved is not None
        state: the_game.State = saved[1]
        if the_game.is_over(state):
            return
        view = the_game.public_view(state)
        if view.current_player == member.id and view.laid >= view.minimum:
            await world.fake.invoke("endturn", user=member, channel=channel)
            continue
        worst = biggest_jump(the_game.hand(state, member.id), tops_of(state))
        assert worst is not None
        await world.fake.invoke("play", user=member, channel=channel, options={"card": worst.card, "pile": worst.pile})
    raise AssertionError("the solo game did not end")
