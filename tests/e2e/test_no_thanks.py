"""No Thanks! end to end: the real bot, on a database file, against the fake Discord.

Every game here is deterministic (``world.bot(seed=N)`` fixes the game seeds). The test keeps its own copy of the
game, built with ``engine.no_thanks`` from the players and the seed the bot stored, and applies the same actions to
it; after every accepted action it checks the public answer, the board, the DMs and the saved state against that
copy. The scores at the end are recomputed from what the players could see: the cards on the final board and the
chip counts in their own DMs.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from bot import Bot
from engine import no_thanks
from engine.no_thanks import NoThanks, State, Take
from tests.e2e.conftest import World
from tests.fake_discord import Channel, FakeDiscord, InteractionRecord, Member, Message
from tests.players import (
    CHIPS_LINE,
    CLOSED_DMS,
    FACE_UP,
    chips_in,
    face_up_in,
    game_seed,
    is_board,
    latest_chips,
    no_thanks_choice,
    private,
    public,
    public_messages,
    saved_game,
)

LABELS = {"take": "Take", "pass": "No thanks!"}
PANEL = "My cards and chips"
COMMANDS = {"take": "take", "pass": "nothanks", "leave": "leave"}
ACTIONS: dict[str, no_thanks.Action] = {"take": Take(), "pass": NoThanks(), "leave": no_thanks.Leave()}

# Every number a public message may show while a game runs, in its context: anything else could be a chip count.
PUBLIC_NUMBERS = [
    re.compile(pattern)
    for pattern in (
        r"<[@#]!?\d+>",  # mentions
        r"<t:\d+(?::[tTdDfFR])?>",  # Discord timestamps (the turn clock)
        r"\b\d+ (?:seconds?|minutes?|hours?)\b",  # the turn time, in the lobby
        r"Face-up card: \d+ \(\d+ chips? on it\)",  # the chips on the face-up card are public
        r"took \d+ with \d+ chips?",
        r"one chip on \d+",
        r"\[\d+(?:-\d+)?\]",  # taken cards, grouped into runs
        r"= \d+ points?",  # card points, chips not counted
        r"\d+ cards? face down",
        r"Players \(\d+/\d+\)",  # lobby
        r"\d+-\d+ players",  # lobby
    )
]
OPEN_CHIPS_NUMBER = re.compile(r", \d+ chips?")
CARD_PATTERNS = [
    re.compile(r"Face-up card: (\d+)"),
    re.compile(r"took (\d+)"),
    re.compile(r"one chip on (\d+)"),
    re.compile(r"\[(\d+)(?:-(\d+))?\]"),
]


# ---- reading messages --------------------------------------------------------------------------------------------


def texts(content: str, embeds: Iterable[dict[str, Any]]) -> list[str]:
    """The content and every text of every embed."""
    found = [content]
    for embed in embeds:
        found += [embed.get("title", ""), embed.get("description", "")]
        found += [f"{item['name']}\n{item['value']}" for item in embed.get("fields", [])]
        found += [embed.get("footer", {}).get("text", ""), embed.get("author", {}).get("name", "")]
    return [text for text in found if text]


def all_text(message: Message) -> str:
    return "\n".join(texts(message.content, message.embeds))


def player_lines(message: Message) -> dict[int, str]:
    """The board's line of each player, by player id."""
    assert message.embed is not None, message
    players = next(item for item in message.embed["fields"] if item["name"].startswith("Players"))
    lines = {}
    for line in players["value"].splitlines():
        match = re.match(r"<@!?(\d+)>", line)
        assert match, line
        lines[int(match[1])] = line
    return lines


def cards_in(text: str) -> list[int]:
    """The cards written as runs ``[3-5] [10]`` in ``text``."""
    cards: list[int] = []
    for low, high in re.findall(r"\[(\d+)(?:-(\d+))?\]", text):
        cards += range(int(low), int(high or low) + 1)
    return cards


def unexplained_numbers(text: str, *, open_chips: bool) -> list[str]:
    for pattern in PUBLIC_NUMBERS:
        text = pattern.sub(" ", text)
    if open_chips:
        text = OPEN_CHIPS_NUMBER.sub(" ", text)
    return re.findall(r"\d+", text)


def shown_cards(text: str) -> set[int]:
    cards: set[int] = set()
    for pattern in CARD_PATTERNS:
        for match in pattern.finditer(text):
            numbers = [int(n) for n in match.groups() if n]
            cards.update(range(numbers[0], numbers[-1] + 1))
    return cards


def chip_values(messages: Iterable[Message]) -> list[int]:
    """The ``Your chips:`` values ``messages`` showed, every version of an edited DM included, repeats merged."""
    values: list[int] = []
    for message in messages:
        for version in message.history:
            for value in (int(v) for v in CHIPS_LINE.findall(version.content)):
                if not values or values[-1] != value:
                    values.append(value)
    return values


def refusal(record: InteractionRecord, reason: str) -> str:
    response = record.response
    assert response is not None
    assert response.ephemeral, f"expected a private refusal, got a public answer: {response.content!r}"
    assert reason.lower() in response.content.lower(), response.content
    return response.content


# ---- the test's side of a game -----------------------------------------------------------------------------------


