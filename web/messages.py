"""What a page's WebSocket messages ask for: a move, a hint, a vote, leaving, a step of the replay, a fresh state.

Each is checked exactly as for a click (who may ask, whether it is a move of this game, the per-player rate limit)
and answered on the one error path: a refusal in words to that page, a bug logged once and apologised for.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs._ui import APOLOGY, error_text
from cogs.the_game_panel import hint_text
from engine import no_thanks, the_game
from i18n import Text, _, render
from storage import GameRecord
from table.flow import Table
from table.lobby import YOU_LEFT_TO_AUTOPILOT
from table.registry import GAMES
from table.votes import VOTE_KINDS, vote_target
from web.live import SPECTATOR, LivePages, Page
from web.page import plain
from web.replay import Replays, replayable

log = logging.getLogger(__name__)

# Moves per player: a burst of this many, then this many a second (a fast turn lays a few cards in a second).
BURST, PER_SECOND = 8, 4.0
SLOW_DOWN = _("Slow down: too many moves at once. Try again in a moment.")
NOT_A_MOVE = _("That move isn't possible here.")
WATCHING = _("You are watching this table: only the players can move.")
NOT_OVER = _("That game isn't over yet: its replay opens when it ends.")
TODAYS_DEAL_CLOSED = _("Today's daily deal: its replay opens tomorrow (UTC).")
NO_SUCH_VOTE = _("There is no vote on that player now: the table votes only on the player to move who missed a turn.")


@dataclass
class Bucket:
    """A player's allowance of moves (a token bucket): ``BURST`` at once, then ``PER_SECOND``."""

    tokens: float = BURST
    refilled: float = field(default_factory=time.monotonic)

    def take(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def action_of(kind: str, message: dict[str, Any], state: Any = None, player: int = 0) -> Any:
    """The engine action a page's message asks for, or None if it is no move of this game. A signal tapped again
    comes down, as on the panel: decided on ``state``, the game as it is now."""
    op = message.get("op")
    if kind == the_game.INFO.kind and op == "signal":
        signal, pile = message.get("kind"), message.get("pile")
        if signal not in (*the_game.SIGNALS, the_game.CLEAR) or (pile is not None and pile not in the_game.PILES):
            return None
        if signal in the_game.PLAYER_SIGNALS or signal == the_game.CLEAR:
            pile = None
        elif pile is None:
            return None
        raised = state is not None and any(
            m.player == player and (m.kind, m.pile) == (signal, pile) for m in state.signals
        )
        return the_game.Signal(the_game.CLEAR if raised else str(signal), pile)
    if kind == the_game.INFO.kind:
        card, pile = message.get("card"), message.get("pile")
        if op == "play" and isinstance(card, int) and not isinstance(card, bool) and pile in the_game.PILES:
            return the_game.Play(card, pile)
        if op == "end":
            return the_game.EndTurn()
    elif kind == no_thanks.INFO.kind:
        if op == "take":
            return no_thanks.Take()
        if op == "pass":
            return no_thanks.NoThanks()
    return None


class Messages:
    """Answers what one page's WebSocket message asks for, on behalf of its player (or spectator), and keeps each
    player's allowance of moves (one per player and game, however many pages they have open)."""

    def __init__(self, client: discord.Client, tables: Table, live: LivePages, replays: Replays) -> None:
        self.client, self.tables, self.live, self.replays = client, tables, live, replays
        self._buckets: dict[tuple[int, int], Bucket] = {}

    @staticmethod
    def _key(page: Page) -> tuple[int, int]:
        """Whose allowance a page spends: its player's (however many pages they have open); each spectator's own."""
        return (page.game_id, page.player if page.player != SPECTATOR else -id(page))

    def _may(self, page: Page) -> bool:
        return self._buckets.setdefault(self._key(page), Bucket()).take(time.monotonic())

    def forget(self, page: Page) -> None:
        """Drop the allowance a page spent, once no page of its player (or this spectator page) is open."""
        self._buckets.pop(self._key(page), None)

    async def answer(self, page: Page, record: GameRecord, data: str) -> None:
        """A page's message, on the one error path: a refusal in words, a bug logged once and apologised for (the
        page stays connected either way)."""
        try:
            await self._on_message(page, record, data)
        except Exception as error:
            refusal = error_text(error)
            if refusal is None:
                log.exception("A message from the web table failed in game %s", record.id)
                refusal = APOLOGY
            if not page.ws.closed:
                await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})

    async def _on_message(self, page: Page, record: GameRecord, data: str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return
        if message.get("op") == "sync":  # a page that thinks it missed something
            await self.live.send(page, await self.live.current(record))
            return
        if message.get("op") == "replay":
            await self._replay(page, record, message.get("turn"))
            return
        if message.get("op") == "hint":
            await self._hint(page, record)
            return
        if message.get("op") == "vote":
            await self._vote(page, record, message.get("kind"), message.get("target"))
            return
        if message.get("op") == "leave":  # confirmed on the page by a second tap
            await self._leave(page, record)
            return
        state = None
        if message.get("op") == "signal":
            current = await self.live.current(record)
            state = getattr(current, "state", current)
        action = action_of(record.kind, message, state, page.player)
        refusal: Text | None = None
        if page.player == SPECTATOR:
            refusal = WATCHING
        elif action is None:
            refusal = NOT_A_MOVE
        elif not self._may(page):
            refusal = SLOW_DOWN
        else:
            await self.tables.act_for(record.channel_id, page.player, action, game=record.id)
        if refusal is not None and not page.ws.closed:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})

    async def _leave(self, page: Page, record: GameRecord) -> None:
        """Leave, as /leave does: the lobby decides (at a competitive table the autopilot may take the seat), and
        only then is the game's own leave move played, through the one path for moves."""
        if page.player == SPECTATOR:
            if not page.ws.closed:
                await page.ws.send_json({"type": "refused", "text": render(WATCHING, page.locale)})
            return
        async with self.tables.games.lock(record.channel_id):
            left = await self.tables.lobby.leave(record.channel_id, page.player)
        if left.how == "move":
            leave = GAMES[record.kind].leave
            await self.tables.act_for(record.channel_id, page.player, leave, game=record.id)
        elif left.how == "autopilot" and not page.ws.closed:
            await page.ws.send_json({"type": "refused", "text": render(YOU_LEFT_TO_AUTOPILOT, page.locale)})

    async def _hint(self, page: Page, record: GameRecord) -> None:
        """Hint, as on the panel: the computer player's choice for this seat, told to this page alone (the game is
        marked as hinted first)."""
        refusal: Text | None = None
        if page.player == SPECTATOR:
            refusal = WATCHING
        elif not self._may(page):
            refusal = SLOW_DOWN
        if refusal is not None:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})
            return
        live, given = await self.tables.panels.hint(record.channel_id, page.player, record.kind, record.id)
        told = render(hint_text(live.state, given.action, given.why), page.locale)
        await page.ws.send_json({"type": "hint", "text": plain(told, await self.live.names.of(record.players))})

    async def _vote(self, page: Page, record: GameRecord, kind: Any, target: Any) -> None:
        """A vote on the player to move, as from the board's buttons: counted (or refused) and told to this page."""
        refusal: Text | None = None
        if page.player == SPECTATOR:
            refusal = WATCHING
        elif kind not in VOTE_KINDS or not (isinstance(target, str) and target.isdecimal() and len(target) < 24):
            refusal = NOT_A_MOVE  # a Discord id, as a string: a number would lose digits in the page's script
        elif not self._may(page):
            refusal = SLOW_DOWN
        else:  # the page's target must be the board's: the player to move, once they missed a turn
            live, presenter = await self.tables.games.running(record.channel_id)
            if live.record.id != record.id or int(target) != vote_target(live.record, live.state, presenter):
                refusal = NO_SUCH_VOTE
        if refusal is not None:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})
            return
        told, then = await self.tables.votes.cast(record.channel_id, page.player, record.id, kind, int(target))
        text = plain(render(told, page.locale), await self.live.names.of(record.players))
        if not page.ws.closed:
            await page.ws.send_json({"type": "hint", "text": text})
        if then is not None:
            await then()

    async def _replay(self, page: Page, record: GameRecord, turn: Any) -> None:
        """One step of the game's replay, for a page of a game that ended."""
        fresh = await self.tables.storage.game(record.id) or record
        refusal: Text | None = None
        if not isinstance(turn, int) or isinstance(turn, bool):
            refusal = NOT_A_MOVE
        elif fresh.status not in ("finished", "abandoned"):
            refusal = NOT_OVER
        elif not replayable(fresh, self.client):
            refusal = TODAYS_DEAL_CLOSED
        elif not self._may(page):
            refusal = SLOW_DOWN
        if refusal is not None:
            await page.ws.send_json({"type": "refused", "text": render(refusal, page.locale)})
            return
        presenter = self.tables.games.presenter(fresh)
        names = await self.live.names.of(fresh.players)
        step = await self.replays.step(fresh, presenter, turn, page.locale, names)
        if not page.ws.closed:
            await page.ws.send_str(json.dumps({"type": "replay", "replay": step}))
