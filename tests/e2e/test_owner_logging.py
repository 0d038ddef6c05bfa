"""What an owner reads when something goes wrong (issue 33): every start-up error is also in LOG_FILE, a .env line
that docker or systemd would read differently is refused with its line, and a lost gateway connection is one
WARNING line, not a traceback."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket

import startup
from storage import open_storage
from tests.e2e.conftest import World
from tests.e2e.test_owner_startup import start_offline
from tests.e2e.test_startup import LAUNCHER, one_line
from tests.fake_discord import FakeDiscord


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("a bad setting", "DEV_GUILD_ID must be a server id"),
        ("a database problem", "is not a SQLite database"),
        ("no network", "Can't reach Discord"),
    ],
)
async def test_a_start_up_error_is_one_line_on_stderr_and_the_same_line_in_log_file(
    tmp_path: Path, case: str, expected: str
) -> None:
    database = tmp_path / "bot.sqlite3"
    settings = {"DATABASE_PATH": str(database), "LOG_FILE": "logs/bot.log"}
    if case == "a bad setting":
        settings["DEV_GUILD_ID"] = "my server"
    elif case == "a database problem":
        database.write_bytes(b"not a database\n" * 100)
    else:
        await (await open_storage(str(database))).close()  # migrated by an earlier start: only the failure is logged
    status, output = await start_offline(tmp_path, **settings)
    line = one_line(output)
    assert status == 2
    assert expected in line
    logged = (tmp_path / "logs" / "bot.log").read_text().splitlines()  # relative to the bot's folder
    assert len(logged) == 1, logged
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR +startup: " + re.escape(line), logged[0])


async def test_a_rejected_token_is_in_log_file_too(tmp_path: Path) -> None:
    await (await open_storage(str(tmp_path / "bot.sqlite3"))).close()  # migrated before: only the failure is logged
    async with FakeDiscord() as fake:
        fake.reject_token("stale-token")
        env = {
            **os.environ,
            "DISCORD_TOKEN": "stale-token",
            "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
            "DEV_GUILD_ID": "",
            "LOG_FILE": str(tmp_path / "bot.log"),
            "FAKE_DISCORD_API": fake.api_url,
            "FAKE_DISCORD_GATEWAY": fake.gateway_url,
            "FAKE_DISCORD_CDN": fake.cdn_url,
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(LAUNCHER), cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert out == b""
    assert proc.returncode == 2
    line = one_line(err.decode())
    assert line.startswith("Discord rejected DISCORD_TOKEN")
    assert f"ERROR    startup: {line}" in (tmp_path / "bot.log").read_text()


async def test_a_log_file_named_in_env_gets_the_error_of_a_later_env_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("# the bot's settings\nLOG_FILE=bot.log\n\nSHARD_COUNT=two\n")
    status, output = await start_offline(tmp_path)
    line = one_line(output)
    assert status == 2
    assert "SHARD_COUNT must be a whole number" in line
    assert line in (tmp_path / "bot.log").read_text()


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("DEV_GUILD_ID=1234  # my test server", "line 2: DEV_GUILD_ID has a comment after its value"),
        ("export LOG_LEVEL=DEBUG", "line 2: write LOG_LEVEL= without 'export'"),
        ("LOG_LEVEL = DEBUG", "line 2: 'LOG_LEVEL' is not a setting's name"),
        ("LOG_LEVEL", "line 2: a line without '='"),
    ],
)
async def test_an_env_line_docker_would_read_differently_is_refused_with_its_line(
    tmp_path: Path, written: str, expected: str
) -> None:
    (tmp_path / ".env").write_text(f"LOG_FILE=bot.log\n{written}\n")
    status, output = await start_offline(tmp_path, DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    line = one_line(output)
    assert status == 2
    assert line == f"{tmp_path / '.env'}, {expected}" or line.startswith(f"{tmp_path / '.env'}, {expected}")
    assert "1234" not in line  # a value is never echoed: it might be the token
    assert line in (tmp_path / "bot.log").read_text()
    assert not (tmp_path / "bot.sqlite3").exists()


async def test_a_value_from_the_environment_with_a_comment_is_refused_and_a_quoted_one_is_kept(
    tmp_path: Path,
) -> None:
    status, output = await start_offline(tmp_path, DISCORD_TOKEN="abc.def # the old one")
    line = one_line(output)
    assert status == 2
    assert line.startswith("DISCORD_TOKEN has a comment after its value")
    assert "abc.def" not in line
    # Quoted, the # belongs to the value for every reader alike: accepted (the start then fails on the network).
    status, output = await start_offline(
        tmp_path, DATABASE_PATH=f'"{tmp_path / "games #1.sqlite3"}"', DEV_GUILD_ID="1234"
    )
    assert status == 2
    assert output.strip().splitlines()[-1].startswith("Can't reach Discord")
    assert (tmp_path / "games #1.sqlite3").is_file()


async def test_a_lost_gateway_connection_is_one_warning_and_the_bot_comes_back(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    startup.quiet_reconnects()  # as bot.main() does
    caplog.set_level(logging.INFO)
    connect = DiscordWebSocket.from_client
    failed: list[bool] = []

    async def network_down_once(cls: type[DiscordWebSocket], /, client: Any, **options: Any) -> DiscordWebSocket:
        if not failed:
            failed.append(True)
            raise OSError(101, "Network is unreachable")
        return await connect(client, **options)

    async with world.bot() as bot:
        identifies, resumes = world.fake.identifies, world.fake.resumes
        session = world.fake._session
        assert session is not None
        assert session.conn is not None
        # The connection drops, and the network is still down at the first try to connect again.
        monkeypatch.setattr(DiscordWebSocket, "from_client", classmethod(network_down_once))
        await session.conn.ws.close(code=1000, message=b"a network blip")
        await world.fake.wait_for(
            lambda: world.fake.identifies + world.fake.resumes > identifies + resumes, 15, what="the bot to reconnect"
        )
        await world.fake.wait_ready(timeout=10)
        assert bot.is_ready()
        inter = await world.fake.invoke("rules", user=world.players[0], channel=world.channel, options={})
        assert inter.response is not None  # it answers again
    lost = [r for r in caplog.records if r.name == "discord.client" and "connection to Discord" in r.getMessage()]
    assert len(lost) == 1, [r.getMessage() for r in caplog.records]
    assert lost[0].levelno == logging.WARNING
    assert lost[0].exc_info is None
    assert failed
    message = lost[0].getMessage()
    assert re.search(
        r"\(OSError: \[Errno 101\] Network is unreachable\); next try in \d+\.\d s, at \d\d:\d\d:\d\d", message
    )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
