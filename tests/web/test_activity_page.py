"""The Discord Activity in a real browser: a test page at ``https://discord.com`` (served by Playwright, so the
origin is Discord's own) plays Discord's client: it frames the table's root page as Discord frames an Activity, answers
the Embedded App SDK's handshake with READY and its AUTHORIZE with a code from the fake Discord; the page signs in
through the bot and ana plays from the frame. A page at any other origin may not frame it."""

from __future__ import annotations

import re
from typing import Any

from bot import Bot
from engine import the_game
from tests.e2e.conftest import World
from tests.e2e.table_helpers import open_game
from tests.players import saved_state, tops_of
from tests.web.conftest import base_url, committed, eventually

# Discord's side of the frame: READY after the handshake, a code for AUTHORIZE (from the test, as the client asks
# Discord), answers matched by nonce. ``seen`` keeps what the page sent, for the test to check.
PARENT = """<!doctype html><html><body>
<iframe id="activity" src="%s" style="width: 1000px; height: 700px"></iframe>
<script>
const frame = document.getElementById("activity");
window.seen = [];
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow) return;
  const [opcode, payload] = event.data;
  window.seen.push({ opcode, payload });
  const reply = (message) => frame.contentWindow.postMessage(message, "*");
  if (opcode === 0 && location.search === "?refuse") reply([2, { code: 4000, message: "Invalid client id" }]);
  else if (opcode === 0) reply([1, { cmd: "DISPATCH", evt: "READY", data: { v: 1, config: {} } }]);
  else if (opcode === 1 && payload.cmd === "AUTHORIZE") {
    const code = await window.discordCode(payload.args);
    reply([1, { cmd: "AUTHORIZE", nonce: payload.nonce, evt: null, data: { code } }]);
  }
});
</script></body></html>"""


async def open_activity(world: World, bot: Bot, context: Any, origin: str, user: Any, *, refuse: bool = False) -> Any:
    """A page at ``origin`` framing the Activity for ``user`` in the world's channel; ``refuse``: Discord's client
    closes the connection at the handshake (CLOSE) instead of READY."""
    query = f"frame_id=f1&instance_id=i1&platform=desktop&guild_id={world.guild.id}&channel_id={world.channel.id}"
    html = PARENT % f"{base_url(bot)}/?{query}"
    page = await context.new_page()
    asked: list[dict[str, Any]] = []

    def code(args: dict[str, Any]) -> str:
        asked.append(args)
        return world.fake.authorize(user, args["scope"])

    await page.expose_function("discordCode", code)
    await page.route(f"{origin}/activity*", lambda route: route.fulfill(body=html, content_type="text/html"))
    await page.goto(f"{origin}/activity" + ("?refuse" if refuse else ""))
    page.asked = asked
    return page


async def test_the_activity_signs_in_through_discord_and_plays(world: World, activity_bot: Bot, browser: Any) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    context = await browser.new_context(viewport={"width": 1000, "height": 700})
    page = await open_activity(world, activity_bot, context, "https://discord.com", ana)
    frame = page.frame_locator("#activity")
    hand = frame.get_by_role("region", name="Your hand")
    await hand.get_by_role("button").first.wait_for(timeout=5000)
    handshake = (await page.evaluate("window.seen"))[0]
    assert handshake["opcode"] == 0
    assert handshake["payload"]["client_id"] == str(world.fake.application_id)
    assert handshake["payload"]["frame_id"] == "f1"
    assert page.asked == [
        {
            "client_id": str(world.fake.application_id),
            "response_type": "code",
            "state": "",
            "prompt": "none",
            "scope": ["identify"],
        }
    ]
    # ana's own hand, signed in as ana: the frame plays like the link's page.
    state: the_game.State = saved_state(world)
    assert await hand.get_by_role("button").all_inner_texts() == [str(c) for c in the_game.hand(state, ana.id)]
    card = the_game.hand(state, ana.id)[0]
    await hand.get_by_role("button", name=str(card), exact=True).click()
    await frame.get_by_role("region", name="Piles").get_by_role("button", name=re.compile("^A ")).click()
    state = await committed(world, 1)
    assert tops_of(state)["A"] == card

    async def follows() -> None:
        texts = await hand.get_by_role("button").all_inner_texts()
        assert texts == [str(c) for c in the_game.hand(state, ana.id)]

    await eventually(follows, what="the Activity to show the move")
    await context.close()


async def test_only_discord_may_frame_the_activity(world: World, activity_bot: Bot, browser: Any) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    context = await browser.new_context()
    page = await open_activity(world, activity_bot, context, "https://cards.example.org", ana)
    # Chromium puts its error page in the table's place (the frame's address says so once it has).
    frame = next(f for f in page.frames if f is not page.main_frame)

    def refused() -> None:
        assert frame.url.startswith("chrome-error://"), frame.url

    await eventually(refused, 5, "the frame to be refused")
    assert await frame.get_by_role("region", name="Your hand").count() == 0
    assert page.asked == []
    await context.close()


async def test_a_refused_handshake_says_so(world: World, activity_bot: Bot, browser: Any) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    context = await browser.new_context(locale="de-DE")
    page = await open_activity(world, activity_bot, context, "https://discord.com", ana, refuse=True)
    alert = page.frame_locator("#activity").get_by_role("alert")
    await alert.get_by_text("Discord hat nicht bestätigt, wer du bist.", exact=False).wait_for(timeout=5000)
    assert page.asked == []
    await context.close()
