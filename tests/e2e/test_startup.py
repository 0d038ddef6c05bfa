"""Starting the real bot: a rejected token is one clear line and status 2; shutting down closes the database."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import pytest

import bot as bot_module
from bot import Settings, run
from tests.e2e.conftest import World
from tests.fake_discord import FakeDiscord


async def test_a_rejected_token_exits_with_status_2_and_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with FakeDiscord() as fake:
        fake.reject_token("stale-token")
        status = await run(Settings(token="stale-token", database_path=str(tmp_path / "bot.sqlite3")))
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal into .env."]


async def test_sigterm_shuts_down_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[bot_module.Bot] = []
    original_setup = bot_module.Bot.setup_hook

    async def setup_hook(self: bot_module.Bot) -> None:
        started.append(self)
        await original_setup(self)

    monkeypatch.setattr(bot_module.Bot, "setup_hook", setup_hook)
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        task = asyncio.create_task(run(Settings(token="t", database_path=str(tmp_path / "bot.sqlite3"))))
        await fake.wait_for(lambda: started and started[0].is_ready(), timeout=15, what="the bot to be ready")
        signal.raise_signal(signal.SIGTERM)
        assert await asyncio.wait_for(task, 10) == 0
    assert started[0].is_closed()
    assert "storage" not in started[0].__dict__  # the database connection was closed and dropped


async def test_a_dm_channel_that_no_longer_exists_is_opened_afresh(world: World) -> None:
    ana = world.players[0]
    async with world.bot() as bot:
        await bot.storage.set_dm_channel(ana.id, 4242)  # e.g. remembered under another bot token
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={})
        await world.fake.invoke("start", user=ana, channel=world.channel)
        dm = await world.fake.wait_dm(ana)
        assert dm.content.startswith("Your hand:")
        assert await bot.storage.dm_channel(ana.id) == world.fake.dm_channel(ana).id
        assert not any("direct messages" in m.content for m in world.fake.channel_messages(world.channel))


# ---- start-up errors an owner can act on (issue 10, item 8) ---------------------------------------------------------

LAUNCHER = Path(__file__).resolve().parents[2] / "benchmarks" / "_launch_bot.py"


def without_root_powers() -> list[str]:
    """A command prefix under which file permissions hold, as for the unprivileged user a bot runs as: root ignores
    them, so when the tests run as root the bot runs without the capabilities that override them."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, and without setpriv root's file permissions can't be taken away")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner"]


async def start_bot(tmp_path: Path, api_url: str, database: Path, prefix: list[str] | None = None) -> tuple[int, str]:
    """``bot.main()`` in its own process, as an owner starts it; its exit status and what it printed."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "owner-token",
        "DATABASE_PATH": str(database),
        "DEV_GUILD_ID": "",
        "FAKE_DISCORD_API": api_url,
        "FAKE_DISCORD_GATEWAY": "ws://127.0.0.1:9/gateway",
        "FAKE_DISCORD_CDN": "http://127.0.0.1:9/cdn",
    }
    proc = await asyncio.create_subprocess_exec(
        *(prefix or []),
        sys.executable,
        str(LAUNCHER),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


def one_line(output: str) -> str:
    assert "Traceback" not in output, output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    return lines[0]


@pytest.mark.parametrize("case", ["folder can't be created", "read-only folder", "read-only file"])
async def test_a_database_that_cant_be_written_is_one_line_naming_it_and_status_2(tmp_path: Path, case: str) -> None:
    prefix: list[str] = []
    if case == "folder can't be created":
        (tmp_path / "data").write_text("a file where the folder should be")
        database = tmp_path / "data" / "bot.sqlite3"
    elif case == "read-only folder":
        prefix = without_root_powers()
        folder = tmp_path / "data"
        folder.mkdir(mode=0o555)
        database = folder / "bot.sqlite3"
    else:
        prefix = without_root_powers()
        database = tmp_path / "bot.sqlite3"
        with closing(sqlite3.connect(database)) as db:
            db.execute("CREATE TABLE kept (x)")
        database.chmod(0o444)
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        status, output = await start_bot(tmp_path, fake.api_url, database, prefix)
    line = one_line(output)
    assert status == 2, output
    assert str(database) in line
    assert ("read-only" if case == "read-only file" else "folder") in line


async def test_no_network_is_one_line_naming_the_cause_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]  # nothing listens there once the socket is closed
    status, output = await start_bot(tmp_path, f"http://127.0.0.1:{closed_port}/api/v10", tmp_path / "bot.sqlite3")
    line = one_line(output)
    assert status == 2, output
    assert line.startswith("Can't reach Discord")
    assert "network" in line
