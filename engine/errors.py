"""The one exception family of the rules engines.

Every error carries the sentence a player sees as a ``Text`` (``error.text``), rendered in the reader's language on
the error path; ``str(error)`` is that sentence in English, for the logs. Messages are written for people: specific,
friendly, and never revealing a card that the reader is not allowed to see.
"""

from i18n import Text, render


class GameError(Exception):
    """Base class: an action the rules refuse. Its ``text`` is shown to the player who tried it."""

    def __init__(self, text: Text) -> None:
        super().__init__(render(text, "en"))
        self.text = text


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
