"""Number-word vocabulary (values 2-99) for the chat filter, in English, German, French and Spanish.

The vocabulary is generated here, at import, from small per-language tables (units, teens, tens and how a
language glues them together), instead of shipping a flat list produced by a library such as num2words:

* the filter needs far more than the 98 dictionary spellings per language: glued compounds (``thirtyseven``,
  ``dixsept``), accent-less and transliterated spellings (``funf``/``fuenf``, ``dreissig``, ``veintitres``),
  plurals and decades (``sixes``, ``thirties``, ``Dreißigern``), approximations (``trentaine``), German
  number nouns (``Zehner``), inflected and dialect forms (``viere``, ``zwoa``) and a few common misspellings
  (``fourty``; ``chatfilter._misspellings`` reads the rest from :data:`CARDINALS`). Those are rules over the tables, so
  the tables plus the rules are shorter and easier to review than the thousands of strings they expand to;
* nothing is needed at run time beyond the standard library.

``tools/gen_number_word_fixture.py`` writes the num2words spellings of 2-99 for the four languages into a
test fixture (``tests/chatfilter/chat_filter_num2words.json``), and the tests check that every one of them is
caught; that keeps these tables honest without making num2words a dependency.

Every key of :data:`FORMS` is casefolded and accent-stripped (``ß`` is already ``ss`` after casefolding). The
value is ``""`` for a word that always counts, or the name of a context rule for words that are numbers in
one language and ordinary words in another (``once``, ``seize``, ``elf``, ``neuf``...), see
``chatfilter._context``.
"""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "CARDINALS",
    "DE_ER_COMPOUND_RE",
    "DE_ER_STARTS",
    "FORMS",
    "LARGE_CORE",
    "LARGE_SPLIT_RE",
    "LARGE_WORDS",
    "PREFIXES",
    "RESPELT",
    "has_large_word",
    "trie_pattern",
]

# --- English -------------------------------------------------------------------------------------------

