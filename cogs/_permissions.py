"""Which of the bot's permissions a channel lacks, told to the person opening a game there before anyone joins.

Answers to commands and buttons need no permission, so a lobby opens even where the bot may not post; but the boards,
notices and turn reminders it posts by itself would fail later, one by one, with only a line in the log. Discord sends
the bot's permissions in the channel with every interaction (``app_permissions``), so this costs no request.
"""

from __future__ import annotations

from typing import Any

import discord

from table.answer import send

# What a table needs from the bot's role, and what each is for (README, "Discord setup").
NEEDED = {
    "view_channel": ("View Channel", "to see the channel"),
    "send_messages": ("Send Messages", "to post boards and notices"),
    "embed_links": ("Embed Links", "boards and lobbies are embeds"),
}
IN_THREADS = ("send_messages_in_threads", ("Send Messages in Threads", "to post boards and notices in a thread"))


def missing_permissions(permissions: discord.Permissions, *, in_thread: bool) -> list[tuple[str, str]]:
    """The (name, what for) of each permission the table needs and ``permissions`` lacks."""
    needed = dict(NEEDED)
    if in_thread:
        needed.pop("send_messages")
        needed[IN_THREADS[0]] = IN_THREADS[1]
    return [words for flag, words in needed.items() if not getattr(permissions, flag)]


def missing_text(missing: list[tuple[str, str]], channel_id: int) -> str:
    listed = "; ".join(f"**{name}** ({why})" for name, why in missing)
    return (
        f"Heads-up: I'm missing permissions in <#{channel_id}>: {listed}. Until a server admin allows them for my "
        "role (Edit Channel > Permissions, or Server Settings > Roles), the game may stall when I post by myself."
    )


async def explain_missing_permissions(interaction: discord.Interaction[Any], thread_id: int | None = None) -> None:
    """Tell the person who opened a game, privately, which permissions to grant in this channel (if any), or in the
    thread ``thread_id`` the game was opened in (a thread has its channel's permissions)."""
    where = thread_id or interaction.channel_id
    if where is None:
        return
    in_thread = thread_id is not None or isinstance(interaction.channel, discord.Thread)
    missing = missing_permissions(interaction.app_permissions, in_thread=in_thread)
    if not missing:
        return
    text = missing_text(missing, where)
    if getattr(interaction.channel, "type", None) is discord.ChannelType.private_thread and not (
        interaction.app_permissions.view_channel
    ):
        # No role setting lets the bot into a private thread: somebody in it must add it.
        text += " In a private thread, I also need to be added to it: mention me there."
    await send(interaction, content=text, ephemeral=True)
