"""Issue 37's Discord Activity without a browser: the fake Discord's OAuth2 token endpoint, ``/users/@me`` with a
bearer token and ``LAUNCH_ACTIVITY`` (checked first, so the fake stays as strict as Discord), then the bot: the hand
panel's button launches the Activity, the sign-in seats the user Discord names for the code and nobody else, and the
Activity's page may be framed by Discord alone."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from bot import Bot
from config import ConfigError, Settings
from tests.e2e.conftest import World
from tests.e2e.table_helpers import open_game
from tests.fake_discord import FakeDiscord, Member
from tests.web.conftest import base_url, hand_panel
from web.activity import DISCORD_FRAMES, LAUNCH, SIGN_IN_BURST


async def exchange(fake: FakeDiscord, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.post(f"{fake.api_url}/oauth2/token", data=form) as response:
        return response.status, await response.json()


def grant(fake: FakeDiscord, code: str, secret: str | None = None) -> dict[str, str]:
    return {
        "client_id": str(fake.application_id),
        "client_secret": secret or fake.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }


async def test_the_fake_exchanges_a_code_once_for_a_bearer_token(world: World) -> None:
    fake, ana = world.fake, world.players[0]
    status, body = await exchange(fake, grant(fake, fake.authorize(ana), secret="not-the-secret"))
    assert (status, body["error"]) == (401, "invalid_client")
    code = fake.authorize(ana)
    status, body = await exchange(fake, grant(fake, code))
    assert status == 200, body
    assert (body["token_type"], body["scope"]) == ("Bearer", "identify")
    again, refused = await exchange(fake, grant(fake, code))  # a code is good once
    assert (again, refused["error"]) == (400, "invalid_grant")
    assert (await exchange(fake, grant(fake, "made-up")))[0] == 400
    async with aiohttp.ClientSession() as http:
        bearer = {"Authorization": f"Bearer {body['access_token']}"}
        async with http.get(f"{fake.api_url}/users/@me", headers=bearer) as me:
            assert me.status == 200
            assert (await me.json())["id"] == str(ana.id)
        async with http.get(f"{fake.api_url}/users/{ana.id}", headers=bearer) as other:
            assert other.status == 401  # a user's token is no bot token
        async with http.get(f"{fake.api_url}/users/@me", headers={"Authorization": "Bearer forged"}) as forged:
            assert forged.status == 401


async def launch(world: World, member: Member) -> Any:
    panel = await hand_panel(world, member)
    buttons = [b for b in panel.buttons if b.get("label") == "Open the table"]
    assert [b.get("custom_id") for b in buttons] == [LAUNCH], panel.buttons
    assert "url" not in buttons[0]
    return await world.fake.click(panel, LAUNCH, user=member)


async def test_the_panel_button_launches_the_activity(world: World, activity_bot: Bot) -> None:
    ana, ben = world.players[:2]
    await open_game(world, [ana, ben])
    clicked = await launch(world, ana)
    assert (await clicked.wait_response()).type == 12
    # Where Discord refuses (Activities not enabled for the application after all), the link comes instead.
    world.fake.activities = False
    refused = await launch(world, ben)
    answer = await refused.wait_response()
    assert answer.type == 4
    assert answer.ephemeral
    links = [b for b in answer.message.buttons if b.get("label") == "Open the table"] if answer.message else []
    assert links
    assert str(links[0]["url"]).startswith(base_url(activity_bot) + "/t/")
    world.fake.violations.clear()  # the refused type 12 was asked for on purpose


async def sign_in(bot: Bot, code: str, channel: int) -> tuple[int, dict[str, Any]]:
    body = {"code": code, "channel_id": str(channel)}
    async with aiohttp.ClientSession() as http, http.post(base_url(bot) + "/api/activity/token", json=body) as answer:
        return answer.status, await answer.json()


async def test_the_sign_in_seats_whom_discord_names(world: World, activity_bot: Bot) -> None:
    fake = world.fake
    ana, ben, cy = world.players[:3]
    status, body = await sign_in(activity_bot, fake.authorize(ana), world.channel.id)
    assert status == 403
    assert body["text"].startswith("You have no seat at a game in this channel")
    await open_game(world, [ana, ben])
    status, body = await sign_in(activity_bot, fake.authorize(ana), world.channel.id)
    assert status == 200, body
    assert body["lang"] == "en"
    assert activity_bot.web is not None
    assert activity_bot.web.signer is not None
    _game, player = activity_bot.web.signer.verify(body["token"]) or (0, 0)
    assert player == ana.id
    async with aiohttp.ClientSession() as http, http.get(f"{base_url(activity_bot)}/t/{body['token']}") as page:
        assert page.status == 200  # the same token as the link's
    # Nobody without a seat (the channel is the page's word: they may not even see it); a code Discord never gave,
    # or one already spent, opens nothing.
    status, body = await sign_in(activity_bot, fake.authorize(cy), world.channel.id)
    assert status == 403
    assert "token" not in body
    code = fake.authorize(ben)
    assert (await sign_in(activity_bot, code, world.channel.id))[0] == 200
    assert (await sign_in(activity_bot, code, world.channel.id))[0] == 403
    assert (await sign_in(activity_bot, "made-up", world.channel.id))[0] == 403
    async with aiohttp.ClientSession() as http:
        async with http.post(base_url(activity_bot) + "/api/activity/token", data="not json") as bad:
            assert bad.status == 400
        async with http.get(base_url(activity_bot) + "/") as page:
            assert page.status == 200
            csp = page.headers["Content-Security-Policy"]
            assert f"frame-ancestors {DISCORD_FRAMES};" in csp + ";"
        async with http.get(base_url(activity_bot) + "/api/activity") as config:
            assert (await config.json())["client_id"] == str(fake.application_id)


async def test_links_stay_unframed_and_the_activity_off_without_its_setting(world: World, web_bot: Bot) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(base_url(web_bot) + "/") as root:
            assert root.status == 404
        async with http.post(base_url(web_bot) + "/api/activity/token", json={}) as token:
            assert token.status in (404, 405)


def test_the_activity_needs_the_web_table_and_the_client_secret() -> None:
    env = {"DISCORD_TOKEN": "t", "WEB_ACTIVITY": "1", "WEB_PORT": "8080"}
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET"):
        Settings.from_env(env)
    settings = Settings.from_env({**env, "DISCORD_CLIENT_SECRET": "s"})
    assert settings.web_activity
    assert settings.client_secret == "s"
    assert not Settings.from_env({"DISCORD_TOKEN": "t"}).web_activity


async def test_sign_ins_are_rate_limited(world: World, activity_bot: Bot) -> None:
    """A flood of made-up codes costs Discord a burst of exchanges, then the bot refuses without asking."""
    asked = len([r for r in world.fake.requests if r.path == "/oauth2/token"])
    flood = [sign_in(activity_bot, f"made-up-{n}", world.channel.id) for n in range(2 * SIGN_IN_BURST)]
    answers = [status for status, _body in await asyncio.gather(*flood)]
    assert answers.count(403) >= SIGN_IN_BURST
    assert answers.count(429) >= SIGN_IN_BURST // 2  # all at once: the refill adds a few at most
    exchanged = len([r for r in world.fake.requests if r.path == "/oauth2/token"]) - asked
    assert exchanged == answers.count(403)
