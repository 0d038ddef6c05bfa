"""No text is made by gluing translated pieces together: a translator must see whole sentences, with placeholders
where the parts go, since another language puts the parts in another order.

Scope (see ``i18n.checks.concatenations``): the bot's own code (bot.py, cogs, engine, storage, table, i18n) is read
expression by expression; a call of ``_``, ``_n``, ``_p``, ``_np`` or ``render`` may not be an operand of ``+`` or
``%``, a part of an f-string, part of a ``str.format`` or an item of ``str.join``. A translated text stored in a
variable and glued later is not followed; ``Text`` refusing ``str()`` and ``+`` catches that at run time instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18n.checks import concatenations, python_files

ROOT = Path(__file__).resolve().parents[2]


def test_the_bots_code_glues_no_translated_pieces() -> None:
    files = python_files(ROOT)
    assert ROOT / "bot.py" in files
    assert ROOT / "i18n" / "__init__.py" in files
    assert [problem for path in files for problem in concatenations(path.read_text(), path.name)] == []


@pytest.mark.parametrize(
    "code",
    [
        "text = render(_('Draw pile'), locale) + ': 12'",
        "text = 'Pile ' + render(pile, locale)",
        "text = '%s!' % render(title, locale)",
        "text = f'{render(title, locale)}: {count}'",
        "text = f'**{_(\"Your turn\")}**'",
        "text = '{}: {}'.format(render(a, locale), count)",
        "text = render(a, locale).format(count=1)",
        "text = ' '.join([render(a, locale), render(b, locale)])",
        "text = '\\n'.join(render(part, locale) for part in parts)",
        "text = self.render(a, locale) + suffix",
        "from i18n import _\nfor _ in range(3):\n    pass",
        "from i18n import _\nfirst, _ = pair",
    ],
)
def test_the_check_finds_glued_pieces(code: str) -> None:
    assert concatenations(code) != []


@pytest.mark.parametrize(
    "code",
    [
        "text = render(_('{title}: {count}', title=_('Draw pile'), count=12), locale)",
        "text = render(lines(_('Your turn'), _n('{count} card', '{count} cards', n)), locale)",
        "text = 'Draw pile: ' + str(count)",  # nothing translated: not this check's business
        "for _ in range(3):\n    pass",  # a module that does not mark texts may use _ as it likes
        "name = first + render",  # the name alone is not a call
    ],
)
def test_the_check_lets_whole_sentences_pass(code: str) -> None:
    assert concatenations(code) == []
