"""Every way in waits its turn (issue 39): each button's class takes a place before its handler runs, as commands
do through the tree (``tests/e2e/test_busy.py``). A new view or dynamic item that forgot ``Admitted`` would let its
clicks past a saturated bot's queue."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import discord

import cogs
from cogs._ui import Admitted


def component_classes() -> list[type]:
    found: list[type] = []
    for module_info in pkgutil.iter_modules(cogs.__path__):
        module = importlib.import_module(f"cogs.{module_info.name}")
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ != module.__name__:
                continue
            if issubclass(value, discord.ui.View | discord.ui.DynamicItem):
                found.append(value)
    return found


def test_every_view_and_dynamic_item_of_the_cogs_is_admitted() -> None:
    classes = component_classes()
    dynamic = [cls for cls in classes if issubclass(cls, discord.ui.DynamicItem)]
    assert len(dynamic) >= 10  # the cogs' buttons and selects
    assert [cls.__name__ for cls in classes if not issubclass(cls, Admitted)] == []
