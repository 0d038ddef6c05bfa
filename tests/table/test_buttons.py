"""``table.buttons``: a panel's buttons sent as the dicts Discord takes are the ones discord.py would have sent for the
same buttons, row by row, with an item added the usual way below them; ``fit`` shortens a press's long label."""

from __future__ import annotations

import discord

from table.buttons import Buttons, Press
from table.fit import LABEL, fit

PRESSES = [
    Press("tg:1:card:12:", "12", discord.ButtonStyle.primary, row=0),
    Press("tg:1:end::", "End turn", discord.ButtonStyle.success, disabled=True, row=2),
    Press("tg:1:card:40:", "40", discord.ButtonStyle.primary, row=0),
    Press("tg:1:page:main:", "Back", row=1),
]


async def test_the_presses_are_sent_as_discord_pys_own_buttons_would_be() -> None:
    ours = Buttons(PRESSES)
    theirs = discord.ui.View(timeout=None)
    for press in PRESSES:
        theirs.add_item(
            discord.ui.Button(
                custom_id=press.custom_id, label=press.label, style=press.style, disabled=press.disabled, row=press.row
            )
        )
    assert ours.to_components() == theirs.to_components()
    assert [len(row["components"]) for row in ours.to_components()] == [2, 1, 1]
    assert ours.is_finished()  # nothing listens to it


async def test_a_link_added_to_the_presses_goes_below_them() -> None:
    view = Buttons(PRESSES)
    view.add_item(discord.ui.Button(label="Open the table", url="https://example.org/t/1", row=4))
    rows = view.to_components()
    assert len(rows) == 4
    assert rows[-1]["components"][0]["url"] == "https://example.org/t/1"


async def test_fit_shortens_a_press_too_long_for_discord() -> None:
    view = Buttons([Press("tg:1:hint::", "h" * 100), Press("tg:1:end::", "End turn")])
    fit({"view": view})
    assert [len(press.label) for press in view.presses] == [LABEL, len("End turn")]
