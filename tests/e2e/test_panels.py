"""Issue 22, "The hand follows you" and "Misclick guard": the hand panel a player keeps open is the one they play from.

Whole seeded games are played with the panel alone, each player opening "My hand" once (as a player would: it is
then kept current, so nobody scrolls up to an old message), and what it cost is counted: clicks per turn, confirming
clicks, live panels per player. Out of turn a card shows where it could go and leads to no refusal; a pile somebody
asked to keep, or a jump of more than ten, takes one confirming click; a panel only ever shows its owner's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cogs.the_game_panel import misclick_risks
from engine import the_game
from engine.ai.the_game_guard import KEPT_REGRET_TO_ASK, REGRET_TO_ASK, regrets
from tests.e2e.conftest import World
from tests.e2e.table_helpers import (
    asks_first,
    click_panel,
    lay_by_panel,
    live_buttons,
    newest_board,
    open_game,
    panel_button,
    pile_label,
)
from tests.fake_discord import Member, Message
from tests.players import (
    answer,
    choose,
    hand_in,
    read_panel,
    saved_state,
    tops_of,
)

REPLACED = "This panel is closed: your newest one is below."
STOPPED = "This panel stopped following the game: press Refresh or use /hand."
# Seeds whose games last long enough for every player to play many turns from a kept panel.
SEEDS = {3: 10, 4: 10, 5: 10}


@dataclass(frozen=True)
class Turn:
    player: int
    opened: bool  # the player had no panel yet and clicked "My hand"
    laid: int
    clicks: int  # every click of the turn, the confirming ones included
    asked: int  # confirming clicks ("Lay it anyway")
    ended: bool  # the game ended in this turn, before End turn


def shows_turn(panel: Message, state: the_game.State, player: int) -> bool:
    """The panel shows the committed position, as ``player``'s turn (or anyone's first card)."""
    shown = read_panel(panel.content)
    if shown is None or shown.tops != tops_of(state) or hand_in(panel.content) != list(the_game.hand(state, player)):
        return False
    if the_game.current_player(state) is None:
        return "Anyone may lay the first card" in panel.content
    return shown.my_turn and shown.laid == the_game.public_view(state).laid


def live_panels(world: World, member: Member) -> list[Message]:
    """The member's panels in the channel that still have a live button."""
    return [
        m
        for m in world.fake.ephemeral_messages(member)
        if m.channel_id == world.channel.id
        and any(str(b.get("custom_id", "")).startswith("tg:") and not b.get("disabled") for b in m.buttons)
    ]


async def panel_game(world: World, members: list[Member]) -> list[Turn]:
    """Play the channel's game to its end from kept panels: "My hand" once per player, then card, pile, ..., End
    turn on the panel that came to say "Your turn" by itself."""
    fake = world.fake
    by_id = {m.id: m for m in members}
    panels: dict[int, Message] = {}
    turns: list[Turn] = []
    state = saved_state(world)
    while not the_game.is_over(state):
        mover = by_id[the_game.current_player(state) or members[0].id]
        opened = mover.id not in panels
        clicks = asked = laid = 0
        if opened:
            rec = await fake.click(newest_board(world), label="My hand", user=mover)
            assert rec.original is not None
            assert rec.original.ephemeral
            panels[mover.id] = rec.original
            clicks += 1
        panel = panels[mover.id]
        # The kept panel is brought up to date in the background: no Refresh, no scrolling.
        await fake.wait_for(
            lambda panel=panel, state=state, mover=mover: shows_turn(panel, state, mover.id),
            what=f"{mover.name}'s panel to show the turn",
        )
        while True:
            view = the_game.public_view(state)
            play = choose(the_game.hand(state, mover.id), tops_of(state), view.laid, view.minimum or 1)
            if play is None:
                await click_panel(world, panel, mover, "end")
                clicks += 1
                break
            used = await lay_by_panel(world, panel, mover, play.card, play.pile)
            clicks, asked, laid = clicks + used, asked + used - 2, laid + 1
            state = saved_state(world)
            if the_game.is_over(state):
                break
        turns.append(Turn(mover.id, opened, laid, clicks, asked, the_game.is_over(state)))
        await fake.wait_idle()
        state = saved_state(world)
        for member in members:
            assert len(live_panels(world, member)) <= 1, member.name
    return turns


def shown_cards(world: World, member: Member) -> set[int]:
    """Every card any version of any of ``member``'s panels showed on its ``Your hand:`` line."""
    return {
        card
        for message in world.fake.ephemeral_messages(member)
        for version in message.history
        for card in hand_in(version.content) or ()
    }


