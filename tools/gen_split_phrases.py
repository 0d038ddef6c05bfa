"""Regenerate chatfilter/_split_phrases.json: the pairs of ordinary words that happen to spell a number word.

A number word split by one ordinary space ("thr ee", "for ty", "zwan zig") counts (issue 40). The open case is a
split whose two halves are both ordinary words: "se ven" ("they are seen"), "no venta" ("not for sale"), "de cena"
("of dinner") are real Spanish phrases, while "el even", "vi er" or "se is" are words of different languages that
make no phrase together. This script lists, for every number word of the filter's vocabulary and every place it
could be split, the pairs whose halves are both *common words of one language*:

* a Hunspell dictionary of that language accepts the word as written in lower case (German: or capitalized, as
  its nouns are, unless the English dictionary lists it capitalized too: then it is a name, such as "Ben"), and
* wordfreq rates it at least ``PHRASE_ZIPF`` in that language (a word people actually write in chat) and not
  more than ``HOME_MARGIN`` lower there than in any other of the four languages (so that a word of another
  language that a dictionary happens to list, such as English "el", or a name, is not taken for one of its
  words), or it is one of the language's one-letter words ("a", "y", "o").

Each pair is written with the languages it is a phrase in; the filter keeps such a pair only in a message that is
mainly in one of them (see chatfilter._message). The dictionaries and wordfreq are developer tools only:

    apt-get install hunspell hunspell-en-us hunspell-en-gb hunspell-de-de hunspell-fr hunspell-es
    python -m venv /tmp/gen && /tmp/gen/bin/pip install wordfreq
    /tmp/gen/bin/python tools/gen_split_phrases.py
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from gen_misspelling_exclusions import fold, rejected_by  # noqa: E402

from chatfilter._number_words import FORMS  # noqa: E402

OUT = ROOT / "chatfilter" / "_split_phrases.json"
PHRASE_ZIPF = 4.0
HOME_MARGIN = 1.0
LANGS = ("en", "de", "fr", "es")
DICTIONARIES = {"en": ("en_US", "en_GB"), "de": ("de_DE",), "fr": ("fr_FR",), "es": ("es_ES",)}
ONE_LETTER_WORDS = {"en": {"a", "i"}, "de": set(), "fr": {"a", "y"}, "es": {"a", "y", "o", "e", "u"}}


def common_words(lang: str) -> dict[str, set[str]]:
    """The folded form of every word wordfreq rates at least PHRASE_ZIPF in ``lang``, with its spellings."""
    from wordfreq import iter_wordlist, zipf_frequency  # developer tool only

    words: dict[str, set[str]] = {}
    for word in iter_wordlist(lang, "large"):
        if zipf_frequency(word, lang) < PHRASE_ZIPF:
            break
        home = max(zipf_frequency(word, other) for other in LANGS)
        if word.isalpha() and zipf_frequency(word, lang) >= home - HOME_MARGIN:
            words.setdefault(fold(word), set()).add(word)
    return words


def _spellings(word: str, lang: str) -> tuple[str, ...]:
    return (word.lower(), word.capitalize()) if lang == "de" else (word.lower(),)


def main() -> None:
    halves = {(w[:i], w[i:]) for w in FORMS for i in range(1, len(w))}
    wanted = {h for pair in halves for h in pair}
    phrase_words: dict[str, set[str]] = {}
    for lang, dictionaries in DICTIONARIES.items():
        candidates = {token: spellings for token, spellings in common_words(lang).items() if token in wanted}
        spellings = sorted({v for ws in candidates.values() for w in ws for v in _spellings(w, lang)})
        rejected = set(spellings)
        for dictionary in dictionaries:
            rejected &= rejected_by(dictionary, spellings)
        if lang == "de":  # a capitalized word the English dictionary knows too is a name, not a German noun
            capitals = [w.capitalize() for ws in candidates.values() for w in ws]
            rejected |= set(capitals) - rejected_by("en_US", capitals)
        accepted = {
            token
            for token, ws in candidates.items()
            if len(token) > 1 and any(v not in rejected for w in ws for v in _spellings(w, lang))
        }
        phrase_words[lang] = accepted | ONE_LETTER_WORDS[lang]
    pairs: dict[str, list[str]] = {}
    for left, right in sorted(halves):
        if FORMS.get(left) == "" or FORMS.get(right) == "":
            continue  # a half that is a number word counts on its own
        langs = [lang for lang, known in phrase_words.items() if left in known and right in known]
        if langs:
            pairs[f"{left} {right}"] = langs
    table = {
        "generated_by": "tools/gen_split_phrases.py",
        "sources": "Hunspell dictionaries en_US, en_GB, de_DE, fr_FR, es_ES (Debian); wordfreq 3.1 'large' lists",
        "pairs": pairs,
    }
    OUT.write_text(json.dumps(table, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(halves)} splits of number words, {len(pairs)} are two ordinary words of one language: {OUT}")
    if "--show" in sys.argv:
        for pair, langs in pairs.items():
            print(pair, " ".join(langs))


if __name__ == "__main__":
    main()
