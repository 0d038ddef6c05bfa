"""Tests for chatfilter.mentions_number against the labelled corpus and the policy's rules."""

from __future__ import annotations

import ast
import json
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatfilter
from chatfilter import mentions_number
from tests.chatfilter.chat_corpus import ALL_CASES, REALISTIC, Case

# num2words' spellings of 2-99, written by tools/gen_number_word_fixture.py (num2words is a dev tool only).
NUM2WORDS: dict[str, dict[str, list[str]]] = json.loads(
    (pathlib.Path(__file__).parent / "chat_filter_num2words.json").read_text(encoding="utf-8")
)

# Numbers in one language, ordinary words in another: on their own they read as the ordinary word (X8).
AMBIGUOUS_ALONE = {"elf", "once", "seize"}
IN_CONTEXT = {"de": "ich lege die {}", "en": "I have {} cards", "fr": "j'ai le {}", "es": "tengo el {}"}


@pytest.mark.parametrize(("text", "label"), [(t, label) for t, label, _ in ALL_CASES], ids=[r for *_, r in ALL_CASES])
def test_case(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


def precision_recall(cases: list[Case]) -> tuple[float, float]:
    predicted = [(mentions_number(text), bool(label)) for text, label, _ in cases]
    true_pos = sum(p and t for p, t in predicted)
    precision = true_pos / max(1, sum(p for p, _ in predicted))
    recall = true_pos / max(1, sum(t for _, t in predicted))
    return precision, recall


@pytest.mark.parametrize("cases", [ALL_CASES, REALISTIC], ids=["all", "realistic"])
def test_precision_and_recall(cases: list[Case]) -> None:
    precision, recall = precision_recall(cases)
    assert precision >= 0.99
    assert recall >= 0.99


def test_corpus_is_broad_and_balanced() -> None:
    rules = {rule.split("-")[0] for *_, rule in ALL_CASES}
    assert {"D1", "D2", "D3", "W1", "W2", "R1", "M1", "TRAP", "CHAT"} <= rules
    assert {f"X{i}" for i in range(1, 13)} <= rules
    assert len(ALL_CASES) >= 600
    positives = sum(label for _, label, _ in ALL_CASES)
    assert 0.3 < positives / len(ALL_CASES) < 0.7
    assert len({text for text, *_ in ALL_CASES}) > 0.95 * len(ALL_CASES)


def _num2words_cases() -> list[tuple[str, str]]:
    cases = []
    for lang, kinds in NUM2WORDS.items():
        for words in kinds.values():
            for word in words:
                cases.append((lang, word))
    return cases


@pytest.mark.parametrize(("lang", "word"), _num2words_cases())
def test_every_num2words_spelling_counts(lang: str, word: str) -> None:
    """Independent reference: num2words' spellings of 2-99, hyphenated, spaced, glued and shouted."""
    glued = word.replace("-", "").replace(" ", "")
    spellings = {word, word.replace("-", " "), glued, word.upper(), IN_CONTEXT[lang].format(word)}
    if word in AMBIGUOUS_ALONE:
        spellings = {IN_CONTEXT[lang].format(word)}
    for spelling in spellings:
        assert mentions_number(spelling), spelling


@pytest.mark.parametrize("word", ["elf", "once", "seize"])
def test_cross_language_words_alone_read_as_the_ordinary_word(word: str) -> None:
    assert not mentions_number(word)


@pytest.mark.parametrize(
    "word", ["three", "seventeen", "thirty", "zwanzig", "dreiundvierzig", "quarante", "diecisiete", "noventa"]
)
@pytest.mark.parametrize("invisible", ["\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u3164", "\u034f"])
def test_invisible_characters_anywhere_inside_a_word(word: str, invisible: str) -> None:
    for cut in range(1, len(word)):
        assert mentions_number(word[:cut] + invisible + word[cut:])


@pytest.mark.parametrize("word", ["three", "forty", "zwanzig", "quarante", "diecisiete", "sieben", "treinta"])
@pytest.mark.parametrize("split", ["\u00a0", "\n", "**", "||", "`", "~~", "-"])
def test_word_split_by_an_invisible_break(word: str, split: str) -> None:
    for cut in range(1, len(word)):
        assert mentions_number(f"ok {word[:cut]}{split}{word[cut:]} ok")


@pytest.mark.parametrize("word", ["two", "seven", "zwei", "neun", "deux", "trois", "cuatro", "ocho"])
@pytest.mark.parametrize("separator", [" ", ".", "-", "\n", " . ", "_", "*"])
def test_letter_spacing(word: str, separator: str) -> None:
    assert mentions_number(separator.join(word))
    assert mentions_number(f"i have {separator.join(word)} lol")


_NO_MARKUP = st.text(st.characters(blacklist_characters="<>:/"), max_size=40)


@given(prefix=_NO_MARKUP, digit=st.characters(whitelist_categories=("Nd",)), suffix=_NO_MARKUP)
def test_any_digit_outside_markup_counts(prefix: str, digit: str, suffix: str) -> None:
    assert mentions_number(prefix + digit + suffix)


@given(st.text(max_size=200))
def test_never_raises_and_is_deterministic(text: str) -> None:
    assert mentions_number(text) is mentions_number(text)


def test_the_package_is_pure() -> None:
    """The filter is a pure function: its package imports the standard library and itself, nothing else (no
    Discord, asyncio, database, network, clock or randomness), and nothing of the bot."""
    allowed = {
        "__future__",
        "chatfilter",
        "collections",
        "itertools",
        "json",
        "operator",
        "pathlib",
        "re",
        "sys",
        "typing",
        "unicodedata",
    }
    modules = sorted(pathlib.Path(chatfilter.__file__).parent.glob("*.py"))
    assert len(modules) > 3
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {(node.module or "").split(".")[0]}
            else:
                continue
            assert names <= allowed, (module.name, names - allowed)
