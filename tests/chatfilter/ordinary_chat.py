"""Ordinary table talk without any number, generated: the false-alarm corpus of issue 40.

Each language has templates of real table talk (turns, piles, hints without numbers, greetings, small talk, typos
of everyday words, short words side by side such as "a t-shirt" or "se ven bien") and vocabularies for their
slots. :func:`ordinary_chat` fills them with a seeded generator until it has the wanted number of distinct lines,
so the corpus is the same on every run and machine. No slot word and no template is a number word, a misspelt one,
a digit or a Roman numeral: every line is label 0 under the policy.
"""

from __future__ import annotations

import random
import re

__all__ = ["LANGUAGES", "ordinary_chat"]

LANGUAGES = ("en", "de", "fr", "es")

_SLOTS: dict[str, dict[str, list[str]]] = {
    "en": {
        "name": ["Ana", "Ben", "Sam", "Lea", "Tom", "Nina", "Sven", "Eve", "Ola", "Ty", "Ed", "Al", "Jo", "Mia"],
        "pile": ["the left up pile", "pile A", "pile B", "pile C", "pile D", "the first down pile", "the last pile",
                 "the second pile", "the third pile", "the fourth pile", "the up piles", "the down piles"],
        "adj": ["high", "low", "close", "far", "risky", "safe", "great", "awful", "tight", "fine", "huge", "small"],
        "verb": ["play", "wait", "pass", "go", "hold", "lay", "skip", "think", "help", "block", "save"],
        "thing": ["my hand", "the deck", "the draw pile", "that card", "the board", "a t-shirt", "the rules",
                  "the backwards trick", "a jump", "the middle range", "your turn", "the game"],
        "filler": ["lol", "haha", "ok", "hmm", "oh no", "nice", "gg", "wp", "ty", "thx", "np", "brb", "xD", "<3"],
    },
    "de": {
        "name": ["Anna", "Ben", "Lea", "Tom", "Nina", "Jan", "Eva", "Uwe", "Ole", "Kai", "Ida", "Max"],
        "pile": ["den linken Stapel", "Stapel A", "Stapel B", "Stapel C", "Stapel D", "den ersten Stapel",
                 "den zweiten Stapel", "den letzten Stapel", "die Aufwärtsstapel", "die Abwärtsstapel"],
        "adj": ["hoch", "tief", "knapp", "weit weg", "riskant", "sicher", "super", "blöd", "eng", "gut", "nah"],
        "verb": ["spielen", "warten", "legen", "passen", "aussetzen", "helfen", "blocken", "sparen", "denken"],
        "thing": ["meine Hand", "den Nachziehstapel", "die Karte", "das Brett", "den Rückwärtstrick", "die Regeln",
                  "einen Sprung", "den mittleren Bereich", "deinen Zug", "das Spiel", "ein T-Shirt"],
        "filler": ["lol", "haha", "ok", "hm", "oh nein", "nice", "gg", "danke", "bitte", "ach so", "na gut"],
    },
    "fr": {
        "name": ["Anne", "Ben", "Léa", "Tom", "Nina", "Jean", "Eve", "Luc", "Zoé", "Paul", "Inès", "Hugo"],
        "pile": ["la pile de gauche", "la pile A", "la pile B", "la pile C", "la pile D", "la première pile",
                 "la deuxième pile", "la dernière pile", "les piles montantes", "les piles descendantes"],
        "adj": ["haut", "bas", "proche", "loin", "risqué", "sûr", "super", "nul", "serré", "bien", "gros", "petit"],
        "verb": ["jouer", "attendre", "poser", "passer", "aider", "bloquer", "garder", "réfléchir"],
        "thing": ["ma main", "la pioche", "cette carte", "le plateau", "la marche arrière", "les règles",
                  "un saut", "le milieu", "ton tour", "la partie", "un t-shirt", "mon sac à dos"],
        "filler": ["lol", "mdr", "ok", "bof", "oh non", "bravo", "gg", "merci", "de rien", "ah bon", "bon"],
    },
    "es": {
        "name": ["Ana", "Ben", "Lea", "Tom", "Nina", "Juan", "Eva", "Luis", "Sol", "Pablo", "Inés", "Hugo"],
        "pile": ["la pila de la izquierda", "la pila A", "la pila B", "la pila C", "la pila D", "la primera pila",
                 "la segunda pila", "la última pila", "las pilas que suben", "las pilas que bajan"],
        "adj": ["alta", "baja", "cerca", "lejos", "arriesgada", "segura", "genial", "mala", "justa", "buena"],
        "verb": ["jugar", "esperar", "poner", "pasar", "ayudar", "bloquear", "guardar", "pensar"],
        "thing": ["mi mano", "el mazo", "esa carta", "el tablero", "el truco de retroceso", "las reglas",
                  "un salto", "el rango medio", "tu turno", "la partida", "una camiseta", "la venta"],
        "filler": ["jaja", "ok", "vale", "uf", "ay no", "bien", "gg", "gracias", "de nada", "venga", "vaya"],
    },
}  # fmt: skip

