"""Misspelt, respelt and censored number words (policy W2) for the chat filter.

Policy W2 counts "a word that a reader takes for a number word, with one letter added, dropped, doubled, swapped
or replaced, or spelt as spoken, when the result is not itself an ordinary word of English, German, French or
Spanish". This module reads exactly that, for the cardinals 2-99 of the four languages
(:data:`engine._number_words.CARDINALS`, glued compounds such as ``siebenundzwanzig`` and ``thirtyseven``
included):

* **One edit.** A token at Damerau-Levenshtein distance 1 from a number word of at least
  :data:`MIN_LENGTH` letters (``thrity``, ``twlve``, ``soixente``, ``ventidos``, ``dreizig``). The lookup is a
  deletion index (the SymSpell idea): the number words and every word with one letter deleted from them are
  keys of one dict, and a token is looked up together with its own one-letter deletions. That finds
  insertions, deletions, substitutions and swaps with ``len(token) + 1`` dict probes and no per-message
  allocation beyond those strings; the index holds about ten thousand short strings.
* **Spelt as spoken.** A few rewrites turn a phonetic spelling back into the written one before the same
  lookup: German ``-zich``/``-zisch`` for ``-zig`` (``zwanzich``, ``fuffzich``), ``k`` for ``qu``/``c``
  (``katorze``, ``kinze``, ``kuatro``), ``wa`` for ``oi`` (``swasante``), ``b`` for ``v`` (``bentidos``),
  ``ss``/``z`` for ``x`` (``soissante``, ``dizsept``). Dialect spellings further away than that are listed
  in ``engine._number_words`` (``zwoa``, ``fuchzig``).
* **Ordinary words stay.** Every word of the four languages that the two rules above would read as a number
  (``forth``, ``weight``, ``threw``, ``dose``, ``there``, ``neue``, ``fiche``...) is listed in
  ``_misspellings_ordinary.json``, which ``tools/gen_misspelling_exclusions.py`` generates from the Hunspell
  dictionaries of the four languages and the wordfreq frequency lists; such a token never counts.
* **Censor characters.** ``tw*lve``, ``th#rty``: a run of ``*``, ``#`` or ``_`` *between* letters stands for the
  letters it hides (one, or one per character), and the word counts if it is then a number word of at least
  :data:`MIN_LENGTH` letters with at most a third of its letters hidden.

Number words shorter than :data:`MIN_LENGTH` (``two``, ``six``, ``ten``, ``dos``, ``dix``, ``elf``) get no
edit-distance reading: nearly every one-letter change of them is a word (``tow``, ``sex``, ``sit``, ``tan``,
``dis``, ``elk``), and a reader does not take the rest for the number either. Their spellings are listed
explicitly in ``engine._number_words`` (``twoo``, ``sixx``). A misspelt word that is a number in one language and
an ordinary word in another (``nuef``, ``ocne``, ``fuor``) is read like the word itself, through the filter's
context rule (``nuef`` counts, ``tout nuef`` does not; ``sieze the day`` stays English). ``tres``, ``sept`` and
``acht`` are read as written only: their context rules count them by default, and their one-edit neighbours are
mostly other words or typos of them (``trys``, ``tros``, ``sepe``, ``achs``).
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Iterator

from chatfilter._number_words import CARDINALS, FORMS

__all__ = ["MIN_LENGTH", "ORDINARY", "TARGETS", "censored_number", "misspelt_number", "reads_as_number"]

MIN_LENGTH = 4

# Cross-language words whose context rule counts them by default: their one-edit neighbours are mostly other
# words and typos of them ("trys", "tros", "sepe", "achs"), so they are read as written only.
_AS_WRITTEN_ONLY = frozenset(("tres", "sept", "acht"))
TARGETS: frozenset[str] = frozenset(
    w for words in CARDINALS.values() for w in words if len(w) >= MIN_LENGTH and w not in _AS_WRITTEN_ONLY
)


def _deletions(word: str) -> Iterator[str]:
    return (word[:i] + word[i + 1 :] for i in range(len(word)))


def _build_index() -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for target in sorted(TARGETS):
        for key in {target, *_deletions(target)}:
            index.setdefault(key, []).append(target)
    return {key: tuple(targets) for key, targets in index.items()}


# A key is a number word or a number word with one letter deleted; the value lists those number words.
_INDEX: dict[str, tuple[str, ...]] = _build_index()


def _one_change(a: str, b: str) -> bool:
    """Whether two words of the same length differ by one replaced letter or one swap of neighbours."""
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    if len(diff) == 1:
        return True
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _nearest(token: str) -> str | None:
    """A number word of :data:`TARGETS` that ``token`` is, or is one edit away from (Damerau-Levenshtein).

    A word that always counts is preferred to a cross-language one (``once``, ``sept``), whose context rule the
    filter then applies to the misspelling too.
    """
    index = _INDEX
    deletions = [token[:i] + token[i + 1 :] for i in range(len(token))]
    if token not in index and index.keys().isdisjoint(deletions):  # the common case, kept fast
        return None
    found: list[str] = list(index.get(token, ()))  # the token is a number word with a letter dropped
    for key in deletions:
        targets = index.get(key)
        if targets is None:
            continue
        for target in targets:
            # key == target: the token has a letter added; same length: a letter replaced or two swapped.
            if key == target or (len(target) == len(token) and _one_change(target, token)):
                found.append(target)
    if not found:
        return None
    return min(found, key=lambda target: (FORMS[target] != "", target))


# Phonetic spellings, as (pattern, written spelling). Each rewrite is tried on its own, then read like a token.
_SPOKEN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), repl)
    for pattern, repl in (
        (r"(?<=[zs])i(?:ch|sch)(?=$|st|er)", "ig"),  # zwanzich, dreissich, vierzisch, zwanzichster
        (r"k", "qu"),  # katorze, kinze, karante
        (r"k", "c"),  # kuatro, katorce, sinkuenta
        (r"wa", "oi"),  # swasante
        (r"b", "v"),  # bentidos, beintitres
        (r"ss", "x"),  # soissante, dissept
        (r"^di[sz]", "dix"),  # dizuit, disneuf
    )
)
_SPOKEN_HINT = re.compile(r"[zs]i(?:ch|sch)|k|wa|b|ss|^di[sz]")


def _read(token: str) -> str | None:
    """The number word W2's edit and respelling rules read in ``token``, before ordinary words are excluded."""
    if len(token) < MIN_LENGTH:
        return None
    target = _nearest(token)
    if target is not None or _SPOKEN_HINT.search(token) is None:
        return target
    for pattern, repl in _SPOKEN:
        spoken = pattern.sub(repl, token)
        if spoken != token and len(spoken) >= MIN_LENGTH:
            target = spoken if spoken in FORMS else _nearest(spoken)
            if target is not None:
                return target
    return None


