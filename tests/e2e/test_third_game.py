"""The README's promise, kept: a game that exists only in the tests (``tests/third_game``: its rules, and its table
adapter, which builds its registration) is played by the real bot after one ``register`` line, through the lobby,
its own command name space, the turn clock's autopilot (its safe default move, since it has no computer player),
/board, /stats and /history; ``bots:1`` is refused with a reason, and a game without secrets sends no DM."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from table.registry import register, unregister
from tests.e2e.conftest import World
from tests.players import public_messages, saved_state
from tests.third_game import rules, table


@pytest.fixture
def race() -> Iterator[None]:
    register(table.REGISTRATION)  # the one line
    yield
    unregister(rules.INFO.kind)


def total(world: World) -> rules.State:
    state: rules.State = saved_state(world)
    return state


@pytest.mark.usefixtures("race")
async def test_a_third_game_plays_through_the_whole_table(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=5) as bot:
        bot.tables.clock.scale = 0.02  # 30 s -> 0.6 s
        bot.tables.seats.pause = 0.01
        refused = await world.fake.invoke(
            "newgame", user=ana, channel=world.channel, options={"game": "race", "bots": 1}
        )
        assert refused.response is not None
        assert refused.response.ephemeral
        assert "no computer players" in refused.response.content
        await world.fake.invoke(
            "newgame", user=ana, channel=world.channel, options={"game": "race", "turn_time": "30 seconds"}
        )
        lobby = public_messages(world.fake, world.channel)[-1]
        add_bot = await world.fake.click(lobby, label="Add bot", user=ana)
        assert add_bot.response is not None
        assert add_bot.response.ephemeral
        assert "no computer players" in add_bot.response.content
        await world.fake.invoke("join", user=ben, channel=world.channel)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        assert "Race to 21 begins" in public_messages(world.fake, world.channel)[-1].content

        # Its own name space: /race take, beside No Thanks!'s /take.
        first = rules.current_player(total(world))
        mover, other = (ana, ben) if first == ana.id else (ben, ana)
        await world.fake.invoke("race take", user=mover, channel=world.channel, options={"steps": 3})
        assert total(world).total == 3
        # The other player walks away: the clock's autopilot plays the safe default move (add one) for them.
        await world.fake.wait_for(
            lambda: any(
                f"On autopilot: <@{other.id}>" in m.content for m in public_messages(world.fake, world.channel)
            ),
            timeout=10,
            what="the autopilot",
        )
        assert total(world).total == 4
        assert rules.current_player(total(world)) == mover.id

        shown = await world.fake.invoke("board", user=other, channel=world.channel)
        assert shown.response is not None
        assert "Total: **4**" in str(shown.response.embeds)

        while total(world).status == "playing":
            now = total(world)
            who = ana if rules.current_player(now) == ana.id else ben
            await world.fake.invoke("race take", user=who, channel=world.channel, options={"steps": 3})
        finished = total(world)
        assert finished.status == "finished"
        assert finished.total == rules.GOAL
        assert any("Game over" in m.content for m in public_messages(world.fake, world.channel)[-2:])

        stats = await world.fake.invoke("stats", user=ana, channel=world.channel)
        assert stats.response is not None
        assert "Race to 21" in str(stats.response.embeds)
        history = await world.fake.invoke("history", user=ana, channel=world.channel)
        assert history.response is not None
        assert "Race to 21" in str(history.response.embeds)
        # A game without secrets ("has_secrets=False": the total is on the board) sends nobody a DM.
        assert world.fake.dms(ana) == []
        assert world.fake.dms(ben) == []
