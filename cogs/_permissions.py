"""Which of the bot's permissions a channel lacks, told to the person opening a game there before anyone joins.

Answers to commands and buttons need no permission, so a lobby opens even where the bot may not post; but the boards,
notices and turn reminders it posts by itself would fail later, one by one, with only a line in the log. Discord sends
the bot's permissions in the channel with every interaction (``app_permissions``), so this costs no request.
"""

from __future__ import annotations

import discord

from cogs._types import Interaction
from i18n import Localized, Text, _, joined, lines, render
from table.answer import send

# What a table needs from the bot's role, and what each is for (README, "Discord setup"). Translators: the names are
# Discord's own names of the permissions, as its settings show them in your language.
NEEDED = {
    "view_channel": (_("View Channel"), _("to see the channel")),
    "send_messages": (_("Send Messages"), _("to post boards and notices")),
    "embed_links": (_("Embed Links"), _("boards and lobbies are embeds")),
}
IN_THREADS = ("send_messages_in_threads", (_("Send Messages in Threads"), _("to post boards and notices in a thread")))


def missing_permissions(permissions: discord.Permissions, *, in_thread: bool) -> list[tuple[Text, Text]]:
    """The (name, what for) of each permission the table needs and ``permissions`` lacks."""
    needed = dict(NEEDED)
    if in_thread:
        needed.pop("send_messages")
        needed[IN_THREADS[0]] = IN_THREADS[1]
    return [words for flag, words in needed.items() if not getattr(permissions, flag)]


def missing_text(missing: list[tuple[Text, Text]], channel_id: int, *, private_thread: bool = False) -> Localized:
    # Translators: a permission the bot lacks, and what it is for ("**Embed Links** (boards and lobbies are embeds)").
    listed = joined([_("**{permission}** ({why})", permission=name, why=why) for name, why in missing], "; ")
    text = _(
        "Heads-up: I'm missing permissions in {channel}: {permissions}. Until a server admin allows them for my role "
        "(Edit Channel > Permissions, or Server Settings > Roles), the game may stall when I post by myself.",
        channel=f"<#{channel_id}>",
        permissions=listed,
    )
    if private_thread:
        # No role setting lets the bot into a private thread: somebody in it must add it.
        return _(
            "{text} In a private thread, I also need to be added to it: mention me there.",
            text=text,
        )
    return text


async def explain_missing_permissions(
    interaction: Interaction, thread_id: int | None = None, also: Localized | None = None
) -> None:
    """Tell the person who opened a game, privately, which permissions to grant in this channel (if any), or in the
    thread ``thread_id`` the game was opened in (a thread has its channel's permissions); ``also`` is another private
    word for them (a newcomer's note), in the same message."""
    where = thread_id or interaction.channel_id
    if where is None:
        return
    in_thread = thread_id is not None or isinstance(interaction.channel, discord.Thread)
    missing = missing_permissions(interaction.app_permissions, in_thread=in_thread)
    private_thread = getattr(interaction.channel, "type", None) is discord.ChannelType.private_thread and not (
        interaction.app_permissions.view_channel
    )
    heads_up = missing_text(missing, where, private_thread=private_thread) if missing else None
    if heads_up is None and also is None:
        return
    text = lines(heads_up, "", also) if heads_up is not None and also is not None else heads_up or also
    assert text is not None
    locale = interaction.client.tables.languages.for_reader(interaction)
    await send(interaction, content=render(text, locale), ephemeral=True)
