"""A table's options: what its lobby chose beyond the rules (the turn clock, pings, the daily deal, the thread, the
languages) and what the table learnt while playing (who is away, the votes), typed in one place.

The game row keeps them as one JSON object (``GameRecord.options``); ``TableOptions.load`` reads every shape any
version stored (a key that is missing or of the wrong type takes its default, so an old or damaged row still plays)
and ``dump`` writes the one shape read back. A key this version doesn't know (written by a newer one) is kept as it
was: a rolling upgrade or a downgrade never loses it.

``GameRecord`` keeps the stored object, not a ``TableOptions``: storage sits below the core (tests/test_layers.py) and
stays ignorant of the lobby's vocabulary, and a default here may come from above storage (a game's own pace).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from i18n import Text, _n, _p
from storage import GameRecord
from table.registry import GAMES

# The keys of the stored object. Storage knows two of them: ``set_daily_deal`` writes "deal" and "date", and
# ``storage.results`` reads them in SQL (the daily deal's results).
TURN_TIME = "turn_time"
PINGS = "pings"
DEAL = "deal"
DATE = "date"
THREAD_OF = "thread_of"  # the channel a game's thread hangs off
GUILD_LOCALE = "guild_locale"  # the server's Discord locale when the game opened
LANGUAGE = "language"  # the table language the server's managers chose (/settings) when the game opened
AUTOPILOT = "autopilot"
MISSES = "misses"
VOTES = "votes"
KNOWN = (TURN_TIME, PINGS, DEAL, DATE, THREAD_OF, GUILD_LOCALE, LANGUAGE, AUTOPILOT, MISSES, VOTES)

# The choices of /newgame's turn_time, in words, and their seconds (0: no clock).
TURN_TIMES = {
    "30 seconds": 30,
    "1 minute": 60,
    "3 minutes": 180,
    "10 minutes": 600,
    "1 hour": 3600,
    "24 hours": 86400,
    "off": 0,
}
DAILY = "daily"


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Every option of a table, with its default (the value of a key the row lacks)."""

    turn_time: int | None = None  # seconds per turn (0: no clock); None: the game's own pace
    pings: bool = True  # the server let the game ping the player to move, when it opened
    deal: str | None = None  # DAILY: dealt from the daily deal
    date: str | None = None  # the daily deal's day (ISO date)
    thread_of: int | None = None
    guild_locale: str | None = None
    language: str | None = None
    autopilot: frozenset[int] = frozenset()  # seats the autopilot plays until their player acts again
    misses: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # turns missed in a row, per seat
    votes: Mapping[str, frozenset[int]] = field(
        default_factory=lambda: MappingProxyType({})
    )  # "<kind>:<target>" -> who voted so
    extra: Mapping[str, object] = field(
        default_factory=lambda: MappingProxyType({}), compare=False
    )  # keys of a newer version, as stored

    def away(self, player: int) -> bool:
        """Whether ``player`` counts as away: on the autopilot, or with a missed turn not yet made up by acting."""
        return player in self.autopilot or bool(self.misses.get(player))

    @property
    def daily(self) -> bool:
        return self.deal == DAILY

    @classmethod
    def load(cls, data: Mapping[str, object] | None) -> TableOptions:
        data = data if isinstance(data, Mapping) else {}
        return cls(
            turn_time=_whole(data.get(TURN_TIME)),
            pings=data.get(PINGS) is not False,
            deal=_text(data.get(DEAL)),
            date=_text(data.get(DATE)),
            thread_of=_whole(data.get(THREAD_OF)),
            guild_locale=_text(data.get(GUILD_LOCALE)),
            language=_text(data.get(LANGUAGE)),
            autopilot=frozenset(_players(data.get(AUTOPILOT))),
            misses=MappingProxyType(_counts(data.get(MISSES))),
            votes=MappingProxyType(_votes(data.get(VOTES))),
            extra=MappingProxyType({k: v for k, v in data.items() if k not in KNOWN}),
        )

    def dump(self) -> dict[str, object]:
        """The JSON object stored: only what differs from the defaults (so an old version reads the same row)."""
        values: dict[str, object] = {
            TURN_TIME: self.turn_time,
            PINGS: None if self.pings else False,
            DEAL: self.deal,
            DATE: self.date,
            THREAD_OF: self.thread_of,
            GUILD_LOCALE: self.guild_locale,
            LANGUAGE: self.language,
            AUTOPILOT: sorted(self.autopilot) or None,
            # JSON keys are strings; the order is fixed so equal options are equal text.
            MISSES: {str(p): n for p, n in sorted(self.misses.items()) if n} or None,
            VOTES: {key: sorted(voters) for key, voters in sorted(self.votes.items()) if voters} or None,
        }
        return {**self.extra, **{key: value for key, value in values.items() if value is not None}}

    def but(self, **changes: Any) -> dict[str, object]:
        """The stored object with ``changes`` (``update_game``'s ``options``): sets, dicts or tuples are accepted as
        the fields' types."""
        for key in (MISSES, VOTES):
            if key in changes:
                changes[key] = MappingProxyType(dict(changes[key]))
        if AUTOPILOT in changes:
            changes[AUTOPILOT] = frozenset(changes[AUTOPILOT])
        return replace(self, **changes).dump()

    def for_rematch(self) -> dict[str, object]:
        """What a rematch's lobby takes over: the lobby's choices, not the daily deal (a rematch deals new cards) nor
        what the table learnt while playing (who was away, the votes): everyone starts at the keyboard."""
        return self.but(deal=None, date=None, autopilot=(), misses={}, votes={})


