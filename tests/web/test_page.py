"""What a player's page receives (web/page.py): the same whatever is hidden from that seat changes. Another seat's
hand, the draw order and No Thanks! chip counts can be swapped around without a single byte of the page changing."""

from __future__ import annotations

import json
from dataclasses import replace

from cogs.no_thanks import PRESENTER as NO_THANKS
from cogs.the_game_presenter import PRESENTER as THE_GAME
from engine import no_thanks, the_game
from web.page import page_state, public_state

PLAYERS = (11, 22, 33)
NAMES = {11: "ana", 22: "ben", 33: "cy"}


def the_game_page(state: the_game.State, player: int, locale: str = "en") -> str:
    return json.dumps(page_state("the_game", THE_GAME, state, player, locale, NAMES))


def test_the_game_page_shows_none_of_what_the_seat_may_not_see() -> None:
    state = the_game.new_game(PLAYERS, seed=5)
    ben_hand, deck = state.hands[1], state.draw_pile
    # ben's hand and the draw pile change places (sizes kept); cy's hand is shuffled into the deck's end.
    swapped = replace(
        state,
        hands=(state.hands[0], deck[: len(ben_hand)], state.hands[2]),
        draw_pile=(*ben_hand, *deck[len(ben_hand) :][::-1]),
    )
    assert swapped != state
    assert the_game_page(swapped, 11) == the_game_page(state, 11)
    assert the_game_page(swapped, 22) != the_game_page(state, 22)  # ben's own page does change: a check that can fail


def test_the_game_page_shows_the_seats_hand_sorted_and_the_piles() -> None:
    state = the_game.new_game(PLAYERS, seed=5)
    page = json.loads(the_game_page(state, 22))
    assert [c["value"] for c in page["hand"]] == sorted(the_game.hand(state, 22))
    assert [(p["name"], p["up"], p["top"]) for p in page["piles"]] == [
        ("A", True, 1),
        ("B", True, 1),
        ("C", False, 100),
        ("D", False, 100),
    ]
    assert all(card["fits"] == ["A", "B", "C", "D"] for card in page["hand"])
    assert page["labels"]["pileJump"] == "{pile} {arrow} {top} → {card} ({jump})"
    assert page["status"] == "Anyone may lay the first card: choose one."
    assert page["labels"]["hand"] == "Your hand"
    assert page["labels"]["piles"] == "Piles"


def test_the_page_speaks_the_players_language() -> None:
    state = the_game.new_game(PLAYERS, seed=5)
    page = json.loads(the_game_page(state, 22, "de"))
    assert page["lang"] == "de"
    assert page["labels"]["endTurn"] == "Zug beenden"
    assert page["labels"]["pileTrick"] == "{pile} {arrow} {top} · Rückwärtstrick!"
    assert page["labels"]["hand"] != "Your hand"


def no_thanks_page(state: no_thanks.State, player: int) -> str:
    return json.dumps(page_state("no_thanks", NO_THANKS, state, player, "en", NAMES))


def test_no_thanks_page_keeps_other_chips_and_the_deck_secret() -> None:
    state = no_thanks.new_game(PLAYERS, seed=3)
    state = no_thanks.apply(state, state.players[state.turn], no_thanks.NoThanks())
    richer = replace(state, chips=(state.chips[0], state.chips[1] + 7, state.chips[2] + 2))
    reordered = replace(state, draw_pile=state.draw_pile[::-1])
    for other in (richer, reordered):
        assert no_thanks_page(other, 11) == no_thanks_page(state, 11)
    page = json.loads(no_thanks_page(state, 11))
    assert page["myChips"] == f"Your chips: {state.chips[0]}"
    assert all(seat["chips"] is None for seat in page["seats"])
    assert page["faceUp"] == state.face_up


def test_open_chips_are_shown_to_everybody() -> None:
    state = no_thanks.new_game(PLAYERS, seed=3, open_chips=True)
    page = json.loads(no_thanks_page(state, 11))
    assert [seat["chips"] for seat in page["seats"]] == ["11 chips"] * 3


def test_a_spectator_sees_the_public_board_alone() -> None:
    state = the_game.new_game(PLAYERS, seed=5)
    page = json.loads(the_game_page(state, 0))
    assert page["spectator"]
    assert page["hand"] == []
    assert [s["cards"] for s in page["seats"]] == ["6 cards"] * 3
    swapped = replace(state, hands=(state.hands[1], state.hands[0], state.hands[2]))
    assert the_game_page(swapped, 0) == the_game_page(state, 0)
    chips = no_thanks.new_game(PLAYERS, seed=3)
    richer = replace(chips, chips=(chips.chips[0] + 4, *chips.chips[1:]))
    assert no_thanks_page(richer, 0) == no_thanks_page(chips, 0)
    assert json.loads(no_thanks_page(chips, 0))["myChips"] is None


def test_the_part_every_page_shares_holds_no_hand_and_no_chips() -> None:
    """The public part is encoded once and sent to every page of the game (web/live.py): no seat's secret in it."""
    state = the_game.new_game(PLAYERS, seed=5)
    every_hand_elsewhere = replace(state, hands=(*(h[::-1] for h in state.hands[1:]), state.draw_pile[:7]))
    public = json.dumps(public_state("the_game", THE_GAME, state, "en", NAMES))
    assert json.dumps(public_state("the_game", THE_GAME, every_hand_elsewhere, "en", NAMES)) == public
    chips = no_thanks.new_game(PLAYERS, seed=3)
    richer = replace(chips, chips=tuple(c + 5 for c in chips.chips))
    shared = json.dumps(public_state("no_thanks", NO_THANKS, chips, "en", NAMES))
    assert json.dumps(public_state("no_thanks", NO_THANKS, richer, "en", NAMES)) == shared
    assert "hand" not in json.loads(public)
    assert "myChips" not in json.loads(shared)
