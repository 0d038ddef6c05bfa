"""A computer player for The Game: a card-counting turn planner that reads and sets the pile signals.

It decides from one seat's ``Observation`` alone: its own hand and the public board. Every laid card is public
(``view.piles[i].cards``), so the cards still to come are counted exactly: each card of 2..99 that is neither in the
hand nor laid is in another hand or the draw pile.

A turn is planned whole: every order of the cards still needed this turn is tried (backwards tricks that an earlier
card of the same turn opens included), and each end position is scored by the room left on the piles for the cards
still to come, the cards that no pile would take any more, and how easily the rest of the hand can be laid later.
Once the minimum is laid, more cards are laid only while they are nearly free; once the draw pile is empty, the
endgame search (``engine.ai.the_game_endgame``) may overrule the plan. It is all recomputed at every call, so the
caller keeps no memory of the AI and a restart changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.the_game_endgame import ENDGAME_WHY, endgame
from engine.ai.the_game_variants import weights
from engine.the_game import (
    ASCENDING,
    BACKWARDS_STEP,
    PILES,
    Action,
    EndTurn,
    Mark,
    Observation,
    Play,
    Signal,
    backwards_trick_card,
    is_backwards_trick,
)
from i18n import Text, _, _n

_UP = tuple(name in ASCENDING for name in PILES)
_FIRST, _LAST = 2, 99
_HIGHEST = 101  # the prefix sums run over 0..101 so that the row cards 1 and 100 index safely

# What the plan weighs, in cards still to come. Tuned on seeded all-AI games (benchmarks/ai.py). The weights that
# differ by variant (the value of a card beyond the minimum, of a dead card, of a gap left in the hand, how far a plan
# looks, when to ask "don't lay") are in ``engine.ai.the_game_variants``.
# Skipping a card still to come costs more the fewer piles still take it (index: how many piles take it now): a card
# that loses its last pile is lost, one that loses one pile of four still has three.
ROOM_BY_PILES = (0.0, 6.0, 2.5, 1.0, 0.6)
DEAD_IN_HAND = 12.0  # a card of our own hand that no pile takes any more
TRICK_IN_HAND = -1.5  # a card left in the hand that fits a pile as a backwards trick
PAIR_IN_HAND = 1.0  # two cards ten apart in the hand: a backwards trick for later
# Laying a card (other than a backwards trick) on a pile where another seat asks for something.
SIGNAL_COST = {"trick": 6.0, "dont_lay": 0.5, "small_steps": 0.2}
SMALL_STEPS_GAP = 0.5  # "small steps" also weighs half the room the step takes once more
# When this seat raises "small steps" on a pile: the room (cards still to come it skips) its card needs at most.
SMALL_STEPS_ROOM = 3.0


@dataclass(frozen=True, slots=True)
class _Board:
    """One seat's reading of the table: the tops, the hand, and which cards are still to come."""

    tops: tuple[int, int, int, int]
    hand: tuple[int, ...]
    prefix: tuple[float, ...]  # prefix[k]: cards still to come among 2..k (the hand and the laid cards excluded)
    room: tuple[float, ...]  # likewise, each weighed by how few piles take it now (``ROOM_BY_PILES``)
    asked: tuple[tuple[str, ...], ...]  # per pile: the signals other seats raise there
    needed: int  # cards still to lay this turn before it may end
    extra: float  # the value of laying a card beyond the minimum
    extra_room: float  # the most room a card beyond the minimum may take
    dead_card: float  # the cost of a card to come that no pile takes any more
    max_extra: int  # cards beyond the minimum that one plan may hold (the rest are planned at the next call)
    hand_gap: float  # for each card left in the hand, the share of the room it will cost to lay it later
    dont_lay_room: float  # the most room this seat's card may take for it to ask "don't lay" on that pile

    def between(self, low: int, high: int) -> float:
        """Cards still to come strictly between ``low`` and ``high``."""
        return self.prefix[high - 1] - self.prefix[low] if high > low + 1 else 0.0


