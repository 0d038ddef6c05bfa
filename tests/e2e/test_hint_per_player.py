"""Issue 38: Hint says what it costs before the click, and the cost is marked against the hinted player alone: at a
table of two people and a computer partner, Ana's hint is recorded as hers (a players' leaderboard leaves out only
her result: tests/storage/test_stats_queries.py). The Game's leaderboard is the teams', and a team's result is the
hinter's too, so the team's game is left out, as its footer says."""

from __future__ import annotations

import sqlite3

from engine import the_game
from table.people import is_ai
from tests.e2e.conftest import World
from tests.e2e.table_helpers import newest_board, panel_button
from tests.e2e.test_ai import fast, settle
from tests.e2e.test_stats import shown, text_of
from tests.fake_discord import Member
from tests.players import biggest_jump, saved_row, saved_state, tops_of


async def play_to_the_end(world: World, people: dict[int, Member]) -> None:
    """The people lay their biggest jumps (the game ends soon); the computer partner plays its own turns."""
    for _ in range(400):
        await settle(world)
        state: the_game.State = saved_state(world)
        if the_game.is_over(state):
            return
        view = the_game.public_view(state)
        mover = view.current_player
        if mover is not None and mover not in people:
            continue  # the computer partner's turn: it moves after its pause
        member = people[mover] if mover is not None else next(iter(people.values()))
        if view.current_player == member.id and view.laid >= view.minimum:
            await world.fake.invoke("endturn", user=member, channel=world.channel)
            continue
        worst = biggest_jump(the_game.hand(state, member.id), tops_of(state))
        assert worst is not None
        await world.fake.invoke(
            "play", user=member, channel=world.channel, options={"card": worst.card, "pile": worst.pile}
        )
    raise AssertionError("the game did not end")


async def test_a_hint_counts_only_against_the_player_who_took_it(world: World) -> None:
    fake = world.fake
    ana, ben = world.players[:2]
    async with world.bot(seed=61) as bot:
        fast(bot)
        await fake.invoke("newgame", user=ana, channel=world.channel, options={"bots": 1})
        await fake.invoke("join", user=ben, channel=world.channel)
        await fake.invoke("start", user=ana, channel=world.channel)
        await settle(world)
        assert any(is_ai(p) for p in saved_state(world).players)
        panel = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        hint = panel_button(panel, "hint")
        # Its cost is on the button, before anyone clicks.
        assert hint["label"] == "Hint (this game won't rank for you)"
        given = await fake.click(panel, hint["custom_id"], user=ana)
        assert given.response is not None
        assert given.response.ephemeral
        assert "your partners' results still do" in str(given.response.content)

        await play_to_the_end(world, {ana.id: ana, ben.id: ben})
        game = saved_row(world)
        assert game is not None
        assert game["status"] == "finished"
        with sqlite3.connect(world.database_path) as db:
            marks = [key for (key,) in db.execute("SELECT key FROM meta WHERE key LIKE 'hint:%'")]
        assert marks == [f"hint:{game['id']}:{ana.id}"]  # hers, not Ben's
        bot.get_cog("Stats").min_games = 1  # type: ignore[union-attr]
        board = await fake.invoke("leaderboard", user=ben, channel=world.channel)
        assert board.original is not None
        await fake.click(board.original, label="With computer players", user=ben)
        page = shown(board.original)
        assert "No teams with 1 finished game" in page
        assert "A team's game is left out when one of them took a Hint." in page
        # Both still played it: each one's own /stats counts it.
        for member in (ana, ben):
            mine = await fake.invoke("stats", user=member, channel=world.channel)
            assert "Played **1**" in text_of(mine)
