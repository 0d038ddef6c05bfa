"""Does a chat message mention a number? The no-numbers rule of The Game, as a pure function.

``from chatfilter import mentions_number``

``mentions_number(text)`` implements the labelling policy of the no-numbers rule (section 1 of the project's
chat policy): digits of any script, any character with a numeric value, keycaps/dice, number words 2-99 in
English, German, French and Spanish (with their disguises) and capital Roman numerals 2-99 count; Discord
markup, URLs, standard emoji, "one"/"zero", hundred/thousand alone, simple ordinals, quantity words, words
that merely contain a number word, ``<3`` and talk *about* numbers do not.

The order of the steps matters:

1. Machine markup, URLs, digit-bearing emoji shortcodes and ``<3`` are removed first: their digits were not
   typed as numbers (policy X1-X3, X11). ``chatfilter._markup``.
2. Numeric characters are looked for in the *raw* remainder, before any transliteration could turn an emoji
   into shortcode text or a digit into a letter; capital Roman numerals on the normalized copy.
   ``chatfilter._numerals``.
3. A normalized copy (``chatfilter._normalize``: NFKC, invisible characters and combining marks dropped,
   homoglyphs, small caps and regional indicators mapped to Latin letters, markdown turned into "soft"
   separators) is cut into tokens,
   which are matched whole against the generated vocabulary (``chatfilter._number_words``, matched by
   ``chatfilter._lookup``). Matching whole tokens, never substrings, is what keeps "often", "weight" and
   "Zweifel" legal.
4. Split words are rejoined only where a reader would rejoin them: across markdown, NBSP, narrow spaces and line
   breaks, a fragment that is not itself a common word ("thir ty"), a common word and the rest of a number word
   after one ordinary space unless the two are a phrase of the message's language ("for ty" counts, "se ven
   bien" stays), and runs of single letters ("t h r e e", also after a one-letter word: "I have a s i x"). Other
   words separated by ordinary spaces are never merged ("that would" does not contain "two").
   ``chatfilter._message``.
5. A token that is no number word may still be a misspelt or respelt one (W2: ``thrity``, ``zwanzich``,
   ``soixente``, ``ventidos``), unless it is an ordinary word of the four languages (``forth``, ``weight``); and
   censor characters between letters stand for the letters they hide (``tw*lve``, ``chatfilter._censored``).
   ``chatfilter._misspellings`` holds the other rules and their table of ordinary words; a misspelt *short* number
   word (``trres``, ``sxi``) counts in context, or alone when it is no word at all, and a misspelling that is only a
   rare word or a function word's typo counts in a number slot (``ich hab die aht``) or as a message of its own
   (``sies``).
6. A word that is a number in one language and an ordinary word in another (``once``, ``dos``, ``quince``,
   ``elf``...) asks its context rule (``chatfilter._context``): its neighbours, then the message's language,
   decided once per message from the function words it contains (``chatfilter._language``).

**Mixed-language messages.** The message's language is a count of the function words of each language, made
once, and only when a look-alike or a short misspelling needs it. A look-alike compares the two languages it
belongs to: ``dos`` is the French back when the message has more French than Spanish function words, the
Spanish number otherwise; ``quince`` is the fruit when it has more English than Spanish ones. The neighbours
come first, so a clear count wins in any sentence (``j'ai mal au dos, tengo dos cartas`` deletes: ``tengo dos
cartas`` is a Spanish count whatever the majority), and so does a clear ordinary use (``sac à dos`` in a Spanish
sentence keeps the bag). On a tie, including a message without any function word, the look-alike's default
decides: the number for ``dos``, ``quince``, ``tres``, ``sept``, ``acht``, the English word for ``once``,
``seize``, ``elf``. A misspelt short number word counts only where the message's main language is the number's
or a count stands around it, so a mixed message without either lets ``trres`` through. The filter leans towards
deleting where nothing tells the languages apart: a number let through breaks the game, while a removed message
can be said again.

Everything is compiled at import; nothing is cached per message. Within a message each distinct word is read once,
the distinct words are screened together before any is looked up (``chatfilter._screen``), and every step is a few
passes over the text plus a bounded amount of work per distinct word, so a message at
Discord's 2,000-character limit built to make one step work hardest stays cheap (``docs/chat-filter.md``, "Time at
Discord's limit"; ``tests/chatfilter/test_bounded_work.py``). Standard library only; the table of ordinary
words ships as generated JSON (``tools/gen_misspelling_exclusions.py``).

Judgement calls where the policy is silent, each decided by its own principles (form, not intent; a little
context for cross-language words, never full language identification). Issue 40's rulings (words split by one
space, short misspellings alone, number slots, what is invisible) are the "Decided" list of ``docs/chat-filter.md``.

* The look-alikes' own calls (``once``, ``dos``, ``quince``, ``neuf``, ``acht``...) are listed in
  ``chatfilter._context``.
* German glued forms count like their English spellings: ``zweimal`` ("two times"), ``dreifach``,
  ``zweistellig``, ``Zehnertrick``, ``zu dritt``; ``einmal``, ``einfach``, ``einstellig`` and compounds with
  other nouns (``Dreieck``, ``Zweikampf``) do not. ``douzaine``/``docena``/``Dutzend`` are "dozen" (X7).
* Single-word ordinals are simple ordinals even for 13-90 (``thirteenth``, ``twentieth``, ``vingtième``);
  compound ones count, Spanish ``vigésimo séptimo`` included. ``teens`` counts, ``teen`` does not.
* Only ``<3`` and ``</3`` are hearts: ``<33`` still holds a digit. Symbols used as letters inside a word
  (``s!x``, ``$even``, ``thr€€``) are leetspeak like digits are.
* German numbers above a hundred glued in one word count through their 2-99 part, look-alikes included
  (``hundertsieben``, ``hundertzwölf``, ``zweihundertelf``, ``hundertundacht``, spoken ``hunnertzwanzig``).
* Misspellings (W2) are one edit (Damerau-Levenshtein: a letter added, dropped, doubled, swapped or replaced)
  from a cardinal of at least four letters, or a phonetic spelling that a rewrite turns into one (``-zich``
  for ``-zig``, ``k`` for ``qu``/``c``, ``wa`` for ``oi``, ``b`` for ``v``, ``ss`` for ``x``); dialect forms
  further away are listed (``zwoa``, ``fuchzig``, ``thoity``). "Ordinary word" means accepted by a Hunspell
  dictionary of the four languages or common in wordfreq (Zipf >= 2.5), names included (``Sven``, ``Nina``
  stay), minus known web misspellings (``fourty``, ``eigth``, ``nien``). Three-letter number words (``two``,
  ``six``, ``ten``, ``dos``, ``dix``) get only a letter added or a swapped pair, four-letter ones a dropped
  letter and five-letter ones a dropped final letter (the short reading: in context, or alone when it is no word
  at all); German spoken and dialect spellings are undone by
  sound changes (``fünnef``, ``tsehn``, ``siwwe``, ``achd``).
  Misspelt cross-language words follow their word's context rule (``nuef`` like ``neuf``); ``tres``,
  ``sept`` and ``acht``, which count by default, get only the short reading.
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

from chatfilter._filter import mentions_number

__all__ = ["mentions_number"]
