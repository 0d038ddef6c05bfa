"""``tests/openapi_check.py``: request bodies against the pinned extract of Discord's OpenAPI specification."""

from __future__ import annotations

import re

import pytest

from tests.fake_discord import CHANNEL_MESSAGE, CHANNEL_MESSAGES, INTERACTION_CALLBACK, WEBHOOK_MESSAGE
from tests.openapi_check import check_request, spec

COMMANDS = "/applications/{application_id}/commands"


def test_the_extract_is_pinned_to_a_commit_of_discords_own_repository() -> None:
    data = spec()
    assert re.fullmatch(r"[0-9a-f]{40}", data["commit"])
    assert data["source"].startswith("https://github.com/discord/discord-api-spec/blob/" + data["commit"])
    assert data["api_version"] == "10"
    # Every route the bot sends a JSON body to has its schema.
    shapes = {"POST /channels/{}/messages", "PATCH /channels/{}/messages/{}", "PATCH /webhooks/{}/{}/messages/{}"}
    assert shapes | {
        "POST /interactions/{}/{}/callback",
        "POST /webhooks/{}/{}",
        "PUT /applications/{}/commands",
    } <= set(data["operations"])


@pytest.mark.parametrize(
    ("method", "route", "body"),
    [
        ("POST", CHANNEL_MESSAGES, {"content": "hi", "allowed_mentions": {"parse": [], "users": ["12"]}}),
        ("PATCH", CHANNEL_MESSAGE, {"content": None, "embeds": [], "components": []}),
        ("PATCH", WEBHOOK_MESSAGE, {"embeds": [{"title": "The Game", "fields": [{"name": "A", "value": "1"}]}]}),
        ("POST", INTERACTION_CALLBACK, {"type": 4, "data": {"content": "x", "flags": 64}}),
        ("POST", INTERACTION_CALLBACK, {"type": 6}),
        ("PUT", COMMANDS, [{"name": "play", "description": "Lay a card", "type": 1}]),
    ],
)
def test_bodies_discord_accepts_conform(method: str, route: str, body: object) -> None:
    assert check_request(method, route, body) == []


@pytest.mark.parametrize(
    ("method", "route", "body", "problem"),
    [
        ("POST", CHANNEL_MESSAGES, {"content": 5}, "body.content: 5 is not of type string/null"),
        ("POST", CHANNEL_MESSAGES, {"embeds": [{"title": "t" * 257}]}, "body.embeds[0].title: 257 characters. Must be"),
        ("POST", CHANNEL_MESSAGES, {"embeds": [{}] * 11}, "body.embeds: 11 items. Must be 10 or fewer in length."),
        ("POST", INTERACTION_CALLBACK, {"type": 99}, "body: matches none of"),
        (
            "PUT",
            COMMANDS,
            [{"name": "n" * 33, "description": "d"}],
            "body[0].name: 33 characters. Must be between 1 and 32 in length.",
        ),
        ("POST", CHANNEL_MESSAGES, {"allowed_mentions": {"users": ["me"]}}, "does not match"),
    ],
)
def test_bodies_discord_refuses_are_named(method: str, route: str, body: object, problem: str) -> None:
    problems = check_request(method, route, body)
    assert any(problem in p for p in problems), problems


def test_a_route_without_a_json_body_in_the_specification_is_not_checked() -> None:
    assert check_request("GET", "/channels/{channel_id}", None) == []
    assert check_request("DELETE", CHANNEL_MESSAGE, None) == []
