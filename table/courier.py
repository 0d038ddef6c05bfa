"""The courier: every player's DM shows their private view (a hand, chips), durably.

One DM per player per game, edited in place. What each DM last showed is stored in the database, so a restart
delivers whatever a kill interrupted; a DM Discord kept failing is tried again later. Delivery runs in the background
after the channel's lock: a slow DM never holds up the table.

A DM Discord refuses (closed DMs: 403, code 50007; any other 4xx) is not asked for again in the same game: the player
is undeliverable until they interact in another game (each refused request counts against the bot: Discord bans an
address for a while after 10,000 of them in 10 minutes). They are told once per game how to open their DMs, and only
privately: through their own click or command that caused the DM, else in the private answer to their next one in
that game (``Courier.answered``). Nothing in the channel names them.

Where the game's registration has a DM panel (``Registration.dm_panel``), the DM carries its buttons and is played
from (``table.dm_panels``): a click's answer updates the DM in place, free of the global rate limit, and when that
answer already shows what the courier would deliver, it is recorded as delivered (``shown_by_answer``) and not edited
again. When a player's turn begins and the bot has posted something else in their DM conversation since the hand
(another game's hand, any other DM), the hand is posted anew below it, then the old one deleted: only then, so the
common case costs nothing. A game that ends takes the buttons off its DMs.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, field

import discord

import metrics
from i18n import Localized, _, lines, render
from storage import GameRecord, TableStore
from table.answer import Interaction, send
from table.boards import ENDED_EARLY
from table.games import Games
from table.language import Languages
from table.live import Live
from table.registry import DMPanel, registration
from table.transition import Transition
from table.wire import Message, edit_in_channel, send_in_channel

log = logging.getLogger(__name__)

Shown = int | None  # the id of the DM that shows it; None: Discord failed

# A DM Discord kept failing is tried again after this long.
RETRY_DM_SECONDS = 30.0
# DM channels kept in memory (the rest are read from the database when next needed).
DM_CHANNELS_KEPT = 20_000
# Games whose delivered DMs are remembered (as many as games are kept in memory).
SENT_KEPT = 5000
DM_RETRIES = 3  # tries of one DM against Discord's server errors (5xx) before it waits for a later delivery


def digest(text: str) -> bytes:
    """What a DM's text is compared by: 16 bytes instead of the text, in every game a bot keeps open."""
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class DMsClosed(Exception):
    """The user does not accept direct messages from the bot (Discord's error 50007)."""


@dataclass(slots=True)
class Sent:
    """What the courier knows a game's DMs show: ``texts`` holds the very objects of ``Live.dm_text`` once delivered
    (a move that changes no DM asks the database nothing); ``stored`` the stored DMs (player -> message id, digest of
    the text: ``digest``), read once per game and process, and again when another writer moved the game on (it may
    have delivered DMs itself): ``seen`` is the move count this process followed the game to."""

    seen: int
    texts: dict[int, Localized] = field(default_factory=dict)
    stored: dict[int, tuple[int | None, bytes]] | None = None
    # Players whose turn began with their hand buried under a newer DM: it is posted anew.
    buried: frozenset[int] = frozenset()  # (shared while empty, as it nearly always is)

    def up_to_date(self, live: Live) -> bool:
        """Every DM of the game shows what it should."""
        if self.buried:
            return False
        return all(self.texts.get(player) == private for player, private in live.dm_text.items())


