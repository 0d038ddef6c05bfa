"""``TableOptions`` reads every shape a game row's options were ever stored in, and writes one it reads back."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from storage import GameRecord
from table.options import TURN_TIMES, TableOptions, options_of, turn_time
from table.registry import GAMES

# What the lobby, the clock and the votes wrote since options exist (the turn clock's first version kept every key
# in this shape), read back as JSON gives it: player ids as dict keys are strings.
EVERY_KEY: dict[str, Any] = {
    "turn_time": 600,
    "pings": False,
    "deal": "daily",
    "date": "2025-03-01",
    "thread_of": 4242,
    "guild_locale": "de",
    "language": "fr",
    "autopilot": [7, 3],
    "misses": {"3": 2, "7": 3},
    "votes": {"autopilot:3": [9, 8], "remove:3": [9]},
}


def record(options: dict[str, Any], kind: str = "no_thanks") -> GameRecord:
    return GameRecord(
        id=1, channel_id=2, guild_id=3, kind=kind, host_id=3, players=(3, 7, 8, 9), variants=(), seed=0,
        rules_version=1, status="running", revision=1, moves=0, options=options,
    )  # fmt: skip


def test_a_row_from_before_options_or_a_fresh_lobby_has_every_default() -> None:
    # The migration that added the column filled old rows with '{}'.
    options = TableOptions.load({})
    assert options == TableOptions()
    assert (options.turn_time, options.pings, options.daily, options.thread_of) == (None, True, False, None)
    assert (options.autopilot, dict(options.misses), dict(options.votes)) == (frozenset(), {}, {})
    assert options.dump() == {}
    assert TableOptions.load(None) == TableOptions()


def test_every_key_as_stored_is_read_typed() -> None:
    options = TableOptions.load(json.loads(json.dumps(EVERY_KEY)))
    assert options.turn_time == 600
    assert options.pings is False
    assert options.daily
    assert options.date == "2025-03-01"
    assert (options.thread_of, options.guild_locale, options.language) == (4242, "de", "fr")
    assert options.autopilot == {3, 7}
    assert dict(options.misses) == {3: 2, 7: 3}
    assert dict(options.votes) == {"autopilot:3": {8, 9}, "remove:3": {9}}


def test_dump_writes_the_shape_every_version_reads_and_load_reads_it_back() -> None:
    options = TableOptions.load(EVERY_KEY)
    stored = json.loads(json.dumps(options.dump()))
    assert stored == {**EVERY_KEY, "autopilot": [3, 7], "votes": {"autopilot:3": [8, 9], "remove:3": [9]}}
    assert TableOptions.load(stored) == options


@pytest.mark.parametrize(
    ("key", "damaged"),
    [
        ("turn_time", "soon"),
        ("turn_time", True),
        ("turn_time", None),
        ("thread_of", [1]),
        ("guild_locale", 7),
        ("autopilot", "3"),
        ("autopilot", {"3": 1}),
        ("misses", [3, 2]),
        ("votes", 3),
        ("deal", {"daily": True}),
    ],
)
def test_a_value_of_the_wrong_type_is_the_default_and_the_row_still_reads(key: str, damaged: object) -> None:
    options = TableOptions.load({**EVERY_KEY, key: damaged})
    expected = TableOptions.load(EVERY_KEY)
    assert getattr(options, key) == getattr(TableOptions(), key)
    assert replace(options, **{key: getattr(expected, key)}) == expected  # nothing else was lost


def test_damaged_entries_are_dropped_one_by_one() -> None:
    options = TableOptions.load(
        {"autopilot": [3, "x", None, "7"], "misses": {"3": 1, "x": 2, "4": 0}, "votes": {"a": []}}
    )
    assert options.autopilot == {3, 7}  # a number kept as text by hand still counts
    assert dict(options.misses) == {3: 1}
    assert dict(options.votes) == {}


def test_pings_are_off_only_when_stored_false_as_before() -> None:
    assert TableOptions.load({"pings": False}).pings is False
    assert TableOptions.load({"pings": True}).pings is True
    assert TableOptions.load({"pings": 0}).pings is True


def test_a_key_of_a_newer_version_is_kept_through_a_change() -> None:
    stored = {"turn_time": 60, "bots": 1, "clock": "away"}
    options = TableOptions.load(stored)
    assert options.but(turn_time=180) == {"turn_time": 180, "bots": 1, "clock": "away"}


def test_but_accepts_sets_and_dicts_and_drops_what_emptied() -> None:
    options = TableOptions.load(EVERY_KEY)
    changed = options.but(autopilot={9}, misses={3: 1, 7: 0}, votes={}, deal=None, date=None)
    assert changed["autopilot"] == [9]
    assert changed["misses"] == {"3": 1}
    assert not {"votes", "deal", "date"} & set(changed)
    assert TableOptions.load(changed).but() == changed


def test_a_rematch_keeps_the_lobby_choices_and_starts_everyone_at_the_keyboard() -> None:
    rematch = TableOptions.load(TableOptions.load({**EVERY_KEY, "bots": 1}).for_rematch())
    assert rematch == TableOptions(turn_time=600, pings=False, thread_of=4242, guild_locale="de", language="fr")
    assert rematch.extra == {"bots": 1}
    assert not rematch.daily


def test_the_turn_time_is_the_lobby_choice_else_the_game_pace() -> None:
    for kind, game in GAMES.items():
        assert turn_time(record({}, kind)) == game.info.turn_seconds
        assert turn_time(record({"turn_time": 0}, kind)) == 0  # no clock is a choice, not a missing one
    assert turn_time(record({"turn_time": TURN_TIMES["24 hours"]})) == 86400
    assert turn_time(record({}, "a_game_of_a_newer_version")) == 180
    assert options_of(record(EVERY_KEY)) == TableOptions.load(EVERY_KEY)


RAW_READ = re.compile(r"\.options\.get\(|\.options\[|\*\*\w+\.options\b|\w+\.options\.items\(\)")


def raw_reads(source: str) -> list[int]:
    return [number for number, line in enumerate(source.splitlines(), 1) if RAW_READ.search(line)]


def test_nothing_above_storage_reads_the_stored_options_by_key() -> None:
    # One module knows the keys, their types and defaults; a reader elsewhere would bring back the untyped bag.
    root = Path(__file__).resolve().parents[2]
    paths = [
        root / "bot.py",
        *(p for folder in ("table", "cogs", "web") for p in sorted((root / folder).rglob("*.py"))),
    ]
    found = [
        f"{path.relative_to(root)}:{line}"
        for path in paths
        if path.name != "options.py" or path.parent.name != "table"
        for line in raw_reads(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_raw_read_check_sees_each_way_of_reading() -> None:
    source = 'a = record.options.get("pings")\nb = old.options["deal"]\nc = {**record.options, "x": 1}\nd = 1\n'
    assert raw_reads(source) == [1, 2, 3]
    assert raw_reads("select.options = choices\n") == []
