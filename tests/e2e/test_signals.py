"""Issue 12, pile signals in The Game: set and cleared by the hand panel and by /signal, shown on the board with their
owner, cleared by the owner's card on the pile, by leaving and (nearly stuck) at the owner's turn end, kept across a
restart; a spectator cannot signal, and signalling pings nobody and posts nothing new."""

from __future__ import annotations

from typing import Any

from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import Meter, click_panel, newest_board, open_game, panel_button, the_game_board
from tests.fake_discord import Member, Message
from tests.players import answer, choose, public_messages, read_board, saved_state, tops_of

SEED = 10
SUCCESS = 3  # a green button: the signal is up


async def marks(world: World) -> set[tuple[int, str, str | None]]:
    """The signals the newest board shows (checked against the committed game first)."""
    return set(read_board(await the_game_board(world)).marks)


async def signal(world: World, member: Member, kind: str, pile: str | None = None) -> str:
    """/signal: answered privately, the board edited in place, no new message and nobody pinged."""
    fake = world.fake
    before = len(public_messages(fake, world.channel))
    board = newest_board(world)
    edits = len(board.edits)
    options: dict[str, Any] = {"kind": kind} if pile is None else {"kind": kind, "pile": pile}
    rec = await fake.invoke("signal", user=member, channel=world.channel, options=options)
    await fake.wait_idle()
    assert answer(rec).ephemeral, answer(rec).content
    assert len(public_messages(fake, world.channel)) == before
    assert not any(m.pinged for m in public_messages(fake, world.channel)[before:])
    accepted = answer(rec).content.startswith(("🛑", "🔁", "🐢", "⚠️", member.mention))
    assert len(board.edits) == edits + accepted
    return answer(rec).content


async def on_signals_page(world: World, panel: Message, member: Member) -> Message:
    """The panel's signals page (after a signal the panel may go back to its main page)."""
    if not any(str(b.get("custom_id", "")).split(":")[2:3] == ["sig"] for b in panel.buttons):
        await click_panel(world, panel, member, "page", "signals")
    return panel


async def sig(world: World, panel: Message, member: Member, kind: str, pile: str = "") -> None:
    """One click on the signals page."""
    await on_signals_page(world, panel, member)
    await click_panel(world, panel, member, "sig", kind, pile)
    await world.fake.wait_idle()


async def lay(world: World, member: Member, card: int, pile: str) -> None:
    rec = await world.fake.invoke("play", user=member, channel=world.channel, options={"card": card, "pile": pile})
    assert answer(rec).ephemeral, answer(rec).content
    await world.fake.wait_idle()


def best_play(world: World, member: Member, laid: int = 0) -> the_game.Play:
    state = saved_state(world)
    play = choose(the_game.hand(state, member.id), tops_of(state), laid, 2)
    assert play is not None
    return play


