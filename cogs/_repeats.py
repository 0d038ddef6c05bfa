"""A double click: both clicks leave before the first answer comes back, the first is made and the second is refused
("You don't hold that card.", "It's not your turn.", "That board is out of date"). The person did nothing wrong, so
the second click is answered as the first was: their panel as it is now, or a silent acknowledgement on a board.
"""

from __future__ import annotations

import time
from typing import Any

import discord

from cogs._types import Interaction
from engine.errors import GameError
from table.answer import UserError, clicked_message

# The second click of a double click arrives within a second; a queue behind a slow table may hold it a few more.
REPEAT_SECONDS = 10.0
MAX_REMEMBERED = 10_000  # people who clicked lately; older notes are dropped past this many


# (channel, user) -> the message clicked, the move it made and when: what a second click of the same button repeats.
_made: dict[tuple[int, int], tuple[int, Any, float]] = {}


def _note(interaction: Interaction, action: Any, channel_id: int | None) -> None:
    clicked = clicked_message(interaction)
    if clicked is None or channel_id is None:
        return
    now = time.monotonic()
    if len(_made) > MAX_REMEMBERED:
        for key in [key for key, (_id, _action, when) in _made.items() if now - when > REPEAT_SECONDS]:
            del _made[key]
    _made[(channel_id, interaction.user.id)] = (clicked.id, action, now)


async def just_made(interaction: Interaction, action: Any, kind: str, channel_id: int | None) -> int | None:
    """The id of the game where the interaction's user made ``action`` as their latest move a moment ago, with a
    click on the same message, no other person acting since (a double click's second click); None otherwise."""
    clicked = clicked_message(interaction)
    if interaction.type is not discord.InteractionType.component or channel_id is None or not clicked:
        return None
    user = interaction.user.id
    made = _made.get((channel_id, user))
    if made is None or made[0] != clicked.id or made[1] != action or time.monotonic() - made[2] > REPEAT_SECONDS:
        return None
    tables = interaction.client.tables
    try:
        live, _presenter = await tables.games.running(channel_id, kind)
    except (GameError, UserError):
        return None  # the game ended meanwhile: the refusal says so
    if not tables.games.last_to_act(live.record.id, user, REPEAT_SECONDS):
        return None
    mine = [step for step in (*live.previous, *live.turn) if step.player == user]
    return live.record.id if mine and mine[-1].action == action else None


async def act_once(interaction: Interaction, action: Any, kind: str, **where: Any) -> None:
    """``Table.act``, except that a click repeating the move it just made is answered as the first was."""
    tables = interaction.client.tables
    # A DM panel's click names the game's channel (``where["channel"]``); any other click is in it.
    channel_id = where.get("channel") or interaction.channel_id
    try:
        await tables.act(interaction, action, kind=kind, **where)
    except (GameError, UserError):
        game = await just_made(interaction, action, kind, channel_id)
        if game is None:
            await redraw_if_behind(interaction, kind, where)
            raise
        clicked = clicked_message(interaction)
        if clicked is not None and clicked.flags.ephemeral:
            await tables.show_panel(interaction, kind, game=game, page=where.get("page"))
        elif not interaction.response.is_done():
            await interaction.response.defer()  # the board already shows the move: nothing to refuse
        return
    _note(interaction, action, channel_id)


async def redraw_if_behind(interaction: Interaction, kind: str, where: dict[str, Any]) -> None:
    """A refused click on a private panel the bot could not keep current (its token died, the bot restarted): the
    panel is first redrawn as the game is now, in place, so it shows no old position as the current one; the refusal
    follows it."""
    clicked, game = clicked_message(interaction), where.get("game")
    if clicked is None or not clicked.flags.ephemeral or game is None:
        return
    tables = interaction.client.tables
    if tables.panels.following(game, interaction.user.id, clicked.id):
        return  # kept current: it already shows the game as it is
    try:
        await tables.show_panel(interaction, kind, game=game, page=where.get("page"))
    except (GameError, UserError):
        return  # a panel of an earlier game, or no game any more: the refusal says so
