"""Issue 26, "A coach for people": the hand panel's Hint at a solo table answers only the clicker, with the computer
player's card and pile for that seat, marks the game before it answers, and the game then shows its mark in /history
and stays off /leaderboard; a table of people alone has no Hint."""

from __future__ import annotations

import re
from datetime import date

from engine import the_game
from engine.ai import the_game as ai
from engine.the_game import Play
from tests.e2e.conftest import World
from tests.e2e.table_helpers import newest_board, open_game, panel_button
from tests.e2e.test_ai import fast
from tests.e2e.test_stats import daily_game, lose_the_game_alone_from_here, text_of
from tests.fake_discord import RequestRecord
from tests.players import answer, private, saved_row, saved_state

HINT = re.compile(r"💡 Hint: lay (\d+) on ([A-D]) [↑↓] \((\d+) → \1\)\.")


async def test_hint_at_a_solo_table_tells_only_the_player_and_keeps_the_game_off_the_leaderboard(world: World) -> None:
    fake = world.fake
    ana, ben = world.players[:2]
    async with world.bot(seed=61) as bot:
        fast(bot)
        await open_game(world, [ana])
        panel = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        hint_button = panel_button(panel, "hint")
        assert hint_button["label"] == "Hint (this game won't rank for you)"
        assert not hint_button.get("disabled")
        before = panel.content
        row = saved_row(world)
        assert row is not None
        assert row["hinted"] == 0

        # The mark is committed before the answer goes out: read it the moment the answer reaches Discord.
        seen_at_answer: list[int] = []

        def on_request(request: RequestRecord) -> None:
            if request.interaction_endpoint and "💡 Hint" in str(request.body):
                answered_row = saved_row(world)
                assert answered_row is not None
                seen_at_answer.append(answered_row["hinted"])

        fake.add_request_listener(on_request)
        try:
            clicked = await fake.click(panel, hint_button["custom_id"], user=ana)
        finally:
            fake.remove_request_listener(on_request)
        said = private(clicked)  # only Ana sees it
        assert seen_at_answer == [1]
        found = HINT.search(said)
        assert found is not None, said
        card, pile, top = int(found[1]), found[2], int(found[3])
        state = saved_state(world)
        assert card in the_game.hand(state, ana.id)
        assert the_game.top(state, pile) == top
        assert the_game.is_legal(pile, top, card)
        # It is the computer player's choice for her seat, from what her seat sees.
        given = ai.hint(the_game.observation(state, ana.id))
        assert given is not None
        assert given.action == Play(card, pile)
        assert "This game no longer counts on your leaderboard; your partners' results still do." in said
        assert answer(clicked).message is not panel
        assert panel.content == before  # the panel stays as it was: nothing was laid
        assert state.move_count == 0

        await lose_the_game_alone_from_here(world, ana, world.channel)
        await fake.wait_idle()
        hinted_game = saved_row(world)
        assert hinted_game is not None
        assert hinted_game["status"] == "finished"
        assert hinted_game["hinted"] == 1

        # Ben plays alone without a hint in another channel: his game is on the leaderboard, Ana's is not.
        await fake.invoke("newgame", user=ben, channel=world.other_channel)
        await fake.invoke("start", user=ben, channel=world.other_channel)
        await lose_the_game_alone_from_here(world, ben, world.other_channel)
        await fake.wait_idle()
        bot.get_cog("Stats").min_games = 1  # type: ignore[union-attr]
        board = text_of(await fake.invoke("leaderboard", user=ben, channel=world.channel))
        assert f"<@{ben.id}>: 0 won in 1" in board
        assert f"<@{ana.id}>" not in board
        assert "A team's game is left out when one of them took a Hint." in board

        listed = await fake.invoke("history", user=ben, channel=world.channel)
        shown = listed.original or answer(listed).message
        assert shown is not None
        games = shown.embeds[0]["description"].split("\n")
        assert games[0].startswith(f"`#{hinted_game['id']}`")
        assert games[0].endswith(" 💡"), games
        assert "💡 hints used: left out of the leaderboards." in shown.embeds[0]["footer"]["text"]


async def test_a_table_of_two_people_has_no_hint_and_a_table_with_a_computer_player_has_one(world: World) -> None:
    fake = world.fake
    ana, ben = world.players[:2]
    async with world.bot(seed=62) as bot:
        fast(bot)
        await open_game(world, [ana, ben])
        for member in (ana, ben):
            panel = (await fake.click(newest_board(world), label="My hand", user=member)).original
            assert panel is not None
            assert not [b for b in panel.buttons if ":hint:" in str(b.get("custom_id"))]
            assert "Hint" not in [b.get("label") for b in panel.buttons]

        # With a computer player at the table, the person's panel offers it.
        await fake.invoke("newgame", user=ana, channel=world.other_channel, options={"bots": 1})
        await fake.invoke("start", user=ana, channel=world.other_channel)
        await fake.wait_idle()
        opened = await fake.invoke("hand", user=ana, channel=world.other_channel)
        panel = answer(opened).message
        assert panel is not None
        assert panel_button(panel, "hint")["label"] == "Hint (this game won't rank for you)"


async def test_daily_marks_a_first_try_that_took_a_hint(world: World) -> None:
    """/daily still compares a hinted first try (it was the table's one try at the deal) but marks it, as /history
    does; a try without a hint has no mark."""
    fake = world.fake
    ana, ben = world.players[:2]
    async with world.bot(seed=63) as bot:
        fast(bot)
        lobby = bot.tables.lobby  # the daily deal's clock is the core lobby's
        lobby.today = lambda: date(2025, 4, 1)
        await daily_game(world, ana, world.channel)
        opened = await fake.invoke("hand", user=ana, channel=world.channel)
        panel = answer(opened).message
        assert panel is not None
        private(await fake.click(panel, panel_button(panel, "hint")["custom_id"], user=ana))
        await lose_the_game_alone_from_here(world, ana, world.channel)
        await daily_game(world, ben, world.other_channel)
        await lose_the_game_alone_from_here(world, ben, world.other_channel)
        await fake.wait_idle()

        daily = await fake.invoke("daily", user=ben, channel=world.channel)
        shown = daily.original or answer(daily).message
        assert shown is not None, text_of(daily)
        rows = [row for field in shown.embeds[0]["fields"] for row in field["value"].split("\n")]
        hinted = [row for row in rows if f"<#{world.channel.id}>" in row]
        plain = [row for row in rows if f"<#{world.other_channel.id}>" in row]
        assert len(hinted) == 1, rows
        assert len(plain) == 1, rows
        assert hinted[0].endswith(" 💡"), hinted
        assert "💡" not in plain[0]
