"""Tests for issue 27's kinds (short misspellings in context, German dialect, spacing after a one-letter word,
German numbers above a hundred, look-alikes in their own language) and the censor limit's exactness (issue 20)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from chatfilter import _lookup, _message, mentions_number
from chatfilter._censored import censored_reading
from chatfilter._misspellings import MIN_LENGTH, SHORT, SHORT_ALONE, TARGETS, short_misspelling
from chatfilter._number_words import FORMS, LARGE_WORDS
from tests.chatfilter.chat_corpus import ALL_CASES, REALISTIC
from tests.chatfilter.chat_corpus_issue27 import ALL_ISSUE27, Case
from tests.chatfilter.chat_corpus_misspellings import ALL_NEW
from tests.chatfilter.test_chat_filter import precision_recall


@pytest.mark.parametrize(
    ("text", "label"), [(t, label) for t, label, _ in ALL_ISSUE27], ids=[r for *_, r in ALL_ISSUE27]
)
def test_case(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


@pytest.mark.parametrize(
    "cases", [ALL_ISSUE27, ALL_CASES, REALISTIC, ALL_NEW, ALL_CASES + ALL_NEW + ALL_ISSUE27], ids=str
)
def test_precision_and_recall(cases: list[Case]) -> None:
    precision, recall = precision_recall(cases)
    assert precision >= 0.995
    assert recall >= 0.995


def test_corpus_is_broad_and_balanced() -> None:
    labels: dict[str, set[int]] = defaultdict(set)
    for _, label, rule in ALL_ISSUE27:
        labels[rule].add(label)
    kinds = {rule.split("-")[0] for rule in labels}
    assert kinds == {"short", "dialect", "spaced", "large", "crosslang"}
    assert {rule.split("-")[1] for rule in labels if rule.startswith(("short", "spaced"))} == {"en", "de", "fr", "es"}
    assert all(seen == {0, 1} for seen in labels.values()), labels
    texts = [text for text, *_ in ALL_ISSUE27]
    assert len(set(texts)) == len(texts)
    assert not set(texts) & {text for text, *_ in ALL_CASES + ALL_NEW}


# --- at most a third of the word hidden: exact ---------------------------------------------------------------


def _always_counting() -> list[str]:
    return sorted(t for t in TARGETS if FORMS[t] == "" and len(t) >= MIN_LENGTH)


@pytest.mark.parametrize("word", _always_counting())
def test_at_most_a_third_hidden_is_exact(word: str) -> None:
    """A third of the letters (rounded down; one for four and five letters) hidden is read as the number; one
    letter more is not, wherever the hidden run sits inside the word."""
    limit = max(1, len(word) // 3)
    for start in range(1, len(word) - limit):
        hidden = word[:start] + "#" * limit + word[start + limit :]
        assert censored_reading(hidden) is not None, hidden
        if start + limit + 1 < len(word):
            more = word[:start] + "#" * (limit + 1) + word[start + limit + 1 :]
            assert censored_reading(more) != word, more


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("i have tw##ve", 1),  # 2 of 6: exactly a third
        ("i have t###ve", 0),  # 3 of 6
        ("se###teen left", 1),  # 3 of 9
        ("se####een left", 0),  # 4 of 9
        ("fo#ty", 1),  # 1 of 5
        ("f##ty", 0),  # 2 of 5
        ("tw*lve", 1),
        ("tw**lve", 1),  # a run of characters for one letter
    ],
)
def test_the_limit_in_messages(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


# --- short misspellings: in context, or alone when they are no word (issue 40) -------------------------------


@pytest.mark.parametrize("token", ["sxi", "twwo", "trres", "ssept", "aacht", "ddix", "eelf", "doos"])
def test_short_misspellings_count_in_context(token: str) -> None:
    assert token in SHORT
    _, langs = short_misspelling(token)
    sentences = {
        "en": "I have {} cards",
        "de": "ich habe noch {} Karten",
        "fr": "il me reste {} cartes",
        "es": "me quedan {} cartas",
    }
    for lang in langs:
        assert mentions_number(sentences[lang].format(token)), (token, lang)


@pytest.mark.parametrize("token", ["sxi", "twwo", "trres", "ssept", "aacht", "ddix"])
def test_short_misspellings_that_are_no_word_count_alone(token: str) -> None:
    """Issue 40 overturned issue 27's "only in context": alone, a misspelling that is no word of any of the four
    languages can only be the number."""
    assert token in SHORT_ALONE
    assert mentions_number(token)
    assert mentions_number(f"{token}!")


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("eelf", 0),  # alone, a look-alike follows its word's rule: "elf" alone is the English word
        ("die eelf", 1),
        ("doos", 1),  # like a lone "dos", which counts
        ("mon sac à doos", 0),  # like "sac à dos"
        ("I have trres, je pense", 0),  # a mixed message without a main language lets a short misspelling through
    ],
)
def test_short_misspellings_alone_follow_their_word(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


@pytest.mark.parametrize("token", ["tne", "dre", "isx"])
def test_typos_of_function_words_are_not_short_numbers(token: str) -> None:
    """ "tne" is "the" mistyped before it is "ten", "dre" is "der", "isx" is "is"."""
    assert token not in SHORT


# --- the message's language: decided once --------------------------------------------------------------------


def test_language_is_counted_at_most_once_per_message(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[list[str]] = []
    real = _message.Language

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, tokens: list[str], seps: list[str]) -> None:
            made.append(tokens)
            super().__init__(tokens, seps)

    monkeypatch.setattr(_message, "Language", Counting)
    assert not mentions_number("j'ai mis le sac à dos et le dos de la chaise, quince jam, once again")
    assert len(made) == 1
    made.clear()
    assert not mentions_number("nice move, well played")
    assert not made  # no look-alike: the language is never counted


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("sac à dos", 0),
        ("mon sac à dos est lourd", 0),
        ("j'ai mal au dos, tengo dos cartas", 1),
        ("j'ai mal au dos, tengo dos", 1),
        ("mi sac à dos por favor", 0),
        ("dos", 1),
        ("tengo dos", 1),
        ("quince", 1),
        ("quince jam", 0),
        ("I bought a quince", 0),
        ("tengo quince", 1),
        ("hundert elf", 1),
        ("ciento once", 1),
    ],
)
def test_mixed_language_messages_as_documented(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


def test_a_glued_large_number_is_written_in_one_language() -> None:
    """A look-alike glued to hundred/hundert/cent/ciento counts only next to a large word of its own language:
    "hundertelf" is 111, "tencent" is a company."""
    assert set(_lookup._LARGE_LANGUAGE) == set(LARGE_WORDS)
    look_alikes = {key for key in FORMS.values() if key} - _lookup.NOT_A_PART
    assert look_alikes == set(_lookup._LOOK_ALIKE_LANGUAGE)
    for text in ("hundertelf", "hundertacht", "mildos", "hundredten", "centneuf"):
        assert mentions_number(text), text
    for text in ("tencent", "elfmille", "doshundred"):
        assert not mentions_number(text), text


@pytest.mark.parametrize(
    ("word", "number"),
    [
        ("tsehn", "zehn"),  # z spoken ts
        ("tswanzich", "zwanzig"),
        ("siwwe", "sieben"),  # ww for b
        ("sibbe", "sieben"),  # a doubled consonant, a dropped final n
        ("sieme", "sieben"),  # m for b after i
        ("fümf", "fünf"),  # m for n before f
        ("fünnef", "fünf"),  # the vowel dialects put before f
        ("elef", "elf"),
        ("zwölef", "zwölf"),
        ("achd", "acht"),  # d for t after ch
        ("fümfe", "fünf"),  # the dialect ending e
        ("dreizeh", "dreizehn"),  # a dropped final n
    ],
)
def test_german_spoken_spellings(word: str, number: str) -> None:
    assert mentions_number(f"ich hab die {number}")
    assert mentions_number(f"ich hab die {word}"), word
    assert mentions_number(f"noch {word} Karten"), word


@pytest.mark.parametrize(
    "text",
    [
        "tschö, bis morgen",  # tsch is not ts
        "viell. morgen",  # a doubled consonant before a consonant stays
        "die Sense ist stumpf",  # an ending without a sound change is read as written
        "ich achte drauf",  # Achte: ordinal and verb (a dictionary word)
        "die Elfe tanzt",
        "wir sitzen fest",
        "das ist mir zu seicht",
    ],
)
def test_german_words_the_sound_changes_leave_alone(text: str) -> None:
    assert not mentions_number(text)
