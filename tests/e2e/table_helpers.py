"""Helpers for the table tests (issues 11 and 12): drive games by command or by the hand panel alone, and measure
what the channel, the DMs and the players' fingers went through.

What is measured, all from the fake's records:

- a *new message* is a public message of the bot created in the channel (edits are not new messages);
- its *lines* are what the eye reads when it appears: the lines of its content, the embed's title, description and
  footer, and its fields, inline fields side by side as Discord lays them out (up to three in a row: one line of
  names, then as many lines as the longest value); ``raw_lines`` counts every field name and value line instead;
- a *ping* is a user that a new message notified (``Message.pinged``: its mentions that ``allowed_mentions`` let
  through; edits and ephemeral messages notify nobody);
- a *DM* is a new message in a player's DM channel;
- a *click* is a component interaction the test made.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine import no_thanks, the_game
from engine.ai.the_game_guard import worth_asking
from engine.the_game import Play
from tests.e2e.conftest import World
from tests.fake_discord import InteractionRecord, Member, Message, MessageVersion
from tests.players import answer, expected_board, public_messages, read_board, saved_state

# ---- counting --------------------------------------------------------------------------------------------------------


def _text_lines(text: str | None) -> int:
    return len(text.splitlines()) if text else 0


def lines_of(version: Message | MessageVersion, *, raw: bool = False) -> int:
    """The lines a reader sees in a message (or one version of it); see the module's docstring."""
    count = _text_lines(version.content)
    for embed in version.embeds:
        count += _text_lines(embed.get("title")) + _text_lines(embed.get("description"))
        count += _text_lines((embed.get("footer") or {}).get("text"))
        row: list[dict[str, Any]] = []
        for item in [*embed.get("fields", []), None]:
            inline = item is not None and item.get("inline") and not raw
            if inline and len(row) < 3:
                row.append(item)
                continue
            if row:
                count += 1 + max(_text_lines(f["value"]) for f in row)
                row = []
            if item is not None:
                if inline:
                    row.append(item)
                else:
                    count += _text_lines(item["name"]) + _text_lines(item["value"])
    return count


def first_version(message: Message) -> MessageVersion:
    return message.history[0]


# What stays under an end screen: its Rematch (while it is the channel's newest) and its Replay.
END_SCREEN = ["Rematch", "Replay"]


def live_buttons(message: Message) -> list[str]:
    """The labels of the enabled buttons under a message."""
    return [str(b.get("label")) for b in message.buttons if not b.get("disabled")]


@dataclass
class Meter:
    """Everything new since the meter was made: channel messages, their lines and pings, DMs, clicks."""

    world: World
    members: list[Member]

    def __post_init__(self) -> None:
        fake = self.world.fake
        self.seen = {m.id for m in fake.channel_messages(self.world.channel)}
        self.dms_before = {m.id: len(fake.dms(m)) for m in self.members}
        self.interactions_before = len(fake.interactions)

    def new_messages(self) -> list[Message]:
        return [
            m
            for m in public_messages(self.world.fake, self.world.channel)
            if m.id not in self.seen and m.author.id == self.world.fake.bot.id
        ]

    def lines(self, *, raw: bool = False) -> int:
        return sum(lines_of(first_version(m), raw=raw) for m in self.new_messages())

    def rows(self, *, raw: bool = False) -> int:
        """The lines of the new messages as they stand now (a superseded board has shrunk to its line of the log)."""
        return sum(lines_of(m, raw=raw) for m in self.new_messages())

    def pings(self) -> Counter[int]:
        return Counter(user.id for m in self.new_messages() for user in m.pinged)

    def new_dms(self) -> dict[int, int]:
        fake = self.world.fake
        return {m.id: len(fake.dms(m)) - self.dms_before[m.id] for m in self.members}

    def interactions(self) -> list[InteractionRecord]:
        return self.world.fake.interactions[self.interactions_before :]

    def clicks(self) -> int:
        return sum(1 for rec in self.interactions() if rec.custom_id is not None)

    def actor_of(self, message: Message) -> int | None:
        """The user whose interaction created ``message`` (None for a message the bot sent on its own)."""
        for rec in self.world.fake.interactions:
            if rec.id == message.interaction_id:
                return rec.user.id
        return None


