"""The storage interface split by job (issue 35): each part small enough to read at once, together the whole of what
both drivers implement, and the core typed with the parts, not the whole."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from storage import GameStore, PrivacyStore, StatsStore, Storage, TableStore
from storage.base import MAX_METHODS
from storage.postgres import PostgresStorage
from storage.sqlite import SQLiteStorage

JOBS = (GameStore, TableStore, StatsStore, PrivacyStore)
ROOT = Path(__file__).resolve().parents[2]
# Where the whole interface may be named: what opens the database and hands each part its share.
WHOLE_ALLOWED = {"table/flow.py"}


def methods(protocol: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(value)
        for name, value in vars(protocol).items()
        if inspect.iscoroutinefunction(value) and not name.startswith("_")
    }


@pytest.mark.parametrize("job", JOBS, ids=lambda job: job.__name__)
def test_no_interface_outgrows_what_a_reader_takes_in_at_once(job: type) -> None:
    assert 0 < len(methods(job)) <= MAX_METHODS


def test_the_jobs_share_no_method_and_together_are_the_whole() -> None:
    names = [name for job in JOBS for name in methods(job)]
    assert len(names) == len(set(names))
    inherited = {name for job in Storage.__mro__ if job in JOBS for name in methods(job)}
    assert inherited == set(names)
    assert set(methods(Storage)) == {"close"}  # the life cycle is bot.py's, no part's


def test_the_counter_sees_a_method() -> None:
    class One(GameStore):
        async def extra(self) -> None: ...

    assert list(methods(One)) == ["extra"]


@pytest.mark.parametrize("driver", [SQLiteStorage, PostgresStorage], ids=lambda driver: driver.__name__)
@pytest.mark.parametrize("job", [*JOBS, Storage], ids=lambda job: job.__name__)
def test_each_driver_implements_every_job(driver: type, job: type) -> None:
    for name, wanted in methods(job).items():
        implemented = getattr(driver, name, None)
        assert inspect.iscoroutinefunction(implemented), f"{driver.__name__}.{name}"
        given = inspect.signature(implemented)
        # The same names, kinds and defaults: a caller typed with the interface can call the driver as it is.
        shape = [(p.name, p.kind, p.default) for p in given.parameters.values()]
        assert shape == [(p.name, p.kind, p.default) for p in wanted.parameters.values()], f"{driver.__name__}.{name}"


def wholes(source: str) -> list[int]:
    """The lines that name the whole ``Storage`` in an annotation."""
    found = []
    for node in ast.walk(ast.parse(source)):
        annotations = []
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            annotations.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            annotations.append(node.returns)
        for annotation in annotations:
            text = ast.unparse(annotation)
            if "Storage" in text.replace("'", "").replace('"', "").replace("|", " ").split():
                found.append(annotation.lineno)
    return sorted(found)


def test_the_core_and_the_web_table_are_typed_with_the_jobs_they_do() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("table", "web")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in WHOLE_ALLOWED
        for line in wholes(path.read_text(encoding="utf-8"))
    ]
    assert wrong == []


def test_the_annotation_check_sees_the_whole_interface() -> None:
    assert wholes("def f(storage: Storage) -> None: ...\nclass A:\n    s: 'Storage | None'\n") == [1, 3]
    assert wholes("def f(storage: GameStore) -> TableStore: ...\n") == []
