"""Opening, joining and starting games: /newgame, /join, /leave, /start and the lobby's buttons.

The lobby's rules and its writes are the core's (``table.lobby``); this cog turns commands and clicks into its
calls and shows what they return. Starting hands the game to the table (``table.flow``). The lobby's buttons are a
persistent view, so they keep working after a restart: its message is ``cogs.lobby_message``, who sits
at the table (join, leave, computer players, turn time) ``cogs.lobby_seating``. /newgame's options come from the games'
registry (``cogs._newgame``); the commands a running game shares are ``cogs.table_commands``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._newgame import DEFAULT_GAME, VARIANTS, checked_choices, newgame_command
from cogs._permissions import explain_missing_permissions
from cogs._types import Interaction
from cogs._ui import in_text_channel
from cogs.lobby_message import LobbyMessage, LobbyView, lobby_embed, lobby_view
from cogs.lobby_seating import Seating
from cogs.moderation import MISSING_PERMISSION
from cogs.threads import GameThread, open_thread, post_lobby_in_thread
from engine.game import NO_NUMBERS_IN_CHAT
from i18n import _, render
from storage import GameRecord, NewGame
from table.answer import in_time
from table.language import guild_locale_of
from table.options import DAILY, TURN_TIMES, TableOptions
from table.people import ai_seat_id
from table.registry import GAMES
from table.settings import check_games_allowed_here

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

# Where the other cogs find them.
__all__ = ["DEFAULT_GAME", "VARIANTS", "Lobby", "lobby_embed", "lobby_view"]


class Lobby(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.message = LobbyMessage(bot)
        self.seating = Seating(bot, self.message)

    newgame_command = newgame_command()

    async def cog_load(self) -> None:
        self.bot.add_view(LobbyView(self))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- lobby commands --------------------------------------------------------------------------------------

    async def newgame(
        self,
        interaction: Interaction,
        kind: str,
        chosen: dict[str, Any],
        bots: int = 0,
        turn_time: str | None = None,
        deal: str = "random",
        thread: bool = False,
    ) -> None:
        info = checked_choices(kind, chosen, bots, turn_time, deal)
        channel_id = interaction.channel_id
        assert channel_id is not None
        assert interaction.guild_id is not None
        server = await check_games_allowed_here(interaction, self.bot.storage)
        # In a thread already, the option changes nothing: the game opens in this thread.
        place: GameThread | None = None
        if thread and not isinstance(interaction.channel, discord.Thread):
            place = await open_thread(self.bot, interaction, info.title)
            channel_id = place.thread_id
        new = NewGame(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            kind=info.kind,
            host_id=interaction.user.id,
            players=(interaction.user.id, *(ai_seat_id(n) for n in range(bots))),
            variants=tuple(v.name for v in info.variants if chosen.get(v.name)),
            seed=self.bot.seeds.getrandbits(52),  # 52 bits stay exact through JSON in every client
            rules_version=info.rules_version,
            options=TableOptions(
                turn_time=TURN_TIMES[turn_time] if turn_time else server.turn_time(info.kind),
                deal=DAILY if deal == "daily" else None,
                # The server's choice when the game opened: a later change applies from the next game on.
                pings=server.pings,
                thread_of=place.parent_id if place else None,
                # For the posts no interaction causes (the clock, computer players): the server's language.
                guild_locale=guild_locale_of(interaction),
                language=server.chosen_language or None,
            ).dump(),
        )
        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            record = await self.bot.tables.lobby.open(new)
            text = _(
                "{player} opened a game of {game}. Press Join to play!",
                player=interaction.user.mention,
                game=info.title,
            )
            if place is None:
                await self.message.post(interaction, record, text)
            else:
                locale = self.bot.tables.languages.for_table(interaction)
                await post_lobby_in_thread(
                    self.bot,
                    interaction,
                    place,
                    record,
                    content=render(text, locale),
                    embed=lobby_embed(record, locale),
                    view=lobby_view(locale),
                )
        note = await self.seating.newcomer_note(interaction, record)
        await explain_missing_permissions(interaction, place.thread_id if place else None, also=note)

    @app_commands.command(name="join", description="Join the game waiting in this channel's lobby.")
    @app_commands.guild_only()
    async def join_command(self, interaction: Interaction) -> None:
        await self.join(interaction)

    @app_commands.command(name="leave", description="Leave this channel's game (lobby or running).")
    @app_commands.guild_only()
    async def leave_command(self, interaction: Interaction) -> None:
        await self.leave(interaction)

    @app_commands.command(name="start", description="Start the game in this channel (the host starts it).")
    @app_commands.guild_only()
    async def start_command(self, interaction: Interaction) -> None:
        await self.start(interaction)

    async def join(self, interaction: Interaction) -> None:
        await self.seating.join(interaction)

    async def leave(self, interaction: Interaction) -> None:
        await self.seating.leave(interaction)

    async def change_bots(self, interaction: Interaction, change: int) -> None:
        await self.seating.change_bots(interaction, change)

    async def next_turn_time(self, interaction: Interaction) -> None:
        await self.seating.next_turn_time(interaction)

    # ---- the deal ------------------------------------------------------------------------------------------------

    async def start(self, interaction: Interaction) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None

        async def deal(record: GameRecord) -> None:
            info = GAMES[record.kind].info
            extra = None
            if NO_NUMBERS_IN_CHAT in info.capabilities and not interaction.app_permissions.manage_messages:
                extra = MISSING_PERMISSION
            if interaction.type is not discord.InteractionType.component:
                # Started by command: the lobby keeps its player list but loses its buttons; the board follows below.
                # (Start pressed on the lobby turns the lobby message itself into the board.)
                started = render(_("The game has started."), self.bot.tables.languages.for_table(interaction))
                await self.message.edit(record, {"content": started, "view": None})
            await self.bot.tables.start(interaction, record, extra)

        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            await self.bot.tables.lobby.start(channel_id, interaction.user.id, deal)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Lobby(bot))
