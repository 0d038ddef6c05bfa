"""Tests for policy W2's misspellings, respellings, stray diacritics and censor characters (issue 17)."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import unicodedata
from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatfilter import _misspellings, mentions_number
from chatfilter._language import COMMON
from chatfilter._misspellings import LONE, MIN_LENGTH, ORDINARY, TARGETS, misspelt_number, reads_as_number
from chatfilter._number_words import FORMS
from tests.chatfilter.chat_corpus import ALL_CASES
from tests.chatfilter.chat_corpus_misspellings import ALL_NEW, Case
from tests.chatfilter.test_chat_filter import precision_recall

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE = ROOT / "chatfilter" / "_misspellings_ordinary.json"


@pytest.mark.parametrize(("text", "label"), [(t, label) for t, label, _ in ALL_NEW], ids=[r for *_, r in ALL_NEW])
def test_case(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


@pytest.mark.parametrize("cases", [ALL_NEW, ALL_CASES + ALL_NEW], ids=["new", "old+new"])
def test_precision_and_recall(cases: list[Case]) -> None:
    precision, recall = precision_recall(cases)
    assert precision >= 0.995
    assert recall >= 0.995


def test_new_corpus_is_broad_and_balanced() -> None:
    assert len(ALL_NEW) >= 200
    negatives = sum(1 for _, label, _ in ALL_NEW if label == 0)
    assert negatives >= len(ALL_NEW) / 2
    labels: dict[str, set[int]] = defaultdict(set)
    for _, label, rule in ALL_NEW:
        labels[rule].add(label)
    kinds = {rule.split("-")[0] for rule in labels}
    langs = {rule.split("-")[1] for rule in labels}
    assert kinds == {"misspelling", "dialect", "censor", "diacritics"}
    assert langs == {"en", "de", "fr", "es"}
    assert len(labels) == len(kinds) * len(langs)
    assert all(seen == {0, 1} for seen in labels.values()), labels
    assert len({text for text, *_ in ALL_NEW}) == len(ALL_NEW)
    assert not {text for text, *_ in ALL_NEW} & {text for text, *_ in ALL_CASES}


# The policy's own W2 examples, both sides.
@pytest.mark.parametrize(
    "word", ["fourty", "fivety", "thrity", "tweleve", "dreizig", "vierzich", "fuffzich", "soixente", "ventidos"]
)
def test_policy_misspellings_count(word: str) -> None:
    assert mentions_number(word)
    assert mentions_number(f"ok {word} then")


@pytest.mark.parametrize("word", ["forth", "weight", "threw", "dose"])
def test_policy_ordinary_words_stay(word: str) -> None:
    assert not mentions_number(word)
    assert not mentions_number(f"ok {word} then")


def _one_edit_variants(word: str) -> set[str]:
    deletions = {word[:i] + word[i + 1 :] for i in range(len(word))}
    doublings = {word[:i] + word[i] + word[i:] for i in range(len(word))}
    swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    return (deletions | doublings | swaps) - {word}


def _expected(variant: str) -> bool | None:
    """What W2 says about a one-edit variant of a number word; None where another rule decides."""
    if variant in FORMS:
        return True if FORMS[variant] == "" else None
    if len(variant) < MIN_LENGTH or variant in COMMON:
        return None
    # Alone, a misspelling that is no everyday word counts even when a dictionary knows it ("cino", "duze").
    return variant not in ORDINARY or variant in LONE


def _always_counting_targets() -> list[str]:
    return sorted(t for t in TARGETS if FORMS[t] == "")


def test_every_dropped_doubled_or_swapped_letter_is_read() -> None:
    """Exhaustive over every number word: a non-word with one letter dropped, doubled or swapped counts, and an
    ordinary word with the same edit stays."""
    wrong = []
    checked = 0
    for target in _always_counting_targets():
        for variant in _one_edit_variants(target):
            expected = _expected(variant)
            if expected is not None:
                checked += 1
                if mentions_number(variant) is not expected:
                    wrong.append((target, variant, expected))
    assert checked > 10_000
    assert not wrong, wrong[:20]


@given(
    target=st.sampled_from(_always_counting_targets()),
    position=st.integers(min_value=0, max_value=30),
    letter=st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
    insert=st.booleans(),
)
def test_a_replaced_or_added_letter_is_read(target: str, position: int, letter: str, insert: bool) -> None:
    i = position % len(target)
    variant = target[:i] + letter + target[i + (0 if insert else 1) :]
    expected = _expected(variant)
    if expected is not None:
        assert mentions_number(variant) is expected, variant


@pytest.mark.parametrize("word", ["twelve", "thirty", "seventy", "zwanzig", "dreizehn", "quarante", "cuarenta"])
@pytest.mark.parametrize("censor", ["*", "#", "_", "**"])
def test_a_censor_character_for_any_inner_letter(word: str, censor: str) -> None:
    for i in range(1, len(word) - 1):
        assert mentions_number(f"i have {word[:i]}{censor}{word[i + 1 :]}"), (word, i)


@pytest.mark.parametrize("text", ["f*ck", "sh*t", "a**hole", "b*tch", "d*mn", "p*ssed", "c**p", "h#ll", "w_t"])
def test_censored_ordinary_words_stay(text: str) -> None:
    assert not mentions_number(f"oh {text} that was close")


@pytest.mark.parametrize("word", ["twelve", "three", "seven", "zwanzig", "quatre", "treinta", "sieben", "trente"])
@pytest.mark.parametrize("mark", ["\u0308", "\u0302", "\u0301", "\u0300", "\u0303"])
def test_a_stray_diacritic_on_any_letter(word: str, mark: str) -> None:
    for i in range(len(word)):
        composed = unicodedata.normalize("NFC", word[: i + 1] + mark + word[i + 1 :])
        assert mentions_number(composed), composed


@pytest.mark.parametrize("text", ["naïve", "café", "fïne", "wëight", "lïve", "förth", "dösë", "Zweïg", "niña"])
def test_a_stray_diacritic_on_an_ordinary_word(text: str) -> None:
    assert not mentions_number(text)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("nuef", 1),
        ("j'ai le nuef", 1),
        ("c'est tout nuef", 0),
        ("sieze the day", 0),
        ("el ocne", 1),
        ("fuor cards", 1),
        ("au fuor", 0),
        ("trys again", 0),
        ("nice trys", 0),
        ("sepe", 0),
    ],
)
def test_misspelt_cross_language_words_follow_their_context_rule(text: str, label: int) -> None:
    assert mentions_number(text) is bool(label)


def test_misspelt_number_returns_the_vocabulary_key() -> None:
    assert misspelt_number("thrity") == ""
    assert misspelt_number("nuef") == "neuf"
    assert misspelt_number("forth") is None
    assert misspelt_number("two") is None  # too short for an edit-distance reading


def test_shipped_table_is_consistent() -> None:
    """Every listed word is one the rules would read as a number (else it is stale), and none is a number word."""
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    assert table["words"] == sorted(set(table["words"]))
    assert table["generated_by"] == "tools/gen_misspelling_exclusions.py"
    stale = [w for w in ORDINARY if not reads_as_number(w) or w in FORMS]
    assert not stale
    assert table["frequent_only"] == sorted(set(table["frequent_only"]))
    assert set(table["frequent_only"]) <= ORDINARY
    assert table["everyday"] == sorted(set(table["everyday"]))
    assert set(table["everyday"]) <= ORDINARY
    assert {"tow", "sven", "doss"} <= set(table["everyday"])  # an everyday word, a common name, a word in some use
    assert not {"sies", "dri", "zhen", "troi"} & set(table["everyday"])  # rare, a typo, judged as whole words
    assert {"forth", "weight", "threw", "dose", "tree", "fort", "there", "nein", "neue", "nuevo", "vente"} <= ORDINARY


def test_shipped_table_matches_the_generator(tmp_path: pathlib.Path) -> None:
    """Regenerates the table when the developer tools (wordfreq, Hunspell dictionaries) are installed."""
    pytest.importorskip("wordfreq")
    if shutil.which("hunspell") is None or not pathlib.Path("/usr/share/hunspell/de_DE.dic").exists():
        pytest.skip("Hunspell dictionaries not installed")
    before = TABLE.read_bytes()
    try:
        subprocess.run([sys.executable, str(ROOT / "tools" / "gen_misspelling_exclusions.py")], check=True)
        assert TABLE.read_bytes() == before
    finally:
        TABLE.write_bytes(before)


_MEMORY_PROBE = """
import tracemalloc
tracemalloc.start()
import chatfilter._number_words
words = tracemalloc.get_traced_memory()[0]
import chatfilter._misspellings
misspellings = tracemalloc.get_traced_memory()[0] - words
import chatfilter
print(words, misspellings, tracemalloc.get_traced_memory()[0])
"""


def test_word_tables_fit_in_memory() -> None:
    """The filter's tables, measured in a fresh interpreter: at most 20 MB in the bot process (issue 17)."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    words, misspellings, total = map(int, out.split())
    assert misspellings < 5_000_000
    assert total < 20_000_000, (words, misspellings, total)


