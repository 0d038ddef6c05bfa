"""Issue 38, "5 clicks on every turn, on a phone too": the hand in the player's DM is a panel, played from there.

Whole seeded games are played from the DMs alone, at 3, 4 and 5 players, in English and German: card, pile, card,
pile, End turn, each click answered by the DM updating itself in place. At every turn's start the hand is the newest
message of the mover's DM conversation; out of turn a card shows its piles, disabled, and nothing is refused; once the
game is over no DM keeps a live button. What the DMs cost is counted against a game played from the channel's panel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import newest_board, open_game, panel_button
from tests.fake_discord import InvalidInteraction, Member, Message, RequestRecord
from tests.players import answer, choose, saved_state, tops_of

HAND = {"en-US": "Your hand:", "de": "Deine Hand:"}
SEEDS = {3: 10, 4: 10, 5: 10}


@dataclass(frozen=True)
class Turn:
    player: int
    laid: int
    clicks: int  # every click of the turn, the confirming ones included
    asked: int  # confirming clicks ("Lay it anyway")
    ended: bool  # the game ended in this turn, before End turn


def dm_buttons(message: Message) -> dict[str, dict[str, object]]:
    """The DM panel's live buttons by custom id."""
    return {
        str(b["custom_id"]): b
        for b in message.buttons
        if str(b.get("custom_id", "")).startswith("tg:") and not b.get("disabled")
    }


def hand_dm(world: World, member: Member, locale: str) -> Message:
    """The member's DM hand: the newest message of their DM conversation, which must be it."""
    dms = world.fake.dms(member)
    assert dms, member.name
    newest = dms[-1]
    assert newest.content.startswith(HAND[locale]), (member.name, newest.content)
    return newest


async def click(world: World, dm: Message, member: Member, verb: str, a: object = "", b: object = "") -> None:
    """Click a DM panel button: answered by the DM updating itself in place, never by a refusal."""
    rec = await world.fake.click(dm, str(panel_button(dm, verb, a, b)["custom_id"]), user=member)
    response = answer(rec)
    assert response.type == 7, (response.type, response.content)
    assert response.message is dm


async def lay(world: World, dm: Message, member: Member, card: int, pile: str) -> int:
    """Lay ``card`` on ``pile`` from the DM: card, pile, and "Lay it anyway" where the guard asks; the clicks taken."""
    await click(world, dm, member, "card", card)
    await click(world, dm, member, "pile", card, pile)
    if any(str(b.get("custom_id", "")).split(":")[2:3] == ["lay"] for b in dm.buttons):
        await click(world, dm, member, "lay", card, pile)
        return 3
    return 2


async def look_out_of_turn(world: World, member: Member, locale: str) -> None:
    """Out of turn a card opens its piles, every one disabled, Back returns to the hand, and End turn says the turn
    is not theirs yet: nothing refused, nothing changed."""
    state = saved_state(world)
    dm = hand_dm(world, member, locale)
    card = the_game.hand(state, member.id)[0]
    await click(world, dm, member, "card", card)
    assert all(panel_button(dm, "pile", card, p).get("disabled") for p in the_game.PILES), dm.content
    await click(world, dm, member, "page", "main")
    assert dm.content.startswith(HAND[locale])
    # End turn out of turn: the DM says so in place (it cannot know whose turn it is without an edit per move).
    await click(world, dm, member, "end")
    assert dm.content.startswith(HAND[locale])
    assert len(dm.content.splitlines()) == 2
    assert saved_state(world) == state


def dm_requests(world: World, requests: list[RequestRecord]) -> int:
    """Requests against the bot's global rate limit that open or touch a DM."""
    dms = {c.id for c in world.fake.channels.values() if c.is_dm}
    return sum(
        1
        for r in requests
        if not r.interaction_endpoint
        and (r.path.endswith("/users/@me/channels") or int(r.params.get("channel_id", 0) or 0) in dms)
    )


async def dm_game(world: World, members: list[Member], locale: str) -> list[Turn]:
    """Play the channel's game to its end from the DMs alone."""
    fake = world.fake
    by_id = {m.id: m for m in members}
    turns: list[Turn] = []
    state = saved_state(world)
    while not the_game.is_over(state):
        mover = by_id[the_game.current_player(state) or members[0].id]
        await fake.wait_idle()
        dm = hand_dm(world, mover, locale)  # the newest message of the conversation: 0 lines below it
        assert dm_buttons(dm), dm.content
        onlooker = next(m for m in members if m.id != mover.id)
        if the_game.current_player(state) is not None and len(turns) % 4 == 1:
            await look_out_of_turn(world, onlooker, locale)
        clicks = asked = laid = 0
        while True:
            view = the_game.public_view(state)
            play = choose(the_game.hand(state, mover.id), tops_of(state), view.laid, view.minimum or 1)
            if play is None:
                await click(world, dm, mover, "end")
                clicks += 1
                break
            used = await lay(world, dm, mover, play.card, play.pile)
            clicks, asked, laid = clicks + used, asked + used - 2, laid + 1
            state = saved_state(world)
            assert dm.content.startswith(HAND[locale])
            shown = [int(card) for card in re.findall(r"[0-9]+", dm.content.splitlines()[0])]
            assert shown == list(the_game.hand(state, mover.id)), dm.content  # the answer shows the hand as it is
            if the_game.is_over(state):
                break
        turns.append(Turn(mover.id, laid, clicks, asked, the_game.is_over(state)))
        state = saved_state(world)
    return turns


