"""The fast paths of the filter's text passes give exactly what the plain definitions give: each is checked against
its definition on random texts built from the characters it treats differently."""

from __future__ import annotations

import random
import unicodedata

from chatfilter import _censored, _filter, _message, _normalize, _number_words, _numerals
from chatfilter._misspellings import TARGETS


def _translated(text: str) -> str:
    """The definition of normalize: NFKC, then every character looked up in the table (markdown only, in ASCII)."""
    return unicodedata.normalize("NFKC", _normalize._NBSP_RE.sub(_normalize.SOFT, text)).translate(
        _normalize._POST_NFKC
    )


def test_no_replacement_is_replaced_again() -> None:
    """normalize replaces the characters of a text one at a time: that is translate only if what a character becomes
    is never a character to replace."""
    table = _normalize._POST_NFKC
    assert not [latin for latin in table.values() if latin and any(ord(char) in table for char in latin)]


def test_normalize_replaces_as_translate_does() -> None:
    rng = random.Random(40)
    marked = [chr(code) for code in _normalize._POST_NFKC if code < 0x10000]
    plain = [*"abc XYZ*_ 漢字éñ\u00a0", "\U0001f600", "\U0001d400", chr(0xE0041)]
    few = rng.sample(marked, 8)
    for size in (5, 60, 400):
        for _ in range(300):
            # Few distinct characters to replace (replaced one by one), or many (more than _REPLACED_MAX: translated),
            # with or without a character beyond the BMP.
            pool = rng.choice((few, marked))
            text = "".join(rng.choice(pool) if rng.random() < 0.6 else rng.choice(plain) for _ in range(size))
            assert _normalize.normalize(text) == (
                _translated(text) if not text.isascii() else text.replace("*", "\x1f").replace("_", "\x1f")
            )


def test_numeric_characters_are_found_as_the_set_finds_them() -> None:
    rng = random.Random(41)
    numeric = sorted(_numerals._NUMERIC_CHARS)
    others = [*"abc 漢字éñ\u00a0ᴀʙ\u2764", "\U0001f600", "\U0001f1e6"]
    found = 0
    for _ in range(3_000):
        text = "".join(rng.choice(others) for _ in range(rng.choice((rng.randint(0, 40), rng.randint(200, 400)))))
        if rng.random() < 0.5:
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(numeric) + text[at:]
        expected = not _numerals._NUMERIC_CHARS.isdisjoint(text)
        found += expected
        assert _numerals.has_numeric_char(text) == expected, text
    assert 1_000 < found < 2_000


def _censored_by_definition(word: str) -> str | None:
    """A run of censor characters stands for one letter, then for one letter per character; at most a third of the
    letters (one for a word of four or five) hidden; the number word shows the visible letters where they stand."""
    parts = _censored._CENSOR_SPLIT_RE.split(word)
    pieces, runs = parts[0::2], parts[1::2]
    for per_char in (False, True):
        fills = [len(run) if per_char else 1 for run in runs]
        length = sum(map(len, pieces)) + sum(fills)
        if length < 4 or sum(fills) > max(1, length // 3):
            continue
        for target in sorted(TARGETS):
            same_ends = len(target) == length and target[0] == word[0] and target[-1] == word[-1]
            if same_ends and _censored._fits(target, pieces, fills):
                return target
    return None


def test_censored_reading_is_its_definition() -> None:
    rng = random.Random(42)
    targets = sorted(TARGETS)
    read = 0
    for _ in range(20_000):
        letters = list(rng.choice(targets))
        for _ in range(rng.randint(1, 3)):
            letters[rng.randrange(1, len(letters) - 1)] = rng.choice(("\x1f", "#", "##", "\x1f#", rng.choice("aeiou")))
        word = "".join(letters) + rng.choice(("", "", "s"))
        if "\x1f" not in word and "#" not in word:
            continue
        expected = _censored_by_definition(word)
        read += expected is not None
        assert _censored.censored_reading(word) == expected, word
    assert read > 1_000


def _unleet_by_definition(norm: str) -> str:
    """Every run of symbols _LEET_RE matches becomes its letters; the rest stays."""
    return _normalize._LEET_RE.sub(lambda match: match.group().translate(_normalize._LEET), norm)


def test_unleet_is_its_definition() -> None:
    rng = random.Random(43)
    lone = changed = 0
    for pool in ("ab é1_ !@$€¡.-\n", "ab !.", "a$ b", "a€ .b", "ab@ ", "a¡ b", "aé1_ !$"):
        for _ in range(3_000):
            text = "".join(rng.choice(pool) for _ in range(rng.choice((rng.randint(0, 12), rng.randint(200, 300)))))
            symbols = [symbol for symbol in _normalize._LEET_CHARS if symbol in text]
            lone += len(symbols) == 1 and symbols[0] * 2 not in text  # the fast path
            expected = _unleet_by_definition(text)
            changed += expected != text
            assert _normalize.unleet(text) == expected, text
    assert lone > 3_000
    assert changed > 10_000


def test_unleet_of_long_leetspeak_is_its_definition() -> None:
    # Long texts of words glued by one kind of symbol, as a message in leetspeak is: mostly every symbol stands for a
    # letter (str.replace reads them), now and then one does not ("ab! c", "$ ab", "é€a" outside ASCII).
    rng = random.Random(47)
    replaced = kept = 0
    for _ in range(2_000):
        symbol = rng.choice(_normalize._LEET_CHARS)
        letters = rng.choice(("abcxyz", "abcé", "ABc"))
        words = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(40, 120))]
        text = "".join(word + rng.choice((symbol, symbol, symbol, " ", "  ")) for word in words)
        if rng.random() < 0.3:
            spot = rng.randrange(len(text))
            text = text[:spot] + rng.choice((" ", ".", symbol + " ", " " + symbol)) + text[spot:]
        expected = _unleet_by_definition(text)
        if symbol * 2 not in text and len(text) >= _normalize._LONG_TEXT:
            replaced += expected == text.replace(symbol, _normalize._LEET[ord(symbol)])
            kept += expected != text.replace(symbol, _normalize._LEET[ord(symbol)])
        assert _normalize.unleet(text) == expected, text
    assert replaced > 300
    assert kept > 300


