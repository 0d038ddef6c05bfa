"""Texts in the reader's language: gettext catalogs kept with Babel, and messages translated only at the edge.

The languages are English (the source, written in the code) and every language with a catalog under ``locales/``
(German, French and Spanish today; one Spanish catalog serves Discord's ``es-ES`` and ``es-419``): adding a catalog
adds the language everywhere (``languages()``). Every other language falls back to English, texts and formats alike.

Marking a text (cogs, presenters, the engine's refusals): call one of the four marking functions. They translate
nothing yet; they return a ``Text``, a small immutable value naming the message and its placeholder values::

    from i18n import _, _n, _np, _p

    _("Not your turn: {player} is playing.", player=mention)
    _n("{count} card left in the draw pile", "{count} cards left in the draw pile", left)
    _p("button", "Take")                      # a context tells apart two uses of one English word
    _np("chips", "{count} chip", "{count} chips", chips)

- Placeholders are ``str.format`` fields with names, ``{player}``, never positional and never built by ``+``:
  the translator may need to move them. A literal brace is written ``{{`` or ``}}``.
- ``_n``'s third argument picks the plural form the language's way (German "1 Karte" / "2 Karten", French "0 carte",
  "2 cartes") and is the placeholder ``{count}``.
- A placeholder's value may be another ``Text`` (rendered in the same language: this is how a sentence is built from
  parts), a formatter below, or anything else, written with ``str()``: card numbers, pile letters, names, mentions.
  Card numbers and pile letters are never translated or reformatted.
- A missing or unused placeholder raises ``ValueError`` when the ``Text`` is made, so a typo fails in the tests.
- ``str(text)`` raises ``TypeError``: a ``Text`` is rendered at the edge, never pasted into a string. An error whose
  message is a ``Text`` keeps it as an attribute (``GameError(text)`` with ``error.text``), rendered in the reader's
  language on the error path; its ``__str__`` can be ``render(self.text, "en")``, for the logs.
- ``Text`` values compare equal by message and values, so a presenter test can compare them, or render them in "en".
- Slash command strings are not marked: they stay English literals in the decorators; ``i18n.slash`` translates them
  from the catalogs, and ``tools/i18n_update.py`` reads them from the command tree.

Formatting by locale, lazily like texts (each is a placeholder value):
``number(1234.5)`` ("1,234.5" / "1.234,5"), ``duration(seconds, direction=True)`` ("in 3 minutes" / "in 3 Minuten" /
"dans 3 minutes"), ``day(date)`` (a calendar day, e.g. the daily deal's; for moments, Discord's ``<t:...>`` timestamps
already show each reader their own format), ``listing(["ana", "ben", "cy"])`` ("ana, ben and cy" / "ana, ben und cy")
``lines(*parts)`` (parts on lines of their own, ``None`` skipped: a board made of whole sentences) and
``joined(parts, ", ")`` (labels side by side, as a list rather than a sentence: "expert, smaller hands").

Presenters return ``Text`` (or plain ``str`` for what is never translated, such as a row of card numbers). The edge,
where the reader is known, renders::

    render(text, locale)          # -> str in the reader's language; locale is a Discord locale code such as "de"

Whose language: ``i18n.slash.reader_locale(interaction)`` for what one person sees (ephemeral answers, the hand panel,
refusals; for DMs, the locale last seen from that player), ``i18n.slash.table_locale_for(interaction or guild,
chosen)`` (``table_locale(chosen, guild_locale)`` here) for what the table sees (the server's own choice, else
Discord's ``guild_locale``, else English). ``i18n.slash`` holds the discord.py side (the slash command
``Translator`` and those helpers); this module imports nothing from discord.

Catalogs: ``i18n/locales/<language>/LC_MESSAGES/messages.po``, the only translation files. They are read and compiled
in memory at first use (``babel.messages.pofile`` then ``mofile``, some 15 ms a language, once), so a checkout and a
``pip install .`` work alike with no build step and there is no compiled file to fall out of step.
``tools/i18n_update.py`` brings the catalogs up to date with the code; ``tests/i18n`` fails on anything missing.
"""

from __future__ import annotations

import datetime as dt
import functools
import gettext
import io
import string
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

__all__ = [
    "LANGUAGES",
    "SOURCE_LANGUAGE",
    "Localized",
    "Text",
    "_",
    "_n",
    "_np",
    "_p",
    "day",
    "duration",
    "joined",
    "language",
    "language_name",
    "languages",
    "lines",
    "listing",
    "number",
    "placeholders",
    "render",
    "table_locale",
    "translations",
]

