"""The statistics queries against every driver: the results the database keeps when a game ends (won, lost,
abandoned, with computer players or autopilot turns), a player's tallies and streaks, teams, leaderboards, the
history and the daily deal's first tries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from i18n import render
from storage import Conflict, Ending, GameRecord, NewGame, Result, Storage
from table.end_screen import team_record
from tests.storage.conftest import Backend

GUILD = 1
ANA, BEN, CY = 101, 102, 103
BOT = -1


async def played(
    storage: Storage,
    channel: int,
    players: tuple[int, ...],
    result: Mapping[str, Any] | None,
    *,
    kind: str = "the_game",
    variants: tuple[str, ...] = (),
    auto: bool = False,
    options: Mapping[str, Any] | None = None,
    guild: int = GUILD,
    hinted_by: tuple[int, ...] = (),
) -> GameRecord:
    """A game dealt and ended through the interface: finished with ``result``, or abandoned (None) by /endgame."""
    record = await storage.create_game(
        NewGame(channel, guild, kind, players[0], players, variants, 42, 1, dict(options or {}))
    )
    record = await storage.update_game(record, status="running", started_at="2025-01-01T10:00:00+00:00")
    assert await storage.append_move(record.id, 1, players[0], ["end"], auto=auto)
    for player in hinted_by:  # as the Hint button marks it
        await storage.mark_hinted(record.id, player)
    if result is None:
        await storage.update_game(record, status="abandoned", ended_at="2025-01-01T11:00:00+00:00")
    else:
        assert await storage.append_move(record.id, 2, players[0], ["end"], Ending("finished", Result.load(result)))
    ended = await storage.game(record.id)
    assert ended is not None
    return ended


def won(score: int = 0) -> dict[str, Any]:
    return {"won": score == 0, "score": score, "turns": 9, "backwards_tricks": 1, "pile_lengths": [1, 2, 3, 4]}


async def test_a_players_tallies_streaks_and_teams(storage: Storage) -> None:
    await played(storage, 10, (ANA, BEN), won(0))
    await played(storage, 10, (ANA, BEN), won(0))
    await played(storage, 10, (ANA, BEN), won(7))
    await played(storage, 10, (ANA, BEN), won(0))
    await played(storage, 10, (ANA, BEN), None)  # abandoned: ends the streak, no score
    await played(storage, 10, (ANA, CY), won(0), variants=("expert",))
    await played(storage, 10, (ANA, BOT), won(3))  # with a computer player: apart
    await played(storage, 10, (ANA, BEN), won(5), auto=True)  # an autopilot turn: apart
    lobby = await storage.create_game(NewGame(11, GUILD, "the_game", ANA, (ANA,), (), 1, 1))
    await storage.update_game(lobby, status="abandoned")  # never dealt: not a game played

    tallies = {(t.seats, t.variants, t.mixed): t for t in await storage.player_tallies(GUILD, ANA)}
    assert set(tallies) == {(2, (), False), (2, ("expert",), False), (2, (), True)}
    people = tallies[(2, (), False)]
    assert (people.played, people.won, people.abandoned, people.best) == (4, 3, 1, 0)
    assert people.mean == pytest.approx(7 / 4)
    mixed = tallies[(2, (), True)]
    assert (mixed.played, mixed.won, mixed.best) == (2, 0, 3)
    assert tallies[(2, ("expert",), False)].won == 1

    streaks = {(s.kind, s.mixed): (s.current, s.best) for s in await storage.player_streaks(GUILD, ANA)}
    assert streaks == {("the_game", False): (1, 2), ("the_game", True): (0, 0)}
    assert [(s.current, s.best) for s in await storage.player_streaks(GUILD, CY)] == [(1, 1)]

    teams = await storage.player_teams(GUILD, ANA, "the_game")
    assert (teams[0].players, teams[0].mixed, teams[0].games, teams[0].won) == ((ANA, BEN), False, 4, 3)
    assert ((ANA,), True) in [(t.players, t.mixed) for t in teams]  # the team of Ana and a computer player
    assert await storage.player_tallies(2, ANA) == []  # another server knows nothing of her


async def test_the_end_screens_record_of_the_same_people(storage: Storage) -> None:
    """The end screen's record: exactly these people, with or without computer players; finished games only."""
    await played(storage, 10, (ANA, BEN), won(0))
    await played(storage, 10, (BEN, ANA, BOT), won(7))  # another seat order, and a computer partner
    await played(storage, 10, (ANA, BEN), None)  # abandoned: no result
    await played(storage, 10, (ANA, BEN, CY), won(0))  # another team
    last = await played(storage, 10, (ANA, BEN), won(4))
    together = await storage.together(GUILD, "the_game", (BEN, ANA))
    assert [(s.players, s.games, s.won, s.best, s.mixed) for s in together] == [
        ((ANA,), 3, 1, 0, True),
        ((BEN,), 3, 1, 0, True),
    ]
    shown = await team_record(storage, last)
    assert shown is not None
    assert render(shown, "en") == "This team's record: 3 games, 1 won, best 0 cards left."
    assert await storage.together(2, "the_game", (ANA, BEN)) == []  # another server
    assert await storage.together(GUILD, "the_game", ()) == []  # computer players only: no people, no record

    # No Thanks! is won alone: each one's first places, and who scored the best (lowest) points.
    for winner, points in ((ANA, (10, 20, 30)), (BEN, (25, 5, 40)), (ANA, (12, 18, 5))):
        scores = dict(zip(map(str, (ANA, BEN, CY)), points, strict=True))
        ended = await played(
            storage, 20, (CY, ANA, BEN), {"winner": winner, "tie_break": False, "scores": scores}, kind="no_thanks"
        )
    await played(storage, 20, (ANA, BEN, BOT), {"winner": ANA, "tie_break": False, "scores": {}}, kind="no_thanks")
    shown = await team_record(storage, ended)
    assert shown is not None
    assert render(shown, "en") == (
        f"These players' record: 3 games together; first places: <@{ANA}> 2, <@{BEN}> 1, <@{CY}> 0; "
        f"best: 5 points by <@{BEN}>, <@{CY}>."
    )
    assert render(shown, "de").startswith("Bilanz dieser Spieler: 3 gemeinsame Spiele")
    never = await played(storage, 30, (CY, BEN), None, kind="no_thanks")
    assert await team_record(storage, never) is None  # never finished one together


