"""Which of a message's distinct words may be a number word's spelling, settled for all of them at once.

A message at Discord's limit holds several hundred distinct words, and looking one up (``chatfilter._lookup``: the
one-edit probe, the German sound changes, the spoken rewrites) costs a dozen calls and regexes. The screens here ask
a necessary condition of each of lookup's readings for every word at once, with set operations and with regexes and
``str`` methods applied to the words joined by line breaks, so the work per word is done in C: a word that passes no
screen is read as no number word by lookup, and only the few that pass one are looked up. A screen may let through
a word that lookup then rejects; it never stops one that lookup reads (``tests/chatfilter/test_screen.py``). This is
the batch twin of ``_lookup.lookup`` and ``_misspellings._read``: a reading added there needs its screen here.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from itertools import compress
from operator import ne

from chatfilter._lookup import TRIPLE_RE, collapse, lookup
from chatfilter._misspellings import (
    _DE_STARTS,
    _HEADS,
    _LONG,
    _MAX_SPOKEN,
    _NEAR_SHORT,
    _SPOKEN,
    _TAILS,
    MIN_LENGTH,
    ORDINARY,
    _may_be_near,
    _undo_german_sounds,
)
from chatfilter._number_words import DE_ER_COMPOUND_RE, FORMS, LARGE_CORE, trie_pattern

__all__ = ["SCREEN_MIN", "read", "readable"]


def _lines_starting(starts: Iterable[str]) -> re.Pattern[str]:
    """The lines (words) that start with one of ``starts``, in a text that holds a line break before each line. The
    line break is a literal the regex engine looks for in C; a pattern starting with "^" instead is tried at every
    character, which costs a hundred microseconds on a message at the limit."""
    return re.compile("\n(" + trie_pattern(starts) + "[^\n]*)")


# A long word one edit from a number word keeps its first or its last three letters (_misspellings._may_be_near);
# a shorter one is one of _NEAR_SHORT. The long words with a number word's head are the lines of that head and of
# _LONG letters at least; those with a tail, the same on the text reversed (a line's end is where no literal marks
# it, so the regex would be tried at every character). Slicing and hashing each word's ends cost twice as much.
_HEAD_LINES = re.compile(rf"\n({trie_pattern(_HEADS)}[^\n]{{{_LONG - 3},}})")
_REVERSED_TAIL_LINES = re.compile(rf"\n({trie_pattern(tail[::-1] for tail in _TAILS)}[^\n]{{{_LONG - 3},}})")
_GERMAN_LINES = _lines_starting(_DE_STARTS)
_END = r"(?![^\n])"
# One letter of another script at most: a word with two is no number word with one letter replaced.
_ASCII = r"[\x00-\x09\x0b-\x7f]"
_ONE_OTHER_LINES = re.compile(rf"\n({_ASCII}*[^\x00-\x7f]{_ASCII}*){_END}")
# "zehnertrick": DE_ER_COMPOUND_RE read whole, line by line (its "$" is the end of a line here).
_DE_ER_LINES = re.compile(rf"\n((?:{DE_ER_COMPOUND_RE.pattern.replace('$', _END)})){_END}")
# Each large number word that holds no other, searched for as a literal (LARGE_SPLIT_RE's alternatives are tried at
# every h, t, c and m).
_LARGE_CORE_RES = tuple(map(re.compile, LARGE_CORE))
# "sixx": a word that always counts with its last letter doubled.
_DOUBLED_LAST = frozenset(form + form[-1] for form, key in FORMS.items() if key == "")
# A frozenset, not the dict's keys: "keys & list" copies all the keys into a new set first.
_FORM_SET = frozenset(FORMS)
# Below this many words the screens cost more than looking each word up.
SCREEN_MIN = 16
# The words of a message are screened in chunks, the first one this long and each next one four times longer: a
# message whose number word comes early stops about as early as when each word was looked up in turn.
_FIRST_CHUNK = 64


def _lines(words: Iterable[str]) -> str:
    """The words as one text, each after a line break (the form the patterns above read)."""
    return "\n" + "\n".join(words)


def _line_around(lines: str, start: int, end: int) -> str:
    """The line (word) of ``lines`` that holds ``lines[start:end]``."""
    stop = lines.find("\n", end)
    return lines[lines.rfind("\n", 0, start) + 1 : stop if stop >= 0 else len(lines)]


def _stretched(lines: str) -> set[str]:
    """The lines (words) of ``lines`` that hold one letter three times in a row or more."""
    if not lines.isascii():
        return {_line_around(lines, *match.span()) for match in TRIPLE_RE.finditer(lines)}
    # A byte of the text XOR the text moved by one is zero where a character equals the next one, so a letter three
    # times in a row is two zero bytes in a row, which bytes.find looks for in C. The regex tried a match at every
    # character: a twentieth of a message of 222 long words, of which six are stretched.
    data = lines.encode("ascii")
    size = len(data) - 1
    same = (int.from_bytes(data[1:], "little") ^ int.from_bytes(data[:-1], "little")).to_bytes(size, "little")
    words = set()
    at = same.find(b"\0\0")
    while at >= 0:  # two line breaks are never neighbours, so each hit is within one line
        words.add(_line_around(lines, at, at))
        end = lines.find("\n", at)
        at = same.find(b"\0\0", end) if end >= 0 else -1
    return words


def _near(forms: Collection[str], lines: str) -> set[str]:
    """The forms ``_misspellings._nearest`` may read: one edit from a short number word, with the head or the tail
    of a long one, or with one letter of another script (``lines``: the forms as :func:`_lines`)."""
    hits = set(_NEAR_SHORT.intersection(forms))
    # The few long words with a head or a tail are then asked their length too (_may_be_near): most of them are far
    # longer or shorter than the number words they start or end like.
    ends = set(_HEAD_LINES.findall(lines))
    # Reversed, each word must follow a line break too: the last one has none after it to become one.
    ends.update(word[::-1] for word in _REVERSED_TAIL_LINES.findall((lines + "\n")[::-1]))
    hits.update(filter(_may_be_near, ends))
    if not lines.isascii():
        hits.update(_ONE_OTHER_LINES.findall(lines))
    return hits


def _found(forms: list[str], lines: str) -> set[str]:
    """The forms that are a number word or that ``_nearest`` may read."""
    return _near(forms, lines) | _FORM_SET.intersection(forms)


def _german(words: list[str]) -> tuple[list[str], list[str]]:
    """The spellings German spoken readings (``_misspellings._german_spoken``) try, with the word of each: every sound
    change undone on all the words at once, then the spelling and its two dialect endings."""
    spoken = _undo_german_sounds(_lines(words)).split("\n")[1:]
    # The dialect endings: "siebe" (a dropped n, also "dreizeh"), "fumfe" (an added e).
    ending = [(word, form) for word, form in zip(words, spoken, strict=True) if form.endswith(("e", "eh"))]
    owners = [*words, *[word for word, _ in ending] * 2]
    return owners, [*spoken, *[form + "n" for _, form in ending], *[form[:-1] for _, form in ending]]


def _may_read(forms: list[str]) -> set[str]:
    """A superset of the forms that ``_misspellings._read`` reads as a number word."""
    lines = _lines(forms)
    hits = _near(forms, lines)
    # Every respelling the readings try, with the form it comes from, screened together at the end.
    owners: list[str] = []
    spellings: list[str] = []
    german = _GERMAN_LINES.findall(lines)
    if german:
        owners, spellings = _german(german)
    # A rewrite at most halves a word: one longer than _MAX_SPOKEN is never rewritten (_misspellings._read).
    spelt = forms if max(map(len, forms)) <= _MAX_SPOKEN else [form for form in forms if len(form) <= _MAX_SPOKEN]
    last = ""
    holding: list[str] = []
    held = ""
    for needs, pattern, repl in _SPOKEN:
        if needs in lines:
            # Only the forms the rewrite changes: the others are screened above as they are. Two rewrites in a row
            # need "k": its forms are picked once.
            if needs != last:
                holding = [form for form in spelt if needs in form]
                held = _lines(holding)
                last = needs
            if pattern is None:
                owners += holding
                spellings += held.replace(needs, repl).split("\n")[1:]
            else:
                # A pattern leaves most of the forms holding its letters as they are ("di" in "eidis"): those were
                # screened above already, so only the changed ones are screened again.
                out = pattern.sub(repl, held).split("\n")[1:]
                changed = list(map(ne, holding, out))
                owners += compress(holding, changed)
                spellings += compress(out, changed)
    if spellings:
        found = _found(spellings, _lines(spellings))
        hits.update(compress(owners, map(found.__contains__, spellings)))
    return hits


def readable(words: set[str], stretched: bool, large: bool) -> set[str]:
    """Of a message's distinct words that are neither number words nor everyday words, those that
    ``_lookup.lookup(word, stretched, large)`` may read as a number word (a superset; it reads the rest as None)."""
    words = {word for word in words if len(word) >= MIN_LENGTH}
    return words if len(words) < SCREEN_MIN else _screened(words, stretched, large)


def _screened(words: set[str], stretched: bool, large: bool) -> set[str]:
    """:func:`readable` for words of MIN_LENGTH letters or more, at least SCREEN_MIN of them."""
    lines = _lines(words)
    maybe = set(_DOUBLED_LAST.intersection(words))
    maybe.update(_DE_ER_LINES.findall(lines))
    if large:
        # The words holding a large number word: each found on the joined text, cut out between its line breaks.
        maybe.update(
            _line_around(lines, *match.span())
            for pattern in _LARGE_CORE_RES
            if pattern.pattern in lines
            for match in pattern.finditer(lines)
        )
    forms = list(words - ORDINARY)
    owners = forms.copy()
    if stretched:
        # "threeeee": the stretched words, each found on the joined text, read with a run of three letters or more
        # cut to one and to two.
        for word in _stretched(lines):
            collapsed = collapse(word)
            if not _FORM_SET.isdisjoint(collapsed):
                maybe.add(word)
            forms += collapsed
            owners += (word, word)
    if forms:
        read = _may_read(forms)
        maybe.update(compress(owners, map(read.__contains__, forms)))
    return maybe


def read(words: list[str], stretched: bool, large: bool) -> Iterator[tuple[str, str]]:
    """The words that ``_lookup.lookup(word, stretched, large)`` reads as a number word, with their keys, in the
    order of ``words`` (a message's distinct words of MIN_LENGTH letters or more, none a number word or an everyday
    word)."""
    start, size = 0, _FIRST_CHUNK
    while start < len(words):
        chunk = words[start : start + size]
        # The message's words are long enough already: only a short last chunk is filtered again.
        maybe = (
            _screened(set(chunk), stretched, large)
            if len(chunk) >= SCREEN_MIN
            else readable(set(chunk), stretched, large)
        )
        for word in compress(chunk, map(maybe.__contains__, chunk)):
            key = lookup(word, stretched, large)
            if key is not None:
                yield word, key
        start += size
        size *= 4
