"""Held-out labelled chat for issue 40's kinds: (text, label, rule).

Written from the policy (section 1 of the no-numbers rules) before the filter was changed for issue 40, and not
tuned against it afterwards: a number word split by one ordinary space ("thr ee", "zwan zig"), a short number
word with one letter added, dropped or swapped ("sxi", "fve", "tweo"), and invisible characters inside a word
(soft hyphen, zero-width space and joiner, word joiner, variation selectors, hair space...). Each group holds
both labels: the number is there (1), or ordinary chat that merely sits close to one (0): two ordinary short
words side by side ("a t-shirt", "se ven bien"), real words one letter away from a number word, invisible
characters inside ordinary words. ``rule`` is ``"<kind>-<lang>"``.
"""

from __future__ import annotations

Case = tuple[str, int, str]


def _group(kind: str, lang: str, positives: list[str], negatives: list[str]) -> list[Case]:
    return [(t, 1, f"{kind}-{lang}") for t in positives] + [(t, 0, f"{kind}-{lang}") for t in negatives]


SPLIT_EN = _group(
    "split",
    "en",
    [
        "thr ee",
        "I have thr ee cards left",
        "tw elve is my lowest",
        "play the fi ve on pile B",
        "I can go sev en",
        "for ty",
        "my best is for ty",
        "I've got el even",
        "ei ght",
        "put the ni ne down",
        "twen ty on the up pile",
        "fif teen, anyone?",
        "I hold thir teen and fou rteen",
        "si xty left in the deck",
        "eigh teen is close",
        "se venty",
        "I have se ven",
        "tw o cards left",
        "fo rty two",
        "ni nety",
    ],
    [
        "a t-shirt with the logo",
        "I got a t shirt from the con",
        "it was even better",
        "so even then we lose",
        "for the win",
        "at least one more turn",
        "to o much talking lol",
        "we are the team",
        "the river is low",
        "on the left pile",
        "I'm in for it",
        "no one else?",
        "the tree is big",
        "it's fine, go ahead",
    ],
)

SPLIT_DE = _group(
    "split",
    "de",
    [
        "zwan zig",
        "ich hab die zwan zig",
        "dr ei Karten noch",
        "leg die sie ben drauf",
        "ich hab die ne un",
        "fün fzig auf dem Stapel",
        "die ze hn liegt schon",
        "noch zw ei Karten",
        "ich hab die vi er",
        "acht zig ist meine",
        "die sech zig passt",
        "dreiß ig liegt oben",
        "zw ölf geht noch",
        "ich hab die neun zehn",
        "vier zehn wäre gut",
    ],
    [
        "sie ist dran",
        "die Karte passt nicht",
        "ich bin so weit",
        "ach so, dann warte ich",
        "neu hier, hallo",
        "das ist zig mal passiert",
        "wir sind fast durch",
        "er hat es gesagt",
        "mach du zuerst",
        "nie wieder so knapp",
        "geht es noch?",
        "zeig mal her",
    ],
)

SPLIT_FR = _group(
    "split",
    "fr",
    [
        "j'ai le vin gt",
        "qua rante",
        "je pose le tren te",
        "il me reste qu atre cartes",
        "cin quante sur la pile",
        "j'ai le dou ze",
        "tr ois cartes en main",
        "le soix ante est posé",
        "j'ai le qua torze",
        "je garde le hu it",
        "de ux cartes",
        "j'ai le quin ze",
        "le tre ize passe",
    ],
    [
        "on se voit plus tard",
        "je suis en train de réfléchir",
        "tu as vu ça ?",
        "il est à toi de jouer",
        "le vin est bon",
        "en te voyant jouer",
        "on a gagné",
        "si tu veux",
        "qu'est-ce que tu fais ?",
        "de rien, bien joué",
        "pas de souci",
        "je te laisse jouer",
    ],
)

SPLIT_ES = _group(
    "split",
    "es",
    [
        "trein ta",
        "tengo el trein ta",
        "cua tro cartas",
        "me quedan ci nco",
        "pongo el die z",
        "tengo el cator ce",
        "juego el vein te",
        "cuar enta en la pila",
        "el ses enta ya está",
        "tengo el noven ta",
        "me quedan se is",
        "pongo el o cho",
        "el die ciséis",
        "tengo el qui nce",
    ],
    [
        "se ven bien las cartas",
        "no venta de cartas aquí",
        "se fue hace rato",
        "te toca a ti",
        "no sé qué hacer",
        "me voy en un rato",
        "ya está, sigue",
        "a ver qué pasa",
        "lo que tú digas",
        "se nota que sabes jugar",
        "es tu turno",
        "no me digas",
    ],
)

TYPO_EN = _group(
    "typo",
    "en",
    [
        "sxi",
        "I have sxi",
        "tweo",
        "got the tewo",
        "fve",
        "I can play fve now",
        "nien",
        "the nnie is gone",
        "eihgt",
        "I hold the fuor",
        "sevne",
        "thre",
        "play the tenn",
        "my card is etn",
        "isx left",
    ],
    [
        "tow the line",
        "the tan one",
        "I ate already",
        "sit tight",
        "eat first, then play",
        "I own that",
        "fine with me",
        "give me a sec",
        "in there",
        "the fire is on",
        "for sure",
        "that's a fit",
        "won it",
    ],
)

