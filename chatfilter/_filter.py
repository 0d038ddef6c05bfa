"""Does a chat message mention a number? The no-numbers rule of The Game, as a pure function.

``mentions_number(text)`` implements the labelling policy of the no-numbers rule (section 1 of the project's
chat policy): digits of any script, any character with a numeric value, keycaps/dice, number words 2-99 in
English, German, French and Spanish (with their disguises) and capital Roman numerals 2-99 count; Discord
markup, URLs, standard emoji, "one"/"zero", hundred/thousand alone, simple ordinals, quantity words, words
that merely contain a number word, ``<3`` and talk *about* numbers do not.

The order of the steps matters:

1. Machine markup, URLs, digit-bearing emoji shortcodes and ``<3`` are removed first: their digits were not
   typed as numbers (policy X1-X3, X11).
2. Numeric characters are looked for in the *raw* remainder, before any transliteration could turn an emoji
   into shortcode text or a digit into a letter.
3. A normalized copy (NFKC, invisible characters and combining marks dropped, homoglyphs, small caps and
   regional indicators mapped to Latin letters, markdown turned into "soft" separators) is cut into tokens,
   which are matched whole against the generated vocabulary (``engine._number_words``). Matching whole
   tokens, never substrings, is what keeps "often", "weight" and "Zweifel" legal.
4. Split words are rejoined only where a reader would rejoin them: across markdown, NBSP and line breaks, a
   fragment that is not itself a common word ("thir ty"), and runs of single letters ("t h r e e"). Words
   separated by ordinary spaces are never merged ("that would" does not contain "two").
5. A token that is no number word may still be a misspelt or respelt one (W2: ``thrity``, ``zwanzich``,
   ``soixente``, ``ventidos``), unless it is an ordinary word of the four languages (``forth``, ``weight``); and
   censor characters between letters stand for the letters they hide (``tw*lve``). ``engine._misspellings``
   holds those rules and their table of ordinary words.

Everything is compiled at import; nothing is cached per message. Standard library only; the table of ordinary
words ships as generated JSON (``tools/gen_misspelling_exclusions.py``).

Judgement calls where the policy is silent, each decided by its own principles (form, not intent; a little
context for cross-language words, never full language identification):

* Cross-language words need a clue to count: ``once``/``seize``/``elf`` alone read as the English words,
  ``el once``/``le seize``/``die Elf`` count; likewise ``ten cuidado`` (Spanish "be careful"), ``au four``
  (French oven), ``le dos`` (French back), ``en quarantaine``/``en cuarentena`` (quarantine), ``in sept``.
* ``neuf`` counts unless it means "new" (tout/flambant/comme neuf, quoi de neuf, remis à neuf, c'est neuf);
  ``gib acht``/``acht geben``/``in Acht nehmen`` (pay attention) do not count, ``acht`` otherwise does. The
  policy's research section lists both as a number-parser's mistakes.
* German glued forms count like their English spellings: ``zweimal`` ("two times"), ``dreifach``,
  ``zweistellig``, ``Zehnertrick``, ``zu dritt``; ``einmal``, ``einfach``, ``einstellig`` and compounds with
  other nouns (``Dreieck``, ``Zweikampf``) do not. ``douzaine``/``docena``/``Dutzend`` are "dozen" (X7).
* Single-word ordinals are simple ordinals even for 13-90 (``thirteenth``, ``twentieth``, ``vingtième``);
  compound ones count, Spanish ``vigésimo séptimo`` included. ``teens`` counts, ``teen`` does not.
* Only ``<3`` and ``</3`` are hearts: ``<33`` still holds a digit. Symbols used as letters inside a word
  (``s!x``, ``$even``, ``thr€€``) are leetspeak like digits are.
* Misspellings (W2) are one edit (Damerau-Levenshtein: a letter added, dropped, doubled, swapped or replaced)
  from a cardinal of at least four letters, or a phonetic spelling that a rewrite turns into one (``-zich``
  for ``-zig``, ``k`` for ``qu``/``c``, ``wa`` for ``oi``, ``b`` for ``v``, ``ss`` for ``x``); dialect forms
  further away are listed (``zwoa``, ``fuchzig``, ``thoity``). "Ordinary word" means accepted by a Hunspell
  dictionary of the four languages or common in wordfreq (Zipf >= 2.5), names included (``Sven``, ``Nina``
  stay), minus known web misspellings (``fourty``, ``eigth``, ``nien``). Two- and three-letter number words
  (``two``, ``six``, ``ten``, ``dos``, ``dix``) get no edit reading: nearly all their neighbours are words.
  Misspelt cross-language words follow their word's context rule (``nuef`` like ``neuf``); ``tres``,
  ``sept`` and ``acht``, which count by default, are read as written only.
* Stray diacritics are dropped for the number words of every language (``ẗwëlvë``, ``zwänzig``); only the
  ``très``/``tres`` rule looks at the accent as typed.
* Censor characters (``*``, ``#``, ``_``) count only *between* letters, each run standing for one letter or one
  letter per character, with at most a third of the word hidden and four letters in all: ``tw*lve``,
  ``th##ty`` count, ``**fun**`` (bold) and ``s*x`` do not.
* German inflected forms of idioms count (``alle viere``, ``auf allen Vieren``, ``fünfe gerade sein lassen``,
  ``um zehne``, ``zu dreien``), but not ``Achte``/``achten`` (ordinal, verb) nor ``Elfe``/``Elfen``
  (fairies). French number nouns in the plural count (``deux quatres``), not ``neufs`` (new). ``neuf`` after a
  few nouns is the adjective "new" (``un jeu neuf``, ``un regard neuf``, ``du sang neuf``).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from chatfilter._misspellings import MIN_LENGTH, censored_number, misspelt_number
from chatfilter._number_words import DE_ER_COMPOUND_RE, DE_ER_STARTS, FORMS, LARGE_SPLIT_RE, PREFIXES

__all__ = ["mentions_number"]

# --- step 1: what the player did not type ------------------------------------------------------------------

# Standard emoji shortcodes whose name holds a digit or a number word are the emoji (X3). Keycap shortcodes
# (:two:, :keycap_ten:) are deliberately absent: they are read as their words.
_EMOJI_SHORTCODES = (
    r"100|1234|8ball|o2|\+1|-1|point_up_2|clock\d{1,4}|u[0-9a-f]{4}|[\w-]*_tone[1-5]|skin-tone-[1-5]"
    r"|(?:1st|2nd|3rd)_place_medal|two_hearts|two_men_holding_hands|two_women_holding_hands"
    r"|eight_spoked_asterisk|eight_pointed_black_star|eight_pointed_star|six_pointed_star|mouse_three_button"
    r"|three_button_mouse|hundred_points"
)
_MACHINE_MARKUP_RE = re.compile(
    r"<@[!&]?\d+>"  # user and role mentions
    r"|<#\d+>"  # channel mentions
    r"|</[^<>:]{1,100}:\d{1,25}>"  # slash-command mentions, subcommands have spaces in the name
    r"|<a?:\w{1,64}:\d{1,25}>"  # custom emoji, the name included (<:pile3:...>)
    r"|<t:-?\d+(?::\w)?>"  # timestamps
    r"|<id:[\w-]+(?::\d+)?>"  # guild navigation
    r"|<?\b[a-z][a-z0-9+.-]{0,30}://[^\s<>]*>?"  # URLs, also <...>-suppressed ones and the url of [text](url)
    r"|\b(?:discord\.gg|discord(?:app)?\.com/invite)/[\w-]+"
    r"|:(?:" + _EMOJI_SHORTCODES + r"):"
    r"|</?3(?!\d)",  # the heart emoticon, and only it (X11); "<33" still holds a digit
    re.IGNORECASE,
)

# --- step 2: numeric characters ----------------------------------------------------------------------------


# Every code point with a Unicode numeric value (Nd, No, Nl, CJK numerals), plus KEYCAP TEN and the die faces,
# which carry no numeric property but mean exactly one number (D3). A set beats a regex character class here:
# the class would span the astral planes, which makes the regex engine scan its ranges one by one.
_NUMERIC_CHARS = frozenset(
    [ch for ch in map(chr, range(sys.maxunicode + 1)) if ch.isnumeric()]
    + ["\U0001f51f", *"\u2680\u2681\u2682\u2683\u2684\u2685"]
)
# NFKC turns a few symbols without a numeric value into digits (㏩ -> "10日"); a reader sees the digits.
_DIGIT_RE = re.compile(r"\d")

# --- step 3: normalization ---------------------------------------------------------------------------------

# A separator a reader does not see as a word break: markdown, NBSP and friends. Words split by one of these
# are rejoined freely ("th**ree**", "thir\u00a0ty").
_SOFT = "\x1f"
# A hyphen or a dot inside a word ("se-ven", "thir.ty") is a syllable break, not a word break, too.
_SOFT_CHARS = frozenset(_SOFT + "\n\r-.")
_MARKDOWN = "*_~|`\\"

# Applied before NFKC, which would turn NBSP into an ordinary space.
_NBSP_RE = re.compile("[\u00a0\u202f\u2007\u2028\u2029\u0085]")

# Cyrillic, Greek and Armenian letters that look like Latin ones (UTS #39 confusables, Latin targets only).
# Case is kept so that Cyrillic "ХХ" still reads as the Roman numeral XX.
_HOMOGLYPHS = {
    # Cyrillic
    "а": "a", "в": "b", "г": "r", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y", "ь": "b", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ї": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y",
    "Һ": "H", "Ӏ": "I", "є": "e", "Є": "E", "ѵ": "v", "Ѵ": "V", "ғ": "f", "Ғ": "F", "ԑ": "e", "ɛ": "e",
    # Greek
    "α": "a", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j", "μ": "u",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϝ": "F",
    # Armenian and Latin oddities
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "ı": "i", "ȷ": "j", "ɑ": "a", "ɩ": "i",
}  # fmt: skip

_STYLED_LETTER_RE = re.compile(
    r"(?:LATIN LETTER SMALL CAPITAL|MODIFIER LETTER (?:SMALL|CAPITAL)|REGIONAL INDICATOR SYMBOL LETTER"
    r"|(?:NEGATIVE )?(?:CIRCLED|SQUARED) LATIN CAPITAL LETTER|LATIN SUBSCRIPT SMALL LETTER) ([A-Z])"
)
_STYLED_BLOCKS = ((0x0250, 0x02FF), (0x1D00, 0x1DBF), (0xA700, 0xA7FF), (0xAB30, 0xAB6F), (0x1F100, 0x1F1FF))
# Invisible characters that are letters (Lo) rather than format characters, so a category test misses them.
_INVISIBLE_LETTERS = "\u3164\u115f\u1160\uffa0\u2800"


def _post_nfkc_table() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    for cp in range(0x10000):
        if unicodedata.category(chr(cp)) in ("Cf", "Mn", "Me"):
            table[cp] = None
    for first, last in ((0xE0000, 0xE01EF), (0x1D165, 0x1D1AD)):  # tags, variation selectors, musical marks
        for cp in range(first, last + 1):
            if unicodedata.category(chr(cp)) in ("Cf", "Mn", "Me"):
                table[cp] = None
    table.update(dict.fromkeys(map(ord, _INVISIBLE_LETTERS)))
    for first, last in _STYLED_BLOCKS:
        for cp in range(first, last + 1):
            match = _STYLED_LETTER_RE.fullmatch(unicodedata.name(chr(cp), ""))
            if match:
                # Capital-only styles stay capital (Roman numerals); regional indicators and small caps become
                # lower case so that flags such as 🇱🇻 or 🇻🇮 never read as LV or VI.
                capital = "CAPITAL LETTER" in unicodedata.name(chr(cp))
                table[cp] = match.group(1) if capital else match.group(1).lower()
    for char, latin in _HOMOGLYPHS.items():
        table[ord(char)] = latin
    # Accented homoglyphs (ά, ё, ї) map like their base letter once NFKC has composed them.
    for cp in range(0x0370, 0x0530):
        base = unicodedata.normalize("NFD", chr(cp))[0]
        if base != chr(cp) and base in _HOMOGLYPHS:
            table[cp] = _HOMOGLYPHS[base]
    table.update(dict.fromkeys(map(ord, _MARKDOWN), _SOFT))
    return table


_POST_NFKC = _post_nfkc_table()
# str.translate looks every character up in the table, which costs more than the rest of the filter on a
# long message; a regex scan (a bitmap for the BMP part) tells whether there is anything to translate at all.
_POST_NFKC_BMP_RE = re.compile("[" + "".join(re.escape(chr(cp)) for cp in sorted(_POST_NFKC) if cp < 0x10000) + "]")
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
_ASCII_TABLE = str.maketrans(dict.fromkeys(_MARKDOWN, _SOFT))


def _strip_table() -> dict[int, str]:
    """Lower-case accented Latin letters to their base letter, one character for one (positions stay)."""
    table: dict[int, str] = {}
    for first, last in ((0x00C0, 0x024F), (0x1E00, 0x1EFF)):
        for cp in range(first, last + 1):
            base = unicodedata.normalize("NFD", chr(cp))[0]
            if base != chr(cp) and base.isascii() and base.isalpha():
                table[cp] = base.lower()
    table.update({ord(k): v for k, v in {"ø": "o", "đ": "d", "ħ": "h", "ł": "l", "ŧ": "t", "ɨ": "i"}.items()})
    return table


_STRIP = _strip_table()

# --- step 4: tokens and the words around them -------------------------------------------------------------

_SPLIT_RE = re.compile(r"([^\W\d_]+)")
_TRIPLE_RE = re.compile(r"(.)\1\1")
_JOIN_SEP_RE = re.compile(r"[\s\x1f.\-·•/+~]{1,3}")
# Capital Roman numerals 2-99 written canonically, as a whole token (R1); needs at least two letters.
# By then the text has no digits and no "_" (markdown), so \b is a letter boundary.
_ROMAN_RE = re.compile(r"\b(?=[IVXLC]{2})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})(?!\w)")
_ROMAN_HINT_RE = re.compile(r"[IVXLC]{2}")


def _words(*groups: str) -> frozenset[str]:
    return frozenset(w for group in groups for w in group.split())


# Words that show which language a message is in. Only fairly distinctive words are listed.
_EN = _words(
    "the and is are you your it its that this what have has just not can will with play please pls we me my",
    "at be were do don go going ok okay yes yeah but if all good nice wait turn there here now then up down",
    "low high next more less want need got get let lets would should could they them he she his her our us",
    "who why how when where again still too very really think know see like for from by about after before",
    "over back way of to card cards pile piles than only every chance i im i'm anyone someone oh sorry",
)
_DE = _words(
    "ich du sie wir ihr und oder aber nicht kein keine der das den dem des eine einen einem ist sind bin bist",
    "hab habe hat haben kann kannst noch schon auch mal nur bitte danke gut ja nein hier jetzt dann wenn weil",
    "mit auf für fur von zum zur im ins bei nach vor über uber unter mehr weniger karte karten stapel lege",
    "legen spiele spielen warte warten gleich los doch wer wie wo warum nächste letzte uhr mir mich dich dir",
    "uns euch um bis heute sehr viel wieder nix nee geht gibt habt seid muss musst soll sollte würde",
)
_FR = _words(
    "je j il elle nous vous ils elles le les des du au aux et ou mais pas est suis sont ai avons avez ont c",
    "qu qui quoi avec pour sur dans chez plus moins très bien oui merci carte cartes mon ma mes ton ta tes ce",
    "cette ces ça ca peux peut vais faut fait jouer joue attends encore déjà deja tout tous toute heures rien",
    "beaucoup trop peu là ici maintenant après apres avant quand comment pourquoi une n l d ne suis moi toi",
)
_ES = _words(
    "yo él el ella nosotros ustedes los las unos unas y pero sí soy estoy está esta están estan tengo tienes",
    "tiene tenemos puedo puedes puede qué con para por sin sobre del al muy gracias carta cartas pila mi mis",
    "tus su sus este eso esto ese esa aquí aqui ahora después despues cuando como porque pues vale juego jugar",
    "juega juegas pongo poner espera esperar hay más menos mucho poco nada todo todos también tambien ya hola",
    "vamos cual cuál donde dónde creo voy vas",
)
_LANG_BITS = {"en": 1, "de": 2, "fr": 4, "es": 8}
_LANG_OF: dict[str, int] = {}
for _lang, _vocab in (("en", _EN), ("de", _DE), ("fr", _FR), ("es", _ES)):
    for _w in _vocab:
        _LANG_OF[_w] = _LANG_OF.get(_w, 0) | _LANG_BITS[_lang]

# Fragments that are everyday words themselves. Two of them next to each other are two words, not a word
# split in two: "se ven" (Spanish) is not "seven", "s even" is not "seven".
_COMMON = (
    _EN
    | _DE
    | _FR
    | _ES
    | frozenset("abcdefghijklmnopqrstuvwxyz")
    | _words(
        "a an in on no so was die hat er es en de la un tu se si me te ni do to ve vi fun set sec sin neu eben",
        "even ever our ur ty thx gg wp lol non o ven ante trent ben tree thr four ties venta ive eux os di vin fort",
        "ach vie sei ours fit doc eis",
    )
)

# Context clues for the words that are a number in one language and an ordinary word in another.
_ES_NUM_PREV = _words("el los las la al del y o son hasta tengo tiene tienes tenemos quedan hay con de sobre")
_ES_NUM_PREV |= _words("juego pongo tiro echo pon solo menos mas más")
_ES_NUM_NEXT = _words("cartas carta veces puntos horas minutos años anos jugadores y o menos mas pilas rondas")
_EN_ONCE_PREV = _words("at all for just only more than but and if when not even least this that it i we you they")
_EN_ONCE_NEXT = _words("more again upon you i we he she they it the in a an every or and before is was that this")
_EN_ONCE_NEXT |= _words("there my your all per")
_FR_NUM_PREV = _words("le les du au aux de à a et ou un mon ton son sur avec jusqu vers moins plus ai as en j")
_FR_NUM_PREV |= _words("reste restent que qu")
_FR_NUM_NEXT = _words("cartes carte fois heures h points ans minutes joueurs et ou piles tours secondes")
_EN_SEIZE_PREV = _words("to will must let lets can could should i we you they just and gonna wanna")
_EN_SEIZE_NEXT = _words("the this that it an a my your his her their our every any control power opportunity")
_EN_SEIZE_NEXT |= _words("chance day moment them him me us up")
_DE_NUM_PREV = _words("die der eine ne um bis zur zum ab auf über uber unter noch nur habe hab hat ist sind und")
_DE_NUM_PREV |= _words("oder mit von meine deine seine keine lege leg spiele spiel nach vor gegen fast genau")
_DE_NUM_PREV |= _words("etwa ca circa bei als unsere wie")
_DE_NUM_NEXT = _words("uhr karten karte punkte mal minuten spieler stapel runden jahre und oder sekunden ist")
_DE_NUM_NEXT |= _words("liegt drauf runter hoch legen spielen gelegt gespielt")
_EN_ELF_PREV = _words("the an a my your his her little dark wood high christmas santa santas evil cute like as")
_EN_ELF_PREV |= _words("house blood night sea lil this that cool")
_EN_ELF_NEXT = _words("on ears king queen mage archer hat costume is was and or who with in of from")
_FR_TRES_NEXT = _words(
    "bien bon bonne bons beau belle mal fort forte cool sympa drole drôle dur dure long longue vite peu",
    "content contente chiant chiante nul nulle proche loin haut haute bas basse gentil important serre serré",
    "facile difficile risque risqué malin intelligent interessant intéressant joli jolie tard tot tôt",
    "souvent rare grand grande petit petite gros grosse clair chaud froid lent rapide simple complique",
    "compliqué fatigue fatigué juste beaucoup mauvais mauvaise fin fine bizarre marrant stressant tendu",
    "tendue calme sur sûr certain pres près vrai efficace utile dangereux chic",
)
_FR_TRES_PREV = _words("est suis etait était sont pas c")
_FR_DOS_PREV = _words("le au du mon ton son notre votre leur")
_EN_MONTH_PREV = _words("in early late mid since until till by of next last this from through end")
_DE_ACHT_PREV = _words("gib gebt gibt gab gaben habt hab ausser")
_DE_ACHT_NEXT = _words("geben gegeben gibst gibt gab nehmen genommen nimmst nimmt nimm lassen gelassen lasst")
_ES_TEN_NEXT = _words("cuidado en paciencia calma fe que esto eso la el los las un una mi tu listo lista ojo")
_EN_NUM_NEXT = _words("cards card minutes mins min points turns piles more left back away")
_FR_NEUF_NEW = _words("tout toute tous flambant comme etat")
# Nouns after which "neuf" is the adjective "new": un jeu neuf, un regard neuf, du sang neuf.
_FR_NEUF_NEW |= _words("jeu deck paquet plateau truc regard oeil sang exemplaire livre velo telephone ordi")
_FR_NEUF_NOUNS = _words("heures h cartes carte fois points ans minutes et ou")
_FR_FOUR_PREV = _words("un le ce quel mon ton son")


def mentions_number(text: str) -> bool:
    """True if the message mentions a number under the no-numbers policy, so it must be deleted."""
    if "<" in text or ":" in text or "discord" in text:
        text = _MACHINE_MARKUP_RE.sub(" ", text)
    if not _NUMERIC_CHARS.isdisjoint(text):
        return True
    if text.isascii():
        norm = text.translate(_ASCII_TABLE)
    else:
        norm = unicodedata.normalize("NFKC", _NBSP_RE.sub(_SOFT, text))
        if _POST_NFKC_BMP_RE.search(norm) or _ASTRAL_RE.search(norm):
            norm = norm.translate(_POST_NFKC)
        if _DIGIT_RE.search(norm):
            return True
    if _ROMAN_HINT_RE.search(norm) and _ROMAN_RE.search(norm):
        return True
    if _mentions_number_word(norm):
        return True
    # Symbol leetspeak ("s!x", "$even", "thr€€") is judged on a second copy: the symbols are ordinary
    # punctuation elsewhere, so they must not become letters for the first pass.
    if _LEET_CHARS.isdisjoint(norm):
        return False
    return _mentions_number_word(_LEET_RE.sub(_leet_letter, norm))


_COMBINING_RE = re.compile("[\u0300-\u036f]")
_LEET = str.maketrans({"@": "a", "$": "s", "€": "e", "!": "i", "¡": "i"})
_LEET_CHARS = frozenset("@$€!¡")
# Inside a word, or "$" and "€" opening it, or "€" closing it ("thr€€"); a "!" after a word stays punctuation.
_LEET_RE = re.compile(r"(?<=[^\W\d_])[@$€!¡]+(?=[^\W\d_])|(?<![^\W\d_])[$€]+(?=[^\W\d_])|(?<=[^\W\d_])€+(?![^\W\d_])")


def _leet_letter(match: re.Match[str]) -> str:
    return match.group().translate(_LEET)


def _mentions_number_word(norm: str) -> bool:
    folded = norm.casefold()
    if not folded.isascii():
        # Casefolding decomposes a few letters (ẗ -> t + U+0308): drop the marks it brings back.
        folded = _COMBINING_RE.sub("", folded)
    stripped = folded if folded.isascii() else folded.translate(_STRIP)
    parts = _SPLIT_RE.split(stripped)
    tokens = parts[1::2]
    if not tokens:
        return False
    seps = parts[0::2]  # seps[k] is the separator before tokens[k]
    raw = _SPLIT_RE.split(folded)[1::2] if stripped is not folded else tokens
    return _Message(tokens, seps, raw, stripped).mentions_number()


class _Message:
    """The token-level checks of one message; a class only to share the token lists between them."""

    __slots__ = ("_langs", "raw", "seps", "stripped", "tokens")

    def __init__(self, tokens: list[str], seps: list[str], raw: list[str], stripped: str) -> None:
        self.tokens = tokens
        self.seps = seps
        self.raw = raw
        self.stripped = stripped
        self._langs: dict[int, int] | None = None

    def mentions_number(self) -> bool:
        return self._whole_tokens() or self._joined_fragments() or self._letter_runs() or self._censored()

    # -- tw*lve, th#rty: censor characters standing for letters --

    def _censored(self) -> bool:
        stripped = self.stripped
        if _SOFT not in stripped and "#" not in stripped:
            return False
        return any(censored_number(m.group()) for m in _CENSORED_RE.finditer(stripped))

    # -- single tokens --

    def _whole_tokens(self) -> bool:
        stretched = _TRIPLE_RE.search(self.stripped) is not None
        large = LARGE_SPLIT_RE.search(self.stripped) is not None
        for i, tok in enumerate(self.tokens):
            key = _lookup(tok, stretched, large)
            if key is not None and self._counts(key, i, i + 1):
                return True
        return False

    # -- a word split by markdown, NBSP, a line break or a space inside it --

    def _joined_fragments(self) -> bool:
        tokens, seps = self.tokens, self.seps
        n = len(tokens)
        for i in range(n - 1):
            acc = tokens[i]
            if acc not in PREFIXES or _has_apostrophe(seps[i]):
                continue
            # A common word and the word after it are two words ("se ven", "s even"), unless the break between
            # them is invisible. A lone letter may still start a split word ("e ight").
            first_common = acc in _COMMON
            for j in range(i + 1, min(i + 5, n)):
                sep = seps[j]
                if not (sep and _SOFT_CHARS.issuperset(sep)):
                    if not _JOIN_SEP_RE.fullmatch(sep):
                        break
                    if first_common and (len(acc) > 1 or tokens[j] in _COMMON):
                        break
                acc += tokens[j]
                key = FORMS.get(acc)
                # "thir ty's" is fine, but a fragment glued to an apostrophe belongs to the next word.
                if key is not None and not _has_apostrophe(seps[j + 1]) and self._counts(key, i, j + 1):
                    return True
                if acc not in PREFIXES:
                    break
        return False

    # -- t h r e e, t.h.r.e.e, one letter per line, 🇹 🇭 🇷 🇪 🇪 --

    def _letter_runs(self) -> bool:
        tokens, seps = self.tokens, self.seps
        n = len(tokens)
        i = 0
        while i < n:
            if len(tokens[i]) != 1:
                i += 1
                continue
            j = i + 1
            while j < n and len(tokens[j]) == 1 and _is_letter_gap(seps[j]):
                j += 1
            if j - i >= 3 and self._run_is_number(i, j):
                return True
            i = j
        return False

    def _run_is_number(self, start: int, end: int) -> bool:
        letters = self.tokens[start:end]
        weights = [_gap_weight(self.seps[k]) for k in range(start + 1, end)]
        pieces = [letters[0]]
        lightest = min(weights)
        for letter, weight in zip(letters[1:], weights, strict=True):
            if weight > lightest:
                pieces.append(letter)
            else:
                pieces[-1] += letter
        candidates = pieces if len(pieces) == 1 else [*pieces, "".join(pieces)]
        for word in candidates:
            key = _lookup(word, True, True)
            # Spelled-out letters carry no neighbouring words, so only the message's language decides.
            if key is not None and self._counts(key, start, end, whole_message=True):
                return True
        return False

    # -- the cross-language words --

    def _counts(self, key: str, start: int, end: int, *, whole_message: bool = False) -> bool:
        """Whether a vocabulary hit spanning tokens[start:end] counts, given the words around it.

        ``key`` is "" for words that always count, else the name of the context rule of a word that is a number
        in one language and an ordinary word in another (policy X8: "a little context, not full language
        identification"). Spelled-out letter runs have no neighbours of their own (``whole_message``).
        """
        if not key:
            return True
        tokens = self.tokens
        near = _Context(
            prev="" if whole_message or start < 1 else tokens[start - 1],
            prev2="" if whole_message or start < 2 else tokens[start - 2],
            next="" if whole_message or end >= len(tokens) else tokens[end],
            accented=not whole_message and not "".join(self.raw[start:end]).isascii(),
        )
        return _CONTEXT_RULES[key](near, self._prefers)

    def _prefers(self, lang: str, other: str) -> bool:
        """Whether the message reads more like `lang` than like `other`, counting telltale words."""
        if self._langs is None:
            counts = dict.fromkeys(_LANG_BITS.values(), 0)
            for word in self.raw:
                bits = _LANG_OF.get(word, 0)
                if bits:
                    for bit in counts:
                        if bits & bit:
                            counts[bit] += 1
            self._langs = counts
        return self._langs[_LANG_BITS[lang]] > self._langs[_LANG_BITS[other]]


class _Context(NamedTuple):
    prev: str
    prev2: str
    next: str
    accented: bool  # as typed, before accents were stripped ("très" vs "tres")


_Prefers = Callable[[str, str], bool]


def _once(c: _Context, prefers: _Prefers) -> bool:
    """English "once" (at once, once more) vs Spanish 11 (el once, a las once)."""
    if c.prev in _EN_ONCE_PREV or c.next in _EN_ONCE_NEXT:
        return False
    return c.prev in _ES_NUM_PREV or c.next in _ES_NUM_NEXT or prefers("es", "en")


def _seize(c: _Context, prefers: _Prefers) -> bool:
    """English "seize the day" vs French 16 (le seize)."""
    if c.prev in _EN_SEIZE_PREV or c.next in _EN_SEIZE_NEXT:
        return False
    return c.prev in _FR_NUM_PREV or c.next in _FR_NUM_NEXT or prefers("fr", "en")


def _elf(c: _Context, prefers: _Prefers) -> bool:
    """English "an elf" vs German 11 (die Elf, um elf)."""
    if c.prev in _EN_ELF_PREV or c.next in _EN_ELF_NEXT:
        return False
    return c.prev in _DE_NUM_PREV or c.next in _DE_NUM_NEXT or prefers("de", "en")


def _neuf(c: _Context, prefers: _Prefers) -> bool:
    """French 9, unless it means "new": tout neuf, flambant neuf, quoi de neuf, remis à neuf, c'est neuf."""
    if c.next in _FR_NEUF_NOUNS:
        return True
    return not (
        c.prev in _FR_NEUF_NEW
        or c.prev == "du"
        or (c.prev == "de" and c.prev2 in ("quoi", "rien", "chose"))
        or (c.prev == "a" and c.prev2.startswith(("remis", "remet", "refait")))
        or (c.prev == "est" and c.prev2 == "c")
    )


def _tres(c: _Context, prefers: _Prefers) -> bool:
    """Spanish 3 vs French "très", also when typed without its accent ("tres bien")."""
    if c.accented or c.next in _FR_TRES_NEXT or c.prev in _FR_TRES_PREV:
        return False
    return not prefers("fr", "es")


def _dos(c: _Context, prefers: _Prefers) -> bool:
    """Spanish 2 vs French "le dos" (the back) and English "dos and don'ts"."""
    return not (c.prev in _FR_DOS_PREV or c.next == "and" or c.prev == "the")


def _sept(c: _Context, prefers: _Prefers) -> bool:
    """French 7 vs English "Sept" (September) after a preposition of time."""
    return not (c.prev in _EN_MONTH_PREV and not prefers("fr", "en"))


def _acht(c: _Context, prefers: _Prefers) -> bool:
    """German 8 vs "gib acht", "acht geben", "in Acht nehmen" (pay attention)."""
    return not (c.prev in _DE_ACHT_PREV or c.next in _DE_ACHT_NEXT)


def _zu(c: _Context, prefers: _Prefers) -> bool:
    """ "zu zweit", "zu dritt": a count of people; the same stems elsewhere start ordinals."""
    return c.prev == "zu"


def _quarantine(c: _Context, prefers: _Prefers) -> bool:
    """ "une quarantaine de cartes" (about forty) vs "en quarantaine" (in quarantine)."""
    return c.prev != "en"


def _ten(c: _Context, prefers: _Prefers) -> bool:
    """English 10 vs the Spanish imperative of "tener": ten cuidado, ten en cuenta, ten paciencia."""
    if c.next in _ES_TEN_NEXT:
        return False
    return c.next in _EN_NUM_NEXT or not prefers("es", "en")


def _four(c: _Context, prefers: _Prefers) -> bool:
    """English 4 vs French "four" (oven, or a flop: "c'est un four")."""
    return not (c.prev in ("au", "du") or (c.prev in _FR_FOUR_PREV and prefers("fr", "en")))


_CONTEXT_RULES: dict[str, Callable[[_Context, _Prefers], bool]] = {
    "once": _once,
    "seize": _seize,
    "elf": _elf,
    "neuf": _neuf,
    "tres": _tres,
    "dos": _dos,
    "sept": _sept,
    "acht": _acht,
    "zu": _zu,
    "quarantine": _quarantine,
    "ten": _ten,
    "four": _four,
}


def _lookup(tok: str, stretched: bool, large: bool) -> str | None:
    """The vocabulary key of a token, trying its stretched, doubled and above-99 spellings too."""
    key = FORMS.get(tok)
    if key is not None or len(tok) < 4:
        return key
    # "sixx", "twoo": one letter doubled at the end. Not for the cross-language words: "doss" and "Tenn."
    # are words of their own.
    if tok[-1] == tok[-2] and FORMS.get(tok[:-1]) == "":
        return ""
    collapsed: tuple[str, ...] = ()
    if stretched and _TRIPLE_RE.search(tok):
        # "threeeee" needs its double e back, "fiiiive" needs one i: try both collapses.
        collapsed = (_STRETCH_RE.sub(r"\1", tok), _STRETCH_RE.sub(r"\1\1", tok))
        for form in collapsed:
            key = FORMS.get(form)
            if key is not None:
                return key
    if large and LARGE_SPLIT_RE.search(tok):
        key = _large_number(tok)
        if key is not None:
            return key
    if tok[:2] in DE_ER_STARTS and DE_ER_COMPOUND_RE.fullmatch(tok):
        return ""
    # Misspelt and respelt number words (W2): "thrity", "zwanzich", "soixente", not "forth" or "weight".
    for form in (tok, *collapsed):
        if len(form) >= MIN_LENGTH and form not in _COMMON:
            key = misspelt_number(form)
            if key is not None:
                return key
    return None


_STRETCH_RE = re.compile(r"([^\W\d_])\1{2,}")
# A word with censor characters between its letters (markdown characters are _SOFT by now).
_CENSORED_RE = re.compile(r"(?<![^\W\d_])[a-z]+(?:[\x1f#]+[a-z]+)+(?![^\W\d_])")
_LARGE_FILLERS = frozenset(("", "a", "and", "und", "et", "y", "one", "ein", "eins", "un", "une", "uno", "s"))


def _large_number(tok: str) -> str | None:
    """``zweihundert``, ``hundredandfour``: every part is a number word and one of them is 2-99."""
    parts = LARGE_SPLIT_RE.split(tok)
    if len(parts) < 2 or not all(p in _LARGE_FILLERS or FORMS.get(p) == "" for p in parts):
        return None
    return "" if any(FORMS.get(p) == "" for p in parts) else None


def _is_letter_gap(sep: str) -> bool:
    return 0 < len(sep) <= 4 and not _has_apostrophe(sep)


def _has_apostrophe(sep: str) -> bool:
    return "'" in sep or "’" in sep or "´" in sep


def _gap_weight(sep: str) -> int:
    """How much white space a gap holds: "t h r e e  c a r d s" splits at the double space."""
    return len(sep) - len(sep.strip())
