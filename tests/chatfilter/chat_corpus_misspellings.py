"""Labelled chat messages for policy W2's misspellings, respellings and disguises (issue 17): (text, label, rule).

Written from the policy, not from the filter: W2 counts a word a reader takes for a number word with one letter
added, dropped, doubled, swapped or replaced, or spelt as spoken, unless the result is itself an ordinary word of
English, German, French or Spanish; letters with stray diacritics and censor characters inside a word are read
through. Each group holds one language and one kind, both sides: label 1 (the number is there) and label 0
(a look-alike ordinary word, or ordinary chat that has to stay). ``rule`` is ``"<kind>-<lang>"``.
"""

from __future__ import annotations

Case = tuple[str, int, str]


def _group(kind: str, lang: str, positives: list[str], negatives: list[str]) -> list[Case]:
    return [(t, 1, f"{kind}-{lang}") for t in positives] + [(t, 0, f"{kind}-{lang}") for t in negatives]


MISSPELLING_EN = _group(
    "misspelling",
    "en",
    [
        "pls dont lay thrity on B",
        "i have twlve cards left",
        "thirtey is close to the top",
        "sevn on the left pile",
        "eigt goes on A",
        "elevn left in my hand",
        "nineten fits on C",
        "seventen is too far",
        "fouteen on the down pile",
        "twleve, then we're safe",
        "got a fiftey",
        "ninenty on the top",
        "sevem maybe?",
        "fivr please",
        "put the ninr down",
        "eigth is the best I got",
        "thre on the first pile",
        "twentu something",
        "eightty six",
        "sixtey is my lowest",
        "fuor on B",
        "tirteen left",
        "I have the fourtyfive",
        "thrity-one",
        "seventyy",
    ],
    [
        "I threw the wrong card",
        "let's go forth",
        "the weight of this move",
        "that was a dose of bad luck",
        "we're up a tree here",
        "hold the fort",
        "fine by me",
        "there you go",
        "none of mine fit",
        "give it a sec",
        "I'll live with it",
        "even better now",
        "fifth time lucky",
        "sixth sense told me",
        "in eighth heaven lol",
        "I was in seventh heaven",
        "my fourth card is bad",
        "aight let's go",
        "fight me",
        "that's a nice line",
        "I'll give it a try",
        "night all",
        "wait, my bad",
        "sweet move",
        "I see thee",
        "tweet me later",
        "the fortnight is over",
        "Nina plays next",
        "Sven, your turn",
        "the tenth time today",
    ],
)

DIALECT_EN = _group(
    "dialect",
    "en",
    ["tree fiddy", "thoity on the up pile", "tirty is mine", "foive cards", "noine", "sixdy", "eighdy-two", "seben"],
    ["tree house", "twee but fine", "I'm in a tree", "y'all are slow", "gonna play low", "ain't no way"],
)

CENSOR_EN = _group(
    "censor",
    "en",
    ["tw*lve", "th*rty on A", "s*ven", "f*fty", "n*nety", "e#ght", "sev*n please", "tw#nty", "fo*r on B", "el_ven"],
    ["f*ck this pile", "holy sh*t", "what the h*ll", "d*mn it", "fr*ck", "wh*t a move", "my_turn", "s*x", "t*n"],
)

DIACRITICS_EN = _group(
    "diacritics",
    "en",
    ["ẗwëlvë", "thrëë", "sëvën", "fïvë", "nïnë left", "ëight", "fôrty", "twēnty", "thïrty-twö", "fïftëën"],
    ["fïrst pile", "sëcond pile", "wëight", "förth", "thrëw it", "dösë", "trëë", "fïne", "lïve", "ëven", "öften"],
)

MISSPELLING_DE = _group(
    "misspelling",
    "de",
    [
        "ich hab zwanzich",
        "dreizig geht",
        "leg die achzig",
        "siebzehen passt",
        "neunzehen ist zu hoch",
        "zwanig auf den ersten",
        "sechsig ist noch drin",
        "nuen auf C",
        "zwölv",
        "zwöf ist meine kleinste",
        "fümf",
        "sibzehn",
        "einundzwanzich",
        "vierundvierzich bitte",
        "dreiunddreisig",
        "drie",
        "zwie Karten noch",
        "fuffzich",
        "vierzisch",
    ],
    [
        "neue Runde?",
        "nein, lieber nicht",
        "dreh mal die Reihenfolge",
        "echt jetzt?",
        "macht nix",
        "gute Nacht",
        "hier bitte",
        "viel Glück",
        "ich bin frei",
        "die Eier sind kalt",
        "ein Zweig",
        "der Zahn tut weh",
        "guter Fund",
        "ich achte drauf",
        "die Elfen",
        "die achte Karte war gut",
        "lieben Gruß",
        "Sachs hat gewonnen",
        "meine Zehe",
        "so ein Dreck",
        "der Zwerg",
        "einmal reicht",
    ],
)

