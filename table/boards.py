"""The boards: one message per game in the channel, composed by the game's presenter, edited in place, superseded.

The channel stays quiet: the board is one message edited in place, and a new board is posted at the bottom only when the
presenter says the table moved on (a new turn, a card taken), when the game ends, or when people talked since it went
up (an edit would log the move above talk that came before it: the channel reads in the order things happened). The
old board shrinks to its lines of the log before the new one is posted, so two boards are never live at once. Only a
new board pings, and only the player who must act next. Edits go through the token of the interaction that posted the
board while it lasts (outside the bot's global rate limit); board changes of one game go out in order, so a slow answer
to an earlier move never overwrites the board a later move put up.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

import discord

from engine.game import decode_moves
from i18n import Localized, Text, _, joined, lines, render
from storage import GameRecord, StatsStore
from table.answer import NO_PINGS, Interaction, clicked_message, detached, send, update
from table.end_screen import final_view, team_record
from table.fit import CONTENT, cut, fit
from table.games import Games, setup_of, title
from table.language import Languages
from table.live import Live
from table.options import options_of
from table.people import is_ai, mention
from table.picture import Picture
from table.preferences import wants_pings
from table.presenter import SomePresenter
from table.registry import registration
from table.transition import Transition
from table.wire import Message, edit_by_token, edit_in_channel

log = logging.getLogger(__name__)

# An interaction's token edits its messages for 15 minutes; leave a margin.
INTERACTION_TOKEN_SECONDS = 14 * 60
# Talk since a board kept per channel (only whether any is left matters: a few deletions can't empty a long talk).
CHAT_KEPT = 50
# A person who acted this recently, with only computer players moving since, is looking at the table: their next
# turn is shown without a ping.
AT_THE_KEYBOARD_SECONDS = 10.0

# Games whose board's texts are kept (as many as games are kept in memory).
SHOWN_KEPT = 5000

# What a superseded board says when nothing happened while it was on show (a repost by /board).
MOVED_BELOW = _("The board moved below.")
# The last line of a game ended without a score (/endgame): its board, its panels, a copy of its end shown by /board.
ENDED_EARLY = _("This game was ended early.")
# What a lobby's message keeps once /endgame closed it.
LOBBY_CLOSED = _("This lobby was closed.")

# What the clock adds to a board: the deadline line, and the vote buttons once the mover has missed a turn.
DeadlineLine = Callable[[GameRecord, int | None], Localized | None]
TurnButtons = Callable[[GameRecord, object, SomePresenter, str], list[discord.ui.Button[discord.ui.View]]]
# A frame around the announcement of a move nobody clicked for ("⏰ On autopilot: @ana laid ...").
Framing = Callable[[Localized], Localized]


@dataclass(slots=True)
class BoardHandle:
    """How to edit a board posted as an interaction's answer: through that interaction's webhook token (15
    minutes), which does not count against the bot's global rate limit (the per-message limit still applies). Only
    the token is kept, not the interaction."""

    message_id: int
    application_id: int
    token: str
    since: float = field(default_factory=time.monotonic)
    # The message is the one clicked, not one the token posted: Discord reaches it only as "@original".
    clicked: bool = False

    @classmethod
    def of(cls, interaction: Interaction, message_id: int) -> BoardHandle:
        clicked = clicked_message(interaction)
        on_it = clicked is not None and clicked.id == message_id
        return cls(message_id, interaction.application_id, interaction.token, clicked=on_it)

    def fresh(self) -> bool:
        return time.monotonic() - self.since < INTERACTION_TOKEN_SECONDS

    async def edit(self, client: discord.Client, **message: object) -> None:
        target: int | str = "@original" if self.clicked else self.message_id
        await edit_by_token(client, self.application_id, self.token, target, **message)


def with_picture(board: Message, picture: Picture) -> Message:
    """The edit that gives the posted ``board`` ``picture`` as its embed's image: the embed again, and the upload."""
    embed = board["embed"].copy()
    embed.set_image(url=f"attachment://{picture.name}")
    return {"embed": embed, "attachments": [discord.File(io.BytesIO(picture.png), filename=picture.name)]}


def your_turn(player: int | None) -> Text | None:
    return None if player is None else _("{player}, your turn.", player=mention(player))


