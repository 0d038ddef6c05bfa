"""What keeps the catalogs complete: extraction of the marked texts, and the checks the tests (and
``tools/i18n_update.py``) run on the catalogs and on the code. Pure Python and Babel; nothing here runs in the bot.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

import i18n
from i18n import DOMAIN, LANGUAGES, SOURCE_LANGUAGE, placeholders

# The marking functions, as Babel's extractor reads them: argument positions of the message(s), "c" the context.
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
    "_np": ((1, "c"), 2, 3),
}
MARKERS = frozenset(KEYWORDS)
# Calls whose result is translated text: a marked Text, or a rendered one.
TRANSLATED = MARKERS | {"render"}
# Where the bot's own code lives (relative to the project root); tests and tools mark nothing.
CODE = ("bot.py", "cogs", "engine", "storage", "table", "i18n", "web")
TRANSLATED_LANGUAGES = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)


def translated_languages() -> tuple[str, ...]:
    """The languages whose catalogs the checks read: every one in ``i18n.LOCALES_DIR`` (TRANSLATED_LANGUAGES: the
    shipped ones, for the tests' parameters)."""
    return tuple(lang for lang in i18n.languages() if lang != SOURCE_LANGUAGE)


Key = tuple[str | None, str]  # (context, msgid): how gettext tells entries apart


@dataclass(frozen=True, slots=True)
class Source:
    """A text the catalogs must hold: its context, English singular (and plural), and where it comes from."""

    context: str | None
    msgid: str
    plural: str | None
    location: str
    comments: tuple[str, ...] = ()

    @property
    def key(self) -> Key:
        return self.context, self.msgid


def python_files(root: Path, parts: Iterable[str] = CODE) -> list[Path]:
    files: list[Path] = []
    for part in parts:
        path = root / part
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def code_sources(root: Path, files: Iterable[Path] | None = None) -> list[Source]:
    """Every text marked with ``_``, ``_n``, ``_p`` or ``_np`` in the bot's code, by Babel's Python extractor."""
    found: list[Source] = []
    for path in python_files(root) if files is None else files:
        where = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        for lineno, message, comments, context in extract_from_file(
            "python", path, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
        ):
            msgid, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
            found.append(Source(context, msgid, plural, f"{where}:{lineno}", tuple(comments)))
    return found


def catalog_path(language: str) -> Path:
    return i18n.LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    with catalog_path(language).open("rb") as po:
        return read_po(po, locale=language, domain=DOMAIN)


def entries(catalog: Catalog) -> Iterator[Message]:
    """The catalog's messages, without the header entry."""
    return (message for message in catalog if message.id)


def key_of(message: Message) -> Key:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return message.context, str(msgid)


def forms(message: Message) -> list[str]:
    strings = message.string if isinstance(message.string, tuple | list) else [message.string]
    return [form or "" for form in strings]


def describe(message: Message) -> str:
    context = f"[{message.context}] " if message.context else ""
    return f"{context}{key_of(message)[1]!r}"


# ---- the catalog checks -------------------------------------------------------------------------------------------

NAME = re.compile(r"^[-_\w]{1,32}$")
COMMAND_MENTION = re.compile(r"(?<![\w/])/([a-z_]+)")
# The contexts whose translations Discord holds to its name rule (lowercase letters, digits, - and _, 1 to 32).
NAME_CONTEXTS = frozenset({"command name", "option name"})
SHORT_CONTEXTS = frozenset({"command description", "option description", "option choice"})


def translation_problems(catalog: Catalog) -> list[str]:
    """Untranslated or unreviewed (fuzzy) entries, missing plural forms, placeholders dropped or added, Discord markdown
    marks lost, command names Discord would refuse, descriptions too long, and a command named in a text by another name
    than its own translation. Empty when the catalog is complete."""
    problems: list[str] = []
    lang = str(catalog.locale)
    if catalog._num_plurals is None:  # Babel's only record of a rule read from the header
        # Without it Babel falls back on its CLDR data, whose rules change between releases (2.19 gave French and
        # Spanish a third form), so the same catalog would read differently after an upgrade.
        problems.append(f"{lang}: the header states no Plural-Forms (copy the line from another catalog and adapt it)")
    command_names = {key_of(m)[1]: forms(m)[0] for m in entries(catalog) if m.context == "command name" and forms(m)[0]}
    for message in entries(catalog):
        where = f"{lang}: {describe(message)}"
        texts = forms(message)
        if message.fuzzy:
            problems.append(f"{where} is marked fuzzy: review the translation and remove the flag")
        if not all(texts):
            problems.append(f"{where} is not translated")
            continue
        if message.pluralizable and len(texts) != catalog.num_plurals:
            problems.append(f"{where} has {len(texts)} plural forms, {lang} needs {catalog.num_plurals}")
        problems.extend(f"{where}: {problem}" for problem in placeholder_problems(message))
        if message.context in NAME_CONTEXTS:
            problems.extend(
                f"{where}: {text!r} is not a Discord name (1-32 lowercase letters, digits, - or _)"
                for text in texts
                if not NAME.match(text) or text != text.lower()
            )
        if message.context in SHORT_CONTEXTS:
            problems.extend(f"{where}: {text!r} is longer than 100 characters" for text in texts if len(text) > 100)
        problems.extend(f"{where}: {problem}" for problem in markup_problems(key_of(message)[1], texts))
        for name in COMMAND_MENTION.findall(key_of(message)[1]):
            local = command_names.get(name)
            if local is not None and any(f"/{local}" not in text for text in texts):
                problems.append(f"{where} names /{name}: say /{local}, its name in {lang}")
    return problems


# Discord markdown whose pairs a translation must keep, or the rest of the message turns bold, code or hidden.
MARKUP = ("**", "`", "||", "~~")


def markup_problems(english: str, texts: list[str]) -> list[str]:
    """Bold, code, spoiler and strike-through marks the translation does not keep, counted."""
    return [
        f"{text!r} has {text.count(mark)} {mark} where the English has {english.count(mark)}"
        for text in texts
        for mark in MARKUP
        if text.count(mark) != english.count(mark)
    ]


def placeholder_problems(message: Message) -> list[str]:
    """A translation must use exactly the English placeholders. In a plural entry, only a form for one thing may
    leave out ``{count}`` (German "eine Karte"); the last form, for many, keeps every placeholder."""
    ids = [str(i) for i in message.id] if isinstance(message.id, tuple | list) else [str(message.id)]
    try:
        wanted = frozenset().union(*(placeholders(text) for text in ids))
    except ValueError as error:
        return [f"the English is malformed: {error}"]
    problems: list[str] = []
    texts = forms(message)
    for index, text in enumerate(texts):
        try:
            found = placeholders(text)
        except ValueError as error:
            problems.append(f"{text!r} is malformed: {error}")
            continue
        optional = {"count"} if message.pluralizable and index < len(texts) - 1 else set()
        if found - wanted:
            problems.append(f"{text!r} adds {sorted(found - wanted)}")
        if wanted - found - optional:
            problems.append(f"{text!r} drops {sorted(wanted - found - optional)}")
    return problems


def coverage_problems(catalog: Catalog, sources: Iterable[Source]) -> list[str]:
    """Texts of the code missing from the catalog (or with another plural), and entries no code uses any more."""
    lang = str(catalog.locale)
    wanted = {source.key: source for source in sources}
    held = {key_of(message): message for message in entries(catalog)}
    problems = [
        f"{lang}: missing {source.location}: {source.msgid!r}" + (f" [{source.context}]" if source.context else "")
        for key, source in wanted.items()
        if key not in held
    ]
    for key, message in held.items():
        if key not in wanted:
            problems.append(f"{lang}: {describe(message)} is in no code any more")
            continue
        plural = message.id[1] if isinstance(message.id, tuple | list) else None
        if plural != wanted[key].plural:
            problems.append(f"{lang}: {describe(message)}: the code's plural is {wanted[key].plural!r}")
    return problems


def template(sources: Iterable[Source]) -> Catalog:
    """The source texts as a gettext template (what ``pybabel extract`` would write)."""
    pot = Catalog(domain=DOMAIN, project="cardtable-bot", fuzzy=False)
    for source in sources:
        msgid: str | tuple[str, str] = source.msgid if source.plural is None else (source.msgid, source.plural)
        path, _sep, line = source.location.rpartition(":")
        location = (path, int(line)) if line.isdecimal() else (source.location, 0)  # 0: Babel writes no line
        pot.add(msgid, locations=[location], auto_comments=source.comments, context=source.context)
    return pot


def update_catalog(language: str, sources: Iterable[Source]) -> tuple[int, int]:
    """Bring ``language``'s catalog in step with ``sources`` (``pybabel update``): new texts come in untranslated
    (changed ones with their old translation, marked fuzzy), gone ones leave. Returns (added, removed)."""
    path = catalog_path(language)
    pot = template(sources)
    if path.exists():
        catalog = read_catalog(language)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(
            locale=language,
            domain=DOMAIN,
            project="cardtable-bot",
            fuzzy=False,
            msgid_bugs_address="the project's issue tracker",
            last_translator="cardtable-bot translators",
            language_team=f"{language} players of cardtable-bot",
            header_comment=f"# The {language} texts of cardtable-bot. How to translate: README.md, Languages.",
        )
    before = {key_of(message) for message in entries(catalog)}
    catalog.update(pot, update_header_comment=False, update_creation_date=False)
    after = {key_of(message) for message in entries(catalog)}
    with path.open("wb") as po:
        write_po(po, catalog, width=120, omit_header=False, ignore_obsolete=True, include_lineno=False)
    return len(after - before), len(before - after)


# ---- the code check: no text made by gluing translated pieces -----------------------------------------------------


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id
        if isinstance(func, ast.Attribute):
            return func.attr
    return None


def _translated(node: ast.AST) -> bool:
    return _called(node) in TRANSLATED


def concatenations(source: str, filename: str = "<code>") -> list[str]:
    """Places where a translated text (a call of ``_``, ``_n``, ``_p``, ``_np`` or ``render``) is glued to other
    text instead of being a whole sentence with placeholders: an operand of ``+`` or ``%``, a part of an f-string,
    the template or an argument of ``str.format``, or an item joined by ``str.join``. Also a module that imports
    ``_`` from i18n and then binds ``_`` to something else (``for _ in ...``), which would break its texts.

    The check reads each expression as written: a translated text first stored in a variable and glued later is not
    followed. ``Text`` itself refuses ``str()`` and ``+`` at run time, which catches those cases in the tests."""
    tree = ast.parse(source, filename)
    found: list[str] = []

    def report(node: ast.AST, what: str) -> None:
        found.append(f"{filename}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
            for side in (node.left, node.right):
                if _translated(side):
                    report(side, f"{_called(side)}(...) is glued with {type(node.op).__name__.lower()}")
        elif isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.FormattedValue) and _translated(part.value):
                    report(part, f"{_called(part.value)}(...) is a part of an f-string")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "format":
                pieces = [node.func.value, *node.args, *(keyword.value for keyword in node.keywords)]
                for piece in pieces:
                    if _translated(piece):
                        report(piece, f"{_called(piece)}(...) is put together with str.format")
            elif node.func.attr == "join" and node.args:
                joined = node.args[0]
                items: list[ast.expr] = []
                if isinstance(joined, ast.List | ast.Tuple | ast.Set):
                    items = list(joined.elts)
                elif isinstance(joined, ast.GeneratorExp | ast.ListComp):
                    items = [joined.elt]
                for item in items:
                    if _translated(item):
                        report(item, f"{_called(item)}(...) is joined into a text: use i18n.lines or a placeholder")
    found.extend(_rebound_marker(tree, filename))
    return found


def _rebound_marker(tree: ast.Module, filename: str) -> list[str]:
    imports_marker = any(
        isinstance(node, ast.ImportFrom)
        and node.module in ("i18n",)
        and any(alias.name == "_" and alias.asname is None for alias in node.names)
        for node in ast.walk(tree)
    )
    if not imports_marker:
        return []
    return [
        f"{filename}:{node.lineno}: binds _, which this module imports from i18n to mark texts"
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store)
    ]