DIALECT_DE = _group(
    "dialect",
    "de",
    [
        "zwoa no",
        "i hob zwee",
        "fuchzig",
        "sechzg",
        "neunzg",
        "drissg",
        "auf allen vieren",
        "alle viere von sich strecken",
        "fünfe gerade sein lassen",
        "um zehne treffen wir uns",
        "wir waren zu dreien",
        "zwanzich euro",
        "alle neune!",
        "wir spielen zu fünfen",
        "fuffzehn",
    ],
    [
        "i hob koa Ahnung",
        "passt scho",
        "des is a Schmarrn",
        "gell, des geht",
        "servus mitnand",
        "wos isch los",
        "heit ned",
        "i moag nimma",
        "ois guad",
        "hock di hi",
        "des basst",
        "geh weida",
        "alles neu macht der Mai",
        "die Diät fängt morgen an",
        "nix für ungut",
    ],
)

CENSOR_DE = _group(
    "censor",
    "de",
    ["zw*nzig", "dr#i", "si*ben", "vi*rzig", "ach_zig", "neun*ehn"],
    ["sch*isse", "verd*mmt", "Sch#ß", "so ein M*ist", "S*u", "Mist_Karte"],
)

DIACRITICS_DE = _group(
    "diacritics",
    "de",
    ["zwëi", "drëi", "sïeben", "zwänzig", "nëun", "ächt und zwanzig"],
    ["nëue Runde", "nëin", "hïer", "vïel Glück", "zwëite Reihe", "frëi"],
)

MISSPELLING_FR = _group(
    "misspelling",
    "fr",
    [
        "soixente",
        "j'ai soissante-dix",
        "quarente",
        "trante",
        "cinqante sur la pile",
        "treise",
        "quatorse",
        "trentre et un",
        "disept",
        "dizuit",
        "deux quatres",
        "katorze",
        "kinze",
    ],
    [
        "il vint me voir",
        "dis-moi",
        "c'est douce",
        "sans doute",
        "tout doux",
        "ceux-là",
        "les jeux sont faits",
        "bonne nuit",
        "il fuit",
        "la suite",
        "c'est cuit",
        "à huis clos",
        "une carte neuve",
        "la dixième fois",
    ],
)

DIALECT_FR = _group(
    "dialect",
    "fr",
    ["j'ai le swasante-dix", "swasante", "katre", "katorz", "kinz", "karante-deux", "l'opéra de quat'sous"],
    ["un jeu neuf", "un regard neuf", "du sang neuf", "quoi de neuf", "kiffe", "wesh", "le quota est atteint"],
)

CENSOR_FR = _group(
    "censor",
    "fr",
    ["qu*tre", "tr*nte", "ci*quante", "so#xante"],
    ["p*tain", "m*rde", "c*n", "bord#l"],
)

DIACRITICS_FR = _group(
    "diacritics",
    "fr",
    ["trëize", "quätre", "seizë cartes", "vïngt"],
    ["très bien vu", "déjà", "même pas", "où ça"],
)

MISSPELLING_ES = _group(
    "misspelling",
    "es",
    [
        "ventidos",
        "bentidos",
        "beintitres",
        "trenta",
        "sessenta",
        "treinti",
        "deiciseis",
        "veintisies",
        "ochienta",
        "cetenta",
        "nobenta",
        "siette",
        "tengo el katorce",
        "kuatro",
        "quarenta",
    ],
    [
        "una dose de suerte",
        "algo nuevo",
        "la nueva ronda",
        "en mi cuarto",
        "vente conmigo",
        "la novena",
        "¿veis?",
        "un cuadro",
        "dice que no",
        "echo la carta",
        "el cinto",
        "la ventana",
        "qué dulce",
        "una quinta",
        "lo siento mucho",
        "un juego nuevo",
    ],
)

DIALECT_ES = _group(
    "dialect",
    "es",
    ["sinco", "catorse", "trese", "quinse", "onse y sinco", "veintisinco", "disisiete"],
    ["sero", "pos si", "pa' que", "ándale", "órale", "ta bueno", "no disimules"],
)

CENSOR_ES = _group(
    "censor",
    "es",
    ["tr*inta", "cu#tro", "si*te", "och*nta"],
    ["m*erda", "j*der", "p*ta", "co#o"],
)

DIACRITICS_ES = _group(
    "diacritics",
    "es",
    ["sïete", "öcho", "cuärenta"],
    ["mäs", "aquï", "nïño"],
)

ALL_NEW: list[Case] = [
    *MISSPELLING_EN,
    *DIALECT_EN,
    *CENSOR_EN,
    *DIACRITICS_EN,
    *MISSPELLING_DE,
    *DIALECT_DE,
    *CENSOR_DE,
    *DIACRITICS_DE,
    *MISSPELLING_FR,
    *DIALECT_FR,
    *CENSOR_FR,
    *DIACRITICS_FR,
    *MISSPELLING_ES,
    *DIALECT_ES,
    *CENSOR_ES,
    *DIACRITICS_ES,
]
