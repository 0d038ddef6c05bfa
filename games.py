"""The games this bot hosts: one registration line each (OpenSpiel's ``pyspiel.register_game``).

Each game is two files, its rules (``engine/<game>.py``) and its table adapter (``cogs/<game>.py``), and the adapter
builds the game's ``Registration``. Importing this module fills the registry the core reads (``table.registry``);
``bot.py`` imports it before anything else asks for a game. Nothing but ``bot.py`` (and the tests) imports it: it sits
above the game adapters it names. The first registered game is the lobby's default.
"""

from cogs import no_thanks, the_game
from table.registry import register

register(the_game.REGISTRATION)
register(no_thanks.REGISTRATION)
