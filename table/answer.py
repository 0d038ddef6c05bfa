"""The one way an interaction is answered, correct in every state it can be in.

An interaction is *fresh* (nothing said yet: the response is free), *deferred* (we said "thinking" or "updating"
because the work took long: the answer goes out as a followup or as an edit of the original response), *answered*
(more messages are followups), or *expired* (15 minutes after it arrived its token is dead: nothing more can be said
through it). ``send`` posts a new message, ``update`` changes the message a button was clicked on; both pick the right
Discord call for the state. ``in_time`` defers a slow action before Discord's 3 seconds run out, counted from the
interaction's arrival (its id's time): on a busy bot an interaction may wait in the queue for a while before its
handler runs. An answer that still comes too late finds the token dead (``token_dead``): that is one warning in the
log, and nothing more is sent through it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import TypeAlias, TypeVar

import discord

from i18n import Text, _, render
from i18n.slash import reader_locale
from table.fit import fit
from table.wire import answer_with_message

log = logging.getLogger(__name__)

ViewT = TypeVar("ViewT", bound=discord.ui.View)
# Whatever bot client an interaction came to (the bot's own class in the cogs, a plain client in tests).
Interaction: TypeAlias = discord.Interaction[discord.Client]

# Discord drops an interaction not acknowledged within 3 s of its arrival; past this, defer first and answer with a
# followup. Half the budget: on a saturated bot the answer itself waits in the event loop before it goes out.
DEFER_AFTER_SECONDS = 1.5
# Discord's errors for a token that no longer answers: the 3 s passed unanswered ("Unknown interaction"), or the
# 15 minutes are over ("Invalid Webhook Token").
DEAD_TOKEN_CODES = frozenset({10062, 50027})
TOKEN_SECONDS = 15 * 60
MESSAGE_LIMIT = 2000  # characters Discord accepts in a message's content
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
# Mentions name people without notifying them; a message that must ping says whom, explicitly.
NO_PINGS = discord.AllowedMentions.none()
# interaction.extras keys: the deferral was ephemeral; the deferred "thinking" message was filled in; a deferral
# under way; an answer has begun (no deferral may start after it).
_DEFERRED_EPHEMERAL = "answer.deferred_ephemeral"
_FILLED = "answer.filled"
_DEFERRAL = "answer.deferral"
_ANSWERING = "answer.answering"


class UserError(Exception):
    """A request the bot refuses for reasons outside the rules (no game here, not the host, ...).

    Like ``engine.errors.GameError``, its ``text`` is the sentence the user sees, in their language; ``str()`` is the
    English, for the logs.
    """

    def __init__(self, text: Text) -> None:
        super().__init__(render(text, "en"))
        self.text = text


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clicked_message(interaction: Interaction) -> discord.Message | None:
    """The message whose button was clicked (None for a slash command)."""
    return interaction.message if interaction.type is discord.InteractionType.component else None


def token_dead(error: BaseException) -> bool:
    """Whether ``error`` (or the error it wraps) is Discord saying the interaction's token no longer answers."""
    seen: BaseException | None = error
    for _depth in range(3):  # a command's error wraps the handler's, which may wrap Discord's
        if seen is None:
            return False
        if isinstance(seen, discord.HTTPException):
            return seen.code in DEAD_TOKEN_CODES
        seen = getattr(seen, "original", None) or seen.__cause__
    return False


def age(interaction: Interaction) -> float:
    """Seconds since Discord created the interaction (its id is a timestamp). 0 when this machine's clock is behind
    Discord's, or so far off that the figure means nothing (past a token's 15 minutes)."""
    created = discord.utils.snowflake_time(interaction.id)
    seconds = (discord.utils.utcnow() - created).total_seconds()
    return seconds if 0 < seconds < TOKEN_SECONDS else 0.0


async def defer(interaction: Interaction, *, ephemeral: bool = False) -> None:
    """Acknowledge now, answer later. A click defers as an update of its own message (the answer may still be a new
    message); a command defers with a "thinking" (private if ``ephemeral``), which the first answer fills in."""
    if interaction.response.is_done():
        return
    if clicked_message(interaction) is not None:
        await interaction.response.defer()
    else:
        interaction.extras[_DEFERRED_EPHEMERAL] = ephemeral
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)


@asynccontextmanager
async def in_time(interaction: Interaction, *, ephemeral: bool = False) -> AsyncIterator[None]:
    """Defer the interaction if the work inside takes long (a busy database), so Discord never drops it: at
    ``DEFER_AFTER_SECONDS`` after its arrival, or at once, before the work, when it waited that long in the queue
    already (then a token that died meanwhile raises its ``discord.NotFound`` before anything is changed).
    ``ephemeral``: the answer will be private (a command's "thinking" is then private too). Nested uses share one
    deferral."""
    deferral: list[asyncio.Future[None]] = []

    def later() -> None:
        if interaction.response.is_done() or interaction.extras.get(_ANSWERING):
            return
        if interaction.extras.get(_DEFERRAL) is not None:
            return  # an enclosing in_time defers already
        task = asyncio.ensure_future(defer(interaction, ephemeral=ephemeral))
        interaction.extras[_DEFERRAL] = task
        deferral.append(task)

    delay = DEFER_AFTER_SECONDS - age(interaction)
    if delay <= 0 and not interaction.response.is_done() and interaction.extras.get(_DEFERRAL) is None:
        interaction.extras[_DEFERRAL] = asyncio.ensure_future(defer(interaction, ephemeral=ephemeral))
        await interaction.extras[_DEFERRAL]
    handle = asyncio.get_running_loop().call_later(max(delay, 0.0), later)
    try:
        yield
    finally:
        handle.cancel()
        for task in deferral:
            with suppress(discord.HTTPException):
                await task


