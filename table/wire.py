"""Sending and editing messages whose reply nobody reads, without discord.py building a Message from that reply.

discord.py's ``edit``/``send`` turn Discord's answer (the whole message: author, embeds, components, interaction
metadata) into a ``Message`` object. The table's edits of boards, panels and DMs never look at it, and that object
cost more of the bot's CPU than composing the edit itself. These helpers make the same request, with the same
payload, rate-limit handling and errors (``discord.HTTPException`` and its kinds), and keep only what the caller needs:
nothing, or the new message's id.

They use discord.py's own request building (``handle_message_parameters``) and its two request paths: the webhook
adapter for an interaction's token (free of the bot's rate limits), the client's HTTP client for channel messages.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context


def _parameters(client: discord.Client, message: dict[str, Any]) -> Any:
    return handle_message_parameters(previous_allowed_mentions=client.allowed_mentions, **message)


async def edit_by_token(
    client: discord.Client, application_id: int, token: str, message_id: int, **message: Any
) -> None:
    """Edit a message an interaction posted, through that interaction's token (15 minutes)."""
    webhook = discord.Webhook.partial(application_id, token, client=client)
    with _parameters(client, message) as params:
        await async_context.get().edit_webhook_message(
            application_id,
            token,
            message_id,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            with_components=bool(message.get("view")),
        )


async def edit_in_channel(client: discord.Client, channel_id: int, message_id: int, **message: Any) -> None:
    """Edit one of the bot's messages in a channel or DM (one rate-limited request)."""
    with _parameters(client, message) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def send_in_channel(client: discord.Client, channel_id: int, **message: Any) -> int:
    """Post a message in a channel or DM; returns its id."""
    with _parameters(client, message) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])
