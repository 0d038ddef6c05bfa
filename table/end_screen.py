"""The end screen's own parts, the same for every game: under the result, the record of these players at this game
(the game just ended included), and its buttons, Rematch and Replay.

The buttons are answered in ``cogs``, matched by custom id: Rematch by the AfterTheEnd cog (only the channel's newest
end screen keeps it live: an older one is left with its Replay), Replay by the History cog, privately for whoever
clicks, with ``/history``'s one check that keeps a daily deal's replay closed until its UTC day is over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from i18n import Localized, Text, _, _n, _p, joined, number, render
from storage import GameRecord, GameStore, StatsStore
from table.answer import detached
from table.people import is_ai, mention
from table.registry import GAMES

log = logging.getLogger(__name__)

REMATCH_ID = "rematch:{game}"
END_REPLAY_ID = "replay:{game}"


def is_team_game(kind: str) -> bool:
    game = GAMES.get(kind)
    return game is not None and game.info.cooperative


def score_text(kind: str, score: float | None, digits: int = 0) -> Text:
    """How a score reads: in cards left where the game counts them (``GameInfo.score_counts_cards``), else points."""
    if score is None:
        return _("no score")
    game = GAMES.get(kind)
    cards = game is not None and game.info.score_counts_cards
    if digits == 0:
        whole = round(score)
        if cards:
            return _n("{count} card left", "{count} cards left", whole)
        return _n("{count} point", "{count} points", whole)
    value = number(score, decimals=digits)
    return _("{score} cards left", score=value) if cards else _("{score} points", score=value)


def team_of(record: GameRecord) -> tuple[int, ...]:
    """The game's people in id order, as the results name a team (computer players are no part of it)."""
    return tuple(sorted(p for p in record.players if not is_ai(p)))


async def team_record(storage: StatsStore, record: GameRecord) -> Localized | None:
    """The record of this game's people together at its game, on this server, with or without computer players: the
    games, the wins and the best score (the lowest: cards left, or points). A team game has one result for all, so
    its record is the team's; in a competitive game each one wins alone, so it names each one's first places and who
    scored the best. None when these people have not finished a game of it together."""
    team = team_of(record)
    standings = await storage.together(record.guild_id, record.kind, team)
    if not standings:
        return None
    games = standings[0].games  # every one of them played each of these games
    if is_team_game(record.kind):
        return _n(
            "This team's record: {count} game, {won} won, best {best}.",
            "This team's record: {count} games, {won} won, best {best}.",
            games,
            won=standings[0].won,
            best=score_text(record.kind, standings[0].best),
        )
    if len(standings) == 1:  # one person against computer players
        return _n(
            "{player}'s record: {count} game, {won} won, best {best}.",
            "{player}'s record: {count} games, {won} won, best {best}.",
            games,
            player=mention(team[0]),
            won=standings[0].won,
            best=score_text(record.kind, standings[0].best),
        )
    best = min((s.best for s in standings if s.best is not None), default=None)
    best_players = [mention(s.players[0]) for s in standings if s.best is not None and s.best == best]
    # Translators: {wins} lists each one's first places ("@ana 2, @ben 1"); {best} is "{score} by {players}".
    return _n(
        "These players' record: {count} game together; first places: {wins}; best: {best}.",
        "These players' record: {count} games together; first places: {wins}; best: {best}.",
        games,
        wins=joined([joined([mention(s.players[0]), str(s.won)], " ") for s in standings], ", "),
        # Translators: the best (lowest) score of these games and who scored it: "5 points by @ben".
        best=_("{score} by {players}", score=score_text(record.kind, best), players=joined(best_players, ", ")),
    )


def replay_button(record: GameRecord, locale: str) -> discord.ui.Button[discord.ui.View]:
    """The way from the end screen to the game's replay (``/history`` has it too), opened privately for the clicker."""
    return discord.ui.Button(
        label=render(_p("button", "Replay"), locale),
        style=discord.ButtonStyle.secondary,
        custom_id=END_REPLAY_ID.format(game=record.id),
    )


def final_view(record: GameRecord, locale: str) -> discord.ui.View:
    """What stays under a finished game's last board: the rematch, and the replay."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=render(_p("button", "Rematch"), locale),
            style=discord.ButtonStyle.success,
            custom_id=REMATCH_ID.format(game=record.id),
        )
    )
    view.add_item(replay_button(record, locale))
    return view


def replay_view(record: GameRecord, locale: str) -> discord.ui.View:
    """What an older end screen keeps once a newer game ended in its channel: the replay, without the rematch."""
    view = discord.ui.View(timeout=None)
    view.add_item(replay_button(record, locale))
    return view


async def retire_end_screens(
    client: discord.Client,
    storage: GameStore,
    newest: GameRecord,
    locale_of: Callable[[GameRecord], str],
    copy_of: int | None = None,
) -> None:
    """``newest`` ended and its end screen (its message) is the channel's newest: the end screen before it keeps only
    its Replay, so one Rematch is live in a channel. ``copy_of``: an older end screen of ``newest`` itself, which a
    copy (``/board``) replaced. A game ended by /endgame has no end screen (its message is forgotten as it ends)."""
    stale = [(newest, copy_of)] if copy_of is not None else []
    games = await storage.channel_games(newest.channel_id, limit=5)
    older = next((g for g in games if g.id < newest.id and g.ended_at is not None and g.message_id), None)
    if older is not None and older.message_id is not None:
        stale.append((older, older.message_id))
    channel = client.get_partial_messageable(newest.channel_id)
    for game, message_id in stale:
        try:
            await channel.get_partial_message(message_id).edit(view=detached(replay_view(game, locale_of(game))))
        except discord.HTTPException:
            # Deleted, or no longer ours to edit: a click on its Rematch is refused all the same.
            log.info("The end screen of game %s kept its Rematch", game.id, exc_info=True)
