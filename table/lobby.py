"""The lobby: a table's life around its game (Board Game Arena's open, join, leave, start, rematch), in the core.

Every change is decided by a rule of ``table.lobby_rules`` on the row as it is stored, and written by
compare-and-swap (``Games.modify``): when another writer came first, the rule is decided again on the row that
writer left, so two people joining at the same moment both get in and a full lobby refuses the second. The methods
take plain ids and return what changed, or raise ``UserError`` with the sentence the person sees; the cogs and the
web table only translate their requests in and the results out.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from i18n import Localized, Text, _, lines
from storage import ChannelBusy, Conflict, GameRecord, NewGame, StatsStore
from table import lobby_rules as rules
from table.answer import UserError
from table.clock import TurnClock
from table.end_screen import team_record
from table.games import NO_GAME, Games
from table.options import options_of
from table.people import is_ai, mention
from table.registry import registration
from table.seats import Seats

log = logging.getLogger(__name__)

# A start decided again this many times, each time on the row another writer left, before the lobby gives up.
START_ATTEMPTS = 5

# The leaver's own word when the autopilot takes their seat (the table is told by ``left_to_autopilot``).
YOU_LEFT_TO_AUTOPILOT = _(
    "You left the game. The autopilot plays your seat from now on, so the others play on. The table has been told."
)
LeftHow = Literal["lobby", "closed", "move", "autopilot"]


@dataclass(frozen=True, slots=True)
class Left:
    """What a person's leaving did: ``lobby`` (the lobby goes on without them), ``closed`` (they were its last
    person), ``autopilot`` (the autopilot plays their seat of the running game), or ``move`` (the game's own leave
    move is to be played, by the caller, through the table's one path for moves)."""

    record: GameRecord
    how: LeftHow
    host_left: bool = False


@dataclass(frozen=True, slots=True)
class Rematch:
    """A rematch's new lobby and what to tell the table about it."""

    record: GameRecord
    announcement: Localized


class Lobby:
    def __init__(
        self, games: Games, stats: StatsStore, clock: TurnClock | None = None, seats: Seats | None = None
    ) -> None:
        self.games = games
        self.storage = games.storage
        self.stats = stats  # the team's record, told with a rematch
        self.clock = clock
        self.seats = seats
        self.today: Callable[[], date] = rules.utc_today  # the daily deal's date; tests set their own

    async def lobby(self, channel_id: int) -> GameRecord:
        """The channel's lobby, or the refusal that says why there is none to change."""
        record = await self.games.open_record(channel_id)
        rules.still_a_lobby(record)
        if record.damaged:
            raise self.games.unavailable(record, record.damaged)
        self.games.presenter(record)  # refuses a game this bot doesn't know
        return record

    async def _change(self, record: GameRecord, rule: Callable[[GameRecord], dict[str, object] | None]) -> GameRecord:
        try:
            changed = await self.games.modify(record.id, rule)
        except Conflict:
            # Only after every try lost to another writer, each decided again on the row it left.
            raise UserError(rules.CHANGED_MEANWHILE) from None
        if changed is None:
            raise UserError(NO_GAME)
        return changed

    async def open(self, new: NewGame) -> GameRecord:
        """Open a lobby; refused while the channel has an open game."""
        try:
            record = await self.storage.create_game(new)
        except ChannelBusy:
            raise UserError(rules.busy(await self.storage.open_game(new.channel_id))) from None
        log.info("Lobby for %s opened in channel %s", new.kind, new.channel_id)
        return record

    async def join(self, channel_id: int, user: int) -> GameRecord:
        return await self._change(await self.lobby(channel_id), lambda row: rules.joined(row, user))

    async def seat_computer(self, channel_id: int, user: int) -> GameRecord:
        return await self._change(await self.lobby(channel_id), lambda row: rules.seated(row, user, +1))

    async def unseat_computer(self, channel_id: int, user: int) -> GameRecord:
        return await self._change(await self.lobby(channel_id), lambda row: rules.seated(row, user, -1))

    async def next_turn_time(self, channel_id: int, user: int) -> GameRecord:
        return await self._change(await self.lobby(channel_id), lambda row: rules.next_turn_time(row, user))

    async def start(self, channel_id: int, user: int, deal: Callable[[GameRecord], Awaitable[None]]) -> GameRecord:
        """Check that ``user`` may start the channel's lobby, deal the daily deal's cards if it plays it, then
        ``deal`` it (the table's start, which writes the row by compare-and-swap). A lobby changed meanwhile is
        checked and dealt again as it is now. Returns the lobby's row as it was dealt."""
        for _attempt in range(START_ATTEMPTS):
            record = await self.lobby(channel_id)
            rules.startable(record, user)
            try:
                if rules.is_daily(record):
                    # The table's size is known only now: deal the day's cards for it.
                    day = self.today()
                    seed = rules.daily_seed(record.kind, day, len(record.players))
                    record = await self.storage.set_daily_deal(record, seed, day.isoformat())
                await deal(record)
            except Conflict:
                continue
            return record
        raise UserError(rules.CHANGED_MEANWHILE)

    async def leave(self, channel_id: int, user: int) -> Left:
        """``user`` leaves the channel's lobby or game (``Left`` says what that did)."""
        record = await self.games.open_record(channel_id)
        if user not in record.players:
            raise UserError(_("You aren't in this game."))
        if record.status == "lobby":
            hosted: list[bool] = []

            def leave_lobby(row: GameRecord) -> dict[str, object]:
                hosted[:] = [row.host_id == user]
                return rules.left(row, user)

            changed = await self._change(record, leave_lobby)
            if changed.status != "lobby":
                return Left(changed, "closed")
            return Left(changed, "lobby", host_left=hosted[0])
        if not await self._autopilot_stays(record, user):
            return Left(record, "move", host_left=record.host_id == user)
        return await self._to_autopilot(record, user)

    async def _autopilot_stays(self, record: GameRecord, user: int) -> bool:
        """Whether the leaver's seat goes to the autopilot rather than out of the game: at a competitive game, while
        at least two other people still play their own seats (docs/leaving.md)."""
        presenter = self.games.presenter(record)
        if presenter.game.info.cooperative:
            return False
        live = await self.games.live(record)
        game, away = presenter.game, options_of(live.record).autopilot
        if not game.legal_actions(live.state, user):
            return False  # not seated any more: the game's own refusal says so
        others = [
            p
            for p in live.record.players
            if p != user and not is_ai(p) and p not in away and game.legal_actions(live.state, p)
        ]
        return len(others) >= 2

    async def _to_autopilot(self, record: GameRecord, user: int) -> Left:
        hosted: list[bool] = []

        def hand_over(row: GameRecord) -> dict[str, object] | None:
            if row.status != "running" or user not in row.players:
                raise UserError(NO_GAME)
            hosted[:] = [row.host_id == user]
            # A host who leaves hands the table to everybody: any player may end it.
            return {
                "options": options_of(row).but(autopilot=options_of(row).autopilot | {user}),
                **({"host_id": None} if row.host_id == user else {}),
            }

        changed = await self._change(record, hand_over)
        live = await self.games.live(changed)
        presenter = self.games.presenter(changed)
        if self.clock is not None:
            if presenter.game.current_player(live.state) == user:
                await self.clock.restart(live, presenter, moved_on=True)  # the autopilot's turn needs no clock
            await self.clock.announce(changed, left_to_autopilot(user))
        if self.seats is not None:
            self.seats.wake(changed.kind, changed.channel_id, changed)
        log.info("Player %s left game %s; the autopilot plays their seat", user, changed.id)
        return Left(changed, "autopilot", host_left=hosted[0])

    async def nobody_hosts(self, record: GameRecord, user: int) -> bool:
        """Whether ``user`` is a player at a table whose host has left (the lobby, to the autopilot, or by the
        game's own leave move): then any of them may end it, else nobody at the table could."""
        if user not in record.players:
            return False
        if record.host_id is None or record.host_id not in record.players:
            return True
        if record.status != "running":
            return False
        entry = registration(record.kind)
        if entry is None:
            return False
        leave = entry.game.encode_action(entry.game.leave)
        return any(m.player == record.host_id and m.action == leave for m in await self.storage.moves(record.id))

    async def rematch(self, game_id: int, channel_id: int | None, user: int, seed: int) -> Rematch:
        """A lobby with the players and options of the ended game ``game_id``, hosted by ``user``; only from the
        channel's newest end screen. A daily deal's rematch deals new cards: the day's were played already."""
        old = await self.storage.game(game_id)
        if old is None:
            raise UserError(_("That game can't be played again from here; open a new one with /newgame."))
        players = rules.rematch_players(old, channel_id, user)
        game = self.games.presenter(old).game
        new = NewGame(
            channel_id=old.channel_id,
            guild_id=old.guild_id,
            kind=old.kind,
            host_id=user,
            players=players,
            variants=old.variants,
            seed=seed,
            rules_version=game.info.rules_version,
            options=rules.rematch_options(old),
        )
        record_line = await team_record(self.stats, old)
        newest = rules.newest_played(await self.storage.channel_games(old.channel_id, limit=5))
        if newest is not None and newest.id != old.id and not newest.is_open:
            raise UserError(
                _(
                    "That Rematch is out of date: a later game has ended here since. Use the Rematch under the newest "
                    "end screen, or /newgame."
                )
            )
        try:
            record = await self.storage.create_game(new)
        except ChannelBusy:
            raise UserError(
                _("A game is already open in this channel: join it, or ask its host to /endgame.")
            ) from None
        return Rematch(record, lines(rules.wants_rematch(old, user), record_line))


def left_to_autopilot(user: int) -> Text:
    """What the table is told when a person leaves a competitive game that goes on without them."""
    return _(
        "{player} left the game: the autopilot plays their seat from now on, so the game goes on.",
        player=mention(user),
    )
