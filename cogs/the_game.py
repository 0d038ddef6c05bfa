"""The Game in a channel: /play and /endturn, and how the game reads (its presenter).

Every accepted action is answered by the interaction itself, carrying the new board, so a move costs no
rate-limited request; only the end-of-turn draw updates a player's DM.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui import ErrorHandlingView, in_text_channel, reply_error
from engine import the_game
from engine.the_game import EndTurn, Leave, Play, State
from i18n import Localized, Text, _, _n, _p, joined, lines, render
from storage import GameRecord
from table.answer import UserError, detached
from table.people import mention
from table.picture import the_game_end_picture
from table.presenter import Step

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_teal()
# The slash command's pile choices (translated with the command strings); the board says it in the table's language.
DIRECTION = {"A": "↑ ascending", "B": "↑ ascending", "C": "↓ descending", "D": "↓ descending"}
ASCENDING = _p("pile", "↑ ascending")
DESCENDING = _p("pile", "↓ descending")
EXCELLENT = 10  # the rulebook's "excellent result": fewer than this many cards left

RULES = _(
    "**The Game**: a cooperative game. Together, lay all 98 cards (2 to 99) on four piles.\n"
    "- Piles **A** and **B** go up from 1: a card must be **higher** than the top card. Piles **C** and **D** go "
    "down from 100: a card must be **lower**.\n"
    "- **Backwards trick**: a card exactly ten lower on an up pile, or exactly ten higher on a down pile, is always "
    "legal.\n"
    "- On your turn lay at least **two** cards (**three** in expert) with `/play`, then `/endturn` to draw back up. "
    "Once the draw pile is empty, one card is enough. You may lay more, up to your whole hand.\n"
    "- Until the first card is laid, anyone may start: whoever lays it takes the first turn.\n"
    "- **Never reveal numbers**: no digits or number words in the chat (the bot removes them). Hints are fine: "
    '"don\'t lay on A", "no big jump on C".\n'
    "- The game ends when the player to move cannot lay their minimum. Score: the cards not laid. 0 beats the game; "
    "fewer than 10 is excellent.\n"
    "- Variants: *expert* (minimum three), *smaller hands* (one card fewer each)."
)


def variant_text(state: State) -> Localized:
    names = [
        the_game.INFO.variant(name)
        for name, on in (("expert", state.expert), ("smaller_hands", state.smaller_hands))
        if on
    ]
    labels = [variant.label for variant in names if variant is not None]
    return joined(labels, ", ") if labels else _("standard rules")


def hand_line(cards: tuple[int, ...]) -> Text:
    """The line players (and tests) read their hand from: ``Your hand:`` then the cards, ascending."""
    if not cards:
        return _("Your hand: (no cards)")
    return _("Your hand: {cards}", cards=", ".join(str(card) for card in cards))


# A signal's symbol, what it says in a sentence, and its short name on a button.
SIGNAL_WORDS = {
    "dont_lay": ("🛑", _("please don't lay here")),
    "trick": ("🔁", _("I can do a backwards trick here")),
    "small_steps": ("🐢", _("small steps only here")),
    "nearly_stuck": ("⚠️", _("I'm nearly stuck")),
}
SIGNAL_SHORT = {
    "dont_lay": _p("signal button", "don't lay"),
    "trick": _p("signal button", "trick"),
    "small_steps": _p("signal button", "small steps"),
    "nearly_stuck": _p("signal button", "nearly stuck"),
}


def signal_text(mark: the_game.Mark) -> Text:
    symbol, words = SIGNAL_WORDS[mark.kind]
    return _("{symbol} {player} ({signal})", symbol=symbol, player=mention(mark.player), signal=words)


def pile_direction(name: str) -> Text:
    return ASCENDING if DIRECTION[name].startswith("↑") else DESCENDING


def render_board(state: State, locale: str = "en") -> discord.Embed:
    view = the_game.public_view(state)
    embed = discord.Embed(title="The Game", colour=COLOUR)
    piles: list[Localized] = []
    for pile in view.piles:
        marks = [signal_text(m) for m in view.signals if m.pile == pile.name]
        direction = pile_direction(pile.name)
        if marks:
            piles.append(
                _(
                    "**{pile}** {direction}: **{top}**  {signals}",
                    pile=pile.name,
                    direction=direction,
                    top=pile.top,
                    signals=joined(marks, " "),
                )
            )
        else:
            piles.append(_("**{pile}** {direction}: **{top}**", pile=pile.name, direction=direction, top=pile.top))
    embed.description = render(lines(*piles), locale)
    embed.add_field(
        name=render(_("Draw pile"), locale), value=render(_n("{count} card", "{count} cards", view.draw_pile), locale)
    )
    embed.add_field(name=render(_("Variant"), locale), value=render(variant_text(state), locale))
    players: list[Localized] = []
    for seat in view.seats:
        stuck = any(m.player == seat.player and m.pile is None for m in view.signals)
        players.append(
            seat_line(mention(seat.player), seat.cards, seat.left, stuck, seat.player == view.current_player)
        )
    embed.add_field(name=render(_("Players"), locale), value=render(lines(*players), locale), inline=False)
    turn = render(_("Turn"), locale)
    if view.status == "abandoned":
        embed.set_footer(text=render(_("Game over: abandoned, no score."), locale))
    elif view.over:
        left = view.score or 0
        embed.set_footer(
            text=render(_n("Game over: {count} card not laid.", "Game over: {count} cards not laid.", left), locale)
        )
    elif view.current_player is None:
        embed.add_field(name=turn, value=render(_("Anyone may lay the first card."), locale), inline=False)
    else:
        embed.add_field(
            name=turn,
            value=render(
                _(
                    "{player}: {laid} laid, at least {minimum} this turn.",
                    player=mention(view.current_player),
                    laid=view.laid,
                    minimum=view.minimum,
                ),
                locale,
            ),
            inline=False,
        )
    return embed


def seat_line(player: str, cards: int, left: bool, stuck: bool, to_move: bool) -> Text:
    """A seat on the board: ``@ana: 5 cards``, then "nearly stuck" and the mover's arrow when they apply."""
    status = _("left the game") if left else _n("{count} card", "{count} cards", cards)
    if stuck and to_move:
        return _("{player}: {status} ⚠️ nearly stuck ← to move", player=player, status=status)
    if stuck:
        return _("{player}: {status} ⚠️ nearly stuck", player=player, status=status)
    if to_move:
        return _("{player}: {status} ← to move", player=player, status=status)
    return _("{player}: {status}", player=player, status=status)


