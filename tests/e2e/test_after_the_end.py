"""After the end, through the fake Discord over whole seeded games: only the newest end screen's Rematch is live (an
older one keeps only its Replay, or is refused when it kept the Rematch), /hand says how the game ended, the end screen
and the rematch lobby show the team's record (the game just ended included), the end screen's Replay opens the replay
privately; a daily deal's replay stays closed until its UTC day is over, and its Rematch deals new cards; a No Thanks!
end screen has its record and Replay too."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import first_version
from tests.e2e.test_ai import fast
from tests.e2e.test_stats import lose_the_game_alone_from_here, no_thanks_against_bots, text_of
from tests.fake_discord import CHANNEL_MESSAGE, MISSING_PERMISSIONS, Channel, Member, Message
from tests.players import answer, private, public, saved_game, saved_state


def end_screen(world: World, game_id: int) -> Message:
    """The message that carries (or carried) the game's Rematch: the board stored for it."""
    saved = saved_game(world)
    assert saved is not None
    row = saved[0]
    assert row["id"] == game_id
    assert row["message_id"] is not None
    return world.fake.messages[int(row["message_id"])]


def has_component(message: Message, custom_id: str) -> bool:
    try:
        message.component(custom_id)
    except KeyError:
        return False
    return True


def has_rematch(message: Message, game_id: int) -> bool:
    return has_component(message, f"rematch:{game_id}")


def has_replay(message: Message, game_id: int) -> bool:
    return has_component(message, f"replay:{game_id}")


def cards_left(world: World) -> int:
    """The score of the channel's last game of The Game, as the database saved it."""
    state: the_game.State = saved_state(world)
    return the_game.score(state)


async def lost_solo_game(world: World, member: Member, channel: Channel, **options: Any) -> int:
    await world.fake.invoke("newgame", user=member, channel=channel, options=options)
    await world.fake.invoke("start", user=member, channel=channel)
    return await lose_from_here(world, member, channel)


async def lose_from_here(world: World, member: Member, channel: Channel) -> int:
    await lose_the_game_alone_from_here(world, member, channel)
    await world.fake.wait_idle()
    saved = saved_game(world, channel)
    assert saved is not None
    return int(saved[0]["id"])


async def test_only_the_newest_end_screen_rematches_and_hand_says_how_it_ended(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=51) as bot:
        fast(bot)
        first = await lost_solo_game(world, ana, world.channel)
        first_end = end_screen(world, first)
        assert has_rematch(first_end, first)
        assert has_replay(first_end, first)
        first_left = cards_left(world)
        # The end screen's record counts the game that just ended.
        assert f"This team's record: 1 game, 0 won, best {first_left} cards left." in first_end.content

        hand = await world.fake.invoke("hand", user=ana, channel=world.channel)
        said = private(hand)
        assert "The game of The Game here is over (" in said
        assert "cards left)" in said  # how it ended
        assert "There's no game in this channel" not in said

        # The Rematch opens a lobby that shows this team's record so far.
        rematch = await world.fake.click(first_end, f"rematch:{first}", user=ana)
        lobby = text_of(rematch)
        assert "wants a rematch of The Game" in lobby
        assert "This team's record: 1 game, 0 won, best " in lobby
        await world.fake.invoke("start", user=ana, channel=world.channel)
        second = await lose_from_here(world, ana, world.channel)
        best = min(first_left, cards_left(world))
        # The newer end took the Rematch off the older end screen; its Replay stays.
        assert not has_rematch(first_end, first)
        assert has_replay(first_end, first)
        second_end = end_screen(world, second)
        assert has_rematch(second_end, second)
        assert has_replay(second_end, second)
        assert f"This team's record: 2 games, 0 won, best {best} cards left." in second_end.content
        assert "This team's record: 1 game" in first_end.content  # the old end screen keeps its day's record

        # An end screen that kept its Rematch (the bot could not edit it) is refused on click, with the reason.
        block = world.fake.fail("PATCH", CHANNEL_MESSAGE, message_id=second_end, error=MISSING_PERMISSIONS, times=None)
        again = await world.fake.click(second_end, f"rematch:{second}", user=ana)
        assert "This team's record: 2 games, 0 won" in text_of(again)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        await lose_from_here(world, ana, world.channel)
        block.clear()
        assert has_rematch(second_end, second)
        stale = await world.fake.click(second_end, f"rematch:{second}", user=ana)
        assert "That Rematch is out of date: a later game has ended here since." in private(stale)


