"""The batch screens of chatfilter._screen: they never stop a word that lookup reads, and they do stop most others."""

from __future__ import annotations

import random
import re

import pytest

from chatfilter import _lookup, _misspellings, _screen
from chatfilter._language import COMMON
from chatfilter._misspellings import TARGETS
from chatfilter._number_words import FORMS, trie_pattern
from tests.chatfilter.adversarial import adversarial_messages
from tests.chatfilter.chat_corpus import ALL_CASES
from tests.chatfilter.chat_corpus_issue40 import ALL_ISSUE40
from tests.chatfilter.chat_corpus_misspellings import ALL_NEW
from tests.chatfilter.chat_corpus_w5 import ALL_W5

_KNOWN = frozenset(FORMS) | COMMON
_WORD_RE = re.compile(r"[^\W\d_]+")
# Respellings that reach every reading: the spoken rewrites, the German sound changes, stretches, doubled ends.
_RESPELL = (
    ("qu", "k"), ("c", "k"), ("oi", "wa"), ("v", "b"), ("x", "ss"), ("z", "ts"), ("ig", "ich"), ("ig", "isch"),
    ("b", "ww"), ("b", "m"), ("n", "m"), ("t", "d"), ("f", "ef"), ("ben", "be"), ("n", "nn"), ("dix", "dis"),
)  # fmt: skip


def _words() -> list[str]:
    """Tokens of the corpora and the adversarial shapes, and number words respelt and misspelt at random."""
    texts = [text for text, *_ in (*ALL_CASES, *ALL_NEW, *ALL_ISSUE40, *ALL_W5)]
    texts += [text.casefold() for texts in adversarial_messages().values() for text in texts]
    words = {word for text in texts for word in _WORD_RE.findall(text.casefold())}
    rng = random.Random(40)
    targets = sorted(TARGETS)
    for _ in range(20_000):
        word = rng.choice(targets)
        for old, new in rng.sample(_RESPELL, rng.randint(0, 3)):
            word = word.replace(old, new)
        letters = list(word)
        for _ in range(rng.randint(0, 2)):
            at = rng.randrange(len(letters))
            edit = rng.random()
            if edit < 0.4:
                letters.insert(at, rng.choice("abcdefghijklmnopqrstuvwxyzé"))
            elif edit < 0.7 and len(letters) > 3:
                del letters[at]
            else:
                letters[at] = rng.choice("abcdefghijklmnopqrstuvwxyzж")
        word = "".join(letters)
        if rng.random() < 0.15:
            word += word[-1] * rng.randint(1, 3)
        if rng.random() < 0.05:
            word = rng.choice(("hundert", "zehner", "mil")) + word
        words.add(word)
    return sorted(words - _KNOWN)


_WORDS = _words()


@pytest.mark.parametrize(("stretched", "large"), [(False, False), (True, False), (False, True), (True, True)])
def test_the_screen_never_stops_a_word_that_lookup_reads(stretched: bool, large: bool) -> None:
    read = [word for word in _WORDS if _lookup.lookup(word, stretched, large) is not None]
    assert len(read) > 1_000  # the respellings reach the readings
    missed = []
    for start in range(0, len(_WORDS), 300):  # as many distinct words as a message at Discord's limit holds
        batch = set(_WORDS[start : start + 300])
        passed = _screen.readable(batch, stretched, large)
        missed += [word for word in batch if word not in passed and _lookup.lookup(word, stretched, large)]
    assert missed == []


def test_the_screen_stops_most_words_of_the_adversarial_shapes() -> None:
    """Spoken-looking words, random words and the leetspeak words are several hundred distinct words that each
    reached the misspelling rules: the screens leave a few of them to be looked up one by one. (Words two edits
    from a number word keep its head or tail, so most of them are looked up: that shape was never the slow one.)"""
    shapes = adversarial_messages()
    for text in (*shapes["misspelling-like words"][1:], shapes["other"][1].replace("!", "i")):
        words = set(_WORD_RE.findall(text)) - _KNOWN
        assert len(words) > 100
        assert len(_screen.readable(words, True, True)) < len(words) // 5


def test_a_few_words_are_looked_up_without_a_screen() -> None:
    """Below a few words the screens would cost more than the lookups: every word is left to lookup."""
    assert _screen.readable({"abcd", "efgh"}, False, False) == {"abcd", "efgh"}


