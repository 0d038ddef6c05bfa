"""Ordinary table talk as people type it, generated: the second false-alarm corpus of issue 40 (wave 5).

Where ``ordinary_chat`` fills whole sentences, this generator builds a message from parts (an opener, a body about
the game and a closer, each optional) in the shorthand of real chat: dropped apostrophes ("its", "dont", "jai"),
dropped accents ("tres bien", "esta"), chat abbreviations ("pls", "jsp", "xq", "hab"), everyday typos ("teh",
"jsut", "nich") and short words side by side, which is where a word split by a space could be misread ("it s",
"a t-shirt", "se ven", "on se", "sie ist"). No part is a number word, a misspelt one, a digit or a Roman numeral,
so every line is label 0 under the policy. Seeded: the same lines on every run and machine.
"""

from __future__ import annotations

import random
import re
import unicodedata

__all__ = ["LANGUAGES", "table_talk"]

LANGUAGES = ("en", "de", "fr", "es")

_OPENERS: dict[str, list[str]] = {
    "en": [
        "ok", "hmm", "well", "so", "oh", "ah", "yeah", "nah", "wait", "lol", "haha", "ugh", "hey", "sorry",
        "alright", "right", "oops", "btw", "tbh", "ngl", "idk", "omg", "welp", "hm ok", "oh no", "gg",
    ],
    "de": [
        "ok", "hm", "also", "naja", "oh", "ach", "ja", "nee", "warte", "lol", "haha", "boah", "hey", "sorry", "gut",
        "tja", "hups", "übrigens", "ehrlich gesagt", "keine Ahnung", "oh mann", "na gut", "ach so",
    ],
    "fr": [
        "ok", "bon", "alors", "bah", "oh", "ah", "ouais", "non", "attends", "mdr", "ptdr", "pff", "coucou", "désolé",
        "bref", "euh", "oups", "au fait", "franchement", "jsp", "oh non", "tkt", "ah bon",
    ],
    "es": [
        "ok", "bueno", "pues", "vale", "oh", "ah", "sí", "no", "espera", "jaja", "jajaja", "uf", "hola", "perdón",
        "venga", "a ver", "uy", "por cierto", "la verdad", "ni idea", "ay no", "hombre", "oye",
    ],
}  # fmt: skip
_CLOSERS: dict[str, list[str]] = {
    "en": [
        "lol", "haha", "pls", "please", "thx", "ty", "np", ":)", ":(", ":D", "xD", "<3", "!!", "?", "...", "I guess",
        "right?", "tbh", "for now", "ok?", "imo", "😅", "🙏", "👍",
    ],
    "de": [
        "lol", "haha", "bitte", "danke", "dankeschön", ":)", ":(", ":D", "xD", "<3", "!!", "?", "...", "oder?",
        "glaub ich", "finde ich", "erstmal", "ok?", "mMn", "😅", "🙏", "👍", "gell",
    ],
    "fr": [
        "mdr", "lol", "stp", "svp", "merci", "mrc", ":)", ":(", ":D", "xD", "<3", "!!", "?", "...", "je crois",
        "non ?", "hein", "pour l'instant", "ok ?", "à mon avis", "😅", "🙏", "👍",
    ],
    "es": [
        "jaja", "porfa", "por favor", "gracias", "grax", ":)", ":(", ":D", "xD", "<3", "!!", "?", "...", "creo",
        "¿no?", "eh", "de momento", "¿vale?", "la verdad", "😅", "🙏", "👍", "tío",
    ],
}  # fmt: skip
_SLOTS: dict[str, dict[str, list[str]]] = {
    "en": {
        "who": [
            "Ana", "Ben", "Sam", "Lea", "Tom", "Nina", "Sven", "Eve", "Jo", "Mia", "Ty", "Al", "you", "we", "he",
            "she", "they", "everyone", "someone", "nobody",
        ],
        "pile": [
            "the left pile", "pile A", "pile B", "pile C", "pile D", "the first up pile", "the last pile",
            "the second pile", "the third pile", "the fourth pile", "the down piles", "the up ones", "that pile",
            "your pile", "the hundred pile",
        ],
        "adj": [
            "high", "low", "close", "far off", "risky", "safe", "tight", "fine", "huge", "small", "awkward",
            "perfect", "bad", "good", "weird", "tricky", "nice", "decent", "ok", "rough",
        ],
        "act": [
            "play", "wait", "pass", "go", "hold", "lay down", "skip", "block", "save it", "jump", "stop", "take it",
            "drop", "go low", "go high", "help",
        ],
        "thing": [
            "my hand", "the deck", "the draw pile", "that card", "the board", "a t-shirt", "the rules",
            "the backwards trick", "a big jump", "a small step", "the middle range", "your turn", "this game",
            "a couple", "a few", "both", "single digits", "the last one", "one more", "no one",
        ],
    },
    "de": {
        "who": [
            "Anna", "Ben", "Lea", "Tom", "Nina", "Jan", "Eva", "Uwe", "Ole", "Kai", "Ida", "du", "wir", "er", "sie",
            "ihr", "jemand", "keiner", "man",
        ],
        "pile": [
            "den linken Stapel", "Stapel A", "Stapel B", "Stapel C", "Stapel D", "den ersten Stapel",
            "den zweiten Stapel", "den letzten Stapel", "die Abwärtsstapel", "deinen Stapel", "den da", "die oberen",
        ],
        "adj": [
            "hoch", "tief", "knapp", "weit weg", "riskant", "sicher", "eng", "gut", "schlecht", "komisch",
            "schwierig", "nah dran", "okay", "blöd", "super", "ungünstig", "perfekt",
        ],
        "act": [
            "spielen", "warten", "legen", "passen", "aussetzen", "blocken", "sparen", "springen", "aufhören",
            "nehmen", "ablegen", "tief gehen", "hoch gehen", "helfen",
        ],
        "thing": [
            "meine Hand", "den Nachziehstapel", "die Karte", "das Brett", "den Rückwärtstrick", "die Regeln",
            "einen großen Sprung", "einen kleinen Schritt", "den mittleren Bereich", "deinen Zug", "das Spiel",
            "ein T-Shirt", "ein paar", "beide", "noch eine", "keine", "die letzte",
        ],
    },
    "fr": {
        "who": [
            "Anne", "Ben", "Léa", "Tom", "Nina", "Jean", "Eve", "Luc", "Zoé", "Paul", "Inès", "tu", "on", "il",
            "elle", "vous", "quelqu'un", "personne",
        ],
        "pile": [
            "la pile de gauche", "la pile A", "la pile B", "la pile C", "la pile D", "la première pile",
            "la deuxième pile", "la dernière pile", "les piles descendantes", "la pile du cent", "ta pile",
            "celle-là", "les montantes",
        ],
        "adj": [
            "haut", "bas", "proche", "loin", "risqué", "sûr", "serré", "bien", "nul", "bizarre", "difficile",
            "tout près", "correct", "pas mal", "parfait", "moyen", "génial",
        ],
        "act": [
            "jouer", "attendre", "poser", "passer", "bloquer", "garder", "sauter", "arrêter", "prendre", "descendre",
            "monter", "aider", "réfléchir",
        ],
        "thing": [
            "ma main", "la pioche", "cette carte", "le plateau", "la marche arrière", "les règles", "un grand saut",
            "un petit pas", "le milieu", "ton tour", "la partie", "un t-shirt", "quelques-unes", "une de plus",
            "aucune", "la dernière", "mon sac à dos",
        ],
    },
    "es": {
        "who": [
            "Ana", "Ben", "Lea", "Tom", "Nina", "Juan", "Eva", "Luis", "Sol", "Pablo", "Inés", "tú", "él", "ella",
            "vosotros", "alguien", "nadie", "todos",
        ],
        "pile": [
            "la pila de la izquierda", "la pila A", "la pila B", "la pila C", "la pila D", "la primera pila",
            "la segunda pila", "la última pila", "las pilas que bajan", "la pila del cien", "tu pila", "esa",
            "las que suben",
        ],
        "adj": [
            "alta", "baja", "cerca", "lejos", "arriesgada", "segura", "justa", "buena", "mala", "rara", "difícil",
            "perfecta", "fatal", "genial", "normal", "complicada",
        ],
        "act": [
            "jugar", "esperar", "poner", "pasar", "bloquear", "guardar", "saltar", "parar", "coger", "bajar",
            "subir", "ayudar", "pensar",
        ],
        "thing": [
            "mi mano", "el mazo", "esa carta", "el tablero", "el truco de retroceso", "las reglas",
            "un salto grande", "un paso pequeño", "el rango medio", "tu turno", "la partida", "una camiseta",
            "unas pocas", "ambas", "una más", "ninguna", "la última",
        ],
    },
}  # fmt: skip
_BODIES: dict[str, list[str]] = {
    "en": [
        "{who} can {act} on {pile}", "don't {act} on {pile}", "I'm {adj} on {pile}", "that's {adj}",
        "is {thing} {adj}?", "it s {adj}", "its {adj} for me", "dont {act} yet", "cant {act} rn", "ive got {thing}",
        "im {adj} on {pile}", "can u {act}?", "ur turn {who}", "i think {who} should {act}", "teh deck is {adj}",
        "jsut {act}", "waht about {pile}?", "who has {thing}?", "we need {thing}", "let {who} {act}",
        "I got a t-shirt for {who}", "so it is", "go on {who}", "at the end of {thing}", "no one can {act}",
        "it was even {adj}", "to be fair {thing} was {adj}", "if it fits on {pile}", "on it", "be right back",
        "as you wish {who}", "he is on it", "we do it on {pile}", "I'm in", "so do I", "do it", "me too",
        "all in on {pile}", "not me", "up to you {who}", "go for it", "any ideas for {pile}?", "my bad",
        "{thing} is on {pile}", "I can {act} if {who} can {act}", "nothing for {pile} sorry", "hold on",
        "seize the chance", "once more?", "an elf on the shelf", "quince jam is {adj}", "the tan one",
        "tow the line", "sit tight", "we won", "I ate", "the tree on {pile}", "one sec", "in a second",
    ],
    "de": [
        "{who} kann auf {pile} {act}", "nicht auf {pile} {act}", "ich bin {adj} an {pile}", "das ist {adj}",
        "ist {thing} {adj}?", "ich hab {thing}", "hab {thing}", "kannste {act}?", "ich kann nich {act}",
        "gehts noch?", "weiss nicht", "du bist dran {who}", "ich glaub {who} soll {act}", "die Karte ist {adj}",
        "wer hat {thing}?", "wir brauchen {thing}", "lass {who} {act}", "so ist es", "an sich ja",
        "sie ist dran", "er ist so weit", "es ist {adj}", "da ist {thing}", "um die Ecke", "mach du",
        "wie du willst {who}", "ich bin raus", "ich auch", "mach mal", "nicht ich", "wie du meinst",
        "Ideen für {pile}?", "mein Fehler", "{thing} ist auf {pile}", "nix für {pile}, sorry", "Moment",
        "gib acht auf {pile}", "Achtung {who}", "kein Zweifel", "die Elfe", "ich achte drauf", "einmal noch",
        "noch eins", "neu hier", "nie wieder", "zig mal", "ned schlecht", "bissl {adj}", "ich hab ne gute",
        "gleich {who}", "sag Bescheid", "ich helf dir", "sie sei dran", "ach, {adj}", "es geht um {pile}",
    ],
    "fr": [
        "{who} peut {act} sur {pile}", "ne pas {act} sur {pile}", "je suis {adj} sur {pile}", "c'est {adj}",
        "{thing} c'est {adj} ?", "jai {thing}", "j'ai {thing}", "chui {adj}", "tu peux {act} ?",
        "je peux pas {act}", "cest {adj}", "a toi {who}", "je pense que {who} doit {act}", "la carte est {adj}",
        "qui a {thing} ?", "on a besoin de {thing}", "laisse {who} {act}", "on se voit après", "on y va",
        "il a dit ça", "tu es sûr ?", "je le pose", "en te voyant", "si tu veux", "ça va et toi",
        "il en a trop", "on a le temps", "je suis dedans", "moi aussi", "vas-y", "pas moi", "comme tu veux",
        "des idées pour {pile} ?", "ma faute", "{thing} est sur {pile}", "rien pour {pile} désolé", "attends",
        "tres bien", "c'est très {adj}", "tout neuf", "quoi de neuf {who} ?", "j'ai mal au dos", "sac à dos",
        "de rien", "pas de souci", "trop bien", "c'est parti", "on se le dit", "je te le laisse",
        "t'en fais pas", "il en reste", "on en est où", "je l'ai", "si si", "je sais pas", "bien vu {who}",
    ],
    "es": [
        "{who} puede {act} en {pile}", "no {act} en {pile}", "estoy {adj} en {pile}", "es {adj}",
        "¿{thing} está {adj}?", "tengo {thing}", "q tal {who}", "xq no {act}?", "puedes {act}?",
        "no puedo {act}", "esta {adj}", "te toca {who}", "creo que {who} debe {act}", "la carta es {adj}",
        "¿quién tiene {thing}?", "necesitamos {thing}", "deja que {who} juegue", "se ven bien", "no venta",
        "te lo dije", "se fue ya", "a ver si sale", "lo que digas", "si es así", "me da igual",
        "es lo que hay", "de nada", "no sé la verdad", "ya te toca", "yo también", "dale", "yo no",
        "como quieras", "¿ideas para {pile}?", "culpa mía", "{thing} está en {pile}", "nada para {pile}, perdón",
        "espera", "ten cuidado con {pile}", "sí que sí", "todos juegan", "tengo estrés", "de todo un poco",
        "se ve {adj}", "no ve nada", "ve a {act}", "me voy", "tb {adj}", "ntp {who}", "se te ve {adj}",
        "se ven {adj}", "se es {adj}", "no me digas", "¡vamos!", "bn jugado", "porfa {act}",
    ],
}  # fmt: skip

