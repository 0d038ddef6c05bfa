"""Context rules for the words that are a number in one language and an ordinary word in another (policy X8).

Each rule looks at the words right around the look-alike (an article or a preposition before it, a count noun
after it) and, where those say nothing, at the message's :class:`~chatfilter._language.Language`. A rule returns
whether the word counts as a number there. The vocabulary (``chatfilter._number_words.FORMS``) names each
look-alike's rule; ``""`` there means "always a number".

Judgement calls where the policy is silent, each decided by its principles (form, not intent; a little context,
never full language identification):

* ``once``/``seize``/``elf`` alone read as the English words; ``el once``/``le seize``/``die Elf`` count; likewise
  ``ten cuidado`` (Spanish "be careful"), ``au four`` (French oven), ``en quarantaine``/``en cuarentena``
  (quarantine), ``in Sept``.
* ``dos`` is the French back in a French sentence (``sac à dos``, ``le dos``) and English in ``dos and don'ts``;
  ``quince`` is the English fruit in an English sentence (``quince jam``). Both count alone or in Spanish.
* ``neuf`` counts unless it means "new" (tout/flambant/comme neuf, quoi de neuf, remis à neuf, c'est neuf, and
  after a few nouns: ``un jeu neuf``); ``gib acht``/``acht geben``/``in Acht nehmen`` (pay attention) do not
  count, ``acht`` otherwise does. The policy's research section lists both as a number-parser's mistakes.
* A look-alike right after hundred/hundert/cent/ciento is part of a larger number (``hundert elf``) and counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from chatfilter._language import Language, words
from chatfilter._number_words import LARGE_WORDS

__all__ = ["CONTEXT_RULES", "LARGE_PREV", "Context", "number_cue", "number_slot"]

# Context clues for the words that are a number in one language and an ordinary word in another.
_ES_NUM_PREV = words("el los las la al del y o son hasta tengo tiene tienes tenemos quedan hay con de sobre")
_ES_NUM_PREV |= words("juego pongo tiro echo pon solo menos mas más")
# Spanish verbs that take a count ("tengo dos", "me quedan dos"): Spanish whatever the rest of the message is.
_ES_COUNT_PREV = words("tengo tiene tienes tenemos tienen queda quedan juego juegas pongo pones tiro echo pon")
_ES_NUM_NEXT = words("cartas carta veces puntos horas minutos años anos jugadores y o menos mas pilas rondas")
_EN_ONCE_PREV = words("at all for just only more than but and if when not even least this that it i we you they")
_EN_ONCE_NEXT = words("more again upon you i we he she they it the in a an every or and before is was that this")
_EN_ONCE_NEXT |= words("there my your all per")
_FR_NUM_PREV = words("le les du au aux de à a et ou un mon ton son sur avec jusqu vers moins plus ai as en j")
_FR_NUM_PREV |= words("reste restent que qu")
_FR_NUM_NEXT = words("cartes carte fois heures h points ans minutes joueurs et ou piles tours secondes")
_EN_SEIZE_PREV = words("to will must let lets can could should i we you they just and gonna wanna")
_EN_SEIZE_NEXT = words("the this that it an a my your his her their our every any control power opportunity")
_EN_SEIZE_NEXT |= words("chance day moment them him me us up")
_DE_NUM_PREV = words("die der eine ne um bis zur zum ab auf über uber unter noch nur habe hab hat ist sind und")
_DE_NUM_PREV |= words("oder mit von meine deine seine keine lege leg spiele spiel nach vor gegen fast genau")
_DE_NUM_PREV |= words("etwa ca circa bei als unsere wie")
_DE_NUM_NEXT = words("uhr karten karte punkte mal minuten spieler stapel runden jahre und oder sekunden ist")
_DE_NUM_NEXT |= words("liegt drauf runter hoch legen spielen gelegt gespielt")
_EN_ELF_PREV = words("the an a my your his her little dark wood high christmas santa santas evil cute like as")
_EN_ELF_PREV |= words("house blood night sea lil this that cool")
_EN_ELF_NEXT = words("on ears king queen mage archer hat costume is was and or who with in of from")
_FR_TRES_NEXT = words(
    "bien bon bonne bons beau belle mal fort forte cool sympa drole drôle dur dure long longue vite peu",
    "content contente chiant chiante nul nulle proche loin haut haute bas basse gentil important serre serré",
    "facile difficile risque risqué malin intelligent interessant intéressant joli jolie tard tot tôt",
    "souvent rare grand grande petit petite gros grosse clair chaud froid lent rapide simple complique",
    "compliqué fatigue fatigué juste beaucoup mauvais mauvaise fin fine bizarre marrant stressant tendu",
    "tendue calme sur sûr certain pres près vrai efficace utile dangereux chic",
)
_FR_TRES_PREV = words("est suis etait était sont pas c")
# Not "son": French "son dos" (his back) and Spanish "son dos" (they are two) are told apart by the language.
_FR_DOS_PREV = words("le au du mon ton notre votre leur")
_EN_MONTH_PREV = words("in early late mid since until till by of next last this from through end")
_DE_ACHT_PREV = words("gib gebt gibt gab gaben habt hab ausser")
_DE_ACHT_NEXT = words("geben gegeben gibst gibt gab nehmen genommen nimmst nimmt nimm lassen gelassen lasst")
_ES_TEN_NEXT = words("cuidado en paciencia calma fe que esto eso la el los las un una mi tu listo lista ojo")
_EN_NUM_NEXT = words("cards card minutes mins min points turns piles more left back away")
_FR_NEUF_NEW = words("tout toute tous flambant comme etat")
# Nouns after which "neuf" is the adjective "new": un jeu neuf, un regard neuf, du sang neuf.
_FR_NEUF_NEW |= words("jeu deck paquet plateau truc regard oeil sang exemplaire livre velo telephone ordi")
_FR_NEUF_NOUNS = words("heures h cartes carte fois points ans minutes et ou")
_FR_FOUR_PREV = words("un le ce quel mon ton son")
_FR_DOS_AROUND = words("à dos")  # sac à dos, à dos de chameau, dos à dos (accents as typed)
_EN_QUINCE_NEXT = words("jam jelly paste tree trees tart pie fruit fruits cheese juice marmalade jellies")
_EN_QUINCE_PREV = words("a the of with and or some ripe fresh baked")
_EN_NUM_PREV = words("have got has had play lay put only just my your his her the a drew")
# A look-alike right after one of these is part of a larger number ("hundert elf", "ciento once").
LARGE_PREV = frozenset(LARGE_WORDS)


class Context(NamedTuple):
    """The words around a look-alike, casefolded and accent-stripped unless said otherwise."""

    prev: str
    prev2: str
    next: str
    accented: bool  # as typed, before accents were stripped ("très" vs "tres")
    prev_raw: str  # the words before and after as typed, accents kept ("sac à dos")
    next_raw: str


def _spanish_more_than_english(lang: Language) -> bool:
    """More Spanish than English, and not a French sentence that merely shares a word with Spanish ("bien")."""
    return lang.prefers("es", "en") and not lang.prefers("fr", "es")


def _once(c: Context, lang: Language) -> bool:
    """English "once" (at once, once more) vs Spanish 11 (el once, a las once)."""
    if c.prev in _EN_ONCE_PREV or c.next in _EN_ONCE_NEXT:
        return False
    return c.prev in _ES_NUM_PREV or c.next in _ES_NUM_NEXT or _spanish_more_than_english(lang)


def _seize(c: Context, lang: Language) -> bool:
    """English "seize the day" vs French 16 (le seize)."""
    if c.prev in _EN_SEIZE_PREV or c.next in _EN_SEIZE_NEXT:
        return False
    return c.prev in _FR_NUM_PREV or c.next in _FR_NUM_NEXT or lang.prefers("fr", "en")


def _elf(c: Context, lang: Language) -> bool:
    """English "an elf" vs German 11 (die Elf, um elf)."""
    if c.prev in _EN_ELF_PREV or c.next in _EN_ELF_NEXT:
        return False
    return c.prev in _DE_NUM_PREV or c.next in _DE_NUM_NEXT or lang.prefers("de", "en")


def _neuf(c: Context, lang: Language) -> bool:
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


def _tres(c: Context, lang: Language) -> bool:
    """Spanish 3 vs French "très", also when typed without its accent ("tres bien")."""
    if c.accented or c.next in _FR_TRES_NEXT or c.prev in _FR_TRES_PREV:
        return False
    return not lang.prefers("fr", "es")


def _dos(c: Context, lang: Language) -> bool:
    """Spanish 2 vs the French back ("le dos", "sac à dos", "vu de dos") and English "dos and don'ts"."""
    if c.next in _ES_NUM_NEXT or c.prev in _ES_COUNT_PREV or c.prev in LARGE_PREV:
        return True  # a count: "son dos cartas", "il me reste dos cartas", "tengo dos"
    if c.prev in _FR_DOS_PREV or c.prev_raw in _FR_DOS_AROUND or c.next_raw == "à" or lang.prefers("fr", "es"):
        return False
    if c.prev == "a" and c.prev2 == "sac":  # "sac a dos", typed without the accent
        return False
    return c.prev in _ES_NUM_PREV or not (c.next == "and" or c.prev == "the")


def _quince(c: Context, lang: Language) -> bool:
    """Spanish 15 vs the English fruit ("quince jam", "I love quince")."""
    if c.prev in _ES_NUM_PREV or c.next in _ES_NUM_NEXT or c.prev in LARGE_PREV:
        return True
    if c.next in _EN_QUINCE_NEXT or c.prev in _EN_QUINCE_PREV:
        return False
    return not lang.prefers("en", "es")


def _sept(c: Context, lang: Language) -> bool:
    """French 7 vs English "Sept" (September) after a preposition of time."""
    return not (c.prev in _EN_MONTH_PREV and not lang.prefers("fr", "en"))


def _acht(c: Context, lang: Language) -> bool:
    """German 8 vs "gib acht", "acht geben", "in Acht nehmen" (pay attention)."""
    return not (c.prev in _DE_ACHT_PREV or c.next in _DE_ACHT_NEXT)


def _zu(c: Context, lang: Language) -> bool:
    """ "zu zweit", "zu dritt": a count of people; the same stems elsewhere start ordinals."""
    return c.prev == "zu"


def _quarantine(c: Context, lang: Language) -> bool:
    """ "une quarantaine de cartes" (about forty) vs "en quarantaine" (in quarantine)."""
    return c.prev != "en"


def _ten(c: Context, lang: Language) -> bool:
    """English 10 vs the Spanish imperative of "tener" (ten cuidado, ten en cuenta) and French "t'en" typed
    without its apostrophe in a French sentence (ten fais pas); "le ten", "ten cartes" still count."""
    if c.next in _ES_TEN_NEXT:
        return False
    if c.next in _EN_NUM_NEXT or c.next in _FR_NUM_NEXT:
        return True
    if lang.prefers("fr", "en") and c.prev not in _FR_NUM_PREV:
        return False  # French "t'en" typed without its apostrophe: "ten fais pas", "ten veux ?"
    return not _spanish_more_than_english(lang)


def _four(c: Context, lang: Language) -> bool:
    """English 4 vs French "four" (oven, or a flop: "c'est un four")."""
    return not (c.prev in ("au", "du") or (c.prev in _FR_FOUR_PREV and lang.prefers("fr", "en")))


CONTEXT_RULES: dict[str, Callable[[Context, Language], bool]] = {
    "once": _once,
    "seize": _seize,
    "elf": _elf,
    "neuf": _neuf,
    "tres": _tres,
    "dos": _dos,
    "quince": _quince,
    "sept": _sept,
    "acht": _acht,
    "zu": _zu,
    "quarantine": _quarantine,
    "ten": _ten,
    "four": _four,
}


# Per language, the words before and after a number that show a count: what "in context" means for a misspelt
# short number word ("me quedan trres cartas", "I have sxi cards").
_NUM_PREV = {"en": _EN_NUM_PREV, "de": _DE_NUM_PREV, "fr": _FR_NUM_PREV, "es": _ES_NUM_PREV}
_NUM_NEXT = {"en": _EN_NUM_NEXT, "de": _DE_NUM_NEXT, "fr": _FR_NUM_NEXT, "es": _ES_NUM_NEXT}


# Per language, the articles: a misspelling right after one (or before a count noun) stands where a number goes.
_ARTICLES = {
    "en": words("the a an"),
    "de": words("der die den dem ein eine einen einem ne"),  # not "das": "das aht er gesagt" is "hat" mistyped
    "fr": words("le la les l un une du"),
    "es": words("el la los las un una lo"),
}


def number_slot(c: Context, lang: str) -> bool:
    """Whether the word stands where a number goes in ``lang``: after an article or before a count noun ("j'ai le
    _", "die _ liegt", "_ cartas"). Narrower than :func:`number_cue`: "just", "my" or "have" go before names too."""
    return c.prev in _ARTICLES[lang] or c.next in _NUM_NEXT[lang]


def number_cue(c: Context, lang: str) -> bool:
    """Whether the neighbours of a word show a count in ``lang``: "tengo _", "_ cartas", "ich habe _"."""
    return c.prev in _NUM_PREV[lang] or c.next in _NUM_NEXT[lang] or c.prev in LARGE_PREV
