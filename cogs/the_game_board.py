"""The Game's public board: the piles with their signals, the draw pile, the seats and whose turn it is, and the
words the game's other texts share (pile directions, signals, the hand line)."""

from __future__ import annotations

import discord

from engine import the_game
from engine.the_game import State
from i18n import Localized, Text, _, _n, _p, joined, lines, render
from table.people import mention

COLOUR = discord.Colour.dark_teal()
# The slash command's pile choices (translated with the command strings); the board says it in the table's language.
DIRECTION = {"A": "↑ ascending", "B": "↑ ascending", "C": "↓ descending", "D": "↓ descending"}
ASCENDING = _p("pile", "↑ ascending")
DESCENDING = _p("pile", "↓ descending")


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


def seat_line(player: str | Text, cards: int, left: bool, stuck: bool, to_move: bool) -> Text:
    """A seat on the board: ``@ana: 5 cards``, then "nearly stuck" and the mover's arrow when they apply."""
    status = _("left the game") if left else _n("{count} card", "{count} cards", cards)
    if stuck and to_move:
        return _("{player}: {status} ⚠️ nearly stuck ← to move", player=player, status=status)
    if stuck:
        return _("{player}: {status} ⚠️ nearly stuck", player=player, status=status)
    if to_move:
        return _("{player}: {status} ← to move", player=player, status=status)
    return _("{player}: {status}", player=player, status=status)