@dataclass
class Table:
    """One No Thanks! game as the test sees it, with the engine's copy of it in ``state``."""

    world: World
    bot: Bot
    members: list[Member]
    state: State
    closed: set[int] = field(default_factory=set)
    #: Per player, the chip counts their DMs must show, in order (one entry at the start and one per change).
    chips_history: dict[int, list[int]] = field(default_factory=dict)
    #: Per player, how many DMs they had before this game started.
    earlier_dms: dict[int, int] = field(default_factory=dict)
    #: The id of the game's first board.
    start_id: int = 0

    def game_dms(self, member: Member) -> list[Message]:
        return self.fake.dms(member)[self.earlier_dms.get(member.id, 0) :]

    @property
    def fake(self) -> FakeDiscord:
        return self.world.fake

    @property
    def channel(self) -> Channel:
        return self.world.channel

    def member(self, player: int) -> Member:
        return next(member for member in self.members if member.id == player)

    def to_move(self) -> Member:
        player = no_thanks.current_player(self.state)
        assert player is not None
        return self.member(player)

    def others(self) -> list[Member]:
        """The players still in the game who are not to move."""
        mover = no_thanks.current_player(self.state)
        gone = {player for player, left in zip(self.state.players, self.state.left, strict=True) if left}
        return [member for member in self.members if member.id != mover and member.id not in gone]

    async def idle(self) -> None:
        """Wait until the bot finished the action in the channel (answer, then the board's edit, the DMs and notices
        in the background: on a busy machine a little later than its last request; the checks after this say what
        is wrong)."""
        await self.fake.wait_idle()
        with suppress(TimeoutError):
            await self.fake.wait_for(self.shows_current, timeout=3, what="the board and the DMs to catch up")

    def stored_board(self) -> int | None:
        saved = saved_game(self.world)
        return None if saved is None else saved[0]["message_id"]

    def shows_current(self) -> bool:
        """The newest board and everybody's DMs show the engine's position, and older boards lost their buttons (the
        bot edits the old board after answering with the new one)."""
        try:
            self.check_board(self.newest_board())
            self.check_private()
        except AssertionError:
            return False
        return True

    def newest_board(self, *, before: int | None = None) -> Message:
        """The newest board in the channel (the one the players look at), or the newest posted ``before`` that
        snowflake."""
        for message in reversed(public_messages(self.fake, self.channel)):
            if before is not None and message.id > before:
                continue
            if message.author.id != self.fake.bot.id:
                continue
            # Before an action: a board that has shrunk to its line of the log since still counts.
            shown = message if before is None else message.history[0]
            if (shown.embeds or [{}])[0].get("title") == "No Thanks!" and CLOSED_DMS not in shown.content:
                return message
        raise AssertionError("no board in the channel")

    def snapshot(self) -> tuple[int, int, dict[int, int]]:
        """What a refused action must not change: the channel's messages (and their edits), everybody's DMs."""
        messages = public_messages(self.fake, self.channel)
        dms = {m.id: len(self.fake.dms(m)) for m in [*self.members, self.world.spectator]}
        return len(messages), sum(len(m.edits) for m in messages), dms

    async def assert_unchanged(self, snapshot: tuple[int, int, dict[int, int]]) -> None:
        assert self.snapshot() == snapshot, "a refused action left or edited a public message, or sent a DM"
        await self.check_saved()

    async def refused(self, attempt: Awaitable[InteractionRecord], reason: str) -> str:
        """Run ``attempt`` (an invoke or a click), expect a private refusal naming ``reason``, and no change."""
        before = self.snapshot()
        text = refusal(await attempt, reason)
        await self.idle()
        await self.assert_unchanged(before)
        return text

    # ---- acting --------------------------------------------------------------------------------------------------

    def attempt(
        self, member: Member, verb: str, *, via: str = "command", board: Message | None = None
    ) -> Awaitable[InteractionRecord]:
        """``via``: "command", "button" (on ``board``, the newest by default), or "panel" (``board`` is then the
        player's private panel)."""
        if via == "command":
            return self.fake.invoke(COMMANDS[verb], user=member, channel=self.channel)
        return self.fake.click(board or self.newest_board(), label=LABELS[verb], user=member)

    async def panel(self, member: Member, board: Message | None = None) -> Message:
        """``member``'s private panel, opened from the board's button."""
        record = await self.fake.click(board or self.newest_board(), label=PANEL, user=member)
        private(record)
        assert record.original is not None
        assert record.original.visible_to == member.id
        return record.original

    async def stale_panel(self, member: Member) -> Message:
        """``member``'s panel, left open past its token's 15 minutes: the bot can no longer bring it up to date, so
        it goes on showing the position it was opened at."""
        record = await self.fake.click(self.newest_board(), label=PANEL, user=member)
        private(record)
        self.fake.expire_interaction(record)
        assert record.original is not None
        return record.original

    async def act(self, member: Member, verb: str, *, via: str = "command", board: Message | None = None) -> Message:
        """``member`` takes or passes (by command, a board's button or their private panel); the bot must accept
        it. Returns the board that shows the result."""
        if via == "panel":
            board = await self.panel(member, board)
        record = await self.attempt(member, verb, via=via, board=board)
        return await self.accepted(record, member, verb)

    async def accepted(self, record: InteractionRecord, member: Member, verb: str, *, newest: bool = True) -> Message:
        """Check the bot's answer to an accepted action against the engine; returns the board showing it.
        ``newest``: no other action followed (else the board's buttons may have moved on already)."""
        response = record.response
        assert response is not None
        assert not response.ephemeral or CHIPS_LINE.search(response.content), f"{member.name} {verb} was refused"
        before = self.state
        old_board = self.newest_board(before=record.id)
        self.state = no_thanks.apply(before, member.id, ACTIONS[verb])
        for seat, player in enumerate(self.state.players):
            if self.state.chips[seat] != before.chips[seat] and not self.state.left[seat]:
                self.chips_history[player].append(self.state.chips[seat])
        await self.idle()
        clicked = record.message  # the message whose button was pressed (None for a command)
        on_panel = clicked is not None and clicked.ephemeral
        if no_thanks.is_over(self.state) or verb == "take":
            # The table moved on: a new board below, answering the action; the clicked board (or the panel) is
            # brought up to date in place, the old board keeps what happened but loses its buttons.
            if clicked is None:
                board = public(record)
            else:
                assert response.type == 7, response
                (board,) = record.followups
                assert not board.ephemeral
            if newest:
                assert not any(b.get("label") in LABELS.values() for b in old_board.buttons), old_board
            text = board.content
        else:
            # The board is edited in place; a click on it is answered by that very edit, a command or a panel's
            # click by the player's private panel, opening with what they did.
            board = old_board
            if clicked is not None and not on_panel:
                assert response.type == 7, response
                assert clicked is board
                text = board.content
            else:
                text = private(record)
                assert CHIPS_LINE.search(text), text
                assert response.message is not None
                assert response.message.visible_to == member.id
            posted = [
                m for m in public_messages(self.fake, self.channel) if m.id > record.id and is_board(m, "No Thanks!")
            ]
            assert not posted, "an edit in place posted a new board"
        if on_panel:
            assert response.type == 7  # the panel redraws itself
            assert CHIPS_LINE.search(response.content), response.content
        if newest:
            assert board is self.newest_board()
            saved = saved_game(self.world)
            assert saved is not None
            if saved[0]["status"] == "running":
                # Stored once Discord returned the new board's id, so possibly after the board's last request: on a
                # loaded machine the quiet that ``idle`` waits for can come first.
                await self.fake.wait_for(lambda: self.stored_board() == board.id, timeout=3, what="the board's id")
        self.check_answer(text, board, before, member, verb, record)
        self.check_board(board, live=newest)
        self.check_private()
        await self.check_saved()
        return board

    async def play_turn(self, number: int) -> Message:
        """One move by the simple player, chosen from what is public and from the mover's own DMs."""
        board = self.newest_board()
        if number % 9 == 4:  # now and then, post the board again and use the new one's buttons
            # Asked by someone new each time: one member's /board again within seconds would wait for its cooldown.
            watcher = self.fake.add_member(self.world.guild, f"watcher-{number}")
            record = await self.fake.invoke("board", user=watcher, channel=self.channel)
            board = public(record)
            await self.idle()
            self.check_board(board)  # the board posted again is the live one
        shown = face_up_in(board.content)
        assert shown, board.content
        card, on_card = shown
        mover = next(player for player, line in player_lines(board).items() if "to move" in line)
        assert mover == no_thanks.current_player(self.state)
        member = self.member(mover)
        if member.id in self.closed:  # no DMs: they look with /hand
            text = private(await self.fake.invoke("hand", user=member, channel=self.channel))
            chips_shown = chips_in(text)
            assert chips_shown is not None, text
            chips = chips_shown
        else:
            chips = latest_chips(self.fake, member)
        last = "0 cards face down" in all_text(board)
        verb = no_thanks_choice(card, on_card, chips, cards_in(player_lines(board)[mover]), last=last)
        via = ("command", "button", "panel")[number % 3]
        return await self.act(member, verb, via=via, board=board)

    async def play_out(self, *, check_secrets: bool = False) -> Message:
        """Play with the simple player until the last card is taken; returns the game-over message."""
        number = 0
        answer: Message | None = None
        while not no_thanks.is_over(self.state):
            answer = await self.play_turn(number)
            number += 1
            if check_secrets:
                self.check_secrets()
            assert number < 1000, "the game does not end"
        assert answer is not None
        return answer

    # ---- checks --------------------------------------------------------------------------------------------------

    def check_answer(
        self, text: str, board: Message, before: State, member: Member, verb: str, record: InteractionRecord
    ) -> None:
        """``text`` (the new board's, the edited board's or the mover's panel's) says what happened."""
        assert member.mention in text
        if verb == "take":
            chips = before.chips_on_card
            assert f"took {before.face_up} with {chips} chip{'' if chips == 1 else 's'}" in text, text
        elif verb == "pass":
            assert f"No thanks! (one chip on {before.face_up})" in text, text
        else:
            assert "left" in text, text
        # The board shows what happened last (after what the turn before did, when it was edited in place).
        assert text.splitlines()[0] in board.content.splitlines()[:2], board.content
        upcoming = no_thanks.current_player(self.state)
        # Only a new board pings, and only the player whose turn begins (never the one who acted).
        for message in public_messages(self.fake, self.channel):
            if message.id > record.id:
                assert {user.id for user in message.pinged} <= {upcoming} - {member.id}, message
        if upcoming is None:
            assert "Game over" in text
            return
        assert face_up_in(text) == (self.state.face_up, self.state.chips_on_card), text
        if upcoming != no_thanks.current_player(before):
            # The turn changed hands: the next player is named.
            assert f"<@{upcoming}>" in text
        elif verb == "leave":  # somebody else left: nobody is told it's their turn again
            assert "your turn" not in text, text

    def check_board(self, message: Message, *, live: bool = True) -> None:
        """The board in ``message`` shows exactly the engine's public view; if it is the ``live`` board, only it
        has the game's buttons."""
        state = self.state
        embed = message.embed
        assert embed is not None
        if state.face_up is not None:
            assert face_up_in(embed["description"]) == (state.face_up, state.chips_on_card), embed
        if not no_thanks.is_over(state):
            match = FACE_UP.search(message.content)
            assert match, message.content
            assert int(match[1]) == state.face_up, message.content
        left = len(state.draw_pile)
        assert f"{left} {'card' if left == 1 else 'cards'} face down" in all_text(message)
        lines = player_lines(message)
        seated = [(seat, player) for seat, player in enumerate(state.players) if not state.left[seat]]
        assert list(lines) == [player for _, player in seated]
        for seat, player in seated:
            line = lines[player]
            assert cards_in(line) == list(state.hands[seat]), line
            assert f"= {no_thanks.card_points(state.hands[seat])} points" in line, line
            shown = re.search(r", (\d+) chips?", line)
            if state.open_chips:
                assert shown, line
                assert int(shown[1]) == state.chips[seat], line
            else:
                assert shown is None, line
            assert ("to move" in line) == (player == no_thanks.current_player(state)), line
        labels = [button.get("label") for button in message.buttons]
        if not live:
            return
        if no_thanks.is_over(state):
            assert labels == ["Rematch", "Replay"], labels  # a finished game's board keeps only the end's buttons
        else:
            take = message.component(label="Take")["custom_id"]
            assert take.startswith("no_thanks:take:"), take
            assert take.endswith(f":{state.move_count}"), take
            assert message.component(label="No thanks!")["custom_id"].endswith(f":{state.move_count}")
            assert PANEL in labels
        for other in public_messages(self.fake, self.channel):
            if other.id >= self.start_id and other is not message and CLOSED_DMS not in other.content:
                assert not other.buttons, f"an old message has live buttons: {other!r}"

    def check_private(self) -> None:
        """Every DMed chip count matches the engine's, and each change was DMed."""
        for member in self.members:
            if member.id in self.closed:
                assert self.game_dms(member) == []
            else:
                assert chip_values(self.game_dms(member)) == self.chips_history[member.id], member.name

    async def check_saved(self) -> None:
        saved = saved_game(self.world)
        assert saved is not None
        row, state = saved
        assert state == self.state
        assert row["status"] == {"playing": "running"}.get(self.state.status, self.state.status)

    def check_secrets(self) -> None:
        """No public message shows a chip count (unless open chips), and no message at all a removed card."""
        removed = set(self.state.removed)
        for message in public_messages(self.fake, self.channel):
            if message.author.id != self.fake.bot.id:
                continue
            for version in message.history:
                text = "\n".join(texts(version.content, version.embeds))
                if "Game over" in text:
                    continue
                assert unexplained_numbers(text, open_chips=self.state.open_chips) == [], text
                assert not shown_cards(text) & removed, text
        for message in self.fake.ephemeral_messages():
            assert not shown_cards(message.content) & removed, message.content
        for member in self.members:
            for message in self.fake.dms(member):
                assert not shown_cards(message.content) & removed, message.content

    def check_game_over(self, message: Message) -> None:
        """The game-over message against a scoring recomputed from public things and each player's own DMs."""
        assert "Game over" in message.content
        text = message.content[message.content.index("Game over") :]  # what follows the last move's sentence
        lines = player_lines(message)  # the final board
        cards = {player: cards_in(lines[player]) for player in self.state.players}
        assert sorted(card for hand in cards.values() for card in hand) == sorted(
            set(no_thanks.CARDS) - set(self.state.removed)
        )
        chips = {m.id: latest_chips(self.fake, m) for m in self.members}
        totals = {player: no_thanks.card_points(cards[player]) - chips[player] for player in self.state.players}
        for member in self.members:
            line = next(line for line in text.splitlines() if line.startswith(member.mention))
            points = no_thanks.card_points(cards[member.id])
            assert f"{points} points" in line, line
            assert f"{chips[member.id]} chip" in line, line
            assert cards_in(line) == cards[member.id], line
            total = re.search(r"(-?\d+)\**\s*$", line)
            assert total, line
            assert int(total[1]) == totals[member.id], line
        best = min(totals.values())
        tied = [player for player in self.state.players if totals[player] == best]
        winner = max(tied, key=lambda player: max(cards[player], default=0))
        winner_line = next(line for line in text.splitlines() if "Winner" in line)
        assert f"<@{winner}>" in winner_line
        assert [p for p in self.state.players if f"<@{p}>" in winner_line] == [winner]
        assert ("tie" in text.lower()) == (len(tied) > 1), text
        removed_line = next(line for line in text.splitlines() if "removed" in line)
        revealed = [int(n) for n in re.findall(r"\d+", removed_line)]
        assert sorted(revealed) == sorted(set(no_thanks.CARDS) - {c for hand in cards.values() for c in hand})
        assert len(revealed) == no_thanks.REMOVED_CARDS
        # The engine's scoring of its own copy agrees with the recomputation from public information.
        assert {line.player: line.total for line in no_thanks.scores(self.state)} == totals
        assert no_thanks.winner(self.state) == (winner, len(tied) > 1)


