"""The open pages of the web table, following the committed games: every move announced by the core (``Transition``),
wherever it was made, reaches every open page of its game, each composed for its own reader.

Several processes on one PostgreSQL database (``SHARD_COUNT``): a move committed by another process is announced
there, not here. While pages are open, this process reads the open games' rows every ``POLL_SECONDS`` (one query,
however many games) and brings up to date every page whose game's move log grew or that ended. Polling rather than
LISTEN/NOTIFY: it needs nothing from the storage layer, costs two small queries a second per process whatever the
number of games, and a page follows another process's move within half a second (the target is one).

A move is composed once per language (what every page shows) and once per seat (its hand, its buttons), encoded
once, and queued to each page that shows it: a queue of one state per page, sent by the page's own task, so a slow
page only ever misses superseded states and neither the mover nor another page waits for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from aiohttp import web

from i18n import render
from storage import GameRecord
from table.flow import Table
from table.panels import offers_hint
from table.presenter import SomePresenter
from table.transition import Transition
from table.votes import VOTE_KINDS, VOTE_LABELS, vote_target
from web.names import Names
from web.page import LOG_MOVES, public_state, seat_state, turn_log
from web.replay import replayable

log = logging.getLogger(__name__)

SPECTATOR = 0  # the "player" of a spectator's link: no Discord id is 0
POLL_SECONDS = 0.5  # how often a process sharing its database reads whether another one moved


@dataclass(eq=False)
class Page:
    """One open page: whose, of which game, in which language."""

    ws: web.WebSocketResponse
    game_id: int
    player: int
    locale: str
    # What the page holds or is about to get (public part, seat part, the clock's deadline), the state waiting to be
    # sent, and the task sending it: see ``LivePages.queue``.
    shown: tuple[str, str, float | None] | None = None
    pending: str | None = None
    writer: asyncio.Task[None] | None = None


def encode(part: dict[str, Any]) -> str:
    return json.dumps(part, ensure_ascii=False, separators=(",", ":"))


def votes_for(record: GameRecord, state: Any, presenter: SomePresenter, page: Page) -> list[dict[str, Any]]:
    """The votes ``page``'s player may cast, as under the channel's board: on the player to move once they missed a
    turn, by the others still at the table."""
    target = vote_target(record, state, presenter)
    if target is None or page.player in (SPECTATOR, target) or not presenter.game.legal_actions(state, page.player):
        return []
    # The target as a string: a Discord id is past the page script's exact integers (2**53).
    return [{"kind": k, "target": str(target), "label": render(VOTE_LABELS[k], page.locale)} for k in VOTE_KINDS]


class LivePages:
    def __init__(self) -> None:
        self.client: discord.Client | None = None
        self.tables: Table | None = None
        self.names = Names()
        self.pages: dict[int, set[Page]] = {}  # game id -> its open pages
        self._latest: dict[int, Any] = {}  # game id -> the newest ``Live`` a move announced, while pages are open
        self._pushing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        # Game id -> (moves, status) as this process last showed it, for following other processes' moves.
        self._known: dict[int, tuple[int, str]] = {}
        self._polling: asyncio.Task[None] | None = None
        # Game id -> (move number, language) -> its line in the turn log: a move's line never changes, and each push
        # would otherwise render the last eight again (a millisecond).
        self._lines: dict[int, dict[tuple[int, str], str]] = {}

    def attach(self, client: discord.Client, tables: Table, *, shared: bool = False) -> None:
        """``shared``: other processes commit moves to the same database (PostgreSQL), so its rows are polled."""
        self.client, self.tables = client, tables
        self.names.client = client
        if shared:
            self._polling = asyncio.ensure_future(self._poll_forever())

    def opened(self, page: Page) -> set[Page]:
        """``page`` is open; the open pages of its game."""
        pages = self.pages.setdefault(page.game_id, set())
        pages.add(page)
        return pages

    def closed(self, page: Page) -> None:
        pages = self.pages.get(page.game_id, set())
        pages.discard(page)
        if page.writer is not None:
            page.writer.cancel()
        if not pages:
            self.pages.pop(page.game_id, None)
            self._latest.pop(page.game_id, None)
            self._known.pop(page.game_id, None)
            self._lines.pop(page.game_id, None)

    async def close(self) -> None:
        if self._polling is not None:
            self._polling.cancel()
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
        """``page`` shows ``current``, even if it should already (its first state, or a page that asked again)."""
        page.shown = None
        await self._bring(page.game_id, [page], current)

    async def _bring(self, game_id: int, pages: list[Page], current: Any) -> None:
        """Every page of ``pages`` (all of game ``game_id``) shows ``current``: the public part is composed and
        encoded once per language, each seat's part once per seat and language, and every page showing the same
        gets the same bytes; a page that already shows them gets nothing."""
        assert self.tables is not None
        live = current if hasattr(current, "record") else None
        record = live.record if live is not None else await self.tables.storage.game(game_id)
        assert record is not None
        presenter = self.tables.games.presenter(record)
        state = live.state if live is not None else current
        names = await self.names.of(record.players)
        stopped = live is None and record.status != "running"
        over = stopped or presenter.game.is_over(state)
        # The replay opens from the page of a game that ended (live: the last move; else: read from its row).
        ended = record.status in ("finished", "abandoned")
        can_replay = ended and self.client is not None and replayable(record, self.client)
        due = self.tables.clock.deadlines.get(record.id)
        due_at = None if over or due is None else due[1]
        publics: dict[str, str] = {}
        seats: dict[tuple[int, str], str] = {}
        for page in pages:
            if page.locale not in publics:
                steps = [*live.previous, *live.turn] if live is not None else []
                log = self._turn_log(record.id, presenter, steps, page.locale, names)
                public = public_state(record.kind, presenter, state, page.locale, names, log, stopped)
                public["replayable"] = can_replay
                publics[page.locale] = encode(public)
            key = (page.player, page.locale)
            if key not in seats:
                seat = seat_state(record.kind, presenter, state, page.player, page.locale, names, stopped)
                seat["hint"] = not over and page.player != SPECTATOR and offers_hint(record)
                seat["votes"] = votes_for(record, state, presenter, page) if record.status == "running" else []
                seats[key] = encode(seat)
            self.queue(page, publics[page.locale], seats[key], due_at)

    def queue(self, page: Page, public: str, seat: str, due_at: float | None) -> None:
        """``page`` is to show this state: it replaces any state still waiting for the page (a slow page holds one
        state, never a backlog), and is sent by the page's own task, so no page waits for another, nor the move for
        any page."""
        shown = (public, seat, due_at)
        if page.shown == shown or page.ws.closed:
            return
        page.shown = shown
        left = None if due_at is None else max(0.0, due_at - time.time())
        both = public[:-1] if seat == "{}" else f"{public[:-1]},{seat[1:-1]}"
        page.pending = f'{{"type":"state","state":{both},"deadline":{json.dumps(left)}}}}}'
        if page.writer is None or page.writer.done():
            page.writer = asyncio.ensure_future(self._write(page))

    @staticmethod
    async def _write(page: Page) -> None:
        while page.pending is not None and not page.ws.closed:
            data, page.pending = page.pending, None
            try:
                await page.ws.send_str(data)
            except (ConnectionError, RuntimeError):  # closing: its socket handler forgets the page
                return

    def _turn_log(self, game_id: int, presenter: Any, steps: list[Any], locale: str, names: Any) -> list[str]:
        lines = self._lines.setdefault(game_id, {})
        shown = steps[-LOG_MOVES:]
        for step in shown:
            if (step.number, locale) not in lines:
                lines[step.number, locale] = turn_log(presenter, [step], locale, names)[0]
        if len(lines) > 4 * LOG_MOVES:  # only the latest moves are shown: the older lines go
            oldest = shown[0].number if shown else 0
            for key in [key for key in lines if key[0] < oldest]:
                del lines[key]
        return [lines[step.number, locale] for step in shown]

    async def on_moved(self, event: Transition) -> None:
        """A move was committed (anywhere): every open page of its game is brought up to date, in the background,
        always from the newest position, so a burst of moves ends on the last one."""
        game_id = event.live.record.id
        if game_id not in self.pages:
            return
        moves = self.tables.games.presenter(event.live.record).game.move_count(event.live.state) if self.tables else 0
        self._known[game_id] = (moves, event.live.record.status)
        self._follow(event.live)

    def _follow(self, live: Any) -> None:
        game_id = live.record.id
        self._latest[game_id] = live
        running = self._pushing.get(game_id)
        if running is not None and not running.done():
            self._again.add(game_id)
            return
        self._pushing[game_id] = asyncio.ensure_future(self._push(game_id))

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            if not self.pages:
                continue
            try:
                await self.poll()
            except Exception:
                log.exception("The web pages could not read the other processes' moves")

    async def poll(self) -> None:
        """Every open page whose game another process moved on (or ended) is brought up to date."""
        assert self.tables is not None
        rows = {record.id: record for record in await self.tables.storage.open_games() if record.id in self.pages}
        for game_id in set(self.pages) - set(rows):  # ended since (no longer open): read one by one, rare
            ended = await self.tables.storage.game(game_id)
            if ended is not None:
                rows[game_id] = ended
        for game_id, record in rows.items():
            if self._known.get(game_id) == (record.moves, record.status) or game_id not in self.pages:
                continue
            self._known[game_id] = (record.moves, record.status)
            if record.status == "running":
                self._follow(await self.tables.games.live(record))  # caught up from the move log
            else:  # ended: from its row and log (this process may still hold it running, from before)
                self._latest.pop(game_id, None)
                final = await self.tables.games.final_state(record)
                await self._bring(game_id, list(self.pages.get(game_id, ())), final)

    async def on_abandoned(self, record: GameRecord) -> None:
        """A game ended early: its pages show it, and stop offering moves."""
        if record.id in self.pages:
            self._latest.pop(record.id, None)
            await self._bring(record.id, list(self.pages.get(record.id, ())), await self.current(record))

    async def _push(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                live = self._latest.get(game_id)
                if live is None:
                    return
                await self._bring(game_id, list(self.pages.get(game_id, ())), live)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("The web pages of game %s could not follow a move", game_id)
        finally:
            self._pushing.pop(game_id, None)
