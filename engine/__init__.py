"""Pure rules engines: no Discord, no asyncio, no database, no clock, no global randomness.

``GAMES`` is the registry. Adding a game means two files (its rules module, and its table adapter named by
``GameInfo.adapter``) and one ``register`` line; a computer player for it is optional (``engine.ai``).
"""

from typing import Any

from engine import no_thanks, the_game
from engine.game import Game

GAMES: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add ``game`` to the registry: the lobby offers it, the bot loads its adapter, the tests cover it."""
    GAMES[game.info.kind] = game
    return game


register(the_game.GAME)
register(no_thanks.GAME)
