"""The one place a statement is translated: ``?`` parameters numbered for PostgreSQL, table definitions' types."""

from __future__ import annotations

from storage.dialect import POSTGRES, SQLITE


def test_parameters_are_numbered_outside_quotes_only() -> None:
    statement = "SELECT '?', \"a?\" FROM t WHERE a = ? AND b LIKE '%?''?%' AND c IN (?, ?)"
    assert POSTGRES.sql(statement) == "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b LIKE '%?''?%' AND c IN ($2, $3)"
    assert SQLITE.sql(statement) == statement


def test_table_definitions_get_each_databases_types() -> None:
    script = "CREATE TABLE t (id {id}, at {real}, options {json} NOT NULL DEFAULT '{{}}') {without_rowid}; ;"
    assert SQLITE.ddl(script) == [
        "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL, options TEXT NOT NULL DEFAULT '{}') "
        "WITHOUT ROWID"
    ]
    assert POSTGRES.ddl(script) == [
        "CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, at DOUBLE PRECISION, "
        "options JSONB NOT NULL DEFAULT '{}') "
    ]
