"""The web table's server: aiohttp's own ``web`` and WebSocket, in the bot's process and event loop.

- ``GET /t/<token>``: the page (static HTML; the token in the address says whose page it is);
- ``GET /static/<file>``: its hand-written script and style sheet;
- ``GET /ws/<token>``: the live state, one JSON message per position, and the player's moves back.

Every move goes through ``Table.act_for``: the same compare-and-swap commit as a panel click, after which the board,
the panels, the DMs, the clock and the computer seats follow. Every page follows the committed moves through the
core's ``Transition``, wherever the move was made. A token that does not check out, or names a game that is no
longer open, gets the same bare 403, whatever was wrong with it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from aiohttp import WSMsgType, web

from cogs._ui import APOLOGY, error_text
from cogs.the_game_panel import hint_text
from engine import no_thanks, the_game
from i18n import SOURCE_LANGUAGE, Text, _, _p, language, render
from metrics import listen
from storage import GameRecord
from storage.dialect import POSTGRES
from table.answer import Interaction, UserError, detached
from table.flow import Table
from table.lobby import YOU_LEFT_TO_AUTOPILOT
from table.people import is_ai
from table.registry import GAMES
from table.votes import VOTE_KINDS, vote_target
from web.activity import LAUNCH, NOT_SEATED, Activity, LaunchView, seat_of
from web.live import SPECTATOR, LivePages, Page
from web.page import plain
from web.replay import Replays, replayable
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
# Moves per player: a burst of this many, then this many a second (a fast turn lays a few cards in a second).
BURST, PER_SECOND = 8, 4.0
PAGES_PER_PLAYER = 8  # open pages (WebSockets) per player and game
MESSAGE_BYTES = 1024

OPEN_TABLE = _p("button", "Open the table")
WATCH = _p("button", "Watch the table")
SPECTATOR_PAGES = 200  # open spectator pages per game
SLOW_DOWN = _("Slow down: too many moves at once. Try again in a moment.")
NOT_A_MOVE = _("That move isn't possible here.")
FORBIDDEN = _("This link doesn't open a table: use the Open the table button of your own hand panel.")
WATCHING = _("You are watching this table: only the players can move.")
NOT_OVER = _("That game isn't over yet: its replay opens when it ends.")
TODAYS_DEAL_CLOSED = _("Today's daily deal: its replay opens tomorrow (UTC).")
NO_SUCH_VOTE = _("There is no vote on that player now: the table votes only on the player to move who missed a turn.")
TOO_MANY_PAGES = _("This table is open in too many windows: close one and reload.")


@dataclass
class Bucket:
    """A player's allowance of moves (a token bucket): ``BURST`` at once, then ``PER_SECOND``."""

    tokens: float = BURST
    refilled: float = field(default_factory=time.monotonic)

    def take(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def action_of(kind: str, message: dict[str, Any], state: Any = None, player: int = 0) -> Any:
    """The engine action a page's message asks for, or None if it is no move of this game. A signal tapped again
    comes down, as on the panel: decided on ``state``, the game as it is now."""
    op = message.get("op")
    if kind == the_game.INFO.kind and op == "signal":
        signal, pile = message.get("kind"), message.get("pile")
        if signal not in (*the_game.SIGNALS, the_game.CLEAR) or (pile is not None and pile not in the_game.PILES):
            return None
        if signal in the_game.PLAYER_SIGNALS or signal == the_game.CLEAR:
            pile = None
        elif pile is None:
            return None
        raised = state is not None and any(
            m.player == player and (m.kind, m.pile) == (signal, pile) for m in state.signals
        )
        return the_game.Signal(the_game.CLEAR if raised else str(signal), pile)
    if kind == the_game.INFO.kind:
        card, pile = message.get("card"), message.get("pile")
        if op == "play" and isinstance(card, int) and not isinstance(card, bool) and pile in the_game.PILES:
            return the_game.Play(card, pile)
        if op == "end":
            return the_game.EndTurn()
    elif kind == no_thanks.INFO.kind:
        if op == "take":
            return no_thanks.Take()
        if op == "pass":
            return no_thanks.NoThanks()
    return None


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
        # One allowance per player and game, however many pages they have open.
        self._buckets: dict[tuple[int, int], Bucket] = {}

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
                    await self._answer(page, record, message.data)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.live.closed(page)
            if player == SPECTATOR or not any(p.player == player for p in pages):
                self._buckets.pop(self._key(page), None)
        return ws

    @staticmethod
    def _key(page: Page) -> tuple[int, int]:
        """Whose allowance a page spends: its player's (however many pages they have open); each spectator's own."""
        return (page.game_id, page.player if page.player != SPECTATOR else -id(page))

    def _may(self, page: Page) -> bool:
        return self._buckets.setdefault(self._key(page), Bucket()).take(time.monotonic())

    async def _answer(self, page: Page, record: GameRecord, data: str) -> None:
        """A page's message, on the one error path: a refusal in words, a bug logged once and apologised for (the
        page stays connected either way)."""
        try:
            await self._on_message(page, record, data)
        except Exception as error:
            refusal = error_text(error)
            if refusal is None:
                log.exception("A message from the web table failed in game %s", record.id)
                refusal = APOLOGY
            if not page.ws.closed:
                await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})

    async def _on_message(self, page: Page, record: GameRecord, data: str) -> None:
        assert self.tables is not None
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return
        if message.get("op") == "sync":  # a page that thinks it missed something
            await self.live.send(page, await self.live.current(record))
            return
        if message.get("op") == "replay":
            await self._replay(page, record, message.get("turn"))
            return
        if message.get("op") == "hint":
            await self._hint(page, record)
            return
        if message.get("op") == "vote":
            await self._vote(page, record, message.get("kind"), message.get("target"))
            return
        if message.get("op") == "leave":  # confirmed on the page by a second tap
            await self._leave(page, record)
            return
        state = None
        if message.get("op") == "signal":
            current = await self.live.current(record)
            state = getattr(current, "state", current)
        action = action_of(record.kind, message, state, page.player)
        refusal: Text | None = None
        if page.player == SPECTATOR:
            refusal = WATCHING
        elif action is None:
            refusal = NOT_A_MOVE
        elif not self._may(page):
            refusal = SLOW_DOWN
        else:
            await self.tables.act_for(record.channel_id, page.player, action, game=record.id)
        if refusal is not None and not page.ws.closed:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})

    async def _leave(self, page: Page, record: GameRecord) -> None:
        """Leave, as /leave does: the lobby decides (at a competitive table the autopilot may take the seat), and
        only then is the game's own leave move played, through the one path for moves."""
        assert self.tables is not None
        if page.player == SPECTATOR:
            if not page.ws.closed:
                await page.ws.send_json({"type": "refused", "text": render(WATCHING, page.locale)})
            return
        async with self.tables.games.lock(record.channel_id):
            left = await self.tables.lobby.leave(record.channel_id, page.player)
        if left.how == "move":
            leave = GAMES[record.kind].leave
            await self.tables.act_for(record.channel_id, page.player, leave, game=record.id)
        elif left.how == "autopilot" and not page.ws.closed:
            await page.ws.send_json({"type": "refused", "text": render(YOU_LEFT_TO_AUTOPILOT, page.locale)})

    async def _hint(self, page: Page, record: GameRecord) -> None:
        """Hint, as on the panel: the computer player's choice for this seat, told to this page alone (the game is
        marked as hinted first)."""
        assert self.tables is not None
        refusal: Text | None = None
        if page.player == SPECTATOR:
            refusal = WATCHING
        elif not self._may(page):
            refusal = SLOW_DOWN
        if refusal is not None:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})
            return
        live, given = await self.tables.panels.hint(record.channel_id, page.player, record.kind, record.id)
        told = render(hint_text(live.state, given.action, given.why), page.locale)
        await page.ws.send_json({"type": "hint", "text": plain(told, await self.live.names.of(record.players))})

    async def _vote(self, page: Page, record: GameRecord, kind: Any, target: Any) -> None:
        """A vote on the player to move, as from the board's buttons: counted (or refused) and told to this page."""
        assert self.tables is not None
        refusal: Text | None = None
        if page.player == SPECTATOR:
            refusal = WATCHING
        elif kind not in VOTE_KINDS or not (isinstance(target, str) and target.isdecimal() and len(target) < 24):
            refusal = NOT_A_MOVE  # a Discord id, as a string: a number would lose digits in the page's script
        elif not self._may(page):
            refusal = SLOW_DOWN
        else:  # the page's target must be the board's: the player to move, once they missed a turn
            live, presenter = await self.tables.games.running(record.channel_id)
            if live.record.id != record.id or int(target) != vote_target(live.record, live.state, presenter):
                refusal = NO_SUCH_VOTE
        if refusal is not None:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})
            return
        told, then = await self.tables.votes.cast(record.channel_id, page.player, record.id, kind, int(target))
        text = plain(render(told, page.locale), await self.live.names.of(record.players))
        if not page.ws.closed:
            await page.ws.send_json({"type": "hint", "text": text})
        if then is not None:
            await then()

    async def _replay(self, page: Page, record: GameRecord, turn: Any) -> None:
        """One step of the game's replay, for a page of a game that ended."""
        assert self.tables is not None
        assert self.replays is not None
        assert self.client is not None
        fresh = await self.tables.storage.game(record.id) or record
        refusal: Text | None = None
        if not isinstance(turn, int) or isinstance(turn, bool):
            refusal = NOT_A_MOVE
        elif fresh.status not in ("finished", "abandoned"):
            refusal = NOT_OVER
        elif not replayable(fresh, self.client):
            refusal = TODAYS_DEAL_CLOSED
        elif not self._may(page):
            refusal = SLOW_DOWN
        if refusal is not None:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})
            return
        presenter = self.tables.games.presenter(fresh)
        names = await self.live.names.of(fresh.players)
        step = await self.replays.step(fresh, presenter, turn, page.locale, names)
        if not page.ws.closed:
            await page.ws.send_str(json.dumps({"type": "replay", "replay": step}))
