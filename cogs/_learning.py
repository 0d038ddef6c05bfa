"""What teaches the table as it is played here (the panel, the signals, the turn clock): the few lines /rules adds to
each game's rules, and the note a person gets when they open or join their first game on a server."""

from __future__ import annotations

from i18n import Text, _

# /rules: how each game is played with this bot, after the game's own rules.
AT_THE_TABLE: dict[str, Text] = {
    "the_game": _(
        "**At the table**: press **My hand** under the board for your private panel: pick a card, then a pile (its "
        "button shows the jump), then **End turn**.\n"
        '- **Signals…** (or /signal) puts a sign on a pile, such as "please don\'t lay here" or "small steps '
        'only", for the whole table to see, without numbers.\n'
        "- Each turn has a clock (the turn time chosen in the lobby): a reminder comes first, then the autopilot "
        "plays for you and the table may vote on what happens next."
    ),
    "no_thanks": _(
        "**At the table**: on your turn press **No thanks!** or **Take** under the board (or /nothanks, /take); "
        "**My cards and chips** shows yours privately.\n"
        "- Each turn has a clock (the turn time chosen in the lobby): a reminder comes first, then the autopilot "
        "plays for you and the table may vote on what happens next."
    ),
}
AT_ANY_TABLE = _(
    "**At the table**: the buttons under the board, and /hand, show your own private panel.\n"
    "- Each turn has a clock (the turn time chosen in the lobby): a reminder comes first, then the autopilot plays "
    "for you."
)

# The first game of a person on a server: a short note with their private answer.
FIRST_GAME: dict[str, Text] = {
    "the_game": _(
        "**New here? How to play:** on your turn press **My hand** under the board, pick a card, then a pile, and "
        "**End turn** when you have laid enough. **Signals…** tells the table about a pile without numbers.\n"
        "Each turn has a clock: when it runs out, the autopilot plays for you. /rules and /help say more."
    ),
    "no_thanks": _(
        "**New here? How to play:** on your turn press **No thanks!** or **Take** under the board; **My cards and "
        "chips** shows yours privately.\n"
        "Each turn has a clock: when it runs out, the autopilot plays for you. /rules and /help say more."
    ),
}
FIRST_ANY_GAME = _(
    "**New here? How to play:** the buttons under the board and /hand show your own panel.\n"
    "Each turn has a clock: when it runs out, the autopilot plays for you. /rules and /help say more."
)


def at_the_table(kind: str) -> Text:
    return AT_THE_TABLE.get(kind, AT_ANY_TABLE)


def first_game_note(kind: str) -> Text:
    return FIRST_GAME.get(kind, FIRST_ANY_GAME)