async def open_game(
    world: World,
    bot: Bot,
    count: int,
    *,
    open_chips: bool = False,
    closed: Iterable[Member] = (),
) -> Table:
    """Open a lobby (host: the first player), let ``count - 1`` more join (buttons and /join), start it."""
    fake = world.fake
    members = world.players[:count]
    closed_ids = {member.id for member in closed}
    for member in closed:
        fake.close_dms(member)
    options: dict[str, Any] = {"game": "no_thanks"}
    if open_chips:
        options["open_chips"] = True
    lobby = public(await fake.invoke("newgame", user=members[0], channel=world.channel, options=options))
    for number, member in enumerate(members[1:]):
        # The one lobby message is kept current: a click edits it, /join too and answers privately.
        if number % 2:
            record = await fake.invoke("join", user=member, channel=world.channel)
            assert private(record) == f"{member.mention} joined. The lobby above is up to date."
        else:
            record = await fake.click(lobby, label="Join", user=member)
            assert record.response is not None
            assert record.response.type == 7
        await fake.wait_idle()
        assert lobby.content == f"{member.mention} joined."
        assert public_messages(fake, world.channel)[-1] is lobby
    earlier_dms = {member.id: len(fake.dms(member)) for member in members}
    record = await fake.invoke("start", user=members[0], channel=world.channel)
    announcement = public(record)
    saved = saved_game(world)
    assert saved is not None
    row, saved_state = saved
    state = no_thanks.new_game([m.id for m in members], seed=row["seed"], open_chips=open_chips)
    assert saved_state == state
    start = no_thanks.starting_chips(count)
    table = Table(
        world, bot, list(members), state, closed_ids, {m.id: [start] for m in members}, earlier_dms, announcement.id
    )
    await table.idle()
    assert lobby.content == "The game has started."
    assert not lobby.buttons
    assert f"Face-up card: {state.face_up} " in announcement.content
    assert table.to_move().mention in announcement.content
    table.check_board(announcement)
    table.check_private()
    return table


