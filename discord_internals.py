"""Every use of discord.py's private names, fenced in one module.

discord.py offers no public way to do what these helpers do, and each saves real work (their callers say what). The
names they reach may move in any release, so they are used here only, pinned by ``requirements.lock``, and
``tests/test_discord_internals.py`` checks each against the installed discord.py, and that nothing else in the product
uses a private name of discord.py: an upgrade that moves one fails that test, not a running bot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import weakref
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

import aiohttp
import discord
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

log = logging.getLogger(__name__)

try:  # optional, as for discord.py (the "speed" extra): the same JSON either way
    import orjson

    def _dumps(payload: Any) -> bytes:
        return orjson.dumps(payload)

    _loads: Callable[[bytes], Any] = orjson.loads
except ImportError:  # the standard library's json, as discord.py falls back to (tests/test_token_requests.py)

    def _dumps(payload: Any) -> bytes:
        return json.dumps(payload, separators=(",", ":"), ensure_ascii=True).encode()

    _loads = json.loads

Parser = Callable[[dict[str, Any]], None]
# A message's request body as discord.py builds it (a context manager: it closes the files it opened).
Parameters = MultipartParameters


def event_parsers(client: discord.Client) -> MutableMapping[str, Parser]:
    """The gateway event parsers of ``client`` by event name (``MESSAGE_CREATE`` ...), replaceable in place."""
    parsers: MutableMapping[str, Parser] = client._connection.parsers
    return parsers


def dynamic_item_patterns(client: discord.Client) -> Iterable[re.Pattern[str]]:
    """The custom id patterns of the dynamic items ``client`` listens for (``Client.add_dynamic_items``)."""
    patterns: Iterable[re.Pattern[str]] = client._connection._view_store._dynamic_items
    return patterns


def api_base() -> str:
    """The address of Discord's REST API that discord.py talks to (the tests point it at the fake Discord)."""
    return str(Route.BASE)


def zstd_available() -> bool:
    """Whether discord.py compresses the gateway with zstandard (the package, or Python 3.14's own)."""
    return discord.utils._ZSTD_SOURCE is not None


def colour_formatter() -> logging.Formatter:
    """discord.py's own coloured log format, for a terminal."""
    formatter: logging.Formatter = discord.utils._ColourFormatter()
    return formatter


def message_parameters(client: discord.Client, message: dict[str, Any]) -> MultipartParameters:
    """discord.py's request body for a message with ``message``'s keywords (``Messageable.send``'s)."""
    return handle_message_parameters(previous_allowed_mentions=client.allowed_mentions, **message)


async def edit_by_token(
    client: discord.Client,
    application_id: int,
    token: str,
    message_id: int | str,
    params: MultipartParameters,
    *,
    with_components: bool,
) -> None:
    """Edit a message through an interaction's token (the webhook route), reading nothing of Discord's answer."""
    if params.files:  # a multipart body (discord.py builds one only for files): its own path
        webhook = discord.Webhook.partial(application_id, token, client=client)
        await async_context.get().edit_webhook_message(
            application_id,
            token,
            message_id,  # type: ignore[arg-type]  # formatted into the route: "@original" works as discord.py's own
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            with_components=with_components,
        )
        return
    path = f"/webhooks/{application_id}/{token}/messages/{message_id}?with_components={int(with_components)}"
    await token_request(client, "PATCH", path, token, params.payload)


# One request at a time per interaction token, as discord.py's webhook adapter does: a token whose bucket Discord
# said is spent ("X-RateLimit-Remaining: 0") waits for its reset before its next request, rather than meet a 429.
_TOKEN_LOCKS: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
_JSON = {"Content-Type": "application/json"}
ATTEMPTS = 5


