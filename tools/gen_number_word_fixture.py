"""Regenerate tests/chatfilter/chat_filter_num2words.json: num2words' spellings of 2-99 in en/de/fr/es.

The chat filter builds its vocabulary from hand-written tables (chatfilter/_number_words.py); this fixture is an
independent reference the tests check it against. num2words is a developer tool only, never a runtime
dependency:

    .venv/bin/pip install num2words
    .venv/bin/python tools/gen_number_word_fixture.py
"""

from __future__ import annotations

import json
import pathlib

from num2words import num2words  # type: ignore[import-untyped]

LANGS = ("en", "de", "fr", "es")
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "chatfilter" / "chat_filter_num2words.json"


def main() -> None:
    words = {
        lang: {
            "cardinal": [num2words(n, lang=lang) for n in range(2, 100)],
            # Compound ordinals with a 20-90 part count (policy W1); simple ordinals do not (X6).
            "compound_ordinal": [num2words(n, lang=lang, to="ordinal") for n in range(21, 100) if n % 10],
        }
        for lang in LANGS
    }
    OUT.write_text(json.dumps(words, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