async def wait_notice(world: World, member: Member) -> Message:
    """The private notice telling ``member`` their DMs are closed, in an answer to their own action (never in the
    channel): their first /hand brings it if no action of theirs did yet."""
    fake = world.fake

    def notices() -> list[Message]:
        return [m for m in fake.ephemeral_messages(member) if CLOSED_DMS in m.content]

    await fake.wait_idle()
    if not notices():
        await fake.invoke("hand", user=member, channel=world.channel)
    await fake.wait_for(lambda: bool(notices()), what=f"{member.name}'s private notice")
    assert not [m for m in public_messages(fake, world.channel) if CLOSED_DMS in m.content]
    return notices()[0]


# ---- whole games -------------------------------------------------------------------------------------------------

LAST_TAKE_WITH_CHIPS = re.compile(r"took \d+ with [1-9]\d* chips?\.")
TIE_SEED = 68  # bot seed whose first game, played by ``choose`` with three players, ends in a tie
PLAIN_SEED = 2  # bot seed whose first game with seven players has a single lowest score


async def test_three_player_game_to_the_end_keeps_secrets_and_breaks_the_tie(world: World) -> None:
    async with world.bot(seed=TIE_SEED) as bot:
        table = await open_game(world, bot, 3)
        assert table.state.seed == game_seed(TIE_SEED), "game seeds are drawn differently now: pick another TIE_SEED"
        table.check_secrets()
        over = await table.play_out(check_secrets=True)
        table.check_game_over(over)
        assert no_thanks.winner(table.state)[1], "pick another TIE_SEED: this game no longer ends in a tie"
        assert LAST_TAKE_WITH_CHIPS.search(over.content), "the last take should change a chip count (and DM it)"
        assert "unofficial" in over.content
        saved = saved_game(world)
        assert saved is not None
        assert saved[0]["status"] == "finished"
        result = json.loads(saved[0]["result"])
        assert result["winner"] == no_thanks.winner(table.state)[0]
        assert result["tie_break"] is True
        # After the end: only the rematch and the replay under the final board, no game, and /board shows how it
        # ended.
        assert [b.get("label") for b in over.buttons] == ["Rematch", "Replay"]
        refusal(await world.fake.invoke("take", user=world.players[0], channel=world.channel), "no game")
        shown = public(await world.fake.invoke("board", user=world.spectator, channel=world.channel))
        assert shown.embeds == over.embeds
        assert "Winner" in shown.content
        assert [b.get("custom_id") for b in shown.buttons] == [f"rematch:{saved[0]['id']}", f"replay:{saved[0]['id']}"]


