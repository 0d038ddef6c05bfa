"""The one error path of every command and button, and the check every game command shares."""

from __future__ import annotations

import logging
import math
from typing import Any

import discord
from discord import app_commands

from engine.errors import GameError
from i18n import Text, _, _n, render
from storage import StorageBusy, StorageUnavailable
from table.answer import MESSAGE_LIMIT, Interaction, UserError, send, shorten, token_dead
from table.preferences import preferences_of

log = logging.getLogger(__name__)

APOLOGY = _("Sorry, something went wrong on my side. Nothing was changed; please try again.")


class Refused(app_commands.CheckFailure):
    """A check that refuses a command before it runs, with the sentence the user reads; a check failure, so it
    reaches the tree's one error handler."""

    def __init__(self, text: Text) -> None:
        super().__init__(render(text, "en"))
        self.text = text


class WrongChannel(Refused):
    """A command used where games aren't played."""


def error_text(error: BaseException) -> Text | None:
    """The friendly sentence for an error the user caused, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError | UserError | Refused):
        return error.text
    if isinstance(error, StorageBusy | StorageUnavailable):
        # A database that can't be written (read-only, a full disk) is the owner's to fix (the log says how); for
        # the user it is busy, and nothing was written.
        return _("The database is busy right now; please try again in a moment. Nothing was changed.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works in a server's text channel, not in direct messages.")
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the Manage Channels permission (or to be the host) for that.")
    if isinstance(error, app_commands.BotMissingPermissions):
        # Discord's own permission names, as its settings show them in English.
        missing = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
        return _(
            "I'm missing a permission in this channel: {permissions}. Ask a server admin to grant it.",
            permissions=missing,
        )
    if isinstance(error, app_commands.TransformerError):
        # Never echo unbounded input back: Discord refuses messages over 2,000 characters.
        return _("That value isn't valid for this option: {value}.", value=shorten(repr(error.value)))
    if isinstance(error, app_commands.CommandOnCooldown):
        return _n(
            "Slow down a little: try again in {count} second.",
            "Slow down a little: try again in {count} seconds.",
            max(1, math.ceil(error.retry_after)),  # never "in 0 seconds"
        )
    if isinstance(error, app_commands.CheckFailure):
        return _("You can't use this command here.")
    if isinstance(error, discord.Forbidden):
        return _("Discord refused me a permission I need in this channel. Ask a server admin to check my role.")
    return None


def error_message(error: BaseException, locale: str | None = None) -> str | None:
    """``error_text`` in ``locale`` (the reader's; None: English)."""
    text = error_text(error)
    return None if text is None else render(text, locale)


async def reply_error(interaction: Interaction, error: BaseException) -> None:
    """Answer ``interaction`` ephemerally, in the user's language, with what went wrong; log bugs with their
    traceback once."""
    where = interaction.command.qualified_name if interaction.command else interaction.data
    if token_dead(error):
        # Answered after Discord's 3 s (a queue on a busy bot): nothing more can go through this token.
        log.warning("The answer to %s in channel %s came too late: %s", where, interaction.channel_id, error)
        return
    original = getattr(error, "original", error)
    if isinstance(original, StorageUnavailable):
        log.error("%s (channel %s)", original, interaction.channel_id)
    # Only the person who acted reads it: in the language they chose (/me), else their Discord's.
    locale = preferences_of(interaction.user.id).language or interaction.locale.value
    message = error_message(error, locale)
    if message is None:
        log.error("Unexpected error in %s (channel %s)", where, interaction.channel_id, exc_info=original)
        message = render(APOLOGY, locale)
    try:
        # Private whatever the interaction's state (a public "thinking..." of a deferral is taken away first). A
        # refusal may quote what the user typed: never past Discord's limit, or the user hears nothing at all.
        await send(interaction, content=shorten(message, MESSAGE_LIMIT), ephemeral=True)
    except discord.HTTPException as failed:
        if token_dead(failed):
            log.warning("The answer to %s in channel %s came too late: %s", where, interaction.channel_id, failed)
        else:
            # Discord is unreachable, or refused: the log is all we have.
            log.warning("Could not tell the user about an error in channel %s: %s", interaction.channel_id, failed)


class BadOption(Refused):
    """An option value the command does not accept (a modified client or an out-of-date command list sent it)."""


def given_options(interaction: Interaction) -> dict[str, Any]:
    """The options the interaction carries for the command it runs (inside its subcommand, if any)."""
    data: dict[str, Any] = dict(interaction.data or {})
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): its options are one level down
        options = list(options[0].get("options") or [])
    return {str(o["name"]): o.get("value") for o in options}


