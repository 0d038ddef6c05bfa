"""What the board shows after a move is computed from the Transition and what the board showed (no Discord): a
board edited in place, a board that moved on, and the board it supersedes, which shrinks to the log since it went up."""

from __future__ import annotations

from typing import cast

import discord

from engine import no_thanks
from i18n import render
from storage import NewGame
from storage.sqlite import SQLiteStorage
from table.boards import Boards
from table.games import Games
from table.language import Languages
from tests.table.conftest import CHANNEL, PLAYERS, core


class Offline:
    """A client that knows no server (the table's language is then English) and sends nothing."""

    def get_guild(self, guild_id: int) -> None:
        return None


def boards_of(games: Games, storage: SQLiteStorage) -> Boards:
    nobody = cast(discord.Client, Offline())
    boards = Boards(nobody, games, Languages(nobody, storage), lambda record, mover: None, lambda *board: [], storage)
    games.events.subscribe("boards", boards.on_moved)
    return boards


async def test_the_board_after_a_move_and_the_one_it_supersedes(storage: SQLiteStorage) -> None:
    games, _heard = core(storage)
    boards = boards_of(games, storage)
    record = await storage.create_game(NewGame(CHANNEL, 1, "no_thanks", PLAYERS[0], PLAYERS, (), 5, 1))
    live = await games.start(record)
    await games.board_at(live, 1000)  # the deal's board is up
    taker = no_thanks.current_player(live.state)
    assert taker is not None
    taken = await games.play(CHANNEL, taker, no_thanks.Take())
    board, fresh, shrunk = boards.after(taken)
    assert fresh  # a card taken moves the table on: a new board
    assert shrunk is not None
    # The deal's board shrinks to the log since it went up: the game began, then the card taken.
    said = shrunk["content"]
    assert "began with" in said
    assert f"<@{taker}>" in said
    assert shrunk["view"] is None
    assert render(boards.repost_text(record.id) or "", "en") in board["content"]
    mover = taken.upcoming
    assert mover is not None
    paid = await games.play(CHANNEL, mover, no_thanks.NoThanks())
    board, fresh, shrunk = boards.after(paid)
    assert not fresh  # a chip paid edits the board in place
    assert shrunk is None
    assert f"<@{mover}>" in board["content"]
    assert boards.last(record.id) is not None  # the panels say it: "Last: ..."


async def test_talk_since_the_board_posts_it_anew_and_the_old_one_keeps_only_the_moves_before(
    storage: SQLiteStorage,
) -> None:
    games, _heard = core(storage)
    boards = boards_of(games, storage)
    record = await storage.create_game(NewGame(CHANNEL, 1, "no_thanks", PLAYERS[0], PLAYERS, (), 5, 1))
    live = await games.start(record)
    await games.board_at(live, 1000)
    first = no_thanks.current_player(live.state)
    assert first is not None
    paid = await games.play(CHANNEL, first, no_thanks.NoThanks())
    _board, fresh, _shrunk = boards.after(paid)
    assert not fresh  # no talk yet: the chip paid edits the board in place
    games.running_kinds[CHANNEL] = "no_thanks"
    boards.note_chat(CHANNEL, 1)
    second = paid.upcoming
    assert second is not None
    again = await games.play(CHANNEL, second, no_thanks.NoThanks())
    board, fresh, shrunk = boards.after(again)
    assert fresh  # talk since the board: an edit would log this chip above it
    assert shrunk is not None
    # The old board, above the talk, keeps the first chip only; the second is on the new board, below the talk.
    began, *logged = shrunk["content"].splitlines()
    assert "began with" in began
    assert f"<@{first}>" in " ".join(logged)
    assert f"<@{second}>" not in " ".join(logged)
    assert f"<@{second}>" in board["content"]
    # Counted afresh from the new board: the next chip edits it in place.
    third = again.upcoming
    assert third is not None
    _board, fresh, _shrunk = boards.after(await games.play(CHANNEL, third, no_thanks.NoThanks()))
    assert not fresh
