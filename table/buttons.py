"""Buttons composed to be sent and never listened to, kept as the dicts Discord takes.

A hand panel's ten-odd buttons are composed afresh for every edit (about two panels a move) and are never dispatched
from the message: a click is answered by the dynamic items registered at start-up, matched by its custom id. Made as
discord.py ``Button`` objects and laid out by its ``View``, ten of them cost about 170 µs; as the dicts they become,
about 20 µs. ``Buttons`` is still a ``discord.ui.View`` (discord.py's send and edit calls take only views), already
stopped as ``detached`` leaves one; an item added to it the usual way (the web table's link) goes below the presses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord


@dataclass(frozen=True, slots=True)
class Press:
    """One button: what it says, the custom id its click carries, its colour, whether it can be pressed, its row."""

    custom_id: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int = 0

    def component(self) -> dict[str, Any]:
        return {
            "type": discord.ComponentType.button.value,
            "style": self.style.value,
            "label": self.label,
            "custom_id": self.custom_id,
            "disabled": self.disabled,
        }


class Buttons(discord.ui.View):
    """Rows of ``Press`` under a message, in the order of their rows (at most five buttons in a row, five rows)."""

    def __init__(self, presses: Iterable[Press] = ()) -> None:
        super().__init__(timeout=None)
        self.presses: list[Press] = list(presses)
        self.stop()  # nothing listens to it (``table.answer.detached``)

    def to_components(self) -> list[dict[str, Any]]:
        rows: dict[int, list[dict[str, Any]]] = {}
        for press in self.presses:
            rows.setdefault(press.row, []).append(press.component())
        return [{"type": discord.ComponentType.action_row.value, "components": rows[row]} for row in sorted(rows)] + (
            super().to_components()
        )
