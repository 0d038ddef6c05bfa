"""The private panels: at most one live hand panel per player and game, kept showing the table as it is.

A panel is an ephemeral message: only the interaction that posted it (or a click on it) can edit it, through that
interaction's token, for 15 minutes and outside the bot's global rate limit. So the newest token of each player's newest
panel is kept (``PanelHandle``), and:

- when a player opens a new panel (``/hand``, "My hand"), the older one shrinks to one line without buttons;
- when the table moves (a ``Transition`` event), every live panel of the game is brought up to date in the background,
  each panel's edits in order and always from the newest position, so the player whose turn begins sees "Your turn"
  on the panel they have open;
- the mover's own panel is answered by their click: a per-player lock makes the background update wait for that
  answer, and it then finds the panel current and leaves it alone;
- before its token dies (Discord's 15 minutes) a panel nobody clicked shrinks to one line with a Refresh button
  (``STOPPED``), whose click redraws it in place through the click's own token; a panel Discord refused to edit
  (its token died early, or was not one Discord accepts for it) is *stale*: the player's next move or panel in that
  game comes with a fresh panel (``Replies.answer``), and a click on the stale one redraws it as it is now.

Only the owner's token edits a panel, and it is composed for its owner alone: nobody else's hand can leak into it.

Hint (``offers_hint``, ``Panels.hint``): where the game's computer player gives hints (``engine.ai``) and the table
has a computer player or a single person, the panel offers the computer player's choice for the clicker's seat, on
their turn, from that seat's observation alone. The game is marked (``GameRecord.hinted``, committed before the hint
is told), which keeps it out of the leaderboards.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from i18n import Text, _, _p, render
from storage import GameRecord
from table.answer import Interaction, UserError, age, detached
from table.boards import INTERACTION_TOKEN_SECONDS, BoardHandle
from table.games import STALE_PANEL, Games
from table.live import Live
from table.people import is_ai
from table.presenter import SomePresenter
from table.registry import computer_player
from table.transition import Transition
from table.wire import Message

log = logging.getLogger(__name__)

# The one line an older panel keeps once a newer one is open.
REPLACED = _("This panel is closed: your newest one is below.")
# What a panel says once its token is about to die: past that it could show an old position as the current one.
STOPPED = _("This panel stopped following the game: press Refresh or use /hand.")
# The one button a stopped panel keeps (answered by the table's commands cog: the panel redrawn in place).
REFRESH_ID = "panel:{game}:refresh"
REFRESH_PATTERN = r"panel:(?P<game>[0-9]+):refresh"
UNKNOWN_MESSAGE = 10008  # Discord's code for a message that is gone

HINTS_ON_YOUR_TURN = _("Hints are for your turn: press Hint again when it comes.")
NO_HINTS_HERE = _("Hints are offered only at tables with a computer player or a single person.")
NO_HINT_NOW = _("There is no hint to give now.")

# How a panel is composed: (live game, presenter, player, page, locale, as the answer to the player's own move) -> the
# message (content and buttons).
Compose = Callable[[Live, SomePresenter, int, str | None, str, bool], Message]


@dataclass(slots=True)
class PanelHandle:
    """A player's live panel: how to edit it (the newest token that can), the page it is on, its reader's language,
    and the move count of the position it shows."""

    token: BoardHandle
    channel_id: int
    page: str | None
    locale: str
    shown: int
    sleep: asyncio.TimerHandle | None = None


class Panels:
    def __init__(self, client: discord.Client, games: Games, compose: Compose) -> None:
        self.client = client
        self.games = games
        self.compose = compose
        self._live: dict[tuple[int, int], PanelHandle] = {}  # (game id, player) -> the live panel
        self._locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()
        self._catching_up: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._falling_asleep: set[asyncio.Task[None]] = set()
        # (game id, player) whose panel Discord refused to edit: it may show an old position, so the player's next
        # answer in that game brings a fresh one.
        self._stale: set[tuple[int, int]] = set()
        # A panel nobody clicked for this long sleeps (its token, the only way to edit it, lasts 15 minutes).
        self.awake_seconds: float = INTERACTION_TOKEN_SECONDS

    async def hint(self, channel_id: int, player: int, kind: str, game: int) -> tuple[Live, Any]:
        """The computer player's choice for ``player``'s seat in the channel's game (the id a panel was made for),
        with the game left as it is and marked as hinted in the database before it is returned. Refused out of turn,
        at a table without hints, and for a panel of an earlier game."""
        live, presenter = await panel_game(self.games, channel_id, kind, player, game)
        if not offers_hint(live.record):
            raise UserError(NO_HINTS_HERE)
        state, rules = live.state, presenter.game
        if rules.is_over(state) or rules.current_player(state) not in (None, player):
            raise UserError(HINTS_ON_YOUR_TURN)
        ai = computer_player(live.record.kind)
        hint = ai.hint if ai is not None else None
        given = hint(rules.observation(state, player)) if hint is not None else None
        if given is None:
            raise UserError(NO_HINT_NOW)
        # Against this player's own results, and the game's as a team's (committed before the hint is shown).
        await self.games.storage.mark_hinted(live.record.id, player)
        return live, given

    def lock(self, channel_id: int, player: int) -> asyncio.Lock:
        """A player's panels in a channel change one at a time: an answer to their click and a background update
        never cross (keyed by channel, since a click knows its channel before its game)."""
        key = (channel_id, player)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def opened(
        self,
        interaction: Interaction,
        live: Live,
        player: int,
        message_id: int | None,
        page: str | None,
        locale: str,
        shown: int,
    ) -> None:
        """``message_id`` (answering ``interaction``) is now ``player``'s live panel; an older one shrinks to a line.
        The caller holds the player's lock."""
        if not message_id:
            return
        key = (live.record.id, player)
        self._stale.discard(key)
        older = self._live.get(key)
        handle = self._live[key] = PanelHandle(
            BoardHandle.of(interaction, message_id), live.record.channel_id, page, locale, shown
        )
        # The token's life began when the interaction did (its id's time), not when this answer went out.
        awake = max(self.awake_seconds - age(interaction), 0.0)
        handle.sleep = asyncio.get_running_loop().call_later(awake, self._fall_asleep, key, handle)
        if older is not None and older.sleep is not None:
            older.sleep.cancel()
        if older is not None and older.token.message_id != message_id and older.token.fresh():
            try:
                await older.token.edit(self.client, content=render(REPLACED, older.locale), view=None)
            except discord.HTTPException:
                # Dismissed by its owner, or its token died early: nothing left to shrink.
                log.debug("Could not shrink an older panel of game %s", live.record.id, exc_info=True)

    def _fall_asleep(self, key: tuple[int, int], handle: PanelHandle) -> None:
        task = asyncio.ensure_future(self._sleep(key, handle))
        self._falling_asleep.add(task)
        task.add_done_callback(self._falling_asleep.discard)

    def stale(self, game_id: int, player: int) -> bool:
        """Whether ``player``'s panel of the game could not be kept current (nor shrunk): it may show an old
        position, so their next answer in the game brings a fresh panel."""
        return (game_id, player) in self._stale

    def following(self, game_id: int, player: int, message_id: int) -> bool:
        """Whether ``message_id`` is the player's panel of the game that is kept current (else it may be behind)."""
        handle = self._live.get((game_id, player))
        return handle is not None and handle.token.message_id == message_id

    def _lost(self, key: tuple[int, int]) -> None:
        """The live panel can no longer be edited: from now on it is stale."""
        handle = self._live.pop(key, None)
        if handle is not None and handle.sleep is not None:
            handle.sleep.cancel()
        self._stale.add(key)

    async def _sleep(self, key: tuple[int, int], handle: PanelHandle) -> None:
        """The panel's token is about to die: rather than go on showing a position that will grow old, it shrinks to
        a line with a Refresh button (``STOPPED``)."""
        async with self.lock(handle.channel_id, key[1]):
            if self._live.get(key) is not handle:
                return  # clicked since: a fresh token took over
            del self._live[key]
            refresh = discord.ui.Button[discord.ui.View](
                custom_id=REFRESH_ID.format(game=key[0]),
                label=render(_p("button", "Refresh"), handle.locale),
                style=discord.ButtonStyle.secondary,
            )
            view = discord.ui.View(timeout=None)
            view.add_item(refresh)
            try:
                await handle.token.edit(self.client, content=render(STOPPED, handle.locale), view=detached(view))
            except discord.HTTPException as error:
                log.debug("Could not shrink a panel of game %s before its token died", key[0], exc_info=True)
                if not dismissed(error):
                    self._stale.add(key)

    # ---- following the table ----------------------------------------------------------------------------------

    async def on_moved(self, event: Transition) -> None:
        """Bring every live panel of the game up to date, in the background (the mover's waits for their answer)."""
        game_id = event.live.record.id
        if event.ended:
            self._stale = {key for key in self._stale if key[0] != game_id}  # no fresh panel for a game that is over
        # Only the game's players can have its panels: no walk over every live panel of every game.
        for key in [(game_id, player) for player in event.live.record.players if (game_id, player) in self._live]:
            running = self._catching_up.get(key)
            if running is None or running.done():
                task = self._catching_up[key] = asyncio.ensure_future(self._catch_up(key, event.live))
                task.add_done_callback(functools.partial(self._caught_up, key))

    async def _catch_up(self, key: tuple[int, int], moved: Live) -> None:
        """Edit one panel until it shows the newest position: each edit is composed from the position of its time,
        so moves made meanwhile are caught by the next round, and a panel is never left behind the table. A game
        that just ended has left the cache: its last position is the one the event brought (``moved``)."""
        game_id, player = key
        channel_id = moved.record.channel_id
        while True:
            async with self.lock(channel_id, player):
                handle = self._live.get(key)
                live = self.games.cached(game_id) or moved
                if handle is None or live is None:
                    return
                presenter = self.games.presenter(live.record)
                now = presenter.game.move_count(live.state)
                over = presenter.game.is_over(live.state)
                if handle.shown >= now:
                    return
                if not handle.token.fresh():
                    self._lost(key)  # its token is dead: the panel can no longer be edited
                    return
                message = self.compose(live, presenter, player, handle.page, handle.locale, False)
                try:
                    await handle.token.edit(self.client, **message)
                except discord.HTTPException as error:
                    log.debug("Could not bring a panel of game %s up to date", game_id, exc_info=True)
                    if over or dismissed(error):
                        self._live.pop(key, None)  # nothing on show to put right
                    else:
                        self._lost(key)  # its token died: the player's next answer brings a fresh panel
                    return
                handle.shown = now
                if over:
                    self._live.pop(key, None)  # its last word: the game is over
                    return

    def _caught_up(self, key: tuple[int, int], task: asyncio.Task[None]) -> None:
        """A finished catch-up is not kept (one per panel would stay for as long as the bot runs)."""
        if self._catching_up.get(key) is task:
            del self._catching_up[key]

    async def ended_early(self, game_id: int, text: Text) -> None:
        """A game ended without a move (/endgame): its live panels shrink to ``text``, without buttons."""
        for key in [key for key in self._live if key[0] == game_id]:
            handle = self._live.pop(key)
            if handle.sleep is not None:
                handle.sleep.cancel()
            if not handle.token.fresh():
                continue
            try:
                await handle.token.edit(self.client, content=render(text, handle.locale), view=None)
            except discord.HTTPException:
                log.debug("Could not close a panel of game %s", game_id, exc_info=True)
        self._stale = {key for key in self._stale if key[0] != game_id}

    def close(self) -> None:
        for handle in self._live.values():
            if handle.sleep is not None:
                handle.sleep.cancel()
        for task in [*self._catching_up.values(), *self._falling_asleep]:
            task.cancel()
        self._catching_up.clear()


def dismissed(error: discord.HTTPException) -> bool:
    """Whether Discord refused a panel's edit because the message is gone (its owner dismissed it: "Unknown
    Message"), not because the token can no longer reach it (every edit goes through a token Discord accepts for
    the message: ``BoardHandle``)."""
    return error.code == UNKNOWN_MESSAGE


async def panel_game(
    games: Games, channel_id: int, kind: str | None, player: int, game: int | None
) -> tuple[Live, SomePresenter]:
    """The channel's running game, for ``player``'s panel of game ``game`` (None: a panel asked for anew). Refused to
    somebody not at the table, and for a panel of an earlier game."""
    live, presenter = await games.running(channel_id, kind)
    if player not in live.record.players:
        raise UserError(_("You're not playing in this game."))
    if game is not None and game != live.record.id:
        raise UserError(STALE_PANEL)
    return live, presenter


def offers_hint(record: GameRecord) -> bool:
    """Whether the table's hand panel offers Hint: the game's computer player gives hints, and a computer player sits
    at the table or a single person plays (a table of people alone plays without a coach)."""
    player = computer_player(record.kind)
    if player is None or player.hint is None:
        return False
    people = sum(not is_ai(seat) for seat in record.players)
    return people == 1 or people < len(record.players)