def began(record: GameRecord) -> Text:
    """The first board's line in the log, once it has shrunk: which game began, and with whom."""
    return _(
        "{game} began with {players}.",
        game=title(record.kind),
        players=joined([mention(p) for p in record.players], ", "),
    )


def pings_on(record: GameRecord, player: int | None = None) -> bool:
    """Whether this game may ping ``player``: their own choice (``/me``), else the server's (``/settings``, as it
    was when the game opened)."""
    server = options_of(record).pings
    return server if player is None else wants_pings(player, server)


def pings(
    moved: Transition, at_the_keyboard: Callable[[int, int], bool] = lambda game, player: False
) -> discord.AllowedMentions:
    """A new board pings the person whose turn begins, never the actor and never for a mere repost; nor a person who
    is at the keyboard (``at_the_keyboard``: they acted a moment ago and only computer partners moved since)."""
    game, record = moved.presenter.game, moved.record
    upcoming = game.current_player(moved.after)
    if upcoming is None or upcoming == moved.player or is_ai(upcoming) or not pings_on(record, upcoming):
        return NO_PINGS
    if at_the_keyboard(record.id, upcoming):
        return NO_PINGS
    began = moved.moved_on and upcoming != game.current_player(moved.before)
    ping = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(upcoming)])
    return ping if began else NO_PINGS


@dataclass(slots=True)
class Shown:
    """What a game's board shows, kept by the boards: the move count when it went up (a superseded board shrinks to
    the moves since), the text it opened with (for a repost), and the last move's announcement (the panels say it)."""

    since: int
    text: Localized | None = None
    last: Localized | None = None


def shown_at_load(live: Live, presenter: SomePresenter) -> Shown:
    """A game just loaded: its board on show went up when the turn under way began (unless chat or /board moved it
    since)."""
    return Shown(live.turn[0].number - 1 if live.turn else presenter.game.move_count(live.state))


def board_text(
    moved: Transition, announcement: Localized, framing: Framing | None, record_line: Localized | None
) -> Localized:
    """What the board a move leaves opens with. A board that moved on opens with what the turn did
    (``Presenter.summary``); one edited in place with what the turn before did, then the move; the end screen with
    the move that ended the game, then the whole result and ``record_line``."""
    live, presenter = moved.live, moved.presenter
    if moved.ended:
        # The end keeps the move that ended it on top; the superseded board holds the turn's line.
        return lines(announcement, "", presenter.game_over_text(moved.after), record_line)
    if moved.moved_on:
        summary = presenter.summary(live.turn_of(moved.number))
        # A turn nobody clicked for says so ("⏰ On autopilot: @ana laid ...").
        recap = announcement if summary is None else summary if framing is None else framing(summary)
        return lines(recap, your_turn(presenter.game.current_player(moved.after)))
    return lines(presenter.summary(live.previous) if live.previous else None, announcement)