def _board(observation: Observation) -> _Board:
    view = observation.view
    a, b, c, d = (pile.top for pile in view.piles)
    tops = (a, b, c, d)
    hand = observation.hand
    known = set(hand)
    for pile in view.piles:
        known.update(pile.cards)
    chance = [0.0 if card in known or card < _FIRST or card > _LAST else 1.0 for card in range(_HIGHEST + 1)]
    prefix = [0.0] * (_HIGHEST + 1)
    room = [0.0] * (_HIGHEST + 1)
    total = weighed = 0.0
    for card in range(_HIGHEST + 1):
        total += chance[card]
        prefix[card] = total
        if chance[card]:
            piles = (card > a) + (card > b) + (card < c) + (card < d)
            weighed += ROOM_BY_PILES[piles]
        room[card] = weighed
    asked = tuple(
        tuple(mark.kind for mark in view.signals if mark.pile == name and mark.player != observation.player)
        for name in PILES
    )
    # Where other seats signal, a pile without a signal is one nobody needs soon; at a quiet table (or alone) nothing
    # is known of the others' cards, so only nearly free cards are laid beyond the minimum.
    talking = any(mark.player != observation.player for mark in view.signals)
    weighed_by = weights(view.expert, view.smaller_hands, len(view.seats))
    extra = weighed_by.extra_card if talking else weighed_by.extra_card_quiet
    if len(view.seats) == 1:
        extra = weighed_by.extra_card_solo
    if not view.draw_pile:
        extra = weighed_by.extra_card_last
    return _Board(
        tops=tops,
        hand=hand,
        prefix=tuple(prefix),
        room=tuple(room),
        asked=asked,
        needed=max(0, view.minimum - view.laid),
        extra=extra,
        extra_room=weighed_by.extra_room if talking else weighed_by.extra_room_quiet,
        dead_card=weighed_by.dead_card if talking else weighed_by.dead_card_quiet,
        max_extra=weighed_by.max_extra,
        hand_gap=weighed_by.hand_gap,
        dont_lay_room=weighed_by.dont_lay_room,
    )


def _fits(pile: int, top: int, card: int) -> bool:
    if _UP[pile]:
        return card > top or card == top - BACKWARDS_STEP
    return card < top or card == top + BACKWARDS_STEP


def _room_taken(board: _Board, pile: int, top: int, card: int) -> float:
    """Cards still to come that laying ``card`` on ``pile`` at ``top`` shuts out (negative: lets back in)."""
    if _UP[pile]:
        return board.between(top, card) if card > top else -board.between(card, top)
    return board.between(card, top) if card < top else -board.between(top, card)


def _position(board: _Board, tops: Sequence[int], hand: Sequence[int]) -> float:
    """How bad the position is beyond the room already taken: dead cards, and what the rest of the hand will cost."""
    a, b, c, d = tops
    prefix = board.prefix
    hand_gap = board.hand_gap
    cost = 0.0
    high, low = min(a, b), max(c, d)
    if low <= high:
        # No pile takes these any more; only a backwards trick could save them.
        cost += board.dead_card * (prefix[high] - prefix[low - 1])
    # The room a card takes on a pile is prefix[card - 1] - prefix[top] (ascending) or prefix[top - 1] - prefix[card]
    # (descending); a backwards trick is the best a card can do. Written out with plain comparisons: this runs for
    # every plan the search tries, and it is most of a decision's time.
    tricks = (a - BACKWARDS_STEP, b - BACKWARDS_STEP, c + BACKWARDS_STEP, d + BACKWARDS_STEP)
    for card in hand:
        if card in tricks:
            cost += TRICK_IN_HAND
        else:
            up = a if a < card else 0
            if up < b < card:
                up = b
            down = c if c > card else _HIGHEST
            if card < d < down:
                down = d
            if up:
                gap = prefix[card - 1] - prefix[up]
                if down < _HIGHEST:
                    other = prefix[down - 1] - prefix[card]
                    if other < gap:
                        gap = other
                cost += hand_gap * gap
            elif down < _HIGHEST:
                cost += hand_gap * (prefix[down - 1] - prefix[card])
            else:
                cost += DEAD_IN_HAND
        if card + BACKWARDS_STEP in hand:
            cost -= PAIR_IN_HAND
    return cost