class Courier:
    def __init__(self, client: discord.Client, storage: TableStore, games: Games, languages: Languages) -> None:
        self.client = client
        self.storage = storage
        self.games = games
        self.languages = languages
        self._delivery: dict[int, asyncio.Task[None]] = {}
        self._retries: set[asyncio.TimerHandle] = set()
        self._told_closed: set[tuple[int, int]] = set()
        # (game, player) whose DM was refused while somebody else acted: told at their own next interaction there.
        self._to_tell: set[tuple[int, int]] = set()
        self._telling: set[asyncio.Task[None]] = set()
        # user -> the game in which Discord refused their DM (0: outside a game): not asked again there.
        self._undeliverable: dict[int, int] = {}
        # user id -> their DM channel, as stored: one read per user and process, not one per DM.
        self._dm_channels: dict[int, int] = {}
        self._sent: dict[int, Sent] = {}  # game id -> what its DMs show
        # DM channel -> the newest message the bot posted there (every DM the bot sends goes through ``show``).
        self._newest: dict[int, int] = {}  # DM channel -> the bot's newest message there (oldest channel first)
        self.closing = False

    def sent(self, live: Live) -> Sent:
        sent = self._sent.get(live.record.id)
        if sent is None:
            sent = self._sent[live.record.id] = Sent(self._moves(live))
            while len(self._sent) > SENT_KEPT:
                del self._sent[next(iter(self._sent))]  # the oldest game first
        return sent

    def _moves(self, live: Live) -> int:
        hosted = registration(live.record.kind)
        return hosted.game.move_count(live.state) if hosted is not None else 0

    def on_load(self, live: Live) -> None:
        """A game (re)loaded from its log: what its DMs show is read again, then the rest delivered."""
        self._sent.pop(live.record.id, None)
        self.deliver_later(live)

    def forget(self, user_id: int) -> None:
        """Drop a forgotten person's DM channel from memory (the database's copy goes with their data)."""
        self._dm_channels.pop(user_id, None)

    async def on_moved(self, event: Transition) -> None:
        """Follow the game move by move; moves nobody clicked for (computer players, the autopilot) have no
        interaction to wait for: their DMs go out now."""
        sent = self.sent(event.live)
        if sent.seen == event.number - 1:
            sent.seen = event.number  # else moves from another writer came between: ``deliver`` reads again
        panel = dm_panel_of(event.live.record)
        if panel is not None and event.ended:
            sent.texts.clear()  # every DM loses its buttons: compared with what it shows, so edited once
        if panel is not None and event.turn_began and event.upcoming is not None and self._buried(sent, event.upcoming):
            sent.texts.pop(event.upcoming, None)
            sent.buried |= {event.upcoming}
        # A person's move is delivered after its answer (``Table.act``), which may have shown their DM already.
        if event.auto:
            self.deliver_later(event.live)
        if event.ended:  # nobody is told about a game that is over
            self._to_tell = {key for key in self._to_tell if key[0] != event.live.record.id}

    def _buried(self, sent: Sent, player: int) -> bool:
        """Whether the bot posted something in ``player``'s DM conversation after their hand of this game (unknown
        after a restart, until the bot posts there again: then taken as not)."""
        hand = (sent.stored or {}).get(player, (None, b""))[0]
        channel = self._dm_channels.get(player)
        newest = self._newest.get(channel) if channel is not None else None
        return hand is not None and newest is not None and newest != hand

    def deliver_later(self, live: Live, interaction: Interaction | None = None) -> None:
        """Bring the game's DMs up to date in the background."""
        if self.closing:
            return  # a restart delivers what is left (what each DM shows is stored)
        if self.sent(live).up_to_date(live):
            return  # most moves change no DM: no task to start
        task = self._delivery.get(live.record.id)
        if task is not None and not task.done():
            task.add_done_callback(lambda _: self.deliver_later(live, interaction))
            return
        self._delivery[live.record.id] = asyncio.ensure_future(self._deliver(live, interaction))

    async def _deliver(self, live: Live, interaction: Interaction | None) -> None:
        try:
            await self.deliver(live, interaction)
        except Exception:
            log.exception("Delivering DMs of game %s failed", live.record.id)
        finally:
            self._delivery.pop(live.record.id, None)

    async def deliver(self, live: Live, interaction: Interaction | None = None) -> None:
        """Make every player's DM show the private text it should, in the language last seen from that player; a
        player whose DMs are closed is told so once, privately (``_tell_closed``)."""
        record, known = live.record, self.sent(live)
        if known.up_to_date(live):
            return  # nothing to deliver: no need to ask the database
        moves = self._moves(live)
        if known.stored is None or known.seen != moves:
            # Read once per game and process, then kept as this process writes it.
            stored = await self.storage.private_messages(record.id)
            known.stored = {player: (message_id, digest(text)) for player, (message_id, text) in stored.items()}
            known.seen = moves
        closed = [
            p for p, private in list(live.dm_text.items()) if not await self._deliver_one(live, known, p, private)
        ]
        untold = [p for p in closed if (record.id, p) not in self._told_closed]
        if untold and record.status == "running":
            await self._tell_closed(record, untold, interaction)

    async def _deliver_one(self, live: Live, known: Sent, player: int, private: Localized) -> bool:
        """Make ``player``'s DM show ``private``; False when their DMs are closed to the bot."""
        record, sent = live.record, known.stored if known.stored is not None else {}
        if known.texts.get(player) == private and player not in known.buried:
            return True
        message = self.compose(live, player, private, await self.languages.reader(player))
        text, composed = str(message.get("content", "")), self._moves(live)
        message_id, shown = sent.get(player, (None, b""))
        reposted = player in known.buried and message_id is not None
        known.buried -= {player}
        if shown == digest(text) and not reposted:
            known.texts[player] = private
            return True
        try:
            delivered = await self.show(player, message, None if reposted else message_id, game=record.id)
        except DMsClosed:
            return False
        if delivered is None and self._undeliverable.get(player) == record.id:
            return True  # refused (not a server error): trying again later would only be refused again
        if delivered is None:
            # Discord kept failing: nothing is recorded as shown, so a later delivery (or a restart) tries again.
            retry = asyncio.get_running_loop().call_later(RETRY_DM_SECONDS, self.deliver_later, live)
            self._retries.add(retry)
            return True
        await self.storage.set_private_message(record.id, player, delivered, text)
        sent[player] = (delivered, digest(text))
        if composed == self._moves(live) or dm_panel_of(record) is None:
            known.texts[player] = private  # (a DM panel composed before a later move, the end say, is looked at again)
        if reposted and message_id is not None and message_id != delivered:
            await self._delete(player, message_id)  # the new hand is up first: the old one goes
        return True

    def compose(self, live: Live, player: int, private: Localized, locale: str) -> Message:
        """What ``player``'s DM shows at rest: the game's DM panel where it has one, else its private text."""
        panel = dm_panel_of(live.record)
        if panel is None:
            return {"content": render(private, locale)}
        return panel(live.record, live.state, player, None, locale, None)

    async def _delete(self, player: int, message_id: int) -> None:
        channel = self._dm_channels.get(player)
        if channel is None:
            return
        try:
            await self.client.http.delete_message(channel, message_id)
        except discord.HTTPException:
            log.info("Could not delete the buried hand of user %s", player, exc_info=True)

    async def shown_by_answer(self, live: Live, player: int, message_id: int, content: str) -> None:
        """A click's answer made ``player``'s DM (``message_id``) show ``content``: where that is the DM that was due,
        it is recorded as delivered, so the courier does not edit it again."""
        known = self.sent(live)
        private = live.dm_text.get(player)
        if private is None or known.texts.get(player) == private:
            return  # nothing was due: what the answer shows needs no record
        known.texts[player] = private
        await self.storage.set_private_message(live.record.id, player, message_id, content)
        if known.stored is not None:
            known.stored[player] = (message_id, digest(content))

    async def ended_early(self, record: GameRecord) -> None:
        """A game ended without a move (/endgame): its DM panels lose their buttons, with a last line saying so."""
        if dm_panel_of(record) is None:
            return
        for player, (message_id, text) in (await self.storage.private_messages(record.id)).items():
            if message_id is None:
                continue
            ended = render(lines(text, ENDED_EARLY), await self.languages.reader(player))
            try:
                await self.show(player, {"content": ended, "view": None}, message_id, game=record.id)
            except DMsClosed:
                continue
            await self.storage.set_private_message(record.id, player, message_id, ended)

    async def _tell_closed(self, record: GameRecord, untold: list[int], interaction: Interaction | None) -> None:
        """Tell each of ``untold`` once per game, privately, that the bot cannot DM them and how to open their DMs:
        now if their own action caused the DM, else at their next one (the table is never told who)."""
        self._told_closed.update((record.id, p) for p in untold)
        for player in untold:
            if interaction is not None and interaction.user.id == player:
                await self._tell(record, interaction)
            else:
                self._to_tell.add((record.id, player))

    def answered(self, live: Live, interaction: Interaction) -> None:
        """``interaction``'s user acted in ``live``'s game and was answered: if their DM was refused meanwhile, they
        are told how to open their DMs, in a private followup to that answer (in the background)."""
        key = (live.record.id, interaction.user.id)
        if key not in self._to_tell or self.closing:
            return
        self._to_tell.discard(key)
        task = asyncio.ensure_future(self._tell(live.record, interaction))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _tell(self, record: GameRecord, interaction: Interaction) -> None:
        hosted = registration(record.kind)
        if hosted is None:
            return
        notice = render(
            _("I can't send you direct messages. {hint}", hint=hosted.presenter.closed_dms_hint),
            self.languages.for_reader(interaction),
        )
        try:
            await send(interaction, ephemeral=True, content=notice)
        except discord.HTTPException:
            log.info("Could not tell user %s that their DMs are closed", interaction.user.id, exc_info=True)

    async def show(self, user_id: int, text: str | Message, message_id: int | None = None, *, game: int = 0) -> Shown:
        """Show ``text`` (or a message: content and buttons) in a DM to ``user_id``: edit ``message_id`` if given,
        else send a new message. Returns the message's id, or None if Discord failed (worth trying later unless it
        refused); raises ``DMsClosed`` when the user does not accept DMs from the bot, at once, without a request, if
        they refused one in ``game`` already (outside a game, ``game`` is 0: any refusal counts until a game DM gets
        through). The DM channel id is kept in the database: each DM costs one request, even after a restart."""
        refused_in = self._undeliverable.get(user_id)
        if refused_in is not None and (refused_in == game or not game):
            metrics.dm_failed("skipped")
            raise DMsClosed(user_id)
        message: Message = {"content": text} if isinstance(text, str) else text
        for attempt in range(DM_RETRIES):
            try:
                try:
                    shown = await self._show(await self._channel(user_id, cached=True), message, message_id)
                except discord.NotFound:
                    # A remembered DM channel or message that no longer exists (say, the token changed): start afresh.
                    shown = await self._show(await self._channel(user_id, cached=False), message, None)
                self._undeliverable.pop(user_id, None)
                return shown
            except discord.Forbidden as error:
                self._undeliverable[user_id] = game
                if error.code == 50007:  # "Cannot send messages to this user": their DMs are closed to us
                    log.info("User %s does not accept DMs: none more asked for in game %s", user_id, game)
                    metrics.dm_failed("closed")
                    raise DMsClosed(user_id) from error
                log.warning("DM to user %s refused: %s; none more asked for in game %s", user_id, error, game)
                metrics.dm_failed("refused")
                return None
            except discord.HTTPException as error:
                if error.status < 500:
                    self._undeliverable[user_id] = game
                if error.status < 500 or attempt == DM_RETRIES - 1:
                    log.warning("Could not DM user %s", user_id, exc_info=True)
                    metrics.dm_failed("error")
                    return None
                await asyncio.sleep(0.5 * 2**attempt)
        return None

    async def _show(self, channel_id: int, message: Message, message_id: int | None) -> int:
        if message_id is not None:
            try:
                await edit_in_channel(self.client, channel_id, message_id, **message)
                return message_id
            except discord.NotFound:
                pass  # the user deleted it, or it is from an old channel: send a new one
        sent = await send_in_channel(self.client, channel_id, **message)
        # The conversation's newest message now: a hand posted before it is buried (``_buried``).
        self._newest.pop(channel_id, None)
        self._newest[channel_id] = sent
        if len(self._newest) > DM_CHANNELS_KEPT:
            del self._newest[next(iter(self._newest))]
        return sent

    async def _channel(self, user_id: int, *, cached: bool) -> int:
        channel_id = None
        if cached:
            channel_id = self._dm_channels.get(user_id) or await self.storage.dm_channel(user_id)
        if channel_id is None:
            data = await self.client.http.start_private_message(user_id)
            channel_id = int(data["id"])
            await self.storage.set_dm_channel(user_id, channel_id)
        self._dm_channels[user_id] = channel_id
        if len(self._dm_channels) > DM_CHANNELS_KEPT:
            del self._dm_channels[next(iter(self._dm_channels))]  # the user remembered longest ago
        return channel_id

    async def close(self) -> None:
        """Let DMs under way finish (briefly) before the database closes."""
        self.closing = True
        for retry in self._retries:
            retry.cancel()
        for telling in self._telling:
            telling.cancel()
        pending = [task for task in self._delivery.values() if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=2)
        for task in pending:
            task.cancel()


def dm_panel_of(record: GameRecord) -> DMPanel | None:
    """The game's DM panel (None: its DM is text only)."""
    hosted = registration(record.kind)
    return hosted.dm_panel if hosted is not None else None
