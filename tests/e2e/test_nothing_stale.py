"""Issue 38, "Nothing stale" and "never two live boards", end to end through the fake Discord.

Five whole seeded games in one channel, each ending another way (the last card, /endgame, a vote, everyone leaving, a
normal No Thanks! end), at 3, 4 and 5 players, in English and German. Within 5 s of each end, every message the fake
holds for the channel, the players' DMs and their private panels is scanned: a message of a finished game *looks
live* when it carries an enabled button (other than an end screen's Replay, and the newest end screen's Rematch), a
board (an embed) that is no end screen, a deadline (Discord's relative timestamp, ``<t:...:R>``) or a nudge (🔔).
Meanwhile, at every request the bot makes, the channel's messages with live game buttons (anything but Rematch and
Replay) are counted: never two, not even for a moment.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from engine import no_thanks, the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import open_game
from tests.e2e.test_table import play_to_the_end_by_commands
from tests.fake_discord import Member, Message, RequestRecord
from tests.players import public_messages, saved_game, saved_state

DEADLINE = re.compile(r"<t:\d+:R>")
END_BUTTONS = ("rematch:", "replay:")


def enabled(message: Message) -> list[str]:
    return [str(b.get("custom_id", "")) for b in message.buttons if not b.get("disabled")]


def game_buttons(message: Message) -> list[str]:
    """The live buttons that act on a running game or a lobby."""
    return [c for c in enabled(message) if not c.startswith(END_BUTTONS)]


def newest_end_screen(world: World) -> int | None:
    saved = saved_game(world)
    return int(saved[0]["message_id"]) if saved is not None and saved[0]["message_id"] is not None else None


def lobby(message: Message) -> bool:
    """A lobby's message, kept as it was when its game started ("The game has started.", who sat down)."""
    first = message.history[0]
    was_lobby = any(
        str(c.get("custom_id", "")).startswith("lobby:") for row in first.components for c in row.get("components", [])
    )
    return was_lobby and [e.get("title") for e in first.embeds] == [e.get("title") for e in message.embeds]


def looks_live(message: Message, newest_end: int | None) -> str | None:
    """Why ``message`` (of a finished game) still reads live, or None."""
    end_screen = any(c.startswith("replay:") for c in enabled(message))
    if game_buttons(message):
        return "live game buttons"
    if any(c.startswith("rematch:") for c in enabled(message)) and message.id != newest_end:
        return "a second live Rematch"
    if message.embeds and not end_screen and not message.ephemeral and not lobby(message):
        return "a board"
    if DEADLINE.search(message.content):
        return "a deadline"
    if message.content.startswith("🔔"):
        return "a nudge"
    return None


def everything(world: World, members: list[Member]) -> Iterator[Message]:
    fake = world.fake
    yield from public_messages(fake, world.channel)
    for member in members:
        yield from fake.dms(member)
        yield from fake.ephemeral_messages(member)


def live_looking(world: World, members: list[Member]) -> list[tuple[str, Message]]:
    newest = newest_end_screen(world)
    found = [(looks_live(m, newest), m) for m in everything(world, members)]
    return [(why, m) for why, m in found if why is not None]


async def nothing_stale(world: World, members: list[Member]) -> None:
    """Within 5 s of an end, nothing of a finished game reads live."""
    await world.fake.wait_for(lambda: not live_looking(world, members), timeout=5, what="every message to shrink")


async def open_panels(world: World, members: list[Member], hand: str) -> None:
    """Each player opens their private panel from the board (``hand``: its button's custom id)."""
    for member in members:
        board = next(m for m in reversed(public_messages(world.fake, world.channel)) if hand in enabled(m))
        await world.fake.click(board, hand, user=member)
    await world.fake.wait_idle()


async def play_a_few(world: World, members: list[Member], cards: int) -> None:
    by_id = {m.id: m for m in members}
    for _ in range(cards):
        state: the_game.State = saved_state(world)
        mover = by_id[the_game.current_player(state) or members[0].id]
        view = the_game.public_view(state)
        plays = [
            (c, p.name)
            for c in the_game.hand(state, mover.id)
            for p in view.piles
            if the_game.is_legal(p.name, p.top, c)
        ]
        if view.laid >= (view.minimum or 1) or not plays:
            await world.fake.invoke("endturn", user=mover, channel=world.channel)
        else:
            card, pile = plays[0]
            await world.fake.invoke("play", user=mover, channel=world.channel, options={"card": card, "pile": pile})
    await world.fake.wait_idle()


