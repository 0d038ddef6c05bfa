"""Misspelt, respelt and censored number words (policy W2) for the chat filter.

Policy W2 counts "a word that a reader takes for a number word, with one letter added, dropped, doubled, swapped
or replaced, or spelt as spoken, when the result is not itself an ordinary word of English, German, French or
Spanish". This module reads exactly that, for the cardinals 2-99 of the four languages
(:data:`chatfilter._number_words.CARDINALS`, glued compounds such as ``siebenundzwanzig`` and ``thirtyseven``
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
  in ``chatfilter._number_words`` (``zwoa``, ``fuchzig``).
* **German spoken and dialect spellings.** Before the same lookup, a German-looking token (one that starts
  like a German number word) is also read as spoken: ``ts``/``tz`` before a vowel for ``z`` (``tsehn``,
  ``tswanzich``; not ``tsch``: ``tschö`` stays), a doubled consonant before a vowel as a single one (``sibbe``;
  not ``viell.``), ``ww`` for ``b`` (``siwwe``), ``m`` for ``b`` after ``i`` (``sieme``), ``m`` for ``n`` before
  ``f`` (``fümf``), the vowel dialects put between ``l``/``n``/``r`` and ``f`` (``fünnef``, ``elef``,
  ``zwölef``), ``d`` for ``t`` after ``ch`` (``achd``), and the dialect endings: a dropped final ``n`` (``siebe``)
  and an added ``e`` (``fümfe``). Each is a sound change a German reader undoes without noticing. The endings
  are read as written unless a sound change showed the spelling is spoken: "sense" is no "sens" one edit from
  "seis".
* **Short number words, in context or alone.** Every replaced letter of a three-letter number word is nearly
  always a word (``tow``, ``sex``, ``tan``, ``elk``), so short words get a narrower reading: a letter added
  anywhere or a swapped pair of a three-letter word or of ``tres``/``sept``/``acht`` (``sixx``, ``tweo``,
  ``trres``, ``sxi``, ``septt``), a dropped letter of a four-letter word (``fve``, ``onc``, ``zwe``) and a dropped
  final letter of a five-letter one. Such a *short reading* is returned separately (:func:`short_misspelling`),
  because it counts in context: the message in the number word's language or a count around it ("me quedan
  trres cartas"), or, when it is no word of any language at all (:data:`SHORT_ALONE`), a message that shows no
  language ("sxi" alone). A short reading that is one edit from a function word of the number's language (``tne``
  for "the", ``dre`` for "der") is the function word's typo, not the number, except in a number slot.
* **Number slots.** Right after an article of the number's language or before a count noun, in a message mainly
  in that language, a reader takes a misspelling for the number even when it is a function word's typo or a rare
  word elsewhere ("ich hab die aht", "tengo el dso"): :data:`SLOT`; so does one beside a count word in a message
  that shows no language ("isx left"). Everyday words of any language and names stay even there ("una dose de
  suerte", "Sven"), except a name that misspells a small number word typed in lower case (``play the tenn``:
  :data:`SLOT_NAMES`).
* **A message of one word.** Alone, a small number word with a letter added, dropped, swapped or moved counts
  unless it is an everyday word of some language (:data:`LONE`: "sies", "dri", "aht" alone; "tow", "Sven" stay).
* **Ordinary words stay.** Every word of the four languages that the two rules above would read as a number
  (``forth``, ``weight``, ``threw``, ``dose``, ``there``, ``neue``, ``fiche``...) is listed in
  ``_misspellings_ordinary.json``, which ``tools/gen_misspelling_exclusions.py`` generates from the Hunspell
  dictionaries of the four languages and the wordfreq frequency lists; such a token never counts. A short
  reading is excluded by the dictionary words only: a word that only the frequency lists know (a foreign word,
  an abbreviation, a typo) is no reason to doubt a short number word that its context confirms.
* **Censor characters.** ``tw*lve``, ``th#rty``: a run of ``*``, ``#`` or ``_`` *between* letters stands for the
  letters it hides; ``chatfilter._censored`` reads them against the same number words.

The short reading also takes a letter moved in a four- or five-letter number word (``svene``, ``zewi``): a reader
sees the word through it as through a swapped pair.

Number words shorter than :data:`MIN_LENGTH` (``two``, ``six``, ``ten``, ``dos``, ``dix``, ``elf``) get only the
short reading, in context: nearly every other one-letter change of them is a word (``tow``, ``sex``, ``sit``,
``tan``, ``dis``, ``elk``). A misspelt word that is a number in one language and
an ordinary word in another (``nuef``, ``ocne``, ``fuor``) is read like the word itself, through the filter's
context rule (``nuef`` counts, ``tout nuef`` does not; ``sieze the day`` stays English). ``tres``, ``sept`` and
``acht`` get no general edit reading either: their context rules count them by default, and their one-edit
neighbours are mostly other words or typos of them (``trys``, ``tros``, ``sepe``, ``achs``).
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Iterator

from chatfilter._language import COMMON, FUNCTION_WORDS
from chatfilter._number_words import CARDINALS, FORMS, RESPELT

__all__ = [
    "FREQUENT_ONLY",
    "LONE",
    "MIN_LENGTH",
    "ORDINARY",
    "SHORT",
    "SHORT_ALONE",
    "SHORT_MAX",
    "SLOT",
    "SLOT_NAMES",
    "TARGETS",
    "misspelt_number",
    "name_misspelling",
    "reads_as_number",
    "short_misspelling",
    "slot_misspelling",
]

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


# One edit changes at most two neighbouring letters, so a token of _LONG letters or more that is one edit from a
# number word has that word's first three or last three letters, and its length within one of that word's: most
# long words need no dictionary probe. A sized key is the three letters and the length as one character.
_LONG = 8
_HEADS = frozenset(t[:3] for t in TARGETS if len(t) >= _LONG - 1)
_TAILS = frozenset(t[-3:] for t in TARGETS if len(t) >= _LONG - 1)
_SIZED_HEADS = frozenset(t[:3] + chr(n) for t in TARGETS if len(t) >= _LONG - 1 for n in range(len(t) - 1, len(t) + 2))
_SIZED_TAILS = frozenset(t[-3:] + chr(n) for t in TARGETS if len(t) >= _LONG - 1 for n in range(len(t) - 1, len(t) + 2))
# A token with a letter added is at most one letter longer than the longest number word: a longer one is never
# probed, so the probe's deletions (each a copy of the token) cost at most this length squared, whatever the message.
_MAX_PROBED = max(map(len, TARGETS)) + 1


def _one_edit_neighbours(word: str) -> set[str]:
    """Every other word one insertion, deletion, replacement (of a letter a-z) or swap of neighbours away."""
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    near = {a + b[1:] for a, b in cuts if b}
    near |= {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    near |= {a + c + b[1:] for a, b in cuts if b for c in _LETTERS}
    near |= {a + c + b for a, b in cuts for c in _LETTERS}
    near.discard(word)
    return near


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Every ASCII word of MIN_LENGTH to _LONG - 1 letters that is a number word of TARGETS or one edit from one (about
# 25,000 strings, 2.5 MB): such a token is then one set probe, where the index costs a copy of the token per letter.
_NEAR_SHORT: frozenset[str] = frozenset(
    v for t in TARGETS if len(t) <= _LONG for v in (t, *_one_edit_neighbours(t)) if MIN_LENGTH <= len(v) < _LONG
)


def _may_be_near(token: str) -> bool:
    """False for a word that :func:`_nearest` rejects at a glance: one set probe or two, and no copy of the word.
    The rewrites ask this before they call _nearest, so that the forms it rejects cost one call instead of two."""
    if len(token) < _LONG:
        # A letter of another script may be the replaced one ("thrжe"): only the index below reads that.
        return token in _NEAR_SHORT or not token.isascii()
    # A long word one edit from a number word keeps its first or its last three letters, and about its length.
    length = chr(len(token))
    return token[:3] + length in _SIZED_HEADS or token[-3:] + length in _SIZED_TAILS


def _nearest(token: str) -> str | None:
    """A number word of :data:`TARGETS` that ``token`` is, or is one edit away from (Damerau-Levenshtein).

    A word that always counts is preferred to a cross-language one (``once``, ``sept``), whose context rule the
    filter then applies to the misspelling too.
    """
    if not token.isascii() and len(token) - len(token.encode("ascii", "ignore")) > 1:
        return None  # one edit brings in one letter of another script at most, and every number word is ASCII
    if not _may_be_near(token):
        return None
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


# Phonetic spellings, as (a substring the rewrite needs, its pattern, the written spelling). Each rewrite is tried
# on its own, then read like a token. The patterns are multi-line (a word holds no line break, so "^" and "$" read
# the same): chatfilter._screen applies them to many words at once, joined by line breaks. A rewrite without a
# pattern replaces its substring literally: str.replace reads the same as the regex and costs a fraction of it,
# which matters for a message of distinct words holding "k" or "b".
_SPOKEN: tuple[tuple[str, re.Pattern[str] | None, str], ...] = tuple(
    (needs, None if pattern is None else re.compile(pattern, re.MULTILINE), repl)
    for needs, pattern, repl in (
        # zwanzich, dreissich, vierzisch, zwanzichster; "i" first, then the look-behind (see _ZICH_RE)
        ("ch", r"i(?<=[zs]i)(?:ch|sch)(?=$|st|er)", "ig"),
        ("k", None, "qu"),  # katorze, kinze, karante
        ("k", None, "c"),  # kuatro, katorce, sinkuenta
        ("wa", None, "oi"),  # swasante
        ("b", None, "v"),  # bentidos, beintitres
        ("ss", None, "x"),  # soissante, dissept
        ("di", r"^di[sz]", "dix"),  # dizuit, disneuf
    )
)

# Whether any of the rewrites above may apply (a substring each needs): most words hold none.
_SPOKEN_HINT_RE = re.compile("|".join(re.escape(needs) for needs, _, _ in _SPOKEN))
_MAX_SPOKEN = 2 * max(_MAX_PROBED, *map(len, FORMS))

# German sound changes, undone one after the other (see the module docstring, and _undo_german_sounds).
_TS_RE = re.compile(r"t[sz](?=[aeiouwy])")  # tsehn, tswanzich: z is spoken ts (not "tsch", as in tschö)
# Multi-line like _SPOKEN's patterns (chatfilter._screen undoes the sound changes of many words at once). Each
# starts with a letter and looks behind it afterwards: a pattern that starts with a look-behind is tried at every
# character, one that starts with a letter only where that letter stands (a tenth of the time on a long text).
_ZICH_RE = re.compile(r"i(?<=[zs]i)(?:ch|sch)(?=$|st|er)", re.MULTILINE)  # tswanzich: with the others, as in _SPOKEN
# sibbe, fünnef (not viell., "vielleicht"): the first of the two goes, which needs no template ("\1"), the slow kind
# of replacement
_DOUBLED_RE = re.compile(r"([bdfglmnprst])(?=\1[aeiou])")
_SIEBM_RE = re.compile(r"bm|m(?<=im)m*(?=e?$)", re.MULTILINE)  # siebm, sieme, simme
# fünef, elef, zwölef: the vowel dialects put before f. "ef" is searched for as a literal (an "e" alone stands
# at every fifth character of a text), and the look-behind asked only where it stands.
_LEF_RE = re.compile(r"ef(?<=[lnr]ef)")


def _undo_german_sounds(token: str) -> str:
    """``token`` with every German sound change undone, in this order. A change whose letters are absent is skipped
    (a substring test costs a tenth of a regex that finds nothing), and the literal ones are str.replace: a word
    holding every trigger costs a third of twelve substitutions."""
    spoken = token
    if "ts" in spoken or "tz" in spoken:
        spoken = _TS_RE.sub("z", spoken)
    if "ch" in spoken:
        spoken = _ZICH_RE.sub("ig", spoken)
    if "ww" in spoken:
        spoken = spoken.replace("ww", "b")  # siwwe (Palatine sieben)
    spoken = _DOUBLED_RE.sub("", spoken)
    if "m" in spoken:
        spoken = _SIEBM_RE.sub("b", spoken)
        spoken = spoken.replace("mf", "nf")  # fümf, fümfe: n spoken m before f
    if "ef" in spoken:
        spoken = _LEF_RE.sub("f", spoken)
    return spoken.replace("chd", "cht")  # achd, achdzig


# Whether any of the sound changes above applies: most tokens have none of them.
_DE_SPOKEN_HINT = re.compile(r"t[sz][aeiouwy]|[zs]i(?:ch|sch)|ww|([bdfglmnprst])\1[aeiou]|bm|im+e?$|mf|[lnr]ef|chd")
# Tokens that start like a German number word (accents stripped), or like its "ts" spelling.
_DE_STARTS = frozenset(w[:2] for w in CARDINALS["de"]) | {"ts", "tz", "fi", "fo"}


def _german_spoken(token: str) -> str | None:
    """The number word a German spoken or dialect spelling stands for (``fünnef``, ``tsehn``, ``siwwe``)."""
    spoken = _undo_german_sounds(token) if _DE_SPOKEN_HINT.search(token) else token
    changed = spoken != token
    # The dialect endings (siebe: a dropped n; fümfe: an added e) are read as written only, unless a sound change
    # showed the word is spoken: "sense" is no "sens" one edit from "seis", "forthe" no "forth" from "forty".
    endings = [spoken]
    if spoken.endswith("e"):
        endings += [spoken + "n", spoken[:-1]]
    elif spoken.endswith("eh"):
        endings.append(spoken + "n")  # dreizeh
    for form in endings:
        if form == token:
            continue
        if form in FORMS:  # elef -> elf: an exact reading may be a short word
            return form
        target = _nearest(form) if changed and len(form) >= MIN_LENGTH and _may_be_near(form) else None
        if target is not None:
            return target
    return None


def _read(token: str) -> str | None:
    """The number word W2's edit and respelling rules read in ``token``, before ordinary words are excluded."""
    if len(token) < MIN_LENGTH:
        return None
    target = _nearest(token)
    if target is not None:
        return target
    if token[:2] in _DE_STARTS:
        target = _german_spoken(token)
        if target is not None:
            return target
    if len(token) > _MAX_SPOKEN or not _SPOKEN_HINT_RE.search(token):
        return None  # no rewrite below more than halves a word, so none brings this one within reach
    for needs, pattern, repl in _SPOKEN:
        if needs not in token:
            continue
        spoken = token.replace(needs, repl) if pattern is None else pattern.sub(repl, token)
        if spoken != token and len(spoken) >= MIN_LENGTH:
            if spoken in FORMS:
                return spoken
            target = _nearest(spoken) if _may_be_near(spoken) else None
            if target is not None:
                return target
    return None


