"""A double click (issue 38): both clicks leave before the first answer comes back. The move is made once, and the
second click is answered as the first was, never with a refusal ("You don't hold that card.", "It's not your
turn."). (A different click on an old board is still refused: tests/e2e/test_no_thanks.py.)"""

from __future__ import annotations

import asyncio
import json

import pytest

from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import click_panel, newest_board, open_game, panel_button
from tests.players import answer, best_play, saved_state

REFUSALS = {
    "en": ("You don't hold that card.", "It's not your turn."),
    "de": ("Diese Karte hast du nicht auf der Hand.", "Du bist nicht dran."),
}


@pytest.mark.parametrize("locale", ["en", "de"])
async def test_a_double_click_lays_once_and_ends_the_turn_once_without_a_refusal(world: World, locale: str) -> None:
    members = world.players[:3]
    ana = members[0]
    ana.user.locale = locale
    fake = world.fake
    async with world.bot(seed=10):
        await open_game(world, members)
        panel = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        for _card in range(2):
            state = saved_state(world)
            play = best_play(state, ana.id)
            await click_panel(world, panel, ana, "card", play.card)
            pile = panel_button(panel, "pile", play.card, play.pile)["custom_id"]
            clicks = await asyncio.gather(fake.click(panel, pile, user=ana), fake.click(panel, pile, user=ana))
            said = json.dumps([answer(click).content for click in clicks], ensure_ascii=False)
            assert not any(refusal in said for refusal in REFUSALS[locale]), said
            assert all(answer(click).type == 7 for click in clicks)  # both redraw the panel
            after = saved_state(world)
            assert after.move_count == state.move_count + 1  # laid once
            assert the_game.top(after, play.pile) == play.card
        end = panel_button(panel, "end")["custom_id"]
        state = saved_state(world)
        clicks = await asyncio.gather(fake.click(panel, end, user=ana), fake.click(panel, end, user=ana))
        said = json.dumps([answer(click).content for click in clicks], ensure_ascii=False)
        assert not any(refusal in said for refusal in REFUSALS[locale]), said
        assert saved_state(world).move_count == state.move_count + 1  # ended once
        assert the_game.current_player(saved_state(world)) != ana.id