def _lowest_position(hand: Sequence[int]) -> float:
    """No ``_position`` of ``hand`` or of a part of it scores below this, whatever the tops: its only rewards are a
    card left that is a pile's backwards trick (at most one card a pile) and pairs ten apart (no more than the whole
    hand holds); every other term costs."""
    pairs = sum(card + BACKWARDS_STEP in hand for card in hand)
    return TRICK_IN_HAND * min(len(hand), len(PILES)) - PAIR_IN_HAND * pairs


@dataclass(slots=True)
class _Best:
    cost: float
    first: Play | None


def _plan(board: _Board, longest: int) -> _Best:
    """The best first card of a turn of ``board.needed`` to ``longest`` more cards (None: end the turn now).

    Plays on different piles do not affect one another, so only sequences whose piles never go back to an earlier
    pile are tried: every turn is one of them, reordered.
    """
    best = _Best(float("inf"), None)
    if board.needed == 0:
        best.cost = _position(board, board.tops, board.hand)
    tops = list(board.tops)
    # An end position whose room already costs more than the best plan found, even at the best score an end position
    # can have, is left unscored: the same plan wins, sooner.
    floor = _lowest_position(board.hand)

    prefix = board.room
    needed = board.needed
    extra = board.extra
    extra_room = board.extra_room
    # Laying a card (other than a backwards trick) on a pile where other seats ask for something.
    asked_cost = [sum(SIGNAL_COST.get(kind, 0.0) for kind in asked) for asked in board.asked]
    small_steps = ["small_steps" in asked for asked in board.asked]
    # What a card costs on a pile depends on the pile's top and the card alone, and the tops a turn meets are few (the
    # first ones and the hand's cards): each (pile, top) is worked out once, so a node of the search only walks the
    # cards that fit. The deepest nodes, most of the search, look beyond the minimum, where only nearly free cards
    # count: there the list is mostly empty.
    plays: dict[int, tuple[tuple[int, float], ...]] = {}

    def plays_on(key: int, pile: int, top: int, beyond: bool) -> tuple[tuple[int, float], ...]:
        """The cards of the whole hand that fit ``pile`` at ``top`` (in the hand's order), each with its cost; beyond
        the minimum only the nearly free ones, less the value of a card laid. Kept in ``plays`` under ``key``."""
        found = plays[key] = tuple(
            (card, step - extra if beyond else step)
            for card in board.hand
            if (step := cost_of(pile, top, card)) is not None and not (beyond and step > extra_room)
        )
        return found

    def cost_of(pile: int, top: int, card: int) -> float | None:
        """The room ``card`` takes on ``pile`` at ``top``, with the signals' costs (None: it does not fit)."""
        flat = asked_cost[pile]
        if _UP[pile]:
            if card > top:
                step = prefix[card - 1] - prefix[top]
            elif card == top - BACKWARDS_STEP:
                return prefix[card] - prefix[top - 1]  # a backwards trick: every signal welcomes it
            else:
                return None
        elif card < top:
            step = prefix[top - 1] - prefix[card]
        elif card == top + BACKWARDS_STEP:
            return prefix[top] - prefix[card - 1]
        else:
            return None
        return step + (flat + SMALL_STEPS_GAP * step if small_steps[pile] else flat)

    def search(hand: tuple[int, ...], first_pile: int, laid: int, cost: float, first: Play | None) -> None:
        beyond = laid >= needed
        deeper = laid + 1 < longest
        ends = laid + 1 >= needed
        for pile in range(first_pile, 4):
            top = tops[pile]
            key = (pile * _HIGHEST + top) * 2 + beyond
            found = plays.get(key)
            for card, step in plays_on(key, pile, top, beyond) if found is None else found:
                if card not in hand:
                    continue
                scored = ends and cost + step + floor < best.cost - 1e-9
                if not (scored or deeper):
                    continue
                index = hand.index(card)
                rest = hand[:index] + hand[index + 1 :]
                play = first or Play(card, PILES[pile])
                tops[pile] = card
                if scored:
                    total = cost + step + _position(board, tops, rest)
                    if total < best.cost - 1e-9:
                        best.cost, best.first = total, play
                if deeper:
                    search(rest, pile, laid + 1, cost + step, play)
                tops[pile] = top

    search(board.hand, 0, 0, 0.0, None)
    return best


