"""The lobby's rules in the core, without Discord: joining and its limits, computer seats, leaving and the host's
hand-over, the start, the daily deal, the rematch, a person leaving a running game, and a writer that comes in
between a decision and its write (the decision is made again on the row that writer left, never "try again")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import pytest

from i18n import render
from storage import Conflict, GameRecord, NewGame
from storage.sqlite import SQLiteStorage
from table.answer import UserError
from table.events import Events
from table.games import Games
from table.lobby import Lobby
from table.lobby_rules import daily_seed
from table.options import options_of
from table.people import is_ai

CHANNEL = 10
HOST, BEN, CY, DEE, EVE, FAY = 1, 2, 3, 4, 5, 6


@pytest.fixture
async def lobby() -> AsyncIterator[Lobby]:
    storage = await SQLiteStorage.open(":memory:")
    games = Games(storage, Events())  # no listeners: nothing is shown, only decided and written
    yield Lobby(games, storage)
    await storage.close()


async def open_lobby(lobby: Lobby, kind: str = "the_game", players: tuple[int, ...] = (HOST,), **options: Any) -> int:
    new = NewGame(CHANNEL, 1, kind, HOST, players, (), seed=7, rules_version=1, options=options)
    return (await lobby.open(new)).id


async def refused(call: Any, words: str) -> None:
    with pytest.raises(UserError) as error:
        await call
    assert words in render(error.value.text, "en")


def another_writer_first(lobby: Lobby, change: Any) -> list[int]:
    """Make the next write of a game row lose to another writer that commits ``change(row)`` just before it, as a
    second process would. Returns a list that counts the writes that lost."""
    storage = lobby.storage
    original = storage.update_game
    lost: list[int] = []

    async def racing(game: GameRecord, **changes: Any) -> GameRecord:
        if not lost:
            fresh = await storage.game(game.id)
            assert fresh is not None
            await original(fresh, **change(fresh))
            lost.append(game.id)
        return await original(game, **changes)

    storage.update_game = racing  # type: ignore[method-assign]
    return lost


async def test_people_join_up_to_the_game_s_limit_once_each(lobby: Lobby) -> None:
    await open_lobby(lobby)
    for person in (BEN, CY, DEE, EVE):
        record = await lobby.join(CHANNEL, person)
    assert record.players == (HOST, BEN, CY, DEE, EVE)
    await refused(lobby.join(CHANNEL, FAY), "The lobby is full: The Game is for at most 5 players.")
    await refused(lobby.join(CHANNEL, BEN), "You're already in this game.")
    await refused(lobby.join(CHANNEL + 1, BEN), "There's no game in this channel")


async def test_a_join_that_loses_a_race_is_decided_again_and_both_count(lobby: Lobby) -> None:
    await open_lobby(lobby)
    lost = another_writer_first(lobby, lambda row: {"players": (*row.players, CY)})
    record = await lobby.join(CHANNEL, BEN)
    assert lost  # the first write did lose
    assert record.players == (HOST, CY, BEN)


async def test_a_join_that_loses_the_last_seat_to_a_race_is_refused_as_full(lobby: Lobby) -> None:
    await open_lobby(lobby, players=(HOST, BEN, CY, DEE))
    lost = another_writer_first(lobby, lambda row: {"players": (*row.players, EVE)})
    # Decided again on the row the other writer left (now full): refused as full, not "try again".
    await refused(lobby.join(CHANNEL, FAY), "The lobby is full")
    assert lost
    assert (await lobby.lobby(CHANNEL)).players == (HOST, BEN, CY, DEE, EVE)


async def test_a_lobby_started_meanwhile_refuses_a_late_join(lobby: Lobby) -> None:
    game = await open_lobby(lobby)
    another_writer_first(lobby, lambda row: {"status": "running", "started_at": "now"})
    await refused(lobby.join(CHANNEL, BEN), "has already started; join the next one!")
    stored = await lobby.storage.game(game)
    assert stored is not None
    assert stored.players == (HOST,)


async def test_computer_seats_are_the_host_s_to_fill_and_empty(lobby: Lobby) -> None:
    await open_lobby(lobby)
    await lobby.join(CHANNEL, BEN)
    await refused(lobby.seat_computer(CHANNEL, BEN), "Only the host, <@1>, seats computer players.")
    await lobby.seat_computer(CHANNEL, HOST)
    record = await lobby.seat_computer(CHANNEL, HOST)
    assert [p for p in record.players if is_ai(p)] == [-1, -2]
    await lobby.seat_computer(CHANNEL, HOST)
    await refused(lobby.seat_computer(CHANNEL, HOST), "The table is full: The Game is for at most 5 players.")
    for _seat in range(3):
        record = await lobby.unseat_computer(CHANNEL, HOST)
    assert record.players == (HOST, BEN)
    await refused(lobby.unseat_computer(CHANNEL, HOST), "There is no computer player to remove.")


async def test_the_host_leaving_hands_the_table_to_every_player(lobby: Lobby) -> None:
    await open_lobby(lobby)
    await lobby.join(CHANNEL, BEN)
    await lobby.join(CHANNEL, CY)
    await refused(lobby.next_turn_time(CHANNEL, BEN), "Only the host, <@1>, sets the turn time.")
    await refused(lobby.start(CHANNEL, BEN, never_dealt), "Only the host, <@1>, can start the game.")
    left = await lobby.leave(CHANNEL, HOST)
    assert (left.how, left.host_left, left.record.host_id, left.record.players) == ("lobby", True, None, (BEN, CY))
    # Nobody hosts: any player may change the table and start it, but not a passer-by.
    assert (await lobby.next_turn_time(CHANNEL, CY)).options["turn_time"] != left.record.options.get("turn_time")
    await lobby.seat_computer(CHANNEL, CY)
    await refused(lobby.seat_computer(CHANNEL, DEE), "Only a player in the lobby can seat computer players")
    await refused(lobby.start(CHANNEL, DEE, never_dealt), "Only a player in the lobby can start the game")
    dealt: list[GameRecord] = []
    started = await lobby.start(CHANNEL, BEN, deal_into(lobby, dealt))
    assert started.players == dealt[0].players == (BEN, CY, -1)
    assert dealt[0].status == "running"


async def test_leaving_the_lobby_last_closes_it(lobby: Lobby) -> None:
    await open_lobby(lobby, players=(HOST, -1))
    await lobby.join(CHANNEL, BEN)
    left = await lobby.leave(CHANNEL, BEN)
    assert (left.how, left.host_left) == ("lobby", False)
    await refused(lobby.leave(CHANNEL, BEN), "You aren't in this game.")
    closed = await lobby.leave(CHANNEL, HOST)  # only a computer player would be left
    assert closed.how == "closed"
    assert closed.record.status == "abandoned"
    assert closed.record.ended_at is not None


async def never_dealt(record: GameRecord) -> None:
    raise AssertionError("a refused start deals nothing")


def deal_into(lobby: Lobby, dealt: list[GameRecord]) -> Any:
    async def deal(record: GameRecord) -> None:
        dealt.append((await lobby.games.start(record)).record)

    return deal


async def test_the_start_needs_enough_people(lobby: Lobby) -> None:
    await open_lobby(lobby, "no_thanks")
    await lobby.join(CHANNEL, BEN)
    await refused(lobby.start(CHANNEL, HOST, never_dealt), "No Thanks! needs at least 3 players; 2 joined so far.")
    await lobby.leave(CHANNEL, HOST)
    await lobby.seat_computer(CHANNEL, BEN)
    await lobby.seat_computer(CHANNEL, BEN)
    await lobby.leave(CHANNEL, BEN)  # computer players alone: the lobby closed
    await refused(lobby.start(CHANNEL, BEN, never_dealt), "There's no game in this channel")


async def test_a_start_that_loses_a_race_deals_the_lobby_as_it_is_now(lobby: Lobby) -> None:
    await open_lobby(lobby, players=(HOST, BEN))
    dealt: list[GameRecord] = []
    another_writer_first(lobby, lambda row: {"players": (*row.players, CY)})
    started = await lobby.start(CHANNEL, HOST, deal_into(lobby, dealt))
    assert [record.players for record in dealt] == [(HOST, BEN, CY)]
    assert started.players == (HOST, BEN, CY)


async def test_the_daily_deal_is_dealt_for_the_table_s_size_at_the_start(lobby: Lobby) -> None:
    await open_lobby(lobby, players=(HOST, BEN), deal="daily")
    lobby.today = lambda: date(2025, 3, 1)
    dealt: list[GameRecord] = []
    await lobby.start(CHANNEL, HOST, deal_into(lobby, dealt))
    assert dealt[0].seed == daily_seed("the_game", date(2025, 3, 1), 2)
    assert dealt[0].options["date"] == "2025-03-01"


async def end(lobby: Lobby, game_id: int) -> GameRecord:
    record = await lobby.storage.game(game_id)
    assert record is not None
    return await lobby.storage.update_game(record, status="finished", started_at="then", ended_at="now")


async def test_a_rematch_seats_the_same_people_with_the_presser_hosting(lobby: Lobby) -> None:
    old = await open_lobby(lobby, players=(HOST, BEN, -1), deal="daily", date="2025-03-01", turn_time=60)
    await end(lobby, old)
    await refused(lobby.rematch(old, CHANNEL, CY, seed=5), "Only the players of that game can ask for a rematch")
    await refused(lobby.rematch(old, CHANNEL + 1, BEN, seed=5), "can't be played again from here")
    rematch = await lobby.rematch(old, CHANNEL, BEN, seed=5)
    assert (rematch.record.host_id, rematch.record.players, rematch.record.seed) == (BEN, (BEN, HOST, -1), 5)
    assert rematch.record.options == {"turn_time": 60}  # a new deal: the day's cards were played already
    assert "<@2> wants a rematch of The Game with a random deal" in render(rematch.announcement, "en")
    await refused(lobby.rematch(old, CHANNEL, HOST, seed=6), "A game is already open in this channel")
    await lobby.leave(CHANNEL, BEN)
    await lobby.leave(CHANNEL, HOST)
    # Once a later game has ended here, only its end screen offers a rematch.
    await end(lobby, await open_lobby(lobby))
    await refused(lobby.rematch(old, CHANNEL, HOST, seed=7), "That Rematch is out of date")


async def running(lobby: Lobby, kind: str, players: tuple[int, ...]) -> GameRecord:
    await open_lobby(lobby, kind, players)
    dealt: list[GameRecord] = []
    await lobby.start(CHANNEL, HOST, deal_into(lobby, dealt))
    return dealt[0]


async def test_at_a_competitive_game_a_leaver_s_seat_goes_to_the_autopilot_while_two_people_play_on(
    lobby: Lobby,
) -> None:
    await running(lobby, "no_thanks", (HOST, BEN, CY, -1))
    left = await lobby.leave(CHANNEL, HOST)
    assert (left.how, left.host_left) == ("autopilot", True)
    assert options_of(left.record).autopilot == {HOST}
    assert left.record.host_id is None
    # One person would be left to play against the autopilot: the game's own leave decides (the rules').
    assert (await lobby.leave(CHANNEL, BEN)).how == "move"
    await refused(lobby.leave(CHANNEL, DEE), "You aren't in this game.")


async def test_at_a_team_game_a_leaver_leaves_by_the_game_s_rules(lobby: Lobby) -> None:
    await running(lobby, "the_game", (HOST, BEN, CY))
    left = await lobby.leave(CHANNEL, BEN)
    assert (left.how, left.host_left, options_of(left.record).autopilot) == ("move", False, set())


async def test_a_lobby_change_that_loses_every_race_says_so(lobby: Lobby) -> None:
    await open_lobby(lobby)

    async def always_taken(game: GameRecord, **changes: Any) -> GameRecord:
        raise Conflict(game.id)

    lobby.storage.update_game = always_taken  # type: ignore[method-assign]
    await refused(lobby.join(CHANNEL, BEN), "The lobby is changing fast")
