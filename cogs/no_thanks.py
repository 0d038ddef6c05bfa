"""No Thanks! in a channel: /take and /nothanks (and the same two buttons on the board), chips by DM.

The board's buttons carry the game's id and the number of moves already made, so a click on an older board (a
card that is no longer face up, or a board of an earlier game in the channel) is refused instead of acting on the
current card. Both numbers are public, and the database keeps them across restarts.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui import ErrorHandlingView, in_text_channel, reply_error
from engine import no_thanks
from engine.no_thanks import Leave, NoThanks, State, Take
from storage import GameRecord
from table.answer import detached
from table.people import mention

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.orange()

RULES = """**No Thanks!**: a game for 3 to 7 players. Lowest score wins.
- The cards go from 3 to 35; nine are removed unseen, so the draw pile holds 24.
- On your turn, either say **No thanks!** (`/nothanks`): put one of your chips on the face-up card and pass, or \
**take** it (`/take`) with all the chips on it; then the next card is turned up and you move again.
- With no chips left, you must take.
- When the last card is taken, score: the sum of your cards, but a run of consecutive cards counts only its lowest \
card, minus one point per chip. The lowest score wins; on a tie, the tied player holding the highest card wins \
(an unofficial rule the bot uses).
- Chip counts are secret (you get yours by DM, or with /hand) unless the game uses *open chips*."""


def cards_text(cards: tuple[int, ...]) -> str:
    runs = no_thanks.runs(cards)
    return " ".join(f"[{run[0]}]" if len(run) == 1 else f"[{run[0]}-{run[-1]}]" for run in runs) or "no cards"


def face_up_line(state: State) -> str:
    card = no_thanks.face_up_card(state)
    if card is None:
        return "No cards left."
    chips = no_thanks.chips_on_card(state)
    return f"Face-up card: {card} ({chips} {'chip' if chips == 1 else 'chips'} on it)"


def render_board(state: State) -> discord.Embed:
    view = no_thanks.public_view(state)
    embed = discord.Embed(title="No Thanks!", colour=COLOUR, description=face_up_line(state))
    embed.add_field(name="Draw pile", value=f"{view.cards_left} cards face down")
    embed.add_field(name="Variant", value="open chips" if state.open_chips else "secret chips")
    lines = []
    for seat in view.players:
        chips = "" if seat.chips is None else f", {seat.chips} chips"
        marker = " ← to move" if seat.player == view.turn else ""
        lines.append(f"{mention(seat.player)}: {cards_text(seat.cards)} = {seat.points} points{chips}{marker}")
    embed.add_field(name="Players (points without chips)", value="\n".join(lines) or "nobody", inline=False)
    return embed


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"no_thanks:(?P<verb>take|pass):(?P<game>[0-9]+):(?P<moves>[0-9]+)",
):
    """Take or No thanks! under a board; the custom id remembers which board (game id, move count) it belongs to."""

    def __init__(self, verb: str, game: int, moves: int) -> None:
        take = verb == "take"
        super().__init__(
            discord.ui.Button(
                label="Take" if take else "No thanks!",
                style=discord.ButtonStyle.primary if take else discord.ButtonStyle.secondary,
                custom_id=f"no_thanks:{verb}:{game}:{moves}",
            )
        )
        self.verb = verb
        self.board = (game, moves)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        return cls(match["verb"], int(match["game"]), int(match["moves"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs errors raised by dynamic items, so they join the one error path here.
        try:
            action = Take() if self.verb == "take" else NoThanks()
            await interaction.client.tables.act(interaction, action, kind=no_thanks.INFO.kind, board=self.board)
        except Exception as error:
            await reply_error(interaction, error)


class HandButton(discord.ui.Button[Any]):
    def __init__(self) -> None:
        super().__init__(label="My cards and chips", style=discord.ButtonStyle.secondary, custom_id="no_thanks:hand")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.tables.show_panel(interaction, no_thanks.INFO.kind)


class NoThanksBoard(ErrorHandlingView):
    def __init__(self, board: tuple[int, int] | None = None, *, hand_button: bool = True) -> None:
        super().__init__()
        if board is not None:
            self.add_item(MoveButton("take", *board))
            self.add_item(MoveButton("pass", *board))
        if hand_button:
            self.add_item(HandButton())


class Presenter:
    """How No Thanks! reads to people; see ``table.presenter.Presenter``."""

    game = no_thanks.GAME
    rules_text = RULES
    closed_dms_hint = (
        "Open your DMs for this server (Privacy Settings > Direct Messages) to get your chip count, or use /hand."
    )

    def board(self, state: State) -> discord.Embed:
        return render_board(state)

    def board_view(self, record: GameRecord, state: State) -> discord.ui.View:
        return NoThanksBoard((record.id, state.move_count))

    def headline(self, state: State) -> str | None:
        return None if no_thanks.is_over(state) else face_up_line(state)

    def private_text(self, state: State, player: int) -> str:
        return f"Your chips: {no_thanks.chips(state, player)}\nYour cards: {cards_text(no_thanks.hand(state, player))}"

    def start_text(self, state: State) -> str:
        first = no_thanks.current_player(state)
        chips = "Everybody's chips are shown on the board." if state.open_chips else "Your chips are in your DMs."
        return (
            f"No Thanks! begins with {', '.join(mention(p) for p in state.players)}. {chips} "
            f"{mention(first) if first else 'Nobody'} goes first: /take or /nothanks (or the buttons)."
        )

    def announce(self, before: State, after: State, player: int, action: Any) -> str:
        name = mention(player)
        if isinstance(action, Take):
            chips = no_thanks.chips_on_card(before)
            text = f"{name} took {no_thanks.face_up_card(before)} with {chips} {'chip' if chips == 1 else 'chips'}."
        elif isinstance(action, NoThanks):
            text = f"{name}: No thanks! (one chip on {no_thanks.face_up_card(before)})"
        else:
            text = f"{name} left the game; their cards and chips left with them."
        upcoming = no_thanks.current_player(after)
        if isinstance(action, Leave) and upcoming == no_thanks.current_player(before):
            pass  # somebody else left: the turn did not change
        elif upcoming is not None:
            text += f" {mention(upcoming)}, your turn." if upcoming != player else f" {name}, you move again."
        return text

    def game_over_text(self, state: State) -> str:
        if state.status == "abandoned":
            return "**Game over**: fewer than three players remain, so the game is abandoned and records no score."
        lines = ["**Game over**. Scores (lowest wins):"]
        for line in no_thanks.scores(state):
            lines.append(
                f"{mention(line.player)}: {cards_text(tuple(c for run in line.runs for c in run))} "
                f"= {line.card_points} points - {line.chips} chips = **{line.total}**"
            )
        winner, tie_break = no_thanks.winner(state)
        lines.append(f"Winner: {mention(winner)}!")
        if tie_break:
            lines.append("(A tie, broken by the unofficial rule: the tied player holding the highest card wins.)")
        removed = ", ".join(str(card) for card in sorted(no_thanks.removed_cards(state)))
        lines.append(f"The nine cards removed at the start: {removed}.")
        return "\n".join(lines)

    def dm_due(self, before: State, after: State, player: int, action: Any) -> list[int]:
        # Also after the last card: taking it with chips on it changes the taker's count, which is promised by DM.
        if isinstance(action, Leave):
            return []
        changed = no_thanks.chips(after, player) != no_thanks.chips(before, player)
        return [player] if changed else []

    def show_after(self, before: State, after: State, player: int, action: Any) -> bool:
        return False

    def new_board(self, before: State, after: State, player: int, action: Any) -> bool:
        # A card taken turns up the next one: worth a new board. A chip paid only edits it, and pings nobody.
        return isinstance(action, Take)

    def panel(self, record: GameRecord, state: State, player: int, page: str | None) -> dict[str, Any]:
        """Your chips and cards, the card on offer, and Take / No thanks! when it is your turn."""
        lines = [self.private_text(state, player), face_up_line(state)]
        mover = no_thanks.current_player(state)
        if mover == player:
            lines.append("Your turn.")
            view: discord.ui.View = NoThanksBoard((record.id, state.move_count), hand_button=False)
        else:
            lines.append("The game is over." if mover is None else f"{mention(mover)} is deciding.")
            view = discord.ui.View()
        return {"content": "\n".join(lines), "view": detached(view)}


PRESENTER = Presenter()


class NoThanksCog(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tables.presenters[no_thanks.INFO.kind] = PRESENTER
        self.bot.add_dynamic_items(MoveButton)
        self.bot.add_view(NoThanksBoard())  # the static "my cards" button

    async def cog_unload(self) -> None:
        self.bot.tables.presenters.pop(no_thanks.INFO.kind, None)
        self.bot.remove_dynamic_items(MoveButton)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    @app_commands.command(name="take", description="No Thanks!: take the face-up card and the chips on it.")
    @app_commands.guild_only()
    async def take(self, interaction: discord.Interaction[Bot]) -> None:
        await self.bot.tables.act(interaction, Take(), kind=no_thanks.INFO.kind)

    @app_commands.command(name="nothanks", description="No Thanks!: put one of your chips on the face-up card.")
    @app_commands.guild_only()
    async def nothanks(self, interaction: discord.Interaction[Bot]) -> None:
        await self.bot.tables.act(interaction, NoThanks(), kind=no_thanks.INFO.kind)


async def setup(bot: Bot) -> None:
    await bot.add_cog(NoThanksCog(bot))