async def test_signals_by_panel_one_click_each_shown_with_their_owner(world: World) -> None:
    members = world.players[:3]
    ana, ben = members[:2]
    fake = world.fake
    async with world.bot(seed=SEED):
        await open_game(world, members)
        meter = Meter(world, members)
        opened = await fake.click(newest_board(world), label="My hand", user=ben)
        panel = opened.original
        assert panel is not None
        await click_panel(world, panel, ben, "page", "signals")
        labels = [str(b["label"]) for b in panel.buttons]
        assert labels[:12] == [
            f"{pile}: {kind}" for kind in ("don't lay", "trick", "small steps") for pile in the_game.PILES
        ]
        assert labels[12:] == ["I'm nearly stuck", "Clear my signals", "Back"]
        assert panel_button(panel, "sig", "clear").get("disabled")
        # One click: the signal is up, on the board next to its pile with its owner; the button turns green.
        await sig(world, panel, ben, "dont_lay", "C")
        assert await marks(world) == {(ben.id, "dont_lay", "C")}
        description = newest_board(world).embeds[0]["description"]
        assert f"**C** ↓ descending: **100**  🛑 {ben.mention} (please don't lay here)" in description
        assert panel_button(await on_signals_page(world, panel, ben), "sig", "dont_lay", "C")["style"] == SUCCESS
        await sig(world, panel, ben, "small_steps", "A")
        await sig(world, panel, ben, "nearly_stuck")
        assert await marks(world) == {
            (ben.id, "dont_lay", "C"),
            (ben.id, "small_steps", "A"),
            (ben.id, "nearly_stuck", None),
        }
        players = next(f["value"] for f in newest_board(world).embeds[0]["fields"] if f["name"] == "Players")
        assert f"{ben.mention}: 6 cards ⚠️ nearly stuck" in players
        # A new signal on the same pile replaces the old one.
        await sig(world, panel, ben, "small_steps", "C")
        assert await marks(world) == {
            (ben.id, "small_steps", "C"),
            (ben.id, "small_steps", "A"),
            (ben.id, "nearly_stuck", None),
        }
        # Clicking an active signal takes it down.
        await sig(world, panel, ben, "small_steps", "A")
        assert await marks(world) == {(ben.id, "small_steps", "C"), (ben.id, "nearly_stuck", None)}
        assert panel_button(await on_signals_page(world, panel, ben), "sig", "small_steps", "A")["style"] != SUCCESS
        # Another player's signals sit next to ben's; "Clear my signals" takes down only one's own.
        opened = await fake.click(newest_board(world), label="My hand", user=ana)
        ana_panel = opened.original
        assert ana_panel is not None
        await click_panel(world, ana_panel, ana, "page", "signals")
        await sig(world, ana_panel, ana, "dont_lay", "C")
        both = f"🐢 {ben.mention} (small steps only here) 🛑 {ana.mention} (please don't lay here)"
        assert both in newest_board(world).embeds[0]["description"]
        await sig(world, panel, ben, "clear")
        assert await marks(world) == {(ana.id, "dont_lay", "C")}
        # All of it: no new channel message (so nobody pinged): one board edited in place.
        assert meter.new_messages() == []
        assert sum(meter.pings().values()) == 0
        assert [rec.custom_id is not None for rec in meter.interactions()] == [True] * len(meter.interactions())
        # The signals are in the move log (a table event), so the replayed game has them.
        assert {(m.player, m.kind, m.pile) for m in saved_state(world).signals} == {(ana.id, "dont_lay", "C")}


async def test_signals_by_command_and_when_they_clear_themselves(world: World) -> None:
    members = world.players[:3]
    ana, ben, cy = members
    async with world.bot(seed=SEED):
        await open_game(world, members)
        # Out of turn, by command; the kinds are named in words.
        assert (await signal(world, ben, "small_steps", "A")).startswith("🐢")
        await signal(world, cy, "dont_lay", "C")
        await signal(world, cy, "nearly_stuck")
        await signal(world, ana, "dont_lay", "A")
        await signal(world, ana, "nearly_stuck")
        assert await marks(world) == {
            (ben.id, "small_steps", "A"),
            (cy.id, "dont_lay", "C"),
            (cy.id, "nearly_stuck", None),
            (ana.id, "dont_lay", "A"),
            (ana.id, "nearly_stuck", None),
        }
        # A trick nobody can do is refused, and changes nothing.
        refused = await signal(world, ben, "trick", "A")
        assert refused == "You can't do a backwards trick on A right now."
        assert (await signal(world, ben, "clear", "D")) == "You have no signal there to clear."
        # ana's card on A takes down her own signal there; ben's stays.
        await lay(world, ana, min(the_game.hand(saved_state(world), ana.id)), "A")
        assert (ana.id, "dont_lay", "A") not in await marks(world)
        assert (ben.id, "small_steps", "A") in await marks(world)
        assert (ana.id, "nearly_stuck", None) in await marks(world)
        # At her turn's end, ana's "nearly stuck" comes down; cy's stays (it is not cy's turn that ended).
        second = best_play(world, ana, laid=1)
        await lay(world, ana, second.card, second.pile)
        await world.fake.invoke("endturn", user=ana, channel=world.channel)
        await world.fake.wait_idle()
        assert (ana.id, "nearly_stuck", None) not in await marks(world)
        assert {(cy.id, "dont_lay", "C"), (cy.id, "nearly_stuck", None)} <= await marks(world)
        # /signal clear takes down one pile's signal, or all of them.
        await signal(world, cy, "clear", "C")
        assert (cy.id, "dont_lay", "C") not in await marks(world)
        await signal(world, cy, "dont_lay", "D")
        await signal(world, cy, "clear")
        assert not any(player == cy.id for player, _, _ in await marks(world))
        # Leaving takes a player's signals with them.
        await signal(world, cy, "small_steps", "B")
        await signal(world, cy, "nearly_stuck")
        await world.fake.invoke("leave", user=cy, channel=world.channel)
        await world.fake.wait_idle()
        assert not any(player == cy.id for player, _, _ in await marks(world))
        assert (ben.id, "small_steps", "A") in await marks(world)


