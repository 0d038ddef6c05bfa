"""Optional parts optional (issue 33): the bot starts and plays on SQLite without asyncpg, uvloop, orjson and
zstandard, says at start which of them it uses, and asks for ``.[postgres]`` only when DATABASE_URL wants asyncpg."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.e2e.test_owner_startup import closed_port
from tests.e2e.test_startup import LAUNCHER, one_line, start_and_stop
from tests.fake_discord import FakeDiscord

OPTIONAL = ("asyncpg", "uvloop", "orjson", "zstandard")


def hiding_launcher(folder: Path) -> Path:
    """The usual launcher, run where importing any optional part fails as if it were not installed."""
    script = folder / "launch_without_optional_parts.py"
    script.write_text(
        "import runpy, sys\n"
        f"for name in {OPTIONAL!r}:\n"
        "    sys.modules[name] = None  # import raises ModuleNotFoundError, as when it is not installed\n"
        f"sys.argv = [{str(LAUNCHER)!r}]\n"
        f"runpy.run_path({str(LAUNCHER)!r}, run_name='__main__')\n"
    )
    return script


def environment(tmp_path: Path, fake_api: str, gateway: str, cdn: str) -> dict[str, str]:
    return {
        **os.environ,
        "DISCORD_TOKEN": "owner-token",
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DEV_GUILD_ID": "",
        "DATABASE_URL": "",
        "XDG_CONFIG_HOME": str(tmp_path),
        "FAKE_DISCORD_API": fake_api,
        "FAKE_DISCORD_GATEWAY": gateway,
        "FAKE_DISCORD_CDN": cdn,
    }


async def test_the_bot_starts_without_any_optional_part_and_says_so(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        env = environment(tmp_path, fake.api_url, fake.gateway_url, fake.cdn_url)
        proc_launcher = hiding_launcher(tmp_path)
        status, output = await start_and_stop(fake, tmp_path, env, launcher=proc_launcher)
    assert status == 0, output
    assert "Optional parts in use: none; not installed: uvloop, orjson, zstandard" in output, output
    assert "database: SQLite" in output
    assert "Traceback" not in output


async def test_database_url_without_asyncpg_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    env = environment(
        tmp_path, f"http://127.0.0.1:{closed_port()}/api/v10", "ws://127.0.0.1:9/gateway", "http://127.0.0.1:9/cdn"
    )
    env["DATABASE_URL"] = "postgresql://bot:secret@127.0.0.1:9/cardtable"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(hiding_launcher(tmp_path)), cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    line = one_line(out.decode())
    assert proc.returncode == 2
    assert "asyncpg is not installed" in line
    assert '".[postgres]"' in line
    assert "secret" not in line
