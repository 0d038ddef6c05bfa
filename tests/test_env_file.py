"""One .env format (issue 33): the bot reads .env as ``docker run --env-file`` does, and refuses, naming the line, what
the two (or python-dotenv, or a person) would read differently."""

from __future__ import annotations

from pathlib import Path

import pytest

import config
from config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_env_file_reads_without_a_problem() -> None:
    values, problems = config.read_env_file(ROOT / ".env.example")
    assert problems == []
    assert "DISCORD_TOKEN" in values


def test_values_are_read_as_written_and_quotes_go_later(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "\ufeff# a comment\n   # an indented one\n\nDISCORD_TOKEN=abc.def\n"
        'DATABASE_PATH="/srv/games #1.db"\nLOG_FILE=C:\\bot\\bot.log\nDEV_GUILD_ID=  123  \n',
        encoding="utf-8",
    )
    values, problems = config.read_env_file(env)
    assert problems == []
    assert values == {
        "DISCORD_TOKEN": "abc.def",
        "DATABASE_PATH": '"/srv/games #1.db"',
        "LOG_FILE": "C:\\bot\\bot.log",  # a Windows path keeps its backslashes
        "DEV_GUILD_ID": "123",
    }
    settings = Settings.from_env(values)
    assert settings.database_path == "/srv/games #1.db"
    assert settings.dev_guild_id == 123


def test_every_problem_is_named_with_its_line(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc # old\nexport X=1\n;LOG_LEVEL=DEBUG\nLOG_LEVEL\nOK=1\n")
    values, problems = config.read_env_file(env)
    assert values == {"OK": "1"}
    assert [problem.split(":")[0] for problem in problems] == [f"{env}, line {n}" for n in (1, 2, 3, 4)]
    assert "abc" not in problems[0]  # the token is never written back


@pytest.mark.parametrize("value", ["abc # old", "abc\t#old", "  abc #"])
def test_a_comment_in_a_value_from_the_environment_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match=r"^DISCORD_TOKEN has a comment after its value") as refused:
        Settings.from_env({"DISCORD_TOKEN": value})
    assert "abc" not in str(refused.value)


def test_a_hash_without_blanks_before_it_or_in_quotes_is_part_of_the_value() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "abc#def"}).token == "abc#def"
    assert Settings.from_env({"DISCORD_TOKEN": "t", "LOG_FILE": "'logs/a #1.log'"}).log_file == "logs/a #1.log"
