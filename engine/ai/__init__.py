"""Computer players: an ``AIPlayer`` per game that has one, carried by the game's registration (``table.registry``).

An AI player decides from a seat's observation (``GAME.observation(state, player)``) and never from the state, so it
sees exactly what that seat may see. It is pure and keeps no memory: the same observation and random state give the
same action, before and after a restart.

- ``act(observation, rng)``: the next action of the seat to move (in The Game also the first card of the game, when
  nobody has laid yet; called again after each of its own plays until it returns ``EndTurn``). Always legal; raises
  ValueError when the seat is not the one to move. The Game's decisions take a few milliseconds at most.
- ``signals(observation)``: the signal actions (raise or clear) the seat wants now; [] when the table already shows
  them, so calling it after every move never flip-flops. No Thanks! has none. The table calls it for every computer
  seat after every move (anybody's), applies the answers, then lets the seat to move act: the same moments as
  ``benchmarks/ai.py --signals live``. A raised signal stays up until its owner's next turn unless what it says
  became untrue (The Game: its card left the hand or no longer fits the pile).

- ``hint(observation)`` (optional, ``None`` where a game has none): what the computer player would do in a person's
  seat, with one line of why (a ``Text``), from that seat's view alone: the hand panel's Hint button. The Game has one,
  No Thanks! has none.

When ``act`` fails, the table plays the game's own safe move (``Game.default_action``): it is written once, in the
rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine import no_thanks as no_thanks_rules
from engine import the_game as the_game_rules
from engine.ai import no_thanks as no_thanks_ai
from engine.ai import the_game as the_game_ai

ObservationT = TypeVar("ObservationT")
ActionT = TypeVar("ActionT")


@dataclass(frozen=True, slots=True)
class AIPlayer(Generic[ObservationT, ActionT]):
    act: Callable[[ObservationT, random.Random], ActionT]
    signals: Callable[[ObservationT], Sequence[ActionT]]
    # Whether the turn clock's autopilot plays an away person's turn with this computer player; if not, it plays the
    # game's safe default move (``Game.default_action``).
    plays_autopilot: bool = True
    hint: Callable[[ObservationT], Any] | None = None


THE_GAME: AIPlayer[the_game_rules.Observation, the_game_rules.Action] = AIPlayer(
    act=the_game_ai.act,
    signals=the_game_ai.signals,
    hint=the_game_ai.hint,
)
NO_THANKS: AIPlayer[no_thanks_rules.Observation, no_thanks_rules.Action] = AIPlayer(
    act=no_thanks_ai.act,
    signals=no_thanks_ai.signals,
    # An earlier ruling: an away player's autopilot says "no thanks" while chips last (the default move), rather
    # than playing their cards for them as a computer player would.
    plays_autopilot=False,
)
