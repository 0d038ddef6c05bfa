"""A move's states reach each open page through that page's own queue of one: a slow page never delays another page
(nor the move), a state superseded while it waited is never sent, and a page that already shows a state gets nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from web.live import LivePages, Page


class Socket:
    """Stands in for a page's WebSocket: records what it was sent; ``hold`` makes it as slow as we like."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = False
        self.hold: asyncio.Event | None = None

    async def send_str(self, data: str) -> None:
        if self.hold is not None:
            await self.hold.wait()
        self.sent.append(json.loads(data))


def page_of(socket: Socket, player: int) -> Page:
    return Page(socket, 1, player, "en")  # type: ignore[arg-type]


def seqs(socket: Socket) -> list[int]:
    return [message["state"]["seq"] for message in socket.sent]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_state_goes_out_once_as_public_and_seat_parts_joined() -> None:
    live, socket = LivePages(), Socket()
    page = page_of(socket, 11)
    live.queue(page, '{"seq":1,"piles":[]}', '{"hand":[5],"myTurn":true}', None)
    await settle()
    assert socket.sent == [
        {"type": "state", "state": {"seq": 1, "piles": [], "hand": [5], "myTurn": True, "deadline": None}}
    ]
    live.queue(page, '{"seq":1,"piles":[]}', '{"hand":[5],"myTurn":true}', None)  # the same view: nothing to send
    await settle()
    assert seqs(socket) == [1]
    live.queue(page, '{"seq":1,"piles":[]}', '{"hand":[5],"myTurn":true}', 10**10)  # the clock restarted: sent
    await settle()
    assert seqs(socket) == [1, 1]
    assert socket.sent[-1]["state"]["deadline"] > 0


async def test_a_slow_page_gets_only_the_newest_state_and_delays_no_other_page() -> None:
    live, slow, quick = LivePages(), Socket(), Socket()
    slow.hold = asyncio.Event()
    slow_page, quick_page = page_of(slow, 11), page_of(quick, 22)
    for seq in (1, 2, 3, 4):
        for page in (slow_page, quick_page):
            live.queue(page, f'{{"seq":{seq}}}', "{}", None)
        await settle()
    assert seqs(quick) == [1, 2, 3, 4]  # every state, while the slow page still holds its first
    assert slow.sent == []
    slow.hold.set()
    await settle()
    assert seqs(slow) == [1, 4]  # the one it was sending, then the newest: 2 and 3 were superseded