async def test_a_trick_signal_is_accepted_from_the_player_who_holds_the_trick(world: World) -> None:
    members = world.players[:3]
    by_id = {m.id: m for m in members}
    async with world.bot(seed=SEED):
        await open_game(world, members)
        # Play on until somebody holds a backwards trick on some pile.
        found: tuple[Member, str] | None = None
        while found is None:
            state = saved_state(world)
            for player in state.players:
                for pile in the_game.PILES:
                    trick = the_game.top(state, pile) + (-10 if pile in the_game.ASCENDING else 10)
                    if trick in the_game.hand(state, player):
                        found = (by_id[player], pile)
            if found is None:
                mover = by_id[the_game.current_player(state) or members[0].id]
                view = the_game.public_view(state)
                if view.laid >= 2:
                    await world.fake.invoke("endturn", user=mover, channel=world.channel)
                else:
                    play = best_play(world, mover, laid=view.laid)
                    await lay(world, mover, play.card, play.pile)
        owner, pile = found
        assert (await signal(world, owner, "trick", pile)).startswith("🔁")
        assert (owner.id, "trick", pile) in await marks(world)
        assert f"🔁 {owner.mention} (I can do a backwards trick here)" in newest_board(world).embeds[0]["description"]
        # The owner lays the trick: the signal has done its job and comes down.
        state = saved_state(world)
        if the_game.current_player(state) == owner.id:
            trick = the_game.top(state, pile) + (-10 if pile in the_game.ASCENDING else 10)
            await lay(world, owner, trick, pile)
            assert (owner.id, "trick", pile) not in await marks(world)


async def test_signals_survive_a_restart_and_a_spectator_cannot_signal(world: World) -> None:
    members = world.players[:3]
    ana, ben, cy = members
    async with world.bot(seed=SEED):
        await open_game(world, members)
        await signal(world, ben, "dont_lay", "D")
        await signal(world, cy, "nearly_stuck")
        shown = await marks(world)
        refused = await signal(world, world.spectator, "dont_lay", "A")
        assert refused == "You're not playing in this game."
        assert await marks(world) == shown
        old_board: Message = newest_board(world)
    # Every action is committed before its answer: leaving the bot's context is the e2e kill -9.
    async with world.bot(seed=SEED):
        rec = await world.fake.invoke("board", user=world.spectator, channel=world.channel)
        await world.fake.wait_idle()
        assert rec.original is newest_board(world)
        assert await marks(world) == shown == {(ben.id, "dont_lay", "D"), (cy.id, "nearly_stuck", None)}
        assert not old_board.buttons
        # After the restart, signals go on working from the panel of the new process.
        opened = await world.fake.click(newest_board(world), label="My hand", user=ben)
        panel = opened.original
        assert panel is not None
        await click_panel(world, panel, ben, "page", "signals")
        assert panel_button(panel, "sig", "dont_lay", "D")["style"] == SUCCESS
        await sig(world, panel, ben, "dont_lay", "D")
        await world.fake.wait_idle()
        assert await marks(world) == {(cy.id, "nearly_stuck", None)}
        assert (await signal(world, world.spectator, "nearly_stuck")) == "You're not playing in this game."
        # A spectator has no panel to signal from.
        button = await world.fake.click(newest_board(world), label="My hand", user=world.spectator)
        assert answer(button).ephemeral
        assert answer(button).content == "You're not playing in this game."
        assert ana.id not in {player for player, _, _ in await marks(world)}