def test_read_gives_every_reading_of_lookup_in_order() -> None:
    """``read`` screens in chunks and looks up the rest: the words it yields, with their keys and in their order, are
    those lookup reads."""
    words = _WORDS[:5_000]
    for stretched, large in ((True, True), (False, False)):
        expected = [(word, key) for word in words if (key := _lookup.lookup(word, stretched, large)) is not None]
        assert len(expected) > 100
        assert list(_screen.read(words, stretched, large)) == expected


def test_a_long_word_is_screened_by_its_length_too() -> None:
    """One edit changes a word's length by one at most: a long word that starts like a number word but is two letters
    longer is no misspelling of it. Of the 135 spoken-looking words of the adversarial shape, 5 are left to lookup
    (10 were by their heads and tails alone)."""
    assert _misspellings._may_be_near("thirtysevenq")
    assert not _misspellings._may_be_near("thirtysevenqqq")
    words = set(_WORD_RE.findall(adversarial_messages()["misspelling-like words"][1])) - _KNOWN
    assert len(words) == 135
    assert 0 < len(_screen.readable(words, True, True)) <= 6


def test_the_ends_are_found_as_slicing_finds_them() -> None:
    """The screen finds the long words with a number word's head or tail by a regex over the joined words (the tails
    on the text reversed): the same words as slicing each word's first and last three letters."""
    words = _WORDS + [target + "x" for target in sorted(TARGETS)]
    lines = "\n" + "\n".join(words)
    found = set(_screen._HEAD_LINES.findall(lines))
    found.update(word[::-1] for word in _screen._REVERSED_TAIL_LINES.findall(lines[::-1]))
    long = [word for word in words if len(word) >= _misspellings._LONG]
    expected = {word for word in long if word[:3] in _misspellings._HEADS or word[-3:] in _misspellings._TAILS}
    assert len(expected) > 1_000
    assert found == expected


def test_a_trie_pattern_matches_exactly_its_words() -> None:
    rng = random.Random(41)
    words = sorted({"".join(rng.choice("abc") for _ in range(rng.randint(1, 5))) for _ in range(60)})
    pattern = re.compile(trie_pattern(words))
    assert any(a != b and b.startswith(a) for a in words for b in words)  # words that go on from another
    tried = {"".join(rng.choice("abcd") for _ in range(rng.randint(0, 6))) for _ in range(5_000)} | set(words)
    assert {word for word in tried if pattern.fullmatch(word)} == set(words)


def test_a_word_known_by_its_tail_is_found_wherever_it_stands_among_the_words() -> None:
    """The tails are read on the words reversed: the last word is found as well as the others (it was missed, so
    whether "fhirteen" counted depended on where a set put it)."""
    for words in (["fhirteen", "qqqqqqqq"], ["qqqqqqqq", "fhirteen"], ["fhirteen"]):
        assert "fhirteen" in _screen._near(words, _screen._lines(words)), words


def test_the_stretched_words_are_found_as_the_regex_finds_them() -> None:
    """The words with a letter three times in a row, found on the joined words by comparing each character with the
    next (ASCII) or by the regex (other texts), are the lines that ``(.)\\1\\1`` finds, the last line included."""
    rng = random.Random(47)
    found = {True: 0, False: 0}  # ASCII or not
    for _ in range(2_000):
        pool = rng.choice(("abc", "ab", "abcdefgh", "abжж"))
        words = ["".join(rng.choice(pool) for _ in range(rng.randint(1, 12))) for _ in range(rng.randint(1, 40))]
        lines = _screen._lines(words)
        expected = {word for word in words if re.search(r"(.)\1\1", word)}
        found[lines.isascii()] += len(expected)
        assert _screen._stretched(lines) == expected, words
    assert min(found.values()) > 1_000


def test_a_word_that_only_a_spoken_pattern_respells_is_screened_among_words_it_leaves_alone() -> None:
    """A spoken rewrite by a pattern ("dis" and "diz" at the start for "dix") changes few of the words holding its
    letters; only those are screened again, and one the rewrite brings one edit from a number word passes."""
    fillers = [f"qqdi{a}{b}{c}qq" for a in "xyz" for b in "xyz" for c in "xyz"]  # "di" inside: the pattern keeps them
    for word in ("dizuit", "diznuef"):  # dixuit, dixnuef: read only through the rewrite
        assert _misspellings._nearest(word) is None
        assert _lookup.lookup(word, False, False) is not None
        assert word in _screen._may_read([*fillers, word])
        assert word in _screen.readable({*fillers, word}, False, False)
    assert not _screen._may_read(fillers)
