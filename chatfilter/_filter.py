"""The pipeline of ``mentions_number``: each step in the order that makes it right (see the package docstring)."""

from __future__ import annotations

import re

from chatfilter._markup import without_machine_markup
from chatfilter._message import Message
from chatfilter._normalize import fold, has_leet, normalize, unleet
from chatfilter._numerals import has_digit, has_numeric_char, has_roman_numeral

__all__ = ["mentions_number"]

_SPLIT_RE = re.compile(r"([^\W\d_]+)")


def mentions_number(text: str) -> bool:
    """True if the message mentions a number under the no-numbers policy, so it must be deleted."""
    text = without_machine_markup(text)
    if has_numeric_char(text):
        return True
    norm = normalize(text)
    if not text.isascii() and has_digit(norm):
        return True
    if has_roman_numeral(norm):
        return True
    counts, seps = _mentions_number_word(norm)
    if counts:
        return True
    # Symbol leetspeak ("s!x", "$even", "thr€€") is judged on a second copy: the symbols are ordinary
    # punctuation elsewhere, so they must not become letters for the first pass. A "!" after a word changes
    # nothing, and the copy is read only when something changed.
    if not has_leet(norm):
        return False
    leet = unleet(norm)
    return leet != norm and _mentions_number_word(leet, _leet_seps(norm, leet, seps))[0]


def _leet_seps(norm: str, leet: str, seps: list[str]) -> list[str] | None:
    """The separators of a long ASCII text's leetspeak copy, taken from the text's own (``seps``), when the copy is
    the text with every "!" or every "@" made a letter: each stood alone between two letters, so it was a whole
    separator, which goes; the others stay. None otherwise (the copy is cut again). Cutting the copy again cost a
    twelfth of a message of 444 "!" between letters."""
    if len(seps) <= _CUT_MIN_TOKENS or not norm.isascii() or "\0" in norm:
        return None
    for symbol, letter in (("!", "i"), ("@", "a")):
        if symbol in norm and symbol * 2 not in norm and leet == norm.replace(symbol, letter):
            joined, alone = "\0".join(seps), f"\0{symbol}\0"
            while alone in joined:  # each pass drops every other one of separators side by side
                joined = joined.replace(alone, "\0")
            return joined.split("\0")
    return None


def _mentions_number_word(norm: str, seps: list[str] | None = None) -> tuple[bool, list[str]]:
    """Whether the words of a normalized text mention a number, and the separators between them. ``seps``, when
    given, are the text's separators already (see :func:`_leet_seps`): only the tokens are cut."""
    folded, stripped = fold(norm)
    if seps is not None:
        tokens = stripped.translate(_NOT_LETTERS).split()
    elif len(stripped) < _CUT_MIN:
        parts = _SPLIT_RE.split(stripped)
        tokens, seps = parts[1::2], parts[0::2]  # seps[k] is the separator before tokens[k]
    else:
        tokens, seps = _cut(stripped)
    if not tokens:
        return False, seps
    raw = _SPLIT_RE.split(folded)[1::2] if stripped is not folded else tokens
    return Message(tokens, seps, raw, stripped, norm).mentions_number(), seps


# An ASCII text is cut by str.translate and str.split, in C: the split regex costs a match per token, a fifth of a
# millisecond on a message of a thousand short words. Letters become NUL for the separators, everything else a space
# for the tokens (a text holding a NUL of its own takes the regex, and so does a short one, see _mentions_number_word:
# below about a hundred characters the one regex call costs less than the four calls here).
_CUT_MIN = 100
_CUT_MIN_TOKENS = 16
_NOT_LETTERS = str.maketrans({char: " " for char in map(chr, range(128)) if not char.isalpha()})
_LETTERS = str.maketrans({char: "\0" for char in map(chr, range(128)) if char.isalpha()})


def _cut(stripped: str) -> tuple[list[str], list[str]]:
    """The tokens (runs of letters) of a text and the separators around them, one more than the tokens."""
    tokens = stripped.translate(_NOT_LETTERS).split() if stripped.isascii() and "\0" not in stripped else []
    if len(tokens) < _CUT_MIN_TOKENS:  # long words: the letters would leave as many empty pieces below
        parts = _SPLIT_RE.split(stripped)
        return parts[1::2], parts[0::2]
    pieces = stripped.translate(_LETTERS).split("\0")
    # A separator between two tokens is never empty; the letters of a token leave empty pieces between them.
    return tokens, [pieces[0], *filter(None, pieces[1:-1]), pieces[-1]]