def panel_button(game: int, verb: str, a: object = "", b: object = "", **options: Any) -> discord.ui.Button[Any]:
    return discord.ui.Button(custom_id=f"tg:{game}:{verb}:{a}:{b}", **options)


# Laying a card jumps the pile by at most this much without a question: a bigger jump gives away more room than a
# backwards trick could ever win back (ten). A backwards trick wins room, so it is never questioned.
BIG_JUMP = 10
CARD_PAGE = re.compile(r"card([0-9]+)")  # the panel's page choosing a pile for a card
LAY_PAGE = re.compile(r"lay([0-9]+)([A-D])")  # the panel's page asking before a risky card


def misclick_risks(view: the_game.PublicView, player: int, card: int, pile: str) -> list[Text]:
    """Why laying ``card`` on ``pile`` takes one confirming click: somebody else asked to keep the pile, or the card
    jumps more than ``BIG_JUMP``. Empty for an illegal card (the rules refuse it) and for a backwards trick."""
    top = next(p.top for p in view.piles if p.name == pile)
    if not the_game.is_legal(pile, top, card) or the_game.is_backwards_trick(pile, top, card):
        return []
    risks: list[Text] = [
        _("🛑 {player} asked not to lay on {pile}.", player=mention(mark.player), pile=pile)
        for mark in view.signals
        if mark.pile == pile and mark.kind == "dont_lay" and mark.player != player
    ]
    if abs(card - top) > BIG_JUMP:
        risks.append(
            _n(
                "That jumps {count} ({top} → {card}).",
                "That jumps {count} ({top} → {card}).",
                abs(card - top),
                top=top,
                card=card,
            )
        )
    return risks


