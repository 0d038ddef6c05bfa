"""The owner's maintenance commands (issue 33), run by ``cardtable-bot`` instead of the bot when named first (they
only touch the database, hence their place here):

- ``cardtable-bot forget-server ID``: erase a server's settings and all its channels' games at once (the bot does it
  by itself a grace period after it is removed from a server: FORGET_SERVER_AFTER_DAYS);
- ``cardtable-bot copy-database --to postgresql://...``: copy every game, move, result and setting from the SQLite
  file (DATABASE_PATH) into an empty PostgreSQL database, then check the copy row for row.

They read the same ``.env`` as the bot (its token is not needed) and print one line per outcome; exit status 2 names
a setting or an argument to fix.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from config import DEFAULT_DATABASE_PATH, load_env_file, unquoted
from storage import StorageUnavailable, open_storage
from storage.sqlite import SQLiteStorage

if TYPE_CHECKING:
    from storage.postgres import PostgresStorage

COMMANDS = ("forget-server", "copy-database")


def wanted(argv: list[str]) -> bool:
    """Whether the command line names a maintenance command rather than options of the bot."""
    return bool(argv) and argv[0] in COMMANDS


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(prog="cardtable-bot", description="Maintenance of the bot's database.")
    commands = command.add_subparsers(dest="command", required=True)
    forget = commands.add_parser(
        "forget-server",
        help="erase a server's settings and games now",
        description="Erase at once everything the database keeps about a server: its settings and every game of its "
        "channels, with their moves, results and hand texts. The bot does this by itself FORGET_SERVER_AFTER_DAYS "
        "after it is removed from a server.",
    )
    forget.add_argument("server_id", type=int, metavar="ID", help="the server's id (Developer Mode > Copy Server ID)")
    copy = commands.add_parser(
        "copy-database",
        help="copy the SQLite file to an empty PostgreSQL database",
        description="Copy every game, move, result, setting and the rest from the SQLite file (DATABASE_PATH) into "
        "an empty PostgreSQL database, then compare the two. Stop the bot first; the file is left as it is (brought "
        "to the newest schema, as the bot would). Then set DATABASE_URL to the new database and start the bot.",
    )
    copy.add_argument("--to", required=True, metavar="URL", help="postgresql://user:password@host:5432/database")
    return command


def database_path(folder: Path) -> str:
    """DATABASE_PATH as the bot reads it: a relative path is taken from the .env's folder."""
    path = unquoted(os.environ.get("DATABASE_PATH", "")) or DEFAULT_DATABASE_PATH
    return str(folder / Path(path).expanduser())


async def forget_server(server_id: int, folder: Path) -> int:
    storage = await open_storage(database_path(folder), unquoted(os.environ.get("DATABASE_URL", "")) or None)
    try:
        games = await storage.forget_guild(server_id)
    finally:
        await storage.close()
    print(f"Erased server {server_id}: its settings and {games} games.")
    return 0


def refusal(url: str, path: str) -> str | None:
    """Why ``copy-database`` can't start, in one line; None when it can."""
    if not url.startswith(("postgresql://", "postgres://")):
        return f"--to must be a PostgreSQL URL like postgresql://user:password@host:5432/database, not {url!r}."
    if not Path(path).is_file():
        return f"There is no SQLite database at {path}: set DATABASE_PATH to the bot's database file."
    return None


async def copy(url: str, path: str) -> int:
    # Only here: asyncpg is an optional part (".[postgres]"), and forget-server on SQLite needs none of it.
    try:
        from storage.copy import TABLES, copy_database
        from storage.postgres import PostgresStorage, safe_url
    except ModuleNotFoundError as error:
        if error.name != "asyncpg":
            raise
        raise StorageUnavailable(
            'copy-database needs the PostgreSQL driver asyncpg: pip install -c requirements.lock ".[postgres]".'
        ) from None

    source = await SQLiteStorage.open(path)
    try:
        target = await PostgresStorage.open(url, busy_timeout=60)
        try:
            copied = await copy_database(source, target)
            different = [table for table in TABLES if await _count(target, table) != copied[table]]
        finally:
            await target.close()
    finally:
        await source.close()
    if different:
        print(
            f"The copy differs from the file in {', '.join(different)}: do not use it; copy into a new database.",
            file=sys.stderr,
        )
        return 1
    print(f"Copied {path} to {safe_url(url)}: " + ", ".join(f"{copied[t]} {t}" for t in TABLES) + ".")
    print("Set DATABASE_URL to that database in .env and start the bot.")
    return 0


async def _count(storage: PostgresStorage, table: str) -> int:
    rows = await storage._fetch(f"SELECT count(*) FROM {table}")
    return int(rows[0][0])


def main(argv: list[str], folder: Path) -> int:
    """Run the maintenance command ``argv`` names, with the settings of the ``.env`` in ``folder``."""
    options = parser().parse_args(argv)
    problems = load_env_file(folder / ".env")  # read as the bot reads it
    if problems:
        print(problems[0], file=sys.stderr)
        return 2
    try:
        if options.command == "forget-server":
            return asyncio.run(forget_server(options.server_id, folder))
        path = database_path(folder)
        refused = refusal(options.to, path)
        if refused:
            print(refused, file=sys.stderr)
            return 2
        return asyncio.run(copy(options.to, path))
    except StorageUnavailable as error:
        print(error, file=sys.stderr)
        return 2
