"""What differs in the SQL the two databases read: how a parameter is written, and a few column types.

Every statement is written once, with ``?`` for its parameters (SQLite's style); PostgreSQL's driver numbers them
``$1, $2, ...`` through ``Dialect.sql``, the one place a statement is translated. Table definitions (migrations) name
their few differing column types as ``{bigint}``, ``{json}`` and so on, which ``Dialect.ddl`` fills in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

# A quoted literal or name is skipped whole, so a question mark inside one is never taken for a parameter.
_PARAMETER = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\?")


@lru_cache(maxsize=512)
def numbered(statement: str) -> str:
    """``statement`` with each ``?`` parameter written ``$1``, ``$2``, ... (PostgreSQL's style)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _PARAMETER.sub(number, statement)


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str  # "sqlite" or "postgres"
    numbered: bool  # parameters written $1, $2, ... instead of ?
    types: Mapping[str, str]  # the words ``ddl`` fills in

    def sql(self, statement: str) -> str:
        """The statement (written with ``?`` parameters) as this database reads it."""
        return numbered(statement) if self.numbered else statement

    def ddl(self, script: str) -> list[str]:
        """The statements of a table-definition script (``;``-separated, ``{bigint}``-style types, ``{{`` for a
        brace) as this database reads them."""
        return [statement for statement in script.format_map(self.types).split(";") if statement.strip()]


SQLITE = Dialect(
    "sqlite",
    numbered=False,
    types={
        "id": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "bigint": "INTEGER",  # SQLite's integers are 64-bit; "INTEGER PRIMARY KEY" is the row id
        "json": "TEXT",
        "bool": "INTEGER",
        "false": "0",
        "true": "1",
        "real": "REAL",
        "without_rowid": "WITHOUT ROWID",
    },
)

POSTGRES = Dialect(
    "postgres",
    numbered=True,
    types={
        "id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        "bigint": "BIGINT",  # Discord's ids need 64 bits
        "json": "JSONB",  # asyncpg sends and returns it as text, like SQLite's
        "bool": "BOOLEAN",
        "false": "false",
        "true": "true",
        "real": "DOUBLE PRECISION",
        "without_rowid": "",
    },
)