def check_options(interaction: Interaction) -> bool:
    """Refuse values outside what the command declares: the wrong type (a string for a true/false option), a number
    out of range, a value not among the choices. Discord's own client never sends them; anybody else may."""
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command:
        return True  # autocomplete sends what is typed so far, a word for a number too: that is its job
    if not isinstance(command, app_commands.Command):
        return True
    given = given_options(interaction)
    for parameter in command.parameters:
        if parameter.name not in given or given[parameter.name] is None:
            continue
        value = given[parameter.name]
        kind = parameter.type
        if kind is discord.AppCommandOptionType.boolean:
            fits = isinstance(value, bool)
        elif kind is discord.AppCommandOptionType.integer:
            fits = isinstance(value, int) and not isinstance(value, bool)
        elif kind is discord.AppCommandOptionType.number:
            fits = isinstance(value, int | float) and not isinstance(value, bool)
        elif kind is discord.AppCommandOptionType.string:
            fits = isinstance(value, str)
        else:
            continue  # users, channels, roles: Discord resolves them itself
        if fits and isinstance(value, int | float) and not isinstance(value, bool):
            low, high = parameter.min_value, parameter.max_value
            fits = (low is None or value >= low) and (high is None or value <= high)
            if not fits:
                raise BadOption(
                    _(
                        "{option} must be from {low} to {high}; {value} isn't.",
                        option=parameter.display_name,
                        low="…" if low is None else low,
                        high="…" if high is None else high,
                        value=shorten(repr(value)),
                    )
                )
        if fits and parameter.choices and not parameter.autocomplete:
            fits = value in {choice.value for choice in parameter.choices}
        if not fits and kind is discord.AppCommandOptionType.boolean:
            raise BadOption(
                _("The option {option} is either true or false.", option=parameter.display_name.replace("_", " "))
            )
        if not fits:
            raise BadOption(
                _(
                    "That value isn't valid for the option {option}: {value}.",
                    option=parameter.display_name,
                    value=shorten(repr(value)),
                )
            )
    return True


# A thread (a forum post too) is a channel of its own for a game; a voice channel's chat is not a table.
TEXT_CHANNELS = (
    discord.ChannelType.text,
    discord.ChannelType.news,
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def in_text_channel(interaction: Interaction) -> bool:
    """The check every game command shares: a server's text channel or thread, never DMs."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    kind = getattr(interaction.channel, "type", None)
    if kind is not None and kind not in TEXT_CHANNELS:  # an unknown type is given the benefit of the doubt
        raise WrongChannel(
            _("Games are played in a server's text channels and threads; this kind of channel doesn't work.")
        )
    return True


async def admitted(interaction: discord.Interaction[Any]) -> bool:
    """Wait for the bot to have room for ``interaction`` (``table.admission``): the first thing every handler does.
    False when it came too late to be answered."""
    tables = getattr(interaction.client, "tables", None)
    return tables is None or await tables.admission.admit(interaction)


class Admitted:
    """Base of every button's class: a click waits its turn like a command (``GameTree``)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)


class ErrorHandlingView(Admitted, discord.ui.View):
    """Base of every persistent board: no timeout, errors go down the one error path, clicks wait their turn."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await reply_error(interaction, error)