def game_buttons(message: Message) -> list[str]:
    """The buttons under a message that act on a running game or lobby (a finished game's Rematch and Replay left
    out)."""
    return [label for label in live_buttons(message) if label not in END_SCREEN]


def assert_only_newest_board_is_live(world: World, board: Message) -> None:
    """Among the bot's public messages in the channel, only ``board`` has live game buttons (older games' final
    boards keep their Replay, and the newest its Rematch)."""
    live = [m for m in world.fake.bot_messages(world.channel) if game_buttons(m)]
    assert live in ([board], []), [(m.id, m.content[:40], live_buttons(m)) for m in live]
    assert all(
        live_buttons(m) in (END_SCREEN, ["Replay"])
        for m in world.fake.bot_messages(world.channel)
        if m.buttons and m not in live
    )


# ---- checking the boards against the saved game ---------------------------------------------------------------------


def is_nudge(world: World, message: Message) -> bool:
    """The short message that pings the player to move when no new board does (``table.nudges``)."""
    return message.author.id == world.fake.bot.id and not message.embeds and message.content.startswith("🔔 ")


def newest_board(world: World, title: str = "The Game") -> Message:
    """The newest public message of the bot in the channel, which must be a board of ``title`` (a nudge below it,
    the short ping of the player to move, left out)."""
    newest = [m for m in public_messages(world.fake, world.channel) if not is_nudge(world, m)][-1]
    assert newest.author.id == world.fake.bot.id, newest
    assert newest.embeds, newest
    assert newest.embeds[0]["title"] == title, newest
    return newest


def check_the_game_board(world: World) -> Message:
    """The newest board shows the position the committed log replays to; only it has live buttons."""
    board = newest_board(world)
    state = saved_state(world)
    assert read_board(board) == expected_board(state)
    assert_only_newest_board_is_live(world, board)
    if the_game.is_over(state):
        assert live_buttons(board) == END_SCREEN
    else:
        assert live_buttons(board)[0] == "My hand"
    return board


async def settled(world: World, check: Any) -> Message:
    """``check(world)`` once it passes: the bot edits a board after answering, so give it a moment (the newest board
    must come to show the committed position, or the check's assertion is raised)."""

    def passes() -> bool:
        try:
            check(world)
        except AssertionError:
            return False
        return True

    with contextlib.suppress(TimeoutError):
        await world.fake.wait_for(passes, 3, what="the board to show the saved game")
    board: Message = check(world)
    return board


async def the_game_board(world: World) -> Message:
    return await settled(world, check_the_game_board)


async def no_thanks_board(world: World) -> Message:
    return await settled(world, check_no_thanks_board)


def check_no_thanks_board(world: World) -> Message:
    board = newest_board(world, "No Thanks!")
    state: no_thanks.State = saved_state(world)
    embed = board.embeds[0]
    view = no_thanks.public_view(state)
    if view.face_up_card is None:
        assert embed["description"] == "No cards left."
    else:
        chips = view.chips_on_card
        assert embed["description"] == (
            f"Face-up card: {view.face_up_card} ({chips} {'chip' if chips == 1 else 'chips'} on it)"
        )
    fields = {item["name"]: item["value"] for item in embed["fields"]}
    assert fields["Draw pile"] == f"{view.cards_left} {'card' if view.cards_left == 1 else 'cards'} face down"
    seats = fields["Players (points without chips)"].splitlines()
    assert [int(re.match(r"<@(\d+)>", line)[1]) for line in seats] == [p.player for p in view.players]  # type: ignore[index]
    for line, seat in zip(seats, view.players, strict=True):
        assert f"= {seat.points} points" in line
        assert line.endswith(" ← to move") == (seat.player == view.turn)
    assert_only_newest_board_is_live(world, board)
    if no_thanks.is_over(state):
        assert live_buttons(board) == END_SCREEN
    else:
        assert live_buttons(board)[:3] == ["Take", "No thanks!", "My cards and chips"]
    return board


# ---- opening a game --------------------------------------------------------------------------------------------------


