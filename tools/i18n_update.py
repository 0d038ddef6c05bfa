"""Bring the catalogs i18n/locales/*/LC_MESSAGES/messages.po in step with the code, like ``pybabel update``.

The texts come from two places: the code's marked texts (``_``, ``_n``, ``_p``, ``_np``, read by Babel's Python
extractor) and the slash commands (every name, description and choice discord.py would sync, read from the command
tree of an offline bot). New texts are added untranslated, a changed text keeps its old translation marked fuzzy (for
review), texts no code uses any more are removed. Then fill in the empty ``msgstr``s and run tests/i18n::

    .venv/bin/python tools/i18n_update.py            # update every catalog
    .venv/bin/python tools/i18n_update.py --check    # only list what is missing or stale (exit status 1 if any)
    .venv/bin/python tools/i18n_update.py --pot messages.pot   # also write the template, for a translation tool
    .venv/bin/python tools/i18n_update.py --add it   # start a new language's catalog (README, Adding a language)
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from i18n.checks import (  # noqa: E402
    NAME_CONTEXTS,
    Source,
    code_sources,
    coverage_problems,
    read_catalog,
    template,
    translated_languages,
    update_catalog,
)
from i18n.slash import command_strings  # noqa: E402

NAME_NOTE = "a Discord name: lowercase, no spaces, at most 32 characters, unique among its neighbours"


async def slash_sources() -> list[Source]:
    """The command tree's strings, from an offline bot with every extension loaded (nothing connects)."""
    from bot import Bot, Settings

    async def no_sync() -> bool:
        return False  # offline: nothing to sync to

    with tempfile.TemporaryDirectory() as folder:
        bot = Bot(Settings(token="offline", database_path=str(Path(folder) / "bot.sqlite3")))
        bot.sync_commands = no_sync  # type: ignore[method-assign]
        try:
            await bot.setup_hook()  # the bot's own start (an empty database, every extension), minus the network
            found = await command_strings(bot.tree)
        finally:
            await bot.close()
    return [
        Source(
            entry.context,
            entry.message,
            None,
            entry.module.replace(".", "/") + ".py",
            (f"/{entry.command}", NAME_NOTE) if entry.context in NAME_CONTEXTS else (f"/{entry.command}",),
        )
        for entry in found
    ]


def new_language_problem(code: str, known: list[str]) -> str | None:
    """Why ``code`` can't start a catalog, or None: it must be a language Babel and Discord know, without a catalog."""
    import discord
    from babel import Locale, UnknownLocaleError

    if code in known or code == "en":
        return f"{code} has a catalog already"
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return f"{code} is not a language code Babel knows (like it, pt, nl)"
    if not any(locale.value.split("-")[0] == code for locale in discord.Locale):
        return f"Discord has no language {code}: its clients would never ask for it"
    return None


async def all_sources() -> list[Source]:
    return code_sources(ROOT) + await slash_sources()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only report what is missing or stale")
    parser.add_argument("--pot", type=Path, help="also write the template (.pot) here")
    parser.add_argument("--add", metavar="CODE", help="start the catalog of a new language (a code like it or pt)")
    args = parser.parse_args()
    languages = list(translated_languages())
    if args.add:
        problem = new_language_problem(args.add, languages)
        if problem:
            parser.error(problem)
        languages.append(args.add)  # update_catalog creates its catalog, every text untranslated
    sources = asyncio.run(all_sources())
    if args.pot:
        with args.pot.open("wb") as pot:
            write_po(pot, template(sources), width=120, include_lineno=False)
    if args.check:
        problems = [problem for lang in languages for problem in coverage_problems(read_catalog(lang), sources)]
        print("\n".join(problems) or "The catalogs hold every text of the code, and nothing else.")
        return 1 if problems else 0
    for lang in languages:
        added, removed = update_catalog(lang, sources)
        print(f"{lang}: {added} new, {removed} gone")
    if args.add:
        # Babel takes the rule from its CLDR data, which has changed between releases (2.19 gives Italian, French
        # and Spanish a third form for round millions): the translator states the rule the catalog keeps.
        print(f"{args.add}: check the rule, then state it: Plural-Forms: {read_catalog(args.add).plural_forms}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
