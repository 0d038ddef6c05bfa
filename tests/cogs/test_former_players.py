"""A seat whose person asked to be forgotten (/forget) reads "a former player" wherever seats are named, in the
reader's language, never as a mention (issue 33)."""

from __future__ import annotations

from cogs._results import people
from cogs.the_game_board import render_board
from engine import the_game
from i18n import render
from storage import FORMER_BASE
from table.people import mention

FORMER = FORMER_BASE + 1


def test_a_former_player_has_no_mention_in_any_language() -> None:
    assert render(mention(FORMER), "en") == "a former player"
    assert render(mention(FORMER), "de") == "ein ehemaliger Mitspieler"
    assert render(mention(FORMER), "fr") == "un ancien joueur"
    assert render(mention(FORMER), "es-ES") == "un antiguo jugador"
    assert mention(101) == "<@101>"  # everybody else as before
    assert mention(-1) == "**Bot Ada**"


def test_the_board_and_the_lists_name_the_seat() -> None:
    state = the_game.new_game((101, FORMER), seed=3)
    embed = render_board(state, "de")
    seats = next(str(f.value) for f in embed.fields if f.name == "Spieler")
    assert "ein ehemaliger Mitspieler: 7 Karten" in seats
    assert f"<@{FORMER}>" not in seats
    assert render(people((FORMER, 102)), "en") == "a former player <@102>"
