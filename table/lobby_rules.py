"""The lobby's rules as pure functions of a game's row: who may join, seat a computer player, set the turn time,
start, leave or ask for a rematch, and what each changes. ``table.lobby`` runs them over the compare-and-swap, so a
rule is always decided on the row as it is when the change is written (again after another writer came first).

Each refusal is a ``UserError`` with the sentence the person sees.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, date, datetime

from engine.game import GameInfo
from i18n import Localized, Text, _, _n
from storage import GameRecord, is_former, now
from table.answer import UserError
from table.games import NO_GAME, title
from table.options import TURN_TIMES, options_of, turn_time
from table.people import ai_seat_id, is_ai, mention
from table.registry import GAMES, computer_player

MAX_BOTS = 6
CHANGED_MEANWHILE = _("The lobby is changing fast; please try again.")


def has_computer_player(kind: str) -> bool:
    """Whether the game ``kind`` has a computer player to seat (the lobby's one question to the AI registry)."""
    return computer_player(kind) is not None


def no_computer_players(info: GameInfo) -> Text:
    return _("{game} has no computer players yet: invite people to fill the seats.", game=info.title)


def busy(existing: GameRecord | None) -> Text:
    """The refusal of a second game in a channel that has one open."""
    game = title(existing.kind) if existing else _("a game")
    if existing and existing.status == "lobby":
        return _(
            "A game of {game} is waiting in its lobby in this channel already: finish it or ask the host to /endgame.",
            game=game,
        )
    return _(
        "A game of {game} is being played in this channel already: finish it or ask the host to /endgame.", game=game
    )


def still_a_lobby(record: GameRecord) -> None:
    """Refuse a lobby change once the row is no lobby any more (started, or ended, by another writer meanwhile)."""
    if record.status == "lobby":
        return
    if record.status == "running":
        raise UserError(_("The game of {game} here has already started; join the next one!", game=title(record.kind)))
    raise UserError(NO_GAME)


def decides(record: GameRecord, user: int, not_the_host: Callable[[str | Text], Text], not_a_player: Text) -> None:
    """Refuse ``user`` a decision that is the host's, or, once nobody hosts, any player's in the lobby (a passer-by
    gets ``not_a_player``; anybody else, ``not_the_host`` of the host's name)."""
    if record.host_id is not None and user != record.host_id:
        raise UserError(not_the_host(mention(record.host_id)))
    if record.host_id is None and user not in record.players:
        raise UserError(not_a_player)


def joined(record: GameRecord, user: int) -> dict[str, object]:
    still_a_lobby(record)
    info = GAMES[record.kind].info
    if user in record.players:
        raise UserError(_("You're already in this game."))
    if len(record.players) >= info.max_players:
        raise UserError(
            _("The lobby is full: {game} is for at most {most} players.", game=info.title, most=info.max_players)
        )
    return {"players": (*record.players, user)}


def seated(record: GameRecord, user: int, change: int) -> dict[str, object]:
    """Seat a computer player (``change`` > 0) or send the last one seated away; the host's choice, or any player's
    when nobody hosts."""
    still_a_lobby(record)
    info = GAMES[record.kind].info
    decides(
        record,
        user,
        lambda host: _("Only the host, {host}, seats computer players.", host=host),
        _("Only a player in the lobby can seat computer players; press Join first."),
    )
    bots = [p for p in record.players if is_ai(p)]
    if change > 0:
        if not has_computer_player(info.kind):
            raise UserError(no_computer_players(info))
        if len(record.players) >= info.max_players:
            raise UserError(
                _("The table is full: {game} is for at most {most} players.", game=info.title, most=info.max_players)
            )
        taken = set(bots)
        new = next(ai_seat_id(n) for n in range(MAX_BOTS + 1) if ai_seat_id(n) not in taken)
        return {"players": (*record.players, new)}
    if not bots:
        raise UserError(_("There is no computer player to remove."))
    return {"players": tuple(p for p in record.players if p != bots[-1])}


def next_turn_time(record: GameRecord, user: int) -> dict[str, object]:
    """The host steps through the turn times, one click each."""
    still_a_lobby(record)
    if record.host_id is not None and user != record.host_id:
        raise UserError(_("Only the host, {host}, sets the turn time.", host=mention(record.host_id)))
    choices = list(TURN_TIMES.values())
    current = turn_time(record)
    following = choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]
    return {"options": options_of(record).but(turn_time=following)}


def left(record: GameRecord, user: int) -> dict[str, object]:
    """A person leaves the lobby. The host's leaving hands the table to everybody (any player may start, or end
    it); the last person's closes it."""
    still_a_lobby(record)
    if user not in record.players:
        raise UserError(_("You aren't in this game."))
    players = tuple(p for p in record.players if p != user)
    if all(is_ai(p) for p in players):
        return {"players": players, "status": "abandoned", "ended_at": now()}
    return {"players": players, "host_id": None if user == record.host_id else record.host_id}


def startable(record: GameRecord, user: int) -> None:
    """Refuse a start that the rules of the lobby don't allow; the host starts it, or any player when nobody
    hosts."""
    still_a_lobby(record)
    info = GAMES[record.kind].info
    decides(
        record,
        user,
        lambda host: _("Only the host, {host}, can start the game.", host=host),
        _("Only a player in the lobby can start the game; press Join first."),
    )
    if len(record.players) < info.min_players:
        raise UserError(
            _n(
                "{game} needs at least {least} players; {count} joined so far. Press Add bot to seat a computer "
                "player.",
                "{game} needs at least {least} players; {count} joined so far. Press Add bot to seat a computer "
                "player.",
                len(record.players),
                game=info.title,
                least=info.min_players,
            )
        )
    if all(is_ai(p) for p in record.players):
        raise UserError(_("A table of computer players alone is not started from Discord: join it first."))


def utc_today() -> date:
    return datetime.now(UTC).date()


def daily_seed(kind: str, day: date, players: int) -> int:
    """The daily deal: one seed per game, UTC date and number of players, the same on every server (52 bits, like
    every seed, so that it stays exact through JSON)."""
    digest = hashlib.sha256(f"{kind}:{day.isoformat()}:{players}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 12


def is_daily(record: GameRecord) -> bool:
    return options_of(record).daily


def rematch_players(old: GameRecord, channel_id: int | None, user: int) -> tuple[int, ...]:
    """Who sits at the rematch of the ended game ``old``: the presser hosts and comes first; the others keep their
    order. A former player (/forget) is nobody to seat: their seat would never act."""
    if old.channel_id != channel_id or old.is_open:
        raise UserError(_("That game can't be played again from here; open a new one with /newgame."))
    if user not in old.players:
        raise UserError(_("Only the players of that game can ask for a rematch; open a new one with /newgame."))
    return (user, *(p for p in old.players if p != user and not is_former(p)))


def rematch_options(old: GameRecord) -> dict[str, object]:
    return options_of(old).for_rematch()


def wants_rematch(old: GameRecord, user: int) -> Localized:
    values = {"player": mention(user), "game": GAMES[old.kind].info.title}
    if is_daily(old):
        return _("{player} wants a rematch of {game} with a random deal: press Start to deal.", **values)
    return _("{player} wants a rematch of {game}: press Start to deal.", **values)


def newest_played(games: list[GameRecord]) -> GameRecord | None:
    """The newest game that was dealt, of a channel's games (newest first): lobbies closed unplayed don't count."""
    return next((g for g in games if g.started_at is not None), None)
