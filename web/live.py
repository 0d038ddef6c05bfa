"""The open pages of the web table, following the committed games: every move announced by the core (``Transition``),
wherever it was made, reaches every open page of its game, each composed for its own reader."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from aiohttp import web

from storage import GameRecord
from table.flow import Table
from table.panels import offers_hint
from table.transition import Transition
from web.names import Names
from web.page import page_state, turn_log
from web.replay import replayable

log = logging.getLogger(__name__)

SPECTATOR = 0  # the "player" of a spectator's link: no Discord id is 0


@dataclass(eq=False)
class Page:
    """One open page: whose, of which game, in which language."""

    ws: web.WebSocketResponse
    game_id: int
    player: int
    locale: str


class LivePages:
    def __init__(self) -> None:
        self.client: discord.Client | None = None
        self.tables: Table | None = None
        self.names = Names()
        self.pages: dict[int, set[Page]] = {}  # game id -> its open pages
        self._latest: dict[int, Any] = {}  # game id -> the newest ``Live`` a move announced, while pages are open
        self._pushing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def attach(self, client: discord.Client, tables: Table) -> None:
        self.client, self.tables = client, tables
        self.names.client = client

    def opened(self, page: Page) -> set[Page]:
        """``page`` is open; the open pages of its game."""
        pages = self.pages.setdefault(page.game_id, set())
        pages.add(page)
        return pages

    def closed(self, page: Page) -> None:
        pages = self.pages.get(page.game_id, set())
        pages.discard(page)
        if not pages:
            self.pages.pop(page.game_id, None)
            self._latest.pop(page.game_id, None)

    async def close(self) -> None:
        for task in self._pushing.values():
            task.cancel()
        for pages in list(self.pages.values()):
            for page in list(pages):
                await page.ws.close()

    async def current(self, record: GameRecord) -> Any:
        """The newest position of the page's game, as a ``Live`` (running) or a bare final state (ended)."""
        assert self.tables is not None
        games = self.tables.games
        live = self._latest.get(record.id) or games.cached(record.id)
        if live is not None:
            return live
        fresh = await self.tables.storage.game(record.id)
        if fresh is not None and fresh.status == "running":
            return await games.live(fresh)
        return await games.final_state(fresh or record)

    async def send(self, page: Page, current: Any) -> None:
        if page.ws.closed:
            return
        await page.ws.send_str(json.dumps({"type": "state", "state": await self.compose(page, current)}))

    async def compose(self, page: Page, current: Any, logs: dict[str, list[str]] | None = None) -> dict[str, Any]:
        """``page``'s state at ``current``; ``logs`` keeps the turn log of each language for the other pages of the
        same push (it is the same for every reader)."""
        assert self.tables is not None
        live = current if hasattr(current, "record") else None
        record = live.record if live is not None else await self.tables.storage.game(page.game_id)
        assert record is not None
        presenter = self.tables.games.presenter(record)
        state = live.state if live is not None else current
        names = await self.names.of(record.players)
        logs = {} if logs is None else logs
        if page.locale not in logs:
            steps = [*live.previous, *live.turn] if live is not None else []
            logs[page.locale] = turn_log(presenter, steps, page.locale, names)
        log = logs[page.locale]
        due = self.tables.clock.deadlines.get(record.id)
        left = max(0.0, due[1] - time.time()) if due is not None else None
        stopped = live is None and record.status != "running"
        composed = page_state(record.kind, presenter, state, page.player, page.locale, names, log, left, stopped)
        # The replay opens from the page of a game that ended (live: the last move; else: read from its row).
        ended = record.status in ("finished", "abandoned")
        composed["replayable"] = ended and self.client is not None and replayable(record, self.client)
        composed["hint"] = not composed["over"] and page.player != SPECTATOR and offers_hint(record)
        return composed

    async def on_moved(self, event: Transition) -> None:
        """A move was committed (anywhere): every open page of its game is brought up to date, in the background,
        always from the newest position, so a burst of moves ends on the last one."""
        game_id = event.live.record.id
        if game_id not in self.pages:
            return
        self._latest[game_id] = event.live
        running = self._pushing.get(game_id)
        if running is not None and not running.done():
            self._again.add(game_id)
            return
        self._pushing[game_id] = asyncio.ensure_future(self._push(game_id))

    async def on_abandoned(self, record: GameRecord) -> None:
        """A game ended early: its pages show it, and stop offering moves."""
        if record.id in self.pages:
            self._latest.pop(record.id, None)
            for page in list(self.pages.get(record.id, ())):
                await self.send(page, await self.current(record))

    async def _push(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                live = self._latest.get(game_id)
                if live is None:
                    return
                composed: dict[tuple[int, str], str] = {}
                logs: dict[str, list[str]] = {}
                for page in list(self.pages.get(game_id, ())):
                    key = (page.player, page.locale)
                    if key not in composed:
                        state = await self.compose(page, live, logs)
                        composed[key] = json.dumps({"type": "state", "state": state})
                    if not page.ws.closed:
                        try:
                            await page.ws.send_str(composed[key])
                        except ConnectionError:
                            continue
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("The web pages of game %s could not follow a move", game_id)
        finally:
            self._pushing.pop(game_id, None)