@pytest.mark.parametrize(("count", "locale"), [(3, "en-US"), (4, "de"), (5, "en-US"), (3, "de")])
async def test_a_two_card_turn_takes_five_clicks_from_the_dm(world: World, count: int, locale: str) -> None:
    members = world.players[:count]
    world.guild.preferred_locale = locale
    for member in members:
        world.fake.users[member.id].locale = locale
    requests: list[RequestRecord] = []
    async with world.bot(seed=SEEDS[count]):
        world.fake.add_request_listener(requests.append)
        await open_game(world, members)
        assert "DM" in newest_board(world).content or locale != "en-US"
        turns = await dm_game(world, members, locale)
        await world.fake.wait_idle()
        moves = len(turns) + sum(t.laid for t in turns)
        # Within 5 s of the end, a finished game's DMs are inert.
        await world.fake.wait_for(
            lambda: not any(dm_buttons(m) for member in members for m in world.fake.dms(member)),
            timeout=5,
            what="every DM to lose its buttons",
        )
    two = [t for t in turns if t.laid == 2 and not t.ended]
    print(
        f"\n{count} players, {locale}: {len(turns)} turns, 2-card turns {len(two)}, clicks "
        f"{sorted({t.clicks for t in two})} ({sum(t.asked for t in turns)} confirming); DM requests "
        f"{dm_requests(world, requests)} for about {moves} moves"
    )
    assert len(two) >= 5
    assert turns[0].laid >= 2
    # Card, pile, card, pile, End turn, first turn included; one more click for each risky card confirmed.
    assert all(t.clicks - t.asked <= 5 for t in two)
    assert all(t.clicks - t.asked == 2 * t.laid + 1 for t in turns if not t.ended)


async def test_playing_from_the_dm_costs_no_more_dm_requests_than_the_channel_panel(world: World) -> None:
    """The same seeded game, played from the channel's kept panel, then from the DMs: the DM answers are
    interaction responses (free), so the DM requests against the global limit do not grow."""
    from tests.e2e.test_panels import panel_game  # the channel's kept panel, as issue 22 plays it

    members = world.players[:3]
    counted: dict[str, float] = {}
    limited: dict[str, float] = {}
    for way in ("channel", "dm"):
        requests: list[RequestRecord] = []
        async with world.bot(seed=SEEDS[3]):
            world.fake.add_request_listener(requests.append)
            await open_game(world, members)
            turns = await (panel_game(world, members) if way == "channel" else dm_game(world, members, "en-US"))
            await world.fake.wait_idle()
            world.fake.remove_request_listener(requests.append)
        moves = len(turns) + sum(t.laid for t in turns)
        counted[way] = dm_requests(world, requests) / moves
        limited[way] = sum(not r.interaction_endpoint for r in requests) / moves
    print(
        f"\nDM requests per move: from the channel's panel {counted['channel']:.3f}, from the DM {counted['dm']:.3f}; "
        f"all globally limited requests per move: {limited['channel']:.3f} and {limited['dm']:.3f}"
    )
    assert counted["dm"] <= counted["channel"] * 1.05


async def test_a_buried_hand_is_posted_anew_when_its_turn_begins(world: World) -> None:
    """ben plays at two tables: the second deal's DM buries his first hand; when his turn begins at the first table,
    that hand goes up anew below it (the old one deleted after), and only then."""
    fake = world.fake
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=SEEDS[3]):
        await open_game(world, [ana, ben, cy])
        first = hand_dm(world, ben, "en-US")
        await fake.invoke("newgame", user=ben, channel=world.other_channel, options={"game": "the_game"})
        await fake.invoke("join", user=cy, channel=world.other_channel)
        await fake.invoke("start", user=ben, channel=world.other_channel)
        await fake.wait_for(lambda: fake.dms(ben)[-1] is not first, what="the second table's hand")
        await fake.wait_idle()
        assert len(fake.dms(ben)) == 2
        state = saved_state(world)
        by_id = {m.id: m for m in (ana, ben, cy)}
        while the_game.current_player(state) != ben.id:
            mover = by_id[the_game.current_player(state) or ana.id]
            dm = hand_dm(world, mover, "en-US") if mover is not ben else first
            view = the_game.public_view(state)
            play = choose(the_game.hand(state, mover.id), tops_of(state), view.laid, view.minimum or 1)
            if play is None:
                await click(world, dm, mover, "end")
            else:
                await lay(world, dm, mover, play.card, play.pile)
            state = saved_state(world)
        await fake.wait_idle()
        newest = hand_dm(world, ben, "en-US")
        assert newest is not first
        assert dm_buttons(newest)
        assert first.deleted
        assert [hand for hand in fake.dms(ben) if dm_buttons(hand)] == [fake.dms(ben)[0], newest]


