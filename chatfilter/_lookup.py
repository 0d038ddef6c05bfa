"""Number-word matching: the vocabulary key of one token, if the token is a number word in any of its spellings.

A token is matched whole (never a substring: "often", "weight" and "Zweifel" stay), as written, stretched
(``threeeee``), with a doubled last letter (``sixx``), as a number above 99 glued in one word (``zweihundert``,
``hundertsieben``, ``hundertzwölf``, ``zweihundertelf``), as a German compound on a number noun
(``Zehnertrick``), or misspelt or respelt (policy W2, ``chatfilter._misspellings``).
"""

from __future__ import annotations

import re
from operator import itemgetter

from chatfilter._language import COMMON
from chatfilter._misspellings import MIN_LENGTH, misspelt_number
from chatfilter._number_words import DE_ER_COMPOUND_RE, DE_ER_STARTS, FORMS, LARGE_SPLIT_RE

__all__ = ["NOT_A_PART", "TRIPLE_RE", "collapse", "lookup"]

TRIPLE_RE = re.compile(r"(.)\1\1")


def lookup(tok: str, stretched: bool, large: bool) -> str | None:
    """The vocabulary key of a token, trying its stretched, doubled and above-99 spellings too."""
    key = FORMS.get(tok)
    # Everyday words ("this", "have", "tree") are no spelling of a number word: most tokens stop here.
    if key is not None or len(tok) < 4 or tok in COMMON:
        return key
    # "sixx", "twoo": one letter doubled at the end. Not for the cross-language words: "doss" and "Tenn."
    # are words of their own.
    if tok[-1] == tok[-2] and FORMS.get(tok[:-1]) == "":
        return ""
    collapsed: tuple[str, ...] = ()
    if stretched and TRIPLE_RE.search(tok):
        # "threeeee" needs its double e back, "fiiiive" needs one i: try both collapses.
        collapsed = collapse(tok)
        for form in collapsed:
            key = FORMS.get(form)
            if key is not None:
                return key
    if large and LARGE_SPLIT_RE.search(tok):
        key = large_number(tok)
        if key is not None:
            return key
    if tok[:2] in DE_ER_STARTS and DE_ER_COMPOUND_RE.fullmatch(tok):
        return ""
    # Misspelt and respelt number words (W2): "thrity", "zwanzich", "soixente", not "forth" or "weight".
    for form in (tok, *collapsed):
        if len(form) >= MIN_LENGTH and form not in COMMON:
            key = misspelt_number(form)
            if key is not None:
                return key
    return None


# A token is letters only, so "." is a letter here; "([^\W\d_])\1{2,}" reads the same and substitutes ten times
# slower (the repeated backreference), which a run of a thousand spaced letters makes a quarter of a millisecond.
# The replacement is the match's first group taken by itemgetter, in C: a template ("\1") is expanded by a Python
# function per match.
_STRETCH_RE = re.compile(r"(.)\1\1+")
_STRETCH_TWO_RE = re.compile(r"((.)\2)\2+")
_FIRST_GROUP = itemgetter(1)


def collapse(text: str) -> tuple[str, str]:
    """``text`` with every run of three letters or more cut to one letter, and cut to two: "threeeee" needs its
    double e back, "fiiiive" needs one i."""
    return _STRETCH_RE.sub(_FIRST_GROUP, text), _STRETCH_TWO_RE.sub(_FIRST_GROUP, text)


_LARGE_FILLERS = frozenset(("", "a", "and", "und", "et", "y", "one", "ein", "eins", "un", "une", "uno", "s"))
# Inside a larger number a look-alike is a number ("hundertelf" is 111, "hundertacht" 108); "zweit" and
# "quarantaine" are no part of a number.
NOT_A_PART = frozenset(("zu", "quarantine"))
# "hundertundsieben", "hundredandfour": the connector glued to the part after it.
_CONNECTOR_RE = re.compile(r"^(?:and|und|et|y)(?=.)")


# The language of each large word and of each look-alike: a number glued in one word is written in one language,
# so "hundertelf" is 111 while "tencent" (English "ten" and French "cent") is a name.
_LARGE_LANGUAGE = {"hundred": "en", "thousand": "en", "hundert": "de", "hunnert": "de", "tausend": "de"}
_LARGE_LANGUAGE |= {"cent": "fr", "cents": "fr", "mille": "fr", "mil": "es", "cien": "es", "ciento": "es"}
_LOOK_ALIKE_LANGUAGE = {"elf": "de", "acht": "de", "once": "es", "dos": "es", "tres": "es", "quince": "es"}
_LOOK_ALIKE_LANGUAGE |= {"sept": "fr", "neuf": "fr", "seize": "fr", "ten": "en", "four": "en"}


def large_number(tok: str) -> str | None:
    """``zweihundert``, ``hundredandfour``, ``hundertundelf``: every part is a number word, or a connector, and
    one of them is 2-99 (a look-alike only next to a large word of its own language)."""
    parts = LARGE_SPLIT_RE.split(tok)
    if len(parts) < 2:
        return None
    languages = {_LARGE_LANGUAGE[large] for large in LARGE_SPLIT_RE.findall(tok)}
    counted = False
    for part in parts:
        if part in _LARGE_FILLERS:
            continue
        key = FORMS.get(part)
        if key is None:
            part = _CONNECTOR_RE.sub("", part)
            if part in _LARGE_FILLERS:
                continue
            key = FORMS.get(part)
        if key is None or key in NOT_A_PART or (key and _LOOK_ALIKE_LANGUAGE.get(key) not in languages):
            return None
        counted = True
    return "" if counted else None
