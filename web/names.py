"""The names a page shows: mentions mean nothing outside Discord, so a page names people by their display names."""

from __future__ import annotations

import discord

from table.people import AI_NAMES, is_ai

# Names kept at most; looked up again past that (a user may rename themselves, too).
KEPT = 10_000


class Names:
    def __init__(self, client: discord.Client | None = None) -> None:
        self.client = client
        self._known: dict[int, str] = {}

    async def of(self, players: tuple[int, ...]) -> dict[int, str]:
        """Each seat's name: a computer player's own, a person's display name (from discord.py's cache, else one
        request, remembered); a seat whose name can't be had is named by its place ("#2")."""
        for player in players:
            if player in self._known:
                continue
            if is_ai(player):
                self._known[player] = AI_NAMES[(-player - 1) % len(AI_NAMES)]
                continue
            user = self.client.get_user(player) if self.client is not None else None
            if user is None and self.client is not None:
                try:
                    user = await self.client.fetch_user(player)
                except discord.HTTPException:
                    user = None
            if user is not None:
                if len(self._known) >= KEPT:
                    self._known.clear()
                self._known[player] = user.display_name
        return {p: self._known.get(p, f"#{players.index(p) + 1}") for p in players}
