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
from storage import open_storage
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
    database = tmp_path / "bot.sqlite3"
    await (await open_storage(str(database))).close()  # migrated by an earlier start: only the failure is logged
    status, output = await start_bot(tmp_path, f"http://127.0.0.1:{closed_port}/api/v10", database)
    line = one_line(output)
    assert status == 2, output
    assert line.startswith("Can't reach Discord")
    assert "network" in line


# ---- owner set-up: DEV_GUILD_ID, and the .env and database found from any folder (issue 11) ----------------------


def command_names(fake: FakeDiscord, guild: object = None) -> list[str]:
    return sorted(command["name"] for command in fake.commands(guild))


def listed_in(fake: FakeDiscord, guild: object) -> list[str]:
    """The slash commands a member of ``guild`` is offered: the server's own and the global ones."""
    return sorted(command_names(fake, guild) + command_names(fake))


async def test_dev_guild_id_lists_every_command_once_in_that_server_and_unsetting_it_clears_them(world: World) -> None:
    def bot_with(dev_guild_id: int | None) -> bot_module.Bot:
        settings = Settings(token="fake-token", database_path=str(world.database_path), dev_guild_id=dev_guild_id)
        return bot_module.Bot(settings, seed=1, guild_ready_timeout=0.05)

    async with world.fake.run_bot(bot_with(None)):
        everything = command_names(world.fake)
    assert everything
    assert len(set(everything)) == len(everything)
    assert command_names(world.fake, world.guild) == []

    async with world.fake.run_bot(bot_with(world.guild.id)):
        syncs = len(world.fake.command_syncs)
        # Registered in the server (where a change shows at once) and nowhere else: listed there exactly once.
        assert command_names(world.fake, world.guild) == everything
        assert command_names(world.fake) == []
        assert listed_in(world.fake, world.guild) == everything
        inter = await world.fake.invoke("rules", user=world.players[0], channel=world.channel, options={})
        assert inter.response is not None

    async with world.fake.run_bot(bot_with(world.guild.id)):
        assert len(world.fake.command_syncs) == syncs  # nothing changed: no sync
        assert listed_in(world.fake, world.guild) == everything

    async with world.fake.run_bot(bot_with(None)):
        # Unset: global again, and the server's own copies are gone, so it doesn't list them twice.
        assert command_names(world.fake) == everything
        assert command_names(world.fake, world.guild) == []
        assert listed_in(world.fake, world.guild) == everything


async def test_dev_guild_id_of_a_server_the_bot_is_not_in_is_logged_and_the_bot_runs(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(token="fake-token", database_path=str(world.database_path), dev_guild_id=4242)
    async with world.fake.run_bot(bot_module.Bot(settings, seed=1, guild_ready_timeout=0.05)) as bot:
        assert bot.is_ready()
    assert any("DEV_GUILD_ID 4242" in record.getMessage() for record in caplog.records)


async def start_and_stop(
    fake: FakeDiscord, folder: Path, env: dict[str, str], launcher: Path = LAUNCHER
) -> tuple[int, str]:
    """``bot.main()`` started in ``folder``, stopped by SIGTERM once it is connected: its exit status and output."""
    identifies = fake.identifies
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(launcher), cwd=folder, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    try:
        connecting = "the bot to connect to the gateway"
        await fake.wait_for(lambda: proc.returncode is not None or fake.identifies > identifies, 20, what=connecting)
        if proc.returncode is None:
            await fake.wait_ready(timeout=20)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_the_same_env_and_database_are_used_whatever_folder_the_bot_is_started_from(tmp_path: Path) -> None:
    if (LAUNCHER.parents[1] / ".env").exists():
        pytest.skip("this checkout has its own .env, which the bot would read before the per-user one")
    config = tmp_path / "config" / "cardtable-bot"
    config.mkdir(parents=True)
    (config / ".env").write_text("DISCORD_TOKEN=owner-token\nLOG_LEVEL=INFO\n")
    # Without CARDTABLE_HOME (which the tests set, tests/conftest.py): this is the bot looking for its .env.
    skipped = {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "CARDTABLE_HOME"}
    env = {k: v for k, v in os.environ.items() if k not in skipped}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        env |= {"FAKE_DISCORD_API": fake.api_url, "FAKE_DISCORD_GATEWAY": fake.gateway_url}
        env |= {"FAKE_DISCORD_CDN": fake.cdn_url}
        for name in ("one folder", "another folder"):
            folder = tmp_path / name
            folder.mkdir()
            status, output = await start_and_stop(fake, folder, env)
            assert status == 0, output
            assert not (folder / "data").exists()
        # The token came from the per-user .env, and the database sits beside it: the second start found the
        # commands the first one synced in it, so it did not sync again.
        assert (config / "data" / "bot.sqlite3").is_file()
        assert len(fake.command_syncs) == 1
