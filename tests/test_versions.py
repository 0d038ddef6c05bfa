"""One version source, and a release for every database schema (issue 33): pyproject's ``version`` is the only place
the version is written (``startup.version`` reads it, installed or not), and ``storage.migrations.RELEASES`` says
which release brought each schema. A migration added without a version bump fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import startup
from storage.migrations import LATEST, RELEASES

ROOT = Path(__file__).resolve().parent.parent


def pyproject_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_this_version_ships_the_newest_schema() -> None:
    version = pyproject_version()
    assert RELEASES.get(version) == LATEST, (
        f"The database schema is at {LATEST} but version {version} shipped schema {RELEASES.get(version)}: a "
        f"migration needs a new release. Bump pyproject's version and add it to storage.migrations.RELEASES."
    )


def test_each_release_has_a_newer_schema_than_the_one_before() -> None:
    ordered = sorted(RELEASES.items(), key=lambda item: release(item[0]))
    schemas = [schema for _, schema in ordered]
    assert schemas == sorted(set(schemas)), ordered  # never two releases with one schema listed, never backwards
    assert max(schemas) == LATEST


def test_every_earlier_release_is_in_the_changelog() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    dated = set(re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, flags=re.MULTILINE))
    current = pyproject_version()
    assert {version for version in RELEASES if version != current} <= dated


def test_version_names_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        startup.parser().parse_args(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"cardtable-bot {startup.version()} (database schema {LATEST})\n"
