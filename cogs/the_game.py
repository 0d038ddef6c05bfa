"""The Game in a channel: /play and /endturn, and how the game reads (its presenter).

Every accepted action is answered by the interaction itself, carrying the new board, so a move costs no
rate-limited request; only the end-of-turn draw updates a player's DM.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui import ErrorHandlingView, UserError, in_text_channel, mention
from engine import the_game
from engine.the_game import EndTurn, Leave, Play, State
from storage import GameRecord

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_teal()
DIRECTION = {"A": "↑ ascending", "B": "↑ ascending", "C": "↓ descending", "D": "↓ descending"}
EXCELLENT = 10  # the rulebook's "excellent result": fewer than this many cards left

RULES = """**The Game**: a cooperative game. Together, lay all 98 cards (2 to 99) on four piles.
- Piles **A** and **B** go up from 1: a card must be **higher** than the top card. Piles **C** and **D** go down from \
100: a card must be **lower**.
- **Backwards trick**: a card exactly ten lower on an up pile, or exactly ten higher on a down pile, is always legal.
- On your turn lay at least **two** cards (**three** in expert) with `/play`, then `/endturn` to draw back up. Once \
the draw pile is empty, one card is enough. You may lay more, up to your whole hand.
- Until the first card is laid, anyone may start: whoever lays it takes the first turn.
- **Never reveal numbers**: no digits or number words in the chat (the bot removes them). Hints are fine: "don't \
lay on A", "no big jump on C".
- The game ends when the player to move cannot lay their minimum. Score: the cards not laid. 0 beats the game; fewer \
than 10 is excellent.
- Variants: *expert* (minimum three), *smaller hands* (one card fewer each)."""


def variant_text(state: State) -> str:
    names = [name for name, on in (("expert", state.expert), ("smaller hands", state.smaller_hands)) if on]
    return ", ".join(names) if names else "standard rules"


def hand_line(cards: tuple[int, ...]) -> str:
    """The line players (and tests) read their hand from: ``Your hand:`` then the cards, ascending."""
    return "Your hand: " + (", ".join(str(card) for card in cards) if cards else "(no cards)")


def render_board(state: State) -> discord.Embed:
    view = the_game.public_view(state)
    embed = discord.Embed(title="The Game", colour=COLOUR)
    embed.description = "\n".join(f"**{pile.name}** {DIRECTION[pile.name]}: **{pile.top}**" for pile in view.piles)
    embed.add_field(name="Draw pile", value=f"{view.draw_pile} cards")
    embed.add_field(name="Variant", value=variant_text(state))
    players = []
    for seat in view.seats:
        marker = " ← to move" if seat.player == view.current_player else ""
        status = "left the game" if seat.left else f"{seat.cards} cards"
        players.append(f"{mention(seat.player)}: {status}{marker}")
    embed.add_field(name="Players", value="\n".join(players), inline=False)
    if view.over:
        embed.set_footer(text=f"Game over: {view.score} cards not laid.")
    elif view.current_player is None:
        embed.add_field(name="Turn", value="Anyone may lay the first card with /play.", inline=False)
    else:
        embed.add_field(
            name="Turn",
            value=f"{mention(view.current_player)}: {view.laid} laid, at least {view.minimum} this turn.",
            inline=False,
        )
    return embed


class Presenter:
    """How The Game reads to people; see ``cogs._flow.Presenter``."""

    game = the_game.GAME
    rules_text = RULES
    closed_dms_hint = (
        "Open your DMs for this server (Privacy Settings > Direct Messages) to get your hand, or use /hand."
    )

    def board(self, state: State) -> discord.Embed:
        return render_board(state)

    def board_view(self, record: GameRecord, state: State) -> discord.ui.View:
        return TheGameBoard()

    def headline(self, state: State) -> str | None:
        return None

    def private_text(self, state: State, player: int) -> str:
        return hand_line(the_game.hand(state, player))

    def start_text(self, state: State) -> str:
        minimum = the_game.public_view(state).minimum
        return (
            f"The Game begins ({variant_text(state)}) with {', '.join(mention(p) for p in state.players)}! "
            f"Your hands are in your DMs (or use /hand). Anyone may lay the first card with /play; "
            f"lay at least {minimum} cards each turn, then /endturn. No numbers in the chat from now on."
        )

    def announce(self, before: State, after: State, player: int, action: Any) -> str:
        name = mention(player)
        if isinstance(action, Play):
            trick = the_game.is_backwards_trick(action.pile, the_game.top(before, action.pile), action.card)
            text = f"{name} laid {action.card} on {action.pile}" + (": backwards trick!" if trick else ".")
            view = the_game.public_view(after)
            if not view.over and view.current_player == player and view.laid < view.minimum:
                owed = view.minimum - view.laid
                text += f" {owed} more to go this turn."
            return text
        if isinstance(action, EndTurn):
            drawn = len(the_game.hand(after, player)) - len(the_game.hand(before, player))
            text = f"{name} ended the turn and drew {drawn}." if drawn else f"{name} ended the turn."
        else:
            text = f"{name} left the game; their cards went back into the draw pile."
        upcoming = the_game.current_player(after)
        if isinstance(action, Leave) and upcoming == the_game.current_player(before):
            pass  # somebody else left: the turn did not change
        elif upcoming is not None and not the_game.is_over(after):
            text += f" {mention(upcoming)}, your turn."
        return text

    def game_over_text(self, state: State) -> str:
        if state.status == "abandoned":
            return "**Game over**: everybody left, so the game is abandoned and records no score."
        summary = the_game.summary(state)
        left = the_game.score(state)
        if left == 0:
            verdict = "You won: every card is laid, you beat The Game!"
        elif left < EXCELLENT:
            verdict = "An excellent result (fewer than ten)!"
        else:
            verdict = "The piles are blocked; better luck next time."
        piles = ", ".join(f"{name} {length}" for name, length in zip(the_game.PILES, summary.pile_lengths, strict=True))
        return (
            f"**Game over**: {left} cards not laid. {verdict}\n"
            f"Turns: {summary.turns}. Backwards tricks: {summary.backwards_tricks}. Cards per pile: {piles}."
        )

    def dm_due(self, before: State, after: State, player: int, action: Any) -> list[int]:
        # Even when the game ends right after the draw: the newest DM always shows the hand as it is.
        drew = isinstance(action, EndTurn) and the_game.hand(after, player) != the_game.hand(before, player)
        return [player] if drew else []

    def show_after(self, before: State, after: State, player: int, action: Any) -> bool:
        # After every card, the last one too: the mover always sees what is left in their hand.
        return isinstance(action, Play)


PRESENTER = Presenter()


class TheGameBoard(ErrorHandlingView):
    """The button under every board: a private look at one's own hand."""

    @discord.ui.button(label="My hand", style=discord.ButtonStyle.secondary, custom_id="the_game:hand")
    async def hand_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await interaction.client.tables.show_private(interaction, the_game.INFO.kind)