def said(world: World, mark: str) -> list[Message]:
    return [m for m in public_messages(world.fake, world.channel) if m.content.startswith(mark)]


async def the_last_card(world: World, members: list[Member]) -> None:
    await open_game(world, members)
    await open_panels(world, members, "the_game:hand")
    await play_to_the_end_by_commands(world, members)
    assert the_game.is_over(saved_state(world))


async def ended_by_endgame(world: World, members: list[Member]) -> None:
    """/endgame while panels are open, a nudge may be waiting and the clock's reminder is on show."""
    bot = world.bots[-1]
    bot.tables.clock.scale = 0.2  # 30 s: the reminder after 4 s, the deadline after 6 s
    await open_game(world, members, turn_time="30 seconds")
    await open_panels(world, members, "the_game:hand")
    await play_a_few(world, members, 3)
    await world.fake.wait_for(lambda: said(world, "⏰"), timeout=10, what="the clock's reminder")
    bot.tables.clock.scale = 10.0
    await world.fake.invoke("endgame", user=members[0], channel=world.channel)
    assert saved_game(world)[0]["status"] == "abandoned"  # type: ignore[index]


async def ended_by_a_vote(world: World, members: list[Member]) -> None:
    """No Thanks! at three: the first mover misses a turn, the two others vote them out, and two seats end it."""
    fake, bot = world.fake, world.bots[-1]
    bot.tables.clock.scale = 0.02
    await open_game(world, members, game="no_thanks", turn_time="30 seconds")
    away = no_thanks.current_player(saved_state(world))
    await fake.wait_for(lambda: said(world, "⏰"), timeout=5, what="a missed turn")
    await fake.wait_for(lambda: saved_state(world).move_count > 0, timeout=5, what="the autopilot's move")
    bot.tables.clock.scale = 10.0
    for _ in range(30):
        state: no_thanks.State = saved_state(world)
        mover = no_thanks.current_player(state)
        if mover == away:
            break
        member = next(m for m in members if m.id == mover)
        await fake.invoke("nothanks" if no_thanks.chips(state, mover) else "take", user=member, channel=world.channel)
        await fake.wait_idle()
    vote = f"vote:{saved_game(world)[0]['id']}:remove:{away}"  # type: ignore[index]
    board = next(m for m in reversed(public_messages(fake, world.channel)) if vote in enabled(m))
    for voter in [m for m in members if m.id != away]:
        await fake.click(board, vote, user=voter)
    await fake.wait_idle()
    assert saved_game(world)[0]["status"] == "abandoned"  # type: ignore[index]


async def everyone_leaves(world: World, members: list[Member]) -> None:
    await open_game(world, members)
    await open_panels(world, members, "the_game:hand")
    await play_a_few(world, members, 4)
    for member in members:
        await world.fake.invoke("leave", user=member, channel=world.channel)
        await world.fake.wait_idle()
    assert saved_game(world)[0]["status"] == "abandoned"  # type: ignore[index]


async def no_thanks_to_the_end(world: World, members: list[Member]) -> None:
    await open_game(world, members, game="no_thanks")
    await open_panels(world, members, "no_thanks:hand")
    state: no_thanks.State = saved_state(world)
    while not no_thanks.is_over(state):
        mover = next(m for m in members if m.id == no_thanks.current_player(state))
        # Pass while a chip is left and the card is cheap to leave, else take: a game of both.
        verb = "nothanks" if no_thanks.chips(state, mover.id) > 2 else "take"
        await world.fake.invoke(verb, user=mover, channel=world.channel)
        state = saved_state(world)
    await world.fake.wait_idle()