SOURCE_LANGUAGE = "en"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"


def languages() -> tuple[str, ...]:
    """The languages with a catalog in ``LOCALES_DIR``, the source first, then by code: a new catalog is a new
    language for the bot, /settings, the slash commands and the catalog checks alike (adding one: see the README)."""
    return _languages_in(LOCALES_DIR)


@functools.cache
def _languages_in(folder: Path) -> tuple[str, ...]:
    found = sorted(p.name for p in folder.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())
    return (SOURCE_LANGUAGE, *(code for code in found if code != SOURCE_LANGUAGE))


# The shipped catalogs' languages, read once at import (``languages()`` follows LOCALES_DIR).
LANGUAGES = languages()


class Localized(Protocol):
    """Anything that writes itself in a locale: a ``Text`` and the formatters below."""

    def localize(self, locale: Locale) -> str: ...


@functools.cache
def _fields(template: str) -> frozenset[str]:
    names: set[str] = set()
    for _literal, name, spec, _conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name or name.isdecimal():
            raise ValueError(f"positional placeholder in {template!r}: name it, e.g. {{player}}")
        names.add(name.split(".", 1)[0].split("[", 1)[0])
        if spec:
            names.update(_fields(spec))
    return frozenset(names)


@functools.lru_cache(maxsize=4096)
def _check_placeholders(msgid: str, plural: str | None, names: tuple[str, ...]) -> None:
    """A text's placeholders and the values given for them match (``ValueError`` if not)."""
    given = set(names)
    needed = _fields(msgid) | (_fields(plural) if plural is not None else frozenset())
    if plural is not None:
        given.add("count")
    if needed - given:
        raise ValueError(f"{msgid!r} needs {sorted(needed - given)}")
    if given - needed - {"count"}:
        raise ValueError(f"{msgid!r} has no placeholder for {sorted(given - needed - {'count'})}")


def placeholders(template: str) -> frozenset[str]:
    """The named placeholders of ``template`` (``ValueError`` if it is malformed or has a positional one)."""
    return _fields(template)


@dataclass(frozen=True, slots=True)
class Text:
    """A message to show in the reader's language, not yet translated. Made by ``_``, ``_n``, ``_p`` and ``_np``."""

    msgid: str
    plural: str | None = None
    count: int | None = None
    context: str | None = None
    params: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        # Checked once per message and set of placeholder names: a board or panel makes dozens of Texts.
        _check_placeholders(self.msgid, self.plural, tuple([name for name, _value in self.params]))

    def __str__(self) -> str:
        raise TypeError(f"render(text, locale) the text {self.msgid!r} at the edge instead of str() or an f-string")

    def localize(self, locale: Locale) -> str:
        catalog = translations(locale.language)
        if self.plural is None:
            template = (
                catalog.gettext(self.msgid) if self.context is None else catalog.pgettext(self.context, self.msgid)
            )
        else:
            assert self.count is not None
            if self.context is None:
                template = catalog.ngettext(self.msgid, self.plural, self.count)
            else:
                template = catalog.npgettext(self.context, self.msgid, self.plural, self.count)
        values = {name: _localize_value(value, locale) for name, value in self.params}
        if self.count is not None:
            values.setdefault("count", str(self.count))
        return template.format_map(values)


def _localize_value(value: object, locale: Locale) -> object:
    localize = getattr(value, "localize", None)
    return localize(locale) if callable(localize) else value


def _(msgid: str, /, **params: object) -> Text:
    """A text in the reader's language, ``{name}`` placeholders filled from ``params``."""
    return Text(msgid, params=tuple(params.items()))


