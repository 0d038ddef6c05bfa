"""What the people at a table read and do: the one copy of the test players and readers that the end-to-end tests
(``tests/e2e``), the engine tests and the load benchmark (``benchmarks/load.py``) share.

- **Reading what a player is shown**, from the fake Discord's records: the ``Your hand:`` and ``Your chips:`` lines
  of DMs and private answers, The Game's board (its embed) and hand panel, No Thanks!'s ``Face-up card:`` line, the
  ``Game over`` footer, and the answer to an interaction.
- **Players**: The Game's "smallest jump" player (lay the card that uses up the least room on its pile; after the
  turn's minimum keep laying while a card fits within ``slack``), the player who does the opposite, and the simple
  No Thanks! player.
- **Reading what the bot committed**: the channel's newest game row and the state its move log replays to, through
  an SQLite connection of the test's own (so only what was committed is seen).

Nothing here needs pytest, a running bot or the fake Discord itself (only its record types); the rules come from
``engine``.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine import the_game
from engine.game import Setup, decode_moves, replay
from engine.the_game import Play
from table.registry import GAMES

if TYPE_CHECKING:  # only the fake's record types: the engine tests use the players without a fake Discord
    from tests.fake_discord import Channel, FakeDiscord, InteractionCallback, InteractionRecord, Member, Message

JSON = dict[str, Any]

# ---- private texts: hands and chips ----------------------------------------------------------------------------------

HAND_LINE = re.compile(r"^Your hand:(.*)$", re.MULTILINE)
CHIPS_LINE = re.compile(r"^Your chips: (\d+)$", re.MULTILINE)
#: No Thanks!'s face-up card and the chips on it, as the board and the panel show them.
ON_CARD = re.compile(r"^Face-up card: (\d+) \((\d+) chips? on it\)", re.MULTILINE)
FACE_UP = re.compile(r"^Face-up card: (\d+)", re.MULTILINE)


def hand_in(text: str) -> list[int] | None:
    """The cards on the ``Your hand:`` line of ``text``, in the order shown (None if there is no such line)."""
    match = HAND_LINE.search(text)
    return None if match is None else [int(card) for card in re.findall(r"\d+", match.group(1))]


def chips_in(text: str) -> int | None:
    """The number on the ``Your chips:`` line of ``text`` (None if there is no such line)."""
    match = CHIPS_LINE.search(text)
    return None if match is None else int(match.group(1))


def face_up_in(text: str) -> tuple[int, int] | None:
    """No Thanks!'s face-up card and the chips on it, from a ``Face-up card: 17 (3 chips on it)`` line."""
    match = ON_CARD.search(text)
    return None if match is None else (int(match[1]), int(match[2]))


def latest_hand(fake: FakeDiscord, member: Member) -> list[int]:
    """The hand shown by the newest DM to ``member`` that has a ``Your hand:`` line."""
    for message in reversed(fake.dms(member)):
        cards = hand_in(message.content)
        if cards is not None:
            return cards
    raise AssertionError(f"no hand was DMed to {member.name}")


def latest_chips(fake: FakeDiscord, member: Member) -> int:
    """The chips shown by the newest DM to ``member`` that has a ``Your chips:`` line."""
    for message in reversed(fake.dms(member)):
        chips = chips_in(message.content)
        if chips is not None:
            return chips
    raise AssertionError(f"no chip count was DMed to {member.name}")


def public_messages(fake: FakeDiscord, channel: Channel) -> list[Message]:
    """The messages everybody in ``channel`` sees, oldest first."""
    return [m for m in fake.channel_messages(channel) if not m.ephemeral]


#: The notice to a player whose DMs are closed. It carries a copy of the board, which is neither kept current nor
#: stripped of its buttons (see test_the_game.test_the_closed_dms_notice_is_no_second_live_board).
CLOSED_DMS = "can't send you direct messages"


def is_board(message: Message, title: str = "The Game") -> bool:
    """A board of the game named ``title`` (the notice about closed DMs left out)."""
    embed = message.embed
    return embed is not None and embed.get("title") == title and CLOSED_DMS not in message.content


def answer(rec: InteractionRecord) -> InteractionCallback:
    """The bot's first answer to an interaction (the fake's ``invoke`` and ``click`` wait for it)."""
    assert rec.response is not None, rec
    return rec.response


