"""The web table's server: aiohttp's own ``web`` and WebSocket, in the bot's process and event loop.

- ``GET /t/<token>``: the page (static HTML; the token in the address says whose page it is);
- ``GET /static/<file>``: its hand-written script and style sheet;
- ``GET /ws/<token>``: the live state, one JSON message per position, and the player's moves back (answered by
  ``web.messages``).

Every move goes through ``Table.act_for``: the same compare-and-swap commit as a panel click, after which the board,
the panels, the DMs, the clock and the computer seats follow. Every page follows the committed moves through the
core's ``Transition``, wherever the move was made. A token that does not check out, or names a game that is no
longer open, gets the same bare 403, whatever was wrong with it.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
from aiohttp import WSMsgType, web

from i18n import SOURCE_LANGUAGE, _, _p, language, render
from metrics import listen
from storage import GameRecord
from storage.dialect import POSTGRES
from table.answer import Interaction, UserError, detached
from table.flow import Table
from table.people import is_ai
from web.activity import LAUNCH, NOT_SEATED, Activity, LaunchView, seat_of
from web.live import SPECTATOR, LivePages, Page
from web.messages import Messages
from web.replay import Replays
from web.tokens import Signer, load_key, still_open

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
ASSETS = {"app.js": "text/javascript", "app.css": "text/css", "icon.svg": "image/svg+xml"}
# Nothing but the page's own files: no inline script or style, no other origin, no framing.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # The address holds the player's token: never send it on to another site.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
PAGES_PER_PLAYER = 8  # open pages (WebSockets) per player and game
MESSAGE_BYTES = 1024

OPEN_TABLE = _p("button", "Open the table")
WATCH = _p("button", "Watch the table")
SPECTATOR_PAGES = 200  # open spectator pages per game
FORBIDDEN = _("This link doesn't open a table: use the Open the table button of your own hand panel.")
TOO_MANY_PAGES = _("This table is open in too many windows: close one and reload.")


class WebTable:
    """The server and its open pages. ``serve`` opens the port (before the bot logs in, so a taken port is reported
    like any other setting); ``attach`` joins it to the core once the table exists."""

    def __init__(self) -> None:
        self.runner: web.AppRunner | None = None
        self.port = 0
        self.base_url = ""
        self.client: discord.Client | None = None
        self.tables: Table | None = None
        self.signer: Signer | None = None
        self.replays: Replays | None = None
        self.live = LivePages()
        self.activity: Activity | None = None  # the Discord Activity, where it is on (WEB_ACTIVITY)
        self.messages: Messages | None = None  # what the pages ask for, once attached

    @classmethod
    async def serve(
        cls, port: int, url: str | None, host: str = "0.0.0.0", *, activity_secret: str | None = None
    ) -> WebTable:
        """Open the port; raises OSError if it is taken. With ``activity_secret`` (the application's OAuth2 client
        secret) the page is also the Discord Activity, and Open the table launches it."""
        table = cls()
        app = web.Application(client_max_size=MESSAGE_BYTES)
        if activity_secret is not None:
            table.activity = Activity(activity_secret, SECURITY_HEADERS)
            table.activity.routes(app, STATIC / "index.html")
        app.router.add_get("/t/{token}", table.page)
        app.router.add_get("/static/{name}", table.asset)
        app.router.add_get("/ws/{token}", table.socket)
        runner = await listen(app, host, port)
        table.runner, table.port = runner, int(runner.addresses[0][1])
        table.base_url = (url or f"http://localhost:{table.port}").rstrip("/")
        log.info("Web table on port %d, reached at %s", table.port, table.base_url)
        return table

    async def attach(self, client: discord.Client, tables: Table) -> None:
        self.client, self.tables = client, tables
        self.live.attach(client, tables, shared=getattr(tables.storage, "dialect", None) is POSTGRES)
        self.signer = Signer(await load_key(tables.storage))
        self.replays = Replays(tables.storage)
        self.messages = Messages(client, tables, self.live, self.replays)
        tables.events.subscribe("web table", self.live.on_moved)
        tables.panel_link = self.link
        tables.board_link = self.watch_link
        tables.after_abandon = self.live.on_abandoned
        if self.activity is not None:
            self.activity.attach(client, tables.storage, self.signer)
            client.add_view(LaunchView(self.launch_failed))

    async def close(self) -> None:
        await self.live.close()
        if self.activity is not None:
            await self.activity.close()
        if self.runner is not None:
            await self.runner.cleanup()

    # ---- the way in -------------------------------------------------------------------------------------------

    def url(self, game_id: int, player: int, locale: str) -> str:
        assert self.signer is not None
        return f"{self.base_url}/t/{self.signer.sign(game_id, player)}?lang={language(locale)}"

    def link(self, record: GameRecord, player: int, locale: str) -> discord.ui.Button[Any] | None:
        """The Open the table button under a player's private panel (row 4: every panel leaves it free)."""
        if self.signer is None or is_ai(player) or player not in record.players:
            return None
        if self.activity is not None:  # launches the Activity (LaunchView answers it): the same page, in Discord
            style = discord.ButtonStyle.primary
            return discord.ui.Button(label=render(OPEN_TABLE, locale), custom_id=LAUNCH, style=style, row=4)
        return discord.ui.Button(label=render(OPEN_TABLE, locale), url=self.url(record.id, player, locale), row=4)

    async def launch_failed(self, interaction: Interaction) -> None:
        """Where Discord would not launch the Activity: the player's link, privately, instead."""
        assert self.tables is not None
        locale = self.tables.languages.for_reader(interaction)
        player = interaction.user.id
        record = await seat_of(self.tables.storage, interaction.channel_id or 0, player)
        if record is None:
            raise UserError(NOT_SEATED)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label=render(OPEN_TABLE, locale), url=self.url(record.id, player, locale)))
        await interaction.response.send_message(view=detached(view), ephemeral=True)

    def watch_link(self, record: GameRecord, locale: str) -> discord.ui.Button[Any] | None:
        """The Watch the table button under the channel's board: the public page (no hand, no chips)."""
        if self.signer is None:
            return None
        return discord.ui.Button(label=render(WATCH, locale), url=self.url(record.id, SPECTATOR, locale), row=4)

    async def _seat(self, request: web.Request) -> tuple[GameRecord, int] | None:
        """The game and player a request's token names, if the token is genuine and the game still open to it."""
        if self.signer is None or self.tables is None:
            return None
        signed = self.signer.verify(request.match_info["token"])
        if signed is None:
            return None
        game_id, player = signed
        record = await self.tables.storage.game(game_id)
        if record is None or player not in (*record.players, SPECTATOR) or not still_open(record):
            return None
        return record, player

    def _forbidden(self, request: web.Request) -> web.Response:
        text = render(FORBIDDEN, request.query.get("lang", SOURCE_LANGUAGE))
        return web.Response(status=403, text=text, headers=SECURITY_HEADERS)

    async def page(self, request: web.Request) -> web.StreamResponse:
        if await self._seat(request) is None:
            return self._forbidden(request)
        return web.FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in ASSETS:
            raise web.HTTPNotFound()
        headers = {**SECURITY_HEADERS, "Content-Type": ASSETS[name], "Cache-Control": "no-cache"}
        return web.FileResponse(STATIC / name, headers=headers)

    # ---- the live page ----------------------------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.StreamResponse:
        seat = await self._seat(request)
        if seat is None:
            return self._forbidden(request)
        record, player = seat
        assert self.tables is not None
        assert self.messages is not None
        lang = request.query.get("lang")
        locale = language(lang) if lang else await self.tables.languages.reader(player)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MESSAGE_BYTES)
        await ws.prepare(request)
        open_now = sum(p.player == player for p in self.live.pages.get(record.id, ()))
        if open_now >= (SPECTATOR_PAGES if player == SPECTATOR else PAGES_PER_PLAYER):
            await ws.send_json({"type": "refused", "text": render(TOO_MANY_PAGES, locale)})
            await ws.close()
            return ws
        page = Page(ws, record.id, player, locale)
        pages = self.live.opened(page)
        try:
            try:
                await self.live.send(page, await self.live.current(record))
            except UserError as error:  # a game that can't be loaded: the page says why (and retries later)
                await ws.send_json({"type": "refused", "text": render(error.text, locale)})
                await ws.close()
                return ws
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self.messages.answer(page, record, message.data)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.live.closed(page)
            if player == SPECTATOR or not any(p.player == player for p in pages):
                self.messages.forget(page)
        return ws
