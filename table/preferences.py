"""A person's own preferences (``/me``): the misclick guard, pings and their language. Each one left unset follows
what the server chose (``/settings``) or the bot's default; each one set wins over it, at every table.

Stored like a person's remembered language (``table.language``): one meta row per person (``prefs:<user id>``, a
small JSON object), so no schema change; read leniently (a bad or unknown value counts as unset). The readers are
synchronous (composing a panel, choosing whom a board pings), so a person's preferences are kept in memory once read
(again after ``FRESH_SECONDS``, for a change made through another shard's process); they are read when the person
interacts (``Languages.seen``), when a game of theirs is loaded, and before their panel is drawn.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass

from i18n import languages
from storage import TableStore

log = logging.getLogger(__name__)


def preferences_key(user_id: int) -> str:
    return f"prefs:{user_id}"


@dataclass(frozen=True, slots=True)
class Preferences:
    """None: not chosen, the server's default (or the bot's) applies."""

    guard: bool | None = None  # the misclick guard asks before a lay that is likely a slip
    pings: bool | None = None  # mention me when my turn begins (and in reminders)
    language: str | None = None  # what only I see (panels, DMs, private answers); None: my Discord's

    def to_json(self) -> str:
        return json.dumps({key: value for key, value in asdict(self).items() if value is not None})

    @classmethod
    def from_json(cls, text: str | None) -> Preferences:
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            return cls()
        if not isinstance(data, dict):
            return cls()
        guard, pings, language = data.get("guard"), data.get("pings"), data.get("language")
        return cls(
            guard=guard if isinstance(guard, bool) else None,
            pings=pings if isinstance(pings, bool) else None,
            language=language if language in languages() else None,
        )


NONE_CHOSEN = Preferences()
# Read again after this long: a change made through another process (another shard) reaches this one.
FRESH_SECONDS = 300.0
# People who chose nothing, remembered at most: forgetting one changes no answer (``preferences_of`` says "nothing
# chosen" either way), it costs one read at their next interaction. Those who chose something are all remembered.
PLAIN_KEPT = 8192
_chosen: dict[int, tuple[Preferences, float]] = {}  # user id -> their preferences, when read
_plain: dict[int, float] = {}  # user id -> when read, for those who chose nothing (oldest first)


def preferences_of(user_id: int) -> Preferences:
    """The preferences of ``user_id`` as last read (unset for somebody not read yet)."""
    entry = _chosen.get(user_id)
    return NONE_CHOSEN if entry is None else entry[0]


def known(user_id: int) -> bool:
    """Whether this person's preferences were read lately (else the next interaction reads them again)."""
    entry = _chosen.get(user_id)
    read = entry[1] if entry is not None else _plain.get(user_id)
    return read is not None and time.monotonic() - read < FRESH_SECONDS


def _remember(user_id: int, preferences: Preferences) -> None:
    _chosen.pop(user_id, None)
    _plain.pop(user_id, None)
    if preferences != NONE_CHOSEN:
        _chosen[user_id] = (preferences, time.monotonic())
        return
    _plain[user_id] = time.monotonic()
    if len(_plain) > PLAIN_KEPT:
        del _plain[next(iter(_plain))]


def reset() -> None:
    """Start from nothing read (a new bot, a new database: in tests, one after another in one process)."""
    _chosen.clear()
    _plain.clear()


def guard_on(user_id: int) -> bool:
    """Whether the misclick guard asks this person (on unless they switched it off)."""
    return preferences_of(user_id).guard is not False


def wants_pings(user_id: int, server_default: bool) -> bool:
    """Whether a board or a reminder may mention this person: their own choice, else the server's."""
    own = preferences_of(user_id).pings
    return server_default if own is None else own


async def load(storage: TableStore, user_id: int) -> Preferences:
    """Read a person's preferences once per process (later readers find them in memory)."""
    if known(user_id):
        return preferences_of(user_id)
    try:
        found = Preferences.from_json(await storage.get_meta(preferences_key(user_id)))
    except Exception:
        # The defaults meanwhile: the next interaction reads again.
        log.warning("Could not read the preferences of user %s", user_id, exc_info=True)
        return preferences_of(user_id)
    _remember(user_id, found)
    return found


async def save(storage: TableStore, user_id: int, preferences: Preferences) -> None:
    """Store a person's preferences (committed on return) and use them from now on."""
    await storage.set_meta(preferences_key(user_id), preferences.to_json())
    _remember(user_id, preferences)


def forget(user_id: int) -> None:
    """Drop what is remembered of a person who asked to be forgotten (the database's copy goes with their data)."""
    _chosen.pop(user_id, None)
    _plain.pop(user_id, None)
