"""Settings come from the environment; a missing token stops the bot with one clear line and status 2."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot as bot_module
from config import DEFAULT_DATABASE_PATH, ConfigError, Settings

ROOT = Path(__file__).resolve().parent.parent


def test_defaults() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": " abc "})
    assert settings == Settings(token="abc", database_path=DEFAULT_DATABASE_PATH, dev_guild_id=None, log_level="INFO")


def test_privacy_settings() -> None:
    assert (Settings.from_env({"DISCORD_TOKEN": "t"}).forget_server_after_days) == 30
    settings = Settings.from_env({"DISCORD_TOKEN": "t", "FORGET_SERVER_AFTER_DAYS": "0", "KEEP_HAND_TEXTS_DAYS": "7"})
    assert (settings.forget_server_after_days, settings.keep_hand_texts_days) == (0, 7)


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
        ({"DISCORD_TOKEN": "t", "FORGET_SERVER_AFTER_DAYS": "a month"}, "FORGET_SERVER_AFTER_DAYS must be a whole"),
        ({"DISCORD_TOKEN": "t", "KEEP_HAND_TEXTS_DAYS": "-1"}, "KEEP_HAND_TEXTS_DAYS must be a whole number"),
    ],
)
def test_bad_settings_are_explained(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_missing_token_exits_with_status_2_and_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["XDG_CONFIG_HOME"] = str(tmp_path)  # no per-user .env
    if (ROOT / ".env").exists():
        env["DISCORD_TOKEN"] = ""  # set, so a developer's own .env beside bot.py doesn't start a real bot here
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "Traceback" not in result.stderr


def test_postgresql_and_shards() -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "t", "DATABASE_URL": " postgresql://bot@db/cards ", "SHARD_COUNT": "4", "SHARD_IDS": "0-1,3"}
    )
    assert settings.database_url == "postgresql://bot@db/cards"
    assert (settings.shard_count, settings.shard_ids) == (4, (0, 1, 3))
    assert Settings.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"}).shard_ids is None  # every shard
    plain = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert (plain.database_url, plain.shard_count, plain.shard_ids) == (None, None, None)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "mysql://db/x"}, "DATABASE_URL must be a PostgreSQL URL"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-x"}, "SHARD_IDS must list shard numbers"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "SHARD_IDS must list shard numbers"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "runs backwards"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "shard 2 does not exist with SHARD_COUNT=2"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-2,1"}, "names a shard twice"),
    ],
)
def test_bad_database_or_shard_settings_are_explained(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({"DISCORD_TOKEN": "t", **env})


def test_shard_settings_make_a_sharded_bot() -> None:
    from discord.ext import commands

    from bot import Bot, ShardedBot, build_bot

    one = build_bot(Settings(token="t"))
    assert type(one) is Bot
    sharded = build_bot(Settings(token="t", shard_count=4, shard_ids=(1, 3)))
    assert isinstance(sharded, ShardedBot)
    assert isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])


# ---- where .env and the database are found (issue 11) ----------------------------------------------------------


def test_env_is_looked_for_here_then_in_the_checkout_then_in_the_user_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.delenv("CARDTABLE_HOME")  # set for every test (tests/conftest.py); an owner's start has none
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    if os.name == "nt":
        pytest.skip("the per-user folder is %APPDATA% on Windows")
    # Run from the checkout (python bot.py, or an editable install), with the checkout's own .venv.
    monkeypatch.setattr(sys, "prefix", str(ROOT / ".venv"))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    assert bot_module.env_folders() == [here, ROOT, tmp_path / "config" / "cardtable-bot"]
    # Installed by `pip install .` into a virtual environment in another checkout: that checkout.
    other = tmp_path / "other"
    monkeypatch.setattr(bot_module, "__file__", str(other / ".venv" / "lib" / "site-packages" / "bot.py"))
    monkeypatch.setattr(sys, "prefix", str(other / ".venv"))
    assert bot_module.env_folders() == [here, other, tmp_path / "config" / "cardtable-bot"]
    # Installed without a virtual environment (pipx, --user, a container): here, then the per-user folder.
    monkeypatch.setattr(sys, "prefix", "/usr")
    assert bot_module.env_folders() == [here, tmp_path / "config" / "cardtable-bot"]


def test_the_first_env_found_decides_and_without_one_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folders = [tmp_path / name for name in ("here", "checkout", "config")]
    for folder in folders:
        folder.mkdir()
    monkeypatch.chdir(folders[0])
    monkeypatch.delenv("CARDTABLE_HOME")
    monkeypatch.setattr(bot_module, "env_folders", lambda: folders)
    assert bot_module.bot_folder() == folders[0]
    (folders[2] / ".env").write_text("")
    assert bot_module.bot_folder() == folders[2]
    (folders[1] / ".env").write_text("")
    assert bot_module.bot_folder() == folders[1]
    (folders[0] / ".env").write_text("")
    assert bot_module.bot_folder() == folders[0]


@pytest.mark.parametrize(
    ("database_path", "expected"),
    [(None, "checkout/data/bot.sqlite3"), ("games/x.db", "checkout/games/x.db"), ("/srv/x.db", "/srv/x.db")],
)
def test_a_relative_database_path_is_taken_from_the_env_folder_not_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database_path: str | None, expected: str
) -> None:
    checkout, elsewhere = tmp_path / "checkout", tmp_path / "elsewhere"
    checkout.mkdir()
    elsewhere.mkdir()
    (checkout / ".env").write_text("DISCORD_TOKEN=from-env-file\n")
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("CARDTABLE_HOME")
    monkeypatch.setattr(bot_module, "env_folders", lambda: [elsewhere, checkout])
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.setenv(name, "")  # recorded, so whatever load_dotenv sets is undone afterwards
        monkeypatch.delenv(name)
    if database_path is not None:
        monkeypatch.setenv("DATABASE_PATH", database_path)  # the environment's, like the .env's, is relative
    started: list[Settings] = []

    async def run(settings: Settings) -> int:
        started.append(settings)
        return 0

    monkeypatch.setattr(bot_module, "run", run)
    monkeypatch.setattr(bot_module.startup, "setup_logging", lambda *_: None)
    with pytest.raises(SystemExit) as exited:
        bot_module.main([])
    assert exited.value.code == 0
    assert started[0].token == "from-env-file"
    assert started[0].database_path == str(tmp_path / expected)


def test_cardtable_home_names_the_bots_folder_and_no_other_env_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, here = tmp_path / "home", tmp_path / "here"
    home.mkdir()
    here.mkdir()
    (here / ".env").write_text("DISCORD_TOKEN=not-this-one\n")
    monkeypatch.chdir(here)
    monkeypatch.setenv("CARDTABLE_HOME", str(home))
    assert bot_module.env_folders() == [home]
    assert bot_module.bot_folder() == home  # even with no .env in it: relative paths are taken from there
    monkeypatch.setenv("CARDTABLE_HOME", ".")
    assert bot_module.bot_folder() == here  # relative: to the folder the bot starts in
