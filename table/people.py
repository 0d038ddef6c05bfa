"""Who sits at a table: people under their Discord ids, computer players under negative ids."""

from __future__ import annotations

from i18n import Text, _
from storage import is_former

# Computer players sit under negative ids (Discord's are positive); their names say what they are.
AI_NAMES = ("Bot Ada", "Bot Grace", "Bot Alan", "Bot Edsger", "Bot Barbara", "Bot Donald", "Bot Hedy")


FORMER_PLAYER = _("a former player")


def is_ai(player: int) -> bool:
    return player < 0


def ai_seat_id(number: int) -> int:
    """The id of the ``number``-th computer player at a table (0 for the first)."""
    return -(number + 1)


def mention(user_id: int) -> str | Text:
    """How a seat is named: a ping for a person, a name for a computer player, and, for somebody who asked the bot to
    forget them (/forget), no name at all."""
    if is_former(user_id):
        return FORMER_PLAYER
    if is_ai(user_id):
        return f"**{AI_NAMES[(-user_id - 1) % len(AI_NAMES)]}**"
    return f"<@{user_id}>"
