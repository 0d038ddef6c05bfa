"""The lobby's one message: its embed (the game, variant, turn time and seats) and its buttons, in the table's
language; posting it, editing it in place and answering a click or a command with it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord

from cogs._results import variants_text
from cogs._types import Interaction
from cogs._ui import ErrorHandlingView
from cogs.daily import DAILY_DEAL
from i18n import Localized, Text, _, _p, lines, render
from storage import GameRecord
from table.answer import committed, detached, send, update
from table.options import options_of, turn_time, turn_time_words
from table.people import is_ai, mention
from table.registry import GAMES

if TYPE_CHECKING:
    from bot import Bot

LOBBY_COLOUR = discord.Colour.blurple()


def lobby_seat(record: GameRecord, player: int) -> Text | str:
    host, computer = player == record.host_id, is_ai(player)
    if host and computer:
        return _("{player} (host) (computer)", player=mention(player))
    if host:
        return _("{player} (host)", player=mention(player))
    if computer:
        return _("{player} (computer)", player=mention(player))
    return mention(player)


def lobby_embed(record: GameRecord, locale: str) -> discord.Embed:
    """The lobby in the table's ``locale``."""
    info = GAMES[record.kind].info

    def say(text: Localized) -> str:
        return render(text, locale)

    embed = discord.Embed(title=say(_("{game}: lobby", game=info.title)), colour=LOBBY_COLOUR)
    embed.add_field(name=say(_("Variant")), value=say(variants_text(record.kind, record.variants)), inline=False)
    embed.add_field(name=say(_("Turn time")), value=say(turn_time_words(turn_time(record))), inline=False)
    if options_of(record).daily:
        embed.add_field(name=say(_("Deal")), value=say(DAILY_DEAL), inline=False)
    players = lines(*(lobby_seat(record, p) for p in record.players)) if record.players else _("nobody")
    embed.add_field(
        name=say(_("Players ({count}/{most})", count=len(record.players), most=info.max_players)),
        value=say(players),
        inline=False,
    )
    if record.host_id is not None:
        footer = _(
            "{least}-{most} players. Join, then the host presses Start.", least=info.min_players, most=info.max_players
        )
    else:
        footer = _(
            "{least}-{most} players. Join, then any player presses Start.",
            least=info.min_players,
            most=info.max_players,
        )
    embed.set_footer(text=say(footer))
    return embed


class LobbyActions(Protocol):
    """What the lobby's buttons do (the lobby's cog)."""

    async def join(self, interaction: Interaction) -> None: ...
    async def leave(self, interaction: Interaction) -> None: ...
    async def start(self, interaction: Interaction) -> None: ...
    async def change_bots(self, interaction: Interaction, change: int) -> None: ...
    async def next_turn_time(self, interaction: Interaction) -> None: ...


class LobbyView(ErrorHandlingView):
    """Join / Leave / Start under a lobby message; stateless, so one instance serves every lobby (its labels are in
    the table's language when it is sent; clicks match by custom id)."""

    def __init__(self, actions: LobbyActions | None, locale: str = "en") -> None:
        super().__init__()
        self._actions = actions  # None for a copy that is only sent: the registered instance answers its clicks
        labels = {
            self.join_button: _p("button", "Join"),
            self.leave_button: _p("button", "Leave"),
            self.start_button: _p("button", "Start"),
            self.add_bot_button: _p("button", "Add bot"),
            self.remove_bot_button: _p("button", "Remove bot"),
            self.turn_time_button: _p("button", "Turn time"),
        }
        for button, label in labels.items():
            button.label = render(label, locale)

    def actions(self) -> LobbyActions:
        assert self._actions is not None, "a sent copy of the lobby's buttons is answered by the registered view"
        return self._actions

    @discord.ui.button(label="Join", style=discord.ButtonStyle.success, custom_id="lobby:join")
    async def join_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self.actions().join(interaction)

    @discord.ui.button(label="Leave", style=discord.ButtonStyle.secondary, custom_id="lobby:leave")
    async def leave_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self.actions().leave(interaction)

    @discord.ui.button(label="Start", style=discord.ButtonStyle.primary, custom_id="lobby:start")
    async def start_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self.actions().start(interaction)

    @discord.ui.button(label="Add bot", style=discord.ButtonStyle.secondary, custom_id="lobby:add_bot", row=1)
    async def add_bot_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self.actions().change_bots(interaction, +1)

    @discord.ui.button(label="Remove bot", style=discord.ButtonStyle.secondary, custom_id="lobby:remove_bot", row=1)
    async def remove_bot_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self.actions().change_bots(interaction, -1)

    @discord.ui.button(label="Turn time", style=discord.ButtonStyle.secondary, custom_id="lobby:turn_time", row=1)
    async def turn_time_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await self.actions().next_turn_time(interaction)


def lobby_view(locale: str) -> LobbyView:
    """The lobby's buttons to send under a message, in ``locale`` (clicks reach the view the lobby's cog registered)."""
    return detached(LobbyView(None, locale))


class LobbyMessage:
    """The lobby's message in a channel: one message that every join and leave edits."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def post(self, interaction: Interaction, record: GameRecord, text: Localized) -> None:
        """The lobby's one message, in the table's language: every join and leave edits it."""
        locale = self.bot.tables.languages.for_table(interaction)
        posted = await send(
            interaction, content=render(text, locale), embed=lobby_embed(record, locale), view=lobby_view(locale)
        )
        if posted is not None:
            await self.bot.storage.set_message(record.id, posted)

    async def answer(self, interaction: Interaction, record: GameRecord, text: Text, done: Text) -> None:
        """Keep the lobby one message (in the table's language): a click edits it in place; a command edits it and
        answers privately (in the user's language). The change is saved already: a refusal from Discord now is told
        as what was done (``done``) and what failed."""
        locale = self.bot.tables.languages.for_table(interaction)
        message: dict[str, Any] = {
            "content": render(text, locale),
            "embed": lobby_embed(record, locale),
            "view": lobby_view(locale),
        }
        clicked = interaction.message if interaction.type is discord.InteractionType.component else None
        async with committed(interaction, done):
            if clicked is not None and not interaction.response.is_done():
                await update(interaction, **message)
                if clicked.id != record.message_id:
                    await self.bot.storage.set_message(record.id, clicked.id)
                return
            if record.message_id is None or not await self.edit(record, message):
                await self.post(interaction, record, text)
                return
            await send(
                interaction,
                content=render(_("{news} The lobby above is up to date.", news=text), interaction.locale.value),
                ephemeral=True,
            )

    async def edit(self, record: GameRecord, message: dict[str, Any]) -> bool:
        """Edit the lobby message in place; False if it is gone."""
        if record.message_id is None:
            return False
        channel = self.bot.get_partial_messageable(record.channel_id)
        try:
            await channel.get_partial_message(record.message_id).edit(**message)
        except discord.NotFound:
            return False
        return True
