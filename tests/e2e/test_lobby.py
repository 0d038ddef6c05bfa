"""The lobby end to end: /newgame /join /leave /start /endgame and the lobby's buttons, with the real bot."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest

from tests.e2e.conftest import World
from tests.fake_discord import InteractionRecord, InvalidInteraction, Member, Message, Perm, snowflake_time
from tests.players import CHIPS_LINE, answer, hand_in, latest_hand, public_messages, saved_row

NO_GAME = "There's no game in this channel: open one with /newgame."
PLAYER_LINE = re.compile(r"^<@(\d+)>( \(host\))?$", re.MULTILINE)


@dataclass(frozen=True)
class Lobby:
    title: str
    variant: str
    players: list[int]
    host: int | None
    capacity: str  # "2/5"
    footer: str


def read_lobby(message: Message | None) -> Lobby:
    assert message is not None
    assert message.embeds, message
    embed = message.embeds[0]
    fields = {item["name"]: item["value"] for item in embed["fields"]}
    (players_name,) = [name for name in fields if name.startswith("Players")]
    seats = PLAYER_LINE.findall(fields[players_name])
    assert len(seats) == len(fields[players_name].splitlines()), fields
    hosts = [int(player) for player, host in seats if host]
    assert len(hosts) <= 1
    return Lobby(
        title=embed["title"],
        variant=fields["Variant"],
        players=[int(player) for player, _ in seats],
        host=hosts[0] if hosts else None,
        capacity=players_name.removeprefix("Players (").removesuffix(")"),
        footer=embed["footer"]["text"],
    )


def labels(message: Message | None) -> list[str]:
    assert message is not None
    return [str(button["label"]) for button in message.buttons]


def lobby_buttons(message: Message | None) -> list[str]:
    """The lobby's buttons: Join, Leave and Start first, then the host's settings (all of them the lobby's own)."""
    assert message is not None
    assert all(str(button["custom_id"]).startswith("lobby:") for button in message.buttons), message.buttons
    return labels(message)[:3]


def sentences(text: str) -> int:
    assert "\n" not in text, text
    return len(re.split(r"(?<=[.!?])\s+(?=[A-Z])", text))


async def invoke(world: World, command: str, user: Member, channel: Any = None, **options: Any) -> InteractionRecord:
    return await world.fake.invoke(command, user=user, channel=channel or world.channel, options=options)


async def refused(
    world: World, rec: InteractionRecord, reason: str | None = None, channel: Any = None, *, hint: bool = False
) -> str:
    """The bot refused ``rec``: one friendly ephemeral sentence (and a ``hint`` what to do), nothing public since,
    and no message edited."""
    content = answer(rec).content
    assert answer(rec).ephemeral, content
    assert sentences(content) == (2 if hint else 1), content
    if reason is not None:
        assert content == reason
    await settled(world)
    asked = snowflake_time(rec.id) + dt.timedelta(milliseconds=1)  # a snowflake's time is in whole milliseconds
    for place in (channel or world.channel, world.other_channel):
        for message in world.fake.channel_messages(place):
            assert message.id < rec.id, message
            assert message.edited_timestamp is None or dt.datetime.fromisoformat(message.edited_timestamp) < asked
    return content


async def settled(world: World) -> None:
    """Wait until the bot is done with the channel (the DMs after a start are sent in the background)."""
    await world.fake.wait_idle()


async def check_started(world: World, members: list[Member], board: Message) -> None:
    """The game began: a public board is the newest message, every player got their hand by DM, nobody else."""
    await settled(world)
    assert not board.ephemeral
    assert board.embeds[0]["title"] == "The Game"
    assert public_messages(world.fake, world.channel)[-1] is board
    assert hand_in(board.content) is None
    for member in members:
        assert latest_hand(world.fake, member)
    row = saved_row(world)
    assert row is not None
    assert row["status"] == "running"
    assert json.loads(row["players"]) == [member.id for member in members]
    assert row["message_id"] == board.id  # the board the game keeps current
    assert "My hand" in labels(board)


# ---- the happy paths -----------------------------------------------------------------------------------------------


async def test_newgame_join_leave_start_with_commands(world: World) -> None:
    ana, ben, cy, dee = world.players[:4]
    async with world.bot():
        opened = await invoke(world, "newgame", ana)
        assert not answer(opened).ephemeral
        assert ana.mention in answer(opened).content
        assert "The Game" in answer(opened).content
        lobby = read_lobby(opened.original)
        assert lobby == Lobby(
            "The Game: lobby",
            "standard rules",
            [ana.id],
            ana.id,
            "1/5",
            "1-5 players. Join, then the host presses Start.",
        )
        lobby_message = opened.original
        assert lobby_buttons(lobby_message) == ["Join", "Leave", "Start"]
        row = saved_row(world)
        assert row is not None
        assert (row["status"], row["kind"], row["host_id"]) == ("lobby", "the_game", ana.id)

        # /join and /leave keep the one lobby message current, and answer privately.
        joined = await invoke(world, "join", ben)
        assert answer(joined).ephemeral
        assert answer(joined).content == f"{ben.mention} joined. The lobby above is up to date."
        await settled(world)
        assert public_messages(world.fake, world.channel) == [lobby_message]
        assert lobby_message is not None
        assert lobby_message.content == f"{ben.mention} joined."
        assert read_lobby(lobby_message).players == [ana.id, ben.id]
        assert lobby_buttons(lobby_message) == ["Join", "Leave", "Start"]
        await refused(world, await invoke(world, "join", ben), "You're already in this game.")
        await refused(world, await invoke(world, "leave", cy), "You aren't in this game.")

        left = await invoke(world, "leave", ben)
        assert answer(left).ephemeral
        assert answer(left).content == f"{ben.mention} left. The lobby above is up to date."
        await settled(world)
        assert lobby_message.content == f"{ben.mention} left."
        assert read_lobby(lobby_message).players == [ana.id]
        await invoke(world, "join", cy)
        assert read_lobby(lobby_message).players == [ana.id, cy.id]
        assert public_messages(world.fake, world.channel) == [lobby_message]

        started = await invoke(world, "start", ana)
        assert not answer(started).ephemeral
        assert started.original is not None
        await check_started(world, [ana, cy], started.original)
        # The lobby keeps its player list but loses its buttons.
        assert lobby_message.content == "The game has started."
        assert not lobby_message.buttons
        assert read_lobby(lobby_message).players == [ana.id, cy.id]
        assert not world.fake.dms(ben)
        await refused(
            world, await invoke(world, "join", dee), "The game of The Game here has already started; join the next one!"
        )
        await refused(
            world,
            await invoke(world, "start", ana),
            "The game of The Game here has already started; join the next one!",
        )


async def test_newgame_join_leave_start_with_buttons(world: World) -> None:
    ana, ben, cy, dee = world.players[:4]
    async with world.bot():
        lobby_message = (await invoke(world, "newgame", ana)).original
        assert lobby_message is not None

        joined = await world.fake.click(lobby_message, label="Join", user=ben)
        assert answer(joined).type == 7  # the lobby message itself is brought up to date
        assert lobby_message.content == f"{ben.mention} joined."
        assert read_lobby(lobby_message).players == [ana.id, ben.id]
        await world.fake.click(lobby_message, label="Join", user=cy)
        assert read_lobby(lobby_message).capacity == "3/5"
        left = await world.fake.click(lobby_message, label="Leave", user=cy)
        assert answer(left).type == 7
        assert read_lobby(lobby_message).players == [ana.id, ben.id]
        await refused(world, await world.fake.click(lobby_message, label="Leave", user=dee), "You aren't in this game.")
        await refused(
            world, await world.fake.click(lobby_message, label="Join", user=ben), "You're already in this game."
        )
        await refused(
            world,
            await world.fake.click(lobby_message, label="Start", user=ben),
            f"Only the host, {ana.mention}, can start the game.",
        )

        # Start pressed on the lobby turns the lobby message itself into the first board: no new message.
        started = await world.fake.click(lobby_message, label="Start", user=ana)
        assert answer(started).type == 7
        await check_started(world, [ana, ben], lobby_message)
        assert not started.followups
        assert public_messages(world.fake, world.channel) == [lobby_message]


# ---- refusals ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"open_chips": True}, "open chips"),
        ({"game": "the_game", "open_chips": True}, "open chips"),
        ({"game": "no_thanks", "expert": True}, "expert"),
        ({"game": "no_thanks", "smaller_hands": True}, "smaller hands"),
        ({"game": "no_thanks", "open_chips": True, "expert": True}, "expert"),
    ],
    ids=["default-open-chips", "the-game-open-chips", "no-thanks-expert", "no-thanks-smaller", "no-thanks-both"],
)
async def test_an_option_that_does_not_fit_the_game_is_refused(
    world: World, options: dict[str, Any], named: str
) -> None:
    ana = world.players[0]
    async with world.bot():
        reason = await refused(world, await invoke(world, "newgame", ana, **options))
        title = "No Thanks!" if options.get("game") == "no_thanks" else "The Game"
        assert f"option {named} doesn't fit {title}" in reason
        assert saved_row(world) is None


