"""No Thanks! rendering: the board hides chip counts unless open chips is on, and shows the face-up line."""

from cogs.no_thanks import cards_text, face_up_line, render_board
from engine import no_thanks
from i18n import render

PLAYERS = (101, 102, 103)


def embed_text(embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(parts)


def test_cards_are_grouped_into_runs() -> None:
    assert cards_text((3, 4, 5, 10, 12, 13)) == "[3-5] [10] [12-13]"
    assert render(cards_text(()), "en") == "no cards"


def test_face_up_line_starts_with_the_promised_words() -> None:
    state = no_thanks.new_game(PLAYERS, seed=5)
    line = render(face_up_line(state), "en")
    assert line.startswith(f"Face-up card: {no_thanks.face_up_card(state)} ")
    assert "(0 chips on it)" in line


def test_board_hides_chips_unless_open() -> None:
    state = no_thanks.new_game(PLAYERS, seed=5)
    secret = embed_text(render_board(state))
    assert "chips on it" in secret
    assert "11 chips" not in secret
    opened = embed_text(render_board(no_thanks.new_game(PLAYERS, seed=5, open_chips=True)))
    assert "11 chips" in opened


def test_board_shows_taken_cards_and_points() -> None:
    state = no_thanks.new_game(PLAYERS, seed=5)
    first = no_thanks.current_player(state)
    assert first is not None
    taken = no_thanks.apply(state, first, no_thanks.Take())
    card = no_thanks.face_up_card(state)
    text = embed_text(render_board(taken))
    assert f"[{card}] = {card} points" in text
