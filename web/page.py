"""What one player's page shows: a pure function of a committed position and that player's seat.

Only what the seat may know goes in, taken from the engine's ``observation`` for that seat: its own hand (The Game)
or chips (No Thanks!), and the public board. Never another seat's hand, the draw order, or another player's chips
(unless the game plays with open chips). Every word is rendered here, in the reader's language; the page only
draws. Card values and pile letters are never translated.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from cogs.the_game_board import SIGNAL_SHORT, SIGNAL_WORDS
from engine import no_thanks, the_game
from i18n import Localized, Text, _, _n, _np, _p, language, render
from table.presenter import Presenter, Step
from table.registry import GAMES

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
    "trick": _p("web", "backwards trick!"),
    "replay": _p("web", "Replay"),
    "leave": _p("button", "Leave"),
    "leaveSure": _p("web", "Leave the game for good? Tap again"),
    "hint": _p("button", "Hint (this game won't rank for you)"),  # its cost, before the click
    "back": _p("web", "Back to the table"),
    "turn": _p("web", "Turn"),
    "watching": _p("web", "You are watching: the players' hands stay hidden."),
}

ENDED_EARLY = _("This game was ended early.")
CLEAR_SIGNALS = _p("button", "Clear my signals")
FIRST_CARD = _("Anyone may lay the first card.")

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
    log: Sequence[str] = (),
    deadline: float | None = None,
    stopped: bool = False,
) -> dict[str, Any]:
    """The whole page for ``player`` of a game of ``kind`` at ``state``, ready for JSON. ``log`` is the turn log
    (``turn_log``: the same for every reader of a language). ``stopped``: the game was ended early (/endgame, a
    table all away): the last position stays in view, and nothing can be played."""
    page = public_state(kind, presenter, state, locale, names, log, stopped)
    page.update(seat_state(kind, presenter, state, player, locale, names, stopped))
    page["deadline"] = None if page["over"] else deadline
    return page


def public_state(
    kind: str,
    presenter: Presenter[Any, Any],
    state: Any,
    locale: str,
    names: Mapping[int, str],
    log: Sequence[str] = (),
    stopped: bool = False,
) -> dict[str, Any]:
    """What every page of a language shows alike at ``state`` (no seat's secret): composed and encoded once per move
    and language, however many pages show it. Its keys are none of ``seat_state``'s."""
    game = presenter.game
    over = game.is_over(state)
    page: dict[str, Any] = {
        "kind": kind,
        "title": GAMES[kind].info.title,
        "lang": language(locale),
        "seq": game.move_count(state),
        "over": over or stopped,
        "labels": labels(locale),
        "log": list(log),
        "result": plain(render(presenter.game_over_text(state), locale), names) if over else None,
    }
    if kind == the_game.INFO.kind:
        page.update(the_game_public(state, names, locale))
    elif kind == no_thanks.INFO.kind:
        page.update(no_thanks_public(state, locale))
    return page


def seat_state(
    kind: str,
    presenter: Presenter[Any, Any],
    state: Any,
    player: int,
    locale: str,
    names: Mapping[int, str],
    stopped: bool = False,
) -> dict[str, Any]:
    """What ``player``'s page alone shows at ``state`` (their hand or chips, whose turn it is for them)."""
    game = presenter.game
    over = game.is_over(state)

    def say(text: Localized) -> str:
        return plain(render(text, locale), names)

    page: dict[str, Any] = {}
    if kind == the_game.INFO.kind:
        page.update(the_game_seat(state, player, say, names, locale))
    elif kind == no_thanks.INFO.kind:
        page.update(no_thanks_seat(state, player, say, names, locale))
    page["myTurn"] = not over and game.current_player(state) == player
    page["spectator"] = player not in getattr(state, "players", ())
    if stopped and not over:
        page.update(myTurn=False, canEnd=False, canTake=False, canPass=False)
        page.update(status=say(ENDED_EARLY), signalButtons=[])
    return page


# The pile labels as templates in the reader's language: the page fills in the letter, arrow, top, card and jump
# (numbers and letters are never translated), so a page is not two dozen rendered sentences per position.
TEMPLATE = {"pile": "{pile}", "arrow": "{arrow}", "top": "{top}", "card": "{card}", "jump": "{jump}"}
TEMPLATES: dict[str, Text] = {
    "pileLabel": _p("button", "{pile} {arrow} {top}", pile="{pile}", arrow="{arrow}", top="{top}"),
    "pileJump": _p("button", "{pile} {arrow} {top} → {card} ({jump})", **TEMPLATE),
    "pileTrick": _p("button", "{pile} {arrow} {top} · backwards trick!", pile="{pile}", arrow="{arrow}", top="{top}"),
}


# Every page of every game renders the same few words again and again: rendered once per language and kept, they
# cost a dictionary lookup.
@functools.lru_cache(maxsize=64)
def labels(locale: str) -> dict[str, str]:
    return {key: render(text, locale) for key, text in (*LABELS.items(), *TEMPLATES.items())}


@functools.lru_cache(maxsize=1024)
def rendered(text: Text, locale: str) -> str:
    return render(text, locale)


# Making the message itself is most of a counted phrase's cost (a quarter of a millisecond), four times a page: so
# the phrase is kept per count and language, not just its rendering.
@functools.lru_cache(maxsize=1024)
def cards_text(count: int, lang: str) -> str:
    return render(_np("web", "{count} card", "{count} cards", count), lang)


@functools.lru_cache(maxsize=1024)
def draw_pile_text(count: int, lang: str) -> str:
    return render(_np("web", "Draw pile: {count} card", "Draw pile: {count} cards", count), lang)


def the_game_public(state: the_game.State, names: Mapping[int, str], lang: str) -> dict[str, Any]:
    view = the_game.public_view(state)
    piles = []
    for pile in view.piles:
        marks = [m for m in view.signals if m.pile == pile.name]
        piles.append(
            {
                "name": pile.name,
                "up": pile.ascending,
                "top": pile.top,
                "size": pile.size,
                "signals": [
                    {
                        "icon": SIGNAL_WORDS[m.kind][0],
                        "text": f"{names.get(m.player, '?')}: {rendered(SIGNAL_WORDS[m.kind][1], lang)}",
                    }
                    for m in marks
                ],
            }
        )
    return {"piles": piles, "drawPile": draw_pile_text(view.draw_pile, lang)}


def the_game_seat(state: the_game.State, player: int, say: Any, names: Mapping[int, str], lang: str) -> dict[str, Any]:
    watching = player not in state.players  # a spectator: the public board alone
    view = the_game.public_view(state)
    cards = () if watching else the_game.observation(state, player).hand
    my_turn = not view.over and not watching and view.current_player in (None, player)
    if view.over:
        status: Localized = _("The game is over.")
    elif view.current_player is None:
        status = FIRST_CARD if watching else _("Anyone may lay the first card: choose one.")
    elif view.current_player == player:
        status = _("Your turn: {laid} laid, at least {minimum}.", laid=view.laid, minimum=view.minimum)
    else:
        status = _("{player} is playing.", player=names.get(view.current_player, "?"))
    # Where each card may go, and where it makes a backwards trick: the rules decide here, the page only shows it.
    hand = [
        {
            "value": card,
            "fits": [p.name for p in view.piles if the_game.is_legal(p.name, p.top, card)],
            "tricks": [p.name for p in view.piles if the_game.is_backwards_trick(p.name, p.top, card)],
        }
        for card in sorted(cards)
    ]
    return {
        "status": say(status),
        "mayLay": my_turn,
        "signalButtons": [] if view.over or watching else signal_buttons(view, player, lang),
        "hand": hand,
        "canEnd": not view.over and view.current_player == player and view.laid >= view.minimum,
        "seats": _the_game_seats(view, player, names, lang),
    }


def _the_game_seats(
    view: the_game.PublicView, player: int, names: Mapping[int, str], lang: str
) -> list[dict[str, Any]]:
    """Every seat round the table as anyone may see it: a name, a number of cards, who moves, the seat's signals."""
    return [
        {
            "name": names.get(seat.player, "?"),
            "me": seat.player == player,
            "cards": cards_text(seat.cards, lang),
            "toMove": seat.player == view.current_player,
            "left": seat.left,
            "signals": [SIGNAL_WORDS[m.kind][0] for m in view.signals if m.player == seat.player and m.pile is None],
        }
        for seat in view.seats
    ]


@functools.lru_cache(maxsize=64)
def _signal_labels(lang: str) -> tuple[tuple[str, str | None, str], ...]:
    pile_signals = [
        (kind, pile, render(_p("button", "{pile}: {signal}", pile=pile, signal=SIGNAL_SHORT[kind]), lang))
        for kind in the_game.PILE_SIGNALS
        for pile in the_game.PILES
    ]
    return (*pile_signals, ("nearly_stuck", None, render(_p("button", "I'm nearly stuck"), lang)))


def signal_buttons(view: the_game.PublicView, player: int, lang: str) -> list[dict[str, Any]]:
    """The signals the seat may raise, as on the panel's signals page; ``on``: raised by this seat (a tap takes it
    down)."""
    mine = {(m.kind, m.pile) for m in view.signals if m.player == player}
    buttons = [
        {"kind": kind, "pile": pile, "on": (kind, pile) in mine, "label": label}
        for kind, pile, label in _signal_labels(lang)
    ]
    if mine:
        buttons.append({"kind": the_game.CLEAR, "pile": None, "on": False, "label": rendered(CLEAR_SIGNALS, lang)})
    return buttons


def no_thanks_public(state: no_thanks.State, lang: str) -> dict[str, Any]:
    view = no_thanks.public_view(state)
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
        "faceUp": view.face_up_card,
        "faceUpText": plain(render(face_up, lang), {}),
        "cardsLeft": rendered(_n("{count} card face down", "{count} cards face down", view.cards_left), lang),
    }


