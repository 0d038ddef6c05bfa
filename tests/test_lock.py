"""requirements.lock pins what pyproject.toml asks for: every dependency, every extra's, each at one exact version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)", re.MULTILINE)
NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_requirement_of_pyproject_is_pinned_once_in_the_lock() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted.extend(extra)
    names = {normal(match.group(1)) for line in wanted if (match := NAME.match(line))} - {normal(project["name"])}
    pins = PINNED.findall((ROOT / "requirements.lock").read_text(encoding="utf-8"))
    locked = [normal(name) for name, _version in pins]
    assert len(locked) == len(set(locked)), "a package is pinned twice"
    missing = names - set(locked)
    assert not missing, f"run sh tools/lock.sh: {sorted(missing)} are not in requirements.lock"


def test_the_build_backend_is_pinned_too() -> None:
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    assert all("==" in requirement for requirement in build), build
