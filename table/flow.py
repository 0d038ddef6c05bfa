"""The table as the cogs and the web table see it: ``Table`` builds the core's parts (``games``, ``lobby``, ``boards``,
``panels``, ``courier``, ``clock``, ``seats``, ``votes``, ``languages``, ``events``), which they use directly, and owns
only the flows that span several parts: the one path of an action from a click to the database and back to the board.

``act``: the channel's lock, ``Games.play`` (commit by compare-and-swap; its ``Transition`` lets the clock, the seats,
the panels and the courier follow), then ``Replies.answer`` carries out the reply plan, then the courier brings the
DMs up to date. After
the commit nothing can turn into a refusal: a Discord error while showing the move is logged once, and the player is
told the move was made.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import discord

import metrics
from i18n import Localized, _, lines, render
from storage import GameRecord, Storage, StorageError
from table.admission import Admission
from table.answer import (
    Interaction,
    UserError,
    before_change,
    clicked_message,
    committed,
    detached,
    in_time,
    send,
    update,
)
from table.boards import ENDED_EARLY, Boards
from table.clock import TurnClock
from table.courier import Courier
from table.end_screen import final_view, retire_end_screens, team_record
from table.events import Events
from table.games import Games
from table.language import Languages
from table.live import Live
from table.lobby import Lobby
from table.nudges import Nudges
from table.panels import Panels, panel_game
from table.presenter import SomePresenter
from table.reply import Asked, Replies
from table.seats import Seats
from table.transition import Transition
from table.votes import Votes, vote_buttons
from table.wire import Message

log = logging.getLogger(__name__)

MOVE_MADE = _("Your move was made")

# A link under every private panel, for a second front end (the web table): (game, player, locale) -> the button, or
# None. Set by whoever serves that front end; the core does not know it.
PanelLink = Callable[[GameRecord, int, str], "discord.ui.Button[discord.ui.View] | None"]
# And one under the channel's board, for spectators: (game, locale) -> the button, or None.
BoardLink = Callable[[GameRecord, str], "discord.ui.Button[discord.ui.View] | None"]


def compose_panel(
    live: Live,
    presenter: SomePresenter,
    player: int,
    page: str | None,
    locale: str,
    link: discord.ui.Item[discord.ui.View] | None,
    last: Localized | None,
    *,
    ack: bool = False,
) -> Message:
    """The private panel in the player's ``locale``; as the answer to an action (``ack``) it opens with what that
    action did (``last``: the last move's announcement). ``link`` (the web table's button, or None) goes under the
    panel's own buttons."""
    message = presenter.panel(live.record, live.state, player, page, locale)
    if presenter.game.is_over(live.state):
        # The game's last word: its panel keeps no button (not even Refresh), nothing about it reads live.
        message["view"] = None
        link = None
    if last is not None:
        content = message["content"]
        shown = lines(last, content) if ack else lines(content, _("Last: {move}", move=last))
        message["content"] = render(shown, locale)
    if link is not None:
        view = message.get("view") or discord.ui.View(timeout=None)
        view.add_item(link)
        message["view"] = detached(view)
    return message


