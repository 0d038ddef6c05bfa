"""Personal links: a token names one game and one player, signed with HMAC-SHA256, so it is useless for any other.

The key is 32 random bytes, made once and kept in the database's meta table (every process of a sharded bot reads
the same one); a link stays valid until a day after its game ends, which the server checks against the game's row,
so the token itself carries no date and the same link serves the whole game.
"""

from __future__ import annotations

import base64
import datetime as dt
import functools
import hashlib
import hmac
import secrets

from storage import GameRecord, TableStore

KEY_META = "web:key"
# A finished game's page stays open this long, for a last look at the result.
AFTER_THE_END = dt.timedelta(days=1)
_SIGNATURE_CHARS = 32  # 192 bits of the MAC, base64url


async def load_key(storage: TableStore) -> bytes:
    """The signing key, made and stored at first use."""
    stored = await storage.get_meta(KEY_META)
    if stored:
        return bytes.fromhex(stored)
    key = secrets.token_bytes(32)
    await storage.set_meta(KEY_META, key.hex())
    # Two processes starting at once: whichever wrote last wins, and both use that one.
    return bytes.fromhex(await storage.get_meta(KEY_META) or key.hex())


class Signer:
    def __init__(self, key: bytes) -> None:
        self._key = key
        # Every panel and board edit carries its player's link: signed once per game and player, not per edit.
        self.sign = functools.lru_cache(maxsize=4096)(self._sign)

    def _mac(self, game_id: int, player: int) -> str:
        digest = hmac.new(self._key, f"web-table:{game_id}:{player}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:_SIGNATURE_CHARS]

    def _sign(self, game_id: int, player: int) -> str:
        return f"{game_id}.{player}.{self._mac(game_id, player)}"

    def verify(self, token: str) -> tuple[int, int] | None:
        """(game id, player) of a genuine token, else None."""
        parts = token.split(".")
        if len(parts) != 3 or not all(part.isdecimal() and len(part) < 24 for part in parts[:2]):
            return None
        game_id, player = int(parts[0]), int(parts[1])
        if not hmac.compare_digest(parts[2].encode(), self._mac(game_id, player).encode()):
            return None
        return game_id, player


def still_open(record: GameRecord, now: dt.datetime | None = None) -> bool:
    """Whether a link to this game still opens: while it runs, and for a day after it ended."""
    if record.status == "running":
        return True
    if record.status == "lobby" or not record.ended_at:
        return False
    ended = dt.datetime.fromisoformat(record.ended_at)
    if ended.tzinfo is None:
        ended = ended.replace(tzinfo=dt.UTC)
    return (now or dt.datetime.now(dt.UTC)) - ended < AFTER_THE_END