async def token_request(client: discord.Client, method: str, path: str, token: str, payload: Any) -> bytes:
    """A request on an interaction token's route (``path`` after the API's base, query included) with a JSON body;
    Discord's answer as bytes, unread.

    What discord.py's webhook adapter does for these routes (one request at a time per token, a spent bucket waited
    out, a 429 waited out and retried, a 5xx retried, a refusal raised as ``discord.HTTPException`` or its kinds), on
    the same aiohttp session, without what the table never uses: every answer parsed as JSON, the query built through
    yarl, the body sent as text. The answers to edits are whole messages that nobody reads."""
    http = client.http
    session: aiohttp.ClientSession = http._HTTPClient__session  # type: ignore[attr-defined]
    url = f"{Route.BASE}{path}"
    body = _dumps(payload)
    lock = _TOKEN_LOCKS.get(token)
    if lock is None:
        lock = _TOKEN_LOCKS[token] = asyncio.Lock()
    await lock.acquire()
    spent = 0.0
    try:
        attempt = 0
        while True:
            async with session.request(
                method, url, data=body, headers=_JSON, proxy=http.proxy, proxy_auth=http.proxy_auth
            ) as response:
                raw = await response.read()
                status = response.status
                if response.headers.get("X-Ratelimit-Remaining") == "0" and status != 429:
                    spent = discord.utils._parse_ratelimit_header(response)
                if 200 <= status < 300:
                    return raw
                # A 429 without "Via" is Cloudflare's (a ban), not Discord's: waiting it out would not help.
                limited = status == 429 and bool(response.headers.get("Via"))
                attempt += 1
                if not (limited or status >= 500) or attempt == ATTEMPTS:
                    raise _refusal(response, raw)
                wait = float(_loads(raw)["retry_after"]) if limited else 2 * attempt - 1.0
            if limited:
                log.warning("An interaction's route is rate limited. Retrying in %.2f seconds.", wait)
            await asyncio.sleep(wait)
    finally:
        if spent > 0:
            asyncio.get_running_loop().call_later(spent, lock.release)
        else:
            lock.release()


def _refusal(response: aiohttp.ClientResponse, raw: bytes) -> discord.HTTPException:
    """What discord.py raises for a refused request: its kind by status, Discord's JSON error (else the text)."""
    answer: dict[str, Any] | str = raw.decode("utf-8", "replace")
    if response.headers.get("Content-Type", "").startswith("application/json"):
        answer = _loads(raw)
    if response.status >= 500:
        return discord.DiscordServerError(response, answer)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(response.status, discord.HTTPException)
    return kind(response, answer)


async def edit_in_channel(
    client: discord.Client, channel_id: int, message_id: int, params: MultipartParameters
) -> None:
    """Edit one of the bot's messages with the client's HTTP client (the bot's rate limits), reading no answer."""
    await client.http.edit_message(channel_id, message_id, params=params)


async def send_in_channel(client: discord.Client, channel_id: int, params: MultipartParameters) -> int:
    """Post a message with the client's HTTP client; only the new message's id is read from the answer."""
    data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])


async def respond_with_message(
    interaction: discord.Interaction[Any], *, ephemeral: bool, **message: Any
) -> dict[str, Any]:
    """Answer ``interaction`` with a message (callback type 4) and return Discord's raw reply, without the
    ``InteractionCallbackResponse`` and ``Message`` discord.py would build from it; the response is marked done as
    ``send_message`` marks it. ``message`` holds only ``send_message``'s message keywords."""
    state: Any = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.channel_message.value,
        previous_allowed_mentions=state.allowed_mentions,
        flags=discord.MessageFlags(ephemeral=True) if ephemeral else MISSING,
        **message,
    )
    data: Any
    if params.files:
        data = await async_context.get().create_interaction_response(
            interaction.id,
            interaction.token,
            session=interaction._session,
            proxy=state.http.proxy,
            proxy_auth=state.http.proxy_auth,
            params=params,
        )
    else:
        path = f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=1"
        raw = await token_request(interaction.client, "POST", path, interaction.token, params.payload)
        data = _loads(raw) if raw else {}
    interaction.response._response_type = discord.InteractionResponseType.channel_message
    return dict(data)


# A rate-limit bucket idle this long holds nothing Discord still counts: its windows last seconds (5 messages per
# 5 s in a channel). discord.py keeps one per channel and DM channel for five minutes, about 1 KB each, and once there
# are 256 it scans them all whenever a new one appears: with thousands of DM channels, memory per idle game and a
# full scan per new DM channel.
IDLE_BUCKET_SECONDS = 30.0


def stop_bucket_scans(client: discord.Client) -> None:
    """No full scan of the rate-limit buckets per new bucket: ``forget_idle_buckets``, called on a timer, does it."""
    client.http._try_clear_expired_ratelimits = lambda: None  # type: ignore[method-assign]


def forget_idle_buckets(client: discord.Client, idle: float = IDLE_BUCKET_SECONDS) -> int:
    """Drop the rate-limit buckets nothing used for ``idle`` seconds, none of whose limits still runs (nothing in
    flight or waiting, no reset ahead); a later request starts a fresh one, as discord.py does for a new channel.
    Returns how many were dropped."""
    buckets = client.http._buckets
    stale = []
    for key, bucket in buckets.items():
        now = bucket._loop.time()
        if now - bucket._last_request < idle or bucket.outgoing or bucket._pending_requests:
            continue
        if bucket._sleeping.locked() or (bucket.expires is not None and bucket.expires > now):
            continue
        stale.append(key)
    for key in stale:
        del buckets[key]
    return len(stale)
