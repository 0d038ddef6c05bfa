"""The API the presenters use: texts marked in the code, rendered in the reader's language at the edge."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from i18n import _, _n, _np, _p, day, duration, language, lines, listing, number, render, table_locale

CARDS = ("{count} card", "{count} cards")
Catalogs = Callable[..., Path]


@pytest.fixture
def cards(catalogs: Catalogs) -> None:
    catalogs("de", [(CARDS, ("{count} Karte", "{count} Karten")), ("Your hand: {cards}", "Deine Hand: {cards}")])
    catalogs("fr", [(CARDS, ("{count} carte", "{count} cartes")), ("Your hand: {cards}", "Ta main : {cards}")])
    catalogs("es", [(CARDS, ("{count} carta", "{count} cartas")), ("Your hand: {cards}", "Tu mano: {cards}")])


@pytest.mark.parametrize(
    ("locale", "count", "expected"),
    [
        ("en-US", 0, "0 cards"),
        ("en-US", 1, "1 card"),
        ("de", 0, "0 Karten"),
        ("de", 1, "1 Karte"),
        ("de", 2, "2 Karten"),
        ("fr", 0, "0 carte"),  # French counts nothing as one
        ("fr", 1, "1 carte"),
        ("fr", 2, "2 cartes"),
        ("es-ES", 1, "1 carta"),
        ("es-419", 0, "0 cartas"),
    ],
)
@pytest.mark.usefixtures("cards")
def test_plural_forms_are_the_languages_own(locale: str, count: int, expected: str) -> None:
    assert render(_n(*CARDS, count), locale) == expected


@pytest.mark.usefixtures("cards")
def test_card_numbers_and_pile_letters_stay_as_they_are_and_parts_render_in_the_readers_language() -> None:
    hand = _("Your hand: {cards}", cards=listing(["12", "57", "98"]))
    assert render(hand, "de") == "Deine Hand: 12, 57 und 98"
    assert render(hand, "fr") == "Ta main : 12, 57 et 98"
    assert render(hand, "es-419") == "Tu mano: 12, 57 y 98"
    assert render(hand, "en-GB") == "Your hand: 12, 57 and 98"


def test_a_language_without_catalog_reads_english_and_english_formats() -> None:
    assert language("ja") == "en"
    assert language("pt-BR") == "en"
    assert language(None) == "en"
    assert language("es-419") == language("es-ES") == "es"
    assert render(_("Draw pile: {count}", count=number(1234.5)), "ja") == "Draw pile: 1,234.5"


def test_numbers_durations_and_days_are_written_the_locales_way() -> None:
    assert [render(number(12345.5), locale) for locale in ("en-US", "de", "fr", "es-ES")] == [
        "12,345.5",
        "12.345,5",
        "12\u202f345,5",
        "12.345,5",
    ]
    assert render(number(2 / 3, decimals=2), "de") == "0,67"
    soon = duration(180, direction=True)
    assert [render(soon, locale) for locale in ("en-US", "de", "fr", "es-419")] == [
        "in 3 minutes",
        "in 3 Minuten",
        "dans 3 minutes",
        "dentro de 3 minutos",
    ]
    assert render(duration(dt.timedelta(seconds=-30), direction=True), "de") == "vor 30 Sekunden"
    assert render(duration(3600, width="short"), "fr") == "1\u202fh"  # a narrow no-break space
    assert render(day(dt.date(2026, 11, 25)), "de") == "25. November 2026"
    assert render(day(dt.date(2026, 11, 25)), "es-ES") == "25 de noviembre de 2026"


def test_contexts_keep_apart_two_uses_of_one_english_word(catalogs: Catalogs) -> None:
    catalogs(
        "de",
        [
            ("Take", "Nehmen", "button"),
            ("Take", "Nimm", "tip"),
            (("{count} chip", "{count} chips"), ("ein Chip", "{count} Chips"), "board"),
        ],
    )
    assert render(_p("button", "Take"), "de") == "Nehmen"
    assert render(_p("tip", "Take"), "de") == "Nimm"
    assert render(_("Take"), "de") == "Take"  # no entry without a context: the English
    assert render(_np("board", "{count} chip", "{count} chips", 1), "de") == "ein Chip"
    assert render(_np("board", "{count} chip", "{count} chips", 5), "de") == "5 Chips"


def test_a_fuzzy_translation_is_not_shown_until_reviewed(catalogs: Catalogs) -> None:
    catalogs("de", [("End turn", "Zug beenden"), ("Pass", "Passe")], fuzzy=frozenset({"Pass"}))
    assert render(_("End turn"), "de") == "Zug beenden"
    assert render(_("Pass"), "de") == "Pass"


def test_sentences_are_built_from_parts_through_placeholders_and_lines(catalogs: Catalogs) -> None:
    catalogs(
        "fr",
        [
            ("{player} laid {card} on {pile}.", "{player} a posé {card} sur {pile}."),
            ("Draw pile: {left}", "Pioche : {left}"),
            (CARDS, ("{count} carte", "{count} cartes")),
        ],
    )
    board = lines(
        _("{player} laid {card} on {pile}.", player="<@1>", card=57, pile="C"),
        None,
        _("Draw pile: {left}", left=_n(*CARDS, 0)),
    )
    assert render(board, "fr") == "<@1> a posé 57 sur C.\nPioche : 0 carte"
    assert render("12 34 56", "fr") == "12 34 56"  # plain text is what is never translated


def test_a_text_with_a_wrong_placeholder_fails_where_it_is_made() -> None:
    with pytest.raises(ValueError, match="needs"):
        _("{player} laid {card}", player="ana")
    with pytest.raises(ValueError, match="no placeholder"):
        _("Your turn", player="ana")
    with pytest.raises(ValueError, match="positional"):
        _("{} laid a card", player="ana")
    assert render(_n("one card", "{count} cards", 1), "en") == "one card"  # {count} comes with _n


def test_a_text_cannot_be_pasted_into_a_string() -> None:
    text = _("Your turn")
    with pytest.raises(TypeError, match="render"):
        str(text)
    with pytest.raises(TypeError, match="render"):
        f"{text}!"
    with pytest.raises(TypeError):
        text + "!"  # type: ignore[operator]


def test_the_table_reads_the_servers_choice_else_discords_server_locale_else_english() -> None:
    assert table_locale("fr", "de") == "fr"
    assert table_locale(None, "de") == "de"
    assert table_locale(None, None) == "en"
