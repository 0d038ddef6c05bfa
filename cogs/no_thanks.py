"""No Thanks! in a channel: /take and /nothanks (and the same two buttons on the board), chips by DM.

The board's buttons carry the game's id and the number of moves already made, so a click on an older board (a
card that is no longer face up, or a board of an earlier game in the channel) is refused instead of acting on the
current card. Both numbers are public, and the database keeps them across restarts.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._repeats import act_once
from cogs._types import Interaction
from cogs._ui import Admitted, ErrorHandlingView, in_text_channel, reply_error
from engine import ai, no_thanks
from engine.no_thanks import Leave, NoThanks, State, Take
from i18n import Localized, Text, _, _n, _p, joined, lines, render
from storage import GameRecord
from table.answer import detached
from table.people import mention
from table.presenter import Step
from table.registry import Registration

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.orange()

RULES = _(
    "**No Thanks!**: a game for 3 to 7 players. Lowest score wins.\n"
    "- The cards go from 3 to 35; nine are removed unseen, so the draw pile holds 24.\n"
    "- On your turn, either say **No thanks!** (`/nothanks`): put one of your chips on the face-up card and pass, or "
    "**take** it (`/take`) with all the chips on it; then the next card is turned up and you move again.\n"
    "- With no chips left, you must take.\n"
    "- When the last card is taken, score: the sum of your cards, but a run of consecutive cards counts only its "
    "lowest card, minus one point per chip. The lowest score wins; on a tie, the tied player holding the highest card "
    "wins (an unofficial rule the bot uses).\n"
    "- Chip counts are secret (you get yours by DM, or with /hand) unless the game uses *open chips*."
)


def cards_text(cards: tuple[int, ...]) -> str | Text:
    """Cards as runs, ``[3-5] [10]`` (numbers are the same in every language)."""
    runs = no_thanks.runs(cards)
    return " ".join(f"[{run[0]}]" if len(run) == 1 else f"[{run[0]}-{run[-1]}]" for run in runs) or _("no cards")


def face_up_line(state: State) -> Text:
    card = no_thanks.face_up_card(state)
    if card is None:
        return _("No cards left.")
    chips = no_thanks.chips_on_card(state)
    return _n(
        "Face-up card: {card} ({count} chip on it)", "Face-up card: {card} ({count} chips on it)", chips, card=card
    )


def seat_line(seat: no_thanks.PlayerView, to_move: bool) -> Text:
    """A seat on the board: its cards, their points, its chips when they are open, and the mover's arrow."""
    player, cards = mention(seat.player), cards_text(seat.cards)
    points = _n("{count} point", "{count} points", seat.points)
    if seat.chips is None:
        if to_move:
            return _("{player}: {cards} = {points} ← to move", player=player, cards=cards, points=points)
        return _("{player}: {cards} = {points}", player=player, cards=cards, points=points)
    chips = _n("{count} chip", "{count} chips", seat.chips)
    if to_move:
        return _(
            "{player}: {cards} = {points}, {chips} ← to move", player=player, cards=cards, points=points, chips=chips
        )
    return _("{player}: {cards} = {points}, {chips}", player=player, cards=cards, points=points, chips=chips)


def render_board(state: State, locale: str = "en") -> discord.Embed:
    view = no_thanks.public_view(state)
    embed = discord.Embed(title="No Thanks!", colour=COLOUR, description=render(face_up_line(state), locale))
    embed.add_field(
        name=render(_("Draw pile"), locale),
        value=render(_n("{count} card face down", "{count} cards face down", view.cards_left), locale),
    )
    variant = _p("variant", "open chips") if state.open_chips else _p("variant", "secret chips")
    embed.add_field(name=render(_("Variant"), locale), value=render(variant, locale))
    seats = [seat_line(seat, seat.player == view.turn) for seat in view.players]
    embed.add_field(
        name=render(_("Players (points without chips)"), locale),
        value=render(lines(*seats) if seats else _("nobody"), locale),
        inline=False,
    )
    return embed


class MoveButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"no_thanks:(?P<verb>take|pass):(?P<game>[0-9]+):(?P<moves>[0-9]+)",
):
    """Take or No thanks! under a board; the custom id remembers which board (game id, move count) it belongs to."""

    def __init__(self, verb: str, game: int, moves: int, locale: str = "en") -> None:
        take = verb == "take"
        super().__init__(
            discord.ui.Button(
                label=render(_p("button", "Take") if take else _p("button", "No thanks!"), locale),
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
            await act_once(interaction, action, no_thanks.INFO.kind, board=self.board)
        except Exception as error:
            await reply_error(interaction, error)


class HandButton(discord.ui.Button[Any]):
    def __init__(self, locale: str = "en") -> None:
        super().__init__(
            label=render(_p("button", "My cards and chips"), locale),
            style=discord.ButtonStyle.secondary,
            custom_id="no_thanks:hand",
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.tables.show_panel(interaction, no_thanks.INFO.kind)


class NoThanksBoard(ErrorHandlingView):
    def __init__(self, board: tuple[int, int] | None = None, *, hand_button: bool = True, locale: str = "en") -> None:
        super().__init__()
        if board is not None:
            self.add_item(MoveButton("take", *board, locale))
            self.add_item(MoveButton("pass", *board, locale))
        if hand_button:
            self.add_item(HandButton(locale))


class Presenter:
    """How No Thanks! reads to people; see ``table.presenter.Presenter``."""

    game = no_thanks.GAME
    rules_text = RULES
    closed_dms_hint = _(
        "Open your DMs for this server (Privacy Settings > Direct Messages) to get your chip count, or use /hand."
    )

    def board(self, state: State, locale: str) -> discord.Embed:
        return render_board(state, locale)

    def board_view(self, record: GameRecord, state: State, locale: str) -> discord.ui.View:
        return NoThanksBoard((record.id, state.move_count), locale=locale)

    def headline(self, state: State) -> Text | None:
        return None if no_thanks.is_over(state) else face_up_line(state)

    def private_text(self, state: State, player: int) -> Text:
        return _(
            "Your chips: {chips}\nYour cards: {cards}",
            chips=no_thanks.chips(state, player),
            cards=cards_text(no_thanks.hand(state, player)),
        )

    def revealed_text(self, state: State, player: int) -> Text:
        return _(
            "chips: {chips}; cards: {cards}",
            chips=no_thanks.chips(state, player),
            cards=cards_text(no_thanks.hand(state, player)),
        )

    def start_text(self, state: State) -> Text:
        first = no_thanks.current_player(state)
        players = joined([mention(p) for p in state.players], ", ")
        chips = _("Everybody's chips are shown on the board.") if state.open_chips else _("Your chips are in your DMs.")
        if first is None:
            return _(
                "No Thanks! begins with {players}. {chips} Anyone may make the first move: press **Take** or "
                "**No thanks!** under the board.",
                players=players,
                chips=chips,
            )
        return _(
            "No Thanks! begins with {players}. {chips} {first} goes first: press **Take** or **No thanks!** under the "
            "board.",
            players=players,
            chips=chips,
            first=mention(first),
        )

    def announce(self, before: State, after: State, player: int, action: Any) -> Text:
        name = mention(player)
        upcoming = no_thanks.current_player(after)
        if isinstance(action, Leave) and upcoming == no_thanks.current_player(before):
            upcoming = None  # somebody else left: the turn did not change
        if isinstance(action, Take):
            chips = no_thanks.chips_on_card(before)
            card = no_thanks.face_up_card(before)
            if upcoming is None:
                return _n(
                    "{player} took {card} with {count} chip.",
                    "{player} took {card} with {count} chips.",
                    chips,
                    player=name,
                    card=card,
                )
            if upcoming == player:
                return _n(
                    "{player} took {card} with {count} chip; their turn again.",
                    "{player} took {card} with {count} chips; their turn again.",
                    chips,
                    player=name,
                    card=card,
                )
            return _n(
                "{player} took {card} with {count} chip. {next}, your turn.",
                "{player} took {card} with {count} chips. {next}, your turn.",
                chips,
                player=name,
                card=card,
                next=mention(upcoming),
            )
        if isinstance(action, NoThanks):
            card = no_thanks.face_up_card(before)
            if upcoming is None:
                return _("{player}: No thanks! (one chip on {card})", player=name, card=card)
            if upcoming == player:
                return _("{player}: No thanks! (one chip on {card}) Their turn again.", player=name, card=card)
            return _(
                "{player}: No thanks! (one chip on {card}) {next}, your turn.",
                player=name,
                card=card,
                next=mention(upcoming),
            )
        if upcoming is None:
            return _("{player} left the game; that seat's cards and chips left the game too.", player=name)
        if upcoming == player:
            return _(
                "{player} left the game; that seat's cards and chips left the game too. Their turn again.",
                player=name,
            )
        return _(
            "{player} left the game; that seat's cards and chips left the game too. {next}, your turn.",
            player=name,
            next=mention(upcoming),
        )

    def summary(self, steps: Sequence[Step]) -> Localized | None:
        """One line of the log per card: who said no thanks to it, who took it with how many chips. Without how
        often each said it: with secret chips, a count per player is left to those who follow the game."""
        said: list[Localized] = []
        passed: list[int] = []  # in the order they first said no thanks

        def close() -> None:
            if passed:
                said.append(_("No thanks! from {players}.", players=joined([mention(p) for p in passed], ", ")))
                passed.clear()

        for step in steps:
            if isinstance(step.action, NoThanks):
                if step.player not in passed:
                    passed.append(step.player)
                continue
            close()
            if isinstance(step.action, Take):
                said.append(
                    _n(
                        "{player} took {card} with {count} chip.",
                        "{player} took {card} with {count} chips.",
                        no_thanks.chips_on_card(step.before),
                        player=mention(step.player),
                        card=no_thanks.face_up_card(step.before),
                    )
                )
            else:
                said.append(
                    _(
                        "{player} left the game; that seat's cards and chips left the game too.",
                        player=mention(step.player),
                    )
                )
        close()
        return joined(said, " ") if said else None

    def game_over_text(self, state: State) -> Localized:
        if state.status == "abandoned":
            return _("**Game over**: fewer than three players remain, so the game is abandoned and records no score.")
        parts: list[Localized] = [_("**Game over**. Scores (lowest wins):")]
        for line in no_thanks.scores(state):
            parts.append(
                _(
                    "{player}: {cards} = {points} - {chips} = **{total}**",
                    player=mention(line.player),
                    cards=cards_text(tuple(c for run in line.runs for c in run)),
                    points=_n("{count} point", "{count} points", line.card_points),
                    chips=_n("{count} chip", "{count} chips", line.chips),
                    total=line.total,
                )
            )
        winner, tie_break = no_thanks.winner(state)
        parts.append(_("Winner: {player}!", player=mention(winner)))
        if tie_break:
            parts.append(_("(A tie, broken by the unofficial rule: the tied player holding the highest card wins.)"))
        removed = ", ".join(str(card) for card in sorted(no_thanks.removed_cards(state)))
        parts.append(_("The nine cards removed at the start: {cards}.", cards=removed))
        return lines(*parts)

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

    def panel(self, record: GameRecord, state: State, player: int, page: str | None, locale: str) -> dict[str, Any]:
        """Your chips and cards, the card on offer, and Take / No thanks! when it is your turn."""
        parts: list[Localized] = [self.private_text(state, player), face_up_line(state)]
        mover = no_thanks.current_player(state)
        if mover == player:
            parts.append(_("Your turn."))
            view: discord.ui.View = NoThanksBoard((record.id, state.move_count), hand_button=False, locale=locale)
        else:
            parts.append(_("The game is over.") if mover is None else _("{player} is deciding.", player=mention(mover)))
            view = discord.ui.View()
        return {"content": render(lines(*parts), locale), "view": detached(view)}


PRESENTER = Presenter()


class NoThanksCog(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(MoveButton)
        self.bot.add_view(NoThanksBoard())  # the static "my cards" button

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(MoveButton)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    @app_commands.command(name="take", description="No Thanks!: take the face-up card and the chips on it.")
    @app_commands.guild_only()
    async def take(self, interaction: Interaction) -> None:
        await self.bot.tables.act(interaction, Take(), kind=no_thanks.INFO.kind)

    @app_commands.command(name="nothanks", description="No Thanks!: put one of your chips on the face-up card.")
    @app_commands.guild_only()
    async def nothanks(self, interaction: Interaction) -> None:
        await self.bot.tables.act(interaction, NoThanks(), kind=no_thanks.INFO.kind)


async def setup(bot: Bot) -> None:
    await bot.add_cog(NoThanksCog(bot))


# The game, as the table hosts it: ``games.py`` registers it.
REGISTRATION = Registration(
    game=no_thanks.GAME,
    presenter=PRESENTER,
    extension=__name__,
    ai=ai.NO_THANKS,
    at_the_table=_(
        "**At the table**: on your turn press **No thanks!** or **Take** under the board (or /nothanks, /take); "
        "**My cards and chips** shows yours privately.\n"
        "- Each turn has a clock (the turn time chosen in the lobby): a reminder comes first, then the autopilot "
        "plays for you and the table may vote on what happens next."
    ),
    first_game=_(
        "**New here? How to play:** on your turn press **No thanks!** or **Take** under the board; **My cards and "
        "chips** shows yours privately.\n"
        "Each turn has a clock: when it runs out, the autopilot plays for you. /rules and /help say more."
    ),
)
