"""What one player's page shows: a pure function of a committed position and that player's seat.

Only what the seat may know goes in, taken from the engine's ``observation`` for that seat: its own hand (The Game)
or chips (No Thanks!), and the public board. Never another seat's hand, the draw order, or another player's chips
(unless the game plays with open chips). Every word is rendered here, in the reader's language; the page only
draws. Card values and pile letters are never translated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cogs.the_game_board import SIGNAL_SHORT, SIGNAL_WORDS
from engine import GAMES, no_thanks, the_game
from i18n import Localized, Text, _, _n, _np, _p, language, render
from table.presenter import Presenter, Step

# The turn log shows this many of the latest moves.
LOG_MOVES = 8

# The page's fixed words; the accessible names the acceptance tests play by are among them.
LABELS: dict[str, Text] = {
    "hand": _p("web", "Your hand"),
    "piles": _p("web", "Piles"),
    "endTurn": _p("button", "End turn"),
    "take": _p("web", "Take"),
    "pass": _p("web", "No thanks"),
    "players": _p("web", "Players"),
    "log": _p("web", "Turn log"),
    "offline": _p("web", "Connection lost: reconnecting…"),
    "you": _p("web", "you"),
    "left": _p("web", "left the game"),
    "toMove": _p("web", "to move"),
    "chooseCard": _p("web", "Tap a card, then a pile."),
    "turnEnds": _p("web", "Turn ends in"),
    "signals": _p("button", "Signals…"),
}

BACKWARDS = _p("web", "backwards trick!")
ENDED_EARLY = _("This game was ended early.")

_MENTION = re.compile(r"<@!?([0-9]+)>")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def plain(text: str, names: Mapping[int, str]) -> str:
    """A board line for the page: mentions become names, Discord's bold marks go."""
    text = _MENTION.sub(lambda m: names.get(int(m[1]), "?"), text)
    return _BOLD.sub(r"\1", text)


def turn_log(presenter: Presenter[Any, Any], steps: Sequence[Step], locale: str, names: Mapping[int, str]) -> list[str]:
    """The latest moves, oldest first, as the channel announced them (public words only)."""
    return [
        plain(render(presenter.announce(s.before, s.after, s.player, s.action), locale), names)
        for s in steps[-LOG_MOVES:]
    ]


def page_state(
    kind: str,
    presenter: Presenter[Any, Any],
    state: Any,
    player: int,
    locale: str,
    names: Mapping[int, str],
    steps: Sequence[Step] = (),
    deadline: float | None = None,
    stopped: bool = False,
) -> dict[str, Any]:
    """The whole page for ``player`` of a game of ``kind`` at ``state``, ready for JSON. ``stopped``: the game was
    ended early (/endgame, a table all away): the last position stays in view, and nothing can be played."""
    game = presenter.game
    over = game.is_over(state)
    mover = game.current_player(state)

    def say(text: Localized) -> str:
        return plain(render(text, locale), names)

    page: dict[str, Any] = {
        "kind": kind,
        "title": GAMES[kind].info.title,
        "lang": language(locale),
        "seq": game.move_count(state),
        "over": over,
        "labels": {key: render(text, locale) for key, text in LABELS.items()},
        "log": turn_log(presenter, steps, locale, names),
        "deadline": None if over else deadline,
        "result": say(presenter.game_over_text(state)) if over else None,
    }
    if kind == the_game.INFO.kind:
        page.update(the_game_page(state, player, say, names))
    elif kind == no_thanks.INFO.kind:
        page.update(no_thanks_page(state, player, say, names))
    page["myTurn"] = not over and mover == player
    if stopped and not over:
        page.update(over=True, myTurn=False, deadline=None, canEnd=False, canTake=False, canPass=False)
        page.update(status=say(ENDED_EARLY), signalButtons=[])
    return page


def _pile_label(pile: the_game.PileView, card: int | None) -> Text:
    arrow = "↑" if pile.ascending else "↓"
    if card is not None and the_game.is_legal(pile.name, pile.top, card):
        if the_game.is_backwards_trick(pile.name, pile.top, card):
            return _p("button", "{pile} {arrow} {top} · backwards trick!", pile=pile.name, arrow=arrow, top=pile.top)
        jump = f"{card - pile.top:+d}"
        return _p(
            "button",
            "{pile} {arrow} {top} → {card} ({jump})",
            pile=pile.name,
            arrow=arrow,
            top=pile.top,
            card=card,
            jump=jump,
        )
    return _p("button", "{pile} {arrow} {top}", pile=pile.name, arrow=arrow, top=pile.top)