# Stored options read lately, by the identity of the mapping a row carries: a move asks for them some eight times
# and a row's mapping is never changed in place (a change writes a new row), so each is read once.
_READ_KEPT = 512
_read: dict[int, tuple[Mapping[str, object], TableOptions]] = {}


def options_of(record: GameRecord) -> TableOptions:
    data = record.options
    known = _read.get(id(data))
    if known is not None and known[0] is data:
        return known[1]
    options = TableOptions.load(data)
    _read[id(data)] = (data, options)  # the mapping kept alive with it, so its id is not reused meanwhile
    if len(_read) > _READ_KEPT:
        del _read[next(iter(_read))]
    return options


def default_turn_time(kind: str) -> int:
    game = GAMES.get(kind)
    return game.info.turn_seconds if game else 180


def turn_time(record: GameRecord) -> int:
    """The game's seconds per turn (0: no clock): as its lobby chose, else the game's own pace."""
    chosen = options_of(record).turn_time
    return default_turn_time(record.kind) if chosen is None else chosen


def turn_time_words(seconds: int) -> Text:
    """A turn time as people say it, in whole hours, minutes or seconds ("24 hours", "3 Minuten")."""
    if not seconds:
        return _p("turn time", "off")
    if seconds % 3600 == 0:
        return _n("{count} hour", "{count} hours", seconds // 3600)
    if seconds % 60 == 0:
        return _n("{count} minute", "{count} minutes", seconds // 60)
    return _n("{count} second", "{count} seconds", seconds)


# ---- reading stored values leniently: a wrong type is the default ----------------------------------------------


def _whole(value: object) -> int | None:
    if isinstance(value, bool):  # JSON true is no number of seconds or channel id
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _players(value: object) -> Iterable[int]:
    items = value if isinstance(value, list | tuple) else ()
    return (n for n in map(_whole, items) if n is not None)


def _counts(value: object) -> dict[int, int]:
    counts: dict[int, int] = {}
    for key, count in value.items() if isinstance(value, Mapping) else ():
        player, times = _whole(key), _whole(count)
        if player is not None and times:
            counts[player] = times
    return counts


def _votes(value: object) -> dict[str, frozenset[int]]:
    if not isinstance(value, Mapping):
        return {}
    votes = {str(key): frozenset(_players(voters)) for key, voters in value.items()}
    return {key: voters for key, voters in votes.items() if voters}
