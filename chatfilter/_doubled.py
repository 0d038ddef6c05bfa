"""The German sound change of a doubled consonant ("sibbe", "fünnef") undone on a long text.

``_misspellings._DOUBLED_RE`` drops the first of two like consonants before a vowel. On a text of several hundred
words (``chatfilter._screen`` undoes the sound changes of all of a message's words at once) that regex, which starts
with a class, is tried at every character; ``str.replace`` looks for its literal in C, so the five replacements of
each doubled letter, made only where the pair stands, cost less there. A short word keeps the one regex, cheaper
than eleven substring tests. ``tests/chatfilter/test_fast_paths.py`` holds the two to the same result.
"""

from __future__ import annotations

__all__ = ["UNDOUBLE_MIN", "undouble"]

UNDOUBLE_MIN = 200  # characters: below this the regex costs less
_CHANGES = tuple((c + c, tuple((c + c + v, c + v) for v in "aeiou")) for c in "bdfglmnprst")


def undouble(text: str) -> str:
    """``text`` with the first of two like consonants before a vowel dropped (``_DOUBLED_RE.sub("", text)``).

    Replacing one letter's pairs never makes a pair of another letter, and a run of three or more loses its one
    consonant before the vowel as the regex's leftmost match does."""
    for pair, changes in _CHANGES:
        if pair in text:
            for old, new in changes:
                text = text.replace(old, new)
    return text