async def test_seven_player_game_to_the_end(world: World) -> None:
    async with world.bot(seed=PLAIN_SEED) as bot:
        table = await open_game(world, bot, 7)
        assert table.chips_history[world.players[0].id] == [7]
        over = await table.play_out()
        table.check_game_over(over)
        table.check_secrets()
        assert not no_thanks.winner(table.state)[1], "pick another PLAIN_SEED: this game now ends in a tie"
        assert LAST_TAKE_WITH_CHIPS.search(over.content), "the last take should change a chip count (and DM it)"
        assert "tie" not in over.content.lower()


async def test_open_chips_show_everybodys_chips_on_the_board(world: World) -> None:
    async with world.bot(seed=13) as bot:
        table = await open_game(world, bot, 5, open_chips=True)
        start = public_messages(world.fake, world.channel)[-1]
        assert "shown on the board" in start.content
        assert all(", 11 chips" in line for line in player_lines(start).values())
        over = await table.play_out(check_secrets=True)  # check_board compares every player's chips
        table.check_game_over(over)


# ---- refusals ----------------------------------------------------------------------------------------------------


async def test_refusals_outside_a_running_game(world: World) -> None:
    fake, channel = world.fake, world.channel
    ana, ben = world.players[:2]
    async with world.bot(seed=5):
        for command in ("take", "nothanks", "hand", "board"):
            refusal(await fake.invoke(command, user=ana, channel=channel), "no game")
        record = await fake.invoke("newgame", user=ana, channel=channel, options={"game": "no_thanks", "expert": True})
        refusal(record, "doesn't fit No Thanks!")
        assert public_messages(fake, channel) == []

        await fake.invoke("newgame", user=ana, channel=channel, options={"game": "no_thanks"})
        await fake.invoke("join", user=ben, channel=channel)
        lobby_messages = len(public_messages(fake, channel))
        for command, user in (("nothanks", ana), ("take", ben), ("hand", ana)):
            refusal(await fake.invoke(command, user=user, channel=channel), "hasn't started")
        refusal(await fake.invoke("start", user=ana, channel=channel), "at least 3 players")
        refusal(await fake.invoke("start", user=ben, channel=channel), "Only the host")
        for member in world.players[2:]:
            await fake.invoke("join", user=member, channel=channel)
        refusal(await fake.invoke("join", user=world.spectator, channel=channel), "at most 7 players")
        assert len(public_messages(fake, channel)) == lobby_messages  # the one lobby message, edited
        assert all(fake.dms(member) == [] for member in [*world.players, world.spectator])


