"""What every game's rules module shares: seating and the checks of a seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from engine.errors import IllegalAction, NotAPlayer
from engine.game import GameInfo
from i18n import _

T = TypeVar("T")


def is_int(value: Any) -> bool:
    """A JSON integer (``True`` is an int to Python, never to us)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seating(info: GameInfo, players: Sequence[int]) -> tuple[int, ...]:
    """The seats of a new game, in order; refuses a table the game cannot be played at."""
    seats = tuple(players)
    if not info.min_players <= len(seats) <= info.max_players:
        raise IllegalAction(
            _(
                "{game} is for {least} to {most} players, not {count}.",
                game=info.title,
                least=info.min_players,
                most=info.max_players,
                count=len(seats),
            )
        )
    if len(set(seats)) != len(seats):
        raise IllegalAction(_("Each player can take only one seat."))
    return seats


def seat_of(players: tuple[int, ...], player: int) -> int:
    if player not in players:
        raise NotAPlayer(_("You're not playing in this game."))
    return players.index(player)


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])
