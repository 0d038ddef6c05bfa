"""The answer to the person who acted is planned by one pure function of the move: where they acted from, and
whether the board goes up anew, decide what the answer sends and edits."""

from __future__ import annotations

import pytest

from engine import no_thanks, the_game
from storage.sqlite import SQLiteStorage
from table.reply import ReplyPlan, Source, reply_plan
from table.transition import Transition
from tests.table.conftest import CHANNEL, PLAYERS, core, running


async def pass_a_chip(storage: SQLiteStorage) -> Transition:
    games, _heard = core(storage)
    await running(games, "no_thanks")
    live, _presenter = await games.running(CHANNEL)
    mover = no_thanks.current_player(live.state)
    assert mover is not None
    return await games.play(CHANNEL, mover, no_thanks.NoThanks())


async def lay_a_card(storage: SQLiteStorage) -> Transition:
    games, _heard = core(storage)
    await running(games, "the_game")
    live, _presenter = await games.running(CHANNEL)
    card = the_game.hand(live.state, PLAYERS[0])[0]
    return await games.play(CHANNEL, PLAYERS[0], the_game.Play(card, "A"))


@pytest.mark.parametrize(
    ("source", "plan"),
    [
        # The clicked board is the answer: it shows the move itself.
        (Source.BOARD, ReplyPlan("board", post_board=False, edit_board=False, panel=None)),
        # The clicked panel shows the move; the board is edited in place.
        (Source.PANEL, ReplyPlan("panel", post_board=False, edit_board=True, panel=None)),
        # A command is answered with the mover's panel, privately; the board is edited in place.
        (Source.COMMAND, ReplyPlan(None, post_board=False, edit_board=True, panel="ack")),
    ],
)
async def test_a_move_shown_in_place(storage: SQLiteStorage, source: Source, plan: ReplyPlan) -> None:
    assert reply_plan(await pass_a_chip(storage), source, fresh=False) == plan


async def test_a_new_board_is_the_answer_and_the_clicked_board_shrinks(storage: SQLiteStorage) -> None:
    moved = await pass_a_chip(storage)
    assert reply_plan(moved, Source.BOARD, fresh=True) == ReplyPlan(
        "shrunk", post_board=True, edit_board=False, panel=None
    )
    assert reply_plan(moved, Source.PANEL, fresh=True) == ReplyPlan(
        "panel", post_board=True, edit_board=False, panel=None
    )
    # No Thanks! keeps no panel under a new board: its presenter shows none after a move.
    assert reply_plan(moved, Source.COMMAND, fresh=True).panel is None


async def test_a_card_laid_by_command_under_a_new_board_shows_what_is_left_in_hand(storage: SQLiteStorage) -> None:
    moved = await lay_a_card(storage)
    assert reply_plan(moved, Source.COMMAND, fresh=True) == ReplyPlan(
        None, post_board=True, edit_board=False, panel="after"
    )
    # From a panel, the panel itself shows it: no second one.
    assert reply_plan(moved, Source.PANEL, fresh=True).panel is None


@pytest.mark.parametrize(
    ("fresh", "plan"),
    [
        # The DM shows the hand again; the board, in the channel, is edited by a request of its own.
        (False, ReplyPlan("dm", post_board=False, edit_board=True, panel=None)),
        # Or posted anew there: the DM's answer cannot post in the channel, and no panel goes with it.
        (True, ReplyPlan("dm", post_board=True, edit_board=False, panel=None)),
    ],
)
async def test_a_move_made_from_the_dm_answers_in_the_dm(storage: SQLiteStorage, fresh: bool, plan: ReplyPlan) -> None:
    assert reply_plan(await lay_a_card(storage), Source.DM, fresh=fresh) == plan
