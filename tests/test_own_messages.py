"""The bot's own message events are dropped before discord.py parses them (``bot.skip_own_messages``); everybody
else's still reach the listeners (chat moderation, the chat count that reposts a board)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import Bot, Settings

BOT_ID = 1000
PERSON_ID = 2000


def message_event(author_id: int, message_id: int = 5) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": "30",
        "guild_id": "40",
        "author": {"id": str(author_id), "username": "someone", "discriminator": "0", "avatar": None},
        "content": "3 and 4",
        "timestamp": "2026-11-25T18:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
    }


@pytest.mark.parametrize("event", ["MESSAGE_CREATE", "MESSAGE_UPDATE"])
def test_only_the_bots_own_message_events_are_dropped(event: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = Bot(Settings(token="x"))
    state: Any = bot._connection
    state.user = discord.ClientUser(
        state=state, data={"id": str(BOT_ID), "username": "CardTable", "discriminator": "0", "avatar": None}
    )
    dispatched: list[str] = []
    monkeypatch.setattr(state, "dispatch", lambda name, *args: dispatched.append(name))
    parse = state.parsers[event]

    parse(message_event(BOT_ID))
    assert dispatched == []

    parse(message_event(PERSON_ID))
    assert dispatched == (["message"] if event == "MESSAGE_CREATE" else ["raw_message_edit"])
