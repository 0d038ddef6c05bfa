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
    parts = _SPLIT_RE.split(stripped)
    tokens = parts[1::2]
    if not tokens:
        return False
    seps = parts[0::2]  # seps[k] is the separator before tokens[k]
    raw = _SPLIT_RE.split(folded)[1::2] if stripped is not folded else tokens
    return Message(tokens, seps, raw, stripped, norm).mentions_number()