async def test_a_players_results_over_time(storage: Storage) -> None:
    """Oldest first, the last ``limit`` games, each with its score (none when abandoned), team and company."""
    await played(storage, 10, (ANA, BEN), won(7))
    await played(storage, 10, (BEN, ANA), None)
    await played(storage, 10, (ANA, BOT), won(0))
    scores = dict(zip(map(str, (ANA, BEN)), (12, 30), strict=True))
    await played(storage, 20, (ANA, BEN), {"winner": ANA, "tie_break": False, "scores": scores}, kind="no_thanks")
    results = await storage.player_results(GUILD, ANA)
    assert [(r.kind, r.won, r.score, r.mixed, r.team) for r in results] == [
        ("the_game", False, 7, False, (ANA, BEN)),
        ("the_game", False, None, False, (ANA, BEN)),
        ("the_game", True, 0, True, (ANA,)),
        ("no_thanks", True, 12, False, (ANA, BEN)),
    ]
    assert [r.game_id for r in results] == sorted(r.game_id for r in results)
    assert [r.score for r in await storage.player_results(GUILD, ANA, limit=2)] == [0, 12]
    assert [r.score for r in await storage.player_results(GUILD, BEN)] == [7, None, 30]
    assert await storage.player_results(2, ANA) == []


async def test_leaderboards_rank_teams_and_players_and_filter(storage: Storage) -> None:
    for _ in range(3):
        await played(storage, 10, (ANA, BEN), won(0))
    for score in (0, 4, 9):
        await played(storage, 10, (CY, BEN), won(score), variants=("expert",))
    await played(storage, 10, (CY, ANA), won(0))  # only one game: does not qualify at minimum 2
    await played(storage, 10, (CY, BOT), won(0))

    board, total = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False, minimum=2)
    assert total == 2
    assert [(s.players, s.won, s.games) for s in board] == [((ANA, BEN), 3, 3), ((BEN, CY), 1, 3)]
    page, total = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False, limit=1, offset=1)
    assert total == 3
    assert [s.players for s in page] == [(ANA, CY)]  # one win too, with fewer cards left
    assert (await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False, offset=9)) == ([], 3)
    expert, _ = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False, variant="expert")
    assert [s.players for s in expert] == [(BEN, CY)]
    assert expert[0].mean == pytest.approx(13 / 3)
    standard, _ = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False, variant="")
    assert [s.players for s in standard] == [(ANA, BEN), (ANA, CY)]
    assert (await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False, seats=3)) == ([], 0)
    bots, _ = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=True)
    assert [(s.players, s.mixed) for s in bots] == [((CY,), True)]

    for winner, points in ((ANA, (10, 20, 30)), (ANA, (12, 25, 40)), (BEN, (30, 5, 50))):
        scores = dict(zip(map(str, (ANA, BEN, CY)), points, strict=True))
        result = {"winner": winner, "tie_break": False, "scores": scores}
        await played(storage, 20, (ANA, BEN, CY), result, kind="no_thanks")
    players, total = await storage.leaderboard(GUILD, "no_thanks", teams=False, mixed=False)
    assert total == 3
    assert [(s.players, s.won, s.games) for s in players] == [((ANA,), 2, 3), ((BEN,), 1, 3), ((CY,), 0, 3)]
    assert players[0].mean == pytest.approx(52 / 3)
    tallies = await storage.player_tallies(GUILD, BEN)
    assert [(t.kind, t.won, t.best) for t in tallies if t.kind == "no_thanks"] == [("no_thanks", 1, 5)]