@pytest.mark.parametrize("count", [3, 4, 5])
async def test_a_two_card_turn_takes_five_clicks_from_the_kept_panel(world: World, count: int) -> None:
    members = world.players[:count]
    async with world.bot(seed=SEEDS[count]):
        await open_game(world, members)
        turns = await panel_game(world, members)
        # A panel is edited only through its owner's tokens, and only ever shows its owner's cards: a card is held
        # by one player in a whole game, so no card shows on two players' panels.
        shown = {member.id: shown_cards(world, member) for member in members}
        for member in members:
            others = set().union(*(cards for player, cards in shown.items() if player != member.id))
            assert not shown[member.id] & others, member.name
            assert set(the_game.hand(saved_state(world), member.id)) <= shown[member.id]
    kept = [t for t in turns if not t.opened]
    two = [t for t in kept if t.laid == 2]
    first = [t.clicks for t in turns if t.opened and t.laid == 2]
    print(
        f"\n{count} players: {len(turns)} turns; 2-card turns from the kept panel: {len(two)}, clicks "
        f"{sorted({t.clicks for t in two})} ({sum(t.asked for t in two)} confirming); first turns (panel opened): "
        f"{first}; clicks per turn overall {sum(t.clicks for t in turns) / len(turns):.2f}"
    )
    assert len(two) >= 5
    # Card, pile, card, pile, End turn; one more click for each risky card the player confirmed.
    assert all(t.clicks - t.asked <= 5 for t in two)
    # Two clicks a card and one to end the turn, at every turn from the kept panel: never a Refresh or a refusal.
    assert all(t.clicks - t.asked == 2 * t.laid + 1 for t in kept if not t.ended)
    assert all(t.clicks - t.asked <= 6 for t in turns if t.opened and t.laid == 2)


