"""The Game end to end: the real bot and discord.py against the fake Discord, whole games to the end.

A ``Table`` plays the part of the people at the table. It decides its moves only from what a player may see (their
own hand from DMs and ephemeral answers, the public board), and keeps a replica of the game, built with the engine
from the stored seed and the same actions, as the oracle for every check: the board, the hands shown, the database
row, and that no card still in a hand ever shows up where somebody else could see it.

The seeds of whole games were found with ``offline``: the same strategy on the engine alone, with the seed that the
first ``/newgame`` of ``world.bot(seed=bot_seed)`` draws. ``test_the_seeds_give_the_games_the_tests_expect`` checks
they still give those games (won, excellent, lost...), so a change in the shuffle shows up there first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import pytest

from bot import Bot
from engine import the_game
from engine.errors import GameError
from engine.the_game import EndTurn, Play, State
from tests.e2e.conftest import World
from tests.fake_discord import InteractionRecord, Member, Message
from tests.players import (
    CLOSED_DMS,
    Board,
    answer,
    choose,
    expected_board,
    game_seed,
    hand_in,
    is_board,
    latest_hand,
    public_messages,
    read_board,
    sabotage,
    saved_game,
    saved_row,
)

Strategy = Callable[[list[int], dict[str, int], int, int], Play | None]

# ---- reading what the bot shows ------------------------------------------------------------------------------------

MENTION = re.compile(r"<(?:@[!&]?|#)\d+>|<t:\d+(?::[tTdDfFR])?>")  # mentions, and Discord timestamps
# Numbers that count things rather than name cards: sizes, counts, the summary.
COUNTS = re.compile(
    r"\b\d+ (?:more )?cards?\b|\bdrew \d+\b|\b\d+ more to go\b|\b\d+ laid\b|\bat least \d+\b|\bTurns: \d+"
    r"|\bBackwards tricks: \d+|Cards per pile:[^\n]*|\(\d+/\d+\)|\b\d+-\d+ players\b|\bdraw pile \d+\b"
    r"|\b\d+ (?:seconds?|minutes?|hours?)\b"
)
# In a refusal, numbers derived from the public pile tops.
DERIVED = re.compile(r"\btop \d+|\b(?:higher|lower) than \d+|\bexactly \d+ for the backwards trick")


def buttons_of(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The buttons among ``components`` (action rows and their children)."""
    found = []
    for component in components:
        if component.get("type") == 2:
            found.append(component)
        found += buttons_of(component.get("components") or [])
    return found


