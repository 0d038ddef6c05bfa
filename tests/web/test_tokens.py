"""The web table's links, settings and rate limit, without a bot: a token opens one seat of one game and nothing
else, the key survives a restart, a link closes a day after its game ends, and a burst of moves is cut off."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from config import ConfigError, Settings
from engine import the_game
from storage import GameRecord, open_storage
from web.messages import BURST, PER_SECOND, Bucket, action_of
from web.replay import replayable
from web.tokens import Signer, load_key, still_open

KEY = bytes(range(32))


def test_a_token_names_its_game_and_player_and_nothing_else() -> None:
    signer = Signer(KEY)
    token = signer.sign(7, 1234)
    assert signer.verify(token) == (7, 1234)
    game, player, mac = token.split(".")
    assert signer.verify(f"8.{player}.{mac}") is None
    assert signer.verify(f"{game}.1235.{mac}") is None
    assert signer.verify(f"{game}.{player}.{mac.swapcase()}") is None
    assert signer.verify(f"{game}.{player}") is None
    assert signer.verify("-1.-2.x") is None
    assert Signer(bytes(32)).verify(token) is None  # another bot's key


async def test_the_key_is_made_once_and_kept(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.sqlite3")
    storage = await open_storage(path)
    try:
        first = await load_key(storage)
        assert len(first) == 32
        assert await load_key(storage) == first
    finally:
        await storage.close()
    storage = await open_storage(path)
    try:
        assert await load_key(storage) == first  # after a restart, the links given out still open
    finally:
        await storage.close()


def record(status: str, ended_at: str | None) -> GameRecord:
    return GameRecord(1, 2, 3, "the_game", 4, (4, 5), (), 1, 1, status, 0, 0, ended_at=ended_at)


def test_a_link_opens_while_the_game_runs_and_a_day_after_it_ended() -> None:
    now = dt.datetime(2026, 11, 27, 12, 0, tzinfo=dt.UTC)
    assert still_open(record("running", None), now)
    assert not still_open(record("lobby", None), now)
    assert still_open(record("finished", "2026-11-26T12:30:00+00:00"), now)
    assert not still_open(record("finished", "2026-11-26T11:30:00+00:00"), now)
    assert not still_open(record("abandoned", "2026-11-20T11:30:00+00:00"), now)
    assert not still_open(record("finished", None), now)


def test_a_burst_of_moves_is_cut_off_then_allowed_again() -> None:
    bucket = Bucket(refilled=100.0)
    assert all(bucket.take(100.0) for _ in range(BURST))
    assert not bucket.take(100.0)
    assert bucket.take(100.0 + 1 / PER_SECOND)
    assert not bucket.take(100.0 + 1 / PER_SECOND)


def test_only_the_games_own_moves_are_read_from_a_page() -> None:
    assert action_of("the_game", {"op": "play", "card": 12, "pile": "B"}) is not None
    for bad in (
        {"op": "play", "card": "12", "pile": "B"},
        {"op": "play", "card": True, "pile": "B"},
        {"op": "play", "card": 12, "pile": "E"},
        {"op": "take"},
        {"op": "lay"},
    ):
        assert action_of("the_game", bad) is None, bad
    assert action_of("no_thanks", {"op": "take"}) is not None
    assert action_of("no_thanks", {"op": "end"}) is None
    assert action_of("the_game", {"op": "leave"}) is None  # leaving is the lobby's (``Messages._leave``)
    assert action_of("the_game", {"op": "signal", "kind": "trick", "pile": "B"}) == the_game.Signal("trick", "B")
    assert action_of("the_game", {"op": "signal", "kind": "trick"}) is None  # a pile signal names its pile
    assert action_of("the_game", {"op": "signal", "kind": "shout", "pile": "B"}) is None


def test_the_web_settings() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).web_port is None  # off by default
    on = Settings.from_env({"DISCORD_TOKEN": "t", "WEB_PORT": "8080", "WEB_URL": "https://cards.example.org/"})
    assert (on.web_port, on.web_url) == (8080, "https://cards.example.org")
    with pytest.raises(ConfigError, match="WEB_PORT must be a port number"):
        Settings.from_env({"DISCORD_TOKEN": "t", "WEB_PORT": "web"})
    with pytest.raises(ConfigError, match="WEB_URL must be"):
        Settings.from_env({"DISCORD_TOKEN": "t", "WEB_URL": "cards.example.org"})


def test_todays_daily_deal_does_not_replay() -> None:
    class Offline:
        def get_cog(self, name: str) -> None:
            return None

    today = dt.datetime.now(dt.UTC).date()
    daily = replace(
        record("finished", "2026-11-26T12:30:00+00:00"), options={"deal": "daily", "date": today.isoformat()}
    )
    assert not replayable(daily, Offline())
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    assert replayable(replace(daily, options={"deal": "daily", "date": yesterday}), Offline())
    assert not replayable(record("running", None), Offline())
