"""What an owner reads when the PostgreSQL database can't be used at start: one line naming the cause and what to
change (``DATABASE_URL``, or the commands a superuser runs), with the URL shown without its password."""

from __future__ import annotations

import getpass
import os
import re
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]

from storage.errors import StorageUnavailable

SETTING = "DATABASE_URL"
GUIDE = "docs/postgresql.md"


def split_url(url: str) -> tuple[str, int | None]:
    """The URL for asyncpg without our own ``statement_cache_size`` parameter, and that parameter's value."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    cache = [value for key, value in query if key == "statement_cache_size"]
    rest = [(key, value) for key, value in query if key != "statement_cache_size"]
    if not cache:
        return url, None
    try:
        size = int(cache[-1])
    except ValueError:
        raise StorageUnavailable(
            f"statement_cache_size in {SETTING} must be a number (0 behind PgBouncer), not {cache[-1]!r}."
        ) from None
    return urlunsplit(parts._replace(query=urlencode(rest))), size


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def url_names(url: str) -> tuple[str, str]:
    """The user and database the URL names, with libpq's defaults (as asyncpg applies them) where it names none."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    user = unquote(parts.username or "") or query.get("user") or os.environ.get("PGUSER") or getpass.getuser()
    database = unquote(parts.path.lstrip("/")) or query.get("dbname") or os.environ.get("PGDATABASE") or user
    return user, database


def identifier(name: str) -> str:
    """``name`` as SQL reads it: bare when it may be, else quoted."""
    if re.fullmatch(r"[a-z_][a-z0-9_$]*", name):
        return name
    return '"' + name.replace('"', '""') + '"'


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else "no answer"


def explain(
    error: BaseException, url: str, names: tuple[str, str] | None = None, *, connected: bool = False
) -> StorageUnavailable:
    """The one line for ``error`` met while connecting to (or, ``connected``, migrating) the database at ``url``;
    ``names`` are the user and database as the server saw them, when it could say."""
    if isinstance(error, StorageUnavailable):
        return error
    shown = safe_url(url)
    user, database = names or url_names(url)
    cause = _first_line(error)
    if connected and isinstance(error, TimeoutError | asyncpg.QueryCanceledError | asyncpg.LockNotAvailableError):
        return StorageUnavailable(
            f"The PostgreSQL database {shown} stayed busy while the bot checked its tables (another process holding "
            f"them?): start the bot again in a moment, or set {SETTING} to another database."
        )
    if isinstance(error, asyncpg.InvalidPasswordError):
        return StorageUnavailable(
            f"PostgreSQL refused the password of the user {user} ({cause}): put the right password in {SETTING} "
            f"({shown})."
        )
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        return StorageUnavailable(
            f"PostgreSQL refused the user {user} ({cause}): check the user in {SETTING} ({shown}); {GUIDE} shows how "
            "to create it."
        )
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return StorageUnavailable(
            f"The PostgreSQL server has no database {database} ({cause}): create it ({GUIDE}) or correct {SETTING} "
            f"({shown})."
        )
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        db, role = identifier(database), identifier(user)
        if "for database" in cause:
            return StorageUnavailable(
                f"The PostgreSQL user {user} may not connect to the database {database} ({cause}): as a superuser, "
                f"run GRANT CONNECT ON DATABASE {db} TO {role}; or set {SETTING} to another user."
            )
        return StorageUnavailable(
            f"The PostgreSQL user {user} may not create the bot's tables in the database {database} ({cause}; since "
            f"PostgreSQL 15 only the database's owner may): as a superuser, run ALTER DATABASE {db} OWNER TO {role}; "
            f"and, connected to {database}, ALTER SCHEMA public OWNER TO {role}; then start the bot again ({GUIDE}), "
            f"or set {SETTING} to a user that owns the database."
        )
    if isinstance(error, asyncpg.DiskFullError):
        return StorageUnavailable(
            f"The PostgreSQL server's disk is full ({cause}); nothing was written: free space on the database "
            f"server, or set {SETTING} to another server."
        )
    if isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        return StorageUnavailable(
            f"The PostgreSQL server at {shown} only reads ({cause}; a standby?): set {SETTING} to the primary server."
        )
    if isinstance(error, asyncpg.TooManyConnectionsError):
        return StorageUnavailable(
            f"The PostgreSQL server has no free connection ({cause}): raise its max_connections, put PgBouncer in "
            f"front of it ({GUIDE}), or set {SETTING} to another server."
        )
    if isinstance(error, OSError | TimeoutError | asyncpg.CannotConnectNowError | asyncpg.PostgresConnectionError):
        return StorageUnavailable(
            f"Can't reach the PostgreSQL server at {shown} ({error.__class__.__name__}: {cause}): check that the "
            f"server runs and that {SETTING} names the right host and port."
        )
    return StorageUnavailable(
        f"Can't use the PostgreSQL database {shown} ({error.__class__.__name__}: {cause}): check {SETTING} and the "
        "server's log."
    )
