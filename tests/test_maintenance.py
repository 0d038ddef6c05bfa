"""The owner's maintenance commands (issue 33): ``forget-server`` and ``copy-database``, run as ``cardtable-bot`` runs
them (``bot.main`` with the command line), against real databases."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import bot
from engine.game import Setup, decode_moves, replay
from storage import GameRecord, Storage, Timer, maintenance
from storage.copy import TABLES
from storage.postgres import PostgresStorage
from storage.sqlite import SQLiteStorage
from table.registry import GAMES
from tests.storage.test_privacy import ANA, BEN, CY, DAN, GUILD, OTHER_GUILD, play


def run(argv: list[str], folder: Path) -> int:
    """``cardtable-bot <argv>`` with the ``.env`` of ``folder``: its exit status."""
    with pytest.raises(SystemExit) as exit_:
        bot.main(argv)
    return int(exit_.value.code or 0)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bot folder whose .env names a database in it and no token (maintenance needs none)."""
    for name in ("DATABASE_PATH", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("DATABASE_PATH=data/bot.sqlite3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


async def filled(path: Path) -> None:
    """A database with something in every table: ended and running games of two servers, a clock, settings, a
    forgotten person, a departed server."""
    storage = await SQLiteStorage.open(str(path))
    try:
        await play(storage, (ANA, BEN, DAN), channel=1)
        await play(storage, (BEN, CY, DAN), channel=2, kind="the_game")
        running = await play(storage, (ANA, BEN, CY), channel=3, end=False)
        await play(storage, (ANA, CY, DAN), channel=4, guild=OTHER_GUILD)
        await storage.set_timer(Timer(running, 3, BEN, None, 1_900_000_000.5))
        await storage.update_guild_settings(GUILD, lambda s: {**s, "language": "de", "pings": False})
        await storage.set_meta(f"locale:{BEN}", "fr")
        await storage.set_dm_channel(BEN, 42)
        await storage.forget_user(ANA)
        await storage.guild_removed(OTHER_GUILD)
    finally:
        await storage.close()


def table_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(path) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in TABLES}


def final_state(record: GameRecord, moves: list[Any]) -> Any:
    game = GAMES[record.kind]
    setup = Setup(record.players, record.seed, frozenset(record.variants), record.rules_version)
    return replay(game, setup, decode_moves(game, [(m.player, m.action) for m in moves]))


async def games(storage: Storage) -> dict[int, tuple[GameRecord, list[Any], Any]]:
    found = {}
    for channel in (1, 2, 3, 4):
        for record in await storage.channel_games(channel):
            moves = await storage.moves(record.id)
            found[record.id] = (record, moves, final_state(record, moves))
    return found


async def test_forget_server_erases_one_server_at_once(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "data" / "bot.sqlite3"
    await filled(path)
    assert await asyncio.to_thread(run, ["forget-server", str(GUILD)], folder) == 0
    assert capsys.readouterr().out == f"Erased server {GUILD}: its settings and 3 games.\n"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT DISTINCT guild_id FROM games").fetchall() == [(OTHER_GUILD,)]
        assert db.execute("SELECT count(*) FROM guild_settings").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM results WHERE guild_id = ?", (GUILD,)).fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM timers").fetchone() == (0,)


async def test_copy_database_moves_everything_and_every_game_replays_alike(
    folder: Path, postgres_server: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = folder / "data" / "bot.sqlite3"
    await filled(path)
    before = table_rows(path)
    url = await postgres_server.new_database()

    assert await asyncio.to_thread(run, ["copy-database", "--to", url], folder) == 0
    out = capsys.readouterr().out
    assert f"{len(before['games'])} games, {len(before['moves'])} moves" in out
    assert "Set DATABASE_URL" in out
    assert table_rows(path) == before  # the file is left as it was

    source = await SQLiteStorage.open(str(path))
    target = await PostgresStorage.open(url)
    try:
        copied, original = await games(target), await games(source)
        assert set(copied) == set(original)
        assert len(copied) == 4
        for game_id, (record, moves, state) in original.items():
            assert copied[game_id] == (record, moves, state), game_id  # the row, the log, and the position replayed
        for guild in (GUILD, OTHER_GUILD):
            for player in (ANA, BEN, CY, DAN):
                assert await target.player_results(guild, player) == await source.player_results(guild, player)
        assert await target.guild_settings(GUILD) == {"language": "de", "pings": False}
        assert await target.get_meta(f"locale:{BEN}") == "fr"
        assert await target.dm_channel(BEN) == 42
        assert await target.timers() == await source.timers()
        assert await target.departed_guilds() == await source.departed_guilds()
        assert await target.private_messages(3) == await source.private_messages(3)
        # The ids PostgreSQL generates continue after the copied ones, and forgetting keeps working on the copy.
        newer = await play(target, (BEN, CY, DAN), channel=5)
        assert newer == max(original) + 1
        assert await target.forget_user(BEN) == await source.forget_user(BEN)
        # The forgotten person's link to their running game came along: their seat is settled there when it ends.
        assert await target.settle_forgotten() == 0
    finally:
        await source.close()
        await target.close()

    assert await asyncio.to_thread(run, ["copy-database", "--to", url], folder) == 2  # not empty any more
    assert "already holds data" in capsys.readouterr().err


def test_copy_database_refuses_what_it_cannot_use(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["copy-database", "--to", "mysql://x"], folder) == 2
    assert "--to must be a PostgreSQL URL" in capsys.readouterr().err
    assert run(["copy-database", "--to", "postgresql://nobody@localhost/none"], folder) == 2
    assert "There is no SQLite database at" in capsys.readouterr().err
    assert not (folder / "data").exists()  # nothing created


async def test_every_table_is_copied() -> None:
    storage = await SQLiteStorage.open(":memory:")  # the newest schema, made by the bot's own migrations
    try:
        names = await storage._fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
    finally:
        await storage.close()
    assert {str(row[0]) for row in names} - {"sqlite_sequence"} == set(TABLES)


def test_the_maintenance_commands_are_told_apart_from_the_bots_options() -> None:
    assert maintenance.wanted(["forget-server", "1"])
    assert maintenance.wanted(["copy-database", "--to", "x"])
    assert not maintenance.wanted([])
    assert not maintenance.wanted(["--sync-commands"])