async def test_the_end_screens_replay_button_opens_the_replay_privately(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=52) as bot:
        fast(bot)
        game = await lost_solo_game(world, ana, world.channel)
        end = end_screen(world, game)
        assert end.component(f"replay:{game}")["label"] == "Replay"
        before = len(world.fake.channel_messages(world.channel))
        # Anyone at the table may watch it, players or not: privately, so the channel stays quiet.
        replay = await world.fake.click(end, f"replay:{game}", user=ben)
        assert answer(replay).ephemeral
        shown = private(replay)
        assert f"Replay of The Game `#{game}`" in shown
        assert "move 0 of" in shown
        assert f"<@{ana.id}>: hand: " in shown
        assert len(world.fake.channel_messages(world.channel)) == before
        # The record came up with the end screen itself, in its first version: no message or edit of its own.
        assert "This team's record: 1 game, 0 won, best " in first_version(end).content
        # /board after the end shows the same end screen: the record, and the Replay beside the Rematch.
        shown = public(await world.fake.invoke("board", user=ben, channel=world.channel))
        assert "This team's record: 1 game, 0 won, best " in shown.content
        assert has_rematch(shown, game)
        assert has_replay(shown, game)


async def test_a_daily_deal_stays_closed_until_its_day_is_over_and_its_rematch_deals_new_cards(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=53) as bot:
        fast(bot)
        lobby = bot.tables.lobby  # the daily deal's clock is the core lobby's
        lobby.today = lambda: date(2025, 3, 1)
        daily = await lost_solo_game(world, ana, world.channel, deal="daily")
        daily_row = saved_game(world)
        assert daily_row is not None
        daily_seed = daily_row[0]["seed"]

        history = await world.fake.invoke("history", user=ben, channel=world.channel)
        listing = text_of(history)
        assert "🔒" in listing
        assert "Today's daily deal: its replay opens tomorrow (UTC)." in listing
        assert history.original is not None
        assert not has_component(history.original, "hist:pick")
        # Its own player can't open it either (they could tell), nor through the end screen's Replay.
        daily_end = end_screen(world, daily)
        closed = await world.fake.click(daily_end, f"replay:{daily}", user=ana)
        assert "Today's daily deal: its replay opens tomorrow (UTC)." in private(closed)

        # A Rematch of the daily game deals new cards, and the lobby says so.
        rematch = await world.fake.click(daily_end, f"rematch:{daily}", user=ana)
        assert "wants a rematch of The Game with a random deal" in text_of(rematch)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        again = saved_game(world)
        assert again is not None
        assert again[0]["seed"] != daily_seed
        assert "deal" not in json.loads(again[0]["options"])
        await world.fake.invoke("endgame", user=ana, channel=world.channel)

        # The next UTC day, the deal's replay opens, from the end screen (it kept its Replay) and from /history.
        lobby.today = lambda: date(2025, 3, 2)
        opened = await world.fake.click(daily_end, f"replay:{daily}", user=ben)
        assert f"Replay of The Game `#{daily}`" in private(opened)
        history = await world.fake.invoke("history", user=ben, channel=world.channel)
        assert "opens tomorrow" not in text_of(history)
        assert history.original is not None
        picked = await world.fake.select(history.original, "hist:pick", [str(daily)], user=ben)
        replay = picked.original or (picked.response.message if picked.response else None)
        assert replay is not None
        assert "move 0 of" in replay.content


async def test_a_no_thanks_end_screen_shows_the_record_and_its_replay(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=54) as bot:
        fast(bot)
        await no_thanks_against_bots(world, bot, ana)
        await world.fake.wait_idle()
        state: no_thanks.State = saved_state(world)
        saved = saved_game(world)
        assert saved is not None
        game = int(saved[0]["id"])
        points = next(line.total for line in no_thanks.scores(state) if line.player == ana.id)
        won = int(no_thanks.winner(state)[0] == ana.id)
        end = end_screen(world, game)
        assert has_rematch(end, game)
        # One person against computer players: her own record at the game, this one included.
        assert f"<@{ana.id}>'s record: 1 game, {won} won, best {points} points." in end.content
        replay = await world.fake.click(end, f"replay:{game}", user=ben)
        assert "Replay of No Thanks!" in private(replay)
