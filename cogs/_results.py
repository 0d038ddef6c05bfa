"""How a finished game's result reads, for the statistics and for a thread's result line in its channel."""

from __future__ import annotations

from engine import GAMES
from i18n import Text, _, _n, number
from storage import GameRecord
from table.people import mention


def won_word(kind: str) -> Text:
    """What a win is follows from the contract: a cooperative game is won by the team, a competitive one by whoever
    comes first."""
    game = GAMES.get(kind)
    return _("first place") if game is not None and not game.info.cooperative else _("won")


def is_team_game(kind: str) -> bool:
    game = GAMES.get(kind)
    return game is not None and game.info.cooperative


def score_text(kind: str, score: float | None, digits: int = 0) -> Text:
    """How a score reads: The Game counts the cards left, every other game points."""
    if score is None:
        return _("no score")
    cards = kind == "the_game"
    if digits == 0:
        whole = round(score)
        if cards:
            return _n("{count} card left", "{count} cards left", whole)
        return _n("{count} point", "{count} points", whole)
    value = number(score, decimals=digits)
    return _("{score} cards left", score=value) if cards else _("{score} points", score=value)


def result_text(record: GameRecord) -> Text:
    """How the game ended, in a few words."""
    result = record.result or {}
    if record.status != "finished" or not result:
        return _("abandoned")
    if "won" in result:
        return _("**won**") if result.get("won") else score_text(record.kind, result.get("score"))
    winner, scores = result.get("winner"), result.get("scores") or {}
    if isinstance(winner, int):
        return _(
            "{player} first with {score}",
            player=mention(winner),
            score=score_text(record.kind, scores.get(str(winner))),
        )
    return _("finished")


def people(players: tuple[int, ...]) -> str | Text:
    return " ".join(mention(p) for p in players) or _("nobody")
