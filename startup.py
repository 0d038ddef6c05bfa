"""What happens before the bot logs in: the command line, the version, logging, and the invite link.

Kept out of ``bot.py`` so that the bot stays about the bot. Nothing here talks to Discord or the database.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import logging.handlers
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import TextIO

import discord

from discord_internals import colour_formatter, zstd_available
from storage.migrations import LATEST

DISTRIBUTION = "cardtable-bot"
# A rotating log file: 5 files of at most 5 MB, the oldest dropped.
LOG_FILE_BYTES = 5 * 1024 * 1024
LOG_FILE_BACKUPS = 4
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
# What the invite asks for (README, "Discord setup"): View Channel, Send Messages, Manage Messages, Embed Links,
# Attach Files, Create Public Threads (for /newgame thread:True), Send Messages in Threads.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    manage_messages=True,
    embed_links=True,
    create_public_threads=True,
    attach_files=True,
    send_messages_in_threads=True,
)


def version() -> str:
    """The installed version; from ``pyproject.toml`` beside this file when run from a checkout never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    try:
        with (Path(__file__).resolve().parent / "pyproject.toml").open("rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def own_packages() -> tuple[str, ...]:
    """The bot's own top-level modules and packages, as they are packaged: from ``pyproject.toml`` in a checkout (an
    editable install too), else from what pip installed (``top_level.txt``). A package added to the one list is in
    the other, so LOG_LEVEL never misses one (tests/test_startup_logging.py checks the list against the source)."""
    try:
        with (Path(__file__).resolve().parent / "pyproject.toml").open("rb") as file:
            setuptools = tomllib.load(file)["tool"]["setuptools"]
        modules = list(setuptools["py-modules"])
        packages = [pattern.rstrip(".*") for pattern in setuptools["packages"]["find"]["include"]]
        return tuple(dict.fromkeys(modules + packages))
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    try:
        top_level = metadata.distribution(DISTRIBUTION).read_text("top_level.txt") or ""
    except metadata.PackageNotFoundError:
        top_level = ""
    return tuple(name for name in top_level.split() if name) or ("bot", "config", "startup", "metrics")


# Our own loggers: LOG_LEVEL applies to them. Every other logger (discord.py, aiosqlite, asyncpg, aiohttp) is a
# library's and stays at LOG_LEVEL_LIBRARIES (INFO by default), so DEBUG shows the bot's own lines, not the drivers'.
OWN_LOGGERS = own_packages()


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=("bot", "applications.commands")
    )


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(
        prog=DISTRIBUTION,
        description="A self-hosted Discord bot for card games (The Game, No Thanks!). With no options it starts the "
        "bot; its settings come from the environment and a .env file (README, Settings).",
        epilog="Settings: DISCORD_TOKEN (required), DATABASE_PATH, DATABASE_URL, DEV_GUILD_ID, LOG_LEVEL, "
        "LOG_LEVEL_LIBRARIES, LOG_FILE, METRICS_PORT, SHARD_COUNT, SHARD_IDS, FORGET_SERVER_AFTER_DAYS, "
        "KEEP_HAND_TEXTS_DAYS. Exit status 2: a setting to fix. "
        "Maintenance: cardtable-bot forget-server ID, cardtable-bot copy-database --to URL (each with --help).",
    )
    command.add_argument("--version", action="version", version=f"%(prog)s {version()} (database schema {LATEST})")
    command.add_argument(
        "--sync-commands",
        action="store_true",
        help="register the slash commands with Discord at this start even if they look unchanged since the last "
        "sync (also SYNC_COMMANDS=1)",
    )
    return command


def optional_parts(*, uvloop: bool, database_url: str | None) -> str:
    """The one line at start saying which optional parts this run uses. ``pip install .`` gives a working bot on
    SQLite; the extras ``speed`` (uvloop, orjson, zstandard: discord.py uses the last two when installed) and
    ``postgres`` (asyncpg) add the rest."""
    speed = {
        "uvloop": uvloop,
        "orjson": discord.utils.HAS_ORJSON,
        "zstandard": zstd_available(),
    }
    used = [name for name, present in speed.items() if present]
    line = f"Optional parts in use: {', '.join(used) or 'none'}"
    missing = [name for name, present in speed.items() if not present]
    if missing:
        line += f'; not installed: {", ".join(missing)} (pip install ".[speed]")'
    return line + ("; database: PostgreSQL (asyncpg)" if database_url else "; database: SQLite")


