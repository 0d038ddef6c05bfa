"""discord.py's private names that ``discord_internals`` fences, checked against the installed discord.py.

The end-to-end games use them on every move; these checks name the one that moved when an upgrade breaks it, and fail
before a game is played. Nothing else in the product may use a private name of discord.py."""

from __future__ import annotations

import ast
import asyncio
import inspect
import logging
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import HTTPClient, handle_message_parameters
from discord.webhook.async_ import AsyncWebhookAdapter, async_context, interaction_message_response_params

from discord_internals import (
    colour_formatter,
    dynamic_item_patterns,
    event_parsers,
    forget_idle_buckets,
    stop_bucket_scans,
    zstd_available,
)

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot.py", "config.py", "metrics.py", "startup.py", "cogs", "table", "web", "storage", "engine", "i18n")
# discord.py's private names the product once used (and any module-level private name of discord).
PRIVATE = re.compile(
    r"_(connection|state|session|response_type|view_store|dynamic_items|http|ZSTD_SOURCE|ColourFormatter)$"
)


def keywords(function: Any) -> set[str]:
    return set(inspect.signature(function).parameters)


def test_the_parsers_are_the_ones_the_gateway_calls() -> None:
    client = discord.Client(intents=discord.Intents.none())
    parsers = event_parsers(client)
    assert {"MESSAGE_CREATE", "MESSAGE_UPDATE", "INTERACTION_CREATE"} <= set(parsers)
    seen: list[dict[str, Any]] = []
    parsers["MESSAGE_CREATE"] = seen.append
    # discord.py's gateway looks the parser up in this same mapping for each event
    event_parsers(client)["MESSAGE_CREATE"]({"id": "1"})
    assert seen == [{"id": "1"}]
    assert client._connection.parsers is parsers


class Knock(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"knock:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Knock", custom_id=f"knock:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> Knock:
        return cls(int(match["n"]))


def test_dynamic_item_patterns_follow_add_dynamic_items() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert not any(pattern.fullmatch("knock:3") for pattern in dynamic_item_patterns(client))
    client.add_dynamic_items(Knock)
    assert any(pattern.fullmatch("knock:3") for pattern in dynamic_item_patterns(client))
    client.remove_dynamic_items(Knock)
    assert not any(pattern.fullmatch("knock:3") for pattern in dynamic_item_patterns(client))


# The message keywords the wire passes to discord.py's request builders.
MESSAGE = {"content", "embed", "embeds", "file", "files", "view", "allowed_mentions", "previous_allowed_mentions"}
REQUEST = {"session", "proxy", "proxy_auth"}


@pytest.mark.parametrize(
    ("function", "used"),
    [
        (handle_message_parameters, MESSAGE | {"attachments"}),
        (interaction_message_response_params, MESSAGE | {"type", "flags"}),
        (AsyncWebhookAdapter.edit_webhook_message, REQUEST | {"payload", "multipart", "files", "with_components"}),
        (AsyncWebhookAdapter.create_interaction_response, REQUEST | {"params"}),
        (HTTPClient.edit_message, {"channel_id", "message_id", "params"}),
        (HTTPClient.send_message, {"channel_id", "params"}),
    ],
)
def test_the_request_builders_take_what_the_wire_gives(function: Any, used: set[str]) -> None:
    assert used <= keywords(function), f"{function.__qualname__} no longer takes {used - keywords(function)}"


def test_the_helpers_answer_on_this_version() -> None:
    assert isinstance(zstd_available(), bool)
    assert isinstance(colour_formatter(), logging.Formatter)


def test_the_private_attributes_exist() -> None:
    assert isinstance(async_context.get(), AsyncWebhookAdapter)
    assert {"_state", "_session"} <= set(discord.Interaction.__slots__)
    assert "_response_type" in discord.InteractionResponse.__slots__
    assert hasattr(discord.Client(intents=discord.Intents.none()), "_connection")
    # token_request's: the client's aiohttp session (set at login) and the reading of a spent bucket's reset
    loop = asyncio.new_event_loop()
    try:
        assert "_HTTPClient__session" in vars(HTTPClient(loop))
    finally:
        loop.close()
    assert callable(discord.utils._parse_ratelimit_header)


async def test_idle_buckets_are_forgotten_and_busy_ones_kept() -> None:
    client = discord.Client(intents=discord.Intents.none())
    http = client.http
    stop_bucket_scans(client)
    buckets = {f"route:{n}": http.get_ratelimit(f"route:{n}") for n in range(300)}
    assert len(http._buckets) == 300  # no scan on the new buckets past 256
    idle, in_flight, waiting, limited, recent = (buckets[f"route:{n}"] for n in range(5))
    now = idle._loop.time()
    for bucket in buckets.values():
        bucket._last_request = now - 60
    recent._last_request = now - 5
    in_flight.outgoing = 1
    waiting._pending_requests.append(idle._loop.create_future())
    limited.expires = now + 10  # Discord asked to wait: a fresh bucket would not know
    assert forget_idle_buckets(client, idle=30) == 296
    assert set(http._buckets.values()) == {in_flight, waiting, limited, recent}
    assert forget_idle_buckets(client, idle=1) == 1  # the recent one, once it too is idle long enough
    await client.close()


def private_uses(path: Path) -> list[str]:
    """Reads of discord.py's private names: ``discord.<...>._name`` anywhere, or a name discord.py keeps private on
    its objects (``PRIVATE``), outside ``self``/``cls``; and imports from discord.py's unexported modules."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in {"self", "cls"}:
                continue
            if not (PRIVATE.match(node.attr) or ast.unparse(owner).startswith("discord.")):
                continue
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith(("discord.http", "discord.webhook", "discord.state"))
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module}")
    return found


def test_nothing_else_uses_discord_internals() -> None:
    files = [ROOT / name for name in PRODUCT if name.endswith(".py")]
    files += [file for name in PRODUCT if not name.endswith(".py") for file in sorted((ROOT / name).rglob("*.py"))]
    assert [use for file in files for use in private_uses(file)] == []


def test_the_check_finds_a_private_use(tmp_path: Path) -> None:
    sample = ROOT / "tests" / "_private_sample.py"
    sample.write_text("import discord\nx = discord.utils._ColourFormatter()\ny = client._connection.parsers\n")
    try:
        assert len(private_uses(sample)) == 2
    finally:
        sample.unlink()