async def open_game(world: World, members: list[Member], game: str = "the_game", **options: bool) -> InteractionRecord:
    """The first member opens a lobby, the others join by command, the host starts by command."""
    fake = world.fake
    host, *others = members
    opened = await fake.invoke("newgame", user=host, channel=world.channel, options={"game": game, **options})
    assert not answer(opened).ephemeral, answer(opened).content
    for member in others:
        joined = await fake.invoke("join", user=member, channel=world.channel)
        assert answer(joined).ephemeral, answer(joined).content
    started = await fake.invoke("start", user=host, channel=world.channel)
    assert not answer(started).ephemeral, answer(started).content
    # The first DMs go out in the background after the answer: wait for them, not just for a quiet moment.
    await fake.wait_for(lambda: all(fake.dms(member) for member in members), what="every player's first DM")
    await fake.wait_idle()
    return started


# ---- the hand panel --------------------------------------------------------------------------------------------------


def panel_button(panel: Message, verb: str, a: object = "", b: object = "") -> dict[str, Any]:
    """The panel's button ``tg:<game>:<verb>:<a>:<b>``."""
    for button in panel.buttons:
        parts = str(button.get("custom_id", "")).split(":")
        if parts[0] == "tg" and parts[2:] == [verb, str(a), str(b)]:
            return button
    raise AssertionError(f"no {verb}:{a}:{b} button on {panel!r}: {[x.get('custom_id') for x in panel.buttons]}")


async def click_panel(world: World, panel: Message, user: Member, verb: str, a: object = "", b: object = "") -> Message:
    """Click a panel button; the panel must be answered by redrawing itself in place (a component UPDATE)."""
    button = panel_button(panel, verb, a, b)
    rec = await world.fake.click(panel, button["custom_id"], user=user)
    response = answer(rec)
    assert response.type == 7, (response.type, response.content)
    assert response.message is panel
    return panel


def pile_label(pile: the_game.PileView, card: int, signals: tuple[the_game.Mark, ...] = ()) -> str:
    """The label of ``pile``'s button once ``card`` is chosen: the jump it makes, or the backwards trick, then the
    signals on that pile."""
    arrow = "↑" if pile.ascending else "↓"
    if not the_game.is_legal(pile.name, pile.top, card):
        label = f"{pile.name} {arrow} {pile.top}"
    elif the_game.is_backwards_trick(pile.name, pile.top, card):
        label = f"{pile.name} {arrow} {pile.top} · backwards trick!"
    else:
        label = f"{pile.name} {arrow} {pile.top} → {card} ({card - pile.top:+d})"
    icons = {"dont_lay": "🛑", "trick": "🔁", "small_steps": "🐢"}
    marks = [icons[m.kind] for m in signals if m.pile == pile.name]
    return " ".join([label, *marks])


def asks_first(state: the_game.State, player: int, card: int, pile: str) -> bool:
    """Whether laying ``card`` on ``pile`` takes a confirming click: where the computer player's reckoning finds it
    clearly worse than the hand's best lay (``engine.ai.the_game_guard``); never for a backwards trick."""
    top = the_game.top(state, pile)
    if not the_game.is_legal(pile, top, card) or the_game.is_backwards_trick(pile, top, card):
        return False
    return worth_asking(the_game.observation(state, player), Play(card, pile))


async def lay_by_panel(world: World, panel: Message, user: Member, card: int, pile: str) -> int:
    """Lay ``card`` on ``pile`` from the open panel: the card, the pile, and "Lay it anyway" when the panel asks.
    Checks each pile button's label, and returns the clicks it took."""
    state = saved_state(world)
    view = the_game.public_view(state)
    await click_panel(world, panel, user, "card", card)
    assert f"Where does {card} go?" in panel.content, panel.content
    for shown in view.piles:
        button = panel_button(panel, "pile", card, shown.name)
        assert button["label"] == pile_label(shown, card, view.signals)
        assert bool(button.get("disabled")) == (not the_game.is_legal(shown.name, shown.top, card))
    await click_panel(world, panel, user, "pile", card, pile)
    if not asks_first(state, user.id, card, pile):
        return 2
    assert f"Lay {card} on {pile} anyway?" in panel.content, panel.content
    assert live_buttons(panel) == ["Lay it anyway", "Back"]
    assert saved_state(world) == state  # nothing laid yet
    await click_panel(world, panel, user, "lay", card, pile)
    return 3
