"""Shared pytest fixtures."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.fake_discord import FakeDiscord
from tests.postgres import HINT, REQUIRED, PostgresServer, bindir

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
