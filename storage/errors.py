"""What storage refuses with: the errors a driver raises on purpose, each with a message an owner or player can read."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the errors a driver raises on purpose."""


class ChannelBusy(StorageError):
    """Another open game (a lobby or a running game) already holds the channel."""


class Conflict(StorageError):
    """Somebody else changed the row first (a game's, or a server's settings): re-read it and decide again."""


class StorageBusy(StorageError):
    """The database stayed locked by another writer for longer than we wait; nothing was written."""


class StorageUnavailable(StorageError):
    """The database cannot be opened or written at all; the message says what the owner can do."""


class Duplicate(StorageError):
    """A unique key refused the row (between the drivers and the shared statements: callers see ChannelBusy)."""
