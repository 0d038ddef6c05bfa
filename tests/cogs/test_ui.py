"""The one error path: user errors become their own sentence, bugs become an apology and a logged traceback."""

from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

import table.answer
from cogs._ui import APOLOGY, WrongChannel, error_message, in_text_channel, reply_error
from engine.errors import IllegalAction, NotYourTurn
from i18n import _, render
from storage import StorageUnavailable
from table.answer import UserError, token_dead


class Recorder:
    """Stands in for ``Interaction.response``/``followup``: records what would be sent."""

    def __init__(self, done: bool) -> None:
        self.done = done
        self.type = None  # what a response was, once sent (discord.InteractionResponseType)
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, **kwargs: Any) -> None:
        self.sent.append(("response", kwargs))
        self.done = True

    async def send(self, **kwargs: Any) -> None:
        self.sent.append(("followup", kwargs))


@pytest.fixture(autouse=True)
def answers_through_the_response(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in has none of discord.py's internals: a first answer goes through its ``response.send_message``,
    which ``table.wire.answer_with_message`` stands for (the same request, made more cheaply)."""

    async def answer(interaction: Any, *, ephemeral: bool, **message: Any) -> None:
        await interaction.response.send_message(ephemeral=ephemeral, **message)

    monkeypatch.setattr(table.answer, "answer_with_message", answer)


def interaction(done: bool = False) -> Any:
    recorder = Recorder(done)
    return SimpleNamespace(
        response=recorder,
        followup=recorder,
        command=None,
        data={},
        channel_id=5,
        sent=recorder.sent,
        locale=discord.Locale.american_english,
        user=SimpleNamespace(id=7),
        extras={},
    )


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (UserError(_("There's no game in this channel.")), "There's no game in this channel."),
        (NotYourTurn(_("It's not your turn.")), "It's not your turn."),
        (IllegalAction(_("You don't hold that card.")), "You don't hold that card."),
        (app_commands.NoPrivateMessage(), "This command works in a server's text channel, not in direct messages."),
    ],
)
def test_user_errors_keep_their_sentence(error: Exception, expected: str) -> None:
    assert error_message(error) == expected


def test_wrapped_errors_are_unwrapped() -> None:
    command: Any = SimpleNamespace(name="play", qualified_name="play")
    wrapped = app_commands.CommandInvokeError(command, NotYourTurn(_("It's not your turn.")))
    assert error_message(wrapped) == "It's not your turn."


def test_bugs_have_no_user_message() -> None:
    assert error_message(ZeroDivisionError("oops")) is None
    assert error_message(KeyError("x")) is None


async def test_reply_error_is_ephemeral_and_uses_the_free_response() -> None:
    fake = interaction()
    await reply_error(fake, UserError(_("Nope.")))
    assert fake.sent == [
        ("response", {"content": "Nope.", "ephemeral": True, "allowed_mentions": fake.sent[0][1]["allowed_mentions"]})
    ]
    assert fake.sent[0][1]["allowed_mentions"].everyone is False


async def test_reply_error_after_a_response_uses_a_followup_and_logs_bugs(caplog: pytest.LogCaptureFixture) -> None:
    fake = interaction(done=True)
    await reply_error(fake, RuntimeError("boom"))
    kind, kwargs = fake.sent[0]
    assert kind == "followup"
    assert kwargs["content"] == render(APOLOGY, "en")
    assert kwargs["ephemeral"] is True
    assert "Unexpected error" in caplog.text
    assert "RuntimeError: boom" in caplog.text


async def test_reply_error_survives_an_expired_interaction() -> None:
    fake = interaction()

    async def expired(**kwargs: Any) -> None:
        raise discord.NotFound(
            SimpleNamespace(status=404, reason="Not Found"), {"message": "Unknown interaction", "code": 10062}
        )

    fake.response.send_message = expired
    await reply_error(fake, UserError(_("Nope.")))  # must not raise


def test_commands_refuse_direct_messages_and_odd_channels() -> None:
    dm: Any = SimpleNamespace(guild_id=None, channel=SimpleNamespace(type=discord.ChannelType.private))
    with pytest.raises(app_commands.NoPrivateMessage) as refused:
        in_text_channel(dm)
    assert error_message(refused.value) == "This command works in a server's text channel, not in direct messages."
    voice: Any = SimpleNamespace(guild_id=1, channel=SimpleNamespace(type=discord.ChannelType.voice))
    with pytest.raises(WrongChannel, match="text channels"):
        in_text_channel(voice)
    for kind in (
        discord.ChannelType.text,
        discord.ChannelType.news,
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    ):
        table: Any = SimpleNamespace(guild_id=1, channel=SimpleNamespace(type=kind))
        assert in_text_channel(table)


def dead_token() -> discord.NotFound:
    return discord.NotFound(
        SimpleNamespace(status=404, reason="Not Found"), {"message": "Unknown interaction", "code": 10062}
    )


async def test_a_database_that_cannot_be_written_is_busy_for_the_user_and_one_line_for_the_owner(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = interaction()
    command: Any = SimpleNamespace(name="play", qualified_name="play")
    cause = StorageUnavailable(
        "The disk holding the database bot.sqlite3 is full; nothing was written: free some space"
    )
    await reply_error(fake, app_commands.CommandInvokeError(command, cause))
    [(_kind, kwargs)] = fake.sent
    assert kwargs["ephemeral"] is True
    assert "The database is busy" in kwargs["content"]
    assert "Nothing was changed" in kwargs["content"]
    [line] = caplog.records
    assert "disk holding the database" in line.getMessage()
    assert not line.exc_info  # the owner's fix in one line, not a traceback


async def test_an_error_that_is_a_dead_token_is_one_warning_and_nothing_sent(caplog: pytest.LogCaptureFixture) -> None:
    fake = interaction(done=True)
    command: Any = SimpleNamespace(name="board", qualified_name="board")
    await reply_error(fake, app_commands.CommandInvokeError(command, dead_token()))
    assert fake.sent == []
    [line] = caplog.records
    assert line.levelname == "WARNING"
    assert "too late" in line.getMessage()
    assert not line.exc_info


async def test_an_apology_that_meets_a_dead_token_is_not_called_a_failure_to_tell(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = interaction()

    async def expired(**kwargs: Any) -> None:
        raise dead_token()

    fake.response.send_message = expired
    await reply_error(fake, UserError(_("Nope.")))
    assert [r.getMessage() for r in caplog.records if "too late" in r.getMessage()]
    assert "Could not tell the user" not in caplog.text


def test_only_discords_dead_token_codes_are_dead_tokens() -> None:
    command: Any = SimpleNamespace(name="board", qualified_name="board")
    assert token_dead(dead_token())
    assert token_dead(app_commands.CommandInvokeError(command, dead_token()))
    expired = discord.HTTPException(SimpleNamespace(status=401, reason="Unauthorized"), {"code": 50027, "message": ""})
    assert token_dead(expired)
    missing = discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"code": 10008, "message": ""})
    assert not token_dead(missing)  # an unknown message is not a dead token
    assert not token_dead(RuntimeError("boom"))