_TEMPLATES: dict[str, list[str]] = {
    "en": [
        "{name}, your turn", "can I {verb} on {pile}?", "don't {verb} on {pile} please", "{filler}",
        "I'm {adj} on {pile}", "that was {adj}, {filler}", "{name} should {verb} first", "who wants to {verb}?",
        "I have a {adj} card for {pile}", "is {thing} {adj}?", "let's {verb} and see", "wait, {name} is thinking",
        "I can do the backwards trick on {pile}", "nothing good for {pile}", "{filler} {name}", "so even then?",
        "at least we tried", "to be fair it was {adj}", "I got {thing} at the con", "for the win {filler}",
        "no one can {verb} now", "this one is {adj}", "which one, {name}?", "a couple of {adj} ones",
        "I'm in for it", "it was even better", "the tree in the garden", "we are the team", "see you all <3",
        "I ate already, go ahead", "in a second", "brb, {filler}", "both piles are {adj}", "a few cards left",
        "don't jump too far on {pile}", "hold on, {name}", "my hand is {adj}", "we won it {filler}",
        "sit tight, {name}", "give me a sec", "that's a fit for {pile}", "I'll tow the line", "the tan one",
        "I own {thing}", "fine by me", "it's on {pile}", "often I {verb}", "listen to {name}", "nice t-shirt {filler}",
        "in there, {name}", "done, your go", "not {adj} enough", "too {adj} for {pile}", "ok {name}, {verb}",
    ],
    "de": [
        "{name}, du bist dran", "kann ich auf {pile} {verb}?", "bitte nicht auf {pile} {verb}", "{filler}",
        "ich bin {adj} an {pile}", "das war {adj}, {filler}", "{name} soll zuerst {verb}", "wer will {verb}?",
        "ich hab was {adj}es für {pile}", "ist {thing} {adj}?", "lass uns {verb}", "warte, {name} überlegt",
        "ich kann den Rückwärtstrick auf {pile}", "nichts Gutes für {pile}", "{filler} {name}", "sie ist dran",
        "ach so, dann warte ich", "neu hier, hallo", "das ist zig mal passiert", "er hat es gesagt", "zeig mal her",
        "mach du zuerst", "nie wieder so knapp", "geht es noch?", "noch eins", "die Karte passt nicht",
        "ich bin so weit", "beide Stapel sind {adj}", "ein paar Karten noch", "gib acht auf {pile}",
        "Achtung, {name}", "heute Nacht spielen wir wieder", "ich helfe dir", "kein Zweifel, {adj}",
        "das Bier ist kalt", "mein Zweig", "die Zehe tut weh", "der Dieb war es", "ich war dabei", "einmal noch",
        "{name} hat {thing}", "nicht zu weit springen auf {pile}", "meine Hand ist {adj}", "wir haben gewonnen",
        "die Elfe im Spiel", "ich achte darauf", "dann {verb} wir", "sag Bescheid, {name}", "gleich, {name}",
    ],
    "fr": [
        "{name}, à toi", "je peux {verb} sur {pile} ?", "ne pas {verb} sur {pile} stp", "{filler}",
        "je suis {adj} sur {pile}", "c'était {adj}, {filler}", "{name} doit {verb} d'abord", "qui veut {verb} ?",
        "j'ai une carte {adj} pour {pile}", "{thing} est {adj} ?", "on va {verb}", "attends, {name} réfléchit",
        "je peux faire la marche arrière sur {pile}", "rien de bon pour {pile}", "{filler} {name}",
        "on se voit plus tard", "je suis en train de réfléchir", "tu as vu ça ?", "il est à toi de jouer",
        "le vin est bon", "on a gagné", "si tu veux", "qu'est-ce que tu fais ?", "de rien, bien joué",
        "pas de souci", "je te laisse jouer", "c'est très {adj}", "tout neuf, ce jeu", "quoi de neuf {name} ?",
        "ces piles sont {adj}", "quelques cartes encore", "attention à {pile}", "j'ai mal au dos",
        "c'est mieux", "il fait chaud", "ça suit son cours", "c'est nul", "je suis là", "dis-moi, {name}",
        "trop bien", "{name} a {thing}", "pas trop loin sur {pile}", "ma main est {adj}", "on y va",
        "en te voyant jouer", "c'est parti", "bonne partie {name}", "seize the day, comme on dit",
    ],
    "es": [
        "{name}, te toca", "¿puedo {verb} en {pile}?", "no {verb} en {pile} por favor", "{filler}",
        "estoy {adj} en {pile}", "fue una jugada {adj}, {filler}", "{name} debe {verb} primero",
        "¿quién quiere {verb}?", "tengo una carta {adj} para {pile}", "¿{thing} está bien?", "vamos a {verb}",
        "espera, {name} está pensando", "puedo hacer el truco de retroceso en {pile}", "nada bueno para {pile}",
        "{filler} {name}", "se ven bien las cartas", "no venta de cartas aquí", "se fue hace rato", "te toca a ti",
        "no sé qué hacer", "me voy en un rato", "ya está, sigue", "a ver qué pasa", "lo que tú digas",
        "se nota que sabes jugar", "es tu turno", "no me digas", "ambas pilas están mal", "unas pocas cartas",
        "ten cuidado con {pile}", "dijo que sí", "cada uno juega", "el sol brilla", "esto es de todos",
        "dice que no", "la voz de ella", "el nivel es alto", "me siento bien", "tengo estrés", "todos juegan",
        "{name} tiene {thing}", "no saltes tanto en {pile}", "mi mano está fatal", "¡vamos!", "se ve {adj}",
        "no ve nada {name}", "se va {name}", "ve a {verb}", "si, {verb} tú",
    ],
}  # fmt: skip