def colours_wanted(stream: TextIO) -> bool:
    """Colour codes only for a person at a terminal: never in a pipe, a file, ``docker logs`` or the journal."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def open_log_file(log_file: Path) -> None:
    """Start writing ``log_file`` (rotated), before anything else can fail, so that every start-up error reaches it;
    raises OSError if it can't be opened."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    rotating = logging.handlers.RotatingFileHandler(
        log_file, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8", delay=False
    )
    rotating.setFormatter(logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S"))
    logging.getLogger().addHandler(rotating)


def log_files() -> list[logging.Handler]:
    return [handler for handler in logging.getLogger().handlers if isinstance(handler, logging.FileHandler)]


def report(message: object) -> None:
    """A start-up failure an owner must act on: one plain line on stderr (the terminal, the journal, ``docker
    logs``), and the same line, with its time, in LOG_FILE when one is set: a bot started by Windows' Task Scheduler
    or a service manager has no terminal. Not through the stderr handler: there it would be a second line."""
    print(message, file=sys.stderr)
    record = logging.getLogger("startup").makeRecord("startup", logging.ERROR, __file__, 0, "%s", (message,), None)
    for handler in log_files():
        handler.handle(record)


def setup_logging(level: str, library_level: str) -> None:
    """The stderr handler (after ``open_log_file``, if any) and the levels: ``level`` for the bot's own loggers,
    ``library_level`` for every other."""
    stream = logging.StreamHandler(sys.stderr)
    if colours_wanted(sys.stderr):
        stream.setFormatter(colour_formatter())
    else:
        stream.setFormatter(logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S"))
    root = logging.getLogger()
    root.addHandler(stream)
    levels = logging.getLevelNamesMapping()
    root.setLevel(levels[library_level])
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(levels[level])
    quiet_reconnects()


# What discord.py logs, at ERROR with the whole traceback, each time the gateway connection is lost and it waits to
# try again (discord.client for one shard, discord.shard for AutoShardedBot): ordinary on a flaky network.
RECONNECT_LOGGERS = ("discord.client", "discord.shard")


class ReconnectNotice(logging.Filter):
    """Turns discord.py's "Attempting a reconnect in 4.52s" (ERROR, with a traceback) into one WARNING line with the
    reason and the time of the next try. A filter on the logger itself, so every handler sees the rewritten record,
    the metrics' error counter among them: a lost connection is not an error of the bot."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if not message.startswith("Attempting a reconnect") or not record.exc_info or not record.args:
            return True
        error = record.exc_info[1]
        args = record.args if isinstance(record.args, tuple) else ()
        retry = float(args[-1]) if args and isinstance(args[-1], int | float) else 0.0
        at = (dt.datetime.now() + dt.timedelta(seconds=retry)).strftime("%H:%M:%S")
        shard = f"shard {args[0]} " if len(args) == 2 else ""
        record.msg = "Lost the %sconnection to Discord (%s); next try in %.1f s, at %s"
        record.args = (shard, connection_error(error), retry, at)
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info, record.exc_text = None, None
        return True


def connection_error(error: BaseException | None) -> str:
    """Why a connection was lost, in a few words: the close code Discord sent, or the network's error."""
    if isinstance(error, discord.ConnectionClosed):
        return f"Discord closed it with code {error.code}" + (f": {error.reason}" if error.reason else "")
    if error is None:
        return "no reason given"
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


_RECONNECT_NOTICE = ReconnectNotice()


def quiet_reconnects() -> None:
    for name in RECONNECT_LOGGERS:
        logging.getLogger(name).addFilter(_RECONNECT_NOTICE)  # once: a logger keeps a filter only once
