"""The tests never touch the owner's set-up: a ``.env`` in the checkout naming an unreachable database, a log file and
a metrics port changes nothing, and no file appears outside the tests' temporary folders (issue 33).

It runs a sample of the suite (the bots started as processes, an in-process game, the settings) in a copy of the
checkout that holds such a ``.env``, imported from the copy, and compares the copy's files before and after.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What a test run may leave in a checkout: caches, never settings, databases or logs.
CACHES = {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache"}
SAMPLE = [
    "tests/e2e/test_owner_startup.py",
    "tests/test_settings.py",
    "tests/test_event_loop.py",
    "tests/e2e/test_lobby.py::test_newgame_join_leave_start_with_commands",
    "tests/e2e/test_startup.py",
]
OWNERS_ENV = """DISCORD_TOKEN=the-owners-real-token
DATABASE_URL=postgresql://owner:secret@127.0.0.1:9/production
LOG_FILE=logs/bot.log
METRICS_PORT=9
DEV_GUILD_ID=123456789012345678
"""


def files(folder: Path) -> set[str]:
    found = set()
    for path in folder.rglob("*"):
        parts = path.relative_to(folder).parts
        if not CACHES.intersection(parts) and not any(part.endswith(".egg-info") for part in parts):
            found.add("/".join(parts))
    return found


def test_an_owners_env_in_the_checkout_changes_nothing_and_nothing_is_left_behind(tmp_path: Path) -> None:
    copy = tmp_path / "checkout"
    ignore = shutil.ignore_patterns(".git", ".venv", ".ci-venv", "*.egg-info", ".env", "data", "logs", *CACHES)
    shutil.copytree(ROOT, copy, ignore=ignore)
    (copy / ".env").write_text(OWNERS_ENV, encoding="utf-8")
    before = files(copy)
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    for name in ("CARDTABLE_HOME", *[line.split("=")[0] for line in OWNERS_ENV.splitlines()]):
        env.pop(name, None)  # as in the owner's shell: only the .env says anything

    where = subprocess.run(
        [sys.executable, "-c", "import bot; print(bot.__file__)"], cwd=copy, env=env, capture_output=True, text=True
    )
    assert Path(where.stdout.strip()).parent == copy, where  # the copy's bot is the one under test

    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *SAMPLE],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert files(copy) == before
    assert not (copy / "logs").exists()