def test_a_kept_symbol_is_found_on_the_shape_as_the_negated_rule_finds_it() -> None:
    """An ASCII text with one kind of symbol, never two side by side, keeps a symbol (one its rule leaves as it is,
    at the start, the end or beside a non-letter) exactly when the negated rule's regex finds one."""
    rng = random.Random(50)
    found = {True: 0, False: 0}
    for _ in range(20_000):
        symbol = rng.choice("!@$")
        pieces = ("ab", "Zc", "x", " ", ".", "1", "_", "-", symbol, symbol)
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        if symbol not in text or symbol * 2 in text:
            continue
        expected = _normalize._LONE_LEET_ASCII[symbol][1].search(text) is not None
        found[expected] += 1
        assert _normalize._keeps_ascii(text, symbol) == expected, text
    assert min(found.values()) > 500


def test_roman_capitals_are_found_as_the_regex_finds_them() -> None:
    rng = random.Random(44)
    found = 0
    for _ in range(3_000):
        text = "".join(rng.choice(("a", " ", "I ", "VI", "xx", "XC", "L", "c. ")) for _ in range(rng.randint(0, 150)))
        expected = _numerals._ROMAN_HINT_RE.search(text) is not None and _numerals._ROMAN_RE.search(text) is not None
        found += expected
        assert _numerals.has_roman_numeral(text) == expected, text
    assert 500 < found < 2_500


def test_large_words_are_found_as_the_regex_finds_them() -> None:
    rng = random.Random(45)
    # Halves of the large words, so that a text holds one only now and then.
    pieces = [" ", "a", "hun", "dert", "dred", "nert", "ce", "nt", "mi", "l", "ci", "en", "tau", "send", "thou", "sand"]
    found = 0
    for _ in range(3_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.choice((rng.randint(0, 20), rng.randint(60, 100)))))
        expected = _number_words.LARGE_SPLIT_RE.search(text) is not None
        found += expected
        assert _number_words.has_large_word(text) == expected, text
    assert 500 < found < 2_500


def test_fold_strips_accents_as_translate_does() -> None:
    rng = random.Random(46)
    accented = [chr(code) for code in _normalize._STRIP]
    plain = [*"abc XYZ 漢字\u00a0ß", "\U0001f600"]
    for size in (20, 250, 400):
        for _ in range(300):
            pool = rng.choice((rng.sample(accented, 4), accented))
            text = "".join(rng.choice(pool) if rng.random() < 0.3 else rng.choice(plain) for _ in range(size))
            folded = _normalize._COMBINING_RE.sub("", text.casefold())
            assert _normalize.fold(text) == (folded, folded.translate(_normalize._STRIP)), text


def test_letter_runs_are_found_as_the_regex_finds_them() -> None:
    """The runs of single letters read off a long message's shape (a character per character in ASCII, a byte per
    token otherwise) are the runs _LETTER_RUN_RE finds in the text."""
    rng = random.Random(48)
    ascii_pool = ["a", "b", "Ab", "abc", " ", "  ", ".", " . ", "-", "\n", "!", "1", "_", "     ", "\x1f", "\0"]
    pools = (ascii_pool, [*ascii_pool, "ж", "éж"])
    found = {True: 0, False: 0}  # ASCII or not
    for _ in range(3_000):
        pool = rng.choice(pools)
        text = "".join(rng.choice(pool) for _ in range(rng.randint(60, 500)))
        _, stripped = _normalize.fold(text)
        tokens, seps = _filter._cut(stripped)
        message = _message.Message(tokens, seps, tokens, stripped, text)
        expected = [
            (parts[0::2], parts[1::2])
            for parts in map(_message._LETTER_GAP_RE.split, _message._LETTER_RUN_RE.findall(stripped))
        ]
        found[stripped.isascii()] += bool(expected) and len(tokens) >= _message._SHAPE_MIN_TOKENS
        assert message._runs() == expected, text
    assert min(found.values()) > 300


def test_leetspeak_copy_keeps_the_separators_it_did_not_turn_into_letters() -> None:
    """The separators of a long leetspeak copy taken from the text's own are those of the copy cut again."""
    rng = random.Random(49)
    derived = 0
    for _ in range(2_000):
        symbol = rng.choice("!@$")
        words = ["".join(rng.choice("abcXY") for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(20, 150))]
        text = "".join(word + rng.choice((symbol, symbol, " ", "  ", ", ")) for word in words)[:-1]
        if rng.random() < 0.3:
            spot = rng.randrange(len(text))
            text = text[:spot] + rng.choice((" ", symbol, symbol + " ", "!@", "\0")) + text[spot:]
        norm = _normalize.normalize(text)
        _, seps = _filter._mentions_number_word(norm)
        leet = _normalize.unleet(norm)
        taken = _filter._leet_seps(norm, leet, seps)
        if taken is not None:
            derived += 1
            assert taken == _filter._cut(_normalize.fold(leet)[1])[1], text
            assert _filter._mentions_number_word(leet, taken) == (
                _filter._mentions_number_word(leet)[0],
                taken,
            ), text
    assert derived > 500