async def test_an_older_panel_shrinks_to_a_line_when_a_newer_one_opens(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    ana = members[0]
    async with world.bot(seed=10):
        await open_game(world, members)
        first = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert first is not None
        assert live_buttons(first)
        second = answer(await fake.invoke("hand", user=ana, channel=world.channel)).message
        assert second is not None
        assert second is not first
        await fake.wait_for(lambda: first.content == REPLACED, what="the older panel to shrink")
        assert first.buttons == []
        third = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert third is not None
        await fake.wait_for(lambda: second.content == REPLACED, what="the second panel to shrink")
        assert live_panels(world, ana) == [third]
        # Clicking on the live panel keeps it the one live panel.
        card = the_game.hand(saved_state(world), ana.id)[0]
        await click_panel(world, third, ana, "card", card)
        assert live_panels(world, ana) == [third]


async def test_out_of_turn_a_card_shows_its_piles_and_the_turn_brings_them_to_life(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    ana, ben, _carol = members
    async with world.bot(seed=10):
        await open_game(world, members)
        state = saved_state(world)
        # ana lays the first card: it is her turn now, and ben's panel says so.
        play = choose(the_game.hand(state, ana.id), tops_of(state), 0, 2)
        assert play is not None
        await fake.invoke("play", user=ana, channel=world.channel, options={"card": play.card, "pile": play.pile})
        panel = (await fake.click(newest_board(world), label="My hand", user=ben)).original
        assert panel is not None
        assert f"<@{ana.id}> is playing." in panel.content
        refusals = 0
        for card in the_game.hand(saved_state(world), ben.id):
            button = panel_button(panel, "card", card)
            if button.get("disabled"):
                continue
            # Out of turn a card opens its piles, every one disabled: nothing walks into "It's not your turn."
            await click_panel(world, panel, ben, "card", card)
            assert f"Where could {card} go? You can lay it when your turn comes." in panel.content
            pile_buttons = [b for b in panel.buttons if ":pile:" in str(b.get("custom_id"))]
            assert len(pile_buttons) == 4
            assert all(b.get("disabled") for b in pile_buttons)
            refusals += "not your turn" in panel.content
            await click_panel(world, panel, ben, "page", "main")
        assert refusals == 0
        # ben chooses his card while ana plays; when his turn comes, the piles come to life on the same page.
        state = saved_state(world)
        mine = choose(the_game.hand(state, ben.id), tops_of(state), 0, 2)
        assert mine is not None
        await click_panel(world, panel, ben, "card", mine.card)
        while the_game.current_player(state) == ana.id:
            view = the_game.public_view(state)
            move = choose(the_game.hand(state, ana.id), tops_of(state), view.laid, view.minimum)
            if move is None:
                await fake.invoke("endturn", user=ana, channel=world.channel)
            else:
                options = {"card": move.card, "pile": move.pile}
                await fake.invoke("play", user=ana, channel=world.channel, options=options)
            state = saved_state(world)
        assert the_game.current_player(state) == ben.id
        await fake.wait_for(lambda: f"Where does {mine.card} go?" in panel.content, what="ben's turn on his panel")
        view = the_game.public_view(state)
        for pile in view.piles:
            button = panel_button(panel, "pile", mine.card, pile.name)
            assert button["label"] == pile_label(pile, mine.card, view.signals)
            assert bool(button.get("disabled")) == (not the_game.is_legal(pile.name, pile.top, mine.card))
        # Laying from there: the pile, and the confirming click if it asks.
        await click_panel(world, panel, ben, "pile", mine.card, mine.pile)
        if asks_first(state, ben.id, mine.card, mine.pile):
            await click_panel(world, panel, ben, "lay", mine.card, mine.pile)
        assert panel.content.startswith(f"<@{ben.id}> laid {mine.card} on {mine.pile}")


async def test_only_a_clearly_worse_lay_or_a_kept_pile_takes_one_confirming_click(world: World) -> None:
    members = world.players[:3]
    fake = world.fake
    ana, ben, _carol = members
    async with world.bot(seed=10):
        await open_game(world, members)
        state = saved_state(world)
        worse = regrets(the_game.observation(state, ana.id))
        # Before the first card: the best lay the hand has is never asked about, however far it jumps.
        best = min(worse, key=lambda play: worse[play])
        bad = max(worse, key=lambda play: worse[play])
        assert worse[bad] >= REGRET_TO_ASK
        panel = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        await click_panel(world, panel, ana, "card", best.card)
        assert panel_button(panel, "pile", best.card, best.pile)["style"] != 4
        # A lay far worse than the best one asks first, and says why.
        await click_panel(world, panel, ana, "page", "main")
        await click_panel(world, panel, ana, "card", bad.card)
        top = the_game.top(state, bad.pile)
        assert panel_button(panel, "pile", bad.card, bad.pile)["style"] == 4  # red: it asks first
        await click_panel(world, panel, ana, "pile", bad.card, bad.pile)
        assert f"Lay {bad.card} on {bad.pile} anyway?" in panel.content
        jump = abs(bad.card - top)
        assert f"That jumps {jump} ({top} → {bad.card}); another lay of your hand keeps more room." in panel.content
        assert saved_state(world) == state
        # Back: nothing was laid, and the piles are there again.
        await click_panel(world, panel, ana, "card", bad.card)
        assert f"Where does {bad.card} go?" in panel.content
        assert saved_state(world) == state
        # A lay somewhat worse than the best goes through without a question, until ben asks the table to keep its
        # pile: then it asks first, with ben's signal on its button.
        kept = next(play for play in worse if KEPT_REGRET_TO_ASK <= worse[play] < REGRET_TO_ASK)
        assert not misclick_risks(the_game.observation(state, ana.id), kept.card, kept.pile)
        await fake.invoke("signal", user=ben, channel=world.channel, options={"kind": "dont_lay", "pile": kept.pile})
        state = saved_state(world)
        await click_panel(world, panel, ana, "page", "main")
        await click_panel(world, panel, ana, "card", kept.card)
        assert panel_button(panel, "pile", kept.card, kept.pile)["label"].endswith("🛑")
        await click_panel(world, panel, ana, "pile", kept.card, kept.pile)
        assert f"🛑 <@{ben.id}> asked not to lay on {kept.pile}." in panel.content
        assert saved_state(world) == state
        await click_panel(world, panel, ana, "lay", kept.card, kept.pile)
        assert panel.content.startswith(f"<@{ana.id}> laid {kept.card} on {kept.pile}")
        assert the_game.top(saved_state(world), kept.pile) == kept.card


async def test_a_panel_whose_token_is_about_to_die_stops_with_a_refresh_button_that_brings_it_back(
    world: World,
) -> None:
    members = world.players[:3]
    fake = world.fake
    ana = members[0]
    async with world.bot(seed=10) as bot:
        await open_game(world, members)
        # Past the token's life the panel could no longer follow the table: it stops instead of growing old.
        bot.tables.panels.awake_seconds = 0.5
        panel = (await fake.click(newest_board(world), label="My hand", user=ana)).original
        assert panel is not None
        await fake.wait_for(lambda: panel.content.startswith(STOPPED), what="the panel to stop")
        assert [b.get("label") for b in panel.buttons] == ["Refresh"]
        assert live_panels(world, ana) == []
        # Refresh redraws it in place, as the table is now, through the click's own token: it follows again.
        bot.tables.panels.awake_seconds = 60.0
        rec = await fake.click(panel, label="Refresh", user=ana)
        assert rec.response is not None
        assert rec.response.type == 7  # an update of the clicked message
        assert hand_in(panel.content) == list(the_game.hand(saved_state(world), ana.id))
        assert live_panels(world, ana) == [panel]
        # Discord accepted every edit of it (each through a token it accepts for the panel).
        assert not [r for r in fake.requests if 400 <= r.status < 500 and r.status != 429]
