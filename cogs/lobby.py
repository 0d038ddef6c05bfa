"""Opening, joining and starting games, and the commands every running game shares (/hand, /board, /rules).

The lobby is the row of the channel's game while its state is still empty; starting hands the row to the
cog of that game, which deals. The lobby's buttons are a persistent view, so they keep working after a restart.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._storage import ChannelBusy, Table, now
from cogs._ui import NO_GAME, ErrorHandlingView, UserError, detached, in_text_channel, mention, send
from engine import no_thanks, the_game
from engine.base import GameInfo

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

GAMES: dict[str, GameInfo] = {the_game.INFO.kind: the_game.INFO, no_thanks.INFO.kind: no_thanks.INFO}
VARIANT_NAMES = {"expert": "expert", "smaller_hands": "smaller hands", "open_chips": "open chips"}
LOBBY_COLOUR = discord.Colour.blurple()


def variants_text(variants: tuple[str, ...]) -> str:
    return ", ".join(VARIANT_NAMES[v] for v in variants) if variants else "standard rules"


def lobby_embed(table: Table) -> discord.Embed:
    info = GAMES[table.kind]
    embed = discord.Embed(title=f"{info.title}: lobby", colour=LOBBY_COLOUR)
    embed.add_field(name="Variant", value=variants_text(table.variants), inline=False)
    players = "\n".join(f"{mention(p)}{' (host)' if p == table.host_id else ''}" for p in table.players) or "nobody yet"
    embed.add_field(name=f"Players ({len(table.players)}/{info.max_players})", value=players, inline=False)
    starter = "the host" if table.host_id is not None else "any player"
    embed.set_footer(text=f"{info.min_players}-{info.max_players} players. Join, then {starter} presses Start.")
    return embed


class LobbyView(ErrorHandlingView):
    """Join / Leave / Start under a lobby message; stateless, so one instance serves every lobby."""

    def __init__(self, cog: Lobby) -> None:
        super().__init__()
        self.cog = cog

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id="lobby:join")
    async def join_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.join(interaction)

    @discord.ui.button(label="Leave", style=discord.ButtonStyle.secondary, custom_id="lobby:leave")
    async def leave_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.leave(interaction)

    @discord.ui.button(label="Start", style=discord.ButtonStyle.primary, custom_id="lobby:start")
    async def start_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await self.cog.start(interaction)


class Lobby(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_view(LobbyView(self))

    def lobby_view(self) -> LobbyView:
        return detached(LobbyView(self))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- lobby commands --------------------------------------------------------------------------------------

    @app_commands.command(name="newgame", description="Open a game in this channel and join it as the host.")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game to play (default: The Game)",
        expert="The Game: lay at least three cards a turn while the draw pile lasts",
        smaller_hands="The Game: one card fewer in every hand",
        open_chips="No Thanks!: everybody's chips are shown on the board",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=info.title, value=info.kind) for info in GAMES.values()],
    )
    async def newgame(
        self,
        interaction: discord.Interaction[Bot],
        game: str = the_game.INFO.kind,
        expert: bool | None = None,
        smaller_hands: bool | None = None,
        open_chips: bool | None = None,
    ) -> None:
        info = GAMES[game]
        chosen = {"expert": expert, "smaller_hands": smaller_hands, "open_chips": open_chips}
        misfits = [name for name, value in chosen.items() if value is not None and name not in info.variants]
        if misfits:
            names = [VARIANT_NAMES[v] for v in info.variants]
            fits = f"its only option is {names[0]}" if len(names) == 1 else f"its options are {' and '.join(names)}"
            raise UserError(f"The option {VARIANT_NAMES[misfits[0]]} doesn't fit {info.title}: {fits}.")
        channel_id = interaction.channel_id
        assert channel_id is not None
        assert interaction.guild_id is not None
        table = Table(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            kind=info.kind,
            host_id=interaction.user.id,
            players=(interaction.user.id,),
            variants=tuple(name for name, value in chosen.items() if value),
            seed=self.bot.seeds.getrandbits(52),  # 52 bits stay exact through JSON in every client
        )
        async with self.bot.storage.lock(channel_id):
            try:
                table = await self.bot.storage.create(table)
            except ChannelBusy:
                existing = await self.bot.storage.open_table(channel_id)
                title = GAMES[existing.kind].title if existing else "game"
                state = "is waiting in its lobby" if existing and existing.status == "lobby" else "is being played"
                raise UserError(
                    f"A game of {title} {state} in this channel already: finish it or ask the host to /endgame."
                ) from None
            log.info("Lobby for %s opened in channel %s", info.kind, channel_id)
            await send(
                interaction,
                content=f"{interaction.user.mention} opened a game of {info.title}. Press Join to play!",
                embed=lobby_embed(table),
                view=self.lobby_view(),
            )

    @app_commands.command(name="join", description="Join the game waiting in this channel's lobby.")
    @app_commands.guild_only()
    async def join_command(self, interaction: discord.Interaction[Bot]) -> None:
        await self.join(interaction)

    @app_commands.command(name="leave", description="Leave this channel's game (lobby or running).")
    @app_commands.guild_only()
    async def leave_command(self, interaction: discord.Interaction[Bot]) -> None:
        await self.leave(interaction)

    @app_commands.command(name="start", description="Start the game in this channel (the host starts it).")
    @app_commands.guild_only()
    async def start_command(self, interaction: discord.Interaction[Bot]) -> None:
        await self.start(interaction)

    @app_commands.command(name="endgame", description="End this channel's lobby or game (host or Manage Channels).")
    @app_commands.guild_only()
    async def endgame(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with self.bot.storage.lock(channel_id):
            table = await self.open_table(channel_id)
            if interaction.user.id != table.host_id and not interaction.permissions.manage_channels:
                raise UserError("Only the host or a member with Manage Channels can end this game.")
            await self.bot.storage.save(replace(table, status="abandoned", ended_at=now()))
            log.info("%s in channel %s ended by %s", table.kind, channel_id, interaction.user.id)
            what = "lobby" if table.status == "lobby" else "game"
            await send(
                interaction,
                content=f"{interaction.user.mention} ended the {what} of {GAMES[table.kind].title}. "
                "No score is recorded; the channel is free for /newgame.",
            )

    # ---- what the buttons and commands do ----------------------------------------------------------------------

    async def open_table(self, channel_id: int) -> Table:
        table = await self.bot.storage.open_table(channel_id)
        if table is None:
            raise UserError(NO_GAME)
        return table

    async def lobby(self, channel_id: int) -> Table:
        table = await self.open_table(channel_id)
        if table.status != "lobby":
            raise UserError(f"The game of {GAMES[table.kind].title} here has already started; join the next one!")
        return table

    async def answer_lobby(self, interaction: discord.Interaction[Bot], table: Table, text: str) -> None:
        if interaction.type is discord.InteractionType.component and not interaction.response.is_done():
            await interaction.response.edit_message(content=text, embed=lobby_embed(table), view=self.lobby_view())
        else:
            await send(interaction, content=text, embed=lobby_embed(table), view=self.lobby_view())

    async def join(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with self.bot.storage.lock(channel_id):
            table = await self.lobby(channel_id)
            info = GAMES[table.kind]
            if interaction.user.id in table.players:
                raise UserError("You're already in this game.")
            if len(table.players) >= info.max_players:
                raise UserError(f"The lobby is full: {info.title} is for at most {info.max_players} players.")
            table = await self.bot.storage.save(replace(table, players=(*table.players, interaction.user.id)))
            await self.answer_lobby(interaction, table, f"{interaction.user.mention} joined.")

    async def leave(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with self.bot.storage.lock(channel_id):
            table = await self.open_table(channel_id)
            user = interaction.user.id
            if user not in table.players:
                raise UserError("You aren't in this game.")
            if table.status == "running":
                cog = self.bot.games[table.kind]
                # Running games are the rules' business; release our lock so the game cog can take it.
                leave_action = cog.leave_action()
            else:
                await self.leave_lobby(interaction, table, user)
                return
        await cog.act(interaction, leave_action)

    async def leave_lobby(self, interaction: discord.Interaction[Bot], table: Table, user: int) -> None:
        players = tuple(p for p in table.players if p != user)
        host = None if user == table.host_id else table.host_id
        if not players:
            await self.bot.storage.save(replace(table, players=players, status="abandoned", ended_at=now()))
            await send(interaction, content="Everybody left, so the lobby is closed. Open a new one with /newgame.")
            return
        note = " The host left: any player may start now." if host != table.host_id else ""
        table = await self.bot.storage.save(replace(table, players=players, host_id=host))
        await self.answer_lobby(interaction, table, f"{interaction.user.mention} left.{note}")

    async def start(self, interaction: discord.Interaction[Bot]) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with self.bot.storage.lock(channel_id):
            table = await self.lobby(channel_id)
            info = GAMES[table.kind]
            user = interaction.user.id
            if table.host_id is not None and user != table.host_id:
                raise UserError(f"Only the host, {mention(table.host_id)}, can start the game.")
            if table.host_id is None and user not in table.players:
                raise UserError("Only a player in the lobby can start the game; press Join first.")
            if len(table.players) < info.min_players:
                raise UserError(
                    f"{info.title} needs at least {info.min_players} players; {len(table.players)} joined so far."
                )
            cog = self.bot.games.get(table.kind)
            if cog is None:
                raise UserError(f"{info.title} isn't available on this bot yet.")
            if interaction.type is discord.InteractionType.component:
                # The lobby message keeps its player list but loses its buttons; the board follows below.
                await interaction.response.edit_message(content="The game has started.", view=None)
            await cog.start(interaction, table)

    # ---- commands every running game shares ---------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your own hand (and chips) privately.")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Bot]) -> None:
        table = await self.open_table(interaction.channel_id or 0)
        await self.game_cog(table).show_private(interaction, table)

    @app_commands.command(name="board", description="Post the board of this channel's game again.")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction[Bot]) -> None:
        table = await self.open_table(interaction.channel_id or 0)
        if table.status == "lobby":
            await send(interaction, content="Waiting for players.", embed=lobby_embed(table), view=self.lobby_view())
            return
        await self.game_cog(table).show_board(interaction, table)

    @app_commands.command(name="rules", description="The rules in short, privately.")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game's rules (default: the game in this channel, else The Game)")
    @app_commands.choices(game=[app_commands.Choice(name=info.title, value=info.kind) for info in GAMES.values()])
    async def rules(self, interaction: discord.Interaction[Bot], game: str | None = None) -> None:
        if game is None:
            table = await self.bot.storage.open_table(interaction.channel_id or 0)
            game = table.kind if table else the_game.INFO.kind
        cog = self.bot.games.get(game)
        if cog is None:
            raise UserError(f"{GAMES[game].title} isn't available on this bot yet.")
        await send(interaction, content=cog.rules_text, ephemeral=True)

    def game_cog(self, table: Table) -> Any:
        cog = self.bot.games.get(table.kind)
        if cog is None:
            raise UserError(f"{GAMES[table.kind].title} isn't available on this bot yet.")
        return cog


async def setup(bot: Bot) -> None:
    await bot.add_cog(Lobby(bot))
