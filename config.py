"""The bot's settings, read once from the environment (``.env`` is loaded into it first by ``bot.main``).

Every mistake is a ``ConfigError`` whose message tells the server owner what to write instead.

One ``.env`` format: ``NAME=value`` lines read literally, as ``docker run --env-file`` reads them (and the systemd
unit leaves the file to the bot). What another reader would take differently is refused, with the line: an inline
``# comment`` after an unquoted value (python-dotenv drops it, docker keeps it in the value), ``export NAME=``, a
line without ``=``, blanks around the name. One pair of matching quotes around a value is removed (``unquoted``).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"
# Issue 33 (docs/privacy.md): how long a server's data outlives the bot's removal from it, and how long the hand
# texts of ended games are kept.
DEFAULT_FORGET_SERVER_AFTER_DAYS = 30
DEFAULT_KEEP_HAND_TEXTS_DAYS = 30


class ConfigError(Exception):
    """A setting is missing or malformed; the message tells the server owner what to do."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    database_url: str | None = None  # PostgreSQL, shared by every process; None: SQLite at database_path
    shard_count: int | None = None  # None: one process, one shard, as Discord recommends for a small bot
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None: all of them
    log_file: str | None = None  # a rotating log file as well as stderr
    library_log_level: str = "INFO"  # discord.py's and the database drivers' loggers
    metrics_port: int | None = None  # None: no metrics or health endpoint, no port opened
    sync_commands: bool = False  # register the slash commands even if they look unchanged
    forget_server_after_days: int = DEFAULT_FORGET_SERVER_AFTER_DAYS  # 0: at once
    keep_hand_texts_days: int = DEFAULT_KEEP_HAND_TEXTS_DAYS  # 0: deleted at the next sweep after the end
    web_port: int | None = None  # None: no web table, no port opened (web/)
    web_url: str | None = None  # the web table's public address; None: http://localhost:<web_port>
    # The Discord Activity (docs/web-table.md): Open the table launches it instead of the link; its sign-in needs the
    # application's OAuth2 client secret.
    web_activity: bool = False
    client_secret: str | None = None

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Read the settings from the environment (``.env`` is loaded into it first by ``main``)."""
        env = os.environ if environ is None else environ

        def value(name: str, default: str = "") -> str:
            text = env.get(name, default)
            problem = value_problem(text)
            if problem:
                raise ConfigError(f"{name} {problem}")
            return unquoted(text)

        token = value("DISCORD_TOKEN")
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
                "(Discord Developer Portal > your application > Bot > Reset Token)."
            )
        guild = value("DEV_GUILD_ID")
        if guild and not guild.isdecimal():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
        level = log_level(value("LOG_LEVEL"), "LOG_LEVEL", "INFO")
        # The drivers' DEBUG lines (hundreds a second) only when asked for; a quieter LOG_LEVEL quietens them too.
        libraries = log_level(value("LOG_LEVEL_LIBRARIES"), "LOG_LEVEL_LIBRARIES", max(level, "INFO", key=_severity))
        url = value("DATABASE_URL")
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise ConfigError(
                "DATABASE_URL must be a PostgreSQL URL like postgresql://user:password@host:5432/database "
                "(or empty, for the SQLite file at DATABASE_PATH)."
            )
        count_text = value("SHARD_COUNT")
        if count_text and not (count_text.isdecimal() and int(count_text) > 0):
            raise ConfigError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}.")
        shard_count = int(count_text) if count_text else None
        ids_text = value("SHARD_IDS")
        if ids_text and shard_count is None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: the total number of shards of all the bot's processes.")
        port = value("METRICS_PORT")
        if port and not (port.isdecimal() and int(port) <= 65535):
            raise ConfigError(f"METRICS_PORT must be a port number (1 to 65535; 0 picks a free one), not {port!r}.")
        web_port = value("WEB_PORT")
        if web_port and not (web_port.isdecimal() and int(web_port) <= 65535):
            raise ConfigError(f"WEB_PORT must be a port number (1 to 65535; 0 picks a free one), not {web_port!r}.")
        web_url = value("WEB_URL").rstrip("/")
        if web_url and not web_url.startswith(("http://", "https://")):
            raise ConfigError(
                f"WEB_URL must be the web table's public address, like https://cards.example.org, not {web_url!r}."
            )
        activity = value("WEB_ACTIVITY").lower()
        if activity not in ("", "0", "1", "true", "false", "yes", "no"):
            raise ConfigError(
                f"WEB_ACTIVITY must be 1 (the Activity is set up in the Developer Portal) or 0, not {activity!r}."
            )
        secret = value("DISCORD_CLIENT_SECRET")
        if activity in ("1", "true", "yes") and not (web_port and secret):
            raise ConfigError(
                "WEB_ACTIVITY needs WEB_PORT (the web table it opens) and DISCORD_CLIENT_SECRET (Developer Portal > "
                "your application > OAuth2 > Client Secret) for its sign-in."
            )
        sync = value("SYNC_COMMANDS").lower()
        if sync not in ("", "0", "1", "true", "false", "yes", "no"):
            raise ConfigError(f"SYNC_COMMANDS must be 1 (sync at this start) or 0, not {sync!r}.")
        return cls(
            token=token,
            database_path=value("DATABASE_PATH") or DEFAULT_DATABASE_PATH,
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            database_url=url or None,
            shard_count=shard_count,
            shard_ids=parse_shard_ids(ids_text, shard_count) if ids_text and shard_count else None,
            log_file=value("LOG_FILE") or None,
            library_log_level=libraries,
            metrics_port=int(port) if port else None,
            sync_commands=sync in ("1", "true", "yes"),
            forget_server_after_days=days(env, "FORGET_SERVER_AFTER_DAYS", DEFAULT_FORGET_SERVER_AFTER_DAYS),
            keep_hand_texts_days=days(env, "KEEP_HAND_TEXTS_DAYS", DEFAULT_KEEP_HAND_TEXTS_DAYS),
            web_port=int(web_port) if web_port else None,
            web_url=web_url or None,
            web_activity=activity in ("1", "true", "yes"),
            client_secret=secret or None,
        )


NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Blanks then "#" in an unquoted value: a comment to python-dotenv and to a person, part of the value to docker.
INLINE_COMMENT = re.compile(r"\s#")


def is_quoted(text: str) -> bool:
    text = text.strip()
    return len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'"


def value_problem(text: str) -> str | None:
    """Why a value (from ``.env`` or the environment) would be read differently by docker, the shell or
    python-dotenv; the value itself is never quoted back, since it may be the token."""
    if not is_quoted(text) and INLINE_COMMENT.search(text):
        return (
            "has a comment after its value (' #'): docker's --env-file keeps it as part of the value. Put the "
            "comment on a line of its own, or quote the value if the # belongs to it."
        )
    return None


def read_env_file(path: Path) -> tuple[dict[str, str], list[str]]:
    """The settings of a ``.env`` file, as written (quotes are removed later, by ``Settings.from_env``), and a line
    naming each problem: its file, line number and setting."""
    values: dict[str, str] = {}
    problems: list[str] = []
    text = path.read_text(encoding="utf-8-sig")  # Notepad may begin the file with a byte-order mark
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{path}, line {number}"
        name, equals, value = stripped.partition("=")
        if stripped.startswith("export "):
            problems.append(f"{where}: write {name.removeprefix('export').strip()}= without 'export'.")
        elif not equals:
            problems.append(f"{where}: a line without '=': write NAME=value, or start a comment with #.")
        elif not NAME.fullmatch(name):
            problems.append(f"{where}: {name.strip()!r} is not a setting's name: write NAME=value, no blanks around =.")
        elif problem := value_problem(value):
            problems.append(f"{where}: {name} {problem}")
        else:
            values[name] = value.strip()
    return values, problems


def load_env_file(path: Path) -> list[str]:
    """The settings of the ``.env`` at ``path`` (if there is one) into the environment, where the environment does not
    set a name already (it wins, as the README says); the file's problems, one line each."""
    if not os.path.isfile(path):  # not Path.is_file: a folder the bot may not enter (ProtectHome=) is "no .env"
        return []
    values, problems = read_env_file(path)
    for name, value in values.items():
        os.environ.setdefault(name, value)
    return problems


