"""What happens before the bot logs in: the command line, the version, logging, and the invite link.

Kept out of ``bot.py`` so that the bot stays about the bot. Nothing here talks to Discord or the database.
"""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import TextIO

import discord

from storage.migrations import LATEST

DISTRIBUTION = "cardtable-bot"
# Our own loggers: LOG_LEVEL applies to them. Every other logger (discord.py, aiosqlite, asyncpg, aiohttp) is a
# library's and stays at LOG_LEVEL_LIBRARIES (INFO by default), so DEBUG shows the bot's own lines, not the drivers'.
OWN_LOGGERS = ("bot", "cogs", "engine", "storage", "startup", "metrics")
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


def colours_wanted(stream: TextIO) -> bool:
    """Colour codes only for a person at a terminal: never in a pipe, a file, ``docker logs`` or the journal."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def setup_logging(level: str, library_level: str, log_file: Path | None) -> None:
    """One handler on stderr, and a rotating file if ``log_file``; raises OSError if the file can't be opened."""
    handlers: list[logging.Handler] = []
    stream = logging.StreamHandler(sys.stderr)
    if colours_wanted(sys.stderr):
        stream.setFormatter(discord.utils._ColourFormatter())
    else:
        stream.setFormatter(logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S"))
    handlers.append(stream)
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        rotating = logging.handlers.RotatingFileHandler(
            log_file, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8", delay=False
        )
        rotating.setFormatter(logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S"))
        handlers.append(rotating)
    root = logging.getLogger()
    for handler in handlers:
        root.addHandler(handler)
    levels = logging.getLevelNamesMapping()
    root.setLevel(levels[library_level])
    for name in OWN_LOGGERS:
        logging.getLogger(name).setLevel(levels[level])
