"""What teaches the table as it is played here (the panel, the signals, the turn clock): the few lines /rules adds to
each game's rules, and the note a person gets when they open or join their first game on a server. Each game's own
lines come with its registration (``Registration.at_the_table``, ``first_game``); these fit any game."""

from __future__ import annotations

from i18n import Text, _
from table.registry import registration

AT_ANY_TABLE = _(
    "**At the table**: the buttons under the board, and /hand, show your own private panel.\n"
    "- Each turn has a clock (the turn time chosen in the lobby): a reminder comes first, then the autopilot plays "
    "for you."
)
FIRST_ANY_GAME = _(
    "**New here? How to play:** the buttons under the board and /hand show your own panel.\n"
    "Each turn has a clock: when it runs out, the autopilot plays for you. /rules and /help say more."
)


def at_the_table(kind: str) -> Text:
    hosted = registration(kind)
    return hosted.at_the_table if hosted is not None and hosted.at_the_table is not None else AT_ANY_TABLE


def first_game_note(kind: str) -> Text:
    hosted = registration(kind)
    return hosted.first_game if hosted is not None and hosted.first_game is not None else FIRST_ANY_GAME