async def test_a_player_with_closed_dms_plays_from_the_channel_panel(world: World) -> None:
    fake = world.fake
    members = world.players[:3]
    shy = members[1]
    fake.close_dms(shy)
    async with world.bot(seed=SEEDS[3]):
        await fake.invoke("newgame", user=members[0], channel=world.channel, options={"game": "the_game"})
        for member in members[1:]:
            await fake.invoke("join", user=member, channel=world.channel)
        await fake.invoke("start", user=members[0], channel=world.channel)
        await fake.wait_for(lambda: all(fake.dms(m) for m in members if m is not shy), what="the open DMs' hands")
        await fake.wait_idle()
        by_id = {m.id: m for m in members}
        state = saved_state(world)
        panel: Message | None = None
        for _turn in range(9):
            mover = by_id[the_game.current_player(state) or members[0].id]
            view = the_game.public_view(state)
            play = choose(the_game.hand(state, mover.id), tops_of(state), view.laid, view.minimum or 1)
            if mover is shy:
                if panel is None:
                    panel = (await fake.click(newest_board(world), label="My hand", user=shy)).original
                    assert panel is not None
                dm = panel
            else:
                dm = hand_dm(world, mover, "en-US")
            if play is None:
                await click(world, dm, mover, "end")
            else:
                await lay(world, dm, mover, play.card, play.pile)
            state = saved_state(world)
        assert not fake.dms(shy)
        assert panel is not None


async def test_a_dm_of_an_earlier_game_or_of_someone_not_seated_is_answered_privately(world: World) -> None:
    """A DM has no guild: the game comes from the button's custom id, and whoever clicks is checked against it (the
    buttons are made here as an older bot, or a DM that lost a race with the end, would have left them)."""
    fake = world.fake
    members = world.players[:3]
    async with world.bot(seed=SEEDS[3]):
        await open_game(world, members)
        game = str(next(iter(dm_buttons(hand_dm(world, members[0], "en-US"))))).split(":")[1]
        card = {"type": 2, "style": 1, "label": "5", "custom_id": f"tg:{game}:card:5:"}

        async def click_fabricated(who: Member) -> str:
            row = {"type": 1, "components": [card]}
            dm = fake.add_bot_message(fake.dm_channel(who), "Your hand: 5", components=[row])
            response = answer(await fake.click(dm, str(card["custom_id"]), user=who))
            assert response.ephemeral
            return str(response.content)

        assert await click_fabricated(world.spectator) == "You're not playing in that game."
        # As on Discord, only the DM's recipient can click in it, and the interaction has no guild, only a user.
        with pytest.raises(InvalidInteraction):
            await fake.click(hand_dm(world, members[0], "en-US"), f"tg:{game}:end::", user=members[1])
        rec = await fake.click(hand_dm(world, members[0], "en-US"), f"tg:{game}:page:signals:", user=members[0])
        assert "guild_id" not in rec.payload
        assert "member" not in rec.payload
        assert rec.payload["user"]["id"] == str(members[0].id)
        await fake.invoke("endgame", user=members[0], channel=world.channel)
        await fake.wait_for(
            lambda: not any(dm_buttons(m) for member in members for m in fake.dms(member)),
            timeout=5,
            what="the ended game's DMs to lose their buttons",
        )
        assert await click_fabricated(members[0]) == "That game is over: its buttons no longer do anything."


async def test_the_dm_panel_works_after_a_restart(world: World) -> None:
    """Its buttons name their game, so a restarted bot answers them; the DMs it finds as they should be stay as
    they are (at most one edit each, to drop a line of what the player last did)."""
    fake = world.fake
    members = world.players[:3]
    by_id = {m.id: m for m in members}

    async def play_a_turn() -> None:
        state = saved_state(world)
        mover = by_id[the_game.current_player(state) or members[0].id]
        dm = hand_dm(world, mover, "en-US")
        while True:
            view = the_game.public_view(state)
            play = choose(the_game.hand(state, mover.id), tops_of(state), view.laid, view.minimum or 1)
            if play is None:
                await click(world, dm, mover, "end")
                return
            await lay(world, dm, mover, play.card, play.pile)
            state = saved_state(world)

    async with world.bot(seed=SEEDS[3]):
        await open_game(world, members)
        await play_a_turn()
        await fake.wait_idle()
    requests: list[RequestRecord] = []
    async with world.bot(seed=SEEDS[3]):
        fake.add_request_listener(requests.append)
        await play_a_turn()
        await play_a_turn()
        await fake.wait_idle()
    assert dm_requests(world, requests) <= len(members)