async def test_history_and_the_daily_deals_first_tries(storage: Storage) -> None:
    first = await played(storage, 10, (ANA, BEN), won(4), options={"deal": "daily", "date": "2025-03-01"})
    second = await played(storage, 10, (ANA, BEN), won(0), options={"deal": "daily", "date": "2025-03-01"})
    other = await played(storage, 11, (CY, BOT), None, options={"deal": "daily", "date": "2025-03-01"})
    three = await played(storage, 10, (ANA, BEN, CY), won(2), options={"deal": "daily", "date": "2025-03-01"})
    await played(storage, 12, (ANA, BEN), won(0), options={"deal": "daily", "date": "2025-03-02"})
    await played(storage, 13, (ANA, BEN), won(0), options={"deal": "daily", "date": "2025-03-01"}, guild=2)
    plain = await played(storage, 10, (ANA, BEN), won(0))
    await storage.create_game(NewGame(10, GUILD, "the_game", ANA, (ANA,), (), 1, 1))  # a lobby: not history

    daily = await storage.daily_games(GUILD, "2025-03-01")
    assert [g.id for g in daily] == [first.id, other.id, three.id]
    history = await storage.ended_games(GUILD, 10, limit=3)
    assert [h.record.id for h in history] == [plain.id, three.id, second.id]
    assert history[0].record.result == Result.load(won(0))
    server = await storage.ended_games(GUILD, limit=50)
    assert len(server) == 6
    assert {h.record.id: h.mixed for h in server}[other.id] is True
    assert [h.record.id for h in await storage.ended_games(GUILD, 10, limit=2, offset=1)] == [three.id, second.id]


async def test_a_game_with_a_hint_is_marked_and_left_out_of_the_leaderboards(backend: Backend) -> None:
    storage = await backend.open()
    try:
        for _ in range(2):
            await played(storage, 10, (ANA, BEN), won(0))
        hinted = await played(storage, 10, (ANA, BEN), won(0), hinted_by=(ANA,))
        await played(storage, 10, (CY,), won(0), hinted_by=(CY,))  # a solo game: its only game
        await played(storage, 10, (CY, BOT), won(3), hinted_by=(CY,))  # with a computer player
        await played(storage, 10, (ANA, BOT), won(5))
        running = await storage.create_game(NewGame(11, GUILD, "the_game", BEN, (BEN,), (), 1, 1))
        running = await storage.update_game(running, status="running", started_at="2025-01-01T10:00:00+00:00")
        await storage.mark_hinted(running.id, running.players[0])
        await storage.mark_hinted(running.id, running.players[0])  # a second hint changes nothing
        after = await storage.game(running.id)
        assert after is not None
        assert after.hinted
        assert after.revision == running.revision  # not a change of the game's course: no move loses its swap
    finally:
        await storage.close()
    storage = await backend.open()  # another connection, as after a restart
    try:
        people, _ = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=False)
        assert [(s.players, s.games) for s in people] == [((ANA, BEN), 2)]
        bots, _ = await storage.leaderboard(GUILD, "the_game", teams=True, mixed=True)
        assert [(s.players, s.games) for s in bots] == [((ANA,), 1)]
        # Each person's own: Ana's hint leaves her result out, not Ben's (he took none).
        players, _ = await storage.leaderboard(GUILD, "the_game", teams=False, mixed=False, minimum=1)
        assert {s.players: s.games for s in players} == {(ANA,): 2, (BEN,): 3}
        history = {h.record.id: h.record.hinted for h in await storage.ended_games(GUILD, 10, limit=10)}
        assert history[hinted.id] is True
        assert sum(history.values()) == 3
        # A person's own statistics still count the game: it was played.
        tallies = {(t.seats, t.mixed): t.played for t in await storage.player_tallies(GUILD, ANA)}
        assert tallies[(2, False)] == 3
    finally:
        await storage.close()


async def test_the_daily_deal_sets_the_seed_of_a_lobby_only(storage: Storage) -> None:
    lobby = await storage.create_game(NewGame(10, GUILD, "the_game", ANA, (ANA,), (), 1, 1, {"turn_time": 60}))
    dealt = await storage.set_daily_deal(lobby, 12345, "2025-03-01")
    assert dealt.seed == 12345
    assert dealt.options == {"turn_time": 60, "deal": "daily", "date": "2025-03-01"}
    with pytest.raises(Conflict):
        await storage.set_daily_deal(lobby, 1, "2025-03-01")  # read before the change
    running = await storage.update_game(dealt, status="running")
    with pytest.raises(Conflict):
        await storage.set_daily_deal(running, 1, "2025-03-01")


async def test_an_autopilot_move_that_ends_the_game_marks_it(storage: Storage) -> None:
    record = await storage.create_game(NewGame(10, GUILD, "the_game", ANA, (ANA, BEN), (), 42, 1))
    record = await storage.update_game(record, status="running", started_at="2025-01-01T10:00:00+00:00")
    assert await storage.append_move(record.id, 1, BEN, ["end"], Ending("finished", Result.load(won(3))), auto=True)
    assert [(t.mixed, t.played) for t in await storage.player_tallies(GUILD, ANA)] == [(True, 1)]
    assert [h.mixed for h in await storage.ended_games(GUILD)] == [True]