def pile_button(
    game: int,
    view: the_game.PublicView,
    player: int,
    card: int,
    pile: the_game.PileView,
    my_turn: bool,
    label: Any,
) -> discord.ui.Button[Any]:
    """A pile for the chosen card: the jump it would make (``A ↑ 35 → 38 (+3)``) and the signals on it; red when
    laying there asks first (``misclick_risks``), green for a backwards trick, disabled out of turn."""
    legal = the_game.is_legal(pile.name, pile.top, card)
    trick = legal and the_game.is_backwards_trick(pile.name, pile.top, card)
    arrow = "↑" if pile.ascending else "↓"
    if trick:
        text = _p("button", "{pile} {arrow} {top} · backwards trick!", pile=pile.name, arrow=arrow, top=pile.top)
    elif legal:
        text = _p(
            "button",
            "{pile} {arrow} {top} → {card} ({jump})",
            pile=pile.name,
            arrow=arrow,
            top=pile.top,
            card=card,
            jump=f"{card - pile.top:+d}",
        )
    else:
        text = _p("button", "{pile} {arrow} {top}", pile=pile.name, arrow=arrow, top=pile.top)
    icons = " ".join(SIGNAL_WORDS[mark.kind][0] for mark in view.signals if mark.pile == pile.name)
    risky = bool(misclick_risks(view, player, card, pile.name))
    style = (
        discord.ButtonStyle.success if trick else discord.ButtonStyle.danger if risky else discord.ButtonStyle.primary
    )
    return panel_button(
        game,
        "pile",
        card,
        pile.name,
        label=f"{label(text)} {icons}" if icons else label(text),
        style=style,
        disabled=not (legal and my_turn),
        row=0,
    )