async def test_the_options_that_fit_show_in_the_lobby(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        the_game = await invoke(world, "newgame", ana, game="the_game", expert=True, smaller_hands=True)
        assert read_lobby(the_game.original).variant == "expert, smaller hands"
        no_thanks = await invoke(world, "newgame", ana, world.other_channel, game="no_thanks", open_chips=True)
        lobby = read_lobby(no_thanks.original)
        assert (lobby.title, lobby.variant, lobby.capacity) == ("No Thanks!: lobby", "open chips", "1/7")
        row = saved_row(world)
        assert row is not None
        assert json.loads(row["variants"]) == ["expert", "smaller_hands"]


async def test_a_sixth_player_finds_the_lobby_full(world: World) -> None:
    ana, *others = world.players[:6]
    async with world.bot():
        lobby_message = (await invoke(world, "newgame", ana)).original
        for member in others[:4]:
            await invoke(world, "join", member)
        full = "The lobby is full: The Game is for at most 5 players."
        await refused(world, await invoke(world, "join", others[4]), full)
        await refused(world, await world.fake.click(lobby_message, label="Join", user=others[4]), full)
        row = saved_row(world)
        assert row is not None
        assert len(json.loads(row["players"])) == 5


async def test_only_the_host_starts_until_the_host_leaves(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot():
        await invoke(world, "newgame", ana)
        await invoke(world, "join", ben)
        await invoke(world, "join", cy)
        await refused(world, await invoke(world, "start", ben), f"Only the host, {ana.mention}, can start the game.")
        left = await invoke(world, "leave", ana)
        assert answer(left).ephemeral
        assert answer(left).content == (
            f"{ana.mention} left. The host left: any player may start now. The lobby above is up to date."
        )
        await settled(world)
        lobby = read_lobby(public_messages(world.fake, world.channel)[-1])
        assert lobby.host is None
        assert lobby.players == [ben.id, cy.id]
        assert "any player presses Start" in lobby.footer
        await refused(
            world,
            await invoke(world, "start", world.spectator),
            "Only a player in the lobby can start the game; press Join first.",
        )
        started = await invoke(world, "start", cy)
        assert started.original is not None
        await check_started(world, [ben, cy], started.original)
        assert not world.fake.dms(ana)


async def test_newgame_in_a_busy_channel_names_the_game(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot():
        await invoke(world, "newgame", ana, game="no_thanks")
        reason = await refused(world, await invoke(world, "newgame", ben))
        assert reason.startswith("A game of No Thanks! is waiting in its lobby in this channel already")
        await invoke(world, "endgame", ana)
        await invoke(world, "newgame", ana)
        await invoke(world, "join", cy)
        await invoke(world, "start", ana)
        await settled(world)
        reason = await refused(world, await invoke(world, "newgame", ben, game="no_thanks"))
        assert reason.startswith("A game of The Game is being played in this channel already")
        # Another channel is free all the same.
        elsewhere = await invoke(world, "newgame", ben, world.other_channel)
        assert not answer(elsewhere).ephemeral


async def test_endgame_by_the_host_ends_the_lobby(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot():
        await refused(world, await invoke(world, "endgame", ana), NO_GAME)
        await invoke(world, "newgame", ana)
        await invoke(world, "join", ben)
        refusal = "Only the host or a member with Manage Channels can end this game."
        await refused(world, await invoke(world, "endgame", ben), refusal)
        await refused(world, await invoke(world, "endgame", world.spectator), refusal)
        ended = await invoke(world, "endgame", ana)
        assert not answer(ended).ephemeral
        assert answer(ended).content.startswith(f"{ana.mention} ended the lobby of The Game.")
        row = saved_row(world)
        assert row is not None
        assert row["status"] == "abandoned"
        assert row["result"] is None
        again = await invoke(world, "newgame", ben)
        assert not answer(again).ephemeral


async def test_endgame_by_a_manage_channels_member_ends_a_running_game(world: World) -> None:
    ana, ben = world.players[:2]
    moderator = world.spectator
    world.fake.assign_role(moderator, world.fake.add_role(world.guild, "mods", int(Perm.MANAGE_CHANNELS)))
    async with world.bot():
        await invoke(world, "newgame", ana)
        await invoke(world, "join", ben)
        await invoke(world, "start", ana)
        await settled(world)
        await refused(
            world,
            await invoke(world, "endgame", ben),
            "Only the host or a member with Manage Channels can end this game.",
        )
        ended = await invoke(world, "endgame", moderator)
        assert not answer(ended).ephemeral
        assert answer(ended).content.startswith(f"{moderator.mention} ended the game of The Game.")
        row = saved_row(world)
        assert row is not None
        assert row["status"] == "abandoned"
        assert row["result"] is None
        assert row["ended_at"]
        card = latest_hand(world.fake, ana)[0]
        await refused(
            world,
            await invoke(world, "play", ana, card=card, pile="A"),
            "There's no game in this channel: open one with /newgame.",
        )
        assert not answer(await invoke(world, "newgame", ben)).ephemeral


async def test_no_thanks_needs_three_players(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot():
        opened = await invoke(world, "newgame", ana, game="no_thanks")
        assert read_lobby(opened.original).footer.startswith("3-7 players.")
        await invoke(world, "join", ben)
        await refused(
            world,
            await invoke(world, "start", ana),
            "No Thanks! needs at least 3 players; 2 joined so far. Press Add bot to seat a computer player.",
            hint=True,
        )
        await invoke(world, "join", cy)
        started = await invoke(world, "start", ana)
        assert not answer(started).ephemeral
        assert answer(started).embeds[0]["title"] == "No Thanks!"
        await settled(world)
        for member in (ana, ben, cy):
            assert any(CHIPS_LINE.search(message.content) for message in world.fake.dms(member))


async def test_leaving_a_running_game_and_everybody_leaving(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot():
        await invoke(world, "newgame", ana)
        await invoke(world, "join", ben)
        await invoke(world, "start", ana)
        await settled(world)
        board = public_messages(world.fake, world.channel)[-1]
        # Nobody's turn changes (nobody laid a card yet): the leaver is answered privately, the board edited.
        left = await invoke(world, "leave", ben)
        assert answer(left).ephemeral
        assert answer(left).content.startswith(f"{ben.mention} left the game")
        await settled(world)
        assert public_messages(world.fake, world.channel)[-1] is board
        assert board.content.startswith(f"{ben.mention} left the game")
        seats = next(f["value"] for f in board.embeds[0]["fields"] if f["name"] == "Players")
        assert f"{ben.mention}: left the game" in seats
        await refused(world, await invoke(world, "leave", ben), "You left this game, so you can't act in it any more.")
        # The last player leaving ends the game without a score; the final board keeps only the rematch and the replay.
        last = await invoke(world, "leave", ana)
        assert not answer(last).ephemeral
        assert "Game over" in answer(last).content
        assert "abandoned" in answer(last).content
        assert answer(last).embeds[0]["footer"]["text"] == "Game over: abandoned, no score."
        await settled(world)
        assert not board.buttons
        assert labels(last.original) == ["Rematch", "Replay"]
        row = saved_row(world)
        assert row is not None
        assert row["status"] == "abandoned"
        assert row["result"] is None
        # Until the next /newgame, /board shows how the game ended.
        shown = await invoke(world, "board", world.spectator)
        assert not answer(shown).ephemeral
        assert answer(shown).embeds[0]["footer"]["text"] == "Game over: abandoned, no score."
        assert labels(shown.original) == ["Rematch", "Replay"]
        assert not answer(await invoke(world, "newgame", ben)).ephemeral
        # Everybody leaving a lobby closes it.
        gone = await invoke(world, "leave", ben)
        assert not answer(gone).ephemeral
        assert "closed" in answer(gone).content
        assert saved_row(world)["status"] == "abandoned"  # type: ignore[index]


async def test_commands_in_direct_messages(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        # Every command is declared for servers only, so Discord does not even offer them in DMs...
        for command in world.fake.commands():
            assert command.get("contexts") == [0] or command.get("dm_permission") is False, command
        for name in ("newgame", "hand", "play"):
            with pytest.raises(InvalidInteraction, match="cannot be used in DMs"):
                await invoke(world, name, ana, world.fake.dm_channel(ana))
        # ...and should an old client send one anyway, the bot's own check answers it (tests/cogs/test_ui.py).


# ---- restarts ------------------------------------------------------------------------------------------------------


async def test_lobby_buttons_keep_working_after_restarts(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot():
        lobby_message = (await invoke(world, "newgame", ana)).original
        assert lobby_message is not None
    async with world.bot():
        joined = await world.fake.click(lobby_message, label="Join", user=ben)
        assert answer(joined).type == 7
        assert read_lobby(lobby_message).players == [ana.id, ben.id]
    async with world.bot():
        await refused(
            world,
            await world.fake.click(lobby_message, label="Start", user=ben),
            f"Only the host, {ana.mention}, can start the game.",
        )
        started = await world.fake.click(lobby_message, label="Start", user=ana)
        assert answer(started).type == 7
        await check_started(world, [ana, ben], lobby_message)
        assert not started.followups


async def test_commands_are_synced_on_the_first_start_only(world: World) -> None:
    async with world.bot():
        syncs = await world.fake.wait_synced()
        assert len(syncs) == 1
        names = set(syncs[0].names)
        assert {"newgame", "join", "leave", "start", "endgame", "hand", "board", "rules", "play", "endturn"} <= names
    async with world.bot():
        await invoke(world, "rules", world.players[0])  # the commands still work
    assert len(world.fake.command_syncs) == 1
    assert {command["name"] for command in world.fake.commands()} == names


async def test_once_the_host_has_left_any_remaining_player_may_end_the_game(world: World) -> None:
    ana, ben, cy = world.players[:3]
    async with world.bot():
        await invoke(world, "newgame", ana)
        await invoke(world, "join", ben)
        await invoke(world, "join", cy)
        await invoke(world, "start", ana)
        await settled(world)
        refusal = "Only the host or a member with Manage Channels can end this game."
        await refused(world, await invoke(world, "endgame", ben), refusal)
        await invoke(world, "leave", ana)
        await settled(world)
        # The host is gone: a spectator still may not end it, a player still seated may.
        await refused(world, await invoke(world, "endgame", world.spectator), refusal)
        ended = await invoke(world, "endgame", ben)
        assert not answer(ended).ephemeral
        assert answer(ended).content.startswith(f"{ben.mention} ended the game of The Game.")
        row = saved_row(world)
        assert row is not None
        assert row["status"] == "abandoned"