def unquoted(text: str) -> str:
    """A value without surrounding blanks and one pair of matching quotes: ``docker run --env-file`` passes
    ``DISCORD_TOKEN="abc"`` on with its quotes, where python-dotenv and a shell would have removed them."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


def days(env: Mapping[str, str], name: str, default: int) -> int:
    text = unquoted(env.get(name, ""))
    if not text:
        return default
    if not text.isdecimal():
        raise ConfigError(f"{name} must be a whole number of days (0 or more), not {text!r}.")
    return int(text)


def _severity(level: str) -> int:
    return logging.getLevelNamesMapping()[level]


def log_level(text: str, name: str, default: str) -> str:
    level = text.upper() or default
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"{name} must be DEBUG, INFO, WARNING or ERROR, not {text!r}.")
    return level


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``0-3`` or ``0,2`` or ``0-1,4``: the shards one process runs, each below ``count``, none twice."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdecimal() or (dash and not last.isdecimal()):
            raise ConfigError(f"SHARD_IDS must list shard numbers like 0-3 or 0,2, not {text!r}.")
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ConfigError(f"SHARD_IDS: the range {part} runs backwards; write {high}-{low}.")
        ids.extend(range(low, high + 1))
    if max(ids) >= count:
        raise ConfigError(f"SHARD_IDS: shard {max(ids)} does not exist with SHARD_COUNT={count} (0 to {count - 1}).")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS names a shard twice: {text!r}.")
    return tuple(ids)
