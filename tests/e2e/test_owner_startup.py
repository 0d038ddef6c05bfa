"""Start-up as an owner meets it (issue 24): the database is checked before Discord is contacted, every failure is
one line and status 2, ``--help`` and ``--version`` start nothing, logging is quiet where it should be, and a new
Discord application gets its slash commands."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

import bot as bot_module
import startup
from bot import Settings
from storage.migrations import LATEST
from tests.e2e.test_startup import LAUNCHER, one_line, start_and_stop
from tests.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the socket is closed


async def start_offline(tmp_path: Path, **settings: str) -> tuple[int, str]:
    """``bot.main()`` in its own process with Discord unreachable: whatever it reports first is not about Discord
    when the failure is found before logging in."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "owner-token",
        "DEV_GUILD_ID": "",
        "FAKE_DISCORD_API": f"http://127.0.0.1:{closed_port()}/api/v10",
        "FAKE_DISCORD_GATEWAY": "ws://127.0.0.1:9/gateway",
        "FAKE_DISCORD_CDN": "http://127.0.0.1:9/cdn",
        **settings,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(LAUNCHER), cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


def newer_database(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")  # as the bot leaves every database it made
        db.execute("CREATE TABLE kept (x)")
        db.execute("PRAGMA user_version = 999")
        db.commit()


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("not a database", "is not a SQLite database"),
        ("newer database", "newer than this bot knows"),
    ],
)
async def test_a_database_problem_is_one_line_before_discord_is_contacted_and_leaves_the_file_alone(
    tmp_path: Path, case: str, expected: str
) -> None:
    database = tmp_path / "bot.sqlite3"
    if case == "not a database":
        database.write_bytes(b"these are somebody's notes, not a database\n" * 100)
    else:
        newer_database(database)
    before = database.read_bytes()
    status, output = await start_offline(tmp_path, DATABASE_PATH=str(database))
    line = one_line(output)
    assert status == 2, output
    assert expected in line
    assert str(database) in line
    assert "DATABASE_PATH" in line or "update the bot" in line
    assert database.read_bytes() == before  # nothing written, nothing half-migrated


async def test_a_log_file_that_cant_be_written_is_one_line_naming_log_file(tmp_path: Path) -> None:
    (tmp_path / "logs").write_text("a file where the folder should be")
    status, output = await start_offline(
        tmp_path, DATABASE_PATH=str(tmp_path / "bot.sqlite3"), LOG_FILE=str(tmp_path / "logs" / "bot.log")
    )
    line = one_line(output)
    assert status == 2
    assert "LOG_FILE" in line
    assert not (tmp_path / "bot.sqlite3").exists()  # stopped before the database was created