def public(rec: InteractionRecord) -> Message:
    """The public message that answered ``rec`` (failing if the bot answered privately: a refusal)."""
    assert not answer(rec).ephemeral, f"refused: {answer(rec).content!r}"
    assert rec.original is not None
    return rec.original


def private(rec: InteractionRecord) -> str:
    """The text of the private answer to ``rec``."""
    assert answer(rec).ephemeral, f"expected a private answer, got a public one: {answer(rec).content!r}"
    return answer(rec).content


# ---- The Game's board ------------------------------------------------------------------------------------------------

PILE_LINE = re.compile(r"^\*\*([ABCD])\*\* (↑ ascending|↓ descending): \*\*(\d+)\*\*(?:  (.*))?$")
SEAT_LINE = re.compile(r"^<@(\d+)>: (?:(\d+) cards?|left the game)( ⚠️ nearly stuck)?( ← to move)?$")
TURN_LINE = re.compile(r"^<@(\d+)>: (\d+) laid, at least (\d+) this turn\.$")
ANYONE_STARTS = "Anyone may lay the first card."
MARK = re.compile(r"(🛑|🔁|🐢) <@(\d+)> \(([^)]*)\)")
SYMBOLS = {"🛑": "dont_lay", "🔁": "trick", "🐢": "small_steps"}
DIRECTIONS = {pile: "↑ ascending" if pile in the_game.ASCENDING else "↓ descending" for pile in the_game.PILES}

Mark = tuple[int, str, str | None]  # (player, kind, pile)


@dataclass(frozen=True)
class Board:
    """Everything The Game's board shows."""

    tops: dict[str, int]
    directions: dict[str, str]
    marks: frozenset[Mark]  # the signals on the piles, and "nearly stuck" seats (pile None)
    draw_pile: int
    seats: dict[int, int | None]  # player -> cards held (None: left the game)
    marked: int | None  # the seat marked "to move"
    mover: int | None  # from the Turn line: None before the first card and once the game is over
    laid: int
    minimum: int
    variant: str
    anyone_starts: bool
    footer: str

    @property
    def over(self) -> bool:
        return self.footer.startswith("Game over")


def read_board(source: Message | JSON) -> Board:
    """The board in a message (or embed) of the bot; fails on anything that is not one, or not laid out as one."""
    if isinstance(source, dict):
        embed = source
    else:
        assert source.embeds, f"not a board: {source!r}"
        embed = source.embeds[0]
    assert embed.get("title") == "The Game", embed
    tops: dict[str, int] = {}
    directions: dict[str, str] = {}
    marks: set[Mark] = set()
    for line in str(embed.get("description") or "").splitlines():
        pile = PILE_LINE.match(line)
        assert pile, line
        tops[pile[1]] = int(pile[3])
        directions[pile[1]] = pile[2]
        for symbol, player, _ in MARK.findall(pile[4] or ""):
            marks.add((int(player), SYMBOLS[symbol], pile[1]))
    assert list(tops) == list(the_game.PILES), embed.get("description")
    fields = {item["name"]: item["value"] for item in embed.get("fields", [])}
    draw = re.fullmatch(r"(\d+) cards?", fields["Draw pile"])
    assert draw, fields
    seats: dict[int, int | None] = {}
    marked = None
    for line in fields["Players"].splitlines():
        seat = SEAT_LINE.match(line)
        assert seat, line
        seats[int(seat[1])] = None if seat[2] is None else int(seat[2])
        if seat[3]:
            marks.add((int(seat[1]), "nearly_stuck", None))
        if seat[4]:
            marked = int(seat[1])
    turn = fields.get("Turn", "")
    match = TURN_LINE.match(turn)
    return Board(
        tops=tops,
        directions=directions,
        marks=frozenset(marks),
        draw_pile=int(draw[1]),
        seats=seats,
        marked=marked,
        mover=int(match[1]) if match else None,
        laid=int(match[2]) if match else 0,
        minimum=int(match[3]) if match else 0,
        variant=fields["Variant"],
        anyone_starts=turn == ANYONE_STARTS,
        footer=(embed.get("footer") or {}).get("text", ""),
    )


def board_in(embeds: Iterable[JSON]) -> Board | None:
    """The board among a message's embeds (None if it has none)."""
    return next((read_board(embed) for embed in embeds if embed.get("title") == "The Game"), None)


