"""The Discord Activity: the web table inside Discord, launched by the hand panel's Open the table button.

Where it is on (``WEB_ACTIVITY=1`` with ``DISCORD_CLIENT_SECRET``), that button is no link but a button whose click
is answered with ``LAUNCH_ACTIVITY`` (interaction response type 12): Discord opens the same page in its own frame,
at the root of the address mapped in the Developer Portal, the channel in the query. The page asks Discord's client
for an OAuth2 code through the Embedded App SDK (``AUTHORIZE``) and posts it here; the bot exchanges it at Discord's
token endpoint with its client secret, reads who signed in from ``/users/@me``, finds their seat at the channel's
game and answers with the same signed token a link carries. Nothing the page says about who it is is believed: only
the user Discord names for the code.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from aiohttp import web

from cogs._ui import ErrorHandlingView
from discord_internals import api_base
from i18n import SOURCE_LANGUAGE, Text, _, language, render
from storage import GameRecord, GameStore
from web.tokens import Signer, still_open

log = logging.getLogger(__name__)

LAUNCH = "web:activity"  # the custom id of the button that launches the Activity
# Who may frame the Activity's page: Discord's clients (web, PTB, canary) and its Activity proxy, nothing else.
DISCORD_FRAMES = "https://discord.com https://*.discord.com https://*.discordsays.com"
CODE_CHARS = 256  # an OAuth2 code is about 30 characters; anything much longer is not one
# Each sign-in is two requests to Discord, which a flood of made-up codes must not multiply: at most this many under
# way at once, and a burst of ``SIGN_IN_BURST`` then ``SIGN_INS_PER_SECOND`` a second per process.
SIGN_INS = 8
SIGN_IN_BURST, SIGN_INS_PER_SECOND = 20, 5.0
GAMES_LOOKED_AT = 5  # the channel's newest games, for a seat

NOT_SEATED = _("You have no seat at a game in this channel: join one, then open the table from your hand panel.")
SIGN_IN_FAILED = _("Discord didn't confirm who you are. Close the table and open it again.")
BUSY = _("Many players are opening the table right now: close it and open it again in a moment.")


class LaunchView(ErrorHandlingView):
    """The persistent answer to every Open the table button of the Activity: launch it. ``fallback`` answers where
    Discord refuses (the Activity not enabled in the Developer Portal after all): the link, privately."""

    def __init__(self, fallback: Callable[[discord.Interaction[Any]], Awaitable[None]]) -> None:
        super().__init__()
        self.fallback = fallback

    # Never shown: the panels carry their own button, in the reader's language (``WebTable.link``); this one only
    # answers clicks on it, matched by custom id.
    @discord.ui.button(custom_id=LAUNCH, label="Open the table")
    async def launch(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            log.warning("Discord refused to launch the Activity (%s): answering with the link", error)
            await self.fallback(interaction)


async def seat_of(storage: GameStore, channel_id: int, user: int) -> GameRecord | None:
    """The newest game of the channel that seats the user and still opens, if any. Nobody else is let in, not even
    to watch: the channel in the Activity's address is the page's word, and the user may not see that channel."""
    for record in await storage.channel_games(channel_id, GAMES_LOOKED_AT):
        if user in record.players and still_open(record):
            return record
    return None


class SignIn:
    """Who signed in, from the code the page was given: Discord's OAuth2 code exchange, then ``/users/@me``."""

    def __init__(self, secret: str) -> None:
        self._secret = secret
        self._session: aiohttp.ClientSession | None = None
        self._under_way = asyncio.Semaphore(SIGN_INS)
        self._allowance, self._counted = float(SIGN_IN_BURST), time.monotonic()

    def may(self) -> bool:
        """Whether one more sign-in fits the process's allowance (a token bucket)."""
        now = time.monotonic()
        self._allowance = min(SIGN_IN_BURST, self._allowance + (now - self._counted) * SIGN_INS_PER_SECOND)
        self._counted = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def user(self, application_id: int, code: str) -> dict[str, Any] | None:
        """The Discord user the code was given to (``id``, ``locale``), or None if Discord does not confirm it."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        form = {
            "client_id": str(application_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._under_way:
            try:
                async with self._session.post(f"{api_base()}/oauth2/token", data=form) as response:
                    granted = await response.json() if response.status == 200 else {}
                token = granted.get("access_token")
                if not isinstance(token, str):
                    log.info("Discord refused an Activity's sign-in code (HTTP %d)", response.status)
                    return None
                headers = {"Authorization": f"Bearer {token}"}
                async with self._session.get(f"{api_base()}/users/@me", headers=headers) as response:
                    user = await response.json() if response.status == 200 else None
            except (aiohttp.ClientError, TimeoutError, ValueError) as error:
                log.warning("The Activity's sign-in could not reach Discord: %r", error)
                return None
        if not isinstance(user, dict) or not str(user.get("id", "")).isdecimal():
            return None
        return user


class Activity:
    """The Activity's own addresses: its page (``/``, framed by Discord), the application id its SDK client needs,
    and the sign-in that turns an OAuth2 code into the page's token."""

    def __init__(self, secret: str, headers: dict[str, str]) -> None:
        self.sign_in = SignIn(secret)
        csp = headers["Content-Security-Policy"].replace("frame-ancestors 'none'", f"frame-ancestors {DISCORD_FRAMES}")
        self.headers = {**headers, "Content-Security-Policy": csp}
        self.client: discord.Client | None = None
        self.storage: GameStore | None = None
        self.signer: Signer | None = None

    def routes(self, app: web.Application, page: Path) -> None:
        async def index(request: web.Request) -> web.StreamResponse:
            return web.FileResponse(page, headers=self.headers)

        app.router.add_get("/", index)
        app.router.add_get("/api/activity", self.config)
        app.router.add_post("/api/activity/token", self.token)

    def attach(self, client: discord.Client, storage: GameStore, signer: Signer) -> None:
        self.client, self.storage, self.signer = client, storage, signer

    async def close(self) -> None:
        await self.sign_in.close()

    def _answer(
        self, status: int, text: Text | None = None, locale: str = SOURCE_LANGUAGE, **data: Any
    ) -> web.Response:
        if text is not None:
            data["text"] = render(text, locale)
        return web.json_response(data, status=status, headers=self.headers)

    async def config(self, request: web.Request) -> web.Response:
        """The application id the SDK's handshake names, and what to say if Discord's client never answers, in the
        browser's language (the player's own is known only once signed in)."""
        wanted = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
        locale = language(wanted or SOURCE_LANGUAGE)
        if self.client is None or self.client.application_id is None:
            return self._answer(503, SIGN_IN_FAILED, locale)
        return self._answer(200, client_id=str(self.client.application_id), failed=render(SIGN_IN_FAILED, locale))

    async def token(self, request: web.Request) -> web.Response:
        """``{"code", "channel_id"}`` -> ``{"token", "lang"}`` for the seat of the user Discord gave the code to."""
        if self.client is None or self.client.application_id is None or self.storage is None or self.signer is None:
            return self._answer(503, SIGN_IN_FAILED)
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        channel = body.get("channel_id") if isinstance(body, dict) else None
        if not (isinstance(code, str) and 0 < len(code) <= CODE_CHARS and isinstance(channel, str)):
            return self._answer(400, SIGN_IN_FAILED)
        if not (channel.isdecimal() and len(channel) < 24):
            return self._answer(400, SIGN_IN_FAILED)
        if not self.sign_in.may():
            return self._answer(429, BUSY)
        user = await self.sign_in.user(self.client.application_id, code)
        if user is None:
            return self._answer(403, SIGN_IN_FAILED)
        locale = language(str(user.get("locale") or SOURCE_LANGUAGE))
        player = int(user["id"])
        record = await seat_of(self.storage, int(channel), player)
        if record is None:
            return self._answer(403, NOT_SEATED, locale)
        log.info("Activity sign-in: user %s opens game %s", player, record.id)
        return self._answer(200, token=self.signer.sign(record.id, player), lang=locale)