async def test_a_metrics_port_in_use_is_one_line_naming_metrics_port(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, output = await start_offline(
            tmp_path, DATABASE_PATH=str(tmp_path / "bot.sqlite3"), METRICS_PORT=str(port)
        )
    line = one_line(output)
    assert status == 2
    assert f"METRICS_PORT={port}" in line


@pytest.mark.parametrize("how", [[sys.executable, str(ROOT / "bot.py")], ["cardtable-bot"]])
def test_help_and_version_answer_without_starting_the_bot(tmp_path: Path, how: list[str]) -> None:
    if how == ["cardtable-bot"]:
        script = Path(sys.executable).parent / "cardtable-bot"
        if not script.exists():
            pytest.skip("the cardtable-bot command is not installed in this environment")
        how = [str(script)]
    # A token that would be used if the bot started: any attempt to start would fail on the unreachable API.
    env = {**os.environ, "DISCORD_TOKEN": "owner-token", "XDG_CONFIG_HOME": str(tmp_path), "DATABASE_PATH": "x.db"}
    env["FAKE_DISCORD_API"] = f"http://127.0.0.1:{closed_port()}/api/v10"
    version = subprocess.run([*how, "--version"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"cardtable-bot {startup.version()} (database schema {LATEST})"
    assert re.fullmatch(r"\d+\.\d+\.\d+", startup.version())
    helped = subprocess.run([*how, "--help"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0, helped.stderr
    assert "--sync-commands" in helped.stdout
    assert "DISCORD_TOKEN" in helped.stdout
    assert not (tmp_path / "x.db").exists()  # no database opened: nothing started
    wrong = subprocess.run([*how, "--frobnicate"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2
    assert "unrecognized arguments: --frobnicate" in wrong.stderr


def test_the_version_comes_from_pyproject_when_the_package_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise startup.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(startup.metadata, "version", missing)
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^version = "([^"]+)"', text, re.MULTILINE)
    assert match is not None
    assert startup.version() == match.group(1)


async def test_a_start_logs_the_version_and_invite_and_debug_keeps_the_drivers_quiet(tmp_path: Path) -> None:
    """LOG_LEVEL=DEBUG: the bot's own debug lines, not discord.py's or aiosqlite's; a LOG_FILE gets the same; no
    colour codes when the output is not a terminal."""
    async with FakeDiscord(application_id=4242424242) as fake:
        fake.add_guild("Card Club")
        env = {
            **os.environ,
            "DISCORD_TOKEN": "owner-token",
            "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
            "DEV_GUILD_ID": "",
            "LOG_LEVEL": "DEBUG",
            "LOG_FILE": "logs/bot.log",
            "XDG_CONFIG_HOME": str(tmp_path),
            "FAKE_DISCORD_API": fake.api_url,
            "FAKE_DISCORD_GATEWAY": fake.gateway_url,
            "FAKE_DISCORD_CDN": fake.cdn_url,
        }
        status, output = await start_and_stop(fake, tmp_path, env)
        assert status == 0, output
        _, noisy = await start_and_stop(fake, tmp_path, {**env, "LOG_LEVEL_LIBRARIES": "DEBUG", "LOG_FILE": ""})
    assert "\x1b[" not in output
    assert f"cardtable-bot {startup.version()}" in output
    assert "client_id=4242424242" in output
    levels = re.findall(r"^\S+ \S+ (DEBUG|INFO|WARNING|ERROR)\s+(\S+):", output, re.MULTILINE)
    debug_from = {name for level, name in levels if level == "DEBUG"}
    assert debug_from, output  # the bot's own debug lines are there
    assert all(name.split(".")[0] in startup.OWN_LOGGERS for name in debug_from), debug_from
    assert re.search(r"DEBUG\s+(aiosqlite|discord)", noisy)  # asked for: the drivers' lines too
    log_file = tmp_path / "logs" / "bot.log"  # relative to the bot's folder: here, with no .env anywhere
    assert f"cardtable-bot {startup.version()}; invite it with" in log_file.read_text()


# ---- the command-sync record names the application ----------------------------------------------------------------


async def test_a_new_application_on_the_same_database_gets_its_commands_and_a_sync_can_be_forced(
    tmp_path: Path,
) -> None:
    database = str(tmp_path / "bot.sqlite3")

    def bot(**settings: object) -> bot_module.Bot:
        return bot_module.Bot(Settings(token="t", database_path=database, **settings), seed=1, guild_ready_timeout=0.05)  # type: ignore[arg-type]

    async with FakeDiscord(application_id=1111) as first:
        first.add_guild("Card Club")
        async with first.run_bot(bot()):
            pass
        names = sorted(command["name"] for command in first.commands())
        assert names
        async with first.run_bot(bot()):
            pass
        assert len(first.command_syncs) == 1  # unchanged: not synced again
        async with first.run_bot(bot(sync_commands=True)):
            pass
        assert len(first.command_syncs) == 2  # --sync-commands: synced anyway
    async with FakeDiscord(application_id=2222) as second:  # the token of another application, same database
        second.add_guild("Card Club")
        async with second.run_bot(bot()):
            pass
        assert sorted(command["name"] for command in second.commands()) == names
        assert len(second.command_syncs) == 1


# ---- settings a container passes on as written ---------------------------------------------------------------------


@pytest.mark.parametrize("written", ['"abc.def"', "'abc.def'", ' "abc.def" ', "abc.def"])
def test_a_quoted_value_from_docker_env_file_loses_its_quotes(written: str) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": written, "DATABASE_PATH": '"/data/bot.sqlite3"'})
    assert settings.token == "abc.def"
    assert settings.database_path == "/data/bot.sqlite3"
    assert Settings.from_env({"DISCORD_TOKEN": '"ab"c"'}).token == 'ab"c'  # only a matching outer pair goes


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, ("INFO", "INFO", None, False)),
        ({"LOG_LEVEL": "debug"}, ("DEBUG", "INFO", None, False)),
        ({"LOG_LEVEL": "warning"}, ("WARNING", "WARNING", None, False)),
        ({"LOG_LEVEL": "DEBUG", "LOG_LEVEL_LIBRARIES": "debug"}, ("DEBUG", "DEBUG", None, False)),
        ({"METRICS_PORT": "9100", "SYNC_COMMANDS": "1"}, ("INFO", "INFO", 9100, True)),
    ],
)
def test_logging_metrics_and_sync_settings(env: dict[str, str], expected: tuple[object, ...]) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t", **env})
    assert (settings.log_level, settings.library_log_level, settings.metrics_port, settings.sync_commands) == expected


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"METRICS_PORT": "http"}, "METRICS_PORT must be a port number"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT must be a port number"),
        ({"LOG_LEVEL_LIBRARIES": "chatty"}, "LOG_LEVEL_LIBRARIES must be"),
        ({"SYNC_COMMANDS": "sometimes"}, "SYNC_COMMANDS must be"),
    ],
)
def test_bad_ops_settings_are_explained(env: dict[str, str], message: str) -> None:
    with pytest.raises(bot_module.ConfigError, match=message):
        Settings.from_env({"DISCORD_TOKEN": "t", **env})
