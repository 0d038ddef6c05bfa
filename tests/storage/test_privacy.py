"""Forgetting (issue 33) against both databases: a person's data on request, a departed server's data, the hand texts
of ended games; the games stay replayable and their results consistent."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.game import Setup, decode_moves, replay
from storage import FORMER_BASE, Ending, NewGame, Storage, cutoff, is_former
from storage.stats import hint_key
from table.games import stats_result
from table.registry import GAMES

ANA, BEN, CY, DAN = 310000000000000001, 310000000000000002, 310000000000000003, 310000000000000004
GUILD, OTHER_GUILD = 900000000000000001, 900000000000000002


async def play(storage: Storage, players: tuple[int, ...], channel: int, kind: str = "no_thanks", *, end: bool = True,
               guild: int = GUILD) -> int:  # fmt: skip
    """A game of ``kind`` dealt and played at random through storage (to its end, or a few moves); its id."""
    game = GAMES[kind]
    record = await storage.create_game(NewGame(channel, guild, kind, players[0], players, (), seed=5, rules_version=1))
    record = await storage.update_game(record, status="running", started_at="2026-01-01T00:00:00+00:00")
    state = game.new_game(Setup(players, 5))
    rng = random.Random(channel)
    seq = 0
    while not game.is_over(state) and (end or seq < 3):
        player = game.current_player(state) or players[0]  # The Game: anyone may lay the first card
        actions = [a for a in game.legal_actions(state, player) if a != game.leave]
        action = rng.choice(actions)
        state = game.apply(state, player, action)
        seq += 1
        outcome = game.outcome(state)
        ending = None if outcome is None else Ending("finished", stats_result(game.info, outcome))
        assert await storage.append_move(record.id, seq, player, game.encode_action(action), ending)
    for player in players:
        await storage.set_private_message(record.id, player, 77, f"Your hand: {player}")
    return record.id


async def replayed(storage: Storage, game_id: int) -> Any:
    record = await storage.game(game_id)
    assert record is not None
    game = GAMES[record.kind]
    logged = await storage.moves(game_id)
    moves = decode_moves(game, [(m.player, m.action) for m in logged])
    return replay(game, Setup(record.players, record.seed, frozenset(record.variants), record.rules_version), moves)


async def test_forgetting_puts_a_pseudonym_in_every_ended_game_and_keeps_it_replayable(storage: Storage) -> None:
    first = await play(storage, (ANA, BEN, DAN), channel=1)
    second = await play(storage, (BEN, ANA, CY), channel=2)
    before = [await replayed(storage, first), await replayed(storage, second)]
    await storage.set_meta(f"locale:{ANA}", "de")
    await storage.set_dm_channel(ANA, 555)

    pseudonym = await storage.forget_user(ANA)

    assert is_former(pseudonym)
    assert pseudonym > FORMER_BASE
    assert await storage.get_meta(f"locale:{ANA}") is None
    assert await storage.dm_channel(ANA) is None
    for game_id, old in zip((first, second), before, strict=True):
        record = await storage.game(game_id)
        assert record is not None
        assert ANA not in record.players
        assert pseudonym in record.players
        assert ANA not in await storage.private_messages(game_id)
        assert BEN in await storage.private_messages(game_id)  # the others' texts stay until their keeping time
        state = await replayed(storage, game_id)
        assert [c for c in state.hands] == [c for c in old.hands]
        assert state.players == tuple(pseudonym if p == ANA else p for p in old.players)
        assert str(ANA) not in json.dumps(record.result.dump())
        assert str(ANA) not in json.dumps(dict(record.options))
        assert all(m.player != ANA for m in await storage.moves(game_id))
    assert (await storage.game(first)).host_id == pseudonym  # type: ignore[union-attr]
    assert await storage.player_results(GUILD, ANA) == []
    assert len(await storage.player_results(GUILD, pseudonym)) == 2
    assert len(await storage.player_results(GUILD, BEN)) == 2
    standings = await storage.together(GUILD, "no_thanks", sorted((BEN, DAN, pseudonym)))
    assert [(s.players, s.games) for s in standings] == [((BEN,), 1), ((DAN,), 1), ((pseudonym,), 1)]


async def test_an_open_game_keeps_the_seat_until_it_ends(storage: Storage) -> None:
    running = await play(storage, (ANA, BEN, DAN), channel=3, end=False)
    ended = await play(storage, (ANA, CY, DAN), channel=4)

    pseudonym = await storage.forget_user(ANA)

    open_record = await storage.game(running)
    assert open_record is not None
    assert ANA in open_record.players
    assert ANA not in (await storage.game(ended)).players  # type: ignore[union-attr]
    assert await storage.settle_forgotten() == 0  # still running: nothing to settle yet
    # A game opened after asking is theirs again, and is never rewritten.
    later = await play(storage, (ANA, CY, DAN), channel=5)
    game = GAMES["no_thanks"]
    state = await replayed(storage, running)
    while not game.is_over(state):
        player = game.current_player(state)
        assert player is not None
        action = next(a for a in game.legal_actions(state, player) if a != game.leave)
        state = game.apply(state, player, action)
        outcome = game.outcome(state)
        ending = None if outcome is None else Ending("finished", stats_result(game.info, outcome))
        moves = len(await storage.moves(running))
        assert await storage.append_move(running, moves + 1, player, game.encode_action(action), ending)

    assert await storage.settle_forgotten() == 1
    assert pseudonym in (await storage.game(running)).players  # type: ignore[union-attr]
    assert ANA in (await storage.game(later)).players  # type: ignore[union-attr]
    assert await storage.settle_forgotten() == 0  # the link is gone: nothing is left to rewrite
    assert (await replayed(storage, running)).players == (pseudonym, BEN, DAN)


async def test_forgetting_twice_gives_a_new_pseudonym_and_touches_nobody_else(storage: Storage) -> None:
    game_id = await play(storage, (ANA, BEN, DAN), channel=6)
    first = await storage.forget_user(ANA)
    second = await storage.forget_user(ANA)
    assert first != second
    record = await storage.game(game_id)
    assert record is not None
    assert record.players == (first, BEN, DAN)
    assert await storage.forget_user(CY) > second  # somebody never seen: nothing to rewrite, no failure


async def test_hand_texts_of_ended_games_go_after_their_keeping_time(storage: Storage) -> None:
    ended = await play(storage, (ANA, BEN, DAN), channel=7)
    running = await play(storage, (ANA, BEN, DAN), channel=8, end=False)
    assert await storage.forget_hand_texts(cutoff(1)) == 0  # ended just now: kept
    assert await storage.forget_hand_texts(cutoff(-1)) == 3  # as if a day later
    assert await storage.private_messages(ended) == {}
    assert set(await storage.private_messages(running)) == {ANA, BEN, DAN}  # a running game's DMs are its working data


async def test_a_departed_server_is_erased_and_the_others_stay(storage: Storage) -> None:
    gone = await play(storage, (ANA, BEN, DAN), channel=9)
    await play(storage, (ANA, BEN, DAN), channel=10, end=False)
    kept = await play(storage, (ANA, BEN, DAN), channel=11, guild=OTHER_GUILD)
    await storage.update_guild_settings(GUILD, lambda s: {**s, "language": "fr"})
    assert await storage.known_guilds() == {GUILD, OTHER_GUILD}

    await storage.guild_removed(GUILD, at="2026-01-01T00:00:00+00:00")
    await storage.guild_removed(GUILD)  # a second event keeps the first date
    assert await storage.departed_guilds() == {GUILD: "2026-01-01T00:00:00+00:00"}
    assert await storage.guild_returned(GUILD)
    assert await storage.departed_guilds() == {}
    assert not await storage.guild_returned(GUILD)

    await storage.guild_removed(GUILD)
    assert await storage.forget_guild(GUILD) == 2
    assert await storage.game(gone) is None
    assert await storage.open_game(10) is None
    assert await storage.guild_settings(GUILD) == {}
    assert await storage.player_results(GUILD, ANA) == []
    assert await storage.departed_guilds() == {}
    assert await storage.game(kept) is not None
    assert len(await storage.player_results(OTHER_GUILD, ANA)) == 1
    assert await storage.known_guilds() == {OTHER_GUILD}


def test_pseudonyms_are_no_discord_id_and_no_computer_player() -> None:
    assert not is_former(2**62)  # a Discord id of the 2040s
    assert not is_former(-1)
    assert not is_former(101)
    assert is_former(FORMER_BASE + 1)
    assert FORMER_BASE + 2**31 - 1 < 2**63


async def test_a_game_moved_by_a_pseudonym_replays_like_the_original(storage: Storage) -> None:
    game_id = await play(storage, (ANA, BEN, CY), channel=12, kind="the_game")
    old = await replayed(storage, game_id)
    pseudonym = await storage.forget_user(BEN)
    new = await replayed(storage, game_id)
    assert new.players == (ANA, pseudonym, CY)
    assert new.hands == old.hands
    assert new.piles == old.piles


async def test_forgetting_erases_preferences_and_moves_a_hint_to_the_pseudonym(storage: Storage) -> None:
    """Issue 38: /me's choices go with the person; a Hint they took stays against the seat (now a former player's),
    so the game does not join the leaderboard under the pseudonym."""
    game = await play(storage, (ANA, BEN, DAN), channel=6)
    await storage.set_meta(f"prefs:{ANA}", '{"guard": false}')
    await storage.set_meta(f"prefs:{BEN}", '{"pings": false}')
    await storage.mark_hinted(game, ANA)

    pseudonym = await storage.forget_user(ANA)

    assert await storage.get_meta(f"prefs:{ANA}") is None
    assert await storage.get_meta(f"prefs:{BEN}") == '{"pings": false}'  # somebody else's stay
    assert await storage.get_meta(hint_key(game, ANA)) is None
    assert await storage.get_meta(hint_key(game, pseudonym)) == "1"
    players, _ = await storage.leaderboard(GUILD, "no_thanks", teams=False, mixed=False)
    assert {s.players for s in players} == {(BEN,), (DAN,)}
