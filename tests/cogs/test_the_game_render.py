"""The Game's rendering: the board is a function of the public view only; hands are shown in one promised line."""

from dataclasses import replace

from cogs.the_game_board import hand_line, render_board
from engine import the_game
from i18n import render

PLAYERS = (101, 102, 103)


def test_hand_line_lists_cards_ascending() -> None:
    assert render(hand_line((3, 17, 45)), "en") == "Your hand: 3, 17, 45"
    assert render(hand_line(()), "en") == "Your hand: (no cards)"


def test_board_shows_no_hand_card() -> None:
    state = the_game.new_game(PLAYERS, seed=3)
    # Swap one card between two hands and one with the draw pile: nothing public changes, so neither may the board.
    first, second = state.hands[0], state.hands[1]
    swapped_hands = ((second[0], *first[1:]), (first[0], *second[1:]), state.hands[2])
    swapped = replace(
        state,
        hands=(tuple(sorted(swapped_hands[0])), tuple(sorted(swapped_hands[1])), swapped_hands[2]),
    )
    with_draw = replace(
        state,
        hands=(tuple(sorted((state.draw_pile[0], *first[1:]))), second, state.hands[2]),
        draw_pile=(first[0], *state.draw_pile[1:]),
    )
    board = render_board(state).to_dict()
    assert render_board(swapped).to_dict() == board
    assert render_board(with_draw).to_dict() == board


def test_board_shows_piles_turn_and_counts() -> None:
    state = the_game.new_game(PLAYERS, seed=3, expert=True)
    card = state.hands[0][0]
    state = the_game.apply(state, PLAYERS[0], the_game.Play(card, "A"))
    embed = render_board(state)
    text = "\n".join([embed.description or "", *(f"{f.name}: {f.value}" for f in embed.fields)])
    assert f"**A** ↑ ascending: **{card}**" in text
    assert "**C** ↓ descending: **100**" in text
    assert f"{len(state.draw_pile)} cards" in text
    assert "<@101>: 5 cards ← to move" in text
    assert "<@102>: 6 cards" in text
    assert "1 laid, at least 3 this turn" in text
    assert "expert" in text


def test_board_before_the_first_card_invites_anyone() -> None:
    embed = render_board(the_game.new_game(PLAYERS, seed=3))
    assert any("Anyone may lay the first card" in field.value for field in embed.fields)