class Presenter:
    """How The Game reads to people; see ``table.presenter.Presenter``."""

    game = the_game.GAME
    rules_text = RULES
    closed_dms_hint = _(
        "Open your DMs for this server (Privacy Settings > Direct Messages) to get your hand, or use /hand."
    )

    end_picture = staticmethod(the_game_end_picture)  # the course of the game, on its end screen

    def board(self, state: State, locale: str) -> discord.Embed:
        return render_board(state, locale)

    def board_view(self, record: GameRecord, state: State, locale: str) -> discord.ui.View:
        view = TheGameBoard()
        view.hand_button.label = render(_p("button", "My hand"), locale)
        return view

    def headline(self, state: State) -> Text | None:
        return None

    def private_text(self, state: State, player: int) -> Text:
        return hand_line(the_game.hand(state, player))

    def revealed_text(self, state: State, player: int) -> Text:
        cards = the_game.hand(state, player)
        if not cards:
            return _("hand: (no cards)")
        return _("hand: {cards}", cards=", ".join(str(card) for card in cards))

    def start_text(self, state: State) -> Text:
        minimum = the_game.public_view(state).minimum
        return _n(
            "The Game begins ({variant}) with {players}! Your hands are in your DMs (or use /hand). Anyone may lay "
            "the first card with /play; lay at least {count} card each turn, then /endturn. No numbers in the chat "
            "from now on.",
            "The Game begins ({variant}) with {players}! Your hands are in your DMs (or use /hand). Anyone may lay "
            "the first card with /play; lay at least {count} cards each turn, then /endturn. No numbers in the chat "
            "from now on.",
            minimum,
            variant=variant_text(state),
            players=", ".join(mention(p) for p in state.players),
        )

    def announce(self, before: State, after: State, player: int, action: Any) -> Text:
        name = mention(player)
        if isinstance(action, the_game.Signal):
            if action.kind == the_game.CLEAR:
                if action.pile:
                    return _("{player} took down their signals on {pile}.", player=name, pile=action.pile)
                return _("{player} took down their signals.", player=name)
            symbol, words = SIGNAL_WORDS[action.kind]
            if action.pile:
                return _(
                    "{symbol} {player} signals on {pile}: {signal}.",
                    symbol=symbol,
                    player=name,
                    pile=action.pile,
                    signal=words,
                )
            return _("{symbol} {player} signals: {signal}.", symbol=symbol, player=name, signal=words)
        if isinstance(action, Play):
            trick = the_game.is_backwards_trick(action.pile, the_game.top(before, action.pile), action.card)
            view = the_game.public_view(after)
            owed = view.minimum - view.laid
            if not view.over and view.current_player == player and owed > 0:
                if trick:
                    return _n(
                        "{player} laid {card} on {pile}: backwards trick! {count} more to go this turn.",
                        "{player} laid {card} on {pile}: backwards trick! {count} more to go this turn.",
                        owed,
                        player=name,
                        card=action.card,
                        pile=action.pile,
                    )
                return _n(
                    "{player} laid {card} on {pile}. {count} more to go this turn.",
                    "{player} laid {card} on {pile}. {count} more to go this turn.",
                    owed,
                    player=name,
                    card=action.card,
                    pile=action.pile,
                )
            if trick:
                return _(
                    "{player} laid {card} on {pile}: backwards trick!", player=name, card=action.card, pile=action.pile
                )
            return _("{player} laid {card} on {pile}.", player=name, card=action.card, pile=action.pile)
        upcoming = the_game.current_player(after)
        if isinstance(action, Leave) and upcoming == the_game.current_player(before):
            upcoming = None  # somebody else left: the turn did not change
        elif the_game.is_over(after):
            upcoming = None
        if isinstance(action, EndTurn):
            drawn = len(the_game.hand(after, player)) - len(the_game.hand(before, player))
            if drawn and upcoming is not None:
                return _(
                    "{player} ended the turn and drew {drawn}. {next}, your turn.",
                    player=name,
                    drawn=drawn,
                    next=mention(upcoming),
                )
            if drawn:
                return _("{player} ended the turn and drew {drawn}.", player=name, drawn=drawn)
            if upcoming is not None:
                return _("{player} ended the turn. {next}, your turn.", player=name, next=mention(upcoming))
            return _("{player} ended the turn.", player=name)
        if upcoming is not None:
            return _(
                "{player} left the game; their cards went back into the draw pile. {next}, your turn.",
                player=name,
                next=mention(upcoming),
            )
        return _("{player} left the game; their cards went back into the draw pile.", player=name)

    def summary(self, steps: Sequence[Step]) -> Localized | None:
        """One line of the log: who laid which cards on which piles (backwards tricks marked) and drew how many,
        who left, and the signals raised meanwhile."""
        said: list[Localized] = []
        signals: list[Localized] = []
        laid: list[Text] = []
        layer: int | None = None

        def close(drawn: int | None = None) -> None:
            # A run of one player's cards, with the end of their turn when it follows.
            if layer is None or not laid:
                return
            cards = joined(laid, ", ")
            if drawn is None:
                said.append(_("{player} laid {cards}.", player=mention(layer), cards=cards))
            elif drawn:
                said.append(
                    _n(
                        "{player} laid {cards} and drew {count} card.",
                        "{player} laid {cards} and drew {count} cards.",
                        drawn,
                        player=mention(layer),
                        cards=cards,
                    )
                )
            else:
                said.append(_("{player} laid {cards} and ended the turn.", player=mention(layer), cards=cards))
            laid.clear()

        for step in steps:
            action, name = step.action, mention(step.player)
            if isinstance(action, Play):
                if layer != step.player:
                    close()
                layer = step.player
                trick = the_game.is_backwards_trick(action.pile, the_game.top(step.before, action.pile), action.card)
                laid.append(
                    _("{card} on {pile} (backwards trick)", card=action.card, pile=action.pile)
                    if trick
                    else _("{card} on {pile}", card=action.card, pile=action.pile)
                )
            elif isinstance(action, EndTurn):
                drawn = len(the_game.hand(step.after, step.player)) - len(the_game.hand(step.before, step.player))
                if layer == step.player and laid:
                    close(drawn)
                elif drawn:
                    close()
                    said.append(
                        _n(
                            "{player} ended the turn and drew {count} card.",
                            "{player} ended the turn and drew {count} cards.",
                            drawn,
                            player=name,
                        )
                    )
                else:
                    close()
                    said.append(_("{player} ended the turn.", player=name))
            elif isinstance(action, Leave):
                close()
                said.append(_("{player} left the game; their cards went back into the draw pile.", player=name))
            elif isinstance(action, the_game.Signal) and action.kind != the_game.CLEAR:
                symbol, words = SIGNAL_WORDS[action.kind]
                signals.append(
                    _(
                        "{symbol} {player} on {pile} ({signal})",
                        symbol=symbol,
                        player=name,
                        pile=action.pile,
                        signal=words,
                    )
                    if action.pile
                    else _("{symbol} {player} ({signal})", symbol=symbol, player=name, signal=words)
                )
        close()
        if signals:
            said.append(_("Signals: {signals}.", signals=joined(signals, ", ")))
        return joined(said, " ") if said else None

    def game_over_text(self, state: State) -> Localized:
        if state.status == "abandoned":
            return _("**Game over**: everybody left, so the game is abandoned and records no score.")
        summary = the_game.summary(state)
        left = the_game.score(state)
        if left == 0:
            verdict = _("You won: every card is laid, you beat The Game!")
        elif left < EXCELLENT:
            verdict = _("An excellent result (fewer than ten)!")
        else:
            verdict = _("The piles are blocked; better luck next time.")
        piles = ", ".join(f"{name} {length}" for name, length in zip(the_game.PILES, summary.pile_lengths, strict=True))
        parts: list[Localized] = [
            _n(
                "**Game over**: {count} card not laid. {verdict}",
                "**Game over**: {count} cards not laid. {verdict}",
                left,
                verdict=verdict,
            )
        ]
        if state.status == "lost" and state.turn is not None:
            parts.append(
                _n(
                    "{player} was stuck: no {count} more card fit.",
                    "{player} was stuck: no {count} more cards fit.",
                    state.minimum - state.laid,
                    player=mention(state.players[state.turn]),
                )
            )
        # Now that it is over, the hands may be shown.
        for player, cards, gone in zip(state.players, state.hands, state.left, strict=True):
            if cards and not gone:
                parts.append(
                    _("{player} still held {cards}.", player=mention(player), cards=", ".join(map(str, cards)))
                )
        if state.draw_pile:
            parts.append(
                _n(
                    "{count} card stayed in the draw pile.",
                    "{count} cards stayed in the draw pile.",
                    len(state.draw_pile),
                )
            )
        if state.closest is not None:
            playable, turn, player = state.closest
            parts.append(
                _n(
                    "Turns: {turns}. Backwards tricks: {tricks}. Cards per pile: {piles}. Closest call: turn {turn}, "
                    "when {player} could lay only {count} card.",
                    "Turns: {turns}. Backwards tricks: {tricks}. Cards per pile: {piles}. Closest call: turn {turn}, "
                    "when {player} could lay only {count} cards.",
                    playable,
                    turns=summary.turns,
                    tricks=summary.backwards_tricks,
                    piles=piles,
                    turn=turn,
                    player=mention(player),
                )
            )
        else:
            parts.append(
                _(
                    "Turns: {turns}. Backwards tricks: {tricks}. Cards per pile: {piles}.",
                    turns=summary.turns,
                    tricks=summary.backwards_tricks,
                    piles=piles,
                )
            )
        return lines(*parts)

    def new_board(self, before: State, after: State, player: int, action: Any) -> bool:
        # A new turn is the one moment worth a new message (and the one ping); cards and signals edit the board.
        return isinstance(action, EndTurn | Leave) and the_game.current_player(after) != the_game.current_player(before)

    def panel(self, record: GameRecord, state: State, player: int, page: str | None, locale: str) -> dict[str, Any]:
        """The hand panel: a button per card; a card opens the pile buttons; the signals have a page of their own."""
        view = the_game.public_view(state)
        cards = the_game.hand(state, player)
        parts: list[Localized | str] = [
            hand_line(cards),
            _(
                "{piles} · draw pile {count}",
                piles=" · ".join(f"{p.name} {p.top}" for p in view.piles),
                count=view.draw_pile,
            ),
        ]
        if view.over:
            parts.append(_("The game is over."))
        elif view.current_player is None:
            parts.append(_("Anyone may lay the first card: choose one."))
        elif view.current_player == player:
            parts.append(_("Your turn: {laid} laid, at least {minimum}.", laid=view.laid, minimum=view.minimum))
        else:
            parts.append(_("{player} is playing.", player=mention(view.current_player)))

        def label(text: Text) -> str:
            return render(text, locale)

        buttons: list[discord.ui.Button[Any]] = []
        game = record.id
        back = label(_p("button", "Back"))
        my_turn = not view.over and view.current_player in (None, player)
        asked = LAY_PAGE.fullmatch(page or "")
        risks = [] if asked is None or not my_turn else misclick_risks(view, player, int(asked[1]), asked[2])
        if asked is not None and not risks:
            page = f"card{asked[1]}"  # the question no longer stands (or the turn passed): back to the piles
        chosen = CARD_PAGE.fullmatch(page or "")
        if asked is not None and risks and int(asked[1]) in cards:
            card, pile_name = int(asked[1]), asked[2]
            parts.append(_("Lay {card} on {pile} anyway?", card=card, pile=pile_name))
            parts.extend(risks)
            anyway = label(_p("button", "Lay it anyway"))
            buttons.append(
                panel_button(game, "lay", card, pile_name, label=anyway, style=discord.ButtonStyle.danger, row=0)
            )
            buttons.append(panel_button(game, "card", card, label=back, style=discord.ButtonStyle.secondary, row=0))
        elif chosen is not None and int(chosen[1]) in cards:
            card = int(chosen[1])
            if my_turn:
                parts.append(_("Where does {card} go?", card=card))
            else:
                parts.append(_("Where could {card} go? You can lay it when your turn comes.", card=card))
            for pile in view.piles:
                buttons.append(pile_button(game, view, player, card, pile, my_turn, label))
            buttons.append(panel_button(game, "page", "main", label=back, style=discord.ButtonStyle.secondary, row=1))
        elif page == "signals":
            parts.append(_("Signals tell the table what you need, without numbers. Click one again to take it down."))
            active = {(m.kind, m.pile) for m in view.signals if m.player == player}
            for row, kind in enumerate(the_game.PILE_SIGNALS):
                for name in the_game.PILES:
                    on = (kind, name) in active
                    text = _p("button", "{pile}: {signal}", pile=name, signal=SIGNAL_SHORT[kind])
                    style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
                    buttons.append(panel_button(game, "sig", kind, name, label=label(text), style=style, row=row))
            on = ("nearly_stuck", None) in active
            style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
            buttons.append(
                panel_button(
                    game, "sig", "nearly_stuck", label=label(_p("button", "I'm nearly stuck")), style=style, row=3
                )
            )
            buttons.append(
                panel_button(
                    game, "sig", "clear", label=label(_p("button", "Clear my signals")), disabled=not active, row=3
                )
            )
            buttons.append(panel_button(game, "page", "main", label=back, style=discord.ButtonStyle.secondary, row=3))
        else:
            tops = [(p.name, p.top) for p in view.piles]
            for index, card in enumerate(cards):
                fits = any(the_game.is_legal(name, top, card) for name, top in tops)
                buttons.append(
                    panel_button(
                        game,
                        "card",
                        card,
                        label=str(card),
                        style=discord.ButtonStyle.primary,
                        # Enabled out of turn too: a panel left open is ready the moment the turn comes.
                        disabled=view.over or not fits,
                        row=index // 5,
                    )
                )
            can_end = view.current_player == player and view.laid >= view.minimum and not view.over
            buttons.append(
                panel_button(
                    game,
                    "end",
                    label=label(_p("button", "End turn")),
                    style=discord.ButtonStyle.success,
                    disabled=not can_end,
                    row=2,
                )
            )
            buttons.append(
                panel_button(game, "page", "signals", label=label(_p("button", "Signals…")), disabled=view.over, row=2)
            )
            buttons.append(
                panel_button(
                    game,
                    "page",
                    "main",
                    label=label(_p("button", "Refresh")),
                    style=discord.ButtonStyle.secondary,
                    row=2,
                )
            )
        panel_view = discord.ui.View(timeout=None)
        for button in buttons:
            panel_view.add_item(button)
        return {"content": render(lines(*parts), locale), "view": detached(panel_view)}

    def dm_due(self, before: State, after: State, player: int, action: Any) -> list[int]:
        # Even when the game ends right after the draw: the newest DM always shows the hand as it is.
        drew = isinstance(action, EndTurn) and the_game.hand(after, player) != the_game.hand(before, player)
        return [player] if drew else []

    def show_after(self, before: State, after: State, player: int, action: Any) -> bool:
        # After every card, the last one too: the mover always sees what is left in their hand.
        return isinstance(action, Play)