def version_text(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """Everything readable in one version of a message: content, embeds and component labels."""
    parts = [content]
    for embed in embeds:
        parts += [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        for item in embed.get("fields", []):
            parts += [item["name"], item["value"]]
    parts += [str(button.get("label", "")) for button in buttons_of(components)]
    return "\n".join(parts)


def message_text(message: Message) -> str:
    """Everything readable in a message as it is now."""
    return version_text(message.content, message.embeds, message.components)


def labels(message: Message) -> list[str]:
    return [str(button.get("label", "")) for button in message.buttons]


def card_numbers(text: str, *, derived: bool = False) -> set[int]:
    """The numbers in ``text`` that could name a card (mentions and counts left out)."""
    text = COUNTS.sub(" ", MENTION.sub(" ", text))
    if derived:
        text = DERIVED.sub(" ", text)
    return {int(number) for number in re.findall(r"\d+", text)}


def stored_state(world: World) -> tuple[str, State]:
    saved = saved_game(world)
    assert saved is not None
    return saved[0]["status"], saved[1]


def engine_refusal(state: State, player: int, action: Any) -> str:
    try:
        the_game.apply(state, player, action)
    except GameError as error:
        return str(error)
    raise AssertionError(f"the engine accepts {action} by {player}")


# ---- the table ---------------------------------------------------------------------------------------------------


class Table:
    """The players of one game of The Game in ``world.channel``, and the replica of their game."""

    def __init__(
        self,
        world: World,
        bot: Bot,
        members: list[Member],
        *,
        starter: Member | None = None,
        closed_dms: tuple[Member, ...] = (),
    ) -> None:
        self.world = world
        self.fake = world.fake
        self.bot = bot
        self.channel = world.channel
        self.members = members
        self.starter = starter or members[0]  # who lays the first card
        self.by_id = {member.id: member for member in members}
        self.closed = {member.id for member in closed_dms}
        self.known: dict[int, list[int]] = {}  # each player's hand as last shown to them privately
        self.state: State | None = None
        self.first_message = len(self.fake.channel_messages(self.channel))  # where this game's messages begin
        self.actions = 0
        self._numbers: dict[tuple[int, int], set[int]] = {}
        for member in closed_dms:
            self.fake.close_dms(member)

    # -- the flow --------------------------------------------------------------------------------------------------

    async def settle(self, channel: Any = None) -> None:
        """Wait until the bot finished the action: the board's edit and the DMs follow the answer, in the background
        (on a busy machine, a little later than the bot's last request; the checks after this say what is wrong)."""
        await self.fake.wait_idle()
        if self.state is not None:
            with suppress(TimeoutError):
                await self.fake.wait_for(self.shows_current, timeout=3, what="the board and the DMs to catch up")

    def shows_current(self) -> bool:
        """The newest board shows the replica's position (a DM follows only a draw: see ``learn_hand``), and the
        database knows it as the board (saved after it went up: no request follows, so ``wait_idle`` cannot tell)."""
        try:
            self.check_board(self.board(), self.replica())
        except AssertionError:
            return False
        row = saved_row(self.world)
        return row is not None and row["message_id"] == self.board_message().id

    def replica(self) -> State:
        assert self.state is not None
        return self.state

    def messages(self) -> list[Message]:
        """This game's public messages in the channel, oldest first."""
        return public_messages(self.fake, self.channel)[self.first_message :]

    async def open(self, *, expert: bool = False, smaller_hands: bool = False) -> InteractionRecord:
        """The first player opens a lobby, the others join with /join, the host starts with /start."""
        host, *others = self.members
        options = {name: True for name, on in (("expert", expert), ("smaller_hands", smaller_hands)) if on}
        opened = await self.fake.invoke("newgame", user=host, channel=self.channel, options=options)
        assert not answer(opened).ephemeral, answer(opened).content
        lobby = opened.original
        assert lobby is not None
        for member in others:
            joined = await self.fake.invoke("join", user=member, channel=self.channel)
            # The one lobby message is kept current; the command itself is answered privately.
            assert answer(joined).ephemeral, answer(joined).content
            assert answer(joined).content == f"{member.mention} joined. The lobby above is up to date."
            assert member.mention in message_text(lobby)
        started = await self.fake.invoke("start", user=host, channel=self.channel)
        assert not answer(started).ephemeral, answer(started).content
        row = saved_row(self.world)  # committed before the answer
        assert row is not None
        assert row["status"] == "running"
        self.state = the_game.new_game(
            [member.id for member in self.members], seed=row["seed"], expert=expert, smaller_hands=smaller_hands
        )
        assert stored_state(self.world) == ("running", self.state)
        await self.settle()
        assert lobby.content == "The game has started."
        assert not lobby.buttons
        assert f"lay at least {3 if expert else 2} cards each turn" in answer(started).content
        assert started.original is self.board_message()
        for member in self.members:
            await self.learn_hand(member)
        self.audit(started)
        return started

    async def learn_hand(self, member: Member) -> None:
        """Read a player's hand the way they would: the newest DM, or /hand when their DMs are closed."""
        cards = list(the_game.hand(self.replica(), member.id))
        if member.id in self.closed:
            assert not self.fake.dms(member)
            if the_game.is_over(self.replica()):
                return  # no notice, no /hand: the game is over
            shown = await self.fake.invoke("hand", user=member, channel=self.channel)
            assert answer(shown).ephemeral
            assert hand_in(answer(shown).content) == cards
            # Told privately, once per game (by the answer to their first action or /hand), never in the channel.
            await self.fake.wait_for(
                lambda: len([m for m in self.fake.ephemeral_messages(member) if CLOSED_DMS in m.content]) == 1,
                what=f"{member.name}'s one private notice about their DMs",
            )
            assert not [m for m in self.messages() if CLOSED_DMS in m.content]
        else:
            with suppress(TimeoutError, AssertionError):  # delivered in the background
                await self.fake.wait_for(lambda: latest_hand(self.fake, member) == cards, timeout=3)
            assert latest_hand(self.fake, member) == cards
        self.known[member.id] = cards

    async def act(self, member: Member, action: Play | EndTurn, command: str, options: dict[str, Any] | None) -> Any:
        """Run ``command`` for ``action``; checks what every accepted action does, returns (interaction, new board?)."""
        before = self.replica()
        after = the_game.apply(before, member.id, action)
        board = self.board_message()
        count = len(self.messages())
        dms = len(self.fake.dms(member))
        rec = await self.fake.invoke(command, user=member, channel=self.channel, options=options)
        self.state = after
        # The move is in the log before the answer.
        assert stored_state(self.world) == ("running" if not the_game.is_over(after) else "finished", after)
        response = answer(rec)
        new_turn = the_game.current_player(after) != the_game.current_player(before) and isinstance(action, EndTurn)
        fresh = the_game.is_over(after) or new_turn
        await self.settle()
        if fresh:
            # The table moved on: a new board below, answering the action; the old board loses its buttons, and
            # only the player whose turn begins is pinged.
            assert not response.ephemeral, response.content
            assert rec.original is self.board_message()
            assert not board.buttons
            upcoming = the_game.current_player(after)
            pinged = [] if upcoming in (None, member.id) or the_game.is_over(after) else [upcoming]
            assert rec.original is not None
            assert [user.id for user in rec.original.pinged] == pinged
        else:
            # The board is edited in place; the mover gets their private panel, with what they did first.
            assert response.ephemeral, response.content
            assert response.message is not None
            assert response.message.visible_to == member.id
            assert hand_in(response.content) == list(the_game.hand(after, member.id)), response.content
            assert self.board_message() is board
            assert len(self.messages()) == count
            assert not rec.followups
        # The only followup a move may bring is the one notice about closed DMs.
        assert all(CLOSED_DMS in m.content for m in rec.followups), rec.followups
        assert len(self.fake.dms(member)) == dms  # the game's one DM is edited in place
        return rec

    async def play(self, member: Member, card: int, pile: str) -> InteractionRecord:
        before = self.replica()
        rec: InteractionRecord = await self.act(member, Play(card, pile), "play", {"card": card, "pile": pile})
        trick = the_game.is_backwards_trick(pile, the_game.top(before, pile), card)
        said = f"{member.mention} laid {card} on {pile}" + (": backwards trick!" if trick else ".")
        assert answer(rec).content.startswith(said), answer(rec).content
        if the_game.is_over(self.replica()):
            # The end shows what was left in each hand.
            held = re.search(rf"^{member.mention} still held ([\d, ]+)\.$", answer(rec).content, re.MULTILINE)
            self.known[member.id] = [int(card) for card in held[1].split(", ")] if held else []
        else:
            # The mover sees the rest of their hand privately, after every card.
            self.known[member.id] = hand_in(answer(rec).content) or []
        self.audit(rec)
        return rec

    async def end_turn(self, member: Member) -> InteractionRecord:
        before = self.replica()
        rec: InteractionRecord = await self.act(member, EndTurn(), "endturn", None)
        after = self.replica()
        content = answer(rec).content
        drawn = len(the_game.hand(after, member.id)) - len(the_game.hand(before, member.id))
        upcoming = the_game.current_player(after)
        if the_game.is_over(after) or upcoming == member.id:  # the end screen, or the same player's next turn
            said = (
                f"{member.mention} ended the turn and drew {drawn}." if drawn else f"{member.mention} ended the turn."
            )
            assert content.startswith(said), content
        else:  # a new turn's board opens with what the turn before did
            first = content.splitlines()[0]
            assert first.startswith(f"{member.mention} "), content
            assert (f"drew {drawn} card{'' if drawn == 1 else 's'}." if drawn else "ended the turn.") in first, content
        upcoming = the_game.current_player(after)
        if upcoming is not None and upcoming != member.id and not the_game.is_over(after):
            assert f"<@{upcoming}>, your turn." in content
        if drawn:
            # Whoever draws finds the hand after the draw in their newest DM (or a notice, their DMs being closed):
            # the game's one DM is edited in place, so no new DM arrives.
            await self.learn_hand(member)
        self.audit(rec)
        return rec

    async def refused(
        self,
        member: Member,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        reason: str | None = None,
        channel: Any = None,
    ) -> str:
        """Run a command the bot must refuse: an ephemeral answer, and nothing changes anywhere."""
        channel = channel or self.channel
        public = [message_text(m) for m in public_messages(self.fake, self.channel)]
        other = len(self.fake.channel_messages(self.world.other_channel))
        row = saved_row(self.world)
        requests = len(self.fake.bot_requests)
        rec = await self.fake.invoke(command, user=member, channel=channel, options=options)
        response = answer(rec)
        assert response.ephemeral, response.content
        if reason is not None:
            assert response.content == reason
        await self.settle(channel)
        assert not rec.followups
        # Nothing posted, nothing edited, no DM.
        assert [message_text(m) for m in public_messages(self.fake, self.channel)] == public
        assert len(self.fake.channel_messages(self.world.other_channel)) == other
        assert len(self.fake.bot_requests) == requests
        after = saved_row(self.world)
        assert (row and tuple(row)) == (after and tuple(after))
        if self.state is not None:
            self.audit(None)
        return response.content

    def board_message(self) -> Message:
        """The board the players see: the newest board the bot posted in the channel."""
        boards = [m for m in public_messages(self.fake, self.channel) if is_board(m)]
        assert boards, "no board in the channel"
        newest = boards[-1]
        assert newest.author.id == self.fake.bot.id
        return newest

    def board(self) -> Board:
        return read_board(self.board_message())

    async def step(self, strategy: Strategy = choose) -> InteractionRecord:
        """One action of the player to move (the starter before the first card), chosen by ``strategy``."""
        board = self.board()
        mover = self.by_id[board.mover or self.starter.id]
        choice = strategy(self.known[mover.id], board.tops, board.laid, board.minimum or 1)
        if choice is None:
            return await self.end_turn(mover)
        return await self.play(mover, choice.card, choice.pile)

    async def play_to_end(self, strategy: Strategy = choose) -> InteractionRecord:
        """Play until the game is over; returns the last action's interaction."""
        last = await self.step(strategy)
        while not the_game.is_over(self.replica()):
            last = await self.step(strategy)
        return last

    # -- the checks after every action ------------------------------------------------------------------------------

    def audit(self, rec: InteractionRecord | None) -> None:
        self.actions += 1
        state = self.replica()
        over = the_game.is_over(state)
        # The newest board in the channel shows the current position, and only it has live buttons: "My hand" while
        # the game runs, only "Rematch" and "Replay" once it is over.
        newest = self.board_message()
        self.check_board(read_board(newest), state)
        row = saved_row(self.world)
        assert row is not None
        assert row["message_id"] == newest.id
        assert labels(newest) == (["Rematch", "Replay"] if over else ["My hand"])
        old = [m for m in self.messages() if m is not newest and CLOSED_DMS not in m.content]
        assert all(not m.buttons for m in old), "an old message has live buttons"
        # No card in anybody's hand shows where somebody else could see it, in any version of any message (once the
        # game is over, the hands left are shown on purpose).
        hands = {player: set(the_game.hand(state, player)) for player in state.players}
        every_hand = set().union(*hands.values())
        laid = {card for pile in state.piles for card in pile}
        if not over:
            for message in self.fake.channel_messages(self.channel)[self.first_message :]:
                numbers = self.numbers(message)
                assert not numbers & every_hand, f"a card in a hand is public: {message!r}"
                if message.author.id == self.fake.bot.id:
                    assert numbers <= laid | {1, 100}, f"a number that is no laid card: {message!r}"
        rules = {rec.id for rec in self.fake.interactions if rec.name == "rules"}
        for message in self.fake.ephemeral_messages():
            if message.interaction_id in rules:
                continue  # the rules speak of numbers, none of them anybody's card
            others = set().union(*(cards for player, cards in hands.items() if player != message.visible_to))
            assert not self.numbers(message) & others, f"{message!r} shows another's card"
        assert not self.fake.bot_messages(self.world.other_channel)

    def numbers(self, message: Message) -> set[int]:
        """``card_numbers`` of every version of a message (in a refusal or a panel, leaving out numbers derived
        from the piles); each version is read once."""
        found: set[int] = set()
        versions = [*message.edits, message]
        for index, version in enumerate(versions):
            key = (message.id, index)
            if key not in self._numbers:
                text = version_text(version.content, version.embeds, version.components)
                self._numbers[key] = card_numbers(text, derived=message.ephemeral)
            found |= self._numbers[key]
        return found

    def check_board(self, board: Board, state: State) -> None:
        assert board == expected_board(state)

    def check_game_over(self, rec: InteractionRecord) -> None:
        """The last answer announces the end with the score, the verdict, who was stuck with what, and the story of
        the game; the row is finished."""
        state = self.replica()
        assert the_game.is_over(state)
        left = the_game.score(state)
        summary = the_game.summary(state)
        content = answer(rec).content
        assert not answer(rec).ephemeral
        assert "Game over" in content
        assert f"{left} {'card' if left == 1 else 'cards'} not laid" in content
        if left == 0:
            assert "You won" in content
        elif left < 10:
            assert "excellent" in content
            assert "You won" not in content
        else:
            assert "You won" not in content
            assert "excellent" not in content
        # Under the result, the team's record, this game included.
        assert "This team's record: " in content
        if state.status == "lost":
            assert state.turn is not None
            assert f"<@{state.players[state.turn]}> was stuck" in content
        for player in state.players:
            cards = the_game.hand(state, player)
            held = f"<@{player}> still held"
            if cards:
                assert f"{held} {', '.join(map(str, cards))}." in content
            else:
                assert held not in content
        if state.draw_pile:
            assert f"{len(state.draw_pile)} {'card' if len(state.draw_pile) == 1 else 'cards'} stayed" in content
        assert f"Turns: {summary.turns}." in content
        assert f"Backwards tricks: {summary.backwards_tricks}." in content
        piles = ", ".join(f"{name} {n}" for name, n in zip(the_game.PILES, summary.pile_lengths, strict=True))
        assert f"Cards per pile: {piles}." in content
        assert ("Closest call: turn" in content) == (state.closest is not None)
        row = saved_row(self.world)
        assert row is not None
        # A finished board has no game buttons, only the rematch and the replay.
        assert [b.get("custom_id") for b in buttons_of(answer(rec).components)] == [
            f"rematch:{row['id']}",
            f"replay:{row['id']}",
        ]
        assert row["status"] == "finished"
        assert row["ended_at"]
        assert json.loads(row["result"]) == {
            "won": left == 0,
            "score": left,
            "turns": summary.turns,
            "backwards_tricks": summary.backwards_tricks,
            "pile_lengths": list(summary.pile_lengths),
        }


# ---- whole games ---------------------------------------------------------------------------------------------------


def offline(players: int, bot_seed: int, *, strategy: Strategy = choose, starter: int = 0, **variants: bool) -> State:
    """The game a test will play, played with the engine alone: how its seed was found, and a check that it holds."""
    seats = list(range(1, players + 1))
    state = the_game.new_game(seats, seed=game_seed(bot_seed), **variants)
    while not the_game.is_over(state):
        mover = the_game.current_player(state) or seats[starter]
        view = the_game.public_view(state)
        tops = {pile.name: pile.top for pile in view.piles}
        play = strategy(list(the_game.hand(state, mover)), tops, view.laid, view.minimum or 1)
        state = the_game.apply(state, mover, play or EndTurn())
    return state


@pytest.mark.parametrize(
    ("game", "status", "score"),
    [
        pytest.param(lambda: offline(1, 342), "lost", 44, id="one-player"),
        pytest.param(lambda: offline(1, 3, strategy=sabotage), "lost", 93, id="stuck-part-way"),
        pytest.param(lambda: offline(2, 135), "won", 0, id="two-players"),
        pytest.param(lambda: offline(5, 292, starter=2), "lost", 8, id="five-players"),
        pytest.param(lambda: offline(3, 177, expert=True), "lost", 65, id="expert"),
        pytest.param(lambda: offline(4, 228, smaller_hands=True), "lost", 65, id="smaller-hands"),
        pytest.param(lambda: offline(2, 109), "lost", 50, id="closed-dms"),
        pytest.param(lambda: offline(3, 163), "lost", 72, id="restart"),
    ],
)
def test_the_seeds_give_the_games_the_tests_expect(game: Callable[[], State], status: str, score: int) -> None:
    state = game()
    assert (state.status, the_game.score(state)) == (status, score)


async def test_one_player_game_lost_then_the_channel_is_free(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=342) as bot:
        table = Table(world, bot, [ana])
        await table.open()
        assert len(table.known[ana.id]) == 8
        last = await table.play_to_end()
        table.check_game_over(last)
        assert the_game.score(table.replica()) == 44
        again = await world.fake.invoke("newgame", user=world.players[1], channel=world.channel)
        assert not answer(again).ephemeral
        assert answer(again).embeds[0]["title"] == "The Game: lobby"


async def test_game_over_at_once_when_the_mover_is_stuck_part_way_through_a_turn(world: World) -> None:
    ana = world.players[0]
    async with world.bot(seed=3) as bot:
        table = Table(world, bot, [ana])
        await table.open()
        last = await table.play_to_end(sabotage)
        table.check_game_over(last)
        # ana laid one card of the two her turn needs, and none of her cards fits any more.
        assert the_game.score(table.replica()) == 93
        assert last.name == "play"
        assert table.replica().laid == 1
        assert table.replica().minimum == 2
        assert not any(the_game.legal_piles(table.replica(), card) for card in table.known[ana.id])


async def test_two_player_game_won(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=135) as bot:
        table = Table(world, bot, [ana, ben])
        await table.open()
        assert [len(table.known[p.id]) for p in (ana, ben)] == [7, 7]
        last = await table.play_to_end()
        table.check_game_over(last)
        assert the_game.won(table.replica())
        # The last card ended the game at once, nobody holding a card any more.
        assert last.name == "play"
        assert "still held" not in answer(last).content


async def test_five_player_game_excellent_and_anyone_lays_the_first_card(world: World) -> None:
    members = world.players[:5]
    cy = members[2]
    async with world.bot(seed=292) as bot:
        table = Table(world, bot, members, starter=cy)
        await table.open()
        assert all(len(table.known[p.id]) == 6 for p in members)
        first = await table.step()  # cy, third in the seating order, lays the first card and takes the turn
        assert first.user.id == cy.id
        assert table.board().mover == cy.id
        last = await table.play_to_end()
        table.check_game_over(last)
        assert the_game.score(table.replica()) == 8
        # Turns went on from cy in seating order: dee, eve, ana, ben, cy...
        enders = [i.user.id for i in world.fake.interactions if i.name == "endturn" and not answer(i).ephemeral]
        order = [p.id for p in members]
        assert enders[:5] == order[2:] + order[:2]


async def test_expert_variant_asks_three_cards_a_turn(world: World) -> None:
    members = world.players[:3]
    ana = members[0]
    async with world.bot(seed=177) as bot:
        table = Table(world, bot, members)
        await table.open(expert=True)
        assert table.board().variant == "expert"
        await table.step()
        await table.step()
        board = table.board()
        assert (board.mover, board.laid, board.minimum) == (ana.id, 2, 3)
        await table.refused(ana, "endturn", reason="Lay 1 more card before ending your turn.")
        last = await table.play_to_end()
        table.check_game_over(last)
        assert the_game.summary(table.replica()).turns >= 3


async def test_smaller_hands_deal_one_card_fewer(world: World) -> None:
    members = world.players[:4]
    async with world.bot(seed=228) as bot:
        table = Table(world, bot, members)
        await table.open(smaller_hands=True)
        assert all(len(table.known[p.id]) == 5 for p in members)
        board = table.board()
        assert board.variant == "smaller hands"
        assert set(board.seats.values()) == {5}
        while world.fake.interactions[-1].name != "endturn":
            await table.step()
        assert len(table.known[members[0].id]) == 5  # drew back up to five
        last = await table.play_to_end()
        table.check_game_over(last)


# ---- closed DMs, restarts ------------------------------------------------------------------------------------------


async def test_a_player_with_closed_dms_is_told_privately_and_the_game_goes_on(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=109) as bot:
        table = Table(world, bot, [ana, ben], closed_dms=(ben,))
        await table.open()  # ben's first /hand brings the notice (Table.learn_hand checks it)
        notices = [m for m in world.fake.ephemeral_messages(ben) if CLOSED_DMS in m.content]
        assert len(notices) == 1
        told = notices[0].content.split(" ⏰")[0]  # (the turn clock's deadline may follow)
        assert told.startswith("I can't send you direct messages")
        assert "/hand" in told
        assert ana.mention not in told
        last = await table.play_to_end()
        table.check_game_over(last)
        assert len([m for m in world.fake.ephemeral_messages(ben) if CLOSED_DMS in m.content]) == 1  # once per game
        assert not [m for m in world.fake.ephemeral_messages(ana) if CLOSED_DMS in m.content]
        assert not [m for m in public_messages(world.fake, world.channel) if CLOSED_DMS in m.content]
        assert not world.fake.dms(ben)
        assert world.fake.dms(ana)


async def test_the_closed_dms_notice_is_no_second_live_board(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=109) as bot:
        table = Table(world, bot, [ana, ben], closed_dms=(ben,))
        await table.open()
        card = table.known[ana.id][-1]
        await world.fake.invoke("play", user=ana, channel=world.channel, options={"card": card, "pile": "A"})
        await table.settle()
        boards = [
            m for m in public_messages(world.fake, world.channel) if m.embeds and m.embeds[0]["title"] == "The Game"
        ]
        assert read_board(boards[-1]).tops["A"] == card
        assert len([m for m in public_messages(world.fake, world.channel) if m.buttons]) == 1


async def test_restart_in_the_middle_of_a_turn_carries_on_exactly(world: World) -> None:
    members = world.players[:3]
    async with world.bot(seed=163) as bot:
        table = Table(world, bot, members)
        await table.open()
        while True:
            await table.step()
            board = table.board()
            if table.actions > 8 and board.mover is not None and board.laid == 1 and board.minimum == 2:
                break
        mover = table.by_id[board.mover]
        old_board = table.board_message()
    async with world.bot(seed=7) as bot:
        table.bot = bot
        # The board posted before the restart still opens the hand panel.
        clicked = await world.fake.click(old_board, label="My hand", user=mover)
        assert answer(clicked).ephemeral
        assert hand_in(answer(clicked).content) == table.known[mover.id]
        # The same board, the same turn with one card laid, the same hands.
        shown = await world.fake.invoke("board", user=world.spectator, channel=world.channel)
        assert not answer(shown).ephemeral
        assert shown.original is not None
        assert read_board(shown.original) == board
        await table.settle()
        assert shown.original is table.board_message()
        assert not old_board.buttons
        table.audit(shown)
        for member in members:
            hand = await world.fake.invoke("hand", user=member, channel=world.channel)
            assert answer(hand).ephemeral
            assert hand_in(answer(hand).content) == table.known[member.id]
        await table.refused(mover, "endturn", reason="Lay 1 more card before ending your turn.")
        last = await table.play_to_end()
        table.check_game_over(last)


# ---- refusals, autocomplete ----------------------------------------------------------------------------------------

NO_GAME = "There's no game in this channel: open one with /newgame."
NOT_STARTED = "The game hasn't started yet: the host starts it with /start once everybody has joined."
NOT_A_PLAYER = "You're not playing in this game."


async def test_every_kind_of_refusal_is_ephemeral_and_changes_nothing(world: World) -> None:
    ana, ben = world.players[:2]
    spectator = world.spectator
    async with world.bot(seed=5) as bot:
        table = Table(world, bot, [ana, ben])
        await table.refused(ana, "play", {"card": 50, "pile": "A"}, reason=NO_GAME)
        await table.refused(ana, "endturn", reason=NO_GAME)
        await table.refused(ana, "hand", reason="There's no game in this channel: open one with /newgame.")
        # A game in its lobby.
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
        await world.fake.invoke("join", user=ben, channel=world.channel)
        await table.refused(ana, "play", {"card": 50, "pile": "A"}, reason=NOT_STARTED)
        await table.refused(ben, "endturn", reason=NOT_STARTED)
        assert await world.fake.autocomplete("play", user=ana, channel=world.channel, focused="card") == []
        await world.fake.invoke("start", user=ana, channel=world.channel)
        row = saved_row(world)
        assert row is not None
        table.state = the_game.new_game([ana.id, ben.id], seed=row["seed"])
        table.first_message = 0
        await table.settle()
        table.known = {p.id: latest_hand(world.fake, p) for p in (ana, ben)}
        state = table.replica()
        # Other channels know nothing of the game.
        await table.refused(ana, "play", {"card": 50, "pile": "A"}, reason=NO_GAME, channel=world.other_channel)
        await table.refused(ana, "endturn", reason=NO_GAME, channel=world.other_channel)
        # Nobody laid a card yet.
        await table.refused(ana, "endturn", reason=engine_refusal(state, ana.id, EndTurn()))
        # Spectators do not play, and have no hand.
        card = table.known[ana.id][0]
        await table.refused(spectator, "play", {"card": card, "pile": "A"}, reason=NOT_A_PLAYER)
        await table.refused(spectator, "endturn", reason=NOT_A_PLAYER)
        await table.refused(spectator, "hand", reason=NOT_A_PLAYER)
        button = await world.fake.click(table.board_message(), label="My hand", user=spectator)
        assert answer(button).ephemeral
        assert answer(button).content == NOT_A_PLAYER
        # No Thanks! commands in a channel playing The Game.
        assert (await table.refused(ana, "take")).startswith("This channel is playing The Game")
        # ana lays her highest card on A: the turn is hers.
        high = table.known[ana.id][-1]
        await table.play(ana, high, "A")
        state = table.replica()
        ben_card = table.known[ben.id][0]
        for action, player, command, options in [
            (Play(ben_card, "D"), ben, "play", {"card": ben_card, "pile": "D"}),
            (EndTurn(), ben, "endturn", None),
        ]:
            reason = engine_refusal(state, player.id, action)
            assert reason == "It's not your turn."
            await table.refused(player, command, options, reason=reason)
        # A card she does not hold: ben's, or the one she just laid. The refusal does not repeat it.
        for card in (ben_card, high):
            reason = engine_refusal(state, ana.id, Play(card, "D"))
            assert reason == "You don't hold that card."
            assert str(card) not in reason
            await table.refused(ana, "play", {"card": card, "pile": "D"}, reason=reason)
        # A card that does not fit the pile: the engine's reason, naming only her own card and the public top.
        low = next(c for c in table.known[ana.id] if c != high - 10)
        reason = engine_refusal(state, ana.id, Play(low, "A"))
        assert reason.startswith(f"{low} can't go on A (ascending, top {high})")
        await table.refused(ana, "play", {"card": low, "pile": "A"}, reason=reason)
        # Too early to end the turn.
        await table.refused(ana, "endturn", reason="Lay 1 more card before ending your turn.")
        # After all that, the game goes on normally.
        await table.play(ana, low, "B")
        await table.end_turn(ana)
        assert table.board().mover == ben.id


async def test_autocomplete_offers_only_the_callers_own_cards(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=5) as bot:
        table = Table(world, bot, [ana, ben])
        await table.open()

        async def offered(member: Member, typed: str = "", channel: Any = None) -> dict[int, tuple[str, ...]]:
            choices = await world.fake.autocomplete(
                "play", user=member, channel=channel or world.channel, focused="card", value=typed
            )
            result = {}
            for choice in choices:
                match = re.fullmatch(r"(\d+) \((?:on ([A-D](?:, [A-D])*)|no legal pile)\)", choice["name"])
                assert match, choice
                assert int(match[1]) == choice["value"], choice
                result[choice["value"]] = tuple(match[2].split(", ")) if match[2] else ()
            return result

        def expected(member: Member) -> dict[int, tuple[str, ...]]:
            state = table.replica()
            return {card: the_game.legal_piles(state, card) for card in the_game.hand(state, member.id)}

        for member in (ana, ben):
            assert await offered(member) == expected(member)
        high = table.known[ana.id][-1]
        await table.play(ana, high, "C")
        await table.play(ana, table.known[ana.id][0], "A")
        for member in (ana, ben):
            choices = await offered(member)
            assert set(choices) <= set(table.known[member.id])
            assert all(choices[card] == piles for card, piles in expected(member).items() if piles)
        # What she types narrows her own cards; nobody else's hand ever shows.
        digit = str(table.known[ana.id][0])[0]
        narrowed = await offered(ana, digit)
        assert set(narrowed) == {c for c in table.known[ana.id] if str(c).startswith(digit) and expected(ana)[c]}
        assert await offered(world.spectator) == {}
        assert await offered(ana, channel=world.other_channel) == {}


async def test_hand_board_and_rules(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=5) as bot:
        table = Table(world, bot, [ana, ben])
        await table.open()
        await table.step()
        hand = await world.fake.invoke("hand", user=ben, channel=world.channel)
        assert answer(hand).ephemeral
        assert hand_in(answer(hand).content) == list(the_game.hand(table.replica(), ben.id))
        old_board = table.board_message()
        board = await world.fake.invoke("board", user=world.spectator, channel=world.channel)
        assert not answer(board).ephemeral
        await table.settle()
        # The board is posted again at the bottom; the old one loses its buttons.
        assert board.original is table.board_message()
        assert not old_board.buttons
        table.audit(board)
        rules = await world.fake.invoke("rules", user=world.spectator, channel=world.channel)
        assert answer(rules).ephemeral
        assert "backwards trick" in answer(rules).content.lower()
        await table.step()