class TheGame(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tables.presenters[the_game.INFO.kind] = PRESENTER
        self.bot.add_view(TheGameBoard())

    async def cog_unload(self) -> None:
        self.bot.tables.presenters.pop(the_game.INFO.kind, None)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    @app_commands.command(name="play", description="Lay one card from your hand on a pile.")
    @app_commands.guild_only()
    @app_commands.describe(card="A card from your hand", pile="A and B go up, C and D go down")
    @app_commands.choices(
        pile=[app_commands.Choice(name=f"{name} {DIRECTION[name]}", value=name) for name in the_game.PILES]
    )
    async def play(
        self, interaction: discord.Interaction[Bot], card: app_commands.Range[int, 2, 99], pile: str
    ) -> None:
        await self.bot.tables.act(interaction, Play(card=card, pile=pile), kind=the_game.INFO.kind)

    @play.autocomplete("card")
    async def card_autocomplete(
        self, interaction: discord.Interaction[Bot], current: str
    ) -> list[app_commands.Choice[int]]:
        try:
            live, _ = await self.bot.tables.running(interaction.channel_id or 0, the_game.INFO.kind)
        except UserError:
            return []
        state: State = live.state
        if interaction.user.id not in state.players:
            return []
        choices = []
        for card in the_game.hand(state, interaction.user.id):
            if current and not str(card).startswith(current.strip()):
                continue
            piles = the_game.legal_piles(state, card)
            where = "on " + ", ".join(piles) if piles else "no legal pile"
            choices.append(app_commands.Choice(name=f"{card} ({where})", value=card))
        return choices[:25]

    @app_commands.command(name="endturn", description="End your turn and draw back up.")
    @app_commands.guild_only()
    async def endturn(self, interaction: discord.Interaction[Bot]) -> None:
        await self.bot.tables.act(interaction, EndTurn(), kind=the_game.INFO.kind)


async def setup(bot: Bot) -> None:
    await bot.add_cog(TheGame(bot))
