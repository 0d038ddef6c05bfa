"""The text a reader sees: one normalized copy of a message in which disguised letters are plain letters.

NFKC folds styled letters and fullwidth forms; invisible characters and combining marks (zalgo, strike-through)
are dropped (every format character and combining mark, and whatever Unicode calls default-ignorable, assigned yet
or not); Cyrillic, Greek and Armenian look-alikes, small caps, circled and regional-indicator letters become
Latin letters; markdown characters, NBSP, the narrow spaces and line breaks become a "soft" separator that a
reader does not see as a word break (``th**ree**``, ``thir\u00a0ty``). Case is kept here (Roman numerals need
it); :func:`fold` then gives the casefolded copy as typed (accents kept, for ``très``/``tres``) and the
accent-stripped copy the vocabulary is matched against. Symbol leetspeak (``s!x``, ``$even``) is a second copy,
made only when the first finds nothing.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["SOFT", "SOFT_CHARS", "fold", "has_leet", "normalize", "unleet"]

# A separator a reader does not see as a word break: markdown, NBSP and friends. Words split by one of these
# are rejoined freely ("th**ree**", "thir\u00a0ty").
SOFT = "\x1f"
# A hyphen or a dot inside a word ("se-ven", "thir.ty") is a syllable break, not a word break, too.
SOFT_CHARS = frozenset(SOFT + "\n\r-.")
_MARKDOWN = "*_~|`\\"

# Applied before NFKC, which would turn NBSP into an ordinary space. The narrow spaces (six-per-em, punctuation,
# thin, hair, medium mathematical) are a sliver a reader does not see as a word break either ("thr\u200aee").
_NBSP_RE = re.compile("[\u00a0\u202f\u2007\u2028\u2029\u0085\u2006\u2008\u2009\u200a\u205f]")

# Cyrillic, Greek and Armenian letters that look like Latin ones (UTS #39 confusables, Latin targets only).
# Case is kept so that Cyrillic "ХХ" still reads as the Roman numeral XX.
_HOMOGLYPHS = {
    # Cyrillic
    "а": "a", "в": "b", "г": "r", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y", "ь": "b", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ї": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y",
    "Һ": "H", "Ӏ": "I", "є": "e", "Є": "E", "ѵ": "v", "Ѵ": "V", "ғ": "f", "Ғ": "F", "ԑ": "e", "ɛ": "e",
    # Greek
    "α": "a", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j", "μ": "u",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϝ": "F",
    # Armenian and Latin oddities
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i",
}  # fmt: skip

_STYLED_LETTER_RE = re.compile(
    r"(?:LATIN LETTER SMALL CAPITAL|MODIFIER LETTER (?:SMALL|CAPITAL)|REGIONAL INDICATOR SYMBOL LETTER"
    r"|(?:NEGATIVE )?(?:CIRCLED|SQUARED) LATIN CAPITAL LETTER|LATIN SUBSCRIPT SMALL LETTER) ([A-Z])"
)
_STYLED_BLOCKS = ((0x0250, 0x02FF), (0x1D00, 0x1DBF), (0xA700, 0xA7FF), (0xAB30, 0xAB6F), (0x1F100, 0x1F1FF))
# Invisible characters that are letters (Lo) rather than format characters, so a category test misses them.
_INVISIBLE_LETTERS = "\u3164\u115f\u1160\uffa0\u2800"


# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): what a renderer shows as nothing,
# including code points this Python's Unicode data does not assign yet (U+2065, U+FFF0, most of plane 14).
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip


def _post_nfkc_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    # Format characters and combining marks of the BMP and of planes 1 and 14 (no other plane has any).
    for cp in (*range(0x20000), *range(0xE0000, 0xE1000)):
        if unicodedata.category(chr(cp)) in ("Cf", "Mn", "Me"):
            table[cp] = None
    for first, last in _DEFAULT_IGNORABLE:
        table.update(dict.fromkeys(range(first, last + 1)))
    table.update(dict.fromkeys(map(ord, _INVISIBLE_LETTERS)))
    for first, last in _STYLED_BLOCKS:
        for cp in range(first, last + 1):
            match = _STYLED_LETTER_RE.fullmatch(unicodedata.name(chr(cp), ""))
            if match:
                # Capital-only styles stay capital (Roman numerals); regional indicators and small caps become
                # lower case so that flags such as 🇱🇻 or 🇻🇮 never read as LV or VI.
                capital = "CAPITAL LETTER" in unicodedata.name(chr(cp))
                table[cp] = match.group(1) if capital else match.group(1).lower()
    for char, latin in _HOMOGLYPHS.items():
        table[ord(char)] = latin
    # Accented homoglyphs (ά, ё, ї) map like their base letter once NFKC has composed them.
    for cp in range(0x0370, 0x0530):
        base = unicodedata.normalize("NFD", chr(cp))[0]
        if base != chr(cp) and base in _HOMOGLYPHS:
            table[cp] = _HOMOGLYPHS[base]
    table.update(dict.fromkeys(map(ord, _MARKDOWN), SOFT))
    return table


_POST_NFKC = _post_nfkc_table()
# str.translate looks every character up in the table, which costs more than the rest of the filter on a
# long message; a regex scan (a bitmap for the BMP part) tells whether there is anything to translate at all.
_POST_NFKC_BMP_RE = re.compile("[" + "".join(re.escape(chr(cp)) for cp in sorted(_POST_NFKC) if cp < 0x10000) + "]")
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
_ASCII_TABLE = str.maketrans(dict.fromkeys(_MARKDOWN, SOFT))
# What a character becomes is never one to replace itself (tests/chatfilter/test_fast_paths.py), so replacing them
# one by one gives translate's text.
_REPLACED_MAX = 32
# From this length on, a text's passes take the ways that cost less on a long text (see where it is used).
_LONG_TEXT = 200


def _strip_table() -> dict[int, str]:
    """Lower-case accented Latin letters to their base letter, one character for one (positions stay)."""
    table: dict[int, str] = {}
    for first, last in ((0x00C0, 0x024F), (0x1E00, 0x1EFF)):
        for cp in range(first, last + 1):
            base = unicodedata.normalize("NFD", chr(cp))[0]
            if base != chr(cp) and base.isascii() and base.isalpha():
                table[cp] = base.lower()
    table.update({ord(k): v for k, v in {"ø": "o", "đ": "d", "ħ": "h", "ł": "l", "ŧ": "t", "ɨ": "i"}.items()})
    return table


_STRIP = _strip_table()
# Whether a text holds an accented letter at all: translating looks up every character, which on a long text of
# another script (nothing to strip) costs more than the rest of the filter.
_STRIP_RE = re.compile("[" + "".join(re.escape(chr(cp)) for cp in sorted(_STRIP)) + "]")


# The two Arabic ligatures whose compatibility form is a phrase (ﷺ is 18 characters, four words): 2,000 of them
# would be 8,000 words for the steps after this one. Their first word stands for them: no step reads Arabic, and a
# word of it is as much a neighbour as four would be.
_FDFA = unicodedata.normalize("NFKC", "\ufdfa").split()[0]
_FDFB = unicodedata.normalize("NFKC", "\ufdfb").split()[0]


def normalize(text: str) -> str:
    """The normalized copy of a message (markup already removed), case kept."""
    if text.isascii():
        return text.translate(_ASCII_TABLE)
    if "\ufdfa" in text or "\ufdfb" in text:
        text = text.replace("\ufdfa", _FDFA).replace("\ufdfb", _FDFB)
    norm = unicodedata.normalize("NFKC", _NBSP_RE.sub(SOFT, text))
    if _ASTRAL_RE.search(norm):
        return norm.translate(_POST_NFKC)
    # str.translate makes a number object and a dict probe per character. A text of the BMP holds few distinct
    # characters to replace, as a rule (small caps, homoglyphs, marks): each is replaced in one pass in C, found from
    # where the last one was; a text holding more of them than _REPLACED_MAX is translated after all.
    at = 0
    for _ in range(_REPLACED_MAX):
        match = _POST_NFKC_BMP_RE.search(norm, at)
        if match is None:
            return norm
        latin = _POST_NFKC[ord(match.group())] or ""
        norm = norm.replace(match.group(), latin)
        at = match.start() + len(latin)
    return norm.translate(_POST_NFKC)


def fold(norm: str) -> tuple[str, str]:
    """The casefolded copy as typed (accents kept) and the accent-stripped copy of a normalized text; the same
    string twice when the text is plain ASCII."""
    folded = norm.casefold()
    if folded.isascii():
        return folded, folded
    # Casefolding decomposes a few letters (ẗ -> t + U+0308): drop the marks it brings back.
    folded = _COMBINING_RE.sub("", folded)
    match = None if folded.isascii() else _STRIP_RE.search(folded)
    if match is None:
        return folded, folded
    if len(folded) < _LONG_TEXT:
        return folded, folded.translate(_STRIP)
    # As in normalize: a long text holds few distinct accented letters, each replaced in one pass in C (translate
    # makes a number object and a dict probe per character: 2,000 of them cost a tenth of a millisecond). A base
    # letter is ASCII, never a letter to strip, so one letter after another gives translate's text.
    stripped = folded
    for _ in range(_REPLACED_MAX):
        stripped = stripped.replace(match.group(), _STRIP[ord(match.group())])
        match = _STRIP_RE.search(stripped, match.start() + 1)
        if match is None:
            return folded, stripped
    return folded, stripped.translate(_STRIP)


_COMBINING_RE = re.compile("[\u0300-\u036f]")
_LEET = str.maketrans({"@": "a", "$": "s", "€": "e", "!": "i", "¡": "i"})
_LEET_CHARS = "@$€!¡"
_LEET_SET = frozenset(_LEET_CHARS)
# Inside a word, or "$" and "€" opening it, or "€" closing it ("thr€€"); a "!" after a word stays punctuation.
# One group around the whole pattern: split() then puts the symbols it matched at the odd places. The lookahead
# first lets the scan skip the characters that are no symbol (a third of the time of the lookbehinds at each one).
_LEET_RE = re.compile(
    r"(?=[@$€!¡])((?<=[^\W\d_])[@$€!¡]+(?=[^\W\d_])|(?<![^\W\d_])[$€]+(?=[^\W\d_])|(?<=[^\W\d_])€+(?![^\W\d_]))"
)

# _LEET_RE for a symbol with no symbol beside it: "!", "¡" and "@" between letters, "$" before a letter, "€" beside
# one. Each starts with its symbol, the one literal the regex engine can search for. In an ASCII text a letter is
# [A-Za-z], a class the engine tests faster than the Unicode one (a fifth of the substitution).
_LONE_LEET_RULES = (
    ("!", r"(?<=L!)(?=L)", "i"),
    ("¡", r"(?<=L¡)(?=L)", "i"),
    ("@", r"(?<=L@)(?=L)", "a"),
    ("$", r"(?=L)", "s"),
    ("€", r"(?:(?=L)|(?<=L€))", "e"),
)
# With each rule, its negation: a symbol the rule leaves as it is. A long text without one (every symbol stands for a
# letter, as in a message written in leetspeak) is read by str.replace, in C at memory speed; the substitution cost a
# tenth of the whole filter on a message of 444 "!" between letters (a list of pieces, a slice per match).
_LONE_LEET = {
    symbol: (
        re.compile(re.escape(symbol) + rest.replace("L", r"[^\W\d_]")),
        re.compile(re.escape(symbol) + "(?!" + rest.replace("L", r"[^\W\d_]") + ")"),
        letter,
    )
    for symbol, rest, letter in _LONE_LEET_RULES
}
_LONE_LEET_ASCII = {
    symbol: (
        re.compile(re.escape(symbol) + rest.replace("L", "[A-Za-z]")),
        re.compile(re.escape(symbol) + "(?!" + rest.replace("L", "[A-Za-z]") + ")"),
        letter,
    )
    for symbol, rest, letter in _LONE_LEET_RULES
    if symbol.isascii()
}


# An ASCII text's shape for the rules above: letters "a", the symbols as they are, any other character "-".
_LEET_SHAPE = str.maketrans(
    {chr(code): "a" if chr(code).isalpha() else chr(code) if chr(code) in _LEET_SET else "-" for code in range(128)}
)


def _keeps_ascii(norm: str, symbol: str) -> bool:
    """Whether an ASCII text holding one kind of symbol, never two side by side, holds one that its rule in
    _LONE_LEET_RULES leaves as it is: a "$" with no letter after it, a "!" or "@" without a letter on both sides. Read
    on the text's shape by substring searches, in C: the negated rule's regex was tried at every symbol (a third of
    the leetspeak copy's time on a message of 444 "!" between letters)."""
    shape = norm.translate(_LEET_SHAPE)
    if symbol == "$":
        return shape.endswith("$") or "$-" in shape
    return shape.startswith(symbol) or shape.endswith(symbol) or "-" + symbol in shape or symbol + "-" in shape


def has_leet(norm: str) -> bool:
    # On a long text a substring search per symbol runs at memory speed; a set's isdisjoint hashes every character,
    # which costs less only on a short one.
    if len(norm) >= _LONG_TEXT:
        return any(map(norm.__contains__, _LEET_CHARS))
    return not _LEET_SET.isdisjoint(norm)


def unleet(norm: str) -> str:
    """Symbols used as letters inside a word become those letters: ``s!x`` -> ``six``, ``thr€€`` -> ``three``.

    The symbols are ordinary punctuation elsewhere, so this is a second copy, never the first one.
    """
    present = [symbol for symbol in _LEET_CHARS if symbol in norm]
    if len(present) == 1 and present[0] * 2 not in norm:
        # One kind of symbol, never two side by side: each stands alone, so one substitution of a literal letter
        # reads it, which builds half the strings of the split below.
        symbol = present[0]
        ascii_text = norm.isascii()
        pattern, kept, letter = (_LONE_LEET_ASCII if ascii_text else _LONE_LEET)[symbol]
        if len(norm) >= _LONG_TEXT and not (_keeps_ascii(norm, symbol) if ascii_text else kept.search(norm)):
            return norm.replace(symbol, letter)
        return pattern.sub(letter, norm)
    # A callback per match cost a third of a millisecond on a message of a few hundred "s!x"; here every matched
    # run is translated in one call (no match holds a NUL, which keeps them apart) and put back in its place.
    parts = _LEET_RE.split(norm)
    if len(parts) > 1:
        parts[1::2] = "\0".join(parts[1::2]).translate(_LEET).split("\0")
    return "".join(parts)