ENDINGS = (
    ("the last card", the_last_card, 3),
    ("/endgame", ended_by_endgame, 4),
    ("a vote", ended_by_a_vote, 3),
    ("everyone leaving", everyone_leaves, 5),
    ("No Thanks! to the end", no_thanks_to_the_end, 5),
)


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_five_endings_leave_nothing_live_and_never_two_live_boards(world: World, locale: str) -> None:
    world.guild.preferred_locale = locale
    for member in world.players:
        world.fake.users[member.id].locale = locale
    everybody = world.players
    most_live_boards = 0

    def count_live_boards(_request: RequestRecord) -> None:
        nonlocal most_live_boards
        live = [m for m in world.fake.channel_messages(world.channel) if game_buttons(m)]
        most_live_boards = max(most_live_boards, len(live))

    world.fake.add_request_listener(count_live_boards)
    stale: dict[str, int] = {}
    async with world.bot(seed=38):
        for turn, (name, ending, count) in enumerate(ENDINGS):
            # Someone else hosts each game (/newgame allows a member three games a minute).
            await ending(world, (world.players[turn:] + world.players[:turn])[:count])
            with contextlib.suppress(TimeoutError):
                await nothing_stale(world, everybody)
            left = live_looking(world, everybody)
            stale[name] = len(left)
            assert not left, (name, left)
    print(
        f"\n{locale}: live-looking messages of finished games after each end: {stale}; "
        f"most live boards at once {most_live_boards}"
    )
    assert sum(stale.values()) == 0
    assert most_live_boards == 1


def first_telling(world: World, words: str) -> int:
    """The position in the channel of the first message whose text (as it reads now) tells ``words``."""
    return next(i for i, m in enumerate(public_messages(world.fake, world.channel)) if words in m.content)


async def test_chat_and_cards_stay_in_the_order_they_happened(world: World) -> None:
    """Cards laid before talk are logged above it, cards and the end of the turn after it below it, whatever the
    board shrank to meanwhile."""
    members = world.players[:3]
    fake = world.fake
    async with world.bot(seed=38):
        await open_game(world, members)
        state: the_game.State = saved_state(world)
        ana = next(m for m in members if m.id == (the_game.current_player(state) or members[0].id))
        laid: list[int] = []
        for talk in ("before the first card", "between the cards", "before the end of the turn"):
            await fake.send_message(world.channel, members[1], talk)
            state = saved_state(world)
            view = the_game.public_view(state)
            if len(laid) == 2:
                await fake.invoke("endturn", user=ana, channel=world.channel)
                break
            card, pile = next(
                (c, p.name)
                for c in the_game.hand(state, ana.id)
                for p in view.piles
                if the_game.is_legal(p.name, p.top, c)
            )
            await fake.invoke("play", user=ana, channel=world.channel, options={"card": card, "pile": pile})
            laid.append(card)
        await fake.wait_idle()
        talk = [first_telling(world, words) for words in ("before the first", "between the cards", "before the end")]
        cards = [first_telling(world, f"laid {card} on") for card in laid]
        ended = first_telling(world, "and drew 2 cards")  # the new board's line: the turn ended
        assert talk[0] < cards[0] < talk[1] < cards[1] < talk[2] < ended, (talk, cards, ended)
        # Only the newest board is live.
        assert [m for m in fake.channel_messages(world.channel) if game_buttons(m)] == [
            public_messages(fake, world.channel)[-1]
        ]


async def test_a_reminder_shrinks_to_a_line_once_its_turn_is_over(world: World) -> None:
    members = world.players[:3]
    async with world.bot(seed=38) as bot:
        bot.tables.clock.scale = 0.2  # 30 s: the reminder after 4 s, the deadline after 6 s
        await open_game(world, members, turn_time="30 seconds")
        await play_a_few(world, members, 1)  # the first card: the first mover's turn is timed
        reminder = (await world.fake.wait_for(lambda: said(world, "⏰"), timeout=10, what="the reminder"))[0]
        assert DEADLINE.search(reminder.content)
        bot.tables.clock.scale = 10.0
        mover = next(m for m in members if m.mention in reminder.content)
        while the_game.current_player(saved_state(world)) == mover.id:
            await play_a_few(world, members, 1)
        await world.fake.wait_for(
            lambda: not DEADLINE.search(reminder.content), timeout=5, what="the reminder to shrink"
        )
        assert reminder.content == f"⏰ {mover.mention} was reminded that their turn was running out."