async def before_change(interaction: Interaction) -> None:
    """Call right before committing what the interaction asked for: one that waited past ``DEFER_AFTER_SECONDS``
    (for a lock, in a queue) is deferred now, first, so that a token that died meanwhile raises its
    ``discord.NotFound`` before anything changes, and a live one can be answered for 15 minutes. A saved move is then
    never one the person's client showed as failed."""
    if interaction.response.is_done() or interaction.extras.get(_ANSWERING):
        return
    pending = interaction.extras.get(_DEFERRAL)
    if pending is None:
        if age(interaction) < DEFER_AFTER_SECONDS:
            return
        pending = interaction.extras[_DEFERRAL] = asyncio.ensure_future(defer(interaction))
    await pending


async def _settled(interaction: Interaction) -> None:
    """Before answering: no deferral may start from now on, and one under way has finished (else the two calls race
    for the interaction's one response)."""
    interaction.extras[_ANSWERING] = True
    pending = interaction.extras.get(_DEFERRAL)
    if pending is not None:
        try:
            await pending
        except discord.HTTPException as error:
            if token_dead(error):
                raise  # the deferral came too late: so would the answer, through the same dead token


async def send(interaction: Interaction, *, ephemeral: bool = False, **message: object) -> int | None:
    """Answer with a new message, whatever state the interaction is in. Returns its id when Discord says it.

    Raises ``discord.HTTPException`` when Discord refuses (an expired token: ``discord.NotFound``)."""
    message.setdefault("allowed_mentions", NO_PINGS)
    await _settled(interaction)
    response = interaction.response
    if not response.is_done():
        return await answer_with_message(interaction, ephemeral=ephemeral, **message)
    if response.type is discord.InteractionResponseType.deferred_channel_message and not interaction.extras.get(
        _FILLED
    ):
        interaction.extras[_FILLED] = True
        if ephemeral != interaction.extras.get(_DEFERRED_EPHEMERAL, False):
            # The first followup would fill the "thinking" in, as private or public as the thinking was: remove it, so
            # the answer comes as a new message of its own kind.
            with suppress(discord.HTTPException):
                await interaction.delete_original_response()
    posted = await interaction.followup.send(wait=True, ephemeral=ephemeral, **fit(message))
    return getattr(posted, "id", None)


async def update(interaction: Interaction, **message: object) -> None:
    """Change the message whose button was clicked, whatever state the interaction is in (a click only)."""
    fitted = fit(message)
    await _settled(interaction)
    response = interaction.response
    if not response.is_done():
        await response.edit_message(**fitted)
        return
    if response.type in (
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    ):
        await interaction.edit_original_response(**fitted)
        return
    clicked = clicked_message(interaction)
    if clicked is None or clicked.flags.ephemeral:
        raise discord.InteractionResponded(interaction)
    # Answered otherwise already: the clicked message is edited through the channel (one rate-limited request).
    channel = interaction.client.get_partial_messageable(clicked.channel.id)
    fitted.pop("allowed_mentions", None)
    await channel.get_partial_message(clicked.id).edit(**fitted)


@asynccontextmanager
async def committed(interaction: Interaction, done: Text) -> AsyncIterator[None]:
    """The answer to an action already committed: whatever Discord (or anything else) refuses inside, the person
    hears what was done (``done``: "You joined", "Your move was made"), never a refusal; the log says once what
    failed. A refused permission is named, with the channel where to grant it."""
    try:
        yield
    except Exception as error:
        channel = interaction.channel_id
        if token_dead(error):
            # Too late to say anything through this interaction; the board catches up at the next change or /board.
            log.warning("%s in channel %s, but the answer came too late: %s", render(done, "en"), channel, error)
            return
        log.warning("%s in channel %s, but showing it failed", render(done, "en"), channel, exc_info=True)
        if isinstance(error, discord.Forbidden):
            told = _(
                "{done}, but I couldn't update the message there: grant me View Channel, Send Messages and Embed "
                "Links in {channel}.",
                done=done,
                channel=f"<#{channel}>",
            )
        else:
            told = _("{done}, but showing it failed: use /board.", done=done)
        try:
            await send(interaction, content=render(told, reader_locale(interaction)), ephemeral=True)
        except discord.HTTPException:
            log.info("Could not tell the player in channel %s either", channel)


def detached(view: ViewT) -> ViewT:
    """``view`` ready to go under a message, stopped so discord.py keeps no per-message copy of it.

    Clicks are answered by the persistent instance (or dynamic items) registered at start-up, matched by custom
    id; storing every sent board as well would grow memory with every message for as long as the bot runs.
    """
    view.stop()
    return view