_EN_UNITS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")
_EN_TEENS = (
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
# Misspellings and phonetic respellings a reader still reads as the number (policy W2); deliberately a short
# explicit list: fuzzy matching would turn forth/weight/threw into forty/eight/three.
_EN_TEENS_MISSPELT = ("fiveteen", "ninteen", "eightteen", "eigthteen", "twelv", "thirtteen", "fourten", "forteen")
_EN_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_EN_TENS_MISSPELT = ("fourty", "fivety", "fitty", "fiddy", "ninty", "nintey", "tweny", "twenny", "eigthy", "eigty")
# Dialect spellings more than one letter away from the standard word (New York "thoity").
_EN_DIALECT = ("thoity", "thoiteen", "toity")
_EN_UNIT_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def _en_cardinals() -> list[str]:
    tens = _EN_TENS + _EN_TENS_MISSPELT
    compounds = [t + u for t in tens for u in ("one", *_EN_UNITS)]
    return [*_EN_UNITS, *_EN_TEENS, *_EN_TEENS_MISSPELT, *tens, *compounds]


def _english() -> Iterable[str]:
    units = _EN_UNITS
    teens = _EN_TEENS + _EN_TEENS_MISSPELT
    tens = _EN_TENS + _EN_TENS_MISSPELT
    # "thirty-seventh" counts through "thirty"; glued it is one token, so it needs its own forms.
    compound_ordinals = [t + o for t in tens for o in _EN_UNIT_ORDINALS]
    cardinals = _en_cardinals()
    yield from cardinals
    yield from compound_ordinals
    yield from (w + "ish" for w in cardinals)
    yield from (u + ("es" if u.endswith("x") else "s") for u in units)
    yield from (t + "s" for t in teens)
    yield from (t[:-1] + "ies" for t in tens)
    yield from (w + "fold" for w in (*units, *teens, *tens))
    yield from (u + s for u in units for s in ("some", "somes"))
    yield from (t + s for t in tens for s in ("something", "somethings"))
    yield from ("teens", "fiver", "fivers", "tenner", "tenners", "niner", "niners", "sixer", "sixers")
    yield from _EN_DIALECT


# --- German --------------------------------------------------------------------------------------------


_UMLAUT_SPELLINGS = (("funf", "fuenf"), ("zwolf", "zwoelf"))


def _umlaut_variants(word: str) -> tuple[str, ...]:
    """``fünf`` is typed fünf, fuenf or funf; accent stripping turns fünf into funf, so add fuenf."""
    return (word, *(word.replace(a, b) for a, b in _UMLAUT_SPELLINGS if a in word))


_DE_UNITS = ("zwei", "zwo", "drei", "vier", "funf", "sechs", "sieben", "acht", "neun")
_DE_TEENS = (
    "zehn",
    "elf",
    "zwolf",
    "dreizehn",
    "vierzehn",
    "funfzehn",
    "sechzehn",
    "sechszehn",
    "siebzehn",
    "siebenzehn",
    "achtzehn",
    "neunzehn",
)
_DE_TENS = (
    "zwanzig",
    "dreissig",
    "dreisig",
    "vierzig",
    "funfzig",
    "fuffzig",
    "sechzig",
    "sechszig",
    "siebzig",
    "siebenzig",
    "achtzig",
    "neunzig",
)
# German glues suffixes onto numbers: Zehner, Dreißigern, zweimal, dreifach, zweistellig, zweierlei.
_DE_SUFFIXES = ("er", "ern", "ers", "erin", "erinnen", "erlei", "mal", "malig", "fach", "stellig", "teilig", "seitig")
_DE_ORDINAL_SUFFIXES = ("ste", "sten", "ster", "stes", "stem")


def _expand_umlauts(words: Iterable[str]) -> list[str]:
    return [v for w in words for v in _umlaut_variants(w)]


def _de_compounds() -> list[str]:
    return [u + "und" + t for u in ("ein", *_expand_umlauts(_DE_UNITS)) for t in _expand_umlauts(_DE_TENS)]


def _de_cardinals() -> list[str]:
    return [*_expand_umlauts((*_DE_UNITS, *_DE_TEENS, *_DE_TENS)), *_de_compounds()]


# Inflected forms of idioms and dialect: "alle viere von sich strecken", "auf allen Vieren", "fünfe gerade sein
# lassen", "um zehne", "zu zweien". Not for "acht" (achte, achten: an ordinal and a verb) nor "elf" (Elfe,
# Elfen: fairies).
_DE_INFLECTED = ("zwei", "drei", "vier", "funf", "sechs", "sieben", "neun", "zehn", "zwolf")
# Dialect spellings (Bavarian, Swiss, Berlin) that are more than one letter away from the standard word.
_DE_DIALECT = ("zwoa", "zwee", "fimf", "fimfe", "fuchzig", "fuchzg", "fufzg", "fuffzg", "drissg", "neine", "sibe")


def _german() -> Iterable[str]:
    cardinals = _de_cardinals()
    yield from cardinals
    yield from (w + s for w in cardinals if w != "zwo" for s in _DE_SUFFIXES)
    yield from (w + s for w in _expand_umlauts(_DE_INFLECTED) for s in ("e", "en"))
    yield from _DE_DIALECT
    compounds = _de_compounds()
    # Simple ordinals (zweite, zwanzigste) are allowed (policy X6); compound ones contain a 20-90 part.
    yield from (w + s for w in compounds for s in _DE_ORDINAL_SUFFIXES)


# "zu zweit", "zu dritt": only a number after "zu" (context rule "zu" in the filter).
_DE_ZU_FORMS = ("zweit", "dritt", "viert", "funft", "fuenft", "sechst", "siebt", "neunt", "zehnt", "elft", "zwolft")

# --- French --------------------------------------------------------------------------------------------

_FR_UNITS = ("deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf")
_FR_TEENS = ("dix", "onze", "douze", "treize", "quatorze", "quinze", "seize")
_FR_TENS = ("vingt", "trente", "quarante", "cinquante", "soixante", "septante", "huitante", "octante", "nonante")
_FR_ONES = ("un", *_FR_UNITS)


def _french_compounds() -> Iterable[str]:
    """Glued spellings of the hyphen/space compounds (``dixsept``, ``vingtetun``, ``quatrevingtdix``).

    Written apart, each part is a number word already, so only the glued forms need listing.
    """
    seventeen_to_nineteen = ("dixsept", "dixhuit", "dixneuf")
    yield from seventeen_to_nineteen
    for ten in (*_FR_TENS, "quatrevingt"):
        for one in _FR_ONES:
            if one == "un":
                yield ten + "etun"
                yield ten + "un"
            else:
                yield ten + one
    for ten in ("soixante", "quatrevingt"):
        for teen in (*_FR_TEENS, *seventeen_to_nineteen):
            yield ten + teen
            yield ten + "et" + teen
    yield from ("quatrevingt", "quatrevingts", "vingts")


_FR_ORDINAL_STEMS = {"cinq": "cinqu", "neuf": "neuv", "quatre": "quatr", "onze": "onz", "douze": "douz"}
_FR_ORDINAL_STEMS |= {"treize": "treiz", "quatorze": "quatorz", "quinze": "quinz", "seize": "seiz"}


def _french_ordinal(cardinal: str) -> str:
    """``vingtsept`` -> ``vingtseptieme``: the last part takes the ordinal ending."""
    for last, stem in _FR_ORDINAL_STEMS.items():
        if cardinal.endswith(last):
            return cardinal[: -len(last)] + stem + "ieme"
    return cardinal + "ieme"


def _fr_cardinals() -> list[str]:
    return [*_FR_UNITS, *_FR_TEENS, *_FR_TENS, *_french_compounds()]


def _french() -> Iterable[str]:
    yield from _fr_cardinals()
    compounds = list(_french_compounds())
    # Glued compound ordinals ("vingtseptième"); written apart, "vingt" already counts.
    yield from (_french_ordinal(c) for c in compounds if c not in ("vingts", "quatrevingt", "quatrevingts"))
    # Approximations ("une trentaine"). "douzaine" is "dozen", which the policy keeps (X7).
    approx = ["dizaine", "huitaine", "neuvaine", "quinzaine", "vingtaine", "trentaine", "cinquantaine"]
    approx += ["soixantaine", "sizaine", "sixaine"]
    yield from approx
    yield from (a + "s" for a in approx)
    yield "quat"  # spoken "quatre" before a consonant: "l'opéra de quat'sous", "quat'cents"
    # Number nouns in the plural ("deux quatres", "les huits"). Not "neufs" (new) nor "septs" and "seizes".
    yield from (w + "s" for w in ("quatre", "cinq", "huit", "onze", "douze", "treize", "quatorze", "quinze"))
    yield from (w + "s" for w in ("trente", "quarante", "cinquante", "soixante"))


# --- Spanish -------------------------------------------------------------------------------------------

_ES_UNITS = ("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve")
_ES_TEENS = (
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciseis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
)
_ES_TWENTIES = tuple("veinti" + u for u in ("uno", "un", "una", *_ES_UNITS))
_ES_TENS = ("veinte", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa")
_ES_MISSPELT = (
    "sinco",
    "sincuenta",
    "beinte",
    "beintidos",
    "quatro",
    "nuebe",
    "diesiseis",
    "diesisiete",
    "diesiocho",
    "diesinueve",
    "dieziseis",
    # Seseo spellings, common in Latin American chat.
    "catorse",
    "quinse",
    "trese",
    "onse",
    "veintisinco",
)


_ES_TENS_ORDINALS = (
    "vigesim",
    "trigesim",
    "cuadragesim",
    "quadragesim",
    "quincuagesim",
    "sexagesim",
    "septuagesim",
    "octogesim",
    "nonagesim",
)


def _es_compounds() -> list[str]:
    return [t + y + u for t in _ES_TENS[1:] for y in ("y", "i") for u in ("uno", "un", "una", *_ES_UNITS)]


def _spanish() -> Iterable[str]:
    cardinals = [*_ES_UNITS, *_ES_TEENS, *_ES_TWENTIES, *_ES_TENS, *_ES_MISSPELT]
    yield from cardinals
    yield from _es_compounds()
    # Plurals ("los treintas", "tengo dos sietes"). "doses" is left out: it is the English word.
    yield from (w + ("es" if w[-1] in "sz" else "s") for w in cardinals if w not in ("dos", "tres", "once"))
    yield from ("treses", "dieces")
    approx = ("decena", "quincena", "veintena", "treintena", "cuarentena", "cincuentena")
    yield from approx
    yield from (a + "s" for a in approx)
    for t in ("cuarent", "cincuent", "sesent", "setent", "ochent", "novent"):
        yield from (t + s for s in ("on", "ona", "ones", "onas"))
    for t in ("veinte", "treint", "cuarent"):
        yield from (t + s for s in ("anero", "anera", "aneros", "aneras"))
    # "veintitantos", "treinta y pico": twenty-something, thirty-odd.
    vague = ("tantos", "tantas", "pico", "picos", "algo")
    yield from ("veinti" + v for v in vague)
    yield from (t + y + v for t in _ES_TENS[1:] for y in ("y", "i") for v in vague)
    # Compound ordinals ("vigésimo séptimo", also glued): no pile-naming use, unlike the simple ones (X6).
    for tens in _ES_TENS_ORDINALS:
        for unit in ("primer", "segund", "tercer", "cuart", "quint", "sext", "septim", "setim", "octav", "noven"):
            yield from (tens + g + unit + g for g in "oa")
        yield from (tens + "oprimer", tens + "otercer")  # apocope before a noun: "vigésimo primer lugar"
    # 200-900 contain a 2-9 part ("two hundred" counts through "two").
    for h in ("dos", "tres", "cuatro", "quinien", "seis", "sete", "siete", "ocho", "nove", "nueve"):
        stem = h if h == "quinien" else h + "cien"
        yield from (stem + "tos", stem + "tas")


# Ambiguous words: numbers in one language, ordinary words in another. The filter decides by context.
_AMBIGUOUS = {
    "once": "once",  # English "once" vs Spanish 11
    "onces": "once",
    "seize": "seize",  # English verb vs French 16
    "elf": "elf",  # English elf vs German 11
    "neuf": "neuf",  # French 9 vs "new"
    "tres": "tres",  # Spanish 3 vs French "très" typed without the accent
    "dos": "dos",  # Spanish 2 vs French "le dos" (back), English "dos and don'ts"
    "quince": "quince",  # Spanish 15 vs the English fruit
    "quinces": "quince",
    "sept": "sept",  # French 7 vs English "Sept" (September)
    "acht": "acht",  # German 8 vs "gib acht" (pay attention)
    "ten": "ten",  # English 10 vs Spanish "ten cuidado" (be careful)
    "four": "four",  # English 4 vs French "au four" (oven)
    # "une quarantaine de cartes" (about forty) vs "en quarantaine" (in quarantine); Spanish alike.
    "quarantaine": "quarantine",
    "quarantaines": "quarantine",
    "cuarentena": "quarantine",
    "cuarentenas": "quarantine",
}


def _build_forms() -> dict[str, str]:
    forms: dict[str, str] = {}
    for gen in (_english(), _german(), _french(), _spanish()):
        for word in gen:
            forms.setdefault(word, "")
    for word in _DE_ZU_FORMS:
        forms[word] = "zu"
    forms.update(_AMBIGUOUS)
    # Simple ordinals (X6), "one" words (X4) and hundred/thousand (X5) are never generated.
    return forms


FORMS: dict[str, str] = _build_forms()

# The cardinals 2-99 of each language as one token (glued compounds, accent-stripped, with the listed spellings
# of FORMS): the words whose misspellings chatfilter._misspellings reads (policy W2).
CARDINALS: dict[str, tuple[str, ...]] = {
    "en": tuple(_en_cardinals()),
    "de": tuple(_de_cardinals()),
    "fr": tuple(_fr_cardinals()),
    "es": (*_ES_UNITS, *_ES_TEENS, *_ES_TWENTIES, *_ES_TENS, *_ES_MISSPELT, *_es_compounds()),
}

# The listed misspellings and dialect spellings among the cardinals: a misspelling of them is two edits away from
# the number word, which W2 does not read.
RESPELT: frozenset[str] = frozenset(
    (*_EN_TEENS_MISSPELT, *_EN_TENS_MISSPELT, *_ES_MISSPELT, *_EN_DIALECT, *_DE_DIALECT)
)

# Every proper prefix of a form, so that joining split fragments ("thir ty", "th**ree**") can stop early.
PREFIXES: frozenset[str] = frozenset(w[:i] for w in FORMS for i in range(1, len(w)))

# Numbers above 99 written as one token: the parts around hundred/thousand must all be number words and at
# least one of them a 2-99 word (zweihundert, hundertsiebenunddreissig, doscientos is in FORMS already).
# "hunnert" is the spoken German hundert (nd assimilated to nn), common in dialect chat.
LARGE_WORDS = (
    *("hundred", "thousand", "hundert", "hunnert", "tausend"),
    *("cents", "cent", "mille", "mil", "cien", "ciento"),
)
LARGE_SPLIT_RE = re.compile("|".join(sorted(LARGE_WORDS, key=len, reverse=True)))
# The large words that hold no other one ("mil" is in "mille", "cent" in "cents"): a text holds a large word if and
# only if it holds one of these.
LARGE_CORE = tuple(sorted(w for w in LARGE_WORDS if not any(o != w and o in w for o in LARGE_WORDS)))


def has_large_word(text: str) -> bool:
    """Whether ``text`` holds a large number word anywhere (``LARGE_SPLIT_RE.search``). On a long text, a substring
    search per word runs at memory speed; the regex tries its alternatives at every h, t, c and m."""
    if len(text) >= 200:
        return any(map(text.__contains__, LARGE_CORE))
    return LARGE_SPLIT_RE.search(text) is not None


def trie_pattern(words: Iterable[str]) -> str:
    """A regex that matches exactly ``words``, nested by their letters ("s(?:e(?:c|p)|ix)"): the regex engine tries
    the branches of one letter in turn, so a flat alternation of dozens of words costs dozens of tries at each place
    it is asked, where the nested one costs a few."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here (another may go on)

    def branches(node: dict[str, Any]) -> str:
        if not node:
            return ""
        alternatives = [re.escape(char) + branches(child) for char, child in sorted(node.items())]
        if len(alternatives) == 1:
            return alternatives[0]
        return "(?:" + "|".join(alternatives) + ")"

    return branches(tree)


# German compounds built on a number noun: Zehnertrick, Dreierpasch, Zwanzigerjahre, Sechserpack.
_DE_ER_STEMS = sorted({w for w in (*_expand_umlauts(_DE_UNITS), *_expand_umlauts(_DE_TEENS)) if w != "zwo"})
_DE_ER_STEMS += _expand_umlauts(_DE_TENS)
DE_ER_COMPOUND_RE = re.compile(
    # Achterbahn (roller coaster), Achterdeck, achtern (nautical) are not numbers.
    r"(?!achter(?:bahn|deck|n$))" + trie_pattern(_DE_ER_STEMS) + r"er[^\W\d_]{2,}"
)
DE_ER_STARTS = frozenset(stem[:2] for stem in _DE_ER_STEMS)


def _load_split_phrases() -> dict[str, tuple[str, ...]]:
    path = pathlib.Path(__file__).with_name("_split_phrases.json")
    table = json.loads(path.read_text(encoding="utf-8"))
    return {pair: tuple(langs) for pair, langs in table["pairs"].items()}


# Two ordinary words of one language that happen to spell a number word ("se ven", "no venta", "de cena"), with
# the languages they are a phrase in: generated by tools/gen_split_phrases.py from dictionaries and word lists.
SPLIT_PHRASES: dict[str, tuple[str, ...]] = _load_split_phrases()
