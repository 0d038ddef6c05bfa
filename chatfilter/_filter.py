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
    if has_roman_numeral(norm) or _mentions_number_word(norm):
        return True
    # Symbol leetspeak ("s!x", "$even", "thr€€") is judged on a second copy: the symbols are ordinary
    # punctuation elsewhere, so they must not become letters for the first pass. A "!" after a word changes
    # nothing, and the copy is read only when something changed.
    if not has_leet(norm):
        return False
    leet = unleet(norm)
    return leet != norm and _mentions_number_word(leet)


def _mentions_number_word(norm: str) -> bool:
    folded, stripped = fold(norm)
    if len(stripped) < _CUT_MIN:
        parts = _SPLIT_RE.split(stripped)
        tokens, seps = parts[1::2], parts[0::2]  # seps[k] is the separator before tokens[k]
    else:
        tokens, seps = _cut(stripped)
    if not tokens:
        return False
    raw = _SPLIT_RE.split(folded)[1::2] if stripped is not folded else tokens
    return Message(tokens, seps, raw, stripped, norm).mentions_number()


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
