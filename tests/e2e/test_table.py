"""Issue 11, the table: a quiet channel, a card in two clicks, one lobby message, and a game that ends well.

Whole seeded games are played through the fake Discord, with slash commands and with the hand panel alone, and what
the table went through is counted from the fake's records (see ``table_helpers``): new channel messages and their
lines per turn, pings per player, new DMs per player, clicks per turn, live buttons on old messages.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace

import pytest

from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import (
    END_SCREEN,
    Meter,
    click_panel,
    lay_by_panel,
    live_buttons,
    newest_board,
    no_thanks_board,
    open_game,
    panel_button,
    the_game_board,
)
from tests.fake_discord import Member, Message
from tests.players import (
    answer,
    choose,
    game_seed,
    hand_in,
    latest_chips,
    latest_hand,
    no_thanks_choice,
    public_messages,
    saved_game,
    saved_state,
    tops_of,
)

# A count of one with a plural noun ("1 cards"): every count in the games' texts goes through ``_n``.
WRONG_PLURAL = re.compile(r"(?<![\d.])1 (cards|chips|points|turns)\b")


def wrong_plurals(world: World) -> list[str]:
    """Every text the channel and the DMs showed (each version of each message) with a wrong plural."""
    fake = world.fake
    messages = [*fake.channel_messages(world.channel, include_deleted=True)]
    messages += [m for member in world.players for m in fake.dms(member)]
    texts = [v.content or "" for m in messages for v in m.history]
    texts += [str(e) for m in messages for v in m.history for e in v.embeds]
    return [t for t in texts if WRONG_PLURAL.search(t)]


# 3 players, greedy strategy: 31 turns, 4 backwards tricks, lost with 33 cards left (like the 31-turn game).
THE_GAME_SEED = 10


@dataclass
class Figures:
    """What one whole game cost the table."""

    turns: int = 0
    boards: int = 0  # new channel messages after the start
    lines: int = 0
    raw_lines: int = 0
    rows: int = 0  # lines of the new messages as they stand after the game
    pings: Counter[int] = field(default_factory=Counter)
    dms: dict[int, int] = field(default_factory=dict)
    # per turn: (cards laid, clicks), leaving out the clicks confirming a risky card (tests/e2e/test_panels.py)
    clicks: list[tuple[int, int]] = field(default_factory=list)


def check_pings(meter: Meter, members: list[Member], turns_begun: Counter[int]) -> None:
    """Only the player whose turn begins is pinged, once per turn begun, never by the answer to their own action."""
    for message in meter.new_messages():
        actor = meter.actor_of(message)
        assert actor is None or actor not in {u.id for u in message.pinged}, message
        assert len(message.pinged) <= 1, message
    pings = meter.pings()
    for member in members:
        assert pings[member.id] <= turns_begun[member.id], (member.name, pings, turns_begun)


def the_game_figures(meter: Meter, state: the_game.State) -> Figures:
    turns = the_game.summary(state).turns
    return Figures(
        turns=turns,
        boards=len(meter.new_messages()),
        lines=meter.lines(),
        raw_lines=meter.lines(raw=True),
        rows=meter.rows(),
        pings=meter.pings(),
        dms=meter.new_dms(),
    )


def check_game_over_text(text: str, state: the_game.State) -> None:
    """The end of The Game: who was stuck with what, every hand left, the score and verdict, and the story."""
    left = the_game.score(state)
    summary = the_game.summary(state)
    assert f"**Game over**: {left} cards not laid." in text
    assert "better luck next time" in text if left >= 10 else "excellent" in text
    assert state.turn is not None
    stuck = state.players[state.turn]
    assert (
        f"<@{stuck}> was stuck: the turn needed {state.minimum - state.laid} more cards, and none of theirs fit."
        in text
    )
    for player, cards in zip(state.players, state.hands, strict=True):
        assert f"<@{player}> still held {', '.join(map(str, cards))}." in text
    assert f"{len(state.draw_pile)} cards stayed in the draw pile." in text
    assert f"Turns: {summary.turns}. Backwards tricks: {summary.backwards_tricks}." in text
    assert state.closest is not None
    playable, turn, player = state.closest
    assert f"Closest call: turn {turn}, when <@{player}> could lay only {playable} cards." in text
    assert "None" not in text


async def slash_game(world: World) -> Figures:
    """The seeded 3-player game played to its end by slash commands, checking the board after every action."""
    members = world.players[:3]
    fake = world.fake
    by_id = {m.id: m for m in members}
    async with world.bot(seed=THE_GAME_SEED):
        await open_game(world, members)
        assert saved_state(world).seed == game_seed(THE_GAME_SEED)
        meter = Meter(world, members)  # the game from its first board on
        turns_begun: Counter[int] = Counter()
        state = saved_state(world)
        while not the_game.is_over(state):
            mover = the_game.current_player(state) or members[0].id
            view = the_game.public_view(state)
            tops = {pile.name: pile.top for pile in view.piles}
            play = choose(the_game.hand(state, mover), tops, view.laid, view.minimum or 1)
            if play is not None:
                rec = await fake.invoke(
                    "play", user=by_id[mover], channel=world.channel, options={"card": play.card, "pile": play.pile}
                )
                # A card is answered privately (the rest of the hand), and the board is edited in place.
                assert answer(rec).ephemeral
                assert answer(rec).content.startswith(f"<@{mover}> laid {play.card} on {play.pile}")
                assert hand_in(answer(rec).content) == [c for c in the_game.hand(state, mover) if c != play.card]
            else:
                rec = await fake.invoke("endturn", user=by_id[mover], channel=world.channel)
                assert not answer(rec).ephemeral
                assert rec.original is not None
                after = saved_state(world)
                upcoming = the_game.current_player(after)
                if not the_game.is_over(after):
                    assert upcoming is not None
                    turns_begun[upcoming] += 1
                    assert [u.id for u in rec.original.pinged] == [upcoming]
                else:
                    assert rec.original.pinged == []
            await fake.wait_idle()
            before_boards = len(public_messages(fake, world.channel))
            state = saved_state(world)
            await the_game_board(world)
            assert len(public_messages(fake, world.channel)) == before_boards
            # After a draw, the player's one DM shows the hand as it is (a card laid is answered privately instead).
            if play is None:
                # The DM goes out in the background after the answer: wait for it, not just for a quiet moment.
                drawer, hand = by_id[mover], list(the_game.hand(state, mover))
                await fake.wait_for(lambda: latest_hand(fake, drawer) == hand, what="the DM of the new hand")  # noqa: B023
        figures = the_game_figures(meter, state)
        check_pings(meter, members, turns_begun)
        final = newest_board(world)
        assert live_buttons(final) == END_SCREEN
        check_game_over_text(final.content, state)
    print(f"\nslash commands: {figures}")
    assert sum(figures.pings.values()) == sum(turns_begun.values()) == figures.turns - 1
    return figures


async def test_a_whole_game_by_slash_commands_keeps_the_channel_quiet(world: World) -> None:
    figures = await slash_game(world)
    assert figures.turns == 31
    # One new board per turn (the turn's end); between them the board is edited in place.
    assert figures.boards == figures.turns
    assert figures.boards / figures.turns <= 1
    assert all(count <= 3 for count in figures.dms.values())
    # Every player is pinged once per turn of theirs, and at no other time (checked move by move in slash_game).
    assert sorted(figures.pings.values()) == [10, 10, 10]


async def test_the_channel_reads_as_a_log(world: World) -> None:
    """Superseded boards shrink to what their turn did: at most one new message and six rows a turn, every card
    laid readable after the game, no old board with buttons, a deadline or a player to move."""
    figures = await slash_game(world)
    print(f"per turn: {figures.boards / figures.turns:.2f} messages, {figures.rows / figures.turns:.2f} rows")
    assert figures.boards / figures.turns <= 1
    assert figures.rows / figures.turns <= 6
    state = saved_state(world)
    messages = public_messages(world.fake, world.channel)
    old = messages[:-1]  # all but the end screen
    for message in old:
        if message.author.id != world.fake.bot.id or (message.embeds and message.embeds[0]["title"].endswith("lobby")):
            continue
        assert not message.embeds, message
        assert not message.buttons, message
        assert len(message.content.splitlines()) <= 2, message.content
        assert "to move" not in message.content, message.content
        assert "⏰" not in message.content, message.content
    # Every card laid, pile by pile in the order laid, read back from the shrunk boards alone.
    laid: dict[str, list[int]] = {pile: [] for pile in the_game.PILES}
    for message in old:
        # A pile's run of cards reads "35, 38 (trick) on A".
        for cards, pile in re.findall(r"((?:\d+(?: \(trick\))?, )*\d+(?: \(trick\))?) on ([ABCD])\b", message.content):
            laid[pile].extend(int(card) for card in re.findall(r"\d+", cards))
    assert [tuple(cards) for cards in laid.values()] == list(state.piles)
    assert wrong_plurals(world) == []


async def play_by_panel(world: World, members: list[Member], figures: Figures, turns_begun: Counter[int]) -> None:
    """Play the channel's game to its end with clicks only: My hand, a card, a pile, ..., End turn."""
    fake = world.fake
    by_id = {m.id: m for m in members}
    state = saved_state(world)
    while not the_game.is_over(state):
        mover = by_id[the_game.current_player(state) or members[0].id]
        clicks_before = len(fake.interactions)
        opened = await fake.click(newest_board(world), label="My hand", user=mover)
        panel = opened.original
        assert panel is not None
        assert panel.ephemeral
        assert panel.visible_to == mover.id
        laid = asked = 0
        while True:
            view = the_game.public_view(state)
            hand = the_game.hand(state, mover.id)
            assert hand_in(panel.content) == list(hand)
            tops = {pile.name: pile.top for pile in view.piles}
            play = choose(hand, tops, view.laid, view.minimum or 1)
            # A button per card, labelled with its number; cards that fit nowhere are disabled.
            for card in hand:
                button = panel_button(panel, "card", card)
                assert button["label"] == str(card)
                assert bool(button.get("disabled")) == (not the_game.legal_piles(state, card))
            end = panel_button(panel, "end")
            assert bool(end.get("disabled")) == (view.current_player != mover.id or view.laid < view.minimum)
            if play is None:
                boards = len(public_messages(fake, world.channel))
                rec = await fake.click(panel, end["custom_id"], user=mover)
                assert answer(rec).type == 7  # the panel itself is redrawn
                await fake.wait_idle()
                assert len(rec.followups) == 1
                assert not rec.followups[0].ephemeral
                after = saved_state(world)
                upcoming = the_game.current_player(after)
                if not the_game.is_over(after):
                    assert upcoming is not None
                    turns_begun[upcoming] += 1
                    assert [u.id for u in rec.followups[0].pinged] == [upcoming]
                assert len(public_messages(fake, world.channel)) == boards + 1
                break
            asked += await lay_by_panel(world, panel, mover, play.card, play.pile) - 2
            assert panel.content.startswith(f"<@{mover.id}> laid {play.card} on {play.pile}")
            laid += 1
            await fake.wait_idle()
            state = saved_state(world)
            await the_game_board(world)
            if the_game.is_over(state):
                break
        figures.clicks.append((laid, len(fake.interactions) - clicks_before - asked))
        state = saved_state(world)
        await the_game_board(world)