# --- short number words ---------------------------------------------------------------------------------------

_LANGUAGES_OF: dict[str, tuple[str, ...]] = {}
for _lang, _words in CARDINALS.items():
    for _w in _words:
        _LANGUAGES_OF[_w] = (*_LANGUAGES_OF.get(_w, ()), _lang)


def _short_variants(word: str) -> set[str]:
    """The spellings a short reading takes for ``word``: a letter added anywhere or a swapped pair (three-letter
    words and the as-written-only ones), a dropped letter (four letters: the result is too short for the general
    one-edit reading), a dropped final letter (five letters), and for four and five letters one letter after the
    first moved elsewhere ("svene": a reader still sees the word, as with a swap)."""
    variants = set()
    if 4 <= len(word) <= 5:
        for i in range(1, len(word)):
            rest = word[:i] + word[i + 1 :]
            variants |= {rest[:j] + word[i] + rest[j:] for j in range(1, len(word))}
    if len(word) == 4:
        variants |= {word[:i] + word[i + 1 :] for i in range(len(word))}
    elif len(word) == 5:
        variants.add(word[:-1])
    if len(word) == 3 or word in _AS_WRITTEN_ONLY:
        variants |= {word[:i] + c + word[i:] for i in range(len(word) + 1) for c in _LETTERS}
        variants |= {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    return {v for v in variants if len(v) >= 3 and v != word}


def _build_short() -> tuple[dict[str, str], dict[str, str]]:
    """The short readings, and apart from them those that are also a typo of a function word ("aht": "hat")."""
    # The typos of each language's function words: a set is checked once per variant, not once per word and
    # variant. Built here and dropped after: about 10 MB that no message needs.
    function_word_typos = {
        lang: frozenset(t for word in words for t in _one_edit_neighbours(word))
        for lang, words in FUNCTION_WORDS.items()
    }
    readings: dict[str, str] = {}
    typos: dict[str, str] = {}
    for target, langs in sorted(_LANGUAGES_OF.items()):
        if not 3 <= len(target) <= 5 or target in RESPELT:
            continue
        for variant in sorted(_short_variants(target)):
            # "sixx" is the filter's doubled-last-letter reading already, "sexx" no short reading at all.
            doubled_last = variant[-1] == variant[-2] and FORMS.get(variant[:-1]) == ""
            if variant in FORMS or variant in readings or doubled_last or _read(variant) is not None:
                continue
            if not any(variant in function_word_typos[lang] for lang in langs):
                readings[variant] = target
            else:
                typos.setdefault(variant, target)
    return readings, {v: t for v, t in typos.items() if v not in readings}


# A short reading (before ordinary words are excluded) and the number word it stands for: "trres" -> "tres"; and
# the short readings that are a function word's typo too, read only in a number slot (see SLOT below).
_SHORT_READINGS, _TYPO_READINGS = _build_short()


def reads_as_number(token: str) -> bool:
    """Whether W2's edit and respelling rules read ``token`` as a number word, *before* ordinary words are
    excluded. The generator of ``_misspellings_ordinary.json`` runs exactly this over a dictionary."""
    return token in _SHORT_READINGS or token in _TYPO_READINGS or _read(token) is not None


def _load_ordinary() -> tuple[
    frozenset[str], frozenset[str], dict[str, tuple[str, ...]], frozenset[str], frozenset[str]
]:
    path = pathlib.Path(__file__).with_name("_misspellings_ordinary.json")
    table = json.loads(path.read_text(encoding="utf-8"))
    # The generator imports this module before it has written "home", "names" and "everyday" for the first time.
    home = {word: tuple(langs) for word, langs in table.get("home", {}).items()}
    names, everyday = frozenset(table.get("names", ())), frozenset(table.get("everyday", ()))
    return frozenset(table["words"]), frozenset(table["frequent_only"]), home, names, everyday


# Ordinary words of the four languages that reads_as_number() would take for a number word (casefolded and
# accent-stripped like the filter's tokens), and those of them that no dictionary has, only the frequency lists
# (``tre``, ``sep``: foreign words, abbreviations, typos); the languages each is an everyday word of (a dictionary
# word in lower case, or common there), those a dictionary knows only capitalized (names: ``Sven``, ``Tenn``), and
# those common in some language (wordfreq, names included).
ORDINARY, FREQUENT_ONLY, HOME, NAMES, EVERYDAY = _load_ordinary()

# The short readings that no dictionary has: the token and the number word it stands for. A word only the
# frequency lists know ("tre": Italian, and a French typo of "très") still reads as the number in context
# ("me quedan tre cartas"): the context is what makes a short reading unambiguous.
SHORT: dict[str, str] = {
    variant: target
    for variant, target in _SHORT_READINGS.items()
    if (variant not in ORDINARY or variant in FREQUENT_ONLY) and variant not in COMMON
}


# The longest short misspelling ("ttres", "septt"): longer tokens need no look.
SHORT_MAX = max(map(len, SHORT), default=0)


def _build_slot() -> dict[str, str]:
    """The misspellings that count only in a number slot, with the number word they stand for: those that are
    an everyday word of no language, only a rare one ("troi", "zhen") and no name, and the short readings that are
    a function word's typo too ("aht", "dso"). An everyday word of another language stays even there ("una dose")."""
    slot: dict[str, str] = {}
    for token in sorted(ORDINARY | _TYPO_READINGS.keys()):
        target = _SHORT_READINGS.get(token) or _TYPO_READINGS.get(token) or _read(token)
        if target and target in _LANGUAGES_OF and token not in NAMES and not HOME.get(token):
            slot[token] = target
    return slot


# A number slot is a message mainly in the number word's language with a count cue right beside the word ("j'ai
# le troi", "die zhen liegt", "tengo el dso"): there a reader takes the misspelling for the number.
SLOT: dict[str, str] = _build_slot()

# The names that are a short number word with a letter added, dropped or swapped ("tenn", "sten"): typed in lower
# case in a number slot they are the number ("play the tenn"); capitalized, or outside a slot, the name.
SLOT_NAMES: dict[str, str] = {
    token: target
    for token in sorted(NAMES)
    if (target := _SHORT_READINGS.get(token) or _TYPO_READINGS.get(token) or "") in _LANGUAGES_OF
}


def _added_dropped_or_swapped(token: str, word: str) -> bool:
    if len(token) == len(word) + 1:
        return word in _deletions(token)
    if len(token) == len(word) - 1:
        return token in _deletions(word)
    return len(token) == len(word) and token != word and _one_change(token, word) and sorted(token) == sorted(word)


def _build_lone() -> dict[str, str]:
    """The misspellings that count as a message of their own: a small number word (five letters at most) with a
    letter added, dropped or swapped that is no everyday word of any language (a rare dictionary word, a function
    word's typo, a foreign word: "sies", "dri", "aht", "zhen"). A replaced letter is too often another rare word."""
    lone: dict[str, str] = {}
    for token in sorted(ORDINARY | _TYPO_READINGS.keys()):
        target = _SHORT_READINGS.get(token) or _TYPO_READINGS.get(token) or _read(token)
        if (
            target
            and len(target) <= 5
            and target in FORMS
            and token not in EVERYDAY
            and _added_dropped_or_swapped(token, target)
        ):
            lone[token] = target
    return lone


# A message of one word is the answer to "which card?": there a misspelling counts unless it is an everyday word
# of some language ("sies" alone is "seis"; "tow" or "Sven" alone stay).
LONE: dict[str, str] = _build_lone()


def name_misspelling(token: str) -> tuple[str, tuple[str, ...]]:
    """The number word a name of :data:`SLOT_NAMES` stands for in a number slot, with its languages."""
    target = SLOT_NAMES[token]
    return target, _LANGUAGES_OF[target]


def slot_misspelling(token: str) -> tuple[str, tuple[str, ...]]:
    """The number word a slot reading (a token of :data:`SLOT`) stands for, with its languages."""
    target = SLOT[token]
    return target, _LANGUAGES_OF[target]


# The short readings that may count in a message that shows no language at all ("sxi", "fve" alone): no word of
# the four languages, not even one that only the frequency lists know.
SHORT_ALONE: frozenset[str] = frozenset(v for v in SHORT if v not in ORDINARY)


def short_misspelling(token: str) -> tuple[str, tuple[str, ...]]:
    """The number word a short reading (a token of :data:`SHORT`) takes ``token`` for, with its languages:
    ``trres`` -> ``tres``, Spanish. It counts in context, which the filter judges."""
    target = SHORT[token]
    return target, _LANGUAGES_OF[target]


def misspelt_number(token: str) -> str | None:
    """The vocabulary key (see ``chatfilter._number_words.FORMS``) of the number word that a token (casefolded,
    accents stripped) misspells or respells under policy W2, or None: ``""`` for a word that always counts, the
    name of a context rule for a cross-language word (``nuef`` is read like ``neuf``)."""
    if token in ORDINARY:
        return None
    target = _read(token)
    return None if target is None else FORMS[target]
