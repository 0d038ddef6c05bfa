"""The token-level reading of one message: its words in context, and the words it splits or spells out.

The normalized, casefolded, accent-stripped message is cut into tokens (runs of letters) and the separators
between them. A token is matched whole (``chatfilter._lookup``); split words are rejoined only where a reader
would rejoin them: across markdown, NBSP, line breaks, hyphens and dots, a fragment that is not itself a common
word ("thir ty"), a common word and the rest of a number word after one ordinary space unless the two are a
phrase of the message's language or the second is a capitalized name ("for ty" counts, "se ven bien" and "for
Ty" stay), runs of single letters ("t h r e e", also
after a one-letter word: "I have a s i x"), and censor characters between letters ("tw*lve"). Other words separated
by ordinary spaces are never merged ("that would" does not contain "two"). A hit on a look-alike (``once``,
``dos``, ``quince``...), a short misspelling (``trres``) or a misspelling read only in a number slot (``aht``) then
asks its context: the words around it and, once per message, the message's language; a message of one word is
the strongest context of all ("sies" alone).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import compress, count, islice
from operator import add

from chatfilter._censored import censored_reading, may_be_censored
from chatfilter._context import CONTEXT_RULES, LARGE_PREV, Context, number_cue, number_slot
from chatfilter._language import COMMON, LANGUAGES, Language
from chatfilter._lookup import NOT_A_PART, TRIPLE_RE, lookup
from chatfilter._misspellings import (
    LONE,
    MIN_LENGTH,
    SHORT,
    SHORT_ALONE,
    SHORT_MAX,
    SLOT,
    SLOT_NAMES,
    name_misspelling,
    short_misspelling,
    slot_misspelling,
)
from chatfilter._normalize import SOFT, SOFT_CHARS
from chatfilter._number_words import FORMS, PREFIXES, SPLIT_PHRASES, has_large_word
from chatfilter._screen import SCREEN_MIN, read, readable

__all__ = ["Message"]

_WORD_RE = re.compile(r"[^\W\d_]+")
_JOIN_SEP_RE = re.compile(r"[\s\x1f.\-·•/+~]{1,3}")
# A word with censor characters between its letters (markdown characters are SOFT by now). It starts with a letter
# and looks behind that letter: a look-behind first is tried at every character, a letter only where one stands.
_CENSORED_RE = re.compile(r"[a-z](?<![^\W\d_][a-z])[a-z]*(?:[\x1f#]+[a-z]+)+(?![^\W\d_])")
# The tokens whose reading a dictionary probe settles: vocabulary words, and everyday words, which are none.
_FORM_SET = frozenset(FORMS)
_KNOWN = _FORM_SET | COMMON
# The misspellings read only in context: a token that is one of them is looked at where it stands.
_MISSPELT = frozenset((*SHORT, *SLOT, *SLOT_NAMES, *LONE))
# A run of at least three one-letter tokens, each gap between them one to four characters without an apostrophe
# (digits and "_" separate tokens too): "t h r e e", "t.h.r.e.e", one letter per line.
_LETTER_GAP = r"(?:(?!['’´])[\W\d_]){1,4}"
_LETTER_RUN_RE = re.compile(rf"(?<![^\W\d_])[^\W\d_](?![^\W\d_])(?:{_LETTER_GAP}[^\W\d_](?![^\W\d_])){{2,}}")
_LETTER_GAP_RE = re.compile(r"([\W\d_]+)")
# The same run on the shape of a message: a byte per token ("a": a single letter, "b": more) and per gap (its length
# in characters, 5 for five or more), alternating: a run is a single letter and then, at least twice, a gap of one
# to four characters and another single letter.
_LETTER_RUN_SHAPE_RE = re.compile(rb"a(?:[\x01-\x04]a){2,}")
# The same run on an ASCII text translated character by character, a "-" put before it: a single letter after a
# gap, and at least twice a gap of one to four characters and another single letter. It starts with the literal
# "-a-" (a single letter; the gap's first character makes "(?!a)" needless there): the engine skips in C the tokens of
# two letters or more, where "-a" started a match at every token (a sixth of the letter runs' instructions).
_LETTER_RUN_CHARS_RE = re.compile(r"-a--{0,3}a(?!a)(?:-{1,4}a(?!a))+")
_CHAR_SHAPE = str.maketrans({chr(code): "a" if chr(code).isalpha() else "-" for code in range(128)})
# Below this many tokens the regex over the text is cheaper than building the shape (a few calls in C more).
_SHAPE_MIN_TOKENS = 40
_TOKEN_SHAPE = bytes(ord("a") if length == 1 else ord("b") for length in range(256))
_GAP_SHAPE = bytes(min(length, 5) for length in range(256))
# What two neighbouring tokens glued together must be for a join to start there.
_JOINABLE = PREFIXES | frozenset(FORMS)
# One-letter words that may stand before a spelled-out word: "a s i x", "y d o s", "I s e v e n".
_ONE_LETTER_WORDS = frozenset("aiyou")


class Message:
    """The token-level checks of one message; a class only to share the token lists between them."""

    __slots__ = ("_cased", "_language", "norm", "raw", "seps", "stripped", "tokens")

    def __init__(self, tokens: list[str], seps: list[str], raw: list[str], stripped: str, norm: str) -> None:
        self.tokens = tokens
        self.seps = seps
        self.raw = raw
        self.stripped = stripped
        self.norm = norm
        self._language: Language | None = None
        self._cased: list[str] | None = None

    def mentions_number(self) -> bool:
        return self._whole_tokens() or self._joined_fragments() or self._letter_runs() or self._censored()

    # -- tw*lve, th#rty: censor characters standing for letters --

    def _censored(self) -> bool:
        stripped = self.stripped
        if SOFT not in stripped and "#" not in stripped:
            return False
        words = may_be_censored(set(_CENSORED_RE.findall(stripped)))
        return any(censored_reading(word) is not None for word in words)

    # -- single tokens --

    def _whole_tokens(self) -> bool:
        tokens = self.tokens
        # Each distinct token is read once (a long message repeats its words), and the set operations settle the
        # vocabulary words, the everyday words and the short ones without a loop: only the rest is looked up.
        # (A set operation with a dict, or with several arguments, walks the other side: these walk the message.)
        distinct = set(tokens)
        keys: dict[str, str | None] = {tok: FORMS[tok] for tok in _FORM_SET.intersection(distinct)}
        if "" in keys.values():
            return True  # a word that counts wherever it stands
        # The screens settle most of the other words at once (chatfilter._screen): only the rest is looked up, in
        # the order of the message, so that a flagged message stops at its first number word as before.
        # (The set difference walks the message's words in C; most of them are known.)
        unknown = {tok for tok in distinct - _KNOWN if len(tok) >= MIN_LENGTH}
        readings: Iterable[tuple[str, str | None]] = ()
        if unknown:  # the two scans of the text (a fifth of the time of a message of short words) only for lookup
            stretched = TRIPLE_RE.search(self.stripped) is not None
            large = has_large_word(self.stripped)
            readings = (
                read(list(filter(unknown.__contains__, dict.fromkeys(tokens))), stretched, large)
                if len(unknown) >= SCREEN_MIN
                else [(tok, lookup(tok, stretched, large)) for tok in unknown]
            )
        for tok, reading in readings:
            if reading == "":
                return True
            if reading is not None:
                keys[tok] = reading
        keys.update((tok, None) for tok in distinct.intersection(_MISSPELT) if tok not in keys)
        if not keys:
            return False
        # A look-alike's verdict depends only on its rule and the words around it: a message that repeats a phrase
        # ("gib acht", "at once") asks each rule once per distinct neighbourhood, not once per occurrence.
        refused: set[tuple[str, Context]] = set()
        for i in compress(count(), map(keys.__contains__, tokens)):
            tok = tokens[i]
            key = keys[tok]
            if key is not None:
                near = self._context(i, i + 1)
                if (key, near) in refused:
                    continue
                if self._judge(key, near):
                    return True
                refused.add((key, near))
            else:
                if len(tok) <= SHORT_MAX and tok in SHORT and self._short_counts(*short_misspelling(tok), i):
                    return True
                if tok in SLOT and self._slot_counts(*slot_misspelling(tok), i):
                    return True
                if tok in SLOT_NAMES and self._slot_counts(*name_misspelling(tok), i) and self._lower(i):
                    return True
                if tok in LONE and len(tokens) == 1 and self._counts(FORMS[LONE[tok]], i, i + 1):
                    return True
        return False

    def _name_after(self, i: int, j: int) -> bool:
        """Whether token ``j`` is capitalized after a lower-case token ``i``: a name, not the rest of a word ("a
        t-shirt for Ty" is no "forty"; "FOR TY" and "For ty" still are)."""
        return self._typed(j).istitle() and self._typed(i).islower()

    def _lower(self, i: int) -> bool:
        """Whether token ``i`` was typed in lower case (a name typed so may stand for a number; "Tenn" does not)."""
        return self._typed(i).islower()

    def _typed(self, i: int) -> str:
        """Token ``i`` with its case as typed (when casefolding kept the tokens apart, else as folded)."""
        if self._cased is None:
            cased = _WORD_RE.findall(self.norm)
            self._cased = cased if len(cased) == len(self.tokens) else self.raw
        return self._cased[i]

    def _slot_counts(self, target: str, langs: tuple[str, ...], i: int) -> bool:
        """A misspelling that is a word only of other languages, a rare word or a function word's typo ("troi",
        "aht") counts in a number slot: an article before it or a count noun after it, in a message mainly in the
        number's language or in no language at all ("j'ai le troi", "die zhen liegt", "isx left")."""
        key = FORMS[target]
        if key and not self._counts(key, i, i + 1):
            return False
        near = self._context(i, i + 1)
        language = self.language()
        silent = language.is_silent()
        return any((silent or language.is_mainly(lang)) and number_slot(near, lang) for lang in langs)

    def _short_counts(self, target: str, langs: tuple[str, ...], i: int) -> bool:
        """A short misspelling ("trres", "sxi", "onc") counts where its word counts and the message is in the
        word's language or shows a count around it ("me quedan trres cartas"), or, when it is no word of any
        language, where the message shows no language at all ("sxi", "fve left")."""
        key = FORMS[target]
        if key and not self._counts(key, i, i + 1):
            return False
        near = self._context(i, i + 1)
        language = self.language()
        if any(language.is_mainly(lang) or number_cue(near, lang) for lang in langs):
            return True
        return self.tokens[i] in SHORT_ALONE and language.is_silent()

    # -- a word split by markdown, NBSP, a line break or a space inside it --

    def _joined_fragments(self) -> bool:
        tokens, seps = self.tokens, self.seps
        n = len(tokens)
        # A join starts only where a token and the next one begin or make a number word: the pairs are built and
        # tested without a Python loop, and only their places are walked. The pairs are glued by operator.add, a
        # builtin called directly: str.__add__ is a slot wrapper, which map calls at twice the cost.
        if n < _SHAPE_MIN_TOKENS:  # a short message: a list and one test of it cost less than the chain below
            pairs: Iterable[str] = list(map(add, tokens, tokens[1:]))
            if _JOINABLE.isdisjoint(pairs):
                return False
            starts: Iterable[int] = count()
        else:
            # Only a token that begins a number word starts a join (a fifth of the tokens of a long message): the
            # pairs are built for those alone, and tested as they are built; a message whose join counts stops at it.
            begins = list(map(PREFIXES.__contains__, tokens))
            starts = compress(count(), begins)
            pairs = map(add, compress(tokens, begins), compress(islice(tokens, 1, None), begins))
        for i in compress(starts, map(_JOINABLE.__contains__, pairs)):
            acc = tokens[i]
            if acc not in PREFIXES or _has_apostrophe(seps[i]):
                continue
            sep = seps[i + 1]
            if (
                acc in COMMON
                and (len(acc) == 1 or sep != " ")
                and (len(acc) > 1 or tokens[i + 1] in COMMON)
                and not (sep and SOFT_CHARS.issuperset(sep))
            ):
                continue  # two words (a common word, then a visible break): the loop below would stop at once
            # A common word and the word after it are two words ("se ven", "s even"), unless the break between
            # them is invisible. A lone letter may still start a split word ("e ight").
            first_common = acc in COMMON
            for j in range(i + 1, min(i + 5, n)):
                sep = seps[j]
                spaced = False  # a common word, one ordinary space and the rest of a number word ("se ven")
                if not (sep and SOFT_CHARS.issuperset(sep)):
                    if sep != " " and not _JOIN_SEP_RE.fullmatch(sep):  # a space, the commonest, needs no regex
                        break
                    if first_common and (len(acc) > 1 or tokens[j] in COMMON):
                        if j > i + 1 or sep != " " or len(acc) == 1 or self._name_after(i, j):
                            break
                        spaced = True
                acc += tokens[j]
                key = FORMS.get(acc)
                # "thir ty's" is fine, but a fragment glued to an apostrophe belongs to the next word.
                if (
                    key is not None
                    and not _has_apostrophe(seps[j + 1])
                    and (not spaced or self._split_counts(i))
                    and self._counts(key, i, j + 1)
                ):
                    return True
                if spaced or acc not in PREFIXES:
                    break
        return False

    def _split_counts(self, i: int) -> bool:
        """Two ordinary words of one language that spell a number word ("se ven", "on se", "no venta") are that
        language's phrase, unless the message is plainly in another language ("I have se ven")."""
        langs = SPLIT_PHRASES.get(f"{self.tokens[i]} {self.tokens[i + 1]}")
        if langs is None:
            return True
        language = self.language()
        return any(language.is_mainly(lang) for lang in LANGUAGES if lang not in langs)

    # -- t h r e e, t.h.r.e.e, one letter per line, 🇹 🇭 🇷 🇪 🇪 --

    def _letter_runs(self) -> bool:
        runs = self._runs() if len(self.tokens) >= 3 else []
        if not runs:
            return False
        words: list[str] = []
        for letters, gaps in runs:
            words += _run_words(letters, gaps)
            # "I have a s i x": the run may start with a one-letter word of its own.
            if len(letters) >= 4 and letters[0] in _ONE_LETTER_WORDS:
                words += _run_words(letters[1:], gaps[1:])
        return self._spelled_out(words)

    def _runs(self) -> list[tuple[list[str], list[str]]]:
        """The runs of single letters (``_LETTER_RUN_RE``), each as its letters and the gaps between them."""
        tokens, seps, stripped = self.tokens, self.seps, self.stripped
        runs: list[tuple[list[str], list[str]]] = []
        if len(tokens) < _SHAPE_MIN_TOKENS or _has_apostrophe(stripped):  # an apostrophe ends a run ("a's b")
            for run in _LETTER_RUN_RE.findall(stripped):
                parts = _LETTER_GAP_RE.split(run)
                runs.append((parts[0::2], parts[1::2]))
        elif stripped.isascii():
            # An ASCII text is its own shape: one character per character ("a" a letter, "-" any other), made by one
            # translate and searched from the "-" before each token, so that no byte is built per token (building the
            # token shape below cost half of the letter runs' time on a message of 666 short words). A run's first
            # token is the count of the tokens ("-a") before it, counted on from the last run.
            chars = "-" + stripped.translate(_CHAR_SHAPE)
            first = last = 0
            for match in _LETTER_RUN_CHARS_RE.finditer(chars):
                start, end = match.span()
                first += chars.count("-a", last, start)
                last = start
                size = chars.count("a", start, end)
                runs.append((tokens[first : first + size], seps[first + 1 : first + size]))
        else:
            # The runs are read off the tokens already cut (a regex over the text cost a step per character, and
            # cutting each run again another): the shape of the message (_LETTER_RUN_SHAPE_RE) is built and searched
            # in C.
            shape = bytearray(2 * len(tokens) - 1)
            shape[0::2] = _lengths(tokens).translate(_TOKEN_SHAPE)
            shape[1::2] = _lengths(seps[1:-1]).translate(_GAP_SHAPE)
            runs = [
                (tokens[start : end + 1], seps[start + 1 : end + 1])
                for start, end in ((m.start() // 2, m.end() // 2) for m in _LETTER_RUN_SHAPE_RE.finditer(shape))
            ]
        return runs

    def _spelled_out(self, words: list[str]) -> bool:
        """Whether a word spelled out letter by letter is a number word that counts. Spelled-out letters carry no
        neighbouring words, so only the message's language decides: the words of all runs are read together, and
        the screens (chatfilter._screen) settle most of them at once."""
        distinct = set(words)
        keys = {FORMS[word] for word in _FORM_SET.intersection(distinct)}
        for word in readable(distinct - _KNOWN, True, True):
            key = lookup(word, True, True)
            if key is not None:
                keys.add(key)
        return any(self._counts(key, 0, 0, whole_message=True) for key in keys)

    # -- the cross-language words --

    def _counts(self, key: str, start: int, end: int, *, whole_message: bool = False) -> bool:
        """Whether a vocabulary hit spanning tokens[start:end] counts, given the words around it.

        ``key`` is "" for words that always count, else the name of the context rule of a word that is a number
        in one language and an ordinary word in another (policy X8: "a little context, not full language
        identification"). Spelled-out letter runs have no neighbours of their own (``whole_message``).
        """
        return not key or self._judge(key, self._context(start, end, whole_message=whole_message))

    def _judge(self, key: str, near: Context) -> bool:
        """Whether a vocabulary hit of ``key`` counts with the words ``near`` it (see :meth:`_counts`)."""
        if not key:
            return True
        if near.prev in LARGE_PREV and key not in NOT_A_PART:
            return True  # "hundert elf", "ciento once": part of a larger number
        return CONTEXT_RULES[key](near, self.language())

    def _context(self, start: int, end: int, *, whole_message: bool = False) -> Context:
        if whole_message:
            return Context(prev="", prev2="", next="", accented=False, prev_raw="", next_raw="")
        tokens, raw = self.tokens, self.raw
        # Built by tuple.__new__, in C: a message of look-alikes asks this at every one of them, and the named tuple's
        # own constructor is a Python function (with keywords, twice as slow again).
        return tuple.__new__(
            Context,
            (
                "" if start < 1 else tokens[start - 1],  # prev
                "" if start < 2 else tokens[start - 2],  # prev2
                "" if end >= len(tokens) else tokens[end],  # next
                not "".join(raw[start:end]).isascii(),  # accented
                "" if start < 1 else raw[start - 1],  # prev_raw
                "" if end >= len(raw) else raw[end],  # next_raw
            ),
        )

    def language(self) -> Language:
        """The message's language, counted once and only when a look-alike or a short misspelling needs it."""
        if self._language is None:
            self._language = Language(self.raw, self.seps)
        return self._language


def _run_words(letters: list[str], gaps: list[str]) -> list[str]:
    """The words a run of single letters spells: the run split at its heaviest gaps, and the pieces glued together
    ("t h r e e  c a r d s": "three", "cards" and "threecards")."""
    weights = {gap: _gap_weight(gap) for gap in set(gaps)}
    lightest = min(weights.values())
    if len(weights) == 1:  # every gap alike: one piece
        return ["".join(letters)]
    # Each gap becomes a space or nothing, and the letters are joined with them in C (a loop here cost a step per
    # letter).
    breaks = {gap: " " if weight > lightest else "" for gap, weight in weights.items()}
    pieces = "".join(map(add, letters, [*map(breaks.__getitem__, gaps), ""])).split(" ")
    return pieces if len(pieces) == 1 else [*pieces, "".join(pieces)]


def _lengths(strings: list[str]) -> bytes:
    """The length of each string, 255 for longer ones, as bytes (built in C: a call per string would cost a
    quarter of a millisecond on a message of a thousand single letters)."""
    try:
        return bytes(map(len, strings))
    except ValueError:  # a string of 256 characters or more: rare enough to cost a step each
        return bytes(min(len(string), 255) for string in strings)


def _has_apostrophe(sep: str) -> bool:
    return "'" in sep or "’" in sep or "´" in sep


def _gap_weight(sep: str) -> int:
    """How much white space a gap holds: "t h r e e  c a r d s" splits at the double space."""
    return len(sep) - len(sep.strip())
