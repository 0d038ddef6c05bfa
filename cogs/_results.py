"""How a finished game's result reads, for the statistics and for a thread's result line in its channel."""

from __future__ import annotations

from engine import GAMES
from storage import GameRecord
from table.people import mention

# How a game's score reads; a game not listed reads in points. What a win is follows from the contract: a
# cooperative game is won by the team, a competitive one by whoever comes first. Team games rank teams.
SCORE_WORDS = {"the_game": ("card left", "cards left")}


def won_word(kind: str) -> str:
    game = GAMES.get(kind)
    return "first place" if game is not None and not game.info.cooperative else "won"


def is_team_game(kind: str) -> bool:
    game = GAMES.get(kind)
    return game is not None and game.info.cooperative


def score_text(kind: str, score: float | None, digits: int = 0) -> str:
    if score is None:
        return "no score"
    one, many = SCORE_WORDS.get(kind, ("point", "points"))
    return f"{score:.{digits}f} {one if digits == 0 and score == 1 else many}"


def result_text(record: GameRecord) -> str:
    """How the game ended, in a few words."""
    result = record.result or {}
    if record.status != "finished" or not result:
        return "abandoned"
    if "won" in result:
        return "**won**" if result.get("won") else score_text(record.kind, result.get("score"))
    winner, scores = result.get("winner"), result.get("scores") or {}
    if isinstance(winner, int):
        return f"{mention(winner)} first with {score_text(record.kind, scores.get(str(winner)))}"
    return "finished"


def people(players: tuple[int, ...]) -> str:
    return " ".join(mention(p) for p in players) or "nobody"