_SLOT_RE = re.compile(r"\{(\w+)\}")


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn"))


def _message(lang: str, rng: random.Random) -> str:
    slots = _SLOTS[lang]
    body = _SLOT_RE.sub(lambda m: rng.choice(slots[m.group(1)]), rng.choice(_BODIES[lang]))
    parts = [body]
    if rng.random() < 0.4:
        parts.insert(0, rng.choice(_OPENERS[lang]) + rng.choice((" ", ", ", "! ", "... ")))
    if rng.random() < 0.4:
        parts.append(" " + rng.choice(_CLOSERS[lang]))
    text = "".join(parts)
    roll = rng.random()
    if roll < 0.3:
        text = text.lower()
    elif roll < 0.4:
        text = _strip_accents(text)  # typed without accents, as on many keyboards
    elif roll < 0.45:
        text = text.replace("'", "")  # apostrophes dropped: "jai", "its", "cest"
    return text


def table_talk(lang: str, count: int = 2500, seed: int = 5) -> list[str]:
    """``count`` distinct messages of ordinary table talk in ``lang``, the same for the same seed."""
    rng = random.Random(f"table-talk-{seed}-{lang}")
    lines: dict[str, None] = {}
    for _ in range(count * 50):
        lines[_message(lang, rng)] = None
        if len(lines) == count:
            return list(lines)
    raise ValueError(f"the {lang} parts give fewer than {count} distinct messages")