async def test_refusals_during_a_game_change_nothing(world: World) -> None:
    fake, channel = world.fake, world.channel
    async with world.bot(seed=6) as bot:
        table = await open_game(world, bot, 4)
        await table.act(table.to_move(), "pass")
        for other in table.others():
            await table.refused(table.attempt(other, "take"), "not your turn")
            await table.refused(table.attempt(other, "pass"), "not your turn")
        for verb in ("take", "pass"):
            await table.refused(table.attempt(world.spectator, verb), "not playing")
        await table.refused(fake.invoke("hand", user=world.spectator, channel=channel), "not playing")
        await table.refused(fake.invoke("leave", user=world.spectator, channel=channel), "aren't in this game")
        # The Game's commands in a No Thanks! channel.
        mover = table.to_move()
        play = fake.invoke("play", user=mover, channel=channel, options={"card": 17, "pile": "A"})
        await table.refused(play, "playing No Thanks!; The Game commands don't work here.")
        await table.refused(
            fake.invoke("endturn", user=mover, channel=channel),
            "playing No Thanks!; The Game commands don't work here.",
        )
        # The lobby's commands while the game runs.
        await table.refused(fake.invoke("newgame", user=mover, channel=channel), "already")
        await table.refused(fake.invoke("start", user=mover, channel=channel), "already started")
        await table.refused(fake.invoke("join", user=world.spectator, channel=channel), "already started")
        # The game goes on.
        await table.act(table.to_move(), "take")


async def test_wrong_players_buttons_are_refused(world: World) -> None:
    fake = world.fake
    async with world.bot(seed=7) as bot:
        table = await open_game(world, bot, 3)
        board = table.newest_board()
        for other in table.others():
            for verb in ("take", "pass"):
                await table.refused(table.attempt(other, verb, via="button", board=board), "not your turn")
        for verb in ("take", "pass"):
            await table.refused(table.attempt(world.spectator, verb, via="button", board=board), "not playing")
        await table.refused(fake.click(board, label="My cards and chips", user=world.spectator), "not playing")
        # The right player's button still works on that very board.
        await table.act(table.to_move(), "pass", via="button", board=board)


async def test_a_player_without_chips_must_take(world: World) -> None:
    async with world.bot(seed=8) as bot:
        table = await open_game(world, bot, 3)
        first = table.to_move()
        passes = 0
        while no_thanks.chips(table.state, first.id) or table.to_move() != first:
            await table.act(table.to_move(), "pass", via="button" if passes % 2 else "command")
            passes += 1
        assert passes == 3 * 11
        assert latest_chips(world.fake, first) == 0
        await table.refused(table.attempt(first, "pass"), "no chips left")
        await table.refused(table.attempt(first, "pass", via="button"), "no chips left")
        card = table.state.face_up
        answer = await table.act(first, "take", via="button")
        assert f"took {card} with 33 chips" in answer.content
        assert latest_chips(world.fake, first) == 33
        table.check_secrets()


