"""Censored number words: ``tw*lve``, ``th#rty``, ``z_anzig`` (policy W2's censor characters).

A run of ``*``, ``#`` or ``_`` *between* letters stands for the letters it hides (one, or one per character), and
the word counts if it is then a number word of at least :data:`~chatfilter._misspellings.MIN_LENGTH` letters with
at most a third of its letters hidden. The number words are looked up by length, first and last letter (a censored
word shows both), so a word costs a comparison with a dozen number words at most and no regex of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import compress
from operator import itemgetter

from chatfilter._misspellings import MIN_LENGTH, TARGETS

__all__ = ["censored_reading", "may_be_censored"]

# The number words by length, first and last letter (a censored word shows both): a dozen at most each, in order.
_BY_ENDS: dict[tuple[int, str, str], tuple[str, ...]] = {}
for _target in sorted(TARGETS):
    _BY_ENDS[len(_target), _target[0], _target[-1]] = (
        *_BY_ENDS.get((len(_target), _target[0], _target[-1]), ()),
        _target,
    )
# The lengths of the number words with each first and last letter, shortest first.
_LENGTHS: dict[tuple[str, str], list[int]] = {}
for _length, _first, _last in sorted(_BY_ENDS):
    _LENGTHS.setdefault((_first, _last), []).append(_length)
_CENSOR_SPLIT_RE = re.compile(r"([^a-z]+)")
_FIRST_AND_LAST = itemgetter(0, -1)


def may_be_censored(words: Iterable[str]) -> Iterator[str]:
    """The words whose first and last letter are those of a number word: the only ones :func:`censored_reading`
    reads. Settled for all of them in C (a call of censored_reading costs a split and a findall even when it fails)."""
    words = list(words)
    return compress(words, map(_LENGTHS.__contains__, map(_FIRST_AND_LAST, words)))


def censored_reading(word: str) -> str | None:
    """The number word that ``word`` (lower-case ASCII letters, with runs of censor characters between them) is
    with its hidden letters filled in, if at most a third of its letters are hidden: ``tw*lve``, ``th##ty``,
    ``z_anzig``. A run stands for one letter, or for one letter per character."""
    lengths = _LENGTHS.get((word[0], word[-1]))
    if lengths is None or lengths[0] > len(word):
        return None  # either reading is at most as long as the word as typed
    parts = _CENSOR_SPLIT_RE.split(word)
    pieces, runs = parts[0::2], parts[1::2]
    visible = sum(map(len, pieces))
    # A run for one letter, then a run for one letter per character (the word's length), each read only where a number
    # word of that length has the word's first and last letter.
    for hidden, length in ((len(runs), visible + len(runs)), (len(word) - visible, len(word))):
        # At most a third, rounded down: "tw##ve" (two of six) counts, "t###ve" does not. Words of four and five
        # letters may hide one.
        if length < MIN_LENGTH or hidden > max(1, length // 3):
            continue
        targets = _BY_ENDS.get((length, word[0], word[-1]), ())
        fills = [1] * len(runs) if length < len(word) else list(map(len, runs))
        for target in targets:
            if _fits(target, pieces, fills):
                return target
    return None


def _fits(target: str, pieces: list[str], fills: list[int]) -> bool:
    """Whether ``target`` holds the visible pieces of a censored word where they stand."""
    at = 0
    for piece, fill in zip(pieces, [*fills, 0], strict=True):
        if not target.startswith(piece, at):
            return False
        at += len(piece) + fill
    return True