def test_misspelling_module_is_pure() -> None:
    forbidden = {"discord", "asyncio", "aiosqlite", "socket", "urllib", "http", "time", "random", "regex"}
    source = pathlib.Path(_misspellings.__file__).read_text(encoding="utf-8")
    imported = {line.split()[1].split(".")[0] for line in source.splitlines() if line.startswith(("import", "from"))}
    assert imported
    assert not imported & forbidden


def test_the_long_word_shortcut_never_skips_a_misspelling() -> None:
    """Exhaustive: every one-edit variant of a number word that is long enough for the shortcut keeps the word's
    first or last three letters and a length within one of the word's, so skipping the other long words loses
    nothing."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    skipped = []
    for target in (t for t in TARGETS if len(t) >= _misspellings._LONG - 1):
        variants = set()
        for i in range(len(target) + 1):
            variants |= {target[:i] + c + target[i:] for c in letters}
            if i < len(target):
                variants |= {target[:i] + c + target[i + 1 :] for c in letters}
                variants.add(target[:i] + target[i + 1 :])
            if i < len(target) - 1:
                variants.add(target[:i] + target[i + 1] + target[i] + target[i + 2 :])
        for variant in variants:
            long_enough = len(variant) >= _misspellings._LONG
            if long_enough and not _misspellings._may_be_near(variant):
                skipped.append(variant)
    assert not skipped, skipped[:10]
