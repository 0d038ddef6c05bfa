"""Shared pytest fixtures, and the tests' distance from the owner's own set-up."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import games  # noqa: F401  (registers the games the bot hosts, as bot.py does, before any test asks for one)
from tests.fake_discord import FakeDiscord
from tests.postgres import HINT, REQUIRED, PostgresServer, bindir

ROOT = Path(__file__).resolve().parents[1]
# Settings every bot would take from the environment: the ones .env.example documents (commented out or not), and
# those read without a line there. A developer's shell or a production checkout may have any of them set.
_NAMED = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=", re.MULTILINE)
BOT_SETTINGS = frozenset(_NAMED.findall((ROOT / ".env.example").read_text(encoding="utf-8"))) | {
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "LOG_FILE",
    "LOG_LEVEL",
    "LOG_LEVEL_LIBRARIES",
    "METRICS_PORT",
    "DEV_GUILD_ID",
    "SYNC_COMMANDS",
    "SHARD_COUNT",
    "SHARD_IDS",
}


def _keep_the_owners_setup_out() -> None:
    """No test bot reads the owner's settings: none from the environment, and no ``.env`` but one in the folder the
    bot is started in (``CARDTABLE_HOME=.``; every test starts its bots in a temporary folder of its own), so neither
    the checkout's ``.env`` nor the per-user config folder's is ever read. Done at import, before any test, so that
    every bot process a test starts inherits it."""
    for name in BOT_SETTINGS:
        os.environ.pop(name, None)
    os.environ["CARDTABLE_HOME"] = "."


_keep_the_owners_setup_out()
_postgres_missing: list[str] = []


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord with discord.py pointed at it (see tests/fake_discord.py)."""
    async with FakeDiscord(bot_name="TestBot") as fake:
        yield fake


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL for the whole run (tests/postgres.py); skips the test where PostgreSQL isn't
    installed, or fails it when $REQUIRE_POSTGRES is set (CI)."""
    folder = bindir()
    if folder is None:
        if os.environ.get(REQUIRED):
            pytest.fail(f"{REQUIRED} is set but PostgreSQL is not installed (apt-get install postgresql)")
        _postgres_missing.append(HINT)
        pytest.skip(HINT)
    server = PostgresServer.start(folder)
    yield server
    server.stop()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _postgres_missing:
        terminalreporter.write_line(HINT, yellow=True)
