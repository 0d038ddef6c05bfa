"""Who sits at a lobby's table: joining and leaving, seating and sending away computer players, and the host's
turn time. Each change is saved on the game's row (again if somebody changed it meanwhile), then shown on the lobby's
message."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs._learning import first_game_note
from cogs._newgame import MAX_BOTS, no_computer_players
from cogs.lobby_message import LobbyMessage
from engine import GAMES
from engine.ai import PLAYERS as AI_PLAYERS
from i18n import Text, _, render
from storage import Conflict, GameRecord, now
from table.answer import UserError, in_time, send
from table.options import TURN_TIMES, options_of, turn_time, turn_time_words
from table.people import ai_seat_id, is_ai, mention

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)


class Seating:
    """The lobby's seats and settings before the deal (the lobby's cog starts the game)."""

    def __init__(self, bot: Bot, message: LobbyMessage) -> None:
        self.bot = bot
        self.message = message

    async def lobby(self, channel_id: int) -> GameRecord:
        record = await self.bot.tables.open_record(channel_id)
        if record.status != "lobby":
            title = self.bot.tables.title(record.kind)
            raise UserError(_("The game of {game} here has already started; join the next one!", game=title))
        if record.damaged:
            raise self.bot.tables.unavailable(record, record.damaged)
        self.bot.tables.presenter(record)  # refuses a game this bot doesn't know
        return record

    async def change_lobby(self, channel_id: int, change: Any) -> GameRecord:
        """Apply ``change(record) -> changes`` to the channel's lobby, again if somebody changed it meanwhile."""
        for _attempt in range(5):
            record = await self.lobby(channel_id)
            try:
                return await self.bot.storage.update_game(record, **change(record))
            except Conflict:
                continue
        raise UserError(_("The lobby is changing fast; please try again."))

    async def join(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id

        def add(record: GameRecord) -> dict[str, Any]:
            info = GAMES[record.kind].info
            if user in record.players:
                raise UserError(_("You're already in this game."))
            if len(record.players) >= info.max_players:
                raise UserError(
                    _(
                        "The lobby is full: {game} is for at most {most} players.",
                        game=info.title,
                        most=info.max_players,
                    )
                )
            return {"players": (*record.players, user)}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, add)
        await self.message.answer(
            interaction, record, _("{player} joined.", player=interaction.user.mention), _("You joined")
        )
        note = await self.newcomer_note(interaction, record)
        if note is None:
            return
        try:
            await send(interaction, content=render(note, interaction.locale.value), ephemeral=True)
        except discord.HTTPException:
            # The lobby is up and the player is in: a note that could not go out changes nothing.
            log.info("The first-game note for %s could not be sent", interaction.user.id, exc_info=True)

    async def newcomer_note(self, interaction: discord.Interaction[Bot], record: GameRecord) -> Text | None:
        """For a person's first game on this server (no game of theirs has ended here yet): a short private note on
        how the table is played here."""
        if await self.bot.storage.player_tallies(record.guild_id, interaction.user.id):
            return None
        return first_game_note(record.kind)

    async def leave(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id
        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.bot.tables.open_record(channel_id)
            if user not in record.players:
                raise UserError(_("You aren't in this game."))
            if record.status == "lobby":
                await self.leave_lobby(interaction, record, user)
                return
        presenter = self.bot.tables.presenter(record)
        await self.bot.tables.act(interaction, presenter.game.leave, kind=record.kind)

    async def next_turn_time(self, interaction: discord.Interaction[Bot]) -> None:
        """The host steps through the turn times, one click each."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id
        choices = list(TURN_TIMES.values())

        def step(record: GameRecord) -> dict[str, Any]:
            if record.host_id is not None and user != record.host_id:
                raise UserError(_("Only the host, {host}, sets the turn time.", host=mention(record.host_id)))
            current = turn_time(record)
            following = choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]
            return {"options": options_of(record).but(turn_time=following)}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, step)
        await self.message.answer(
            interaction,
            record,
            _("Turn time: {time} (press again to change).", time=turn_time_words(turn_time(record))),
            _("The turn time was changed"),
        )

    async def change_bots(self, interaction: discord.Interaction[Bot], change: int) -> None:
        """Seat a computer player (``change`` 1) or send the last one away (-1); the host's choice."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        user = interaction.user.id

        def seat(record: GameRecord) -> dict[str, Any]:
            info = GAMES[record.kind].info
            if record.host_id is not None and user != record.host_id:
                raise UserError(_("Only the host, {host}, seats computer players.", host=mention(record.host_id)))
            if record.host_id is None and user not in record.players:
                raise UserError(_("Only a player in the lobby can seat computer players; press Join first."))
            bots = [p for p in record.players if is_ai(p)]
            if change > 0:
                if info.kind not in AI_PLAYERS:
                    raise UserError(no_computer_players(info))
                if len(record.players) >= info.max_players:
                    raise UserError(
                        _(
                            "The table is full: {game} is for at most {most} players.",
                            game=info.title,
                            most=info.max_players,
                        )
                    )
                taken = set(bots)
                new = next(ai_seat_id(n) for n in range(MAX_BOTS + 1) if ai_seat_id(n) not in taken)
                return {"players": (*record.players, new)}
            if not bots:
                raise UserError(_("There is no computer player to remove."))
            return {"players": tuple(p for p in record.players if p != bots[-1])}

        async with in_time(interaction), self.bot.tables.lock(channel_id):
            record = await self.change_lobby(channel_id, seat)
        player = interaction.user.mention
        done = (
            _("{player} seated a computer player.", player=player)
            if change > 0
            else _("{player} sent a computer player away.", player=player)
        )
        mine = _("You seated a computer player") if change > 0 else _("You sent a computer player away")
        await self.message.answer(interaction, record, done, mine)

    async def leave_lobby(self, interaction: discord.Interaction[Bot], record: GameRecord, user: int) -> None:
        players = tuple(p for p in record.players if p != user)
        host = None if user == record.host_id else record.host_id
        if all(is_ai(p) for p in players):
            await self.bot.storage.update_game(record, players=players, status="abandoned", ended_at=now())
            closed = _("Everybody left, so the lobby is closed. Open a new one with /newgame.")
            await send(interaction, content=render(closed, self.bot.tables.languages.for_table(interaction)))
            return
        host_left = host != record.host_id
        try:
            record = await self.bot.storage.update_game(record, players=players, host_id=host)
        except Conflict:
            raise UserError(_("The lobby changed at the same moment; please try again.")) from None
        player = interaction.user.mention
        left = (
            _("{player} left. The host left: any player may start now.", player=player)
            if host_left
            else _("{player} left.", player=player)
        )
        await self.message.answer(interaction, record, left, _("You left"))
