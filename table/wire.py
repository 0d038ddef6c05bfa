"""Sending and editing messages whose reply nobody reads, without discord.py building a Message from that reply.

discord.py's ``edit``/``send`` turn Discord's answer (the whole message: author, embeds, components, interaction
metadata) into a ``Message`` object. The table's edits of boards, panels and DMs never look at it, and that object cost
more of the bot's CPU than composing the edit itself. These helpers make the same request, with the same payload (cut to
Discord's limits by ``table.fit``), rate-limit handling and errors (``discord.HTTPException`` and its kinds), and keep
only what the caller needs: nothing, or the new message's id. An edit whose connection was lost before Discord answered
is sent once more.

They use discord.py's own request building (through ``discord_internals``, the one module that touches discord.py's
private names) and two request paths: for an interaction's token (outside the bot's global rate limit; per-route
limits apply), ``discord_internals.token_request`` on the client's aiohttp session, with the rate-limit handling of
discord.py's webhook adapter; for channel messages, the client's HTTP client.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

import aiohttp
import discord
from discord.utils import MISSING

import discord_internals as internals
from table.fit import fit

# A message to send or an edit to make: the keyword arguments of discord.py's send and edit calls.
Message: TypeAlias = dict[str, Any]

log = logging.getLogger(__name__)


def _parameters(client: discord.Client, message: Message) -> internals.Parameters:
    return internals.message_parameters(client, fit(message))


async def _once_more_if_lost(edit: Callable[[], Awaitable[None]], message: Message) -> None:
    """Make an edit, and once more if the connection was lost under it.

    Discord (or a proxy) closes kept-alive connections now and then; a request that goes out on one just then gets no
    answer, and aiohttp raises (discord.py retries only answers it got). An edit that arrives twice shows the same
    thing, so it is safe to send again; a new message is not (it could be posted twice)."""
    try:
        await edit()
    except aiohttp.ClientConnectionError as error:
        log.info("The connection to Discord was lost under an edit (%s); sending it once more", error)
        for file in [message.get("file"), *message.get("attachments", ())]:
            if isinstance(file, discord.File):
                file.reset()  # read from the start again
        await edit()


async def edit_by_token(
    client: discord.Client, application_id: int, token: str, message_id: int | str, **message: object
) -> None:
    """Edit a message an interaction posted, through that interaction's token (15 minutes); ``"@original"`` for its
    original response, the only way a click's token reaches the message clicked."""

    async def edit() -> None:
        with _parameters(client, message) as params:
            await internals.edit_by_token(
                client, application_id, token, message_id, params, with_components=bool(message.get("view"))
            )

    await _once_more_if_lost(edit, message)


async def edit_in_channel(client: discord.Client, channel_id: int, message_id: int, **message: object) -> None:
    """Edit one of the bot's messages in a channel or DM (one rate-limited request)."""

    async def edit() -> None:
        with _parameters(client, message) as params:
            await internals.edit_in_channel(client, channel_id, message_id, params)

    await _once_more_if_lost(edit, message)


async def send_in_channel(client: discord.Client, channel_id: int, **message: object) -> int:
    """Post a message in a channel or DM; returns its id."""
    with _parameters(client, message) as params:
        return await internals.send_in_channel(client, channel_id, params)


# What an answer may carry to go the lean way; anything else takes discord.py's own call.
_ANSWER_KEYS = frozenset({"content", "embed", "embeds", "file", "files", "view", "allowed_mentions"})


async def answer_with_message(
    interaction: discord.Interaction[discord.Client], *, ephemeral: bool, **message: object
) -> int | None:
    """``interaction.response.send_message(...)``: the same request, but without the ``InteractionCallbackResponse``
    and the ``Message`` discord.py would build from Discord's reply (2.7% of the bot's CPU under ``load.py``, a
    fifth of what an answer costs); the new message's id. A view still listening (not ``detached``) takes
    discord.py's own call, which keeps it."""
    fitted = fit(message)
    view = fitted.get("view")
    if not fitted.keys() <= _ANSWER_KEYS or (view is not None and view is not MISSING and not view.is_finished()):
        sent = await interaction.response.send_message(ephemeral=ephemeral, **fitted)
        return sent.message_id
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    data = await internals.respond_with_message(interaction, ephemeral=ephemeral, **fitted)
    message_id = data.get("interaction", {}).get("response_message_id")
    return int(message_id) if message_id is not None else None
