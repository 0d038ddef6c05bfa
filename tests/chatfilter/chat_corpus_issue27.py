"""Labelled chat messages for issue 27's kinds: (text, label, rule).

Written from the policy (section 1 of the no-numbers rules), not from the filter, for the kinds a fresh reader
found missing: one-edit misspellings of short number words read in context, German spoken and dialect
spellings, a letter-spaced number after a one-letter word, German numbers above a hundred glued in one word,
and words of one language that are a number in another, used in their own language (X8). Each group holds both
labels: the number is there (1), or a look-alike or ordinary chat that has to stay (0). ``rule`` is
``"<kind>-<lang>"``.
"""

from __future__ import annotations

Case = tuple[str, int, str]


def _group(kind: str, lang: str, positives: list[str], negatives: list[str]) -> list[Case]:
    return [(t, 1, f"{kind}-{lang}") for t in positives] + [(t, 0, f"{kind}-{lang}") for t in negatives]


SHORT_EN = _group(
    "short",
    "en",
    [
        "I have sxi cards in hand",
        "you can play the twwo now",
        "I'm holding ssix and that is all",
        "we have etn cards left in the deck",
        "I got siix",
        "do you have the ttwo?",
    ],
    [
        "I have the cards",
        "let's tow the line and wait",
        "I'll wait for the others",
        "sex ed was a long time ago",
        "one sec, my cat",
        "that was tne end of it",  # a typo of "the", not of "ten"
    ],
)

SHORT_DE = _group(
    "short",
    "de",
    [
        "ich habe noch zwe Karten",
        "ich lege die aacht auf Stapel B",
        "ich hab die achtt nicht mehr",
        "noch zwwo Karten und wir sind durch",
        "ich habe eelf Karten auf der Hand",
        "ich hab nur noch ahct",
    ],
    [
        "ich habe noch eine Frage zum Ablauf",
        "der Zweig ist ab",
        "ach komm, das geht schon",
        "ich bin die Elfe im Spiel",
        "wo ist der Stapel",
        "die Zehe tut weh",
    ],
)

SHORT_FR = _group(
    "short",
    "fr",
    [
        "j'ai la ssept, je la pose ?",
        "il me reste le seept",
        "j'ai le ddix dans la main",
        "je pose le dixx sur la pile de gauche",
        "il nous reste siix cartes",
        "je garde le setp pour plus tard",
    ],
    [
        "c'est trres bien joué",
        "je suis très content",
        "on se dit à plus tard",
        "j'ai vu un ours dans le jardin",
        "il reste des cartes ?",
        "septembre arrive vite",
    ],
)

SHORT_ES = _group(
    "short",
    "es",
    [
        "me quedan trres cartas",
        "tengo ttres en la mano",
        "juego el onc en la pila de arriba",
        "me quedan doos cartas",
        "tengo el trse",
        "solo tengo rtes cartas",
    ],
    [
        "tres bien, c'est parfait",
        "estoy muy cansado hoy",
        "vamos con calma",
        "me gusta el juego",
        "hace frío aquí",
    ],
)

DIALECT_DE = _group(
    "dialect",
    "de",
    [
        "ich hab noch fünnef Karten",
        "leg die fünnef hin",
        "da liegt schon die tsehn",
        "ich hab die siwwe",
        "noch sibbe Karten übrig",
        "ich hab die achd",
        "die elef passt noch",
        "zwölef liegt oben",
        "ich leg die sieme drauf",
        "ich hab die fümfe",
        "das sind noch dreizeh Karten",
        "tseen ist mein höchste",
        "ich hab die fünef",
        "um zehne bin i weg",
        "die achde passt",
    ],
    [
        "die Sense liegt im Schuppen",
        "ich achte sehr darauf",
        "die Elfe tanzt",
        "die Siebe sind im Schrank",
        "wir sitzen fest",
        "ich nenne das Glück",
        "das Zelt steht",
    ],
)

SPACED_EN = _group(
    "spaced",
    "en",
    ["I have a s i x", "I have a t w o for pile B", "play a n i n e next", "I s e v e n"],
    ["I have a b c", "a n o p e from me", "I am a t e a m player", "a m a z i n g"],
)

SPACED_DE = _group(
    "spaced",
    "de",
    ["ich hab a z w e i", "hab a s e c h s", "a v i e r wär gut"],
    ["i c h weiß nicht", "a h a so ist das", "o k a y dann"],
)

SPACED_FR = _group(
    "spaced",
    "fr",
    ["il a h u i t cartes", "y a d e u x cartes", "à n e u f c'est bon"],
    ["a l o r s on joue ?", "y a p a s de souci", "à t o i de jouer"],
)

SPACED_ES = _group(
    "spaced",
    "es",
    ["y d o s más", "o c i n c o", "y o c h o también"],
    ["y a v e r", "o s e a que no", "y l u e g o qué"],
)

LARGE_DE = _group(
    "large",
    "de",
    [
        "hundertsieben",
        "wir haben hundertzwölf Punkte",
        "das waren zweihundertelf Züge",
        "hundertacht Karten im Stapel",
        "hundertundzwei",
        "dreihundertneunzehn",
        "tausendzweihundertdreißig",
        "hunnertzwanzig",
        "einhundertelf",
        "hundert elf Karten",
        "hundertvier",
        "neunhundertneunundneunzig",
    ],
    [
        "hundert Mal hab ich das gesagt",
        "das ist hundertprozentig richtig",
        "tausendmal berührt",
        "hunderteins",
        "hundertste Runde",
        "Hundertschaft",
        "tausendundeins Nacht",
        "hundertprozent sicher",
    ],
)

CROSSLANG_FR = _group(
    "crosslang",
    "fr",
    [
        "il me reste dos cartas",  # a Spanish count inside French: the count wins
        "tengo dos, je pose ?",
    ],
    [
        "j'ai oublié mon sac à dos",
        "sac à dos",
        "il a mal au dos",
        "je l'ai vu de dos dans la rue, c'était bien lui",
        "on joue dos à dos",
        "prends ton sac à dos et on y va",
        "c'est écrit au dos de la carte",
        "attention au dos d'âne",
        "il m'a tourné le dos",
    ],
)

CROSSLANG_EN = _group(
    "crosslang",
    "en",
    ["el quince", "tengo quince cartas", "quince?", "me quedan quince"],
    [
        "quince jam is great",
        "I love quince paste with cheese",
        "we have a quince tree in the garden",
        "she made quince jelly for us",
        "have you ever tried quince?",
    ],
)

CROSSLANG_ES = _group(
    "crosslang",
    "es",
    [
        "juego dos",
        "son dos cartas",
        "dos y ya",
        "me quedan dos y ya",
        "el once de mayo es mi cumple",
        "ya son dos",
    ],
    ["seize the moment", "once again", "I only play once a week", "an elf on the shelf"],
)

ALL_ISSUE27: list[Case] = [
    *SHORT_EN,
    *SHORT_DE,
    *SHORT_FR,
    *SHORT_ES,
    *DIALECT_DE,
    *SPACED_EN,
    *SPACED_DE,
    *SPACED_FR,
    *SPACED_ES,
    *LARGE_DE,
    *CROSSLANG_FR,
    *CROSSLANG_EN,
    *CROSSLANG_ES,
]
