"""Issue 37 through the real bot and the fake Discord, without a browser: the link on the hand panel, the page and
its headers, the 403 for a tampered or foreign link, moves over the WebSocket through the same commit as a click, and
every open page following a move made anywhere."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from bot import Bot
from engine import no_thanks, the_game
from table.options import options_of
from tests.e2e.conftest import World
from tests.e2e.table_helpers import asks_first, click_panel, no_thanks_board, open_game, the_game_board
from tests.players import best_play, saved_game, saved_state
from tests.web.conftest import base_url, hand_panel, table_link, token_of


async def next_state(ws: aiohttp.ClientWebSocketResponse, after: int = -1, within: float = 1.0) -> dict[str, Any]:
    """The first state message past move ``after`` (refusals in between are skipped), within ``within`` seconds."""
    async with asyncio.timeout(within):
        while True:
            message = json.loads((await ws.receive()).data)
            if message["type"] == "state" and message["state"]["seq"] > after:
                return dict(message["state"])


async def received(ws: aiohttp.ClientWebSocketResponse, kind: str) -> str:
    """The text of the next message of ``kind`` (states in between are skipped; an unexpected refusal fails)."""
    async with asyncio.timeout(2):
        while True:
            message = json.loads((await ws.receive()).data)
            if message["type"] == kind:
                return str(message["text"])
            if message["type"] == "refused":
                raise AssertionError(message["text"])


async def refusal(ws: aiohttp.ClientWebSocketResponse) -> str:
    return await received(ws, "refused")


async def test_the_web_table_is_off_without_web_port(world: World) -> None:
    async with world.bot() as bot:
        await open_game(world, world.players[:2])
        panel = await hand_panel(world, world.players[0])
        assert bot.web is None
        assert all(b.get("label") != "Open the table" for b in panel.buttons)


async def test_a_panel_links_to_a_personal_page(world: World, web_bot: Bot) -> None:
    ana, ben, cy = world.players[:3]
    await open_game(world, [ana, ben, cy])
    url = table_link(await hand_panel(world, ana))
    assert url.startswith(base_url(web_bot) + "/t/")
    assert url != table_link(await hand_panel(world, ben))
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as page:
            assert page.status == 200
            csp = page.headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp
            assert "script-src 'self'" in csp
            assert "unsafe" not in csp
            assert page.headers["Referrer-Policy"] == "no-referrer"
            assert 'src="../static/app.js"' in await page.text()
        token = token_of(url)
        game, player, mac = token.split(".")
        forged = [
            f"{game}.{ben.id}.{mac}",  # ana's signature on ben's seat
            f"{int(game) + 1}.{player}.{mac}",  # another game
            f"{game}.{player}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}",  # one character changed
            "nothing",
        ]
        for bad in forged:
            for path in (f"/t/{bad}", f"/ws/{bad}"):
                async with http.get(base_url(web_bot) + path) as refused:
                    assert refused.status == 403, (bad, path)
                    body = await refused.text()
                    assert "the_game" not in body
                    assert str(ana.id) not in body


async def test_moves_from_the_page_and_the_panel_show_everywhere(world: World, web_bot: Bot) -> None:
    members = world.players[:3]
    await open_game(world, members)
    by_id = {m.id: m for m in members}
    async with aiohttp.ClientSession() as http:
        pages = {}
        for member in members:
            token = token_of(table_link(await hand_panel(world, member)))
            pages[member.id] = await http.ws_connect(f"{base_url(web_bot)}/ws/{token}?lang=en")
        states = {player: await next_state(ws) for player, ws in pages.items()}
        state: the_game.State = saved_state(world)
        for player, shown in states.items():
            assert [c["value"] for c in shown["hand"]] == list(the_game.hand(state, player))
        # Anyone may lay the first card: ana lays it from her page.
        ana = members[0].id
        play = best_play(state, ana)
        await pages[ana].send_json({"op": "play", "card": play.card, "pile": play.pile})
        for ws in pages.values():
            shown = await next_state(ws, after=0)
            assert next(p["top"] for p in shown["piles"] if p["name"] == play.pile) == play.card
            assert play.card not in [c["value"] for c in shown["hand"]]
        assert saved_state(world).move_count == 1
        await the_game_board(world)  # the channel's board shows the committed position
        # Out of turn: ben is refused, in words, and nothing changes.
        ben = members[1].id
        other = best_play(saved_state(world), ben)
        await pages[ben].send_json({"op": "play", "card": other.card, "pile": other.pile})
        assert "turn" in (await refusal(pages[ben])).lower()
        assert saved_state(world).move_count == 1
        # ana's second card from her panel: every page follows within a second.
        state = saved_state(world)
        second = best_play(state, ana)
        panel = await hand_panel(world, by_id[ana])
        await click_panel(world, panel, by_id[ana], "card", second.card)
        await click_panel(world, panel, by_id[ana], "pile", second.card, second.pile)
        if asks_first(state, ana, second.card, second.pile):
            await click_panel(world, panel, by_id[ana], "lay", second.card, second.pile)
        for ws in pages.values():
            shown = await next_state(ws, after=1)
            assert next(p["top"] for p in shown["piles"] if p["name"] == second.pile) == second.card
            # The turn log, oldest first: the first card's line (kept from the last push) and the second's.
            assert len(shown["log"]) == 2
            assert str(play.card) in shown["log"][0]
            assert str(second.card) in shown["log"][1]
        # End turn from the page: the board moves on to the next player.
        await pages[ana].send_json({"op": "end"})
        shown = await next_state(pages[ben], after=2)
        assert shown["myTurn"]
        assert shown["status"].startswith("Your turn")
        await the_game_board(world)
        for ws in pages.values():
            await ws.close()


async def test_a_page_sees_only_its_own_hand(world: World, web_bot: Bot) -> None:
    ana, ben, cy = world.players[:3]
    await open_game(world, [ana, ben, cy])
    state: the_game.State = saved_state(world)
    token = token_of(table_link(await hand_panel(world, ana)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        raw = json.dumps(await next_state(ws))
    shown = json.loads(raw)
    assert [c["value"] for c in shown["hand"]] == list(the_game.hand(state, ana.id))
    assert [s["cards"] for s in shown["seats"]] == ["6 cards"] * 3
    assert set(shown) >= {"piles", "hand", "seats", "drawPile", "status", "log"}
    assert shown["drawPile"] == f"Draw pile: {len(state.draw_pile)} cards"
    # That nothing hidden is in it at all is checked on the page's composition (tests/web/test_page.py).


async def test_signals_go_up_and_come_down_from_the_page(world: World, web_bot: Bot) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    token = token_of(table_link(await hand_panel(world, ben)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        shown = await next_state(ws)
        assert not any(b["on"] for b in shown["signalButtons"])
        await ws.send_json({"op": "signal", "kind": "dont_lay", "pile": "C"})
        shown = await next_state(ws, after=0)
        assert [b["label"] for b in shown["signalButtons"] if b["on"]] == ["C: don't lay"]
        assert [s["text"] for s in shown["piles"][2]["signals"]] == ["ben: please don't lay here"]
        state: the_game.State = saved_state(world)
        assert [(m.player, m.kind, m.pile) for m in state.signals] == [(ben.id, "dont_lay", "C")]
        await ws.send_json({"op": "signal", "kind": "dont_lay", "pile": "C"})  # tapped again: it comes down
        shown = await next_state(ws, after=1)
        assert not any(b["on"] for b in shown["signalButtons"])
        assert saved_state(world).signals == ()
        await the_game_board(world)


async def test_a_game_ended_early_stops_its_pages(world: World, web_bot: Bot) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    token = token_of(table_link(await hand_panel(world, ben)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        shown = await next_state(ws)
        assert not shown["over"]
        await world.fake.invoke("endgame", user=ana, channel=world.channel)
        async with asyncio.timeout(1):
            while not shown["over"]:
                shown = json.loads((await ws.receive()).data)["state"]
        assert shown["status"] == "This game was ended early."
        assert not shown["myTurn"]
        assert shown["signalButtons"] == []
        await ws.send_json({"op": "end"})
        assert await refusal(ws)  # no move on a game that is over, and the page is told why


async def test_the_board_links_to_a_public_page_for_spectators(world: World, web_bot: Bot) -> None:
    ana, ben, cy = world.players[:3]
    await open_game(world, [ana, ben, cy])
    board = await the_game_board(world)
    watch = [b for b in board.buttons if b.get("label") == "Watch the table"]
    assert len(watch) == 1
    url = str(watch[0]["url"])
    assert url.startswith(base_url(web_bot) + "/t/")
    assert url not in {table_link(await hand_panel(world, m)) for m in (ana, ben, cy)}
    async with aiohttp.ClientSession() as http, http.ws_connect(url.replace("/t/", "/ws/")) as ws:
        shown = await next_state(ws)
        assert shown["spectator"]
        assert shown["hand"] == []
        assert shown["signalButtons"] == []
        assert shown["status"] == "Anyone may lay the first card."
        await ws.send_json({"op": "end"})
        assert await refusal(ws) == "You are watching this table: only the players can move."
        assert saved_state(world).move_count == 0


async def test_a_game_that_ended_replays_turn_by_turn(world: World, web_bot: Bot) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    token = token_of(table_link(await hand_panel(world, ana)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        shown = await next_state(ws)
        await ws.send_json({"op": "replay", "turn": 0})
        assert await refusal(ws) == "That game isn't over yet: its replay opens when it ends."
        # ana's turn: two cards, then the turn passes; then the game is ended early.
        for _ in range(2):
            play = best_play(saved_state(world), ana.id)
            await ws.send_json({"op": "play", "card": play.card, "pile": play.pile})
            shown = await next_state(ws, after=shown["seq"])
        await ws.send_json({"op": "end"})
        shown = await next_state(ws, after=shown["seq"])
        final: the_game.State = saved_state(world)
        await world.fake.invoke("endgame", user=ana, channel=world.channel)
        async with asyncio.timeout(1):
            while not shown["over"]:
                shown = json.loads((await ws.receive()).data)["state"]
        assert shown["replayable"]
        await ws.send_json({"op": "replay", "turn": 0})
        async with asyncio.timeout(1):
            message = json.loads((await ws.receive()).data)
        assert message["type"] == "replay"
        step = message["replay"]
        assert (step["turn"], step["turns"], step["moves"]) == (0, 1, 0)
        assert all(p["top"] in (1, 100) for p in step["piles"])  # the deal
        assert len(step["revealed"]) == 2  # every hand, now that the game is over
        await ws.send_json({"op": "replay", "turn": 1})
        async with asyncio.timeout(1):
            step = json.loads((await ws.receive()).data)["replay"]
        assert step["moves"] == 3
        assert [p["top"] for p in step["piles"]] == [p.top for p in the_game.public_view(final).piles]
        assert len(step["log"]) == 3
        assert step["status"] == "The game was ended here, without a score (abandoned)."


async def test_hint_from_the_page_at_a_solo_table(world: World, web_bot: Bot) -> None:
    ana = world.players[0]
    await open_game(world, [ana])
    token = token_of(table_link(await hand_panel(world, ana)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        shown = await next_state(ws)
        assert shown["hint"]
        await ws.send_json({"op": "hint"})
        async with asyncio.timeout(2):
            message = json.loads((await ws.receive()).data)
        assert message["type"] == "hint"
        assert message["text"].startswith("💡 Hint: ")
        assert "leaderboard" in message["text"]
        record = await web_bot.storage.game(int(token.split(".")[0]))
        assert record is not None
        assert record.hinted  # marked before it was told, as on the panel
        assert saved_state(world).move_count == 0  # a hint plays nothing


async def test_leaving_from_the_page_goes_through_the_lobby(world: World, web_bot: Bot) -> None:
    """The page's leave is /leave's: at a competitive table of three people the autopilot takes the seat (the game
    goes on, the leaver is told); then, with two people left, the next leave is the game's own move."""
    ana, ben, cy = world.players[:3]
    await open_game(world, [ana, ben, cy], "no_thanks")
    token = token_of(table_link(await hand_panel(world, cy)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        await next_state(ws)
        await ws.send_json({"op": "leave"})
        assert (await refusal(ws)).startswith("You left the game. The autopilot plays your seat")
    record = await web_bot.storage.open_game(world.channel.id)
    assert record is not None
    assert cy.id in options_of(record).autopilot
    assert saved_state(world).left == (False, False, False)  # the seat plays on
    token = token_of(table_link(await hand_panel(world, ben)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        shown = await next_state(ws)
        await ws.send_json({"op": "leave"})
        shown = await next_state(ws, after=shown["seq"])
    state: no_thanks.State = saved_state(world)
    assert state.left[1]  # ben's leave was the game's own move
    await no_thanks_board(world)


async def test_a_burst_of_moves_is_slowed_down(world: World, web_bot: Bot) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    token = token_of(table_link(await hand_panel(world, ben)))
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(web_bot)}/ws/{token}") as ws:
        await next_state(ws)
        for _ in range(12):
            await ws.send_json({"op": "end"})  # nothing laid yet: refused by the rules, but each one counts
        texts = [await refusal(ws) for _ in range(12)]
    slow = "Slow down: too many moves at once. Try again in a moment."
    assert slow not in texts[:8]
    assert slow in texts[8:]
    assert saved_state(world).move_count == 0


async def test_the_tables_votes_from_the_page(world: World, web_bot: Bot) -> None:
    members = world.players[:3]
    await open_game(world, members, "no_thanks")
    state: no_thanks.State = saved_state(world)
    away = no_thanks.current_player(state)
    voters = [m for m in members if m.id != away]
    pages: dict[int, aiohttp.ClientWebSocketResponse] = {}
    async with aiohttp.ClientSession() as http:
        for member in members:
            token = token_of(table_link(await hand_panel(world, member)))
            pages[member.id] = await http.ws_connect(f"{base_url(web_bot)}/ws/{token}?lang=en")
            assert (await next_state(pages[member.id]))["votes"] == []  # nobody has missed a turn yet
        # The clock counts a missed turn (as when it played for them): the others may now vote on the player to move.
        game_id = saved_game_id(world)
        await web_bot.tables.games.modify(game_id, lambda record: {"options": options_of(record).but(misses={away: 1})})
        for member in members:
            await pages[member.id].send_json({"op": "sync"})
            offered = (await next_state(pages[member.id]))["votes"]
            if member.id == away:
                assert offered == []
            else:
                assert [(v["kind"], v["target"], v["label"]) for v in offered] == [
                    ("autopilot", str(away), "Let the autopilot play for them"),
                    ("remove", str(away), "Vote them out of the game"),
                ]
        first, second = voters
        await pages[first.id].send_json({"op": "vote", "kind": "remove", "target": str(away)})
        assert (
            await told(pages[first.id])
            == f"Your vote is in: {name_of(members, away)} leaves the game once 2 of you agree (1 so far)."
        )
        await pages[away].send_json({"op": "vote", "kind": "remove", "target": str(first.id)})
        assert (await refusal(pages[away])).startswith("There is no vote on that player now")
        await pages[second.id].send_json({"op": "vote", "kind": "remove", "target": str(away)})
        assert await told(pages[second.id]) == f"The table agreed: {name_of(members, away)} leaves the game."
        await world.fake.wait_for(lambda: saved_state(world).left[saved_state(world).players.index(away)], 3)
        for ws in pages.values():
            await ws.close()


async def told(ws: aiohttp.ClientWebSocketResponse) -> str:
    """What the page is told (a vote counted, a hint): the next "hint" message."""
    return await received(ws, "hint")


def name_of(members: list[Any], player: int | None) -> str:
    return next(m.name for m in members if m.id == player)


def saved_game_id(world: World) -> int:
    saved = saved_game(world)
    assert saved is not None
    return int(saved[0]["id"])
