"""How a finished game's result reads, for the statistics, the history and a thread's result line in its channel
(a score reads the same on the end screen: ``table.end_screen.score_text``)."""

from __future__ import annotations

from i18n import Localized, Text, _, joined
from storage import GameRecord
from table.end_screen import score_text
from table.people import mention
from table.registry import GAMES


def variants_text(kind: str, variants: tuple[str, ...]) -> Localized:
    info = GAMES[kind].info
    labels = [v.label for name in variants if (v := info.variant(name)) is not None]
    return joined(labels, ", ") if labels else _("standard rules")


def won_word(kind: str) -> Text:
    """What a win is follows from the contract: a cooperative game is won by the team, a competitive one by whoever
    comes first."""
    game = GAMES.get(kind)
    return _("first place") if game is not None and not game.info.cooperative else _("won")


def result_text(record: GameRecord) -> Text:
    """How the game ended, in a few words."""
    result = record.result
    if record.status != "finished" or result is None:
        return _("abandoned")
    if result.team:
        return _("**won**") if result.won else score_text(record.kind, result.score)
    if result.winner is not None:
        return _(
            "{player} first with {score}",
            player=mention(result.winner),
            score=score_text(record.kind, result.scores.get(result.winner)),
        )
    return _("finished")


def game_over_here(record: GameRecord) -> Text:
    """What a player hears who asks for their hand after the end: the game is over, and how it ended."""
    game = GAMES.get(record.kind)
    title = game.info.title if game is not None else record.kind
    return _(
        "The game of {game} here is over ({result}). /board shows its end; /newgame opens the next one.",
        game=title,
        result=result_text(record),
    )


def people(players: tuple[int, ...]) -> Localized:
    return joined([mention(p) for p in players], " ") if players else _("nobody")


def hint_marked(record: GameRecord, line: Text | Localized) -> Text | Localized:
    """A game's line in a list, marked 💡 when somebody took a Hint in it (it is left out of the leaderboards)."""
    return _("{line} 💡", line=line) if record.hinted else line