def act(observation: Observation, rng: random.Random) -> Action:
    """The next action of the seat to move: a card of the planned turn, or EndTurn once the rest is not worth it.

    Also lays the first card of the game while nobody has (``view.current_player`` is None). Raises ValueError for a
    seat that is not to move: there is nothing it may do but signal.
    """
    del rng  # the plan is deterministic; the parameter is part of every AI player's contract
    return endgame(observation, _decide(observation)[0])


def _decide(observation: Observation) -> tuple[Action, str]:
    """The plan's action, and why in one word: "plan" (the plan's card), "extra", "enough" or "lost"."""
    if observation.view.over or observation.view.current_player not in (None, observation.player):
        raise ValueError("It is not this seat's turn.")
    board = _board(observation)
    best = _plan(board, board.needed + board.max_extra if board.needed else board.max_extra)
    if best.first is not None:
        return best.first, "plan" if board.needed else "extra"
    if board.needed == 0:
        return EndTurn(), "enough"
    # No sequence lays the minimum, so the game is lost whatever we do (the engine ends it when nothing fits).
    plays = [
        Play(card, pile.name)
        for pile, index in zip(observation.view.piles, range(4), strict=True)
        for card in observation.hand
        if _fits(index, pile.top, card)
    ]
    return (_smallest_step(plays, observation) if plays else EndTurn()), "lost"


@dataclass(frozen=True, slots=True)
class Hint:
    """What the computer player would do in a seat's place, and one line of why, from that seat's view alone."""

    action: Action
    why: Text  # translated where it is shown


def _cards(count: float) -> Text:
    count = round(count)
    return _("no card") if count == 0 else _n("{count} card", "{count} cards", count)


def hint(observation: Observation) -> Hint | None:
    """The computer player's choice for this seat now (None once the game is over or the seat left).

    On the seat's turn (or before the first card): its card or the end of the turn. Otherwise: the signal it would
    raise or clear, or None when the table already shows what it would.
    """
    view = observation.view
    if view.over or any(seat.player == observation.player and seat.left for seat in view.seats):
        return None
    if view.current_player not in (None, observation.player):
        wanted = signals(observation)
        if not wanted:
            return None
        signal = wanted[0]
        if signal.kind == "clear":
            return Hint(
                signal, _("Your signal on {pile} no longer says anything true about your cards.", pile=signal.pile)
            )
        words = {"trick": _("you hold its backwards trick"), "dont_lay": _("your card fits it with hardly a gap")}
        why = words.get(signal.kind, _("your card fits it closely"))
        return Hint(signal, _("Signal on {pile}: {why}.", pile=signal.pile, why=why))
    action, reason = _decide(observation)
    if (searched := endgame(observation, action)) != action:
        return Hint(searched, ENDGAME_WHY)
    if isinstance(action, EndTurn):
        if reason == "lost":
            return Hint(action, _("No card of yours fits any pile."))
        return Hint(action, _("You laid what you must, and every other card would take room the team still needs."))
    assert isinstance(action, Play)
    board = _board(observation)
    index = PILES.index(action.pile)
    top = board.tops[index]
    room = _room_taken(board, index, top, action.card)
    if reason == "lost":
        why = _("No order of your cards lays the minimum; this card moves its pile the least.")
    elif is_backwards_trick(action.pile, top, action.card):
        why = _(
            "The backwards trick: {pile} goes back ten, {cards} still to come fit it again.",
            pile=action.pile,
            cards=_cards(-room),
        )
    elif reason == "extra":
        why = _(
            "Nearly free: it skips {cards} still to come, and every card laid now is one less to place later.",
            cards=_cards(room),
        )
    else:
        why = _("Of the cards you must lay, this wastes least: it skips {cards} still to come.", cards=_cards(room))
    return Hint(action, why)


def _smallest_step(plays: Sequence[Play], observation: Observation) -> Play:
    """The play that moves its pile the least (a backwards trick counts as a step back)."""
    tops = [pile.top for pile in observation.view.piles]

    def step(play: Play) -> int:
        index = PILES.index(play.pile)
        return play.card - tops[index] if _UP[index] else tops[index] - play.card

    return min(plays, key=step)


