"""A committed move yields one Transition, made once by ``Games`` after the commit and told to every listener; a
writer that lost the race for a move number decides again on the newer position."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cogs import no_thanks as no_thanks_cog
from engine import no_thanks
from storage import NewGame
from storage.sqlite import SQLiteStorage
from table.registry import REGISTRY, registration
from table.transition import Actor
from tests.table.conftest import CHANNEL, PLAYERS, core, running


async def test_a_move_yields_one_transition_with_the_positions_and_facts_around_it(storage: SQLiteStorage) -> None:
    games, heard = core(storage)
    record = await running(games)
    live, _presenter = await games.running(CHANNEL)
    before: no_thanks.State = live.state
    mover = no_thanks.current_player(before)
    assert mover is not None
    moved = await games.play(CHANNEL, mover, no_thanks.NoThanks())
    assert heard.moves == [moved]  # announced once, and the same value the mover's answer is made from
    assert (moved.before, moved.after, moved.number) == (before, live.state, 1)
    assert (moved.player, moved.actor, moved.auto, moved.dealt, moved.ended) == (
        mover,
        Actor.PERSON,
        False,
        False,
        False,
    )
    assert not moved.moved_on  # a chip paid edits the board; only a card taken moves the table on
    assert moved.revealed == {mover}  # the chip left the mover's DM
    assert moved.upcoming == no_thanks.current_player(live.state) != mover
    assert moved.turn_began
    assert moved.record.id == record.id
    assert moved.record_before.id == record.id
    assert moved.step is not None
    assert moved.step.number == 1
    assert live.turn == [moved.step]
    taken = await games.play(CHANNEL, moved.upcoming or 0, no_thanks.Take())
    assert taken.moved_on
    assert taken.number == 2
    assert live.turn == []
    assert [step.number for step in live.previous] == [1, 2]


async def test_moves_nobody_clicked_for_say_who_made_them(storage: SQLiteStorage) -> None:
    games, heard = core(storage)
    await running(games)
    live, _presenter = await games.running(CHANNEL)
    mover = no_thanks.current_player(live.state)
    assert mover is not None
    moved = await games.play(CHANNEL, mover, no_thanks.NoThanks(), auto=True)
    assert (moved.actor, moved.auto) == (Actor.AUTOPILOT, True)
    assert len(heard.moves) == 1


async def test_the_writer_that_lost_a_move_number_decides_again_on_the_newer_position(
    storage: SQLiteStorage, path: Path
) -> None:
    first, first_heard = core(storage)
    other = await SQLiteStorage.open(str(path))
    try:
        second, second_heard = core(other)
        await running(first)
        # Both processes have the game in memory at move 0.
        live_first, _ = await first.running(CHANNEL)
        live_second, _ = await second.running(CHANNEL)
        mover = no_thanks.current_player(live_first.state)
        assert mover is not None
        won = await first.play(CHANNEL, mover, no_thanks.NoThanks())
        # The second process still believes move 1 is free: its append of move 1 fails, it re-reads the log and
        # decides the same click again at move 2, on the position the first writer left.
        assert live_second.state.move_count == 0
        upcoming = won.upcoming
        assert upcoming is not None
        again = await second.play(CHANNEL, upcoming, no_thanks.Take())
        assert again.number == 2
        assert again.before == won.after
        assert [m.number for m in second_heard.moves] == [2]  # the lost attempt announced nothing
        assert [m.number for m in first_heard.moves] == [1]
        assert [m.seq for m in await other.moves(won.record.id)] == [1, 2]
        # The loser's turn log was rebuilt from the stored log: it holds the winner's move too.
        cached = second.cached(won.record.id)
        assert cached is not None
        assert [step.number for step in cached.previous] == [1, 2]
    finally:
        await other.close()


async def test_the_deal_is_a_transition_too(storage: SQLiteStorage) -> None:
    games, heard = core(storage)
    record = await games.storage.create_game(NewGame(CHANNEL, 1, "no_thanks", PLAYERS[0], PLAYERS, (), 3, 1))
    live = await games.start(record)
    [dealt] = heard.moves
    assert (dealt.actor, dealt.dealt, dealt.before, dealt.player, dealt.number) == (Actor.DEAL, True, None, None, 0)
    assert dealt.after is live.state
    assert dealt.revealed == set(PLAYERS)
    assert dealt.moved_on
    assert dealt.turn_began


class Counting:
    """The No Thanks! presenter, counting how often it is asked whether a move moved the table on."""

    def __init__(self) -> None:
        self.asked = 0

    def __getattr__(self, name: str) -> object:
        return getattr(no_thanks_cog.PRESENTER, name)

    def new_board(self, *move: object) -> bool:
        self.asked += 1
        return bool(no_thanks_cog.PRESENTER.new_board(*move))  # type: ignore[arg-type]


async def test_the_presenter_is_asked_once_per_move_whether_the_table_moved_on(
    storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    games, heard = core(storage)
    counting = Counting()
    hosted = registration("no_thanks")
    assert hosted is not None
    monkeypatch.setitem(REGISTRY, "no_thanks", dataclasses.replace(hosted, presenter=counting))
    await running(games)
    live, _presenter = await games.running(CHANNEL)
    for _move in range(6):
        mover = no_thanks.current_player(live.state)
        assert mover is not None
        chips = no_thanks.chips(live.state, mover)
        await games.play(CHANNEL, mover, no_thanks.NoThanks() if chips else no_thanks.Take())
    assert len(heard.moves) == 6
    assert counting.asked == 6