async def test_a_stale_board_is_refused(world: World) -> None:
    fake = world.fake
    async with world.bot(seed=9) as bot:
        table = await open_game(world, bot, 3)
        first_board = table.newest_board()
        passer = table.to_move()
        passer_panel = await table.stale_panel(passer)
        await table.act(passer, "pass", via="button", board=first_board)
        # The board was brought up to date in place; the panel the passer opened before still shows the old card.
        assert table.newest_board() is first_board
        mover = table.to_move()
        for verb in ("take", "pass"):
            await table.refused(table.attempt(passer, verb, via="panel", board=passer_panel), "out of date")
        mover_panel = await table.stale_panel(mover)
        board = table.newest_board()
        await table.act(mover, "take", via="button", board=board)
        # The taker moves again, but not from the board they just used (it lost its buttons) nor an older panel.
        assert not board.buttons
        await table.refused(table.attempt(mover, "take", via="panel", board=mover_panel), "out of date")
        await table.act(mover, "pass", via="command")

        # A board of an earlier game in the channel is stale too: /endgame takes its buttons away.
        stale = table.newest_board()
        public(await fake.invoke("endgame", user=world.players[0], channel=world.channel))
        await fake.wait_idle()
        assert not stale.buttons
        new = await open_game(world, bot, 3)
        assert new.state.seed != table.state.seed
        for _ in range(table.state.move_count):
            await new.act(new.to_move(), "pass")
        assert new.state.move_count == table.state.move_count
        await new.act(new.to_move(), "take", via="button")


# ---- concurrency, closed DMs, restarts ---------------------------------------------------------------------------


DEFERRED_UPDATE = 6  # Discord's answer type that acknowledges a click and changes nothing


async def test_concurrent_presses_are_applied_one_at_a_time(world: World) -> None:
    async with world.bot(seed=10) as bot:
        table = await open_game(world, bot, 3)

        async def race(*verbs: str) -> None:
            mover, board = table.to_move(), table.newest_board()
            records = await asyncio.gather(*(table.attempt(mover, verb, via="button", board=board) for verb in verbs))
            winners = [
                (r, v)
                for r, v in zip(records, verbs, strict=True)
                if r.response and not r.response.ephemeral and r.response.type != DEFERRED_UPDATE
            ]
            assert len(winners) == 1, [r.response and r.response.content for r in records]
            await table.accepted(winners[0][0], mover, winners[0][1])
            for record, verb in zip(records, verbs, strict=True):
                if record is winners[0][0]:
                    continue
                if verb == winners[0][1]:
                    # A double click (issue 38): the click that repeats the move just made is not refused.
                    assert record.response is not None
                    assert record.response.type == DEFERRED_UPDATE
                else:
                    refusal(record, "out of date")

        await race("take", "take")  # a double click
        await race("pass", "pass")
        await race("take", "pass")
        await race("pass", "take", "pass", "take", "take")

        # A command and a button of the same player at once: both are fine, one after the other, never interleaved.
        mover, board = table.to_move(), table.newest_board()
        command, click = await asyncio.gather(
            table.attempt(mover, "take"), table.attempt(mover, "take", via="button", board=board)
        )
        accepted = [r for r in (command, click) if r.response and not r.response.ephemeral]
        if len(accepted) == 2:  # the button came first: its board was still current, and the command took the next
            await table.accepted(click, mover, "take", newest=False)
            await table.accepted(command, mover, "take")
        else:  # the command came first: the button's board was out of date
            assert accepted == [command]
            refusal(click, "out of date")
            await table.accepted(command, mover, "take")
        table.check_secrets()


async def test_closed_dms_get_a_notice_without_chips_and_the_game_goes_on(world: World) -> None:
    fake = world.fake
    async with world.bot(seed=12) as bot:
        shy = world.players[1]
        table = await open_game(world, bot, 4, closed=[shy])
        notice = await wait_notice(world, shy)
        assert "/hand" in notice.content
        assert all(fake.dms(member) for member in table.members if member is not shy)
        # Play until the player with closed DMs has paid a chip, and a little longer.
        turns = 0
        while no_thanks.chips(table.state, shy.id) == 11 or turns < 12:
            await table.play_turn(turns)
            turns += 1
            assert turns < 200
        assert not [m for m in public_messages(fake, world.channel) if CLOSED_DMS in m.content]
        notices = [m for m in fake.ephemeral_messages(shy) if CLOSED_DMS in m.content]
        assert len(notices) == 1  # told once per game, not at every change of their chips
        assert all(not [m for m in fake.ephemeral_messages(p) if CLOSED_DMS in m.content] for p in table.members[2:])
        table.check_secrets()  # no notice (nor anything else public) shows a chip count
        text = private(await fake.invoke("hand", user=shy, channel=world.channel))
        assert f"Your chips: {no_thanks.chips(table.state, shy.id)}" in text


async def test_the_closed_dms_notice_has_no_buttons_and_keeps_the_chips_secret(world: World) -> None:
    async with world.bot(seed=12) as bot:
        shy = world.players[1]
        table = await open_game(world, bot, 4, closed=[shy])
        notice = await wait_notice(world, shy)
        # No copy of the board under the notice: its buttons would act, and it would be a second live board.
        assert not notice.buttons
        assert not notice.embeds
        await table.idle()
        table.check_secrets()