def reads_as_number(token: str) -> bool:
    """Whether W2's edit and respelling rules read ``token`` as a number word, *before* ordinary words are
    excluded. The generator of ``_misspellings_ordinary.json`` runs exactly this over a dictionary."""
    return _read(token) is not None


def _load_ordinary() -> frozenset[str]:
    path = pathlib.Path(__file__).with_name("_misspellings_ordinary.json")
    words: list[str] = json.loads(path.read_text(encoding="utf-8"))["words"]
    return frozenset(words)


# Ordinary words of the four languages that reads_as_number() would take for a number word (casefolded and
# accent-stripped like the filter's tokens).
ORDINARY: frozenset[str] = _load_ordinary()


def misspelt_number(token: str) -> str | None:
    """The vocabulary key (see ``engine._number_words.FORMS``) of the number word that a token (casefolded,
    accents stripped) misspells or respells under policy W2, or None: ``""`` for a word that always counts, the
    name of a context rule for a cross-language word (``nuef`` is read like ``neuf``)."""
    if token in ORDINARY:
        return None
    target = _read(token)
    return None if target is None else FORMS[target]


# --- censor characters --------------------------------------------------------------------------------------

_BY_LENGTH: dict[int, str] = {
    length: "\n".join(sorted(w for w in TARGETS if len(w) == length)) for length in {len(w) for w in TARGETS}
}
_CENSOR_RUN_RE = re.compile(r"[^a-z]+")


def censored_number(word: str) -> bool:
    """Whether ``word`` (lower-case ASCII letters, with runs of censor characters between them) is a number word
    whose hidden letters are at most a third of it: ``tw*lve``, ``th##ty``, ``z_anzig``."""
    pieces = _CENSOR_RUN_RE.split(word)
    runs = _CENSOR_RUN_RE.findall(word)
    for per_char in (False, True):
        hidden = sum(len(r) for r in runs) if per_char else len(runs)
        length = sum(map(len, pieces)) + hidden
        if length < MIN_LENGTH or hidden > max(1, length // 3) or length not in _BY_LENGTH:
            continue
        fills = [f"[a-z]{{{len(r)}}}" if per_char else "[a-z]" for r in runs]
        pattern = "".join(p + f for p, f in zip(pieces, [*fills, ""], strict=True))
        if re.search("^" + pattern + "$", _BY_LENGTH[length], re.MULTILINE):
            return True
    return False
