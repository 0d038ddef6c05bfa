"""``discord_internals.token_request``: the requests through an interaction's token (answers, panel and board edits)
behave as discord.py's webhook adapter made them: Discord's rate limits waited out, a server error retried, a refusal
raised as discord.py's own exception, one request at a time per token and a spent bucket waited out before the next.

A small scripted server stands in for Discord: each test says what its next answers are."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route

import discord_internals as internals

ROOT = Path(__file__).resolve().parent.parent


class Script:
    """Answers requests in order from a list of (status, headers, body); records each request's path and body."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, dict[str, str], Any]] = []
        self.seen: list[tuple[str, str, bytes]] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.seen.append((request.method, request.path_qs, await request.read()))
        status, headers, body = self.answers.pop(0) if self.answers else (200, {}, {"id": "1"})
        if isinstance(body, dict):
            return web.json_response(body, status=status, headers=headers)
        return web.Response(text=body, status=status, headers=headers)


@pytest.fixture
async def discord_at(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[discord.Client, Script]]:
    script = Script()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", script.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    client = discord.Client(intents=discord.Intents.none())
    session = aiohttp.ClientSession()
    client.http._HTTPClient__session = session  # type: ignore[attr-defined]  # what login would have opened
    try:
        yield client, script
    finally:
        await session.close()
        await runner.cleanup()


async def test_an_edit_sends_its_payload_as_json_with_the_query_in_the_path(
    discord_at: tuple[discord.Client, Script],
) -> None:
    client, script = discord_at
    answer = await internals.token_request(
        client, "PATCH", "/webhooks/1/tok/messages/2?with_components=1", "tok", {"content": "hi"}
    )
    assert json.loads(answer) == {"id": "1"}
    assert script.seen == [("PATCH", "/api/v10/webhooks/1/tok/messages/2?with_components=1", b'{"content":"hi"}')]


async def test_discords_rate_limit_is_waited_out_and_the_request_made_again(
    discord_at: tuple[discord.Client, Script],
) -> None:
    client, script = discord_at
    script.answers = [(429, {"Via": "1.1 google"}, {"retry_after": 0.01, "global": False, "message": "slow"})]
    await internals.token_request(client, "POST", "/interactions/5/tok/callback?with_response=1", "tok", {"type": 4})
    assert len(script.seen) == 2


async def test_a_429_without_via_is_cloudflares_and_raised_at_once(discord_at: tuple[discord.Client, Script]) -> None:
    client, script = discord_at
    script.answers = [(429, {}, "banned")]
    with pytest.raises(discord.HTTPException) as raised:
        await internals.token_request(client, "PATCH", "/webhooks/1/tok/messages/2", "tok", {})
    assert raised.value.status == 429
    assert len(script.seen) == 1


async def test_a_server_error_is_retried(discord_at: tuple[discord.Client, Script]) -> None:
    client, script = discord_at
    script.answers = [(502, {}, "bad gateway")]
    await internals.token_request(client, "PATCH", "/webhooks/1/tok/messages/2", "tok", {})
    assert len(script.seen) == 2


@pytest.mark.parametrize(
    ("status", "kind"), [(404, discord.NotFound), (403, discord.Forbidden), (400, discord.HTTPException)]
)
async def test_a_refusal_is_discord_pys_exception_with_discords_code(
    discord_at: tuple[discord.Client, Script], status: int, kind: type[discord.HTTPException]
) -> None:
    client, script = discord_at
    script.answers = [(status, {}, {"code": 10008, "message": "Unknown Message"})]
    with pytest.raises(kind) as raised:
        await internals.token_request(client, "PATCH", "/webhooks/1/tok/messages/2", "tok", {})
    assert (raised.value.status, raised.value.code, raised.value.text) == (status, 10008, "Unknown Message")
    assert len(script.seen) == 1


async def test_a_spent_bucket_holds_that_tokens_next_request_and_no_other(
    discord_at: tuple[discord.Client, Script],
) -> None:
    client, script = discord_at
    script.answers = [(200, {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "1.0"}, {"id": "1"})]
    await internals.token_request(client, "PATCH", "/webhooks/1/spent/messages/2", "spent", {"n": 1})
    held = asyncio.ensure_future(
        internals.token_request(client, "PATCH", "/webhooks/1/spent/messages/2", "spent", {"n": 2})
    )
    await internals.token_request(client, "PATCH", "/webhooks/1/other/messages/3", "other", {"n": 3})
    await asyncio.sleep(0.1)
    # Still waiting for the spent bucket's reset (a second), while another token's request went through.
    assert not held.done()
    assert [body for _method, _path, body in script.seen] == [b'{"n":1}', b'{"n":3}']
    await held
    assert [body for _method, _path, body in script.seen] == [b'{"n":1}', b'{"n":3}', b'{"n":2}']


def test_without_orjson_the_same_requests_go_out_in_the_standard_librarys_json() -> None:
    hidden = (
        "import sys; sys.modules['orjson'] = None\n"
        "import discord_internals as d\n"
        "assert d._dumps({'content': 'é', 'n': [1, 2]}) == b'{\"content\":\"\\\\u00e9\",\"n\":[1,2]}', d._dumps({})\n"
        "assert d._loads(b'{\"retry_after\": 0.5}') == {'retry_after': 0.5}\n"
    )
    done = subprocess.run([sys.executable, "-c", hidden], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