async def test_a_whole_game_with_the_hand_panel_alone(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    async with world.bot(seed=THE_GAME_SEED):
        await open_game(world, members)
        meter = Meter(world, members)
        turns_begun: Counter[int] = Counter()
        figures = Figures()
        await play_by_panel(world, members, figures, turns_begun)
        state = saved_state(world)
        played = the_game_figures(meter, state)
        # Clicks only: no slash command after the start.
        assert all(rec.custom_id is not None for rec in meter.interactions())
        check_pings(meter, members, turns_begun)
        assert live_buttons(newest_board(world)) == END_SCREEN
        check_game_over_text(newest_board(world).content, state)
        assert all(len(fake.dms(m)) == 1 for m in members)
    figures = replace(played, clicks=figures.clicks)
    typical = [clicks for laid, clicks in figures.clicks if laid == 2]
    print(f"\nhand panel: {figures}")
    print(f"clicks per turn: {sum(c for _, c in figures.clicks) / len(figures.clicks):.2f}; typical: {typical}")
    assert figures.turns == 31  # the same game as by slash commands
    assert figures.boards == figures.turns
    assert all(count <= 3 for count in figures.dms.values())
    assert sum(figures.pings.values()) == figures.turns - 1
    assert typical
    # Two clicks a card (the card, then its pile), one to end the turn; one more to open the panel.
    assert all(clicks - 1 <= 5 for clicks in typical)
    assert max(typical) == 6


async def test_a_typical_turn_takes_at_most_five_clicks_from_the_ping(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    async with world.bot(seed=THE_GAME_SEED):
        await open_game(world, members)
        ana, ben = members[:2]
        state = saved_state(world)
        panel: Message | None = None
        # ana plays her first turn; ben opens his panel while she plays, and keeps it open for his turn.
        while the_game.current_player(state) in (None, ana.id):
            view = the_game.public_view(state)
            play = choose(the_game.hand(state, ana.id), tops_of(state), view.laid, 2)
            if play is None:
                await fake.invoke("endturn", user=ana, channel=world.channel)
            else:
                options = {"card": play.card, "pile": play.pile}
                await fake.invoke("play", user=ana, channel=world.channel, options=options)
            state = saved_state(world)
            if panel is None:
                opened = await fake.click(newest_board(world), label="My hand", user=ben)
                panel = opened.original
        assert panel is not None
        # No Refresh: the panel he keeps open comes to say it is his turn by itself.
        await fake.wait_for(lambda: "Your turn: 0 laid" in panel.content, what="ben's panel to show his turn")
        clicks = len(fake.interactions)
        asked = 0
        for laid in range(2):
            play = choose(the_game.hand(state, ben.id), tops_of(state), laid, 2)
            assert play is not None
            asked += await lay_by_panel(world, panel, ben, play.card, play.pile) - 2
            state = saved_state(world)
        await click_panel(world, panel, ben, "end")
        assert the_game.current_player(saved_state(world)) != ben.id
        assert len(fake.interactions) - clicks - asked <= 5


@pytest.mark.xfail(
    strict=True,
    reason="by design: /start by command answers with the first board, a message on top of one per turn (32 for "
    "the 31-turn game: 1.03 a turn); the lobby's Start button turns the lobby message itself into the board",
)
async def test_at_most_one_new_message_per_turn_counting_the_start(world: World) -> None:
    members = world.players[:3]
    async with world.bot(seed=THE_GAME_SEED):
        meter = Meter(world, members)
        await open_game(world, members)
        lobby = meter.new_messages()[0]
        assert lobby.embeds[0]["title"] == "The Game: lobby"
        ana = members[0]
        state = saved_state(world)
        # ana lays two cards and ends her turn: one turn, and the channel has a start board and a turn board.
        for _ in range(2):
            play = choose(the_game.hand(state, ana.id), tops_of(state), 0, 2)
            assert play is not None
            await world.fake.invoke(
                "play", user=ana, channel=world.channel, options={"card": play.card, "pile": play.pile}
            )
            state = saved_state(world)
        await world.fake.invoke("endturn", user=ana, channel=world.channel)
        await world.fake.wait_idle()
        boards = [m for m in meter.new_messages() if m is not lobby]
        turns = the_game.summary(saved_state(world)).turns
        assert turns == 1
        assert len(boards) / turns <= 1, [m.content[:50] for m in boards]


async def test_nobody_is_pinged_by_the_answer_to_their_own_action(world: World) -> None:
    ana, ben = world.players[:2]
    fake = world.fake
    async with world.bot(seed=THE_GAME_SEED):
        opened = await fake.invoke("newgame", user=ana, channel=world.channel)
        await fake.click(opened.original, label="Join", user=ben)
        started = await fake.click(opened.original, label="Start", user=ana)
        await fake.wait_idle()
        shown = await fake.invoke("board", user=world.spectator, channel=world.channel)
        pinged = {
            "newgame": [u.name for u in opened.original.pinged] if opened.original else None,
            "start": [u.name for m in started.followups for u in m.pinged],
            "board": [u.name for u in shown.original.pinged] if shown.original else None,
        }
        assert pinged == {"newgame": [], "start": [], "board": []}


# ---- No Thanks! ----------------------------------------------------------------------------------------------------


def takes(state: no_thanks.State, player: int) -> bool:
    """Whether the simple player takes the face-up card."""
    card = no_thanks.face_up_card(state)
    assert card is not None
    chips, on_card, last = (
        no_thanks.chips(state, player),
        no_thanks.chips_on_card(state),
        not no_thanks.cards_left(state),
    )
    return no_thanks_choice(card, on_card, chips, no_thanks.hand(state, player), last=last) == "take"


async def test_a_whole_no_thanks_game_by_board_buttons(world: World) -> None:
    members = world.players[:4]
    fake = world.fake
    by_id = {m.id: m for m in members}
    async with world.bot(seed=3):
        await open_game(world, members, "no_thanks")
        meter = Meter(world, members)
        state: no_thanks.State = saved_state(world)
        cycle_pings: Counter[int] = Counter()
        worst_cycle = 0
        taken = 0
        for member in members:
            assert latest_chips(fake, member) == no_thanks.chips(state, member.id)
        while not no_thanks.is_over(state):
            mover = no_thanks.current_player(state)
            assert mover is not None
            board = await no_thanks_board(world)
            boards = len(public_messages(fake, world.channel))
            take = takes(state, mover)
            rec = await fake.click(board, label="Take" if take else "No thanks!", user=by_id[mover])
            if take:
                await fake.wait_idle()
            new = public_messages(fake, world.channel)[boards:]
            if take:
                taken += 1
                # The clicked board shrinks to its line of the log (the card taken, and who said no thanks to it);
                # one new board below, which opens with that line.
                assert answer(rec).type == 7
                assert len(new) == 1
                assert not board.buttons
                assert not board.embeds
                *began, line = board.content.splitlines()
                assert len(began) == (taken == 1)  # the first board also says which game began, with whom
                assert f"<@{mover}> took " in line
                assert line.endswith(new[0].content.splitlines()[0])  # the end screen opens with the take alone
                for message in new:
                    cycle_pings.update(u.id for u in message.pinged)
                worst_cycle = max(worst_cycle, *cycle_pings.values(), 0)
                cycle_pings.clear()
            else:
                # A chip edits the clicked board in place, and pings nobody.
                assert answer(rec).type == 7
                assert new == []
            state = saved_state(world)
            if take:  # the newest DM shows the chips as they are
                for member in members:
                    assert latest_chips(fake, member) == no_thanks.chips(state, member.id)
        final = await no_thanks_board(world)
        assert "**Game over**. Scores (lowest wins):" in final.content
        dms = meter.new_dms()
        new_messages = len(meter.new_messages())
        pings = meter.pings()
        for message in meter.new_messages():
            assert meter.actor_of(message) not in {u.id for u in message.pinged}
    print(f"\nNo Thanks!: {taken} cards taken, {new_messages} new messages, pings {dict(pings)}, new DMs {dms}")
    assert taken == 24
    assert new_messages <= taken
    assert worst_cycle <= 1
    assert all(count <= 3 for count in dms.values())
    # The whole game: one DM per player, edited in place (the start's DM is before the meter).
    assert all(len(fake.dms(m)) <= 3 for m in members)


async def test_no_thanks_tells_the_player_to_move_once_a_turn_within_seconds(world: World) -> None:
    """A turn passed by a chip brings no new board: a short message pings the player to move if they have not acted
    after a few seconds (the real delay, measured once), and is deleted when they act. A turn begun by one's own
    take pings nobody (they just acted); nobody is pinged twice for one turn."""
    members = world.players[:3]
    fake = world.fake
    by_id = {m.id: m for m in members}
    async with world.bot(seed=3) as bot:
        await open_game(world, members, "no_thanks")
        meter = Meter(world, members)
        state: no_thanks.State = saved_state(world)
        turns_begun: Counter[int] = Counter()
        timed = False
        actor: int | None = None
        seen = {m.id for m in fake.channel_messages(world.channel, include_deleted=True)}
        began = time.monotonic()
        while not no_thanks.is_over(state):
            mover = no_thanks.current_player(state)
            assert mover is not None
            if mover != actor:
                turns_begun[mover] += 1

                def nudge(mover: int = mover, seen: set[int] = seen) -> Message | None:
                    return next(
                        (
                            m
                            for m in fake.channel_messages(world.channel)
                            if m.id not in seen and [u.id for u in m.pinged] == [mover]
                        ),
                        None,
                    )

                pinged = await fake.wait_for(nudge, 10, what="the player to move to be pinged")
                if not timed:
                    # The real delay once: learnt within 10 s; then faster, so the whole game stays quick.
                    assert time.monotonic() - began <= 10
                    timed = True
                    bot.tables.nudges.seconds = 0.05
                assert pinged.content == f"🔔 <@{mover}>, it's your turn."
            else:
                pinged = None
            board = await no_thanks_board(world)
            take = takes(state, mover)
            # What the next turn brings is new from here on.
            seen = {m.id for m in fake.channel_messages(world.channel, include_deleted=True)}
            began = time.monotonic()
            await fake.click(board, label="Take" if take else "No thanks!", user=by_id[mover])
            actor = mover if take else None
            await fake.wait_idle()
            if pinged is not None:
                await fake.wait_for(lambda pinged=pinged: pinged.deleted, what="the nudge to go")
            state = saved_state(world)
        posted = [m for m in fake.channel_messages(world.channel, include_deleted=True) if m.id not in meter.seen]
        pings = Counter(u.id for m in posted for u in m.pinged)  # the nudges' too, though they are gone now
        boards = meter.new_messages()
    print(f"\nNo Thanks! nudges: turns begun {sum(turns_begun.values())}, pings {sum(pings.values())}")
    assert pings == turns_begun  # once per turn begun by somebody else's move, and never more
    assert wrong_plurals(world) == []
    assert len(boards) == 24  # one board per card taken; every nudge is gone


async def test_no_thanks_panel_has_take_and_no_thanks_with_the_chips(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    async with world.bot(seed=3):
        await open_game(world, members, "no_thanks")
        state: no_thanks.State = saved_state(world)
        mover = next(m for m in members if m.id == no_thanks.current_player(state))
        other = next(m for m in members if m is not mover)
        shown = await fake.click(newest_board(world, "No Thanks!"), label="My cards and chips", user=mover)
        panel = shown.original
        assert panel is not None
        assert panel.ephemeral
        assert f"Your chips: {no_thanks.chips(state, mover.id)}" in panel.content
        assert "Face-up card:" in panel.content
        assert "Your turn." in panel.content
        assert live_buttons(panel) == ["Take", "No thanks!"]
        waiting = await fake.invoke("hand", user=other, channel=world.channel)
        assert answer(waiting).ephemeral
        assert f"<@{mover.id}> is deciding." in answer(waiting).content
        assert answer(waiting).message is not None
        assert not answer(waiting).message.buttons
        # The panel's No thanks! acts like the board's.
        await fake.click(panel, label="No thanks!", user=mover)
        await fake.wait_idle()
        after: no_thanks.State = saved_state(world)
        assert no_thanks.chips(after, mover.id) == no_thanks.chips(state, mover.id) - 1
        await no_thanks_board(world)


# ---- the newest board is the current position --------------------------------------------------------------------


async def test_talk_since_the_board_makes_the_next_change_repost_it_below(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    async with world.bot(seed=THE_GAME_SEED):
        await open_game(world, members)
        ana = members[0]
        state = saved_state(world)
        first = choose(the_game.hand(state, ana.id), tops_of(state), 0, 2)
        assert first is not None
        await fake.invoke("play", user=ana, channel=world.channel, options={"card": first.card, "pile": first.pile})
        await fake.wait_idle()
        old = await the_game_board(world)
        # Talk after the board: the next card goes up below it (an edit would log it above talk that came before it).
        for line in ("nice", "go on"):
            await fake.send_message(world.channel, members[1], line)
        state = saved_state(world)
        second = choose(the_game.hand(state, ana.id), tops_of(state), 1, 2)
        assert second is not None
        await fake.invoke("play", user=ana, channel=world.channel, options={"card": second.card, "pile": second.pile})
        await fake.wait_idle()
        board = await the_game_board(world)
        assert board is not old
        assert not old.buttons
        assert f"laid {first.card} on {first.pile}" in old.content
        assert f" {second.card} " not in old.content
        assert public_messages(fake, world.channel)[-1] is board
        assert board.pinged == []  # the mover's own card pings nobody
        # Without talk, the next change edits the board in place (End turn moves the table on: a new board).
        await fake.invoke("endturn", user=ana, channel=world.channel)
        await fake.wait_idle()
        again = await the_game_board(world)
        assert again is not board
        assert not board.buttons
        # /board also posts it at the bottom, and the old one loses its buttons.
        shown = await fake.invoke("board", user=world.spectator, channel=world.channel)
        await fake.wait_idle()
        assert shown.original is await the_game_board(world)
        assert not again.buttons


# ---- one lobby message ---------------------------------------------------------------------------------------------


def lobby_messages(world: World) -> list[Message]:
    return [m for m in world.fake.bot_messages(world.channel) if m.embeds and m.embeds[0]["title"].endswith(": lobby")]


def lobby_count(message: Message) -> tuple[int, list[int]]:
    field_ = next(f for f in message.embeds[0]["fields"] if f["name"].startswith("Players"))
    match = re.fullmatch(r"Players \((\d+)/\d+\)", field_["name"])
    assert match, field_
    return int(match[1]), [int(p) for p in re.findall(r"<@(\d+)>", field_["value"])]


async def test_one_lobby_message_kept_current_by_commands_and_buttons(world: World) -> None:
    ana, ben, cy, dee = world.players[:4]
    fake = world.fake
    async with world.bot(seed=1):
        opened = await fake.invoke("newgame", user=ana, channel=world.channel)
        lobby = opened.original
        assert lobby is not None

        async def check(players: list[Member]) -> None:
            await fake.wait_idle()
            assert lobby_messages(world) == [lobby]
            assert lobby_count(lobby) == (len(players), [p.id for p in players])
            assert live_buttons(lobby)[:3] == ["Join", "Leave", "Start"]

        joined = await fake.invoke("join", user=ben, channel=world.channel)
        assert answer(joined).ephemeral
        assert "The lobby above is up to date." in answer(joined).content
        await check([ana, ben])
        clicked = await fake.click(lobby, label="Join", user=cy)
        assert answer(clicked).type == 7  # edited in place
        await check([ana, ben, cy])
        await fake.invoke("leave", user=ben, channel=world.channel)
        await check([ana, cy])
        assert lobby.content == f"{ben.mention} left."
        await fake.click(lobby, label="Leave", user=cy)
        await check([ana])
        await fake.invoke("join", user=dee, channel=world.channel)
        await fake.click(lobby, label="Join", user=ben)
        await check([ana, dee, ben])
        refused = await fake.invoke("join", user=dee, channel=world.channel)
        assert answer(refused).ephemeral
        assert answer(refused).content == "You're already in this game."
        await check([ana, dee, ben])
        # Start on the one lobby message works and shows the right count.
        started = await fake.click(lobby, label="Start", user=ana)
        await fake.wait_idle()
        assert answer(started).type == 7
        # Start pressed on the lobby turns the lobby message itself into the first board: no new message.
        assert lobby.content.startswith("The Game begins")
        last_lobby = lobby.history[-2]  # the lobby as it was when Start was pressed
        players = next(f for f in last_lobby.embeds[0]["fields"] if f["name"].startswith("Players"))
        assert players["name"] == "Players (3/5)"
        assert re.findall(r"<@(\d+)>", players["value"]) == [str(ana.id), str(dee.id), str(ben.id)]
        board = await the_game_board(world)
        assert board is lobby
        assert set(saved_state(world).players) == {ana.id, dee.id, ben.id}
        assert public_messages(fake, world.channel) == [lobby]


# ---- the end of a game -------------------------------------------------------------------------------------------


async def play_to_the_end_by_commands(world: World, members: list[Member]) -> None:
    by_id = {m.id: m for m in members}
    state = saved_state(world)
    while not the_game.is_over(state):
        mover = by_id[the_game.current_player(state) or members[0].id]
        view = the_game.public_view(state)
        play = choose(the_game.hand(state, mover.id), tops_of(state), view.laid, view.minimum or 1)
        if play is None:
            await world.fake.invoke("endturn", user=mover, channel=world.channel)
        else:
            options = {"card": play.card, "pile": play.pile}
            await world.fake.invoke("play", user=mover, channel=world.channel, options=options)
        state = saved_state(world)
    await world.fake.wait_idle()


async def test_game_over_board_result_rematch_and_a_new_deal_in_two_clicks(world: World) -> None:
    ana, ben = world.players[:2]
    fake = world.fake
    async with world.bot(seed=297):
        await open_game(world, [ana, ben], expert=True)
        first_id = saved_game(world)[0]["id"]  # type: ignore[index]
        await play_to_the_end_by_commands(world, [ana, ben])
        state = saved_state(world)
        assert state.status == "lost"
        final = await the_game_board(world)
        check_game_over_text(final.content, state)
        assert live_buttons(final) == END_SCREEN
        # Every earlier message of the game is without buttons.
        assert [m for m in fake.bot_messages(world.channel) if m.buttons] == [final]
        assert not any(m.buttons for m in public_messages(fake, world.channel) if m is not final)
        # /board after the end shows the result, not "no game here".
        shown = await fake.invoke("board", user=world.spectator, channel=world.channel)
        assert not answer(shown).ephemeral
        assert shown.original is not None
        check_game_over_text(shown.original.content, state)
        assert live_buttons(shown.original) == END_SCREEN
        # The copy is the channel's newest end screen: the one it replaces keeps only its Replay.
        await fake.wait_for(lambda: live_buttons(final) == ["Replay"], what="the older end screen to lose Rematch")
        final = shown.original
        # /hand after the end still refuses plainly.
        hand = await fake.invoke("hand", user=ana, channel=world.channel)
        assert answer(hand).ephemeral
        # A spectator can't ask for a rematch of a game they did not play.
        refused = await fake.click(final, label="Rematch", user=world.spectator)
        assert answer(refused).ephemeral
        assert answer(refused).content.startswith("Only the players of that game can ask for a rematch")
        # Rematch (click one) by ben: a lobby with the same players and options, ben hosting.
        rematch = await fake.click(final, label="Rematch", user=ben)
        assert not answer(rematch).ephemeral
        lobby = rematch.original
        assert lobby is not None
        assert lobby_count(lobby) == (2, [ben.id, ana.id])
        assert "expert" in lobby.embeds[0]["fields"][0]["value"]
        row, _ = saved_game(world)  # type: ignore[misc]
        assert row["id"] != first_id
        assert row["status"] == "lobby"
        # Start (click two): a new game is dealt.
        await fake.click(lobby, label="Start", user=ben)
        await fake.wait_idle()
        row, new_state = saved_game(world)  # type: ignore[misc]
        assert row["status"] == "running"
        assert set(new_state.players) == {ana.id, ben.id}
        assert new_state.expert
        board = await the_game_board(world)
        assert live_buttons(board)[0] == "My hand"
        # The old final board's Rematch is refused now that a game is open.
        again = await fake.click(final, label="Rematch", user=ana)
        assert answer(again).ephemeral


async def test_an_abandoned_game_says_so_plainly(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    async with world.bot(seed=THE_GAME_SEED):
        await open_game(world, members)
        for member in members:
            rec = await fake.invoke("leave", user=member, channel=world.channel)
            assert not answer(rec).ephemeral or member is not members[-1]
            await fake.wait_idle()
        state = saved_state(world)
        assert state.status == "abandoned"
        final = newest_board(world)
        text = final.content + "\n" + (final.embeds[0].get("footer") or {}).get("text", "")
        assert "abandoned" in text
        assert "no score" in text
        assert "None" not in text
        assert "cards not laid" not in text
        assert final.embeds[0]["footer"]["text"] == "Game over: abandoned, no score."
        assert live_buttons(final) == END_SCREEN
        shown = await fake.invoke("board", user=world.spectator, channel=world.channel)
        assert not answer(shown).ephemeral
        assert shown.original is not None
        assert "abandoned" in shown.original.content
        # A game ended with /endgame: /board says it ended early.
        await open_game(world, members)
        await fake.invoke("endgame", user=members[0], channel=world.channel)
        # Asked by another member: the spectator's own /board a moment ago is still cooling down.
        shown = await fake.invoke("board", user=members[1], channel=world.channel)
        assert not answer(shown).ephemeral
        assert shown.original is not None
        assert "ended early" in shown.original.content
        assert "None" not in shown.original.content
        assert "not laid" not in shown.original.content