_SLOT_RE = re.compile(r"\{(\w+)\}")


def _fill(template: str, slots: dict[str, list[str]], rng: random.Random) -> str:
    return _SLOT_RE.sub(lambda m: rng.choice(slots[m.group(1)]), template)


def _variant(line: str, rng: random.Random) -> str:
    """How people type: lower case, a capital first letter, a trailing word of chat, punctuation."""
    roll = rng.random()
    if roll < 0.25:
        return line.lower()
    if roll < 0.5:
        return line[:1].upper() + line[1:]
    if roll < 0.6:
        return line + "!"
    if roll < 0.7:
        return line + "..."
    return line


def ordinary_chat(lang: str, count: int = 2000, seed: int = 40) -> list[str]:
    """``count`` distinct lines of ordinary table talk in ``lang``, the same for the same seed."""
    rng = random.Random(f"{seed}-{lang}")
    templates, slots = _TEMPLATES[lang], _SLOTS[lang]
    lines: dict[str, None] = {}
    attempts = 0
    while len(lines) < count:
        attempts += 1
        if attempts > count * 200:
            raise ValueError(f"the {lang} templates give fewer than {count} distinct lines")
        first = _fill(rng.choice(templates), slots, rng)
        # Two sentences in one message, as people type them, now and then.
        line = first if rng.random() < 0.6 else f"{first} {_fill(rng.choice(templates), slots, rng)}"
        lines[_variant(line, rng)] = None
    return list(lines)