class Boards:
    def __init__(
        self, client: discord.Client, games: Games, languages: Languages, deadline: DeadlineLine, buttons: TurnButtons,
        stats: StatsStore,
    ) -> None:  # fmt: skip
        self.client = client
        self.stats = stats  # the team's record under a finished game's board
        self.games = games
        self.languages = languages
        self.deadline = deadline
        self.buttons = buttons
        self._chat_since: dict[int, set[int]] = {}  # channel id -> the people's messages since its board went up
        self._handles: dict[int, BoardHandle] = {}  # game id -> how to edit its board by token
        self._turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._shown: dict[int, Shown] = {}  # game id -> what its board shows

    def public(self, record: GameRecord, presenter: SomePresenter, state: object, text: Localized | None) -> Message:
        """A public message in the table's language: ``text``, the headline, the board and its buttons (none once
        the game is over)."""
        locale = self.languages.of_record(record)
        over = presenter.game.is_over(state)
        deadline = None if over else self.deadline(record, presenter.game.current_player(state))
        parts = [part for part in (text, presenter.headline(state)) if part is not None]
        if deadline is not None:
            # On the last line rather than one of its own: the board stays short.
            # Translators: a line of the board, then the turn's deadline ("⏰ @ana's turn ends in 3 minutes.").
            parts = [*parts[:-1], _("{line} {deadline}", line=parts[-1], deadline=deadline)] if parts else [deadline]
        message: Message = {"embed": presenter.board(state, locale)}
        if parts:
            message["content"] = render(lines(*parts), locale)
        view = final_view(record, locale) if over else presenter.board_view(record, state, locale)
        if not over:
            for button in self.buttons(record, state, presenter, locale):
                view = view or discord.ui.View(timeout=None)
                view.add_item(button)
        if view is not None:
            message["view"] = detached(view)
        return message

    def shown(self, live: Live, presenter: SomePresenter) -> Shown:
        shown = self._shown.get(live.record.id)
        if shown is None:
            shown = self._shown[live.record.id] = shown_at_load(live, presenter)
            while len(self._shown) > SHOWN_KEPT:
                del self._shown[next(iter(self._shown))]  # the oldest game first
        return shown

    async def on_moved(self, moved: Transition) -> None:
        """A game dealt here: its first board goes up with the deal (the log of a superseded board starts there)."""
        if moved.dealt:
            self._shown[moved.record.id] = Shown(0)

    def on_load(self, live: Live) -> None:
        hosted = registration(live.record.kind)
        if hosted is not None:
            self._shown[live.record.id] = shown_at_load(live, hosted.presenter)

    def last(self, game_id: int) -> Localized | None:
        """The announcement of the game's last move shown, for the panels ("Last: ...")."""
        shown = self._shown.get(game_id)
        return shown.last if shown is not None else None

    def repost_text(self, game_id: int) -> Localized | None:
        shown = self._shown.get(game_id)
        return (shown.text or shown.last) if shown is not None else None

    def after(
        self, moved: Transition, framing: Framing | None = None, record_line: Localized | None = None
    ) -> tuple[Message, bool, Message | None]:
        """The board a move leaves (``board_text``, then ``record_line`` under an end screen), and whether it goes up
        as a new message: when the table moved on, the game ended, there is no board yet, or chat has pushed it out
        of sight. For a new message, also what the board it supersedes shrinks to (``shrunk``)."""
        live, presenter = moved.live, moved.presenter
        record = live.record  # as it is now: a board posted since the move is the one to edit
        shown = self.shown(live, presenter)
        announcement = presenter.announce(moved.before, moved.after, moved.by, moved.action)
        shown.last = announcement if framing is None else framing(announcement)
        text = board_text(moved, shown.last, framing, record_line)
        # Talk since the board went up: editing it would log this move above talk that came before it, so the board
        # goes up anew below the talk, and the old one keeps only the moves made before it.
        talked = bool(self._chat_since.get(record.channel_id))
        fresh = moved.ended or record.message_id is None or moved.moved_on or talked
        if fresh:
            # Counted from here: talk while the new board is on its way is below the old board, and may be above it.
            self._chat_since.pop(record.channel_id, None)
        shown.text = text
        shrunk = self.supersede(live, presenter, moved.number - 1 if talked else moved.number) if fresh else None
        return self.public(record, presenter, moved.after, text), fresh, shrunk

    async def record_line(self, moved: Transition) -> Localized | None:
        """Under an end screen: these players' record at this game, read after the move that ended it committed."""
        return await team_record(self.stats, moved.live.record) if moved.ended else None

    def supersede(self, live: Live, presenter: SomePresenter, upto: int, end: Text | None = None) -> Message:
        """The board on show gives way to a new one at move ``upto``: the edit that shrinks it to a line or two of
        the log, saying what happened while it was on show (no embed, no buttons, no deadline, nobody to move);
        ``end`` closes the log of a game ended without a move (/endgame)."""
        shown = self.shown(live, presenter)
        steps = live.since(shown.since, upto)
        summary = presenter.summary(steps) if steps else None
        text = lines(began(live.record) if shown.since == 0 else None, summary or (end or MOVED_BELOW))
        if end is not None and summary is not None:
            text = lines(text, end)
        shown.since = upto
        # A log that would outgrow a message keeps its newest lines (Discord refuses the whole edit otherwise).
        content = cut(render(text, self.languages.of_record(live.record)), CONTENT, keep_last=True)
        return {"content": content, "embed": None, "view": None}

    def at_the_keyboard(self, game_id: int, player: int) -> bool:
        return self.games.last_to_act(game_id, player, AT_THE_KEYBOARD_SECONDS)

    def note_chat(self, channel_id: int, message_id: int) -> None:
        """A person wrote in the channel: the next move posts the board again below what they wrote, so the channel
        reads in the order things happened (and the board stays in sight)."""
        said = self._chat_since.setdefault(channel_id, set()) if channel_id in self.games.running_kinds else None
        if said is not None and len(said) < CHAT_KEPT:
            said.add(message_id)

    def chat_gone(self, channel_id: int, message_id: int) -> None:
        """A message was deleted (by its writer, or by the no-numbers rule): it is no talk to keep order with."""
        self._chat_since.get(channel_id, set()).discard(message_id)

    def is_board_click(self, interaction: Interaction, record: GameRecord) -> bool:
        message = clicked_message(interaction)
        return message is not None and not message.flags.ephemeral and message.id == record.message_id

    # ---- showing a move ---------------------------------------------------------------------------------------

    def turn(self, game_id: int) -> asyncio.Lock:
        """Board changes of one game in order: answers go out after the channel's lock, so a slow answer to an
        earlier move must not overwrite (or give buttons back to) the board a later move put up."""
        lock = self._turns.get(game_id)
        if lock is None:
            lock = self._turns[game_id] = asyncio.Lock()
        return lock

    async def publish(self, played: Transition, framing: Framing | None = None) -> None:
        """Show a move made without an interaction (a computer player's, the autopilot's): the board edited in
        place, or posted anew when the table moved on (one rate-limited request either way)."""
        board, fresh, shrunk = self.after(played, framing, await self.record_line(played))
        if not fresh:
            await self.show_in_place(played, board)
            return
        await self.put_up(played, board, shrunk)

    async def put_up(self, played: Transition, board: Message, shrunk: Message | None) -> None:
        """Post the board ``played`` leaves anew as a channel message, the old one shrunk first (a move whose
        interaction, if any, is not in the channel: its answer cannot post there)."""
        live = played.live
        async with self.turn(live.record.id):
            await self.retire(live.record, live.record.message_id, shrunk)
            channel = self.client.get_partial_messageable(live.record.channel_id)
            message = await channel.send(allowed_mentions=pings(played, self.at_the_keyboard), **fit(board))
            await self.moved(live, message.id)
        await self.show_picture(played, board, message.id)

    async def show_picture(self, played: Transition, board: Message, message_id: int | None) -> None:
        """Give the end screen just posted its picture, if the game draws one: one edit carrying one upload, once per
        game. After the end is up, so drawing never holds it back; through the token of the interaction that posted
        it where there is one (outside the global rate limit)."""
        if not message_id:
            return
        picture = await self.end_picture(played)
        if picture is None:
            return
        try:
            await self.edit(played.live.record, with_picture(board, picture), message_id)
        except Exception:
            # No Attach Files (a server that invited the bot before it drew pictures), or Discord failed: the end
            # stays without its picture, and the move it shows was made all the same.
            log.info("The picture of game %s could not be attached", played.live.record.id, exc_info=True)

    async def end_picture(self, played: Transition) -> Picture | None:
        """The picture a game's end screen carries, drawn once from the whole log (``Registration.end_picture``).
        None while the game runs, for a game that draws none, or when drawing fails: the end screen then goes up
        without it."""
        hosted = registration(played.live.record.kind)
        draw = hosted.end_picture if hosted is not None else None
        if draw is None or not played.presenter.game.is_over(played.after):
            return None
        record = played.live.record
        try:
            logged = await self.games.storage.moves(record.id)
            moves = decode_moves(played.presenter.game, [(m.player, m.action) for m in logged])
            started = time.perf_counter()
            # Tens of milliseconds of drawing: in a thread, so other tables' clicks are answered meanwhile.
            picture: Picture | None = await asyncio.to_thread(draw, setup_of(record), moves)
        except Exception:
            log.exception("The end picture of game %s could not be drawn", record.id)
            return None
        if picture is not None:
            log.debug(
                "Drew %s of game %s in %.0f ms, %d bytes",
                picture.name,
                record.id,
                (time.perf_counter() - started) * 1000,
                len(picture.png),
            )
        return picture

    async def post(
        self,
        interaction: Interaction,
        live: Live,
        message: Message,
        presenter: SomePresenter | None = None,
    ) -> None:
        """Post the board as the interaction's answer (a deal, /board). The old message loses its buttons: the
        lobby keeps the rest, an old board of the game (``presenter`` given) shrinks to its line of the log. Start
        pressed on the lobby turns the lobby message itself into the board."""
        message.setdefault("allowed_mentions", NO_PINGS)
        clicked = clicked_message(interaction)
        async with self.turn(live.record.id):
            self._chat_since.pop(live.record.channel_id, None)
            old = live.record.message_id
            shrunk = (
                None if presenter is None else self.supersede(live, presenter, presenter.game.move_count(live.state))
            )
            if clicked is not None and clicked.id == old and not interaction.response.is_done():
                message.pop("allowed_mentions")
                await update(interaction, **message)
                handle = BoardHandle.of(interaction, clicked.id)
            else:
                await self.retire(live.record, old, shrunk)
                handle = BoardHandle.of(interaction, await send(interaction, **message) or 0)
            await self.moved(live, handle.message_id, handle)

    async def retire(self, record: GameRecord, old_id: int | None, shrunk: Message | None) -> None:
        """The board on show shrinks (``shrunk``), or at least loses its buttons, before its successor goes up: never
        two live boards, not even for a moment. Should Discord refuse, the new board goes up all the same."""
        if old_id is None:
            return
        try:
            await self.edit(record, shrunk or {"view": None}, old_id)
        except discord.HTTPException:
            log.info("The old board of game %s could not shrink", record.id, exc_info=True)

    async def moved(self, live: Live, new_id: int | None, handle: BoardHandle | None = None) -> None:
        """The board now lives in message ``new_id`` (the old one shrank before it went up, ``retire``)."""
        record = live.record
        if not new_id:
            return
        await self.games.board_at(live, new_id)
        if handle is not None:
            self._handles[record.id] = handle
        else:
            self._handles.pop(record.id, None)

    async def show_in_place(self, played: Transition, board: Message) -> None:
        """Edit the current board to show ``played``, unless a later move already shows itself."""
        presenter = played.presenter
        async with self.turn(played.live.record.id):
            current = self.games.cached(played.live.record.id) or played.live
            if presenter.game.move_count(current.state) > presenter.game.move_count(played.after):
                return
            await self.edit(current.record, board)

    async def edit(self, record: GameRecord, message: Message, message_id: int | None = None) -> None:
        """Edit the board in place. Through the interaction that posted it while its token lasts (outside the global
        rate limit, like every interaction response), else as a channel message (one request against the global
        limit); a board that is gone is posted again at the next change."""
        target = message_id or record.message_id
        if target is None:
            return
        handle = self._handles.get(record.id)
        try:
            if handle is not None and handle.message_id == target and handle.fresh():
                try:
                    await handle.edit(self.client, **message)
                    return
                except Exception:
                    # The token expired early, or its connection broke: edit it as a channel message instead.
                    log.debug("Editing the board of game %s through its token failed", record.id, exc_info=True)
                    self._handles.pop(record.id, None)
            await edit_in_channel(self.client, record.channel_id, target, **message)
        except discord.NotFound:
            log.info("The board of game %s was deleted; the next change posts a new one", record.id)
            live = self.games.cached(record.id)
            if live is not None and message_id is None:
                await self.games.board_at(live, None)

    async def ended_early(self, record: GameRecord, live: Live | None) -> None:
        """A game ended without a move (/endgame, a deleted channel): its board shrinks to its log and a last line,
        a lobby's message to one line; no embed, no buttons, no deadline."""
        locale = self.languages.of_record(record)
        if live is not None and record.status == "running":
            presenter = self.games.presenter(record)
            shrunk = self.supersede(live, presenter, presenter.game.move_count(live.state), ENDED_EARLY)
        else:
            shrunk = {"content": render(LOBBY_CLOSED if record.status == "lobby" else ENDED_EARLY, locale)}
            shrunk.update(embed=None, view=None)
        try:
            await self.edit(live.record if live is not None else record, shrunk)
        finally:
            self.forget(record.id)

    def forget(self, game_id: int) -> None:
        self._handles.pop(game_id, None)
