"""Regenerate chatfilter/_misspellings_ordinary.json: the ordinary words W2's misspelling rules must leave alone.

``chatfilter._misspellings.reads_as_number`` reads a token one edit (or one phonetic respelling) away from a number
word as that number word. Policy W2 excepts results that are "themselves an ordinary word of English, German,
French or Spanish" (``forth``, ``weight``, ``threw``, ``dose``). This script finds every such word:

1. candidates: every word of the wordfreq "large" lists of the four languages (each down to about one use per
   hundred million words) and every stem of the Hunspell dictionaries, cut into tokens and casefolded and
   accent-stripped exactly as the filter does;
2. the candidates that ``reads_as_number`` takes for a number word (and that are not number words already);
3. of those, the ordinary words: accepted by a Hunspell dictionary of en_US, en_GB, de_DE, fr_FR or es_ES (as
   written, lower-case or capitalized), or common in wordfreq (Zipf >= ``COMMON_ZIPF`` in one of the four
   languages: chat words, names and loans that dictionaries lack), minus the known misspellings of
   ``MISSPELLINGS`` that frequency lists pick up from the web, plus the few words of ``EXTRA_ORDINARY``;
4. of those, the ones no dictionary accepts (``frequent_only``: foreign words, abbreviations and typos the
   frequency lists picked up, such as ``tre``). A misspelt short number word, which counts only in context
   anyway, is excluded by the dictionary words alone;
5. per ordinary word, the languages it is an everyday word of (``home``: a lower-case dictionary word there, German
   capitalized too, or at least ``HOME_ZIPF`` in wordfreq), the ``names`` (no dictionary accepts it in lower case,
   but an English, French or Spanish one does capitalized: Sven, Tenn; judged by the token as a whole word, not by
   "zhen's"), and the ``everyday`` words (at least ``HOME_ZIPF`` in some language, or a lower-case dictionary word
   at least ``COMMON_ZIPF`` in its language). A misspelling that is no
   everyday word of a language and no name counts in a number slot (``chatfilter._misspellings.SLOT``); one that is
   no everyday word at all counts as a message of its own (``chatfilter._misspellings.LONE``). German forms with
   the final -e dropped (``helf``, from ``helfe``) are dictionary words.

Only the resulting list (a few thousand short words) is shipped; the dictionaries and wordfreq are developer
tools, never runtime dependencies. Run after any change to the number-word tables or the rules:

    apt-get install hunspell hunspell-en-us hunspell-en-gb hunspell-de-de hunspell-fr hunspell-es
    python -m venv /tmp/gen && /tmp/gen/bin/pip install wordfreq
    /tmp/gen/bin/python tools/gen_misspelling_exclusions.py

(The script puts the repository on ``sys.path`` itself, so that venv needs only wordfreq.)
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chatfilter._misspellings import reads_as_number  # noqa: E402
from chatfilter._number_words import FORMS  # noqa: E402

OUT = ROOT / "chatfilter" / "_misspellings_ordinary.json"
LANGS = ("en", "de", "fr", "es")
DICTIONARIES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES")
HUNSPELL_DIR = pathlib.Path("/usr/share/hunspell")
COMMON_ZIPF = 2.5
# An ordinary word is an everyday word of a language where it is this common there (or a lower-case dictionary word).
HOME_ZIPF = 3.0
SOURCES = (
    "Hunspell dictionaries en_US, en_GB (SCOWL), de_DE (igerman98), fr_FR (Dicollecte), es_ES (RLA-ES)"
    " as packaged by Debian; wordfreq 3.1 'large' lists (Robyn Speer et al., data CC BY-SA 4.0)"
)

# Web misspellings of number words common enough for the frequency lists; a reader takes them for the number.
MISSPELLINGS = frozenset(
    (
        *("fourty", "ninty", "nintey", "eigth", "nien", "seben", "sinco", "trenta", "treinte", "fiddy", "fitty"),
        *("tweny", "twenny", "ninteen", "fiveteen", "fourten", "forteen", "elevan", "minety", "vierzehen"),
    )
)
# Ordinary words the sources miss (chat words, or spellings the tokenizer cuts out of a longer word).
EXTRA_ORDINARY = frozenset(("aight", "ight", "iight", "enuf", "tweety", "viber"))

_TOKEN_RE = re.compile(r"[^\W\d_]+")


def fold(word: str) -> str:
    """Casefold and strip accents as the filter does (NFD, drop combining marks)."""
    folded = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c)).replace("ø", "o").replace("ł", "l")


def hunspell_stems() -> set[str]:
    stems: set[str] = set()
    for name in DICTIONARIES:
        path = HUNSPELL_DIR / f"{name}.dic"
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()[1:]
        stems.update(line.split("/")[0].strip() for line in lines if line.strip())
    return stems


def rejected_by(dictionary: str, words: list[str]) -> set[str]:
    """The words a Hunspell dictionary does not accept."""
    result = subprocess.run(
        ["hunspell", "-i", "utf-8", "-d", str(HUNSPELL_DIR / dictionary), "-l"],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    return set(result.stdout.split("\n"))


def _home_and_names(ordinary: set[str], hits: dict[str, set[str]]) -> tuple[dict[str, list[str]], set[str], set[str]]:
    """Per ordinary word, the languages it is an everyday word of (a dictionary of the language accepts it in
    lower case, German capitalized too as its nouns are, or wordfreq rates it at least HOME_ZIPF there); the
    names: words that no dictionary accepts in lower case (nor German capitalized) but an English, French or
    Spanish one accepts capitalized (Sven, Tenn), whatever wordfreq says, as wordfreq counts "Tenn." as "tenn";
    and the everyday words: at least HOME_ZIPF in some language, names included (a lone "Sven" calls a player), or a
    lower-case dictionary word at least COMMON_ZIPF in its language."""
    from wordfreq import zipf_frequency  # developer tool only

    words = {token: hits.get(token, {token}) for token in ordinary}
    lower = sorted({w.lower() for ws in words.values() for w in ws})
    capital = sorted({w.capitalize() for ws in words.values() for w in ws})
    accepted: dict[str, set[str]] = {lang: set() for lang in LANGS}
    capital_elsewhere: set[str] = set()
    for dictionary in DICTIONARIES:
        lang = dictionary[:2]
        accepted[lang] |= set(lower) - rejected_by(dictionary, lower)
        capitals = set(capital) - rejected_by(dictionary, capital)
        if lang == "de":
            accepted[lang] |= {w.lower() for w in capitals}
        else:
            capital_elsewhere |= {w.lower() for w in capitals}
    home: dict[str, list[str]] = {}
    names: set[str] = set()
    everyday: set[str] = set()
    for token, ws in sorted(words.items()):
        in_lower = [lang for lang in LANGS if any(w.lower() in accepted[lang] for w in ws)]
        frequent = [lang for lang in LANGS if any(zipf_frequency(w, lang) >= HOME_ZIPF for w in ws)]
        # Everyday: common somewhere, or a lower-case dictionary word in some use in its language ("doss"); a
        # dictionary word hardly anyone writes ("síes") is not.
        if frequent or any(zipf_frequency(w, lang) >= COMMON_ZIPF for lang in in_lower for w in ws):
            everyday.add(token)
        if not in_lower and any(w.lower() in capital_elsewhere for w in ws) and token not in EXTRA_ORDINARY:
            names.add(token)
            frequent = []  # the name's own frequency: "tenn" is common in wordfreq as "Tenn."
        langs = [lang for lang in LANGS if lang in in_lower or lang in frequent]
        if token in EXTRA_ORDINARY:
            langs = ["en"]  # English chat words and names the sources miss
            everyday.add(token)
        home[token] = langs
    return home, names, everyday


def main() -> None:
    from wordfreq import iter_wordlist, zipf_frequency  # developer tool only

    originals: dict[str, set[str]] = {}
    sources = [w for lang in LANGS for w in iter_wordlist(lang, "large")]
    for word in [*sources, *sorted(hunspell_stems())]:
        for token in _TOKEN_RE.findall(fold(word)):
            if len(token) >= 3 and token not in FORMS:
                originals.setdefault(token, set()).add(word)
    hits = {t: ws for t, ws in originals.items() if reads_as_number(t)}
    spellings = sorted({v for ws in hits.values() for w in ws for v in (w, w.lower(), w.capitalize())})
    rejected_everywhere = set(spellings)
    for dictionary in DICTIONARIES:
        rejected_everywhere &= rejected_by(dictionary, spellings)
    with_e = sorted(token + "e" for token in hits)
    german_e = set(with_e) - rejected_by("de_DE", with_e)
    ordinary: set[str] = set(EXTRA_ORDINARY)
    frequent_only: set[str] = set()
    for token, words in hits.items():
        if token in MISSPELLINGS:
            continue
        in_dictionary = any(v not in rejected_everywhere for w in words for v in (w, w.lower(), w.capitalize()))
        # German chat drops a final -e ("ich helf dir", "ich geh"): such a form is a German word too.
        in_dictionary = in_dictionary or token + "e" in german_e
        common = any(zipf_frequency(w, lang) >= COMMON_ZIPF for w in words for lang in LANGS)
        if in_dictionary or common:
            ordinary.add(token)
        if common and not in_dictionary and token not in EXTRA_ORDINARY:
            frequent_only.add(token)
    # Whether a token is an everyday word or a name is judged by the words that are that token whole: "zhen" by
    # "zhen", not by "zhen's", which dictionaries accept as a possessive (that made a Chinese name an everyday
    # German and Spanish word). Whether it is ordinary at all still counts every word it is cut from ("dosn't").
    whole = {token: {w for w in words if fold(w) == token} or {token} for token, words in hits.items()}
    home, names, everyday = _home_and_names(ordinary, whole)
    table = {
        "generated_by": "tools/gen_misspelling_exclusions.py",
        "sources": SOURCES,
        "words": sorted(ordinary),
        "frequent_only": sorted(frequent_only),
        "home": home,
        "names": sorted(names),
        "everyday": sorted(everyday),
    }
    OUT.write_text(json.dumps(table, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(hits)} candidates read as numbers, {len(ordinary)} ordinary words written to {OUT}")
    if "--show" in sys.argv:
        for token in sorted(set(hits) - ordinary):
            zipf = max(zipf_frequency(w, lang) for w in hits[token] for lang in LANGS)
            print(f"counts\t{token}\t{zipf:.1f}\t{' '.join(sorted(hits[token])[:3])}")


if __name__ == "__main__":
    main()
