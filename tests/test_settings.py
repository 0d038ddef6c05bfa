"""Settings come from the environment; a missing token stops the bot with one clear line and status 2."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import DEFAULT_DATABASE_PATH, ConfigError, Settings

ROOT = Path(__file__).resolve().parent.parent


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": " abc "})
    assert settings == Settings(token="abc", database_path=DEFAULT_DATABASE_PATH, dev_guild_id=None, log_level="INFO")


def test_every_setting() -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "t", "DATABASE_PATH": "/tmp/x.db", "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"}
    )
    assert settings == Settings(token="t", database_path="/tmp/x.db", dev_guild_id=123, log_level="DEBUG")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be"),
    ],
)
def test_bad_settings_are_explained(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_missing_token_exits_with_status_2_and_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "Traceback" not in result.stderr