PRESENTER = Presenter()


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tg:(?P<game>[0-9]+):(?P<verb>card|pile|lay|end|page|sig):(?P<a>[a-z_0-9]*):(?P<b>[A-D]?)",
):
    """A button of the private hand panel. Its custom id names the game, so a panel of an earlier game is refused;
    choosing a card or a page only redraws the panel, a pile, "End turn" or a signal acts. A pile that is risky at
    the moment of the click (``misclick_risks``) first asks; "Lay it anyway" (``lay``) then lays without asking."""

    def __init__(self, game: int, verb: str, a: str, b: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tg:{game}:{verb}:{a}:{b}"))
        self.game, self.verb, self.a, self.b = game, verb, a, b

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelButton:
        return cls(int(match["game"]), match["verb"], match["a"], match["b"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs errors raised by dynamic items, so they join the one error path here.
        try:
            await self.act(interaction)
        except Exception as error:
            await reply_error(interaction, error)

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        tables = interaction.client.tables
        kind = the_game.INFO.kind
        if self.verb in ("card", "page"):
            page = f"card{self.a}" if self.verb == "card" else (None if self.a == "main" else self.a)
            await tables.show_panel(interaction, kind, game=self.game, page=page)
            return
        action: the_game.Action
        if self.verb == "pile" and await self.risky(interaction):
            await tables.show_panel(interaction, kind, game=self.game, page=f"lay{self.a}{self.b}")
            return
        if self.verb in ("pile", "lay"):
            action = Play(int(self.a), self.b)
        elif self.verb == "end":
            action = EndTurn()
        else:
            live, _presenter = await tables.running(interaction.channel_id or 0, kind)
            mine = {(m.kind, m.pile) for m in live.state.signals if m.player == interaction.user.id}
            pile = self.b or None
            # A signal that is up comes down with the same click.
            kind_clicked = the_game.CLEAR if (self.a, pile) in mine else self.a
            if self.a == the_game.CLEAR:
                pile = None
            action = the_game.Signal(kind_clicked, pile)
        # A signal click keeps the signals page open: the next signal is one more click.
        await tables.act(interaction, action, kind=kind, game=self.game, page="signals" if self.verb == "sig" else None)

    async def risky(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this pile click asks first: judged on the table as it is now, not as the panel was drawn. A
        click the rules would refuse is not asked about: it goes on to its refusal."""
        live, _presenter = await interaction.client.tables.running(interaction.channel_id or 0, the_game.INFO.kind)
        view = the_game.public_view(live.state)
        player = interaction.user.id
        if live.record.id != self.game or view.current_player not in (None, player) or view.over:
            return False
        return bool(misclick_risks(view, player, int(self.a), self.b))


class TheGameBoard(ErrorHandlingView):
    """The button under every board: a private look at one's own hand."""

    @discord.ui.button(label="My hand", style=discord.ButtonStyle.primary, custom_id="the_game:hand")
    async def hand_button(self, interaction: discord.Interaction[Bot], button: discord.ui.Button[Any]) -> None:
        await interaction.client.tables.show_panel(interaction, the_game.INFO.kind)


class TheGame(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tables.presenters[the_game.INFO.kind] = PRESENTER
        self.bot.add_view(TheGameBoard())
        self.bot.add_dynamic_items(PanelButton)

    async def cog_unload(self) -> None:
        self.bot.tables.presenters.pop(the_game.INFO.kind, None)
        self.bot.remove_dynamic_items(PanelButton)

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
            live, _presenter = await self.bot.tables.running(interaction.channel_id or 0, the_game.INFO.kind)
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
    async def endturn(self, interaction: discord.Interaction[Bot]) -> None:
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
    async def signal(self, interaction: discord.Interaction[Bot], kind: str, pile: str | None = None) -> None:
        await self.bot.tables.act(interaction, the_game.Signal(kind, pile), kind=the_game.INFO.kind)


async def setup(bot: Bot) -> None:
    await bot.add_cog(TheGame(bot))
