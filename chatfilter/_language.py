"""Which language a message is written in, decided once per message from the function words it contains.

A few words are a number in one language and an ordinary word in another (policy X8): Spanish ``dos`` (2) is
French ``dos`` (the back, "sac à dos"), Spanish ``quince`` (15) is the English fruit, French ``sept`` is English
"Sept." and English ``once`` is Spanish 11. Such a word is judged by the language it is used in. Full language
identification would be slow and is not needed: each language's commonest function words (articles, pronouns,
auxiliaries, prepositions, and the game's own nouns such as card/Karte/carte/carta) are listed, and a message's
:class:`Language` counts, once and only when a look-alike needs it, how many of its words belong to each language.

**Mixed-language messages.** A look-alike compares only the two languages it belongs to: ``dos`` is the
French word when the message has more French than Spanish function words, the Spanish number when it has more
Spanish ones; English and German words in the same message do not matter to it. (Words of both French and
Spanish, such as ``bien``, count for both; ``once`` and ``ten``, English against Spanish, are not taken for
Spanish in a sentence that is more French than Spanish.) The look-alike's neighbours come first, where they are
clear (a count noun after it, a verb that takes a count before it, ``à`` or an article before it:
``tengo dos``, ``dos cartas``, ``sac à dos``, ``le dos``); on a tie of the languages, which includes a message
without any listed word, the look-alike's default decides, which for most look-alikes is the number. So ``j'ai
mal au dos, tengo dos`` deletes (``tengo dos`` is a Spanish count, whatever the majority), ``sac à dos por
favor`` keeps the bag, and a lone ``dos`` counts. The filter leans
towards deleting when nothing tells the languages apart: a number let through breaks the game, while a removed
message can be said again. A word typed with its accent (``très``) is the word of the language that writes it so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import compress, count

__all__ = ["COMMON", "FUNCTION_WORDS", "LANGUAGES", "Language", "words"]


def words(*groups: str) -> frozenset[str]:
    """A set of words, written as space-separated groups."""
    return frozenset(w for group in groups for w in group.split())


_EN = words(
    "the and is are you your it its that this what have has just not can will with play please pls we me my",
    "at be were do don go going yes yeah but if all good nice wait turn there here now then up down",
    "low high next more less want need got get let lets would should could they them he she his her our us",
    "who why how when where again still too very really think know see like for from by about after before",
    "over back way of to card cards pile piles than only every chance i im i'm anyone someone sorry",
)
_DE = words(
    "ich du sie wir ihr und oder aber nicht kein keine der das den dem des eine einen einem ist sind bin bist",
    "hab habe hat haben kann kannst noch schon auch mal nur bitte danke gut ja nein hier jetzt dann wenn weil",
    "mit auf für fur von zum zur im ins bei nach vor über uber unter mehr weniger karte karten stapel lege",
    "legen spiele spielen warte warten gleich los doch wer wie wo warum nächste letzte uhr mir mich dich dir",
    "uns euch um bis heute sehr viel wieder nix nee geht gibt habt seid muss musst soll sollte würde",
)
_FR = words(
    "je j il elle nous vous ils elles le les des du au aux et ou mais pas est suis sont ai avons avez ont c",
    "qu qui quoi avec pour sur dans chez plus moins très bien oui merci carte cartes mon ma mes ton ta tes ce",
    "cette ces ça ca peux peut vais faut fait jouer joue attends encore déjà deja tout tous toute heures rien",
    "beaucoup trop peu là ici maintenant après apres avant quand comment pourquoi une n l d ne suis moi toi",
)
_ES = words(
    "yo él el ella nosotros ustedes los las unos unas y pero sí soy estoy está esta están estan tengo tienes",
    "tiene tenemos puedo puedes puede qué con para por sin sobre del al muy gracias carta cartas pila mi mis",
    "tus su sus este eso esto ese esa aquí aqui ahora después despues cuando como porque pues vale juego jugar",
    "juega juegas pongo poner espera esperar hay más menos mucho poco nada todo todos también tambien ya hola",
    "vamos cual cuál donde dónde creo voy vas",
)
# Interjections ("ok", "oh") are no English words here: chat in every language uses them ("ok no venta").
# More function words, so that a short sentence still shows its language ("sac à dos", "quince jam is great").
_EN |= words("am was been had did does which some any much many into onto because maybe also though an")
_DE |= words("ein zu sein waren wird werden dass damit sich euer mein dein unser")
_FR |= words("à être été était avoir fais dois veux sais vraiment toujours jamais aussi sans sous cet notre votre")
_FR |= words("leur leurs donc alors voilà hein sa ses cela")
_ES |= words("una lo fue hace eres tú usted hemos estás tener hacer ser estar")
# Words of both French and Spanish count for both, so that neither wins by them alone.
_ES |= words("bien les")

LANGUAGES = ("en", "de", "fr", "es")
# Accents stripped too, for comparing with tokens that lost theirs.
FUNCTION_WORDS: dict[str, frozenset[str]] = dict(zip(LANGUAGES, (_EN, _DE, _FR, _ES), strict=True))
# Each listed word with the languages it belongs to ("la" is French and Spanish), and those of one letter.
_LANGUAGES_OF: dict[str, tuple[str, ...]] = {}
for _lang, _vocab in FUNCTION_WORDS.items():
    for _w in _vocab:
        _LANGUAGES_OF[_w] = (*_LANGUAGES_OF.get(_w, ()), _lang)
_LISTED_LETTERS = frozenset(word for word in _LANGUAGES_OF if len(word) == 1)


# A lone letter is a word before an apostrophe (a French elision: j'ai, c'est), and the English "I" before a word
# ("I have ni ne"); elsewhere it may be a letter of a spelled-out word ("d o s").
_APOSTROPHES = ("'", "’")


class Language:
    """How many function words of each language a message holds (its tokens casefolded, accents as typed, and
    the separators before them)."""

    __slots__ = ("_counts",)

    def __init__(self, tokens: list[str], seps: list[str]) -> None:
        # Counted per distinct word (a long message repeats its words); a one-letter word is a word only where it
        # stands before an apostrophe or a word, so those are looked at one by one.
        listed = Counter(filter(_LANGUAGES_OF.__contains__, tokens))
        letters = _LISTED_LETTERS.intersection(listed)
        if letters:
            for token in letters:
                listed[token] = 0
            # The places of the one-letter words are picked in C (a loop over the tokens cost a step per token on a
            # message of a thousand single letters), and without an apostrophe only the places of "i".
            separators = "".join(seps)
            if "'" in separators or "’" in separators:
                places: Iterable[int] = compress(count(), map(letters.__contains__, tokens))
            else:
                places = compress(count(), map("i".__eq__, tokens)) if "i" in listed else ()
            last = len(tokens) - 1
            for k in places:
                if seps[k + 1].startswith(_APOSTROPHES) or (tokens[k] == "i" and k < last and len(tokens[k + 1]) > 1):
                    listed[tokens[k]] += 1
        counts = dict.fromkeys(LANGUAGES, 0)
        for token, times in listed.items():
            for lang in _LANGUAGES_OF[token]:  # one language or two, where a test of every language cost four steps
                counts[lang] += times
        self._counts = counts

    def prefers(self, lang: str, other: str) -> bool:
        """Whether the message reads more like ``lang`` than like ``other``."""
        return self._counts[lang] > self._counts[other]

    def is_silent(self) -> bool:
        """Whether the message holds no function word of any language (a lone word, "sxi left")."""
        return not any(self._counts.values())

    def is_mainly(self, lang: str) -> bool:
        """Whether ``lang`` has more function words in the message than any other language."""
        mine = self._counts[lang]
        return mine > 0 and all(count < mine for other, count in self._counts.items() if other != lang)


# Fragments that are everyday words themselves. Two of them next to each other are two words, not a word
# split in two: "se ven" (Spanish) is not "seven", "s even" is not "seven".
COMMON = (
    _EN
    | _DE
    | _FR
    | _ES
    | frozenset("abcdefghijklmnopqrstuvwxyz")
    | words(
        "a an in on no so was die hat er es en de la un tu se si me te ni do to ve vi fun set sec sin neu eben",
        "even ever our ur ty thx gg wp lol non o ven ante trent ben tree thr four ties venta ive eux os di vin fort",
        "ach vie sei ours fit doc eis",
    )
)