async def test_a_restart_mid_game_carries_on_exactly(world: World) -> None:
    fake = world.fake
    async with world.bot(seed=14) as bot:
        table = await open_game(world, bot, 4)
        for turn in range(15):
            await table.play_turn(turn)
        older_board = table.newest_board()
        older_panel = await table.stale_panel(table.to_move())
        await table.act(table.to_move(), "take")
        board = table.newest_board()
        assert not older_board.buttons
        state = table.state

    async with world.bot(seed=99) as restarted:
        table.bot = restarted
        await table.check_saved()
        assert table.state == state
        await table.refused(table.attempt(table.to_move(), "take", via="panel", board=older_panel), "out of date")
        # The buttons of the board posted before the restart still work.
        await table.act(table.to_move(), "take", via="button", board=board)
        text = private(await fake.invoke("hand", user=table.members[0], channel=world.channel))
        assert f"Your chips: {no_thanks.chips(table.state, table.members[0].id)}" in text
        over = await table.play_out()
        table.check_game_over(over)
        table.check_secrets()


# ---- table talk, private looks, leaving --------------------------------------------------------------------------


async def test_numbers_in_the_chat_stay_in_a_no_thanks_game(world: World) -> None:
    fake = world.fake
    async with world.bot(seed=15) as bot:
        table = await open_game(world, bot, 3)
        # The Game runs in the other channel: there, numbers are removed (the control).
        host = world.players[4]
        await fake.invoke("newgame", user=host, channel=world.other_channel)
        public(await fake.invoke("start", user=host, channel=world.other_channel))
        await fake.wait_dm(host, lambda m: "Your hand" in m.content)
        refusal(
            await fake.invoke("take", user=host, channel=world.other_channel),
            "playing The Game; No Thanks! commands don't work here.",
        )

        # A chip paid before the talk edits the board in place (after talk, a move posts the board anew below it).
        await table.act(table.to_move(), "pass")
        ana, ben = world.players[:2]
        said = [
            await fake.send_message(world.channel, ana, "I'd take 17 with 3 chips on it"),
            await fake.send_message(world.channel, ben, "twenty-five is too much, XIV is fine"),
        ]
        edited = await fake.send_message(world.channel, ben, "no thanks")
        await fake.edit_message(edited, "no thanks, I keep my 9 chips")
        board = table.newest_board()
        await fake.add_reaction(board, ana, "3️⃣")

        control = await fake.send_message(world.other_channel, host, "I have a 42")
        await fake.wait_for(lambda: control.deleted, what="the control message in The Game to be removed")
        assert fake.deleted(world.channel) == []
        assert all(not message.deleted for message in [*said, edited])
        assert board.reactions.get("3️⃣") == [ana.id]
        await fake.send_message(world.channel, ana, "7 8 9")
        await table.act(table.to_move(), "take", via="button")
        assert fake.deleted(world.channel) == []


async def test_hand_board_and_rules(world: World) -> None:
    fake, channel = world.fake, world.channel
    async with world.bot(seed=16) as bot:
        table = await open_game(world, bot, 3)
        await table.act(table.to_move(), "take")
        await table.act(table.to_move(), "pass", via="button")
        for member in table.members:
            mine = f"Your chips: {no_thanks.chips(table.state, member.id)}"
            for record in (
                await fake.invoke("hand", user=member, channel=channel),
                await fake.click(table.newest_board(), label="My cards and chips", user=member),
            ):
                text = private(record)
                assert mine in text
                assert cards_in(text) == list(no_thanks.hand(table.state, member.id))
        old_board = table.newest_board()
        board = public(await fake.invoke("board", user=world.spectator, channel=channel))
        await table.idle()
        # Posted again at the bottom, the board is the live one; the old one lost its buttons.
        assert table.newest_board() is board
        assert not old_board.buttons
        table.check_board(board)
        rules = private(await fake.invoke("rules", user=world.spectator, channel=channel))
        assert "No Thanks!" in rules
        assert "chips" in rules
        table.check_secrets()
        # The board from /board works like any other.
        await table.act(table.to_move(), "pass", via="button", board=board)


async def test_players_who_leave_take_their_cards_and_chips_along(world: World) -> None:
    fake, channel = world.fake, world.channel
    async with world.bot(seed=17) as bot:
        table = await open_game(world, bot, 3)
        for turn in range(6):
            await table.play_turn(turn)
        # While two people play on, a leaver's seat goes to the autopilot (tests/e2e/test_leaving.py): it stays.
        leaver = table.others()[0]
        told = private(await fake.invoke("leave", user=leaver, channel=channel))
        assert "The autopilot plays your seat" in told
        await table.idle()
        # With one person left to play, a leave is the game's own: the leaver's cards and chips leave with them,
        # and fewer than three seats end the game.
        mover = table.to_move()
        answer = await table.accepted(await fake.invoke("leave", user=mover, channel=channel), mover, "leave")
        assert "Game over" in answer.content
        assert "abandoned" in answer.content
        assert [b.get("label") for b in answer.buttons] == ["Rematch", "Replay"]
        table.check_secrets()