def the_game_page(state: the_game.State, player: int, say: Any, names: Mapping[int, str]) -> dict[str, Any]:
    seen = the_game.observation(state, player)
    view = seen.view
    my_turn = not view.over and view.current_player in (None, player)
    if view.over:
        status: Localized = _("The game is over.")
    elif view.current_player is None:
        status = _("Anyone may lay the first card: choose one.")
    elif view.current_player == player:
        status = _("Your turn: {laid} laid, at least {minimum}.", laid=view.laid, minimum=view.minimum)
    else:
        status = _("{player} is playing.", player=names.get(view.current_player, "?"))
    piles = []
    for pile in view.piles:
        marks = [m for m in view.signals if m.pile == pile.name]
        piles.append(
            {
                "name": pile.name,
                "up": pile.ascending,
                "top": pile.top,
                "size": pile.size,
                "label": say(_pile_label(pile, None)),
                "signals": [
                    {
                        "icon": SIGNAL_WORDS[m.kind][0],
                        "text": f"{names.get(m.player, '?')}: {say(SIGNAL_WORDS[m.kind][1])}",
                    }
                    for m in marks
                ],
            }
        )
    hand = []
    for card in sorted(seen.hand):
        options = {}
        for pile in view.piles:
            legal = the_game.is_legal(pile.name, pile.top, card)
            trick = legal and the_game.is_backwards_trick(pile.name, pile.top, card)
            options[pile.name] = {
                "ok": legal and my_turn,
                "legal": legal,
                "trick": trick,
                "label": say(_pile_label(pile, card)),
                # What the pile's face adds under its top: the jump, or the trick.
                "short": say(BACKWARDS) if trick else f"→ {card} ({card - pile.top:+d})" if legal else "",
            }
        hand.append({"value": card, "piles": options})
    return {
        "status": say(status),
        "piles": piles,
        "signalButtons": [] if view.over else signal_buttons(view, player, say),
        "hand": hand,
        "drawPile": say(_np("web", "Draw pile: {count} card", "Draw pile: {count} cards", view.draw_pile)),
        "canEnd": not view.over and view.current_player == player and view.laid >= view.minimum,
        "seats": [
            {
                "name": names.get(seat.player, "?"),
                "me": seat.player == player,
                "cards": say(_np("web", "{count} card", "{count} cards", seat.cards)),
                "toMove": seat.player == view.current_player,
                "left": seat.left,
                "signals": [
                    SIGNAL_WORDS[m.kind][0] for m in view.signals if m.player == seat.player and m.pile is None
                ],
            }
            for seat in view.seats
        ],
    }


def signal_buttons(view: the_game.PublicView, player: int, say: Any) -> list[dict[str, Any]]:
    """The signals the seat may raise, as on the panel's signals page; ``on``: raised by this seat (a tap takes it
    down)."""
    mine = {(m.kind, m.pile) for m in view.signals if m.player == player}
    buttons = [
        {
            "kind": kind,
            "pile": pile,
            "on": (kind, pile) in mine,
            "label": say(_p("button", "{pile}: {signal}", pile=pile, signal=SIGNAL_SHORT[kind])),
        }
        for kind in the_game.PILE_SIGNALS
        for pile in the_game.PILES
    ]
    buttons.append(
        {
            "kind": "nearly_stuck",
            "pile": None,
            "on": ("nearly_stuck", None) in mine,
            "label": say(_p("button", "I'm nearly stuck")),
        }
    )
    if mine:
        buttons.append(
            {"kind": the_game.CLEAR, "pile": None, "on": False, "label": say(_p("button", "Clear my signals"))}
        )
    return buttons


def no_thanks_page(state: no_thanks.State, player: int, say: Any, names: Mapping[int, str]) -> dict[str, Any]:
    seen = no_thanks.observation(state, player)
    view = seen.view
    if view.turn is None:
        status: Localized = _("The game is over.")
    elif view.turn == player:
        status = _("Your turn.")
    else:
        status = _("{player} is deciding.", player=names.get(view.turn, "?"))
    mine = next((p for p in view.players if p.player == player), None)
    legal = no_thanks.legal_actions(state, player)
    if view.face_up_card is None:
        face_up: Localized = _("No cards left.")
    else:
        face_up = _n(
            "Face-up card: {card} ({count} chip on it)",
            "Face-up card: {card} ({count} chips on it)",
            view.chips_on_card,
            card=view.face_up_card,
        )
    return {
        "status": say(status),
        "faceUp": view.face_up_card,
        "faceUpText": say(face_up),
        "cardsLeft": say(_n("{count} card face down", "{count} cards face down", view.cards_left)),
        "myChips": say(_np("web", "Your chips: {count}", "Your chips: {count}", seen.chips)),
        "myRuns": [list(run) for run in mine.runs] if mine is not None else [],
        "myPoints": say(_n("{count} point", "{count} points", mine.points if mine is not None else 0)),
        "canTake": no_thanks.Take() in legal,
        "canPass": no_thanks.NoThanks() in legal,
        "seats": [
            {
                "name": names.get(seat.player, "?"),
                "me": seat.player == player,
                "runs": [list(run) for run in seat.runs],
                "points": say(_n("{count} point", "{count} points", seat.points)),
                # Only where the game plays with open chips: otherwise the public view holds None.
                "chips": None if seat.chips is None else say(_n("{count} chip", "{count} chips", seat.chips)),
                "toMove": seat.player == view.turn,
            }
            for seat in view.players
        ],
    }
