"""Cogs reach each other through the bot's core (``bot.tables``, e.g. ``tables.lobby``) or by registering what they
answer, never by looking another cog up by name: a renamed or unloaded cog would fail only at the click."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parent.parent / "cogs"


def lookups(path: Path) -> list[int]:
    """The lines of ``path`` that look a cog up (``get_cog`` called, or the ``cogs`` mapping read)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("get_cog", "cogs"):
            found.append(node.lineno)
    return found


def test_no_cog_looks_another_up_by_name() -> None:
    found = {path.name: lines for path in sorted(COGS.glob("*.py")) if (lines := lookups(path))}
    assert found == {}


def test_the_check_finds_a_lookup(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("async def f(bot):\n    return bot.get_cog('Lobby')\n", encoding="utf-8")
    assert lookups(sample) == [2]
