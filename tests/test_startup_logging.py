"""Logging an owner can read (issue 33): LOG_LEVEL reaches every package of the bot, and a lost gateway connection is
one WARNING line with its reason and the next try, not a traceback at ERROR counted as an error."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest

import bot as bot_module
import metrics
import startup

ROOT = Path(__file__).resolve().parents[1]
NOT_THE_BOT = {"tests", "tools", "benchmarks"}


def test_log_level_covers_every_module_and_package_of_the_bot() -> None:
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name not in NOT_THE_BOT}
    modules = {p.stem for p in ROOT.glob("*.py")}
    assert {"table", "i18n", "chatfilter", "engine", "cogs", "storage"} <= packages  # the walk does see them
    assert set(startup.OWN_LOGGERS) == packages | modules


def test_an_installed_bot_reads_its_packages_from_its_metadata(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(startup, "__file__", str(tmp_path / "startup.py"))  # no pyproject.toml beside it
    monkeypatch.setattr(startup.metadata, "distribution", lambda name: FakeDistribution())
    assert startup.own_packages() == ("bot", "config", "table", "i18n")


class FakeDistribution:
    def read_text(self, name: str) -> str:
        assert name == "top_level.txt"
        return "bot\nconfig\ntable\ni18n\n"


def test_setup_logging_sets_log_level_on_every_package(monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", root.level)
    levels = {name: logging.getLogger(name).level for name in startup.OWN_LOGGERS}
    try:
        startup.setup_logging("DEBUG", "WARNING")
        assert logging.getLogger("table.flow").getEffectiveLevel() == logging.DEBUG
        assert logging.getLogger("chatfilter").getEffectiveLevel() == logging.DEBUG
        assert logging.getLogger("i18n.slash").getEffectiveLevel() == logging.DEBUG
        assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.WARNING
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.parametrize(
    ("logger", "error", "reason"),
    [
        ("discord.client", OSError(101, "Network is unreachable"), "OSError: [Errno 101] Network is unreachable"),
        ("discord.shard", TimeoutError(), "TimeoutError"),
    ],
)
def test_a_lost_connection_is_one_warning_with_the_reason_and_the_next_try_and_no_error(
    logger: str, error: BaseException, reason: str
) -> None:
    kept = Kept()
    root = logging.getLogger()
    root.addHandler(kept)
    root.addHandler(metrics._ERROR_COUNTER)
    errors = metrics.ERRORS.labels(logger)
    before = errors._value.get()
    startup.quiet_reconnects()
    try:
        try:
            raise error
        except type(error) as raised:
            # As discord.py 2.7 logs it: client.py's connect loop, and shard.py's for AutoShardedBot.
            if logger == "discord.client":
                logging.getLogger(logger).exception("Attempting a reconnect in %.2fs", 4.52)
            else:
                logging.getLogger(logger).error(
                    "Attempting a reconnect for shard ID %s in %.2fs", 3, 4.52, exc_info=raised
                )
    finally:
        root.removeHandler(kept)
        root.removeHandler(metrics._ERROR_COUNTER)
    [record] = [r for r in kept.records if r.name == logger]
    assert record.levelno == logging.WARNING
    assert record.exc_info is None
    text = logging.Formatter(startup.LOG_FORMAT).format(record)
    assert "\n" not in text  # one line: no traceback
    assert reason in text
    assert "next try in 4.5 s, at " in text
    assert ("shard 3" in text) == (logger == "discord.shard")
    assert errors._value.get() == before  # not counted as an error


def test_other_errors_of_discord_py_are_left_as_they_are() -> None:
    kept = Kept()
    logging.getLogger().addHandler(kept)
    startup.quiet_reconnects()
    try:
        try:
            raise ValueError("a bug")
        except ValueError:
            logging.getLogger("discord.client").exception("Ignoring exception in %s", "on_message")
    finally:
        logging.getLogger().removeHandler(kept)
    [record] = [r for r in kept.records if r.name == "discord.client"]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None


def test_the_reason_of_a_close_names_discords_close_code() -> None:
    class Socket:
        close_code = 4000

    closed = discord.ConnectionClosed(Socket(), shard_id=None, code=4000)  # type: ignore[arg-type]
    assert startup.connection_error(closed).startswith("Discord closed it with code 4000")


def test_an_unexpected_crash_is_logged_once_with_its_traceback_and_status_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def crash(settings: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bot_module, "env_folders", lambda: [tmp_path])
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("LOG_FILE", "")
    monkeypatch.setattr(bot_module, "run", crash)
    monkeypatch.setattr(bot_module.startup, "setup_logging", lambda *_: None)
    with pytest.raises(SystemExit) as exited:
        bot_module.main([])
    assert exited.value.code == 1
    [record] = [r for r in caplog.records if r.levelno == logging.CRITICAL]
    assert record.exc_info is not None
    assert str(record.exc_info[1]) == "a bug"


def test_the_optional_parts_line_names_what_is_used_and_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.utils, "HAS_ORJSON", True)
    monkeypatch.setattr(discord.utils, "_ZSTD_SOURCE", None)
    line = startup.optional_parts(uvloop=True, database_url="postgresql://bot@db/cardtable")
    assert line == (
        'Optional parts in use: uvloop, orjson; not installed: zstandard (pip install ".[speed]"); '
        "database: PostgreSQL (asyncpg)"
    )
    monkeypatch.setattr(discord.utils, "_ZSTD_SOURCE", "zstandard")
    assert startup.optional_parts(uvloop=True, database_url=None) == (
        "Optional parts in use: uvloop, orjson, zstandard; database: SQLite"
    )
