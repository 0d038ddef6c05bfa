"""Adversarial messages for the chat filter: the shapes that make it do the most work per character.

Each shape fills Discord's limit of 2,000 characters with what one step of the filter costs most on: runs of short
tokens and single letters (the letter runs and the split-word joining), fragments of number words (the joining
loop), misspelling-like and spoken-looking words (the one-edit index and its rewrites), long words, censor
characters, invisible characters, digits and markup, emoji, mixed scripts and NFKC expansions. The messages are
clean unless the shape says otherwise, because a clean message runs every step; they are generated from a fixed
seed, so the benchmark and the tests see the same ones.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable

__all__ = ["LIMIT", "SHAPES", "adversarial_messages"]

LIMIT = 2000  # Discord's limit on a message, in characters

_LOWER = string.ascii_lowercase


def _fill(rng: random.Random, piece: Callable[[random.Random], str], sep: str = " ") -> str:
    """Pieces joined by ``sep`` up to the limit."""
    out: list[str] = []
    size = 0
    while True:
        p = piece(rng)
        if size + len(p) + len(sep) > LIMIT:
            return sep.join(out)
        out.append(p)
        size += len(p) + len(sep)


def _word(rng: random.Random, low: int, high: int) -> str:
    return "".join(rng.choice(_LOWER) for _ in range(rng.randint(low, high)))


def _single_letters(rng: random.Random) -> list[str]:
    alphabet = " ".join(_LOWER[i % 26] for i in range(LIMIT // 2))
    return [
        alphabet[: LIMIT - 1],
        _fill(rng, lambda r: r.choice(_LOWER)),
        _fill(rng, lambda r: r.choice("aiyou")),  # the one-letter words a letter run may start with
        # Gaps of every weight, so that a run splits into many pieces.
        "".join(rng.choice(_LOWER) + rng.choice((" ", "  ", " . ", "\n", "-", ".")) for _ in range(LIMIT // 3))[:LIMIT],
    ]


def _short_tokens(rng: random.Random) -> list[str]:
    return [
        _fill(rng, lambda r: _word(r, 2, 3)),
        _fill(rng, lambda r: r.choice(("a", "i", "to", "at", "se", "on", "for", "no", "de", "la"))),
    ]


def _fragments(rng: random.Random) -> list[str]:
    """Beginnings of number words that never finish one, joined by what the joining step rejoins across."""
    starts = ("th", "thi", "thir", "fo", "for", "fou", "se", "sev", "sieb", "zwa", "vi", "qua", "quar", "ve", "do")
    return [
        _fill(rng, lambda r: r.choice(starts), sep)
        for sep in (" ", "\u00a0", "**", "-", ".", " \n", "\u200b")
        # "\u200b" vanishes: the message is then one long word of fragments.
    ]


def _misspelling_like(rng: random.Random) -> list[str]:
    """Words that reach the one-edit index or its spoken rewrites without being a number word."""
    from chatfilter._misspellings import TARGETS

    targets = sorted(TARGETS)

    def two_edits(r: random.Random) -> str:
        word = list(r.choice(targets))
        for _ in range(2):
            word[r.randrange(len(word))] = r.choice(_LOWER)
        return "".join(word)

    def spoken(r: random.Random) -> str:
        # Starts like a German number word and holds every rewrite's trigger: each reading is tried.
        return r.choice(("zw", "dr", "ts", "fi", "si", "ac")) + "".join(
            r.sample(["k", "wa", "b", "ss", "ich", "ww", "tse", "mf", "ref", "chd", "lle", "ime"], 5)
        )

    return [
        _fill(rng, two_edits),
        _fill(rng, spoken),
        _fill(rng, lambda r: _word(r, 4, 7)),  # distinct random words: nothing repeats
    ]


def _long_words(rng: random.Random) -> list[str]:
    return [
        "thirty" + "x" * (LIMIT - 6),  # starts like a number word: the one-edit index is asked
        "x" * (LIMIT - 6) + "thirty",
        "zwts" + "ichwwbm" * ((LIMIT - 4) // 7),  # every German sound change applies
        "k" * LIMIT,  # stretched
        "thirtyy" * (LIMIT // 7),
        "hundred" * (LIMIT // 7),  # a number above 99 written in one word, or not
        "zehner" + "x" * (LIMIT - 6),  # a German compound on a number noun
        _fill(rng, lambda r: "thi" + _word(r, 100, 200) + "ty"),
        _fill(rng, lambda r: _word(r, 8, 30)),
    ]


def _censored(rng: random.Random) -> list[str]:
    def hidden(r: random.Random) -> str:
        word = list(_word(r, 4, 12))
        for _ in range(max(1, len(word) // 3)):
            word[r.randrange(1, len(word) - 1)] = r.choice("*#_")
        return "".join(word)

    return [_fill(rng, hidden), _fill(rng, lambda r: "t" + "*" * r.randint(1, 3) + _word(r, 3, 5))]


def _invisible(rng: random.Random) -> list[str]:
    return [
        "\u200b" * LIMIT,
        "".join(rng.choice(_LOWER) + "\u00ad" for _ in range(LIMIT // 2)),
        _fill(rng, lambda r: r.choice(_LOWER), "\u200d"),
        "".join(rng.choice(_LOWER) + chr(0xE0020 + rng.randrange(90)) for _ in range(LIMIT // 2)),  # tags
        "".join(rng.choice(("\u3164", "\u2800", "\ufe0f", "\u034f", "a ")) for _ in range(LIMIT // 2)),
    ]


def _digits(rng: random.Random) -> list[str]:
    """Digits that are machine markup and go, or the hints of markup without its digits."""
    return [
        _fill(rng, lambda r: f"<@{r.randrange(10**17, 10**18)}>"),
        _fill(rng, lambda r: r.choice((":100:", ":clock1030:", "<3", "</3", "<t:1700000000:R>"))),
        _fill(rng, lambda r: f"https://example.com/{r.randrange(10**6)}"),
        _fill(rng, lambda r: r.choice(("<", "</", "<@", ":", "::", "a:b", "discord", "</a"))),
        _fill(rng, lambda r: "</" + _word(r, 60, 99)),  # a slash-command mention that never closes
        _fill(rng, lambda r: ".".join(_word(r, 1, 2) for _ in range(15)), ":"),  # URL schemes that never come
    ]


def _emoji(rng: random.Random) -> list[str]:
    return [
        "\U0001f600" * LIMIT,
        _fill(rng, lambda r: chr(0x1F1E6 + r.randrange(26))),  # regional indicators read as letters
        "".join(chr(0x1F1E6 + rng.randrange(26)) for _ in range(LIMIT)),
        _fill(rng, lambda r: "\U0001f44d\U0001f3fd"),  # skin tones
        "\u2764\ufe0f" * (LIMIT // 2),
    ]


def _mixed_scripts(rng: random.Random) -> list[str]:
    cyrillic = "аеорсух"
    return [
        _fill(rng, lambda r: "".join(r.choice(_LOWER + cyrillic + "αεικο") for _ in range(r.randint(3, 8)))),
        "\ufdfa" * LIMIT,  # NFKC makes 18 characters of each
        "\u3392" * LIMIT,  # a squared unit: NFKC letters
        _fill(rng, lambda r: "".join(r.choice("漢字かなカナ한글ابت") for _ in range(r.randint(1, 4)))),
        _fill(rng, lambda r: r.choice(_LOWER) + "\u0301\u0308"),  # combining marks on single letters
        _fill(rng, lambda r: "".join(r.choice("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ") for _ in range(r.randint(1, 3)))),
    ]


def _other(rng: random.Random) -> list[str]:
    return [
        _fill(rng, lambda r: r.choice(("IIII", "VV", "XXXX", "LC", "IC", "MCM"))),  # Roman numerals that are none
        _fill(rng, lambda r: "!".join(_word(r, 1, 3) for _ in range(3))),  # leetspeak symbols: a second pass
        _fill(rng, lambda r: r.choice(("le dos", "at once", "au four", "seize the", "gib acht", "très"))),
        _fill(rng, lambda r: r.choice(("the", "der", "le", "el")) + " " + r.choice(("trres", "sxi", "aht", "troi"))),
        _fill(rng, lambda r: r.choice(("one", "zero", "hundred", "first", "often", "weight"))),
    ]


SHAPES: dict[str, Callable[[random.Random], list[str]]] = {
    "single letters": _single_letters,
    "short tokens": _short_tokens,
    "split-word fragments": _fragments,
    "misspelling-like words": _misspelling_like,
    "long words": _long_words,
    "censor characters": _censored,
    "invisible characters": _invisible,
    "digits and markup": _digits,
    "emoji": _emoji,
    "mixed scripts": _mixed_scripts,
    "other": _other,
}


def adversarial_messages(seed: int = 40) -> dict[str, list[str]]:
    """Every shape's messages, each at most :data:`LIMIT` characters."""
    rng = random.Random(seed)
    shapes = {name: make(rng) for name, make in SHAPES.items()}
    for messages in shapes.values():
        assert all(len(m) <= LIMIT for m in messages)
    return shapes
