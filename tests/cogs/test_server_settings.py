"""The pure parts of issue 24's server settings and permission notes."""

from __future__ import annotations

import discord
import pytest

from cogs._permissions import missing_permissions
from i18n import render
from table.settings import ServerSettings


def test_settings_read_leniently_and_round_trip() -> None:
    assert ServerSettings.from_dict({}) == ServerSettings()
    odd = {
        "turn_times": {"the_game": 600, "no_thanks": 7, "chess": 60, "x": True},
        "pings": "no",
        "channels": [5, "6", -1, True],
        "language": "xx",
        "end_role": "7",
        "from_a_newer_bot": 1,
    }
    settings = ServerSettings.from_dict(odd)
    assert dict(settings.turn_times) == {"the_game": 600}
    assert (settings.pings, settings.channels, settings.language, settings.end_role) == (True, {5}, "auto", None)
    assert ServerSettings.from_dict(settings.to_dict()) == settings
    assert settings.turn_time("the_game") == 600
    assert settings.turn_time("no_thanks") == 60  # the game's own default


def test_channels_allow_their_threads_and_no_channels_allow_all() -> None:
    assert ServerSettings().allows(1)
    only = ServerSettings(channels=frozenset({10}))
    assert only.allows(10)
    assert only.allows(11, parent=10)
    assert not only.allows(11)


@pytest.mark.parametrize(
    ("granted", "in_thread", "missing"),
    [
        (discord.Permissions(view_channel=True, send_messages=True, embed_links=True), False, []),
        (discord.Permissions(view_channel=True, embed_links=True), False, ["Send Messages"]),
        (
            discord.Permissions(view_channel=True, send_messages=True, embed_links=True),
            True,
            ["Send Messages in Threads"],
        ),
        (discord.Permissions(view_channel=True, send_messages_in_threads=True, embed_links=True), True, []),
        (discord.Permissions.none(), False, ["View Channel", "Send Messages", "Embed Links"]),
    ],
)
def test_missing_permissions(granted: discord.Permissions, in_thread: bool, missing: list[str]) -> None:
    assert [render(name, "en") for name, _ in missing_permissions(granted, in_thread=in_thread)] == missing