def _n(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A text whose form depends on ``count`` (also the placeholder ``{count}``), the language's way."""
    return Text(singular, plural, count, params=tuple(params.items()))


def _p(context: str, msgid: str, /, **params: object) -> Text:
    """``_`` with a context, for one English text that other languages say in two ways."""
    return Text(msgid, context=context, params=tuple(params.items()))


def _np(context: str, singular: str, plural: str, count: int, /, **params: object) -> Text:
    """``_n`` with a context."""
    return Text(singular, plural, count, context, tuple(params.items()))


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (the source language translates to itself)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy (unreviewed) translations are left out: the English shows instead
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _resolve(locale: str | None) -> Locale:
    return _resolve_among(locale, languages())


# The languages are part of the key: a test that points LOCALES_DIR elsewhere never meets an answer of the old folder.
@functools.lru_cache(maxsize=128)
def _resolve_among(locale: str | None, known: tuple[str, ...]) -> Locale:
    if locale:
        try:
            parsed = Locale.parse(locale.replace("-", "_"))
        except (ValueError, UnknownLocaleError):
            parsed = None
        if parsed is not None and parsed.language in known:
            return parsed
    return Locale.parse(SOURCE_LANGUAGE)


@functools.cache
def language_name(code: str) -> str:
    """A language's name in itself, as a menu of languages shows it: ``"Deutsch"``, ``"Français"``, ``"English"``."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        name = code
    return name[:1].upper() + name[1:]


def language(locale: str | None) -> str:
    """The catalog a Discord locale reads from: ``"es-419"`` -> ``"es"``, ``"de"`` -> ``"de"``, ``"ja"`` -> ``"en"``."""
    return str(_resolve(locale).language)


def table_locale(chosen: str | None, guild_locale: str | None) -> str:
    """The table's locale: the language the server chose for its tables, else Discord's server locale, else English."""
    return chosen or guild_locale or SOURCE_LANGUAGE


def render(text: Localized | str, locale: str | None) -> str:
    """``text`` in ``locale`` (a Discord locale code such as ``"de"`` or ``"es-419"``; ``None``: English).

    A plain ``str`` is returned as it is: it is something never translated."""
    if isinstance(text, str):
        return text
    return text.localize(_resolve(locale))


# ---- formatters: placeholder values written the locale's way -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Number:
    value: float | int
    decimals: int | None

    def localize(self, locale: Locale) -> str:
        if self.decimals is None:
            return format_decimal(self.value, locale=locale)
        pattern = "#,##0." + "0" * self.decimals if self.decimals else "#,##0"
        return format_decimal(self.value, format=pattern, locale=locale)


def number(value: float | int, *, decimals: int | None = None) -> Localized:
    """A number with the locale's grouping and decimal sign (``decimals``: exactly that many digits after it)."""
    return _Number(value, decimals)


@dataclass(frozen=True, slots=True)
class _Duration:
    delta: dt.timedelta
    direction: bool
    width: Literal["long", "short", "narrow"]

    def localize(self, locale: Locale) -> str:
        return format_timedelta(self.delta, add_direction=self.direction, format=self.width, locale=locale)


def duration(
    value: dt.timedelta | float, *, direction: bool = False, width: Literal["long", "short", "narrow"] = "long"
) -> Localized:
    """A span of time in its largest sensible unit ("3 minutes"); ``direction``: "in 3 minutes", or "3 minutes ago"
    for a negative span. ``value`` is a ``timedelta`` or seconds."""
    delta = value if isinstance(value, dt.timedelta) else dt.timedelta(seconds=value)
    return _Duration(delta, direction, width)


@dataclass(frozen=True, slots=True)
class _Day:
    value: dt.date
    width: Literal["full", "long", "medium", "short"]

    def localize(self, locale: Locale) -> str:
        return format_date(self.value, format=self.width, locale=locale)


def day(value: dt.date, *, width: Literal["full", "long", "medium", "short"] = "long") -> Localized:
    """A calendar day ("25 November 2026" / "25. November 2026" / "25 novembre 2026")."""
    return _Day(value, width)


@dataclass(frozen=True, slots=True)
class _Listing:
    items: tuple[Localized | str, ...]
    style: Literal["standard", "or"]

    def localize(self, locale: Locale) -> str:
        return format_list([str(_localize_value(item, locale)) for item in self.items], style=self.style, locale=locale)


def listing(items: Iterable[Localized | str], *, style: Literal["standard", "or"] = "standard") -> Localized:
    """Items in a sentence: "ana, ben and cy" / "ana, ben und cy"; ``style="or"``: "A, B or C"."""
    return _Listing(tuple(items), style)


@dataclass(frozen=True, slots=True)
class _Lines:
    parts: tuple[Localized | str, ...]

    def localize(self, locale: Locale) -> str:
        return "\n".join(str(_localize_value(part, locale)) for part in self.parts)


def lines(*parts: Localized | str | None) -> Localized:
    """Whole sentences or blocks, one under the other (``None`` parts left out): a board, a panel."""
    return _Lines(tuple(part for part in parts if part is not None))


@dataclass(frozen=True, slots=True)
class _Joined:
    parts: tuple[Localized | str, ...]
    separator: str

    def localize(self, locale: Locale) -> str:
        return self.separator.join(str(_localize_value(part, locale)) for part in self.parts)


def joined(parts: Iterable[Localized | str], separator: str) -> Localized:
    """Labels side by side with a separator no language words differently: a list, not a sentence ("expert, smaller
    hands"; for a sentence's "and", use ``listing``)."""
    return _Joined(tuple(parts), separator)