TYPO_DE = _group(
    "typo",
    "de",
    [
        "zwie",
        "ich hab die zwie",
        "driei",
        "ich lege die drie",
        "veir",
        "ich habe die nuen",
        "die fnüf liegt",
        "sehcs",
        "ich hab die aht",
        "die zhen liegt",
        "die ehlf",
        "sibeen",
    ],
    [
        "das Bier ist kalt",
        "vier Augen sehen mehr",  # a number: kept out of the negatives below
        "mein Zweig",
        "ich sehe nichts",
        "das Ziel ist nah",
        "mein Zeh tut weh",
        "hier ist es",
        "der Dieb war es",
        "ich war dabei",
        "der Eid gilt",
    ],
)
# "vier Augen" is a number word (W1): moved to the positives by label.
TYPO_DE = [(t, 1 if t.startswith("vier ") else label, rule) for t, label, rule in TYPO_DE]

TYPO_FR = _group(
    "typo",
    "fr",
    [
        "j'ai le deuz",
        "duex",
        "je pose le ciqn",
        "j'ai le hiut",
        "nuef",
        "j'ai le setp",
        "dxi",
        "je garde le onez",
        "j'ai le troi",
        "le quatr est là",
    ],
    [
        "c'est mieux",
        "il fait chaud",
        "on est deux à hésiter",  # a number: label fixed below
        "ça suit son cours",
        "le huis clos",
        "c'est nul",
        "le nuit tombe",
        "je suis là",
        "dis-le-moi",
        "trop bien",
    ],
)
TYPO_FR = [(t, 1 if " deux " in t else label, rule) for t, label, rule in TYPO_FR]

TYPO_ES = _group(
    "typo",
    "es",
    [
        "tengo el dso",
        "sies",
        "tengo el ohco",
        "me quedan cautro",
        "pongo el dize",
        "el nuvee",
        "sieet",
        "tengo el cinoc",
        "el doec",
        "juego el trse",
    ],
    [
        "dijo que sí",
        "cada uno juega",
        "el sol brilla",
        "es seis o nada",  # a number: label fixed below
        "esto es de todos",
        "no sé",
        "dice que sí",
        "la voz de ella",
        "el nivel es alto",
        "me siento bien",
    ],
)
TYPO_ES = [(t, 1 if " seis " in t else label, rule) for t, label, rule in TYPO_ES]

SHY = "\u00ad"
ZWSP = "\u200b"
ZWJ = "\u200d"
ZWNJ = "\u200c"
WJ = "\u2060"
VS16 = "\ufe0f"
VS1 = "\ufe00"
HAIR = "\u200a"
THIN = "\u2009"
INVSEP = "\u2063"
MVS = "\u180e"
TAG = "\U000e0020"
SHORTHAND = "\U0001bca0"
CGJ = "\u034f"

INVISIBLE_EN = _group(
    "invisible",
    "en",
    [
        f"thre{SHY}e",
        f"I have tw{ZWSP}elve",
        f"play the fi{ZWJ}ve",
        f"se{WJ}ven left",
        f"ni{VS16}ne",
        f"for{ZWNJ}ty",
        f"eig{HAIR}ht on A",
        f"twen{INVSEP}ty",
        f"si{MVS}x",
        f"el{TAG}even",
        f"fi{SHORTHAND}ve",
        f"t{SHY}w{SHY}o",
        f"fif{CGJ}teen",
        f"thir{THIN}ty",
    ],
    [
        f"hel{SHY}lo every{ZWSP}one",
        f"good{ZWJ} game",
        f"wait{WJ} for me",
        f"nice move {VS16}",
        f"a{SHY} t-shirt",
        f"I'm{HAIR} in",
        f"let{ZWSP}'s go",
        f"the {ZWNJ}end",
        f"so{THIN} even",
        f"to{SHY}o slow",
    ],
)

INVISIBLE_DE = _group(
    "invisible",
    "de",
    [
        f"zwan{SHY}zig",
        f"ich hab die sie{ZWSP}ben",
        f"dr{ZWJ}ei",
        f"die ne{WJ}un liegt",
        f"fünf{VS1}zig",
        f"ach{HAIR}t",
        f"vier{SHY}zehn",
        f"zw{MVS}ölf",
    ],
    [
        f"Spiel{SHY}karte",
        f"ich{ZWSP} warte",
        f"gut{ZWJ} gemacht",
        f"na{WJ} gut",
        f"sie{HAIR} ist dran",
        f"die{THIN} Karte",
    ],
)

INVISIBLE_FR = _group(
    "invisible",
    "fr",
    [
        f"vin{SHY}gt",
        f"j'ai le tr{ZWSP}ente",
        f"qua{ZWJ}rante",
        f"ci{WJ}nq",
        f"le hu{VS16}it",
        f"dou{HAIR}ze",
        f"soix{TAG}ante",
    ],
    [
        f"bon{SHY}jour",
        f"à toi{ZWSP} de jouer",
        f"bien{ZWJ} joué",
        f"on{HAIR} y va",
        f"c'est{WJ} parti",
    ],
)

INVISIBLE_ES = _group(
    "invisible",
    "es",
    [
        f"trein{SHY}ta",
        f"tengo el cua{ZWSP}tro",
        f"ci{ZWJ}nco",
        f"die{WJ}z",
        f"no{VS16}venta",
        f"ca{HAIR}torce",
        f"die{SHY}ci{SHY}siete",
    ],
    [
        f"ho{SHY}la",
        f"buen{ZWSP} juego",
        f"te{ZWJ} toca",
        f"muy{WJ} bien",
    ],
)

ALL_ISSUE40: list[Case] = [
    *SPLIT_EN,
    *SPLIT_DE,
    *SPLIT_FR,
    *SPLIT_ES,
    *TYPO_EN,
    *TYPO_DE,
    *TYPO_FR,
    *TYPO_ES,
    *INVISIBLE_EN,
    *INVISIBLE_DE,
    *INVISIBLE_FR,
    *INVISIBLE_ES,
]