def expected_board(state: the_game.State) -> Board:
    """What the board of ``state`` must show (compare with :func:`read_board`)."""
    view = the_game.public_view(state)
    mover = None if view.over else view.current_player
    return Board(
        tops={pile.name: pile.top for pile in view.piles},
        directions=DIRECTIONS,
        marks=frozenset((m.player, m.kind, m.pile) for m in view.signals),
        draw_pile=view.draw_pile,
        seats={seat.player: None if seat.left else seat.cards for seat in view.seats},
        marked=mover,
        mover=mover,
        laid=0 if mover is None else view.laid,
        minimum=0 if mover is None else view.minimum,
        variant=variant_of(state),
        anyone_starts=not view.over and view.current_player is None,
        footer=footer_of(state),
    )


def variant_of(state: the_game.State) -> str:
    on = (("expert", state.expert), ("smaller hands", state.smaller_hands))
    return ", ".join(name for name, chosen in on if chosen) or "standard rules"


def footer_of(state: the_game.State) -> str:
    """The board's footer: empty while the game runs."""
    if state.status == "abandoned":
        return "Game over: abandoned, no score."
    if the_game.is_over(state):
        left = the_game.score(state)
        return f"Game over: {left} {'card' if left == 1 else 'cards'} not laid."
    return ""


PANEL_TOP = re.compile(r"\b([ABCD]) (\d+)(?= ·)")
PANEL_TURN = re.compile(r"^Your turn: (\d+) laid, at least (\d+)\.", re.MULTILINE)
PANEL_OVER = "The game is over."


@dataclass(frozen=True)
class Panel:
    """The position as a player's private hand panel shows it ("A 35 · B 12 · C 60 · D 88 · draw pile 40")."""

    tops: dict[str, int]
    my_turn: bool  # the panel says "Your turn: ... laid, at least ..."
    laid: int
    minimum: int
    over: bool


def read_panel(content: str) -> Panel | None:
    """The position in a panel's text (None if it shows no piles)."""
    tops = {pile: int(top) for pile, top in PANEL_TOP.findall(content)}
    if list(tops) != list(the_game.PILES):
        return None
    turn = PANEL_TURN.search(content)
    laid, minimum = (int(turn[1]), int(turn[2])) if turn else (0, 0)
    return Panel(tops, turn is not None, laid, minimum, PANEL_OVER in content)


# ---- The Game's players ----------------------------------------------------------------------------------------------

SLACK = 2  # after the minimum, keep laying while a card fits this close (a backwards trick always does)


def jump(pile: str, top: int, card: int) -> int:
    """How much of the pile's room ``card`` uses up on ``pile`` showing ``top``; a backwards trick wins 10 back."""
    return card - top if pile in the_game.ASCENDING else top - card


def plays(hand: Iterable[int], tops: Mapping[str, int]) -> list[Play]:
    """Every card of ``hand`` that may go on a pile, with the piles it may go on."""
    return [Play(card, pile) for card in hand for pile in the_game.PILES if the_game.is_legal(pile, tops[pile], card)]


def smallest_jump(hand: Iterable[int], tops: Mapping[str, int]) -> Play | None:
    """The legal play that uses up the least room (ties: the lower card, then the pile letter)."""
    options = plays(hand, tops)
    return min(options, key=lambda p: (jump(p.pile, tops[p.pile], p.card), p.card, p.pile), default=None)


def biggest_jump(hand: Iterable[int], tops: Mapping[str, int]) -> Play | None:
    """The legal play that uses up the most room: the way to lose (ties: the lower card, then the pile letter)."""
    options = plays(hand, tops)
    return min(options, key=lambda p: (-jump(p.pile, tops[p.pile], p.card), p.card, p.pile), default=None)


def choose(hand: Sequence[int], tops: Mapping[str, int], laid: int, minimum: int, *, slack: int = SLACK) -> Play | None:
    """The smallest-jump player's next card, or None to end the turn (also when no card fits)."""
    best = smallest_jump(hand, tops)
    if best is None:
        return None
    return best if laid < minimum or jump(best.pile, tops[best.pile], best.card) <= slack else None


