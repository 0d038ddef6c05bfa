"""Numbers that are not words: characters with a numeric value (D1-D3) and capital Roman numerals (R1)."""

from __future__ import annotations

import re
import sys

__all__ = ["has_digit", "has_numeric_char", "has_roman_numeral"]

# Every code point with a Unicode numeric value (Nd, No, Nl, CJK numerals), plus KEYCAP TEN and the die faces,
# which carry no numeric property but mean exactly one number (D3). A set beats a regex character class here:
# the class would span the astral planes, which makes the regex engine scan its ranges one by one.
_NUMERIC_CHARS = frozenset(
    [ch for ch in map(chr, range(sys.maxunicode + 1)) if ch.isnumeric()]
    + ["\U0001f51f", *"\u2680\u2681\u2682\u2683\u2684\u2685"]
)
_ASCII_DIGITS = "0123456789"
_LONG_TEXT = 200
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
_BMP_NUMERIC_RE = re.compile(
    "[" + "".join(re.escape(char) for char in sorted(_NUMERIC_CHARS) if char < "\U00010000") + "]"
)
# NFKC turns a few symbols without a numeric value into digits (㏩ -> "10日"); a reader sees the digits.
_DIGIT_RE = re.compile(r"\d")

# Capital Roman numerals 2-99 written canonically, as a whole token (R1); needs at least two letters.
# By then the text has no digits and no "_" (markdown), so \b is a letter boundary.
_ROMAN_RE = re.compile(r"\b(?=[IVXLC]{2})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})(?!\w)")
_ROMAN_HINT_RE = re.compile(r"[IVXLC]{2}")


def has_numeric_char(text: str) -> bool:
    """Whether the raw text (markup removed, nothing transliterated yet) holds a numeric character."""
    # The set makes a string of every character of a non-ASCII text, and hashes every one: a long text is scanned in
    # C instead, for the ASCII digits (its only numeric characters when it is ASCII) or with a class of the BMP (a
    # bitmap).
    if len(text) >= _LONG_TEXT:
        if text.isascii():
            return any(map(text.__contains__, _ASCII_DIGITS))
        if _ASTRAL_RE.search(text) is None:
            return _BMP_NUMERIC_RE.search(text) is not None
    return not _NUMERIC_CHARS.isdisjoint(text)


def has_digit(norm: str) -> bool:
    """Whether normalization brought a digit out of a symbol that had no numeric value of its own."""
    return _DIGIT_RE.search(norm) is not None


def has_roman_numeral(norm: str) -> bool:
    """Whether the normalized text (case kept) holds a capital Roman numeral 2-99 as a whole token."""
    # The hint's class is tried at every character of a long text; a substring search per letter runs at memory
    # speed, and most long messages hold none of the five capitals.
    if len(norm) >= _LONG_TEXT and not any(map(norm.__contains__, "IVXLC")):
        return False
    return _ROMAN_HINT_RE.search(norm) is not None and _ROMAN_RE.search(norm) is not None