class Table:
    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage
        self.admission = Admission()  # how many interactions are worked on at once
        self.events = Events()
        self.languages = Languages(client, storage)
        self.games = Games(storage, self.events, self.owns)
        self.clock = TurnClock(client, storage, self.games, self.languages)
        self.boards = Boards(client, self.games, self.languages, self.clock.deadline_line, self.board_buttons, storage)
        self.courier = Courier(client, storage, self.games, self.languages)
        self.seats = Seats(self.games, self.boards, self.clock)
        self.votes = Votes(self.games, self.clock, self.seats, self.languages)
        self.panels = Panels(client, self.games, self.panel)
        self.replies = Replies(self.boards, self.panels, self.courier)
        self.nudges = Nudges(client, self.languages, self.boards.at_the_keyboard)
        self.lobby = Lobby(self.games, storage, self.clock, self.seats)  # the table's life around its game
        self.panel_link: PanelLink | None = None
        self.board_link: BoardLink | None = None
        # Told of a game ended early (no move announces it); set by the web table, whose pages must show it.
        self.after_abandon: Callable[[GameRecord], Awaitable[None]] | None = None
        self._resuming: asyncio.Task[None] | None = None
        # In this order: the deadline is set before the board that shows it is drawn.
        self.events.subscribe("turn clock", self.clock.on_moved)
        self.events.subscribe("boards", self.boards.on_moved)
        self.events.subscribe("hand panels", self.panels.on_moved)
        self.events.subscribe("seat driver", self.seats.on_moved)
        self.events.subscribe("courier", self.courier.on_moved)
        self.events.subscribe("nudges", self.nudges.on_moved)
        self.events.on_turn_ran_out("seat driver", self.seats.on_turn_ran_out)
        self.events.on_load("boards", self.boards.on_load)
        self.events.on_load("courier", self.courier.on_load)
        self.events.on_load("preferences", self.languages.take_up)
        self.events.on_load(
            "seat driver", lambda live: self.seats.wake(live.record.kind, live.record.channel_id, live.record)
        )

    def board_buttons(
        self, record: GameRecord, state: object, presenter: SomePresenter, locale: str
    ) -> list[discord.ui.Button[discord.ui.View]]:
        """What a running game's board carries besides the game's own buttons: the votes on an away player, and the
        spectators' link where a second front end offers one."""
        buttons = vote_buttons(record, state, presenter, locale)
        link = self.board_link(record, locale) if self.board_link is not None else None
        return [*buttons, link] if link is not None else buttons

    # ---- what the cogs ask -----------------------------------------------------------------------------------

    def owns(self, record: GameRecord) -> bool:
        """Whether this process runs the shard of the game's server (every game, without sharding)."""
        count = getattr(self.client, "shard_count", None)
        shards = getattr(self.client, "shard_ids", None)
        if not count or shards is None:
            return True
        return (record.guild_id >> 22) % count in shards

    # ---- acting -----------------------------------------------------------------------------------------------

    async def act(
        self,
        interaction: Interaction,
        action: object,
        *,
        kind: str | None = None,
        board: tuple[int, int] | None = None,
        game: int | None = None,
        page: str | None = None,
        channel: int | None = None,
    ) -> None:
        """Apply ``action`` by the interaction's user to the channel's game, commit it, then answer. ``game`` is the
        game id a private panel's button was made for, ``page`` the panel page to show after; ``channel`` the game's
        channel when the click came from elsewhere (a DM panel)."""
        channel_id = channel or interaction.channel_id
        assert channel_id is not None
        asked = Asked(interaction, page, self.languages.for_reader(interaction))
        async with AsyncExitStack() as holding:
            async with in_time(interaction):
                # The mover's panel is answered here: its background update waits, then finds it current.
                await holding.enter_async_context(self.panels.lock(channel_id, interaction.user.id))
                moved = await self.games.play(
                    channel_id,
                    interaction.user.id,
                    action,
                    kind=kind,
                    board=board,
                    game=game,
                    ready=lambda: before_change(interaction),
                )
            async with committed(interaction, MOVE_MADE):
                await self.replies.answer(asked, moved)
        if interaction.type is discord.InteractionType.component:
            metrics.answered(interaction)  # a slash command is counted when it completes (bot.py)
        self.courier.answered(moved.live, interaction)
        self.courier.deliver_later(moved.live, interaction)

    async def act_for(self, channel_id: int, player: int, action: object, *, game: int | None = None) -> Transition:
        """``act`` without a Discord interaction (the web table): the same commit, then the board, the panels, the
        DMs, the clock and the seats follow as after a click. Raises GameError or UserError, changing nothing, when
        the action is refused; once it is committed, a failure to show it is logged, never raised."""
        played = await self.games.play(channel_id, player, action, game=game)
        await self.seats.show(played)
        self.courier.deliver_later(played.live)
        return played

    async def show_panel(
        self,
        interaction: Interaction,
        kind: str | None = None,
        *,
        game: int | None = None,
        page: str | None = None,
    ) -> None:
        """The user's private panel (their hand or chips, with buttons): redrawn in place when a panel's own button
        asked for it, else sent ephemerally."""
        locale = self.languages.for_reader(interaction)
        channel_id = interaction.channel_id or 0
        async with in_time(interaction, ephemeral=True), self.panels.lock(channel_id, interaction.user.id):
            player = interaction.user.id
            live, presenter = await panel_game(self.games, channel_id, kind, player, game)
            position = presenter.game.move_count(live.state)
            message = self.panel(live, presenter, player, page, locale)
            clicked = clicked_message(interaction)
            if game is not None and clicked is not None:
                await update(interaction, **message)
                message_id: int | None = clicked.id
            else:
                message_id = await send(interaction, ephemeral=True, **message)
            await self.panels.opened(interaction, live, player, message_id, page, locale, position)
        self.courier.answered(live, interaction)

    def panel(
        self,
        live: Live,
        presenter: SomePresenter,
        player: int,
        page: str | None,
        locale: str,
        ack: bool = False,
    ) -> Message:
        """The private panel (``compose_panel``), with the web table's link where the web table is on."""
        link = self.panel_link(live.record, player, locale) if self.panel_link is not None else None
        return compose_panel(live, presenter, player, page, locale, link, self.boards.last(live.record.id), ack=ack)

    async def show_board(self, interaction: Interaction, record: GameRecord) -> None:
        """Post the board again at the bottom; the old one loses its buttons."""
        live = await self.games.live(record)
        presenter = self.games.presenter(record)
        self.languages.seen(interaction)
        message = self.boards.public(live.record, presenter, live.state, self.boards.repost_text(live.record.id))
        await self.boards.post(interaction, live, message, presenter)

    async def show_result(self, interaction: Interaction, record: GameRecord) -> None:
        """The final board of the channel's last game, for a while after it ended, with these players' record."""
        presenter = self.games.presenter(record)
        state = await self.games.final_state(record)
        over = presenter.game.is_over(state)
        text = lines(presenter.game_over_text(state), await team_record(self.storage, record)) if over else ENDED_EARLY
        message = self.boards.public(record, presenter, state, text)
        message["view"] = detached(final_view(record, self.languages.for_table(interaction)))
        posted = await send(interaction, **message)
        if not posted:
            return
        # The copy is the channel's newest end screen now: the one it replaces (and an older game's) keeps its Replay.
        try:
            await self.storage.set_message(record.id, posted)
            await retire_end_screens(self.client, self.storage, record, self.languages.of_record, record.message_id)
        except StorageError:
            log.warning("The end screen of game %s could not move to its copy", record.id, exc_info=True)

    # ---- starting and ending ------------------------------------------------------------------------------------

    async def start(self, interaction: Interaction, record: GameRecord, extra: Localized | None = None) -> None:
        """Deal the game in the lobby ``record`` (the caller holds the channel's lock); ``extra`` is a paragraph for
        the table under the start text."""
        self.languages.seen(interaction)
        live = await self.games.start(record)  # the clock has set the first mover's deadline when this returns
        presenter = self.games.presenter(record)
        async with committed(interaction, _("The game has started")):
            text = presenter.start_text(live.state)
            message = self.boards.public(
                live.record, presenter, live.state, text if extra is None else lines(text, "", extra)
            )
            await self.boards.post(interaction, live, message)
        self.courier.deliver_later(live, interaction)

    async def abandon(self, record: GameRecord) -> GameRecord:
        """End an open game without a score (the caller holds the channel's lock); its board or lobby loses its
        buttons."""
        live = self.games.cached(record.id)  # its log, for the board's last lines; forgotten once abandoned
        ended = await self.games.abandon(record)
        await self.clock.stop_game(record.id)
        self.nudges.forget(record.id)
        # No move announces this end: the board, the panels and the reminders are told here, within the lock.
        try:
            await self.boards.ended_early(record, live)
        except Exception:
            log.info("Could not shrink the board of game %s", record.id, exc_info=True)
        await self.panels.ended_early(record.id, ENDED_EARLY)
        try:
            await self.courier.ended_early(record)
        except Exception:
            log.info("Could not close the DM panels of game %s", record.id, exc_info=True)
        # Its board is no end screen: a later game's end leaves it alone (``retire_end_screens``); and once it was
        # dealt, the end screen before it is out of date (its Rematch would be refused).
        try:
            await self.storage.set_message(record.id, None)
            if record.status == "running":
                await retire_end_screens(self.client, self.storage, ended, self.languages.of_record)
        except StorageError:
            log.warning("The messages of game %s could not be put by", record.id, exc_info=True)
        if self.after_abandon is not None:
            try:
                await self.after_abandon(ended)
            except Exception:
                log.exception("The web table could not show that game %s ended", record.id)
        return ended

    async def vote(self, interaction: Interaction, game_id: int, kind: str, target: int) -> None:
        self.languages.seen(interaction)
        await self.votes.vote(interaction, game_id, kind, target)

    # ---- the process ------------------------------------------------------------------------------------------

    async def resume(self) -> None:
        """At start: start the turn clock (a deadline that passed while the bot was down fires at once), then, in
        the background, load every running game once, which delivers the DMs a stop interrupted and lets the
        computer players carry on. The bot answers meanwhile: a game somebody uses is loaded on demand, at once, and
        that load does the same."""
        await self.clock.start()
        records = [r for r in await self.storage.open_games() if r.status == "running" and self.owns(r)]
        self._resuming = asyncio.ensure_future(self._resume(records))

    async def _resume(self, records: list[GameRecord]) -> None:
        for record in records:
            if self.seats.closing:
                return
            if self.games.cached(record.id) is not None:
                continue  # somebody used it meanwhile: loading it on demand took up what the stop interrupted
            try:
                await self.games.live(record)  # loading it delivers its DMs and wakes its computer players
            except UserError:
                continue  # a game that can't be loaded was reported (once) for its channel
            except Exception:
                log.exception("Game %s in channel %s could not be resumed", record.id, record.channel_id)
                continue
            await asyncio.sleep(0)  # one game at a time: the people acting now come first

    async def close(self) -> None:
        """Let DMs under way finish (briefly) before the database closes."""
        self.seats.close()
        self.nudges.close()
        self.clock.stop()
        self.panels.close()
        self.replies.close()
        if self._resuming is not None:
            self._resuming.cancel()
        await self.courier.close()
        await self.languages.close()
