"""How a finished game's result reads, for the statistics and for a thread's result line in its channel."""

from __future__ import annotations

from typing import Any

import discord

from engine import GAMES
from i18n import Localized, Text, _, _n, _p, joined, number, render
from storage import GameRecord, Storage
from table.people import is_ai, mention

# The end screen's Replay button (``replay_button``): the History cog answers it with the replay, privately.
END_REPLAY_ID = "replay:{game}"


def variants_text(kind: str, variants: tuple[str, ...]) -> Localized:
    info = GAMES[kind].info
    labels = [v.label for name in variants if (v := info.variant(name)) is not None]
    return joined(labels, ", ") if labels else _("standard rules")


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


def game_over_here(record: GameRecord) -> Text:
    """What a player hears who asks for their hand after the end: the game is over, and how it ended."""
    game = GAMES.get(record.kind)
    title = game.info.title if game is not None else record.kind
    return _(
        "The game of {game} here is over ({result}). /board shows its end; /newgame opens the next one.",
        game=title,
        result=result_text(record),
    )


def people(players: tuple[int, ...]) -> str | Text:
    return " ".join(mention(p) for p in players) or _("nobody")


def team_of(record: GameRecord) -> tuple[int, ...]:
    """The game's people in id order, as the results name a team (computer players are no part of it)."""
    return tuple(sorted(p for p in record.players if not is_ai(p)))


async def team_record(storage: Storage, record: GameRecord) -> Text | None:
    """The record of this game's people as a team at its game (a team game's, finished games on this server, with or
    without computer partners): games, wins, best score. None for a game without teams or not yet played."""
    team = team_of(record)
    if not is_team_game(record.kind) or not team:
        return None
    standings = [s for s in await storage.player_teams(record.guild_id, team[0], record.kind, 50) if s.players == team]
    games = sum(s.games for s in standings)
    if not games:
        return None
    best = min((s.best for s in standings if s.best is not None), default=None)
    return _n(
        "This team's record: {count} game, {won} won, best {best}.",
        "This team's record: {count} games, {won} won, best {best}.",
        games,
        won=sum(s.won for s in standings),
        best=score_text(record.kind, best),
    )


def replay_button(record: GameRecord, locale: str) -> discord.ui.Button[Any]:
    """The end screen's way to the game's replay (``/history`` has it too), opened privately for whoever clicks."""
    return discord.ui.Button(
        label=render(_p("button", "Replay"), locale),
        style=discord.ButtonStyle.secondary,
        custom_id=END_REPLAY_ID.format(game=record.id),
    )


async def end_screen_extras(
    storage: Storage, record: GameRecord, locale: str
) -> tuple[Localized | None, list[discord.ui.Button[Any]]]:
    """What the end screen of ``record`` adds, for the table to compose (``table/boards.py``): a line with the team's
    record (None when there is none) and the Replay button to put beside Rematch."""
    return await team_record(storage, record), [replay_button(record, locale)]
