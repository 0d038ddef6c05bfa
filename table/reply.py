"""The answer to the person who acted: planned by one pure function of the move, sent by one part.

``reply_plan`` decides, from the Transition, where the action came from (the board's button, a private panel's, a
command, a DM panel) and whether the board goes up anew, what the answer does: update the clicked message (to the new
board, to the shrunk old board, to the mover's panel, or to the mover's DM panel), post the new board, edit the board
on show in place, send the mover a private panel. ``Replies.answer`` carries it out, in the one order that keeps
boards in sequence, and keeps the panel it showed current from then on (``Panels.opened``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import Enum
from typing import Literal

import discord

from i18n import _, lines, render
from table.answer import Interaction, clicked_message, send, update
from table.boards import BoardHandle, Boards, pings
from table.courier import Courier, dm_panel_of
from table.panels import Panels
from table.transition import Transition
from table.wire import Message

log = logging.getLogger(__name__)


class Source(Enum):
    """What the person acted from."""

    BOARD = "board"
    PANEL = "panel"
    COMMAND = "command"
    DM = "dm"  # the player's DM panel (``Registration.dm_panel``): no guild, not the game's channel


@dataclass(frozen=True, slots=True)
class ReplyPlan:
    """What the answer to an action does. ``clicked``: what the clicked message becomes (the board itself, the old
    board shrunk to its line of the log, or the mover's panel). ``post_board``: the new board goes up as the answer;
    ``edit_board``: the board on show is edited in place. ``panel``: a private panel sent as a new message, the
    answer's own ("ack": it opens with the move) or a followup under a new board ("after": what is left in hand)."""

    clicked: Literal["board", "shrunk", "panel", "dm"] | None
    post_board: bool
    edit_board: bool
    panel: Literal["ack", "after"] | None


def reply_plan(moved: Transition, source: Source, fresh: bool) -> ReplyPlan:
    """The answer to ``moved``, made from ``source``, when the board it leaves goes up anew (``fresh``) or not."""
    if source is Source.DM:
        # The DM shows the hand again; the board is in the channel, where the DM's answer cannot post.
        return ReplyPlan("dm", post_board=fresh, edit_board=not fresh, panel=None)
    if not fresh:
        if source is Source.BOARD:
            return ReplyPlan("board", post_board=False, edit_board=False, panel=None)
        if source is Source.PANEL:
            return ReplyPlan("panel", post_board=False, edit_board=True, panel=None)
        return ReplyPlan(None, post_board=False, edit_board=True, panel="ack")
    clicked: Literal["shrunk", "panel"] | None = (
        "shrunk" if source is Source.BOARD else "panel" if source is Source.PANEL else None
    )
    after = source is Source.COMMAND and not moved.ended
    after = after and moved.presenter.show_after(moved.before, moved.after, moved.by, moved.action)
    return ReplyPlan(clicked, post_board=True, edit_board=False, panel="after" if after else None)


async def original_id(interaction: Interaction) -> int | None:
    """The id of the message that answered ``interaction`` (one request on its token, outside the global rate limit)."""
    try:
        return (await interaction.original_response()).id
    except discord.HTTPException:
        return None


@dataclass(frozen=True, slots=True)
class Asked:
    """Who asked, and how their panel looks: the page a panel's button asked for, and the reader's language."""

    interaction: Interaction
    page: str | None
    locale: str


# How long the board waits before showing a lay made from a DM, counted from the player's latest lay: longer than a
# player takes for their next card and End turn, so a turn played at a person's pace costs no edit before its end.
BOARD_SETTLE_SECONDS = 8.0

# What opens the fresh panel sent to a player whose panel could no longer follow the game.
FRESH = _("Your earlier panel could no longer follow the game; this one does:")

# The panel an answer carries: its message id (None: unknown), its page, and the move count it shows.
Shown = tuple[int | None, str | None, int]


class Replies:
    def __init__(self, boards: Boards, panels: Panels, courier: Courier) -> None:
        self.boards = boards
        self.panels = panels
        self.courier = courier
        self.board_settle_seconds = BOARD_SETTLE_SECONDS
        self._showing: dict[int, asyncio.Task[None]] = {}  # game id -> the board edit waiting for the player to pause

    def source(self, interaction: Interaction, moved: Transition) -> Source:
        clicked = clicked_message(interaction)
        if clicked is None:
            return Source.COMMAND
        if interaction.guild_id is None and dm_panel_of(moved.live.record) is not None:
            return Source.DM
        return Source.BOARD if self.boards.is_board_click(interaction, moved.live.record) else Source.PANEL

    async def answer(self, asked: Asked, moved: Transition) -> None:
        """Answer the action that made ``moved`` (committed already): the plan, carried out; then the panel the answer
        carries becomes the mover's live panel."""
        boards = self.boards
        board, fresh, shrunk = boards.after(moved, record_line=await boards.record_line(moved))
        plan = reply_plan(moved, self.source(asked.interaction, moved), fresh)
        if plan.clicked == "dm":
            await self._update_dm(asked, moved)
            if plan.post_board:
                await boards.put_up(moved, board, shrunk)
            else:
                self._show_soon(moved, board)
            return
        if plan.post_board:
            shown = await self._new_board(asked, moved, plan, board, shrunk)
        else:
            shown = await self._in_place(asked, moved, plan, board)
        if shown is None and self.panels.stale(moved.live.record.id, moved.by):
            shown = await self._fresh_panel(asked, moved)
        if shown is not None:
            message_id, page, position = shown
            await self.panels.opened(asked.interaction, moved.live, moved.by, message_id, page, asked.locale, position)

    async def _in_place(self, asked: Asked, moved: Transition, plan: ReplyPlan, board: Message) -> Shown | None:
        shown = None
        if plan.clicked == "board":
            await update(asked.interaction, **board)  # the clicked board itself: the click's own answer
        elif plan.clicked == "panel":
            shown = await self._update_panel(asked, moved)
        if plan.panel == "ack":
            shown = await self._send_panel(asked, moved, ack=True)
        if plan.edit_board:
            await self.boards.show_in_place(moved, board)
        return shown

    async def _new_board(
        self, asked: Asked, moved: Transition, plan: ReplyPlan, board: Message, shrunk: Message | None
    ) -> Shown | None:
        boards, interaction, live = self.boards, asked.interaction, moved.live
        shown = None
        async with boards.turn(live.record.id):
            # The old board shrinks to its line of the log before the new one goes below: never two live boards.
            if plan.clicked == "shrunk":
                await update(interaction, **(shrunk or {"view": None}))  # the clicked board itself
            else:
                if plan.clicked == "panel":
                    shown = await self._update_panel(asked, moved)
                await boards.retire(live.record, live.record.message_id, shrunk)
            posted = await send(interaction, allowed_mentions=pings(moved, boards.at_the_keyboard), **board)
            handle = BoardHandle.of(interaction, posted or 0)
            if plan.panel == "after" and not self.panels.stale(live.record.id, moved.by):
                await self._send_panel(asked, moved, ack=False)  # (a stale panel's owner gets a fresh one instead)
            await boards.moved(live, handle.message_id, handle)
        await boards.show_picture(moved, board, handle.message_id)
        return shown

    async def _update_panel(self, asked: Asked, moved: Transition) -> Shown:
        """The clicked panel shows the move, then the page its button asked for; it stays the mover's live panel."""
        live, page = moved.live, asked.page
        position = moved.presenter.game.move_count(live.state)
        await update(
            asked.interaction, **self.panels.compose(live, moved.presenter, moved.by, page, asked.locale, True)
        )
        clicked = clicked_message(asked.interaction)
        return (clicked.id if clicked is not None else None), page, position

    def _show_soon(self, moved: Transition, board: Message) -> None:
        """The board shows a move made from a DM once the player pauses: with no interaction in the channel, each board
        edit spends the global rate limit, so a lay the same player follows up (the turn's next card, its end) is shown
        by that later move's edit, or by the new board the turn's end posts (``Boards.show_in_place`` leaves a board
        alone once a later move is on show). Each lay starts the wait anew."""
        game = moved.live.record.id

        async def show() -> None:
            await asyncio.sleep(self.board_settle_seconds)
            try:
                await self.boards.show_in_place(moved, board)
            except Exception:
                log.warning("Could not show a move of game %s on its board", game, exc_info=True)
            finally:
                if self._showing.get(game) is task:
                    del self._showing[game]

        waiting = self._showing.get(game)
        if waiting is not None:
            waiting.cancel()
        task = self._showing[game] = asyncio.ensure_future(show())

    def close(self) -> None:
        for task in self._showing.values():
            task.cancel()

    async def _update_dm(self, asked: Asked, moved: Transition) -> None:
        """The clicked DM shows the hand again with what the move did (or the page its button asked for); when that is
        what the courier was to deliver, it is recorded as delivered."""
        live, interaction = moved.live, asked.interaction
        panel = dm_panel_of(live.record)
        assert panel is not None  # the source is a DM panel only where the game has one
        message = panel(live.record, live.state, moved.by, asked.page, asked.locale, moved.step)
        await update(interaction, **message)
        clicked = clicked_message(interaction)
        if clicked is not None and asked.page is None:
            await self.courier.shown_by_answer(live, moved.by, clicked.id, str(message.get("content", "")))

    async def _send_panel(self, asked: Asked, moved: Transition, *, ack: bool) -> Shown | None:
        """The mover's panel as a new private message, kept current through the interaction's token: its own answer,
        or (``ack``) the answer a queue deferred on a busy bot. A panel below a new board, the answer's second
        message, goes without buttons: the board is where the turn goes on."""
        interaction, live = asked.interaction, moved.live
        own = not interaction.response.is_done()
        kept = own or ack
        page = asked.page if ack else None
        position = moved.presenter.game.move_count(live.state)
        message = self.panels.compose(live, moved.presenter, moved.by, page, asked.locale, ack)
        if not kept:
            message.pop("view", None)
        sent = await send(interaction, ephemeral=True, **message)
        if not kept:
            return None
        if sent is None and own:
            sent = await original_id(interaction)
        return sent, page, position

    async def _fresh_panel(self, asked: Asked, moved: Transition) -> Shown | None:
        """A fresh panel for a player whose live panel Discord would no longer let the bot edit (it may show an old
        position): a private message of this answer's, so its token keeps it current from now on."""
        interaction, live = asked.interaction, moved.live
        own = not interaction.response.is_done()
        message = self.panels.compose(live, moved.presenter, moved.by, None, asked.locale, False)
        message["content"] = render(lines(FRESH, message["content"]), asked.locale)
        sent = await send(interaction, ephemeral=True, **message)
        if sent is None and own:
            sent = await original_id(interaction)
        return sent, None, moved.presenter.game.move_count(live.state)
