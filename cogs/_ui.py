"""The one error path, and the few helpers every cog uses to answer an interaction."""

from __future__ import annotations

import logging
from contextlib import suppress
from typing import Any, TypeVar

import discord
from discord import app_commands

from engine.errors import GameError
from storage import StorageBusy

log = logging.getLogger(__name__)

ViewT = TypeVar("ViewT", bound=discord.ui.View)

NO_GAME = "There's no game in this channel: open one with /newgame."
APOLOGY = "Sorry, something went wrong on my side. Nothing was changed; please try again."
MESSAGE_LIMIT = 2000  # characters Discord accepts in a message's content
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
# Mentions name people without notifying them; a message that must ping says whom, explicitly.
NO_PINGS = discord.AllowedMentions.none()


class UserError(Exception):
    """A request the bot refuses for reasons outside the rules (no game here, not the host, ...).

    Like ``GameError``, its message is the sentence the user sees.
    """


class DMsClosed(Exception):
    """The user does not accept direct messages from the bot (Discord's error 50007)."""


class WrongChannel(app_commands.CheckFailure):
    """A command used where games aren't played; a check failure, so it reaches the tree's one error handler."""


def error_message(error: BaseException) -> str | None:
    """The friendly sentence for an error the user caused, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError | UserError):
        return str(error)
    if isinstance(error, StorageBusy):
        return "The database is busy right now; please try again in a moment. Nothing was changed."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works in a server's text channel, not in direct messages."
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Channels permission (or to be the host) for that."
    if isinstance(error, app_commands.BotMissingPermissions):
        missing = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
        return f"I'm missing a permission in this channel: {missing}. Ask a server admin to grant it."
    if isinstance(error, app_commands.TransformerError):
        # Never echo unbounded input back: Discord refuses messages over 2,000 characters.
        return f"That value isn't valid for this option: {shorten(repr(error.value))}."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use this command here."
    if isinstance(error, discord.Forbidden):
        return "Discord refused me a permission I need in this channel. Ask a server admin to check my role."
    return None


async def reply_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` ephemerally with what went wrong; log bugs with their traceback once."""
    message = error_message(error)
    if message is None:
        original = getattr(error, "original", error)
        log.error(
            "Unexpected error in %s (channel %s)",
            interaction.command.qualified_name if interaction.command else interaction.data,
            interaction.channel_id,
            exc_info=original,
        )
        message = APOLOGY
    try:
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # A slow action was deferred with a public "thinking..." that the first followup would fill in: take it
            # away, so that the refusal stays private like every other.
            with suppress(discord.HTTPException):
                await interaction.delete_original_response()
        # A refusal may quote what the user typed: never past Discord's limit, or the user hears nothing at all.
        await send(interaction, content=shorten(message, MESSAGE_LIMIT), ephemeral=True)
    except discord.HTTPException:
        # The interaction token may have expired (15 min) or Discord is unreachable: the log is all we have.
        log.warning("Could not tell the user about an error in channel %s", interaction.channel_id)


async def send(interaction: discord.Interaction[Any], **kwargs: Any) -> int | None:
    """Answer with the interaction's response if it is still free, else with a followup (both cost no rate limit).
    Returns the id of the message sent, when Discord says it."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        message = await interaction.followup.send(wait=True, **kwargs)
        return getattr(message, "id", None)
    response = await interaction.response.send_message(**kwargs)
    return getattr(response, "message_id", None)


TEXT_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news)


def in_text_channel(interaction: discord.Interaction[Any]) -> bool:
    """The check every game command shares: a server's text channel, never DMs."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    kind = getattr(interaction.channel, "type", None)
    if kind is not None and kind not in TEXT_CHANNELS:  # an unknown type is given the benefit of the doubt
        raise WrongChannel("Games are played in a server's text channels; this kind of channel doesn't work.")
    return True


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# Computer players sit under negative ids (Discord's are positive); their names say what they are.
AI_NAMES = ("Bot Ada", "Bot Grace", "Bot Alan", "Bot Edsger", "Bot Barbara", "Bot Donald", "Bot Hedy")


def is_ai(player: int) -> bool:
    return player < 0


def ai_seat_id(number: int) -> int:
    """The id of the ``number``-th computer player at a table (0 for the first)."""
    return -(number + 1)


def mention(user_id: int) -> str:
    if is_ai(user_id):
        return f"**{AI_NAMES[(-user_id - 1) % len(AI_NAMES)]}**"
    return f"<@{user_id}>"


def detached(view: ViewT) -> ViewT:
    """``view`` ready to go under a message, stopped so discord.py keeps no per-message copy of it.

    Clicks are answered by the persistent instance (or dynamic items) registered at start-up, matched by custom
    id; storing every sent board as well would grow memory with every message for as long as the bot runs.
    """
    view.stop()
    return view


class ErrorHandlingView(discord.ui.View):
    """Base of every persistent board: no timeout, errors go down the one error path."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await reply_error(interaction, error)
