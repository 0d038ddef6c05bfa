"""The DM panel of The Game: its resting page shows only what the player's own moves change, so no one else's move
needs a DM edit; its other pages are the channel panel's; once the game is over it has no button."""

from __future__ import annotations

from typing import Any

from cogs.the_game_panel import dm_panel
from engine import the_game
from storage import GameRecord
from table.presenter import Step

PLAYERS = (101, 102, 103)


def record() -> GameRecord:
    return GameRecord(1, 10, 1, "the_game", PLAYERS[0], PLAYERS, (), 7, 1, "running", 0, 0)


def buttons(message: dict[str, Any]) -> dict[str, bool]:
    """custom id -> enabled"""
    view = message["view"]
    return {press.custom_id: not press.disabled for press in view.presses} if view is not None else {}


def test_the_resting_page_shows_the_hand_and_every_card_enabled_whatever_the_table_does() -> None:
    state = the_game.new_game(PLAYERS, seed=3)
    card = state.hands[0][0]
    after = the_game.apply(state, PLAYERS[0], the_game.Play(card, "A"))
    # Someone else's move changes nothing the resting page shows (here: the piles, whose turn).
    ben = dm_panel(record(), state, PLAYERS[1], None, "en", None)
    assert dm_panel(record(), after, PLAYERS[1], None, "en", None)["content"] == ben["content"]
    assert buttons(dm_panel(record(), after, PLAYERS[1], None, "en", None)) == buttons(ben)
    assert ben["content"] == "Your hand: " + ", ".join(map(str, state.hands[1]))
    enabled = buttons(ben)
    assert all(enabled[f"tg:1:card:{c}:"] for c in state.hands[1])
    assert enabled["tg:1:end::"]
    assert enabled["tg:1:page:signals:"]
    # The mover's answer says what they did, in their words.
    step = Step(1, PLAYERS[0], the_game.Play(card, "A"), state, after)
    ana = dm_panel(record(), after, PLAYERS[0], None, "de", step)["content"]
    assert ana.splitlines()[1] == f"Du hast die {card} auf A gelegt."


def test_a_card_opens_the_channel_panels_pile_page_and_a_card_no_longer_held_the_hand() -> None:
    state = the_game.new_game(PLAYERS, seed=3)
    card = state.hands[1][0]
    piles = dm_panel(record(), state, PLAYERS[1], f"card{card}", "en", None)
    assert f"tg:1:pile:{card}:A" in buttons(piles)
    gone = state.hands[0][0]
    assert dm_panel(record(), state, PLAYERS[1], f"card{gone}", "en", None)["content"].startswith("Your hand:")


def test_an_ended_game_leaves_no_button() -> None:
    state = the_game.new_game(PLAYERS, seed=3)
    over = the_game.apply(state, PLAYERS[0], the_game.Leave())
    over = the_game.apply(over, PLAYERS[1], the_game.Leave())
    over = the_game.apply(over, PLAYERS[2], the_game.Leave())
    assert the_game.is_over(over)
    for page in (None, "signals", f"card{state.hands[0][0]}"):
        message = dm_panel(record(), over, PLAYERS[0], page, "en", None)
        assert message["view"] is None
        assert message["content"].endswith("The game is over.")


def test_a_leavers_dm_keeps_no_button() -> None:
    state = the_game.new_game(PLAYERS, seed=3)
    gone = the_game.apply(state, PLAYERS[1], the_game.Leave())
    assert not the_game.is_over(gone)
    message = dm_panel(record(), gone, PLAYERS[1], None, "de", None)
    assert message["view"] is None
    assert message["content"].splitlines()[-1] == "Du hast dieses Spiel verlassen und kannst darin nichts mehr tun."
