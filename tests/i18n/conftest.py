"""Catalogs written for a test, so the API is tried on texts the bot itself does not have (yet)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import i18n

# Each test catalog states its plural rule, as the shipped ones do: without it Babel takes the rule from its CLDR data,
# which changes between releases (Babel 2.19 gives French and Spanish a third form for large round numbers).
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}

Entry = tuple[str | tuple[str, str], str | tuple[str, ...]] | tuple[str | tuple[str, str], str | tuple[str, ...], str]


def write_catalog(folder: Path, language: str, entries: list[Entry], *, fuzzy: frozenset[str] = frozenset()) -> Path:
    """A .po file at ``folder/<language>/LC_MESSAGES/messages.po``: each entry is (msgid, msgstr[, context]), a
    plural entry ((singular, plural), (form, ...))."""
    catalog = Catalog(locale=language, domain=i18n.DOMAIN, fuzzy=False)
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS.get(language, "nplurals=2; plural=(n != 1);"))]
    for entry in entries:
        msgid, msgstr = entry[0], entry[1]
        context = entry[2] if len(entry) == 3 else None
        first = msgid if isinstance(msgid, str) else msgid[0]
        catalog.add(msgid, msgstr, context=context, flags=("fuzzy",) if first in fuzzy else ())
    path = folder / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as po:
        write_po(po, catalog)
    return path


@pytest.fixture
def catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Path]]:
    """Point the bot at catalogs of the test's own (``catalogs(language, entries)``), and back afterwards."""
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield lambda language, entries, **options: write_catalog(tmp_path, language, entries, **options)
    i18n.translations.cache_clear()
