"""Issue 36, failed requests bounded, privately: a player whose DMs are closed is told so once, in a private answer to
their own next action, however many moves of others came first; nothing in the channel names them, and the whole
game costs one refused request for that player (Discord bans an address after 10,000 of them in 10 minutes)."""

from __future__ import annotations

import functools

from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.test_discord_limits import committed, play_through, refused, refused_metric, traffic
from tests.fake_discord import FakeDiscord, InteractionRecord, Member, Message
from tests.players import CLOSED_DMS, choose, public_messages, saved_state, tops_of


def notices(fake: FakeDiscord, member: Member) -> list[Message]:
    """Every private message to ``member`` telling them their DMs are closed."""
    return [m for m in fake.ephemeral_messages(member) if CLOSED_DMS in m.content]


async def move(world: World, member: Member) -> InteractionRecord:
    """``member`` makes one move of the running game by command (a card, else End turn), committed when it returns;
    the interaction."""
    state = saved_state(world)
    view = the_game.public_view(state)
    play = choose(the_game.hand(state, member.id), tops_of(state), view.laid, view.minimum)
    if play is None:
        rec = await world.fake.invoke("endturn", user=member, channel=world.channel)
    else:
        options = {"card": play.card, "pile": play.pile}
        rec = await world.fake.invoke("play", user=member, channel=world.channel, options=options)
    await world.fake.wait_for(functools.partial(committed, world, state.move_count), what="the move's commit")
    return rec


async def test_closed_dms_are_told_once_in_the_players_own_next_answer_and_never_in_the_channel(
    world: World,
) -> None:
    fake = world.fake
    ana, cy, ben = world.players[:3]  # seats in joining order: ben moves third
    route = "POST /channels/{id}/messages"
    counted = refused_metric(route)
    fake.close_dms(ben)
    async with world.bot(seed=109):
        await fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "the_game"})
        for member in (cy, ben):
            await fake.invoke("join", user=member, channel=world.channel)
        await fake.invoke("start", user=ana, channel=world.channel)
        await fake.wait_for(lambda: bool(fake.dms(ana) and fake.dms(cy)), what="the others' first DMs")
        # The others act first, several times: each move of theirs is answered to them alone, and nobody is told
        # anything about ben's DMs, neither the channel nor they.
        while the_game.current_player(saved_state(world)) != ben.id:
            mover = the_game.current_player(saved_state(world))
            await move(world, ana if mover in (None, ana.id) else cy)
        await fake.wait_idle()
        assert not notices(fake, ben)
        assert not notices(fake, ana)
        assert not notices(fake, cy)
        assert not [m for m in public_messages(fake, world.channel) if CLOSED_DMS in m.content]
        # Ben's own first move: its answer is followed by the notice, privately, in his language.
        rec = await move(world, ben)
        await fake.wait_for(lambda: bool(notices(fake, ben)), what="ben's private notice")
        told = notices(fake, ben)
        assert [m.id for m in told] == [m.id for m in rec.followups][-1:]
        assert told[0].content.startswith("I can't send you direct messages.")
        assert "/hand" in told[0].content
        final = await play_through(world, [ana, cy, ben])
        await fake.wait_idle()
        figures = traffic(fake)
    print("\n" + figures)
    assert the_game.is_over(final)
    assert len(notices(fake, ben)) == 1  # once per game
    assert not notices(fake, ana)
    assert not notices(fake, cy)
    assert not [m for m in public_messages(fake, world.channel) if CLOSED_DMS in m.content]
    dm = fake.dm_channel(ben)
    assert [(r.method, r.path, r.status) for r in refused(fake)] == [("POST", f"/channels/{dm.id}/messages", 403)]
    assert refused_metric(route) == counted + 1
    assert not fake.dms(ben)
