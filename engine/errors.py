"""The one exception family of the rules engines.

The ``str()`` of every error is the sentence a player sees, so messages are written for people:
specific, friendly, and never revealing a card that the reader is not allowed to see.
"""


class GameError(Exception):
    """Base class: an action the rules refuse. Its message is shown to the player who tried it."""


class NotYourTurn(GameError):
    """Somebody other than the player to move tried to act."""


class NotAPlayer(GameError):
    """Somebody who is not (or no longer) seated at this game tried to act."""


class IllegalAction(GameError):
    """The action breaks a rule (wrong card, wrong pile, minimum not reached, ...)."""


class GameOver(GameError):
    """The game has already ended."""


class CorruptState(GameError):
    """Saved data failed validation: it was damaged or tampered with."""
