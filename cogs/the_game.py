"""The Game in a channel: /play, /endturn and /signal, and the game's registration: its rules, its computer player,
its presenter and hand panel (``cogs.the_game_presenter``, ``cogs.the_game_panel``), the course picture of its end
screen (``cogs.the_game_picture``) and its first-game texts.

Every accepted action is answered by the interaction itself, carrying the new board, so a move costs no
rate-limited request; only the end-of-turn draw updates a player's DM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._types import Interaction
from cogs._ui import in_text_channel
from cogs.the_game_board import DIRECTION
from cogs.the_game_panel import PanelButton, TheGameBoard, dm_panel
from cogs.the_game_picture import the_game_end_picture
from cogs.the_game_presenter import PRESENTER
from engine import ai, the_game
from engine.the_game import EndTurn, Play, State
from i18n import Text, _, render
from table.admission import ANSWERED_PRIVATELY
from table.answer import UserError
from table.registry import ChatRule, Registration

if TYPE_CHECKING:
    from bot import Bot


def chat_rule_told(channel: str) -> Text:
    """The rule, told by DM to a player whose message in ``channel`` was removed."""
    return _(
        "The Game's rule: nobody may reveal card numbers while the game runs, so I removed your message in {channel}. "
        "No digits, number words (two to ninety-nine in English, German, French or Spanish), Roman numerals or "
        'number emoji. Name piles by letter (A, B, C, D) and give hints without numbers, like "don\'t lay on C" or '
        '"no big jump on A, please".',
        channel=channel,
    )


def chat_rule_notice(player: str | Text) -> Text:
    """The same, in the channel for a few seconds, to a player whose DMs are closed."""
    return _(
        "{player}, I removed your message: no numbers while The Game runs. Name piles by letter and give hints "
        "without numbers.",
        player=player,
    )


REGISTRATION = Registration(
    game=the_game.GAME,
    presenter=PRESENTER,
    extension=__name__,
    ai=ai.THE_GAME,
    end_picture=the_game_end_picture,  # the course of the game
    dm_panel=dm_panel,  # the hand in the DM carries its buttons (its resting page changes only by the player's moves)
    at_the_table=_(
        "**At the table**: press **My hand** under the board for your private panel: pick a card, then a pile (its "
        "button shows the jump), then **End turn**.\n"
        '- **Signals…** (or /signal) puts a sign on a pile, such as "please don\'t lay here" or "small steps '
        'only", for the whole table to see, without numbers.\n'
        "- Each turn has a clock (the turn time chosen in the lobby): a reminder comes first, then the autopilot "
        "plays for you and the table may vote on what happens next."
    ),
    first_game=_(
        "**New here? How to play:** on your turn press **My hand** under the board, pick a card, then a pile, and "
        "**End turn** when you have laid enough. **Signals…** tells the table about a pile without numbers.\n"
        "Each turn has a clock: when it runs out, the autopilot plays for you. /rules and /help say more."
    ),
    chat_rule=ChatRule(told=chat_rule_told, notice=chat_rule_notice),
)


class TheGame(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_view(TheGameBoard())
        self.bot.add_dynamic_items(PanelButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PanelButton)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # A lay is answered with the private panel, unless a new board goes up (the game ended, or talk since the board).
    @app_commands.command(
        name="play", description="Lay one card from your hand on a pile.", extras={ANSWERED_PRIVATELY: True}
    )
    @app_commands.guild_only()
    @app_commands.describe(card="A card from your hand", pile="A and B go up, C and D go down")
    @app_commands.choices(
        pile=[app_commands.Choice(name=f"{name} {DIRECTION[name]}", value=name) for name in the_game.PILES]
    )
    async def play(self, interaction: Interaction, card: app_commands.Range[int, 2, 99], pile: str) -> None:
        await self.bot.tables.act(interaction, Play(card=card, pile=pile), kind=the_game.INFO.kind)

    @play.autocomplete("card")
    async def card_autocomplete(self, interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
        try:
            live, _presenter = await self.bot.tables.games.running(interaction.channel_id or 0, the_game.INFO.kind)
        except UserError:
            return []
        state: State = live.state
        if interaction.user.id not in state.players:
            return []
        choices = []
        locale = interaction.locale.value
        for card in the_game.hand(state, interaction.user.id):
            if current and not str(card).startswith(current.strip()):
                continue
            piles = the_game.legal_piles(state, card)
            name = (
                _("{card} (on {piles})", card=card, piles=", ".join(piles))
                if piles
                else _("{card} (no legal pile)", card=card)
            )
            choices.append(app_commands.Choice(name=render(name, locale), value=card))
        return choices[:25]

    @app_commands.command(name="endturn", description="End your turn and draw back up.")
    @app_commands.guild_only()
    async def endturn(self, interaction: Interaction) -> None:
        await self.bot.tables.act(interaction, EndTurn(), kind=the_game.INFO.kind)

    @app_commands.command(
        name="signal", description="The Game: tell the table something about a pile, without numbers."
    )
    @app_commands.guild_only()
    @app_commands.describe(
        kind="What you want the table to know (or clear your signals)",
        pile='The pile it is about (not needed for "I\'m nearly stuck" or to clear all)',
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="Please don't lay here", value="dont_lay"),
            app_commands.Choice(name="I can do a backwards trick here", value="trick"),
            app_commands.Choice(name="Small steps only here", value="small_steps"),
            app_commands.Choice(name="I'm nearly stuck", value="nearly_stuck"),
            app_commands.Choice(name="Clear my signal(s)", value="clear"),
        ],
        pile=[app_commands.Choice(name=f"{name} {DIRECTION[name]}", value=name) for name in the_game.PILES],
    )
    async def signal(self, interaction: Interaction, kind: str, pile: str | None = None) -> None:
        await self.bot.tables.act(interaction, the_game.Signal(kind, pile), kind=the_game.INFO.kind)


async def setup(bot: Bot) -> None:
    await bot.add_cog(TheGame(bot))