def sabotage(hand: Sequence[int], tops: Mapping[str, int], laid: int, minimum: int) -> Play | None:
    """The worst player: the biggest jumps, and a card that leaves the rest of the hand stuck whenever one does."""
    options = plays(hand, tops)
    if not options or laid >= minimum:
        return None

    def stuck(play: Play) -> bool:
        after = {**tops, play.pile: play.card}
        return not plays([card for card in hand if card != play.card], after)

    if laid + 1 < minimum:
        for play in options:
            if stuck(play):
                return play
    return max(options, key=lambda p: jump(p.pile, tops[p.pile], p.card))


def tops_of(state: the_game.State) -> dict[str, int]:
    return {pile: the_game.top(state, pile) for pile in the_game.PILES}


def best_play(state: the_game.State, player: int) -> Play:
    """The smallest jump ``player`` can make in ``state`` (the engine's view, for tests that read the saved game)."""
    play = smallest_jump(the_game.hand(state, player), tops_of(state))
    assert play is not None, "the seed gave a stuck player"
    return play


# ---- No Thanks!'s player ---------------------------------------------------------------------------------------------


def no_thanks_choice(card: int, on_card: int, chips: int, cards: Iterable[int], *, last: bool) -> str:
    """The simple No Thanks! player: "take" low cards, cards with many chips on them, neighbours of their cards, or
    when broke; never the last card without a chip on it (so that the final take changes a chip count). Otherwise
    "pass"."""
    mine = set(cards)
    if chips == 0:
        return "take"
    if last and on_card == 0:
        return "pass"
    if card <= 9 or on_card * 3 >= card:
        return "take"
    if (card - 1 in mine or card + 1 in mine) and on_card >= 2:
        return "take"
    return "pass"


# ---- what the bot committed ------------------------------------------------------------------------------------------


class SavedGames(Protocol):
    """Where a test's bot keeps its games: ``tests.e2e.conftest.World`` is one."""

    @property
    def database_path(self) -> Path: ...

    @property
    def channel(self) -> Channel: ...


def game_seed(bot_seed: int, newgames: int = 1) -> int:
    """The seed of the ``newgames``-th game opened by a bot made with ``seed=bot_seed`` (``World.bot``)."""
    seeds = random.Random(bot_seed)
    for _ in range(newgames - 1):
        seeds.getrandbits(52)
    return seeds.getrandbits(52)


NEWEST_GAME = (
    "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS logged FROM games g "
    "WHERE channel_id = ? ORDER BY id DESC LIMIT 1"
)


def saved_row(world: SavedGames, channel: Channel | None = None) -> sqlite3.Row | None:
    """The channel's newest game row as committed, with ``logged``, the count of its logged moves; nothing is decoded
    (the row may be damaged on purpose). None before the first game."""
    return _read_saved(world, channel)[0]


def saved_game(world: SavedGames, channel: Channel | None = None) -> tuple[sqlite3.Row, Any] | None:
    """The channel's newest game as committed: its row, and (once dealt) the state its move log replays to."""
    row, logged = _read_saved(world, channel)
    if row is None:
        return None
    if row["status"] == "lobby" or row["started_at"] is None:
        return row, None
    game = GAMES[row["kind"]]
    setup = Setup(
        tuple(json.loads(row["players"])), row["seed"], frozenset(json.loads(row["variants"])), row["rules_version"]
    )
    return row, replay(game, setup, decode_moves(game, [(p, json.loads(a)) for p, a in logged]))


def _read_saved(world: SavedGames, channel: Channel | None) -> tuple[sqlite3.Row | None, list[Any]]:
    """The newest game row of the channel and its move log, read in one transaction."""
    if not world.database_path.exists():
        return None, []
    with closing(sqlite3.connect(world.database_path, isolation_level=None)) as db:
        db.row_factory = sqlite3.Row
        db.execute("BEGIN")
        row: sqlite3.Row | None = db.execute(NEWEST_GAME, ((channel or world.channel).id,)).fetchone()
        logged = (
            []
            if row is None
            else db.execute("SELECT player, action FROM moves WHERE game_id = ? ORDER BY seq", (row["id"],)).fetchall()
        )
        db.execute("COMMIT")
    return row, logged


def saved_state(world: SavedGames, channel: Channel | None = None) -> Any:
    """The state the channel's newest, dealt game replays to."""
    saved = saved_game(world, channel)
    assert saved is not None, "no game"
    assert saved[1] is not None, "no dealt game"
    return saved[1]