def no_thanks_seat(
    state: no_thanks.State, player: int, say: Any, names: Mapping[int, str], lang: str
) -> dict[str, Any]:
    watching = player not in state.players
    view = no_thanks.public_view(state)
    chips = None if watching else no_thanks.observation(state, player).chips
    if view.turn is None:
        status: Localized = _("The game is over.")
    elif view.turn == player:
        status = _("Your turn.")
    else:
        status = _("{player} is deciding.", player=names.get(view.turn, "?"))
    mine = next((p for p in view.players if p.player == player), None)
    legal = [] if watching else no_thanks.legal_actions(state, player)
    return {
        "status": say(status),
        "myChips": None
        if chips is None
        else rendered(_np("web", "Your chips: {count}", "Your chips: {count}", chips), lang),
        "myRuns": [list(run) for run in mine.runs] if mine is not None else [],
        "myPoints": rendered(_n("{count} point", "{count} points", mine.points if mine is not None else 0), lang),
        "canTake": no_thanks.Take() in legal,
        "canPass": no_thanks.NoThanks() in legal,
        "seats": [
            {
                "name": names.get(seat.player, "?"),
                "me": seat.player == player,
                "runs": [list(run) for run in seat.runs],
                "points": rendered(_n("{count} point", "{count} points", seat.points), lang),
                # Only where the game plays with open chips: otherwise the public view holds None.
                "chips": None if seat.chips is None else say(_n("{count} chip", "{count} chips", seat.chips)),
                "toMove": seat.player == view.turn,
            }
            for seat in view.players
        ],
    }