# --- signals --------------------------------------------------------------------------------------------------------


def wanted_signals(observation: Observation) -> dict[str, str]:
    """The signal this seat wants on each pile (pile name -> kind), from its hand and the tops alone.

    Never from the other seats' signals: two computer players reacting to each other could then flip-flop.
    """
    return _wanted(_board(observation))


def _wanted(board: _Board) -> dict[str, str]:
    wanted: dict[str, str] = {}
    for pile, name in enumerate(PILES):
        top = board.tops[pile]
        if backwards_trick_card(name, top) in board.hand:
            wanted[name] = "trick"
            continue
        room = min(
            (_room_taken(board, pile, top, card) for card in board.hand if _fits(pile, top, card)),
            default=None,
        )
        if room is None:
            continue
        if room <= board.dont_lay_room:
            wanted[name] = "dont_lay"
        elif room <= SMALL_STEPS_ROOM:
            wanted[name] = "small_steps"
    return wanted


def _owners_moment(observation: Observation) -> bool:
    """Whether this seat may re-decide all its signals now: on its own turn (and before the first card), and right
    after it ended its turn, until the next mover lays a card.

    The turn passes to the next seat that is still here and holds cards, so the seat that ended the turn is the first
    such seat before the mover (a seat that ended with its last card is not seen: then its signals are all untrue).
    """
    view = observation.view
    if view.current_player in (None, observation.player):
        return True
    if view.laid:
        return False
    seats = view.seats
    mover = next(index for index, seat in enumerate(seats) if seat.player == view.current_player)
    for step in range(1, len(seats)):
        seat = seats[(mover - step) % len(seats)]
        if not seat.left and seat.cards:
            return seat.player == observation.player
    return False


def _stays(mark: Mark, board: _Board) -> bool:
    """Whether a raised signal stays as it is at another seat's move: while what it says still holds (its backwards
    trick card, or a card that fits its pile, is in the hand; the engine itself takes a trick signal down when its
    pile's top changes), unless the seat now holds that pile's backwards trick, which it says at once: a stronger
    request, never a signal taken down."""
    if mark.pile is None:
        return False  # this player never raises a signal about itself
    pile = PILES.index(mark.pile)
    top = board.tops[pile]
    trick = backwards_trick_card(mark.pile, top)
    if mark.kind == "trick":
        return trick in board.hand
    return trick not in board.hand and any(_fits(pile, top, card) for card in board.hand)


def signals(observation: Observation) -> list[Signal]:
    """The signals to raise or clear now so that the table shows what this seat wants; [] when it already does.

    The one policy of when a computer player talks, used by the bot's table and by ``benchmarks/ai.py --signals live``:
    call it for every computer seat after every move of the game (anybody's card, end of turn or leave), apply what it
    returns in order, then let the seat to move act. Other seats' signals never change its answer, so a signal by
    somebody else needs no call. Pure: the answer depends on the observation alone.

    A raised signal is sticky: at the other seats' moves it stays as it is while what it says holds (its card is still
    in the hand and still fits the pile), and only piles without a signal of this seat get a new one, but for a
    backwards trick the seat now holds, which replaces a "don't lay" or "small steps" at once. Everything is
    re-decided at the seat's own turn and right after it (``_owners_moment``), so the table does not see a computer
    player raise a signal and take it down while nothing it said changed.
    """
    view = observation.view
    if view.over or any(seat.player == observation.player and seat.left for seat in view.seats):
        return []
    mine: dict[str | None, Mark] = {mark.pile: mark for mark in view.signals if mark.player == observation.player}
    board = _board(observation)
    wanted = _wanted(board)
    sticky = not _owners_moment(observation)
    actions: list[Signal] = []
    for name in PILES:
        kind = wanted.get(name)
        current = mine.get(name)
        if sticky and current is not None and _stays(current, board):
            continue
        if kind is not None and (current is None or current.kind != kind):
            actions.append(Signal(kind, name))
        elif kind is None and current is not None:
            actions.append(Signal("clear", name))
    return actions
