"""Pure rules engines: no Discord, no asyncio, no database, no clock, no global randomness.

``GAMES`` is the registry: adding a game means its rules module here, its cog in ``cogs/``, and one line below.
"""

from typing import Any

from engine import no_thanks, the_game
from engine.game import Game

GAMES: dict[str, Game[Any, Any]] = {game.info.kind: game for game in (the_game.GAME, no_thanks.GAME)}
