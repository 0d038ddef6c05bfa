"""An in-process fake Discord: REST API (``/api/v10``) and gateway WebSocket on 127.0.0.1.

The real discord.py client (and a real ``commands.Bot`` with slash commands, persistent
views and listeners) runs unmodified against it.  The fake keeps the "world" (guilds,
channels, members, roles, permission overwrites), plays the part of the Discord users
(slash commands, clicks, messages, edits, reactions) and records everything the bot does
(messages, edits, deletions, DMs, interaction responses and followups, command syncs, every
REST request) so end-to-end tests can assert on it without sleeping blindly::

    async with FakeDiscord(bot_name="CardTable") as fake:      # starts the server, patches discord.py
        guild = fake.add_guild("Card Club")
        chan = fake.add_text_channel(guild, "games")
        ana = fake.add_member(guild, "ana")
        bot = make_bot()                     # commands.Bot(..., guild_ready_timeout=0.05)
        async with fake.run_bot(bot):        # bot.start() in a task; waits for on_ready; closes on exit
            await fake.wait_synced()
            inter = await fake.invoke("newgame", user=ana, channel=chan, options={"game": "the_game"})
            assert not inter.response.ephemeral and "lobby" in inter.response.content
            await fake.click(inter.original, label="Join", user=ana)
            assert fake.channel_messages(chan)[-1].author is fake.bot

Why ``guild_ready_timeout``: discord.py dispatches ``on_ready`` only after no GUILD_CREATE
arrived for ``guild_ready_timeout`` seconds (2 s by default).  Pass
``guild_ready_timeout=0.05`` to the bot constructor to keep tests fast.

Things real Discord does that the fake does not are listed in :class:`FakeDiscord`'s
docstring.
"""

# Timeouts are part of this test-facing API, as in asyncio.wait_for.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import datetime as dt
import enum
import hashlib
import json
import mimetypes
import random
import re
import secrets
import time
import urllib.parse
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import yarl
from aiohttp import BodyPartReader, WSMsgType, web

from tests.openapi_check import check_request

if TYPE_CHECKING:
    import discord

__all__ = [
    "ALL_PERMISSIONS",
    "CHANNEL_MESSAGE",
    "CHANNEL_MESSAGES",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "FOLLOWUP",
    "INTERACTION_CALLBACK",
    "INTERNAL_SERVER_ERROR",
    "INVALID_WEBHOOK_TOKEN",
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "UNKNOWN_INTERACTION",
    "UNKNOWN_MESSAGE",
    "UNKNOWN_WEBHOOK",
    "WEBHOOK_MESSAGE",
    "Channel",
    "CommandSync",
    "DiscordError",
    "FailureRule",
    "FakeDiscord",
    "FakeDiscordError",
    "Guild",
    "Hold",
    "Intent",
    "InteractionCallback",
    "InteractionRecord",
    "InteractionTimeout",
    "InvalidInteraction",
    "Member",
    "Message",
    "MessageVersion",
    "Overwrite",
    "Perm",
    "RateLimitRule",
    "RequestRecord",
    "Role",
    "User",
    "new_snowflake",
    "point_discord_at",
    "snowflake_time",
]

JSON = dict[str, Any]
T = TypeVar("T")

DISCORD_EPOCH_MS = 1_420_070_400_000
API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
CDN_PREFIX = "/cdn"

# The routes a test most often makes fail or holds (see FakeDiscord.fail and FakeDiscord.hold); relative to /api/v10.
#: Posting a message in a channel (or a DM channel).
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
#: One message of a channel: PATCH edits it, DELETE deletes it.
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
#: The first answer to an interaction (``interaction.response.*``).
INTERACTION_CALLBACK = "/interactions/{interaction_id}/{token}/callback"
#: A followup through the interaction's token (``interaction.followup.send``).
FOLLOWUP = "/webhooks/{application_id}/{token}"
#: A message of the interaction's token: ``message_id`` is ``@original`` (``edit_original_response``) or a
#: followup's id.
WEBHOOK_MESSAGE = "/webhooks/{application_id}/{token}/messages/{message_id}"


class Perm(enum.IntFlag):
    """Permission bits (https://discord.com/developers/docs/topics/permissions)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_NICKNAMES = 1 << 27
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    MODERATE_MEMBERS = 1 << 40


ALL_PERMISSIONS = (1 << 51) - 1
DEFAULT_EVERYONE_PERMISSIONS = int(
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
#: What the bot's managed role gets when the test does not say otherwise (a typical invite).
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | int(Perm.MANAGE_MESSAGES)
# Permissions the bot (or a user) has in a DM; overwrites do not exist there.
DM_PERMISSIONS = int(
    Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
)


class Intent(enum.IntFlag):
    """Gateway intents the fake honours when deciding which events to send."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    GUILD_MESSAGE_REACTIONS = 1 << 10
    DIRECT_MESSAGES = 1 << 12
    DIRECT_MESSAGE_REACTIONS = 1 << 13
    MESSAGE_CONTENT = 1 << 15


PRIVILEGED_INTENTS = int(Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT)

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})
# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_HAS_THREAD = 1 << 5  # a message that started a thread
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
# Command option types.
OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP = 1, 2
OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER = range(3, 11)
OPT_ATTACHMENT = 11
_OPTION_TYPE_NAMES = {
    OPT_STRING: "string",
    OPT_INTEGER: "integer",
    OPT_BOOLEAN: "boolean",
    OPT_USER: "user",
    OPT_CHANNEL: "channel",
    OPT_ROLE: "role",
    OPT_MENTIONABLE: "mentionable",
    OPT_NUMBER: "number",
    OPT_ATTACHMENT: "attachment",
}
_SELECT_TYPES = {3, 5, 6, 7, 8}


class FakeDiscordError(Exception):
    """Base class of the errors the fake raises *in the test* (never in the bot)."""


class InvalidInteraction(FakeDiscordError):
    """The Discord client would refuse this action (unknown command/option, bad value, no access...)."""


class InteractionTimeout(FakeDiscordError, TimeoutError):
    """The bot did not acknowledge an interaction in time (the user would see "This interaction failed")."""


# --------------------------------------------------------------------------------------
# Snowflakes and timestamps
# --------------------------------------------------------------------------------------

_last_snowflake = 0


def new_snowflake() -> int:
    """A time-based snowflake, strictly increasing within the process (so ids sort by creation)."""
    global _last_snowflake
    value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
    _last_snowflake = max(value, _last_snowflake + 1)
    return _last_snowflake


def snowflake_on_shard(shard: int, shard_count: int) -> int:
    """A new snowflake of a guild whose events Discord sends through ``shard`` of ``shard_count``."""
    global _last_snowflake
    value = new_snowflake()
    while shard_of(value, shard_count) != shard:
        value = _last_snowflake = ((value >> 22) + 1) << 22
    return value


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's routing: a guild's events go to shard ``(guild_id >> 22) % shard_count``; DMs to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def snowflake_time(snowflake: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, dt.UTC)


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def _id_of(obj: Any) -> int:
    """Accept ids, records and discord.py objects alike."""
    if isinstance(obj, bool):
        raise TypeError(f"expected an id or an object with .id, got {obj!r}")
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str) and obj.isdigit():
        return int(obj)
    value = getattr(obj, "id", None)
    if isinstance(value, int):
        return value
    raise TypeError(f"expected an id or an object with .id, got {obj!r}")


# --------------------------------------------------------------------------------------
# World records
# --------------------------------------------------------------------------------------


@dataclass(eq=False)
class User:
    """A Discord user (human or bot).  ``dms_closed`` makes DMs to them fail with 50007.  ``locale`` is the language
    their Discord client is set to: every interaction they make carries it."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    dms_closed: bool = False
    locale: str = "en-US"

    def __repr__(self) -> str:
        return f"<User {self.name!r} id={self.id}{' bot' if self.bot else ''}>"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    """A user's membership in one guild.  Has the user's ``id``/``name`` for convenience."""

    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now_iso)

    def __repr__(self) -> str:
        return f"<Member {self.name!r} id={self.id} guild={self.guild_id} roles={self.roles}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def bot(self) -> bool:
        return self.user.bot

    @property
    def mention(self) -> str:
        return self.user.mention

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Overwrite:
    """A channel permission overwrite; ``type`` 0 = role, 1 = member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class Channel:
    """A guild text channel (``type`` 0), the DM channel between the bot and one user (``type`` 1), or another kind
    of guild channel (see :meth:`FakeDiscord.add_channel`): voice, category, forum, or a thread under ``parent_id``."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    nsfw: bool = False
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipient: User | None = None
    message_ids: list[int] = field(default_factory=list)
    parent_id: int | None = None
    owner_id: int | None = None  # a thread's creator
    deleted: bool = False
    #: Who joined a thread. In a private thread only they (and holders of Manage Threads) see it.
    thread_members: set[int] = field(default_factory=set)

    def __repr__(self) -> str:
        if self.type == DM:
            return f"<Channel DM id={self.id} with {self.recipient!r}>"
        return f"<Channel #{self.name} id={self.id} guild={self.guild_id}>"

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def send_permission(self) -> int:
        """What posting here takes: Send Messages, or in a thread Send Messages in Threads (not Send Messages)."""
        return int(Perm.SEND_MESSAGES_IN_THREADS if self.is_thread else Perm.SEND_MESSAGES)

    def payload(self) -> JSON:
        last = str(self.message_ids[-1]) if self.message_ids else None
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": last,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites.values()],
            "topic": self.topic,
            "nsfw": self.nsfw,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=None if self.owner_id is None else str(self.owner_id),
                message_count=len(self.message_ids),
                member_count=1,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now_iso(),
                    "locked": False,
                },
            )
        elif self.type == GUILD_VOICE:
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        elif self.type == GUILD_FORUM:
            data.update(available_tags=[], default_reaction_emoji=None, default_thread_rate_limit_per_user=0)
        return data


@dataclass(eq=False)
class Guild:
    """``preferred_locale`` is the server's Community language (Discord's ``guild_locale``)."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    preferred_locale: str = "en-US"

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"

    @property
    def everyone(self) -> Role:
        """The @everyone role (its id is the guild id)."""
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        member = self.members.get(user_id)
        if member is None:
            return 0
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        for role_id in member.roles:
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & Perm.ADMINISTRATOR else perms

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Discord's documented algorithm: base, @everyone overwrite, role overwrites, member overwrite.

        A thread has the permissions of its parent channel; a private thread is seen only by its members and by
        those who may manage threads. What is implicitly denied without the right to post follows the thread's own
        posting permission (Send Messages in Threads)."""
        posting = channel.send_permission
        if channel.parent_id is not None and channel.parent_id in self.channels:
            if channel.type == PRIVATE_THREAD and user_id not in channel.thread_members:
                parent = self.permissions_in(self.channels[channel.parent_id], user_id)
                return parent if parent & Perm.MANAGE_THREADS else 0
            channel = self.channels[channel.parent_id]
        perms = self.base_permissions(user_id)
        if perms == ALL_PERMISSIONS or user_id not in self.members:
            return perms
        member = self.members[user_id]
        everyone = channel.overwrites.get(self.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in member.roles:
            ow = channel.overwrites.get(role_id)
            if ow is not None and ow.type == 0:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        own = channel.overwrites.get(user_id)
        if own is not None and own.type == 1:
            perms = (perms & ~own.deny) | own.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        if not perms & posting:
            # Implicit denial, as in the Discord client.
            perms &= ~int(Perm.MENTION_EVERYONE | Perm.SEND_TTS_MESSAGES | Perm.EMBED_LINKS | Perm.ATTACH_FILES)
        return perms

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "max_members": 500000,
            "max_video_channel_users": 25,
            "nsfw": False,
            "incidents_data": None,
        }


# --------------------------------------------------------------------------------------
# Records of what the bot did
# --------------------------------------------------------------------------------------


@dataclass
class MessageVersion:
    """One state of a message; :attr:`Message.history` lists them oldest first."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[JSON]
    flags: int
    at: str


@dataclass(eq=False)
class Message:
    """A message as it is now, with its earlier versions in :attr:`edits`.

    Bot messages created through REST, interaction responses and followups, and messages
    posted by fake users all use this record.  Ephemeral messages (``flags & 64``) are not
    part of any channel's list; find them on :class:`InteractionRecord` or via
    :meth:`FakeDiscord.ephemeral_messages`.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[JSON] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    mentions: list[User] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    #: The users this message notified when it was created: the user mentions in its content that its
    #: ``allowed_mentions`` let through (all of them when it has none). Edits notify nobody, and neither do ephemeral
    #: messages; only the bot's messages are tracked. Replies and role/everyone pings are not modelled.
    pinged: list[User] = field(default_factory=list)
    message_reference: JSON | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    interaction_legacy: JSON | None = None
    visible_to: int | None = None
    edited_timestamp: str | None = None
    edits: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    deleted_by: int | None = None
    reactions: dict[str, list[int]] = field(default_factory=dict)
    extra: JSON = field(default_factory=dict)
    #: Whose point of view ``reactions[].me`` takes (the bot's).
    viewer_id: int = field(default=0, repr=False)

    def __repr__(self) -> str:
        state = "".join(
            f" {flag}"
            for flag, on in (("ephemeral", self.ephemeral), ("loading", self.loading), ("deleted", self.deleted))
            if on
        )
        extras = f" embeds={len(self.embeds)}" if self.embeds else ""
        extras += f" components={len(self.components)}" if self.components else ""
        extras += f" edits={len(self.edits)}" if self.edits else ""
        return f"<Message id={self.id} by {self.author.name!r}{state} {self.content!r}{extras}>"

    @property
    def created_at(self) -> dt.datetime:
        return snowflake_time(self.id)

    @property
    def timestamp(self) -> str:
        return self.created_at.isoformat()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("Bot is thinking...") response that has not been filled in yet."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        return bool(self.edits)

    @property
    def embed(self) -> JSON | None:
        return self.embeds[0] if self.embeds else None

    @property
    def history(self) -> list[MessageVersion]:
        """Every version of the message, oldest first, the current one last."""
        return [*self.edits, self._version(self.edited_timestamp or self.timestamp)]

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> JSON:
        """The (first) component with this custom_id or label; KeyError if there is none."""
        for comp in _walk_components(self.components):
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label:
                return comp
        raise KeyError(f"message {self.id} has no component with custom_id={custom_id!r} label={label!r}")

    def _version(self, at: str) -> MessageVersion:
        return MessageVersion(
            self.content,
            copy.deepcopy(self.embeds),
            copy.deepcopy(self.components),
            copy.deepcopy(self.attachments),
            self.flags,
            at,
        )

    def payload(self) -> JSON:
        """The message as the REST API returns it."""
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": copy.deepcopy(self.attachments),
            "embeds": copy.deepcopy(self.embeds),
            "reactions": [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"normal": len(users), "burst": 0},
                    "burst_colors": [],
                    "me": self.viewer_id in users,
                    "me_burst": False,
                    "burst_count": 0,
                }
                for emoji, users in self.reactions.items()
                if users
            ],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": copy.deepcopy(self.components),
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        if self.interaction_legacy is not None:
            data["interaction"] = copy.deepcopy(self.interaction_legacy)
        if self.message_reference is not None:
            data["message_reference"] = dict(self.message_reference)
        data.update(copy.deepcopy(self.extra))
        return data


@dataclass
class InteractionCallback:
    """The bot's answer to ``POST /interactions/{id}/{token}/callback``.

    ``type``: 4 message, 5 deferred message ("thinking"), 6 deferred update, 7 update the
    component's message, 8 autocomplete result, 9 modal.  ``message`` is the message the
    callback created (4, 5) or updated (7); it is live, so ``content`` reflects later edits
    of the original response (see ``message.history`` for the first version).
    """

    type: int
    data: JSON
    message: Message | None
    latency: float

    @property
    def ephemeral(self) -> bool:
        if self.message is not None:
            return self.message.ephemeral
        return bool(int(self.data.get("flags") or 0) & FLAG_EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def content(self) -> str:
        if self.message is not None:
            return self.message.content
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return self.message.embeds if self.message is not None else list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        return self.message.components if self.message is not None else list(self.data.get("components") or [])

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices (type 8)."""
        return list(self.data.get("choices") or [])

    @property
    def modal(self) -> JSON | None:
        """The modal (type 9): custom_id, title, components."""
        return self.data if self.type == 9 else None


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the fake sent to the bot, and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    payload: JSON
    created_at: float
    name: str | None = None
    custom_id: str | None = None
    message: Message | None = None
    response: InteractionCallback | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    errors: list[RequestRecord] = field(default_factory=list)
    #: The first answer came after Discord's 3 s (it got 404 Unknown interaction).
    expired: bool = False
    #: The token's 15 minutes are over (or :meth:`FakeDiscord.expire_interaction` said so): followups and edits
    #: through it get 401 Invalid Webhook Token.
    token_expired: bool = False
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def responded(self) -> bool:
        return self.response is not None

    @property
    def deferred(self) -> bool:
        """The first answer was a defer: type 5 ("thinking", a loading message) or 6 (a component's message kept)."""
        return self.response is not None and self.response.deferred

    async def wait_response(self, timeout: float | None = None) -> InteractionCallback:
        fake = self._require_fake()
        await fake.wait_for(lambda: self.response is not None, timeout, what=f"a response to interaction {self.id}")
        assert self.response is not None
        return self.response

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[Message]:
        """Wait until the bot sent at least ``count`` followups; returns them all."""
        fake = self._require_fake()
        await fake.wait_for(lambda: len(self.followups) >= count, timeout, what=f"{count} followup(s) to {self.name}")
        return self.followups

    async def wait_original(
        self, predicate: Callable[[Message], object] | None = None, timeout: float | None = None
    ) -> Message:
        """Wait until the original response exists, is no longer "thinking", and matches ``predicate``."""
        fake = self._require_fake()

        def ready() -> Message | None:
            msg = self.original
            if msg is None or msg.loading:
                return None
            return msg if predicate is None or predicate(msg) else None

        return await fake.wait_for(ready, timeout, what=f"the original response of {self.name or self.custom_id}")

    def _require_fake(self) -> FakeDiscord:
        assert self._fake is not None
        return self._fake


@dataclass
class CommandSync:
    """One bulk overwrite of the application commands (``guild_id`` None = global)."""

    guild_id: int | None
    commands: list[JSON]
    changed: bool
    at: float

    @property
    def names(self) -> list[str]:
        return [c["name"] for c in self.commands]


@dataclass
class RequestRecord:
    """One REST request the bot made.

    ``route`` is the matched route template (None for unknown routes).  Interaction
    callbacks and interaction webhooks have ``interaction_endpoint=True``: they do not count
    against the bot's global rate limit.
    """

    method: str
    path: str
    route: str | None
    query: dict[str, str]
    body: Any
    at: float
    interaction_endpoint: bool
    status: int = 0
    response: Any = None
    #: The values of the route's ``{placeholders}``, e.g. ``{"channel_id": "123", "message_id": "456"}``.
    params: dict[str, str] = field(default_factory=dict)
    files: list[tuple[str, int]] = field(default_factory=list)  # (filename, size) of each file uploaded
    #: What in the body Discord's OpenAPI specification does not allow (see ``tests/openapi_check.py``).
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Answered with success (2xx)."""
        return 200 <= self.status < 300


@dataclass(frozen=True)
class DiscordError:
    """An error answer of the Discord API: HTTP status, JSON error code and message (see the constants below)."""

    status: int
    code: int
    message: str


#: The bot cannot see the channel (View Channel missing).
MISSING_ACCESS = DiscordError(403, 50001, "Missing Access")
#: A permission the request needs is missing (Send Messages, Embed Links, Manage Messages...).
MISSING_PERMISSIONS = DiscordError(403, 50013, "Missing Permissions")
#: No interaction webhook with this token (never answered, or gone).
UNKNOWN_WEBHOOK = DiscordError(404, 10015, "Unknown Webhook")
#: The interaction's first answer came too late (3 s) or the interaction does not exist.
UNKNOWN_INTERACTION = DiscordError(404, 10062, "Unknown interaction")
UNKNOWN_MESSAGE = DiscordError(404, 10008, "Unknown Message")
#: What Discord answers through an interaction token after its 15 minutes (discord.py raises a plain HTTPException).
INVALID_WEBHOOK_TOKEN = DiscordError(401, 50027, "Invalid Webhook Token")
#: discord.py retries 500, 502, 504 and 524 a few times by itself before it raises DiscordServerError.
INTERNAL_SERVER_ERROR = DiscordError(500, 0, "500: Internal Server Error")
# The codes of a request Discord refuses for its body: Invalid Form Body, and an empty message.
_MALFORMED = frozenset({50035, 50006})


@dataclass
class _RouteRule:
    method: str
    path: str
    #: How many matching requests the rule takes; None: every one until :meth:`clear`.
    times: int | None
    hits: int = field(default=0, kw_only=True)
    cleared: bool = field(default=False, kw_only=True)

    @property
    def active(self) -> bool:
        return not self.cleared and (self.times is None or self.hits < self.times)

    def clear(self) -> None:
        """Stop acting on requests (the hits so far stay counted)."""
        self.cleared = True

    def matches(self, method: str, path: str) -> bool:
        if not self.active or method != self.method:
            return False
        want = self.path.strip("/").split("/")
        got = path.strip("/").split("/")
        return len(want) == len(got) and all(
            w == g or (w.startswith("{") and w.endswith("}")) for w, g in zip(want, got, strict=True)
        )


@dataclass
class RateLimitRule(_RouteRule):
    """Answer the next ``times`` matching requests with 429 (see :meth:`FakeDiscord.rate_limit`)."""

    retry_after: float
    is_global: bool = False


@dataclass
class RouteLimits:
    """Discord's own rate limits, kept when ``FakeDiscord.route_limits`` is on: 5 edits of one message per 5 s, 5
    messages per channel per 5 s, and 50 requests per second for the whole bot outside the interaction endpoints
    (interaction callbacks and webhooks with a token are outside the global limit, not outside the per-route ones).
    A request over a limit is answered 429 with Discord's headers and body (``retry_after``, ``global``); the requests
    within carry the bucket's real ``X-RateLimit-Remaining`` and ``Reset-After``, which discord.py waits out by itself.
    Fixed windows that open at a bucket's first request, as Discord's buckets reset."""

    edits: tuple[int, float] = (5, 5.0)
    channel_messages: tuple[int, float] = (5, 5.0)
    global_: tuple[int, float] = (50, 1.0)
    #: bucket -> (when its window opened, requests taken in it)
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)
    #: every 429 these limits answered, by bucket kind ("edit", "send", "global")
    refused: Counter[str] = field(default_factory=Counter)

    def buckets(
        self, method: str, template: str, params: dict[str, str], interaction: bool
    ) -> list[tuple[str, int, float]]:
        """The buckets a request takes from: (name, limit, seconds), the global one first."""
        found = [] if interaction else [("global", *self.global_)]
        if method == "PATCH" and template in (CHANNEL_MESSAGE, WEBHOOK_MESSAGE):
            target = params["message_id"]
            if target == "@original":
                target = f"@original:{params['token']}"
            found.append((f"edit:{target}", *self.edits))
        elif method == "POST" and template == CHANNEL_MESSAGES:
            found.append((f"send:{params['channel_id']}", *self.channel_messages))
        return found

    def take(self, buckets: list[tuple[str, int, float]], now: float) -> tuple[str, float, dict[str, str]]:
        """Take one request from each bucket: ("", 0, headers) when every one has room, else the bucket that is full
        and how long until it resets (nothing is taken then)."""
        states = []
        for name, limit, per in buckets:
            opened, taken = self.windows.get(name, (now, 0))
            if now - opened >= per:
                opened, taken = now, 0
            if taken >= limit:
                return name, opened + per - now, {}
            states.append((name, limit, per, opened, taken))
        headers: dict[str, str] = {}
        for name, limit, per, opened, taken in states:
            self.windows[name] = (opened, taken + 1)
            if name != "global":
                reset_after = opened + per - now
                headers = {
                    "X-RateLimit-Limit": str(limit),
                    "X-RateLimit-Remaining": str(limit - taken - 1),
                    "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                    "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                    "X-RateLimit-Bucket": hashlib.sha1(name.split(":")[0].encode()).hexdigest()[:16],
                }
        return "", 0.0, headers


@dataclass
class FailureRule(_RouteRule):
    """Answer the next ``times`` matching requests (all of them with ``times=None``, until :meth:`clear`) with an
    error (see :meth:`FakeDiscord.fail`)."""

    status: int
    code: int = 0
    message: str = ""


@dataclass
class DropRule(_RouteRule):
    """Close the connection of the next ``times`` matching requests without an answer (see :meth:`FakeDiscord.drop`)."""


@dataclass
class Hold(_RouteRule):
    """Matching requests wait, unanswered, until :meth:`release` (see :meth:`FakeDiscord.hold`).

    ``held`` lists the requests waiting now; ``hits`` counts every request the hold caught."""

    held: list[RequestRecord] = field(default_factory=list)
    _released: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    _fake: FakeDiscord | None = field(default=None, repr=False)

    def release(self) -> None:
        """Let the waiting requests (and every later one) through, and stop holding."""
        self.clear()
        self._released.set()

    async def wait_held(self, count: int = 1, timeout: float | None = None) -> list[RequestRecord]:
        """Wait until at least ``count`` requests were caught; returns those waiting now."""
        assert self._fake is not None
        await self._fake.wait_for(lambda: self.hits >= count, timeout, what=f"{count} request(s) to {self.path}")
        return self.held

    async def __aenter__(self) -> Hold:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.release()


# --------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def _form_error(path: str, message: str, code: str = "BASE_TYPE_INVALID") -> _ApiError:
    """400 50035 with Discord's nested ``errors`` layout (discord.py flattens it into the exception text)."""
    errors: JSON = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        errors = {part: errors}
    return _ApiError(400, 50035, "Invalid Form Body", errors)


def _missing_permissions() -> _ApiError:
    return _ApiError(403, 50013, "Missing Permissions")


def _missing_access() -> _ApiError:
    return _ApiError(403, 50001, "Missing Access")


def _walk_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Depth-first over action rows, Components V2 containers/sections and modal labels."""
    for comp in components:
        yield comp
        yield from _walk_components(comp.get("components") or [])
        for key in ("component", "accessory"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from _walk_components([child])


def _assign_component_ids(components: list[JSON]) -> list[JSON]:
    """Discord numbers every component of a message; discord.py's views read these ids."""
    components = copy.deepcopy(components)
    used = {c["id"] for c in _walk_components(components) if isinstance(c.get("id"), int)}
    counter = 0
    for comp in _walk_components(components):
        if "id" not in comp:
            counter += 1
            while counter in used:
                counter += 1
            comp["id"] = counter
    return components


def _emoji_payload(emoji: str) -> JSON:
    name, _, emoji_id = emoji.partition(":")
    if emoji_id:
        return {"id": emoji_id, "name": name, "animated": False}
    return {"id": None, "name": emoji}


def _normalise_emoji(emoji: str) -> str:
    """Reaction routes carry ``name:id`` for custom emoji (``a:name:id`` also accepted)."""
    if emoji.startswith("a:"):
        emoji = emoji[2:]
    if emoji.startswith("<") and emoji.endswith(">"):
        emoji = emoji.strip("<>").removeprefix("a:")
    return emoji


def _check_emoji(emoji: str) -> None:
    # A bare ASCII word (":three:", "3") is not an emoji; Discord answers 10014.
    _, _, emoji_id = emoji.partition(":")
    if emoji_id:
        if not emoji_id.isdigit():
            raise _ApiError(400, 10014, "Unknown Emoji")
        return
    if not emoji or emoji.isascii():
        raise _ApiError(400, 10014, "Unknown Emoji")


def _strip_defaults(value: Any) -> Any:
    """Drop None/False/empty values so semantically equal command payloads compare equal."""
    if isinstance(value, dict):
        out = {k: _strip_defaults(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, False, [], {}, "")}
    if isinstance(value, list):
        return [_strip_defaults(v) for v in value]
    return value


def _command_key(cmd: JSON) -> tuple[int, str]:
    return int(cmd.get("type") or 1), str(cmd.get("name"))


def _canonical_commands(commands: Sequence[JSON]) -> str:
    ignored = {"id", "application_id", "version", "guild_id"}
    cleaned = [
        _strip_defaults({k: v for k, v in {"type": 1, **c}.items() if k not in ignored})
        for c in sorted(commands, key=_command_key)
    ]
    return json.dumps(cleaned, sort_keys=True)


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
# Discord's locales (a localisation for anything else is refused).
_LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"
})  # fmt: skip


@dataclass
class _Request:
    method: str
    path: str
    params: dict[str, str]
    query: Mapping[str, str]
    body: Any
    files: list[tuple[str, bytes]]
    authorization: str = ""  # the Authorization header

    def snowflake(self, name: str, error: _ApiError | None = None) -> int:
        value = self.params[name]
        if not value.isdigit():
            raise error or _ApiError(404, 0, "404: Not Found")
        return int(value)

    def json_object(self) -> JSON:
        if self.body is None:
            return {}
        if not isinstance(self.body, dict):
            raise _ApiError(400, 50109, "The request body contains invalid JSON.")
        return self.body


@dataclass
class _OptionCtx:
    """Where an interaction happens and the ``resolved`` map its options fill in."""

    chan: Channel
    user_id: int
    resolved: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class _RouteSpec:
    method: str
    template: str
    segments: tuple[str, ...]
    handler: str
    interaction_endpoint: bool
    auth: str = "bot"  # "bot": a bot token; "user": a bot or an OAuth2 bearer token; "client": none (in the body)

    def match(self, method: str, segments: Sequence[str]) -> dict[str, str] | None:
        if method != self.method or len(segments) != len(self.segments):
            return None
        params: dict[str, str] = {}
        for want, got in zip(self.segments, segments, strict=True):
            if want.startswith("{"):
                params[want[1:-1]] = got
            elif want != got:
                return None
        return params

    @property
    def literal_count(self) -> int:
        return sum(not s.startswith("{") for s in self.segments)


_ROUTES: list[_RouteSpec] = []
_Handler = Callable[["FakeDiscord", _Request], Awaitable[tuple[int, Any]]]


def _route(
    method: str, template: str, *, interaction: bool = False, auth: str = "bot"
) -> Callable[[_Handler], _Handler]:
    def register(fn: _Handler) -> _Handler:
        segments = tuple(template.strip("/").split("/"))
        _ROUTES.append(_RouteSpec(method, template, segments, fn.__name__, interaction, auth))
        return fn

    return register


class _GatewayConnection:
    """One WebSocket; events are written by a single writer task so sequence order is kept."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: _GatewaySession | None = None
        self.sent_seq = 0
        self.wakeup = asyncio.Event()
        self.lock = asyncio.Lock()
        self.writer: asyncio.Task[None] | None = None

    async def send(self, payload: JSON) -> bool:
        """Send one frame; False if the client is already gone (it will RESUME and get a replay)."""
        async with self.lock:
            if self.ws.closed:
                return False
            try:
                await self.ws.send_str(json.dumps(payload))
            except ConnectionResetError:
                return False
            return True


@dataclass(eq=False)
class _GatewaySession:
    session_id: str
    intents: int
    events: list[JSON] = field(default_factory=list)
    conn: _GatewayConnection | None = None
    ready_seq: int = 0
    shard: tuple[int, int] | None = None  # [shard_id, shard_count] from IDENTIFY

    @property
    def seq(self) -> int:
        return len(self.events)


@contextlib.contextmanager
def point_discord_at(api_url: str, gateway_url: str, cdn_url: str) -> Iterator[None]:
    """Point discord.py's REST base, default gateway and CDN at a fake (in this process or another, like
    ``benchmarks/_launch_bot.py``); restore them on exit."""
    from discord.asset import Asset
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE)
    Route.BASE = api_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    Asset.BASE = cdn_url
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE = saved


# --------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------


class FakeDiscord:
    """A fake Discord server for one bot.

    Lifecycle: ``async with FakeDiscord() as fake`` (or ``await fake.start()`` +
    ``with fake.patch_discord():`` ... ``await fake.stop()``).  Build the world with
    :meth:`add_guild`, :meth:`add_text_channel`, :meth:`add_member`, :meth:`add_role`,
    :meth:`set_permissions`; run the bot with :meth:`run_bot`; act as users with
    :meth:`invoke`, :meth:`autocomplete`, :meth:`click`, :meth:`select`,
    :meth:`submit_modal`, :meth:`send_message`, :meth:`edit_message`,
    :meth:`delete_message`, :meth:`add_reaction`; read results with
    :meth:`channel_messages`, :meth:`dms`, :meth:`deleted`, :meth:`ephemeral_messages`,
    :attr:`requests`, :attr:`command_syncs`; wait with :meth:`wait_for`.

    Threads: :meth:`add_channel` makes one as a user would, :meth:`add_thread_member` lets someone into a private
    one; the bot starts one from a message or without one, posts in it with Send Messages in Threads, and sees a
    private one only as a member (or with Manage Threads).

    Not modelled (real Discord does these): thread archiving, locking and member lists, forum posts made by the
    bot, forum/voice/category channel behaviour beyond existing,
    pins, webhooks other than interaction webhooks, real rate-limit buckets (only the 429s
    a test asks for), presence updates, guild/member/role edits through REST, audit logs,
    message search, stickers/polls beyond echoing the payload, zlib/ETF transport
    encodings (plain JSON text frames only), allowed_mentions beyond user pings (mentions are
    parsed from the content; :attr:`Message.pinged` applies allowed_mentions to them), role
    hierarchy checks, 14-day limit of bulk delete, slowmode, attachment size limits,
    the identify rate limit and max_concurrency buckets.

    Faults, for tests of what the bot does when Discord says no:

    - :meth:`fail` answers chosen requests with an error (``times`` of them, or all until
      cleared), e.g. ``fake.fail("PATCH", CHANNEL_MESSAGE, channel=chan, error=MISSING_PERMISSIONS,
      times=None)``; :meth:`rate_limit` answers with 429.
    - :meth:`hold` keeps chosen requests waiting until the test releases them: a slow Discord, or
      a deferred interaction kept in its "thinking" state while the test looks at it.
    - :meth:`expire_interaction` ends an interaction token's 15 minutes now (or pass a shorter
      ``interaction_token_lifetime``): followups and edits through it get 401 Invalid Webhook Token.
    - :meth:`set_permissions` on the bot (``fake.set_permissions(chan, fake.bot, deny=Perm.SEND_MESSAGES)``)
      takes permissions away in one channel, as a moderator would with an overwrite: the bot's cache
      gets CHANNEL_UPDATE, interactions carry the new ``app_permissions``, and REST answers as
      Discord does. Posting needs View Channel and Send Messages, and Embed Links for embeds;
      editing its own message needs View Channel, and Embed Links when the edit carries embeds
      (a missing Send Messages implicitly removes Embed Links); no View Channel is 403 Missing
      Access (50001), any other missing permission 403 Missing Permissions (50013). Interaction
      callbacks and followups need no channel permission, as on Discord.

    Observing: :meth:`add_request_listener` calls a function with every answered REST request.

    Sharding: ``shard_count`` is what ``GET /gateway/bot`` recommends. A bot (or several bot
    processes) may IDENTIFY with ``shard: [id, count]``; each guild's events then go to the
    session of shard ``(guild_id >> 22) % count`` only, and DMs (and interactions from DMs)
    to shard 0, as Discord does. ``add_guild(shard=n)`` makes a guild that lands on shard n.
    """

    def __init__(
        self,
        *,
        bot_name: str = "FakeBot",
        bot_id: int | None = None,
        application_id: int | None = None,
        heartbeat_interval: float = 41.25,
        interaction_timeout: float = 3.0,
        interaction_token_lifetime: float = 15 * 60.0,
        default_timeout: float = 5.0,
        privileged_intents: int = PRIVILEGED_INTENTS,
        shard_count: int = 1,
        route_limits: bool = False,
        latency: tuple[float, float] | None = None,
        activities: bool = False,
    ) -> None:
        """
        :param interaction_timeout: Discord's 3 s deadline for the first response to an
            interaction; a later callback gets 404 "Unknown interaction" (10062).
        :param interaction_token_lifetime: how long an interaction token works for followups and
            edits (15 minutes on Discord); later they get 401 "Invalid Webhook Token" (50027).
        :param default_timeout: how long the ``wait_*`` helpers wait by default.
        :param privileged_intents: privileged intents "enabled in the developer portal";
            identifying with others closes the gateway with 4014.
        :param shard_count: the number of shards ``GET /gateway/bot`` recommends.
        :param route_limits: answer 429 as Discord does past its per-route and global limits (see ``RouteLimits``).
        :param latency: answer every REST request after a delay drawn between these two bounds, in seconds (the
            network and Discord's own time: 0.1-0.3 s is common); the 3 s deadline of an interaction still counts.
        :param activities: the application has Activities enabled in the Developer Portal: only then is the
            interaction response LAUNCH_ACTIVITY (12) accepted.
        """
        self.bot = User(bot_id or new_snowflake(), bot_name, bot=True)
        self.application_id = application_id or self.bot.id
        self.heartbeat_interval = heartbeat_interval
        self.interaction_timeout = interaction_timeout
        self.interaction_token_lifetime = interaction_token_lifetime
        self.default_timeout = default_timeout
        self.privileged_intents = privileged_intents
        self.shard_count = shard_count
        self.activities = activities
        #: The application's OAuth2 client secret (Developer Portal > OAuth2), for ``POST /oauth2/token``.
        self.client_secret = secrets.token_urlsafe(24)
        # OAuth2: code -> (user id, scopes, expiry), used once; access token -> (user id, scopes).
        self._oauth_codes: dict[str, tuple[int, tuple[str, ...], float]] = {}
        self._bearer_tokens: dict[str, tuple[int, tuple[str, ...]]] = {}

        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        #: Guilds the bot was removed from (``remove_bot_from_guild``), by id.
        self.removed_guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.rejected_tokens: set[str] = set()

        #: Every REST request, in arrival order.
        self.requests: list[RequestRecord] = []
        #: Requests that matched no route (they got 404); a good test asserts this stays empty.
        self.unknown_requests: list[RequestRecord] = []
        self._violations: list[RequestRecord] = []  # see ``violations``
        # Requests whose body is still to be checked against Discord's specification: checked when ``violations``
        # is read, not while the bot waits for the answer (a check takes milliseconds; the tests' timing stays).
        self._unchecked: list[RequestRecord] = []
        #: Every command bulk overwrite, in order.
        self.command_syncs: list[CommandSync] = []
        #: Every interaction the fake sent, in order.
        self.interactions: list[InteractionRecord] = []
        #: Every DISPATCH queued for the bot as (event name, data); events the bot's intents
        #: exclude, or that happen while no bot session exists, are not included.
        self.dispatched: list[tuple[str, JSON]] = []
        self.rate_limits: list[RateLimitRule] = []
        #: Discord's own per-route and global limits, when on (``route_limits=True``); off, only ``rate_limit`` rules
        #: answer 429, so that most tests run at full speed.
        self.route_limits: RouteLimits | None = RouteLimits() if route_limits else None
        self.latency = latency
        self._jitter = random.Random(0)  # the same delays every run
        self.failures: list[FailureRule] = []
        self.drops: list[DropRule] = []
        self.holds: list[Hold] = []
        self._request_listeners: list[Callable[[RequestRecord], object]] = []
        self.heartbeats = 0
        self.identifies = 0
        self.resumes = 0
        self.presence: JSON | None = None

        self._commands: dict[int | None, list[JSON]] = {}
        self._interactions_by_id: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self._deleted: list[Message] = []
        self._dm_by_user: dict[int, Channel] = {}
        self._files: dict[int, bytes] = {}
        self._session: _GatewaySession | None = None  # the newest session (of any shard)
        self._sessions: dict[str, _GatewaySession] = {}
        # The current session of each shard, for bots that identified with ``shard``.
        self._shard_sessions: dict[int, _GatewaySession] = {}
        self._routed: _GatewaySession | None = None  # where the last _dispatch went
        self._connections: set[_GatewayConnection] = set()
        self._waiters: set[asyncio.Future[None]] = set()
        self._runner: web.AppRunner | None = None
        self._patch: contextlib.AbstractContextManager[None] | None = None
        self._port = 0
        self._started_at = 0.0

    # ----------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_url(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}{GATEWAY_PATH}"

    @property
    def cdn_url(self) -> str:
        return self.base_url + CDN_PREFIX

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway_handler)
        app.router.add_route("*", "/{tail:.*}", self._http_handler)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._started_at = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        """Close gateway connections and the server.  Close the bot first, or it will try to reconnect."""
        for conn in list(self._connections):
            if conn.writer is not None:
                conn.writer.cancel()
            await conn.ws.close(code=1001, message=b"fake Discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def patch_discord(self) -> contextlib.AbstractContextManager[None]:
        """Point discord.py's REST base, default gateway and CDN at this fake; restore on exit."""
        return point_discord_at(self.api_url, self.gateway_url, self.cdn_url)

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self._patch = self.patch_discord()
        self._patch.__enter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._patch is not None:
            self._patch.__exit__(None, None, None)
            self._patch = None
        await self.stop()

    @contextlib.asynccontextmanager
    async def run_bot(
        self, bot: discord.Client, token: str = "fake-token", *, timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """Run ``bot.start(token)`` in a task until the bot is ready (``on_ready``); close it on exit.

        An exception raised by ``bot.start`` before ready (e.g. ``discord.LoginFailure``) is
        raised here; so is a crash of the bot task while the block ran.
        """
        task = asyncio.create_task(bot.start(token), name="fake-discord-bot")
        try:
            await self.wait_for(
                lambda: task.done() or bot.is_ready(), timeout, what="the bot to become ready", poll=0.01
            )
            if task.done():
                task.result()
                raise FakeDiscordError("bot.start() returned before the bot was ready")
            yield bot
        finally:
            await bot.close()
            await asyncio.wait({task}, timeout=timeout)
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            # Reading the exception also keeps asyncio from logging "never retrieved".
            crashed = None if task.cancelled() else task.exception()
        if crashed is not None:
            raise crashed

    # ----------------------------------------------------------------- waiting

    def _notify(self) -> None:
        for fut in self._waiters:
            if not fut.done():
                fut.set_result(None)
        self._waiters.clear()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float | None = None,
        *,
        what: str | None = None,
        poll: float = 0.05,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Re-checked whenever the fake's state changes, and every ``poll`` seconds for
        conditions on state the fake cannot see (the bot's own objects, a database).
        Raises ``TimeoutError`` naming ``what`` after ``timeout`` (default
        :attr:`default_timeout`).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.default_timeout if timeout is None else timeout)
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what or predicate}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait({fut}, timeout=min(remaining, poll))
            finally:
                self._waiters.discard(fut)

    async def wait_idle(self, quiet: float = 0.1, timeout: float | None = None) -> None:
        """Wait until the bot has made no REST request for ``quiet`` seconds and no deferred answer still reads
        "thinking...": what it does in the background after an answer (DMs, notices) is done, as a person watching
        the channel and their DMs would see it. (A bot waiting on its database makes no request for a while; the
        loading message it owes is what says it is not done.)"""
        loop = asyncio.get_running_loop()

        def thinking() -> bool:
            return any(
                rec.original is not None and rec.original.loading and not rec.original.deleted and not rec.token_expired
                for rec in self.interactions
            )

        def calm() -> bool:
            last = self.requests[-1].at if self.requests else 0.0
            return loop.time() - self._started_at - last >= quiet and not thinking()

        await self.wait_for(calm, timeout, what="the bot to fall quiet", poll=quiet / 4)

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Wait until the bot identified and READY plus every GUILD_CREATE was written to it.

        The bot's ``on_ready`` follows ``guild_ready_timeout`` later; use ``run_bot`` or
        ``bot.wait_until_ready()`` when the test needs that.
        """

        def ready(session: _GatewaySession | None) -> bool:
            return bool(session and session.ready_seq and session.conn and session.conn.sent_seq >= session.ready_seq)

        def done() -> bool:
            if not self._shard_sessions:
                return ready(self._session)
            count = self._sharding()
            return all(ready(self._shard_sessions.get(shard)) for shard in range(count))

        await self.wait_for(done, timeout, what="the bot to connect to the gateway")

    async def wait_synced(self, count: int = 1, timeout: float | None = None) -> list[CommandSync]:
        """Wait until the bot synced its commands at least ``count`` times (any scope)."""
        await self.wait_for(lambda: len(self.command_syncs) >= count, timeout, what=f"{count} command sync(s)")
        return self.command_syncs

    async def wait_message(
        self,
        channel: Any,
        predicate: Callable[[Message], object] | None = None,
        timeout: float | None = None,
        *,
        author: Any = None,
    ) -> Message:
        """Wait for a (non-deleted) message in ``channel`` matching ``predicate`` (and ``author``,
        default: the bot); returns the newest such message."""
        author_id = self.bot.id if author is None else _id_of(author)

        def find() -> Message | None:
            for msg in reversed(self.channel_messages(channel)):
                if msg.author.id == author_id and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.wait_for(find, timeout, what=f"a message in channel {_id_of(channel)}")

    async def wait_dm(
        self, user: Any, predicate: Callable[[Message], object] | None = None, timeout: float | None = None
    ) -> Message:
        """Wait for a DM from the bot to ``user`` matching ``predicate``."""
        uid = _id_of(user)

        def find() -> Message | None:
            for msg in reversed(self.dms(uid)):
                if msg.author.id == self.bot.id and (predicate is None or predicate(msg)):
                    return msg
            return None

        return await self.wait_for(find, timeout, what=f"a DM to user {uid}")

    # ----------------------------------------------------------------- world building

    def add_user(self, name: str, *, bot: bool = False, user_id: int | None = None) -> User:
        user = User(user_id or new_snowflake(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        guild_id: int | None = None,
        owner: Any = None,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        shard: int | None = None,
    ) -> Guild:
        """A guild with @everyone, the bot's managed role (``bot_permissions``) and the bot as member.

        ``owner`` (a User/Member/id) bypasses all permission checks; by default the owner is a
        user who is not a member. ``shard``: an id that routes the guild to that shard of
        :attr:`shard_count`.
        """
        if shard is not None and not 0 <= shard < self.shard_count:
            raise FakeDiscordError(f"shard {shard} does not exist with shard_count={self.shard_count}")
        gid = guild_id or (new_snowflake() if shard is None else snowflake_on_shard(shard, self.shard_count))
        owner_id = _id_of(owner) if owner is not None else new_snowflake()
        guild = Guild(gid, name, owner_id)
        guild.roles[gid] = Role(gid, gid, "@everyone", int(everyone_permissions))
        bot_role = Role(new_snowflake(), gid, self.bot.name, int(bot_permissions), 1, managed=True, bot_id=self.bot.id)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(self.bot, gid, [bot_role.id])
        self.guilds[gid] = guild
        self._dispatch("GUILD_CREATE", self._guild_create_payload(guild), intent=Intent.GUILDS)
        return guild

    def add_text_channel(
        self, guild: Any, name: str, *, channel_id: int | None = None, topic: str | None = None, nsfw: bool = False
    ) -> Channel:
        g = self._guild(guild)
        chan = Channel(channel_id or new_snowflake(), name, GUILD_TEXT, g.id, len(g.channels), topic, nsfw)
        g.channels[chan.id] = chan
        self.channels[chan.id] = chan
        self._dispatch("CHANNEL_CREATE", chan.payload(), intent=Intent.GUILDS)
        return chan

    def add_channel(
        self, guild: Any, name: str, *, type: int, parent: Any = None, owner: Any = None, channel_id: int | None = None
    ) -> Channel:
        """A guild channel of another kind than text: ``GUILD_VOICE`` (its text chat takes commands too),
        ``GUILD_CATEGORY``, ``GUILD_FORUM``, or a thread (``PUBLIC_THREAD``, ``PRIVATE_THREAD``) under ``parent``; a
        forum post is a public thread whose parent is a forum. Threads arrive as THREAD_CREATE, others as
        CHANNEL_CREATE; a thread has its parent's permissions."""
        g = self._guild(guild)
        parent_id = None if parent is None else _id_of(parent)
        if (type in THREAD_TYPES) != (parent_id is not None):
            raise FakeDiscordError("threads, and only threads, need a parent channel")
        chan = Channel(channel_id or new_snowflake(), name, type, g.id, len(g.channels), parent_id=parent_id)
        if chan.is_thread:
            chan.owner_id = self.bot.id if owner is None else _id_of(owner)
            chan.thread_members.add(chan.owner_id)
        g.channels[chan.id] = chan
        self.channels[chan.id] = chan
        if chan.is_thread:
            self._dispatch("THREAD_CREATE", {**chan.payload(), "newly_created": True}, intent=Intent.GUILDS)
        else:
            self._dispatch("CHANNEL_CREATE", chan.payload(), intent=Intent.GUILDS)
        return chan

    def add_thread_member(self, thread: Any, user: Any) -> None:
        """``user`` joins ``thread`` (in a private thread, only members see it). When the bot is added it gets
        THREAD_CREATE, as from Discord; other members' joins send nothing (THREAD_MEMBERS_UPDATE is not modelled)."""
        chan = self._channel(thread)
        if not chan.is_thread:
            raise FakeDiscordError(f"#{chan.name} is not a thread")
        chan.thread_members.add(_id_of(user))
        if _id_of(user) == self.bot.id:
            self._dispatch("THREAD_CREATE", chan.payload(), intent=Intent.GUILDS)

    async def delete_channel(self, channel: Any) -> None:
        """Delete a guild channel or thread, as a moderator would: CHANNEL_DELETE (THREAD_DELETE for a thread).

        The channel's record stays readable here (``channel_messages``), but the bot gets 404 Unknown Channel for it
        and no interaction can come from it any more."""
        chan = self._channel(channel)
        if chan.guild_id is None:
            raise FakeDiscordError("DM channels can't be deleted")
        chan.deleted = True
        self.guilds[chan.guild_id].channels.pop(chan.id, None)
        if chan.is_thread:
            data = {"id": str(chan.id), "guild_id": str(chan.guild_id), "parent_id": str(chan.parent_id)}
            seq = self._dispatch("THREAD_DELETE", {**data, "type": chan.type}, intent=Intent.GUILDS)
        else:
            seq = self._dispatch("CHANNEL_DELETE", chan.payload(), intent=Intent.GUILDS)
        await self._delivered(seq)
        self._notify()

    async def remove_bot_from_guild(self, guild: Any) -> None:
        """The server's owner removes the bot (kicks it, or the bot leaves): GUILD_DELETE without ``unavailable``,
        which discord.py reports as ``on_guild_remove``. The guild is no longer sent at the next connection and its
        REST routes answer 404 Unknown Guild; its record is kept for ``invite_bot_back``."""
        g = self._guild(guild)
        del self.guilds[g.id]
        self.removed_guilds[g.id] = g
        seq = self._dispatch("GUILD_DELETE", {"id": str(g.id)}, intent=Intent.GUILDS)
        await self._delivered(seq)
        self._notify()

    async def invite_bot_back(self, guild: Any) -> None:
        """The owner invites the bot again into a guild it was removed from: GUILD_CREATE (``on_guild_join``), with
        the guild's channels and members as they were."""
        g = self.removed_guilds.pop(_id_of(guild))
        self.guilds[g.id] = g
        # A join carries no ``unavailable`` (False would mean "back after an outage": on_guild_available).
        payload = {k: v for k, v in self._guild_create_payload(g).items() if k != "unavailable"}
        seq = self._dispatch("GUILD_CREATE", payload, intent=Intent.GUILDS)
        await self._delivered(seq)
        self._notify()

    def add_bot_message(self, channel: Any, content: str = "", *, components: Sequence[JSON] = ()) -> Message:
        """A message the bot posted before this test began, e.g. a board of an older version with buttons whose
        custom ids no handler of today's bot knows. No event is sent (the bot posted it long ago)."""
        chan = self._channel(channel)
        body: JSON = {"content": content, "components": copy.deepcopy(list(components))}
        msg = self._new_message(chan, self.bot, body, [])
        self._store(msg)
        self._notify()
        return msg

    def add_role(self, guild: Any, name: str, permissions: int = 0, *, role_id: int | None = None) -> Role:
        g = self._guild(guild)
        role = Role(role_id or new_snowflake(), g.id, name, int(permissions), len(g.roles))
        g.roles[role.id] = role
        self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(g.id), "role": role.payload()}, intent=Intent.GUILDS)
        return role

    def set_role_permissions(self, role: Role, permissions: int) -> None:
        role.permissions = int(permissions)
        self._dispatch(
            "GUILD_ROLE_UPDATE", {"guild_id": str(role.guild_id), "role": role.payload()}, intent=Intent.GUILDS
        )

    def add_member(
        self,
        guild: Any,
        user: User | str,
        *,
        bot: bool = False,
        roles: Sequence[Any] = (),
        nick: str | None = None,
        user_id: int | None = None,
    ) -> Member:
        """Add a member; ``user`` is an existing :class:`User` or the name of a new one."""
        g = self._guild(guild)
        u = user if isinstance(user, User) else self.add_user(user, bot=bot, user_id=user_id)
        self.users[u.id] = u
        member = Member(u, g.id, [_id_of(r) for r in roles], nick)
        g.members[u.id] = member
        self._dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(g.id)}, intent=Intent.GUILD_MEMBERS)
        return member

    def assign_role(self, member: Member, role: Role) -> None:
        if role.id not in member.roles:
            member.roles.append(role.id)
        self._member_updated(member)

    def remove_role(self, member: Member, role: Role) -> None:
        if role.id in member.roles:
            member.roles.remove(role.id)
        self._member_updated(member)

    def bot_member(self, guild: Any) -> Member:
        return self._guild(guild).members[self.bot.id]

    def bot_role(self, guild: Any) -> Role:
        g = self._guild(guild)
        return next(r for r in g.roles.values() if r.bot_id == self.bot.id)

    def set_permissions(self, channel: Any, target: Any, *, allow: int = 0, deny: int = 0) -> Overwrite:
        """Set the channel overwrite for a Role (incl. ``guild.everyone``), Member or User.

        E.g. ``fake.set_permissions(chan, fake.bot, deny=Perm.MANAGE_MESSAGES)``.  The bot's
        cache is updated with CHANNEL_UPDATE, and interaction ``app_permissions`` follow.
        """
        chan = self._channel(channel)
        if chan.guild_id is None:
            raise FakeDiscordError("DM channels have no permission overwrites")
        guild = self.guilds[chan.guild_id]
        target_id = _id_of(target)
        kind = 0 if isinstance(target, Role) or target_id in guild.roles else 1
        ow = Overwrite(target_id, kind, int(allow), int(deny))
        chan.overwrites[target_id] = ow
        self._dispatch("CHANNEL_UPDATE", chan.payload(), intent=Intent.GUILDS)
        return ow

    def close_dms(self, user: Any, closed: bool = True) -> None:
        """The user does not accept DMs: creating the DM channel works, sending gets 403 50007."""
        self._user(user).dms_closed = closed

    def reject_token(self, token: str) -> None:
        """Answer 401 to requests made with this token (``bot.start`` raises LoginFailure)."""
        self.rejected_tokens.add(token)

    def rate_limit(
        self, method: str, path: str, *, times: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> RateLimitRule:
        """Answer the next ``times`` requests to ``path`` with 429.

        ``path`` is relative to ``/api/v10``; ``{placeholders}`` match any segment, e.g.
        ``fake.rate_limit("POST", "/channels/{channel_id}/messages")``.
        """
        rule = RateLimitRule(method.upper(), path, times, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    def fail(
        self,
        method: str,
        path: str,
        *,
        error: DiscordError | None = None,
        status: int = 500,
        code: int = 0,
        message: str = "",
        times: int | None = 1,
        channel: Any = None,
        interaction: InteractionRecord | None = None,
        message_id: Any = None,
    ) -> FailureRule:
        """Answer the next ``times`` requests to ``path`` with an error; ``times=None``: every one until
        ``rule.clear()`` (or :meth:`clear_failures`).

        The error is ``error`` (``MISSING_PERMISSIONS``, ``MISSING_ACCESS``, ``UNKNOWN_WEBHOOK``,
        ``INVALID_WEBHOOK_TOKEN``, ``INTERNAL_SERVER_ERROR``...) or ``status`` with Discord's JSON error ``code`` and
        ``message``. ``path`` is as for :meth:`rate_limit` (the route constants ``CHANNEL_MESSAGES``,
        ``CHANNEL_MESSAGE``, ``INTERACTION_CALLBACK``, ``FOLLOWUP``, ``WEBHOOK_MESSAGE`` name the usual ones);
        ``channel``, ``interaction`` and ``message_id`` (an id, a :class:`Message`, or ``"@original"``) narrow its
        ``{channel_id}``, ``{interaction_id}``/``{token}`` and ``{message_id}`` to one value, e.g.
        ``fake.fail("PATCH", WEBHOOK_MESSAGE, interaction=rec, message_id="@original", error=UNKNOWN_WEBHOOK)``.
        Nothing the request asked for happens. Note that discord.py itself retries 500, 502, 504 and 524 (not 503)
        a few times.

        To narrow a rule to one interaction before the bot answers it, send it with ``invoke(..., wait=False)`` (or
        ``click``), which returns before the bot can act, then call ``fail(..., interaction=rec)`` and
        ``await rec.wait_response()``.
        """
        if error is not None:
            status, code, message = error.status, error.code, error.message
        path = self._narrowed(path, channel, interaction, message_id)
        rule = FailureRule(method.upper(), path, times, status, code, message or f"{status}: injected failure")
        self.failures.append(rule)
        return rule

    def drop(
        self,
        method: str,
        path: str,
        *,
        times: int | None = 1,
        channel: Any = None,
        interaction: InteractionRecord | None = None,
        message_id: Any = None,
    ) -> DropRule:
        """Close the connection of the next ``times`` matching requests without answering them, as a server does
        with a kept-alive connection it closes just as a request arrives: nothing the request asked for happens, and
        aiohttp raises ``ServerDisconnectedError`` in the bot (not a ``discord.HTTPException``). ``path`` and the
        narrowing arguments are as for :meth:`fail`; the request is recorded with status 0."""
        path = self._narrowed(path, channel, interaction, message_id)
        rule = DropRule(method.upper(), path, times)
        self.drops.append(rule)
        return rule

    def clear_failures(self) -> None:
        """Stop every failure rule (requests go through again)."""
        for rule in self.failures:
            rule.clear()

    def hold(
        self,
        method: str,
        path: str,
        *,
        channel: Any = None,
        interaction: InteractionRecord | None = None,
        message_id: Any = None,
    ) -> Hold:
        """Keep matching requests waiting, unanswered, until ``hold.release()`` (or the end of
        ``async with fake.hold(...)``): Discord being slow, or a deferred interaction kept "thinking" while the test
        checks that the bot deferred. ``path`` and the narrowing arguments are as for :meth:`fail`.

        The request is recorded when it arrives (``hold.held``, ``hold.wait_held()``) and processed when released,
        as Discord would process it then: a held interaction callback released after 3 s gets 404 Unknown
        interaction. E.g. ``hold = fake.hold("POST", FOLLOWUP)``; ``rec = await fake.invoke(...)`` returns at the
        type-5 callback; ``rec.original.loading`` is True until ``hold.release()``.
        """
        path = self._narrowed(path, channel, interaction, message_id)
        rule = Hold(method.upper(), path, None, _fake=self)
        self.holds.append(rule)
        return rule

    def expire_interaction(self, interaction: InteractionRecord) -> None:
        """The interaction token's 15 minutes are over now: followups, edits and deletions through it get 401
        Invalid Webhook Token (50027), as on Discord (discord.py raises ``HTTPException`` with that code; a late
        first answer gets 404 Unknown interaction as ever)."""
        interaction.token_expired = True
        self._notify()

    def add_request_listener(self, listener: Callable[[RequestRecord], object]) -> None:
        """Call ``listener(record)`` with every REST request once it is answered, in the fake's event loop and
        before the answer goes back to the bot: ``record.route``, ``record.params``, ``record.status``
        (``record.ok``), ``record.body`` and ``record.response`` say what was asked and answered. A listener must
        not block, and must not raise: an exception becomes a 500 for the bot (aiohttp logs it)."""
        self._request_listeners.append(listener)

    def remove_request_listener(self, listener: Callable[[RequestRecord], object]) -> None:
        self._request_listeners.remove(listener)

    @staticmethod
    def _narrowed(path: str, channel: Any, interaction: InteractionRecord | None, message_id: Any) -> str:
        """``path`` with the placeholders the caller pinned to one value filled in."""
        values: dict[str, str] = {}
        if channel is not None:
            values["channel_id"] = str(_id_of(channel))
        if interaction is not None:
            values["token"] = interaction.token
            if "{interaction_id}" in path:  # the webhook routes name the interaction by its token alone
                values["interaction_id"] = str(interaction.id)
        if message_id is not None:
            values["message_id"] = message_id if message_id == "@original" else str(_id_of(message_id))
        segments = path.strip("/").split("/")
        names = {segment[1:-1] for segment in segments if segment.startswith("{")}
        unused = set(values) - names
        if unused:
            raise FakeDiscordError(f"{path} has no {sorted(unused)} to narrow")
        return "/" + "/".join(
            values.get(segment[1:-1], segment) if segment.startswith("{") else segment for segment in segments
        )

    @property
    def violations(self) -> list[RequestRecord]:
        """Requests the real Discord would refuse: those the fake refused as malformed (400 with code 50035 or 50006:
        a message over its limits, a bad component...; not the refusals a test asked for with ``fail``), and those
        whose body Discord's OpenAPI specification does not allow (``RequestRecord.problems``, see
        ``tests/openapi_check.py``). A good test asserts this stays empty (the e2e fixtures do); ``clear()`` it after
        a refusal made on purpose."""
        while self._unchecked:
            record = self._unchecked.pop(0)
            record.problems = check_request(record.method, record.route or "", record.body)
            if record.problems and record not in self._violations:
                self._violations.append(record)
        return self._violations

    def violation_report(self) -> str:
        """The requests the real Discord would have refused (``violations``), one line each: what was sent, where,
        and Discord's answer (the field and the limit)."""
        return "\n".join(
            f"{r.method} {r.path} -> {r.status} {'; '.join(r.problems) or json.dumps(r.response)[:500]}"
            for r in self.violations
        )

    def permissions(self, channel: Any, user: Any) -> int:
        """Computed permissions of ``user`` in ``channel`` (what the fake enforces)."""
        chan = self._channel(channel)
        if chan.guild_id is None:
            return DM_PERMISSIONS
        return self.guilds[chan.guild_id].permissions_in(chan, _id_of(user))

    def dm_channel(self, user: Any) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use, like Discord)."""
        u = self._user(user)
        chan = self._dm_by_user.get(u.id)
        if chan is None:
            chan = Channel(new_snowflake(), "", DM, recipient=u)
            self._dm_by_user[u.id] = chan
            self.channels[chan.id] = chan
        return chan

    # ----------------------------------------------------------------- reading results

    def channel_messages(self, channel: Any, *, include_deleted: bool = False) -> list[Message]:
        """Messages in the channel in creation order (bot and user messages, non-ephemeral)."""
        chan = self._channel(channel)
        msgs = (self.messages[mid] for mid in chan.message_ids)
        return [m for m in msgs if include_deleted or not m.deleted]

    def bot_messages(self, channel: Any) -> list[Message]:
        return [m for m in self.channel_messages(channel) if m.author.id == self.bot.id]

    def last_message(self, channel: Any) -> Message | None:
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def dms(self, user: Any) -> list[Message]:
        """Messages in the DM channel between the bot and ``user`` (empty if none was opened)."""
        chan = self._dm_by_user.get(_id_of(user))
        return self.channel_messages(chan) if chan else []

    def deleted(self, channel: Any = None) -> list[Message]:
        """Deleted messages in deletion order, optionally only those of one channel."""
        if channel is None:
            return list(self._deleted)
        cid = _id_of(channel)
        return [m for m in self._deleted if m.channel_id == cid]

    def ephemeral_messages(self, user: Any = None) -> list[Message]:
        msgs = [m for m in self.messages.values() if m.ephemeral]
        if user is not None:
            msgs = [m for m in msgs if m.visible_to == _id_of(user)]
        return sorted(msgs, key=lambda m: m.id)

    def commands(self, guild: Any = None) -> list[JSON]:
        """The commands currently registered, globally or for ``guild``."""
        return list(self._commands.get(None if guild is None else _id_of(guild), []))

    @property
    def bot_requests(self) -> list[RequestRecord]:
        """REST requests that count against the bot's global rate limit (not interaction endpoints)."""
        return [r for r in self.requests if not r.interaction_endpoint]

    @property
    def intents(self) -> int:
        """The intents the bot identified with (0 before it connects)."""
        return self._session.intents if self._session else 0

    # ----------------------------------------------------------------- internal lookups

    def _guild(self, guild: Any) -> Guild:
        try:
            return guild if isinstance(guild, Guild) else self.guilds[_id_of(guild)]
        except KeyError:
            raise FakeDiscordError(f"unknown guild {guild!r}") from None

    def _channel(self, channel: Any) -> Channel:
        try:
            return channel if isinstance(channel, Channel) else self.channels[_id_of(channel)]
        except KeyError:
            raise FakeDiscordError(f"unknown channel {channel!r}") from None

    def _user(self, user: Any) -> User:
        if isinstance(user, User):
            return user
        if isinstance(user, Member):
            return user.user
        try:
            return self.users[_id_of(user)]
        except KeyError:
            raise FakeDiscordError(f"unknown user {user!r}") from None

    def _message(self, message: Any) -> Message:
        try:
            return message if isinstance(message, Message) else self.messages[_id_of(message)]
        except KeyError:
            raise FakeDiscordError(f"unknown message {message!r}") from None

    def _member_updated(self, member: Member) -> None:
        data = {**member.payload(), "guild_id": str(member.guild_id)}
        # Discord sends updates of the bot's own member regardless of the members intent.
        intent = None if member.id == self.bot.id else Intent.GUILD_MEMBERS
        self._dispatch("GUILD_MEMBER_UPDATE", data, intent=intent)

    # ----------------------------------------------------------------- gateway

    def _guild_create_payload(self, guild: Guild) -> JSON:
        data = guild.payload()
        data.update(
            {
                "unavailable": False,
                "large": False,
                "lazy": True,
                "joined_at": guild.members[self.bot.id].joined_at,
                # member_count == len(members) makes discord.py consider the guild chunked.
                "member_count": len(guild.members),
                "members": [m.payload() for m in guild.members.values()],
                "channels": [c.payload() for c in guild.channels.values() if not c.is_thread],
                "threads": [c.payload() for c in guild.channels.values() if c.is_thread],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    def _event_wanted(self, session: _GatewaySession, intent: int | None) -> bool:
        return intent is None or bool(session.intents & intent)

    def _sharding(self) -> int:
        """The shard count the bot identified with (1 if it did not shard)."""
        return next((s.shard[1] for s in self._shard_sessions.values() if s.shard), 1)

    def _session_for(self, guild_id: int | None) -> _GatewaySession | None:
        """The session that receives the events of ``guild_id`` (None: a DM)."""
        if not self._shard_sessions:
            return self._session
        return self._shard_sessions.get(shard_of(guild_id, self._sharding()))

    @staticmethod
    def _guild_of(event: str, data: JSON) -> int | None:
        raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else data.get("guild_id")
        return int(raw) if raw else None

    def _dispatch(
        self, event: str, data: JSON, *, intent: int | None = None, session: _GatewaySession | None = None
    ) -> int:
        """Queue a DISPATCH for the bot (for the shard of the event's guild, unless ``session`` is given);
        returns its sequence number (0 if not sent)."""
        if session is None:
            session = self._session_for(self._guild_of(event, data))
        self._routed = session
        if session is None or not self._event_wanted(session, intent):
            return 0
        self.dispatched.append((event, data))
        session.events.append({"op": 0, "t": event, "s": session.seq + 1, "d": data})
        if session.conn is not None:
            session.conn.wakeup.set()
        return session.seq

    async def _delivered(self, seq: int) -> None:
        """Wait until event ``seq`` of the last dispatch's session was written to the socket (no-op if the bot
        is offline)."""
        if not seq:
            return
        session = self._routed

        def done() -> bool:
            return session is None or session.conn is None or session.conn.sent_seq >= seq

        await self.wait_for(done, what=f"gateway event {seq} to be written")

    async def _writer(self, conn: _GatewayConnection) -> None:
        while True:
            await conn.wakeup.wait()
            conn.wakeup.clear()
            session = conn.session
            while session is not None and conn.sent_seq < session.seq:
                if not await conn.send(session.events[conn.sent_seq]):
                    return
                conn.sent_seq += 1
                self._notify()

    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = _GatewayConnection(ws)
        self._connections.add(conn)
        conn.writer = asyncio.create_task(self._writer(conn), name="fake-discord-gateway-writer")
        try:
            await conn.send(
                {"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": self.heartbeat_interval * 1000}}
            )
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_gateway_message(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            conn.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await conn.writer
            self._connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self._notify()
        return ws

    async def _on_gateway_message(self, conn: _GatewayConnection, msg: JSON) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:
            self.heartbeats += 1
            await conn.send({"op": 11, "s": None, "t": None, "d": None})
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 3:
            self.presence = data
        elif op == 8:
            self._request_guild_members(data or {})
        self._notify()

    async def _identify(self, conn: _GatewayConnection, data: JSON) -> None:
        token = str(data.get("token", ""))
        if not token or token in self.rejected_tokens:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents") or 0)
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard")
        guilds = list(self.guilds.values())
        if shard is not None:
            shard_id, count = (int(n) for n in shard)
            if not 0 <= shard_id < count or (self._shard_sessions and count != self._sharding()):
                await conn.ws.close(code=4010, message=b"Invalid shard.")
                return
            guilds = [g for g in guilds if shard_of(g.id, count) == shard_id]
        self.identifies += 1
        session = _GatewaySession(secrets.token_hex(16), intents, shard=None if shard is None else (shard_id, count))
        self._sessions[session.session_id] = session
        self._session = session
        if shard is not None:
            self._shard_sessions[shard_id] = session
        conn.session, session.conn = session, conn
        ready = {
            "v": 10,
            "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:
            ready["shard"] = list(session.shard)
        self._dispatch("READY", ready, session=session)
        for guild in guilds:
            self._dispatch("GUILD_CREATE", self._guild_create_payload(guild), intent=Intent.GUILDS, session=session)
        session.ready_seq = session.seq

    async def _resume(self, conn: _GatewayConnection, data: JSON) -> None:
        session = self._sessions.get(str(data.get("session_id")))
        current = (
            self._session if session is None or session.shard is None else self._shard_sessions.get(session.shard[0])
        )
        if session is None or session is not current or str(data.get("token")) in self.rejected_tokens:
            await conn.send({"op": 9, "s": None, "t": None, "d": False})
            return
        self.resumes += 1
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
        conn.session, session.conn = session, conn
        # Replay what the client missed, then RESUMED (as Discord does).
        conn.sent_seq = min(int(data.get("seq") or 0), session.seq)
        self._dispatch("RESUMED", {"_trace": ["fake-discord"]}, session=session)

    def _request_guild_members(self, data: JSON) -> None:
        guild = self.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m.name.lower().startswith(query)]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        self._dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def reconnect(self) -> None:
        """Send op 7 RECONNECT; discord.py reconnects and RESUMEs (see :attr:`resumes`)."""
        session = self._session
        if session is None or session.conn is None:
            raise FakeDiscordError("the bot is not connected")
        await session.conn.send({"op": 7, "s": None, "t": None, "d": None})

    def _message_event(self, msg: Message) -> JSON:
        data = msg.payload()
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
            guild = self.guilds.get(msg.guild_id)
            member = guild.members.get(msg.author.id) if guild else None
            if member is not None and msg.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        session = self._session
        if session is not None:
            data = self._apply_content_intent(data, msg, session.intents)
        return data

    def _apply_content_intent(self, data: JSON, msg: Message, intents: int) -> JSON:
        """Without MESSAGE_CONTENT the bot only sees content of DMs, its own messages and mentions."""
        if intents & Intent.MESSAGE_CONTENT or msg.guild_id is None or msg.author.id == self.bot.id:
            return data
        if any(u.id == self.bot.id for u in msg.mentions):
            return data
        data = dict(data)
        data.update(content="", embeds=[], attachments=[], components=[])
        data.pop("poll", None)
        return data

    def _message_intent(self, msg: Message, *, reactions: bool = False) -> int:
        if msg.guild_id is None:
            return Intent.DIRECT_MESSAGE_REACTIONS if reactions else Intent.DIRECT_MESSAGES
        return Intent.GUILD_MESSAGE_REACTIONS if reactions else Intent.GUILD_MESSAGES

    def _dispatch_create(self, msg: Message) -> int:
        if msg.ephemeral:
            return 0
        return self._dispatch("MESSAGE_CREATE", self._message_event(msg), intent=self._message_intent(msg))

    def _dispatch_update(self, msg: Message) -> int:
        if msg.ephemeral:
            return 0
        return self._dispatch("MESSAGE_UPDATE", self._message_event(msg), intent=self._message_intent(msg))

    def _dispatch_delete(self, msg: Message) -> int:
        if msg.ephemeral:
            return 0
        data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        return self._dispatch("MESSAGE_DELETE", data, intent=self._message_intent(msg))

    def _reaction_event(self, msg: Message, user: User, emoji: str) -> JSON:
        data: JSON = {
            "user_id": str(user.id),
            "channel_id": str(msg.channel_id),
            "message_id": str(msg.id),
            "emoji": _emoji_payload(emoji),
            "burst": False,
            "type": 0,
        }
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        return data

    # ----------------------------------------------------------------- HTTP plumbing

    def _ratelimit_headers(self, template: str) -> dict[str, str]:
        # Generous and constant so discord.py never pre-emptively waits; only explicit
        # rate_limit() rules produce 429s.
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": hashlib.sha1(template.encode()).hexdigest()[:16],
        }

    @staticmethod
    def _json_response(status: int, data: Any, headers: dict[str, str]) -> web.Response:
        if data is None and status == 204:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py only parses JSON when the header matches verbatim.
        headers = {**headers, "Content-Type": "application/json"}
        return web.Response(status=status, body=json.dumps(data).encode(), headers=headers)

    async def _http_handler(self, request: web.Request) -> web.StreamResponse:
        raw_path = request.raw_path.split("?", 1)[0]
        if raw_path.startswith(CDN_PREFIX + "/"):
            return self._cdn(raw_path)
        loop = asyncio.get_running_loop()
        inner = raw_path[len(API_PREFIX) :] if raw_path.startswith(API_PREFIX + "/") else None
        segments = [urllib.parse.unquote(s) for s in (inner or raw_path).strip("/").split("/")]
        path = "/" + "/".join(segments)
        spec, params = self._match_route(request.method, segments) if inner is not None else (None, None)
        body, files = await self._read_body(request)
        record = RequestRecord(
            request.method,
            path if inner is not None else raw_path,
            spec.template if spec else None,
            dict(request.query),
            body,
            loop.time() - self._started_at,
            bool(spec and spec.interaction_endpoint),
            files=[(name, len(data)) for name, data in files],
            params=dict(params or {}),
        )
        self.requests.append(record)
        if self.latency is not None:
            await asyncio.sleep(self._jitter.uniform(*self.latency))
        headers = self._ratelimit_headers(spec.template if spec else path)
        try:
            if spec is None or params is None:
                self.unknown_requests.append(record)
                raise _ApiError(404, 0, "404: Not Found")
            for hold in self.holds:
                if hold.matches(request.method, path):
                    hold.hits += 1
                    hold.held.append(record)
                    self._notify()
                    try:
                        await hold._released.wait()
                    finally:
                        hold.held.remove(record)
            for rule in self.rate_limits:
                if rule.matches(request.method, path):
                    rule.hits += 1
                    record.status = 429
                    self._notify()
                    return self._too_many_requests(rule.retry_after, rule.is_global, headers)
            if self.route_limits is not None:
                buckets = self.route_limits.buckets(request.method, spec.template, params, spec.interaction_endpoint)
                full, retry_after, limit_headers = self.route_limits.take(buckets, loop.time())
                if full:
                    self.route_limits.refused[full.split(":")[0]] += 1
                    record.status = 429
                    self._notify()
                    return self._too_many_requests(retry_after, full == "global", headers)
                headers.update(limit_headers)
            for failure in self.failures:
                if failure.matches(request.method, path):
                    failure.hits += 1
                    record.status = failure.status  # asked for by the test: not a violation
                    raise _ApiError(failure.status, failure.code, failure.message)
            for drop in self.drops:
                if drop.matches(request.method, path):
                    drop.hits += 1
                    record.status = 0
                    self._notify()
                    assert request.transport is not None
                    request.transport.close()
                    return web.Response(status=500)  # never written: the connection is gone
            if not spec.interaction_endpoint and spec.auth != "client":
                self._check_auth(request, bearer=spec.auth == "user")
            if body is not None:
                self._unchecked.append(record)
            handler: _Handler = getattr(type(self), spec.handler)
            authorization = request.headers.get("Authorization", "")
            req = _Request(request.method, path, params, request.query, body, files, authorization)
            status, data = await handler(self, req)
        except _ApiError as exc:
            status, data = exc.status, exc.body()
            if record.status == 0 and exc.code in _MALFORMED:
                self._violations.append(record)
            rec = self._interaction_for_path(segments)
            if rec is not None:
                rec.errors.append(record)
        record.status, record.response = status, data
        for listener in list(self._request_listeners):
            listener(record)
        self._notify()
        return self._json_response(status, data, headers)

    def _match_route(self, method: str, segments: Sequence[str]) -> tuple[_RouteSpec | None, dict[str, str] | None]:
        best: tuple[_RouteSpec | None, dict[str, str] | None] = (None, None)
        for spec in _ROUTES:
            params = spec.match(method, segments)
            if params is not None and (best[0] is None or spec.literal_count > best[0].literal_count):
                best = (spec, params)
        return best

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        files: list[tuple[str, bytes]] = []
        if request.content_type == "multipart/form-data":
            body: Any = None
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                elif part.filename:
                    files.append((part.filename, bytes(await part.read())))
            return body, files
        if not request.can_read_body:
            return None, files
        text = await request.text()
        try:
            return (json.loads(text) if text else None), files
        except json.JSONDecodeError:
            return text, files

    def _check_auth(self, request: web.Request, *, bearer: bool = False) -> None:
        auth = request.headers.get("Authorization", "")
        if bearer and auth.startswith("Bearer ") and auth.removeprefix("Bearer ") in self._bearer_tokens:
            return
        token = auth.removeprefix("Bot ").strip()
        if not auth.startswith("Bot ") or not token or token in self.rejected_tokens:
            raise _ApiError(401, 0, "401: Unauthorized")

    def _too_many_requests(self, retry_after: float, is_global: bool, headers: dict[str, str]) -> web.Response:
        headers = {
            **headers,
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Scope": "global" if is_global else "user",
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            # Without Via discord.py takes a 429 for a Cloudflare ban and does not retry.
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return self._json_response(429, body, headers)

    def _cdn(self, raw_path: str) -> web.Response:
        # Attachment URLs: /cdn/attachments/{channel_id}/{attachment_id}/{filename}
        parts = raw_path.strip("/").split("/")
        if len(parts) >= 4 and parts[1] == "attachments" and parts[3].isdigit():
            data = self._files.get(int(parts[3]))
            if data is not None:
                return web.Response(body=data, content_type="application/octet-stream")
        return web.Response(status=404, text="not found")

    def _interaction_for_path(self, segments: Sequence[str]) -> InteractionRecord | None:
        if len(segments) >= 3 and segments[0] in ("interactions", "webhooks"):
            return self._interactions_by_token.get(segments[2])
        return None

    # ----------------------------------------------------------------- REST: users, app, gateway

    @_route("GET", "/users/@me", auth="user")
    async def _get_me(self, req: _Request) -> tuple[int, Any]:
        if req.authorization.startswith("Bearer "):
            user_id, scopes = self._bearer_tokens[req.authorization.removeprefix("Bearer ")]
            if "identify" not in scopes:
                raise _ApiError(401, 0, "401: Unauthorized")
            user = self.users[user_id]
            return 200, {**user.payload(), "mfa_enabled": False, "locale": user.locale}
        return 200, {**self.bot.payload(), "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}

    @_route("GET", "/users/{user_id}")
    async def _get_user(self, req: _Request) -> tuple[int, Any]:
        user = self.users.get(req.snowflake("user_id", _ApiError(404, 10013, "Unknown User")))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    @_route("POST", "/users/@me/channels")
    async def _create_dm(self, req: _Request) -> tuple[int, Any]:
        recipient = str(req.json_object().get("recipient_id"))
        user = self.users.get(int(recipient)) if recipient.isdigit() else None
        if user is None:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return 200, self.dm_channel(user).payload()

    def _application_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": hashlib.sha256(str(self.application_id).encode()).hexdigest(),
            "flags": 0,
            "owner": User(self.application_id + 1, "app-owner").payload(),
            "team": None,
            "bot": self.bot.payload(),
            "tags": [],
            "redirect_uris": [],
            "rpc_origins": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    def authorize(self, user: Any, scopes: Sequence[str] = ("identify",)) -> str:
        """What Discord's client does for the Embedded App SDK's ``AUTHORIZE`` command (the user consents): a code
        for this application, good once, for 10 minutes, that ``POST /oauth2/token`` exchanges for an access token."""
        code = secrets.token_urlsafe(22)
        self._oauth_codes[code] = (self._user(user).id, tuple(scopes), time.monotonic() + 600)
        return code

    @_route("POST", "/oauth2/token", auth="client")
    async def _oauth2_token(self, req: _Request) -> tuple[int, Any]:
        """The authorization-code grant, as Discord answers it: client credentials in the form (or HTTP Basic), the
        code spent even when refused, OAuth2's own error bodies (not Discord's JSON error codes)."""
        form = dict(urllib.parse.parse_qsl(req.body)) if isinstance(req.body, str) else {}
        if req.authorization.startswith("Basic "):
            try:
                given = base64.b64decode(req.authorization.removeprefix("Basic ")).decode()
            except ValueError:
                given = ""
            form["client_id"], _, form["client_secret"] = given.partition(":")
        if (form.get("client_id"), form.get("client_secret")) != (str(self.application_id), self.client_secret):
            return 401, {"error": "invalid_client"}
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        granted = self._oauth_codes.pop(form.get("code", ""), None)
        if granted is None or granted[2] < time.monotonic():
            return 400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
        user_id, scopes, _expiry = granted
        token = secrets.token_urlsafe(22)
        self._bearer_tokens[token] = (user_id, scopes)
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 604800,
            "refresh_token": secrets.token_urlsafe(22),
            "scope": " ".join(scopes),
        }

    @_route("GET", "/oauth2/applications/@me")
    async def _get_application(self, req: _Request) -> tuple[int, Any]:
        return 200, self._application_payload()

    @_route("GET", "/applications/@me")
    async def _get_application_alt(self, req: _Request) -> tuple[int, Any]:
        return 200, self._application_payload()

    @_route("GET", "/gateway")
    async def _get_gateway(self, req: _Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    @_route("GET", "/gateway/bot")
    async def _get_gateway_bot(self, req: _Request) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return 200, {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}

    # ----------------------------------------------------------------- REST: application commands

    def _check_app(self, req: _Request) -> None:
        if req.params.get("application_id") != str(self.application_id):
            raise _missing_access()

    def _command_scope(self, req: _Request) -> int | None:
        if "guild_id" not in req.params:
            return None
        gid = req.snowflake("guild_id", _ApiError(404, 10004, "Unknown Guild"))
        if gid not in self.guilds:
            raise _missing_access()
        return gid

    def _stored_command(self, payload: JSON, scope: int | None, previous: JSON | None) -> JSON:
        cmd: JSON = {
            "type": 1,
            "default_member_permissions": None,
            "nsfw": False,
            "description": "",
            **copy.deepcopy(payload),
        }
        same = previous is not None and _canonical_commands([previous]) == _canonical_commands([cmd])
        cmd["id"] = previous["id"] if previous else str(new_snowflake())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = previous["version"] if previous and same else str(new_snowflake())
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    @_route("GET", "/applications/{application_id}/commands")
    @_route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def _get_commands(self, req: _Request) -> tuple[int, Any]:
        self._check_app(req)
        return 200, self._commands.get(self._command_scope(req), [])

    @_route("PUT", "/applications/{application_id}/commands")
    @_route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def _put_commands(self, req: _Request) -> tuple[int, Any]:
        self._check_app(req)
        scope = self._command_scope(req)
        if not isinstance(req.body, list):
            raise _ApiError(400, 50109, "The request body contains invalid JSON.")
        _validate_commands(req.body)
        old = self._commands.get(scope, [])
        previous = {_command_key(c): c for c in old}
        new = [self._stored_command(p, scope, previous.get(_command_key(p))) for p in req.body]
        changed = _canonical_commands(old) != _canonical_commands(new)
        self._commands[scope] = new
        loop_time = asyncio.get_running_loop().time() - self._started_at
        self.command_syncs.append(CommandSync(scope, copy.deepcopy(req.body), changed, loop_time))
        return 200, new

    @_route("POST", "/applications/{application_id}/commands")
    @_route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def _upsert_command(self, req: _Request) -> tuple[int, Any]:
        self._check_app(req)
        scope = self._command_scope(req)
        payload = req.json_object()
        _validate_commands([payload])
        commands = self._commands.setdefault(scope, [])
        key = _command_key(payload)
        previous = next((c for c in commands if _command_key(c) == key), None)
        cmd = self._stored_command(payload, scope, previous)
        if previous is not None:
            commands[commands.index(previous)] = cmd
            return 200, cmd
        commands.append(cmd)
        return 201, cmd

    def _find_stored(self, req: _Request) -> tuple[list[JSON], JSON]:
        self._check_app(req)
        commands = self._commands.get(self._command_scope(req), [])
        for cmd in commands:
            if cmd["id"] == req.params["command_id"]:
                return commands, cmd
        raise _ApiError(404, 10063, "Unknown application command")

    @_route("GET", "/applications/{application_id}/commands/{command_id}")
    @_route("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
    async def _get_command(self, req: _Request) -> tuple[int, Any]:
        return 200, self._find_stored(req)[1]

    @_route("DELETE", "/applications/{application_id}/commands/{command_id}")
    @_route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
    async def _delete_command(self, req: _Request) -> tuple[int, Any]:
        commands, cmd = self._find_stored(req)
        commands.remove(cmd)
        return 204, None

    # ----------------------------------------------------------------- REST: guilds

    def _rest_guild(self, req: _Request) -> Guild:
        guild = self.guilds.get(req.snowflake("guild_id", _ApiError(404, 10004, "Unknown Guild")))
        if guild is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return guild

    @_route("GET", "/guilds/{guild_id}")
    async def _get_guild(self, req: _Request) -> tuple[int, Any]:
        guild = self._rest_guild(req)
        return 200, {**guild.payload(), "approximate_member_count": len(guild.members)}

    @_route("GET", "/guilds/{guild_id}/channels")
    async def _get_guild_channels(self, req: _Request) -> tuple[int, Any]:
        return 200, [c.payload() for c in self._rest_guild(req).channels.values() if not c.is_thread]

    @_route("GET", "/guilds/{guild_id}/roles")
    async def _get_roles(self, req: _Request) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._rest_guild(req).roles.values()]

    @_route("GET", "/guilds/{guild_id}/members/{user_id}")
    async def _get_member(self, req: _Request) -> tuple[int, Any]:
        guild = self._rest_guild(req)
        member = guild.members.get(req.snowflake("user_id", _ApiError(404, 10013, "Unknown User")))
        if member is None:
            raise _ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    @_route("GET", "/guilds/{guild_id}/members")
    async def _list_members(self, req: _Request) -> tuple[int, Any]:
        guild = self._rest_guild(req)
        after = int(req.query.get("after", 0))
        limit = int(req.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return 200, [m.payload() for m in members[:limit]]

    # ----------------------------------------------------------------- REST: channels and messages

    def _rest_channel(self, req: _Request, *, needed: int = int(Perm.VIEW_CHANNEL)) -> Channel:
        chan = self.channels.get(req.snowflake("channel_id", _ApiError(404, 10003, "Unknown Channel")))
        if chan is None or chan.deleted:
            raise _ApiError(404, 10003, "Unknown Channel")
        perms = self.permissions(chan, self.bot)
        if not perms & Perm.VIEW_CHANNEL:
            raise _missing_access()
        if perms & needed != needed:
            raise _missing_permissions()
        return chan

    def _check_embed_links(self, chan: Channel, body: JSON) -> None:
        """Embeds in a guild channel need Embed Links (which a missing Send Messages takes away too)."""
        embeds = body.get("embeds") if "embeds" in body else [body.get("embed")]
        if chan.guild_id is not None and any(embeds or []) and not self.permissions(chan, self.bot) & Perm.EMBED_LINKS:
            raise _missing_permissions()

    def _rest_message(self, req: _Request, chan: Channel) -> Message:
        mid = req.snowflake("message_id", _ApiError(404, 10008, "Unknown Message"))
        msg = self.messages.get(mid)
        if msg is None or msg.channel_id != chan.id or msg.deleted or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    def _visible(self, msg: Message) -> JSON:
        intents = self._session.intents if self._session else int(Intent.MESSAGE_CONTENT)
        return self._apply_content_intent(msg.payload(), msg, intents)

    @_route("GET", "/channels/{channel_id}")
    async def _get_channel(self, req: _Request) -> tuple[int, Any]:
        return 200, self._rest_channel(req).payload()

    @_route("POST", "/channels/{channel_id}/typing")
    async def _typing(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        if not self.permissions(chan, self.bot) & chan.send_permission:
            raise _missing_permissions()
        return 204, None

    @_route("GET", "/channels/{channel_id}/messages")
    async def _get_messages(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        if not self.permissions(chan, self.bot) & Perm.READ_MESSAGE_HISTORY:
            return 200, []
        msgs = self.channel_messages(chan)
        limit = max(1, min(100, int(req.query.get("limit", 50))))
        if "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in msgs if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            return 200, [self._visible(m) for m in reversed(older + newer)]
        if "after" in req.query:
            after = int(req.query["after"])
            picked = [m for m in msgs if m.id > after][:limit]
        else:
            before = int(req.query.get("before", 1 << 63))
            picked = [m for m in msgs if m.id < before][-limit:]
        return 200, [self._visible(m) for m in reversed(picked)]

    @_route("GET", "/channels/{channel_id}/messages/{message_id}")
    async def _get_message(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req, needed=int(Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY))
        return 200, self._visible(self._rest_message(req, chan))

    @_route("POST", "/channels/{channel_id}/messages")
    async def _post_message(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        if chan.guild_id is not None and not self.permissions(chan, self.bot) & chan.send_permission:
            raise _missing_permissions()
        body = req.json_object()
        self._check_attach(chan, req)
        self._check_embed_links(chan, body)
        if chan.is_dm and chan.recipient is not None and (chan.recipient.dms_closed or chan.recipient.bot):
            raise _ApiError(403, 50007, "Cannot send messages to this user")
        msg = self._new_message(chan, self.bot, body, req.files)
        ref = body.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            target = self.messages.get(int(ref["message_id"]))
            if target is None or target.deleted:
                if ref.get("fail_if_not_exists", True):
                    raise _form_error("message_reference", "Unknown message", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE")
            else:
                msg.type = 19
                msg.message_reference = {
                    "type": 0,
                    "message_id": str(target.id),
                    "channel_id": str(target.channel_id),
                    **({"guild_id": str(target.guild_id)} if target.guild_id else {}),
                }
                msg.extra["referenced_message"] = target.payload()
        self._store(msg)
        self._dispatch_create(msg)
        return 200, msg.payload()

    def _check_attach(self, chan: Channel, req: _Request) -> None:
        """Uploading a file to a server channel, with a new message or an edit, takes Attach Files."""
        if req.files and chan.guild_id is not None and not self.permissions(chan, self.bot) & Perm.ATTACH_FILES:
            raise _missing_permissions()

    @_route("PATCH", "/channels/{channel_id}/messages/{message_id}")
    async def _patch_message(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        msg = self._rest_message(req, chan)
        body = req.json_object()
        if msg.author.id != self.bot.id:
            only_flags = set(body) <= {"flags"}
            if not only_flags or not self.permissions(chan, self.bot) & Perm.MANAGE_MESSAGES:
                raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        # Send Messages is not needed to edit one's own message (Discord checks it only for new ones).
        self._check_embed_links(chan, body)
        self._check_attach(chan, req)
        self._apply_edit(msg, body, req.files)
        self._dispatch_update(msg)
        return 200, msg.payload()

    @_route("DELETE", "/channels/{channel_id}/messages/{message_id}")
    async def _delete_message(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        msg = self._rest_message(req, chan)
        if msg.author.id != self.bot.id:
            if chan.is_dm:
                raise _ApiError(403, 50003, "Cannot execute action on a DM channel")
            if not self.permissions(chan, self.bot) & Perm.MANAGE_MESSAGES:
                raise _missing_permissions()
        self._mark_deleted(msg, self.bot.id)
        self._dispatch_delete(msg)
        return 204, None

    @_route("POST", "/channels/{channel_id}/messages/bulk-delete")
    async def _bulk_delete(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        if chan.is_dm:
            raise _ApiError(403, 50003, "Cannot execute action on a DM channel")
        if not self.permissions(chan, self.bot) & Perm.MANAGE_MESSAGES:
            raise _missing_permissions()
        ids = [int(i) for i in req.json_object().get("messages") or []]
        if not 2 <= len(ids) <= 100:
            raise _form_error("messages", "Must be between 2 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
        found = [self.messages[i] for i in ids if i in self.messages and self.messages[i].channel_id == chan.id]
        for msg in found:
            self._mark_deleted(msg, self.bot.id)
        data: JSON = {"ids": [str(m.id) for m in found], "channel_id": str(chan.id)}
        if chan.guild_id is not None:
            data["guild_id"] = str(chan.guild_id)
        self._dispatch("MESSAGE_DELETE_BULK", data, intent=Intent.GUILD_MESSAGES)
        return 204, None

    # ----------------------------------------------------------------- REST: threads

    def _thread_parent(self, req: _Request, needed: int) -> Channel:
        """The text channel a new thread goes under; threads nest in nothing else here (a forum's posts are made
        by users in this fake, see :meth:`add_channel`)."""
        chan = self._rest_channel(req)
        if chan.type != GUILD_TEXT:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        if not self.permissions(chan, self.bot) & needed:
            raise _missing_permissions()
        return chan

    @staticmethod
    def _thread_name(body: JSON) -> str:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _form_error("name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
        return name

    def _open_thread(self, parent: Channel, thread_id: int, name: str, type: int) -> Channel:
        """A thread the bot made: it owns and joined it, and gets THREAD_CREATE, as from Discord."""
        assert parent.guild_id is not None
        thread = Channel(thread_id, name, type, parent.guild_id, 0, parent_id=parent.id, owner_id=self.bot.id)
        thread.thread_members.add(self.bot.id)
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        self._dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True}, intent=Intent.GUILDS)
        self._notify()
        return thread

    @_route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    async def _start_thread_from_message(self, req: _Request) -> tuple[int, Any]:
        """A public thread from a message: the thread takes the message's id, and the message says it has one."""
        parent = self._thread_parent(req, int(Perm.CREATE_PUBLIC_THREADS))
        msg = self._rest_message(req, parent)
        name = self._thread_name(req.json_object())
        if msg.id in self.channels:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread = self._open_thread(parent, msg.id, name, PUBLIC_THREAD)
        msg.flags |= FLAG_HAS_THREAD
        msg.extra["thread"] = thread.payload()
        return 201, thread.payload()

    @_route("POST", "/channels/{channel_id}/threads")
    async def _start_thread(self, req: _Request) -> tuple[int, Any]:
        """A thread without a message: private unless asked otherwise (Discord's default). A public one leaves a
        "started a thread" system message (type 18) in the parent."""
        body = req.json_object()
        type = body.get("type", PRIVATE_THREAD)
        if type not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise _form_error("type", "Value must be one of {11, 12}.", "BASE_TYPE_CHOICES")
        needed = Perm.CREATE_PUBLIC_THREADS if type == PUBLIC_THREAD else Perm.CREATE_PRIVATE_THREADS
        parent = self._thread_parent(req, int(needed))
        thread = self._open_thread(parent, new_snowflake(), self._thread_name(body), type)
        if type == PUBLIC_THREAD:
            notice = self._new_message(parent, self.bot, {"content": thread.name}, [])
            notice.type = 18
            notice.message_reference = {"channel_id": str(thread.id), "guild_id": str(parent.guild_id)}
            self._store(notice)
            self._dispatch_create(notice)
        return 201, thread.payload()

    # ----------------------------------------------------------------- REST: reactions

    def _reaction_target(self, req: _Request) -> tuple[Channel, Message, str]:
        chan = self._rest_channel(req, needed=int(Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY))
        msg = self._rest_message(req, chan)
        emoji = _normalise_emoji(req.params["emoji"])
        _check_emoji(emoji)
        return chan, msg, emoji

    @_route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
    async def _add_own_reaction(self, req: _Request) -> tuple[int, Any]:
        chan, msg, emoji = self._reaction_target(req)
        users = msg.reactions.setdefault(emoji, [])
        if not users and not self.permissions(chan, self.bot) & Perm.ADD_REACTIONS:
            raise _missing_permissions()
        if self.bot.id not in users:
            users.append(self.bot.id)
            data = self._reaction_event(msg, self.bot, emoji)
            if msg.guild_id is not None:
                data["member"] = self.bot_member(msg.guild_id).payload()
            self._dispatch("MESSAGE_REACTION_ADD", data, intent=self._message_intent(msg, reactions=True))
        return 204, None

    @_route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
    async def _remove_own_reaction(self, req: _Request) -> tuple[int, Any]:
        _, msg, emoji = self._reaction_target(req)
        self._remove_reaction(msg, self.bot, emoji)
        return 204, None

    @_route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}")
    async def _remove_user_reaction(self, req: _Request) -> tuple[int, Any]:
        chan, msg, emoji = self._reaction_target(req)
        user = self.users.get(req.snowflake("user_id", _ApiError(404, 10013, "Unknown User")))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        if user.id != self.bot.id:
            if chan.is_dm:
                raise _ApiError(403, 50003, "Cannot execute action on a DM channel")
            if not self.permissions(chan, self.bot) & Perm.MANAGE_MESSAGES:
                raise _missing_permissions()
        self._remove_reaction(msg, user, emoji)
        return 204, None

    @_route("GET", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}")
    async def _get_reactions(self, req: _Request) -> tuple[int, Any]:
        _, msg, emoji = self._reaction_target(req)
        after = int(req.query.get("after", 0))
        limit = int(req.query.get("limit", 25))
        ids = sorted(u for u in msg.reactions.get(emoji, []) if u > after)[:limit]
        return 200, [self.users[u].payload() for u in ids]

    @_route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}")
    @_route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions")
    async def _clear_reactions(self, req: _Request) -> tuple[int, Any]:
        chan = self._rest_channel(req)
        msg = self._rest_message(req, chan)
        if chan.is_dm or not self.permissions(chan, self.bot) & Perm.MANAGE_MESSAGES:
            raise _missing_permissions()
        data: JSON = {"channel_id": str(chan.id), "message_id": str(msg.id)}
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        intent = self._message_intent(msg, reactions=True)
        if "emoji" in req.params:
            emoji = _normalise_emoji(req.params["emoji"])
            msg.reactions.pop(emoji, None)
            self._dispatch("MESSAGE_REACTION_REMOVE_EMOJI", {**data, "emoji": _emoji_payload(emoji)}, intent=intent)
        else:
            msg.reactions.clear()
            self._dispatch("MESSAGE_REACTION_REMOVE_ALL", data, intent=intent)
        return 204, None

    def _remove_reaction(self, msg: Message, user: User, emoji: str) -> int:
        users = msg.reactions.get(emoji, [])
        if user.id not in users:
            return 0
        users.remove(user.id)
        if not users:
            del msg.reactions[emoji]
        data = self._reaction_event(msg, user, emoji)
        return self._dispatch("MESSAGE_REACTION_REMOVE", data, intent=self._message_intent(msg, reactions=True))

    # ----------------------------------------------------------------- REST: interactions

    def _token_expired(self, rec: InteractionRecord) -> bool:
        if asyncio.get_running_loop().time() - rec.created_at > self.interaction_token_lifetime:
            rec.token_expired = True
        return rec.token_expired

    def _interaction_from_token(self, req: _Request) -> InteractionRecord:
        rec = self._interactions_by_token.get(req.params["token"])
        if rec is None or req.params.get("application_id", str(self.application_id)) != str(self.application_id):
            raise _ApiError(404, 10015, "Unknown Webhook")
        if self._token_expired(rec):
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    @_route("POST", "/interactions/{interaction_id}/{token}/callback", interaction=True)
    async def _interaction_callback(self, req: _Request) -> tuple[int, Any]:
        rec = self._interactions_by_id.get(
            req.snowflake("interaction_id", _ApiError(404, 10062, "Unknown interaction"))
        )
        if rec is None or rec.token != req.params["token"]:
            raise _ApiError(404, 10062, "Unknown interaction")
        if rec.response is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        latency = asyncio.get_running_loop().time() - rec.created_at
        if latency > self.interaction_timeout or self._token_expired(rec):
            rec.expired = True
            raise _ApiError(404, 10062, "Unknown interaction")
        body = req.json_object()
        rtype = int(body.get("type") or 0)
        data: JSON = dict(body.get("data") or {})
        allowed = {
            APPLICATION_COMMAND: {4, 5, 9},
            MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            AUTOCOMPLETE: {8},
            MODAL_SUBMIT: {4, 5, 6, 7} if rec.message is not None else {4, 5},
        }[rec.type]
        if self.activities and rec.type in (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT):
            allowed = allowed | {12}  # LAUNCH_ACTIVITY: only for an application with Activities enabled
        if rtype not in allowed:
            raise _form_error("type", f"Interaction callback type {rtype} is not valid for this interaction")
        message: Message | None = None
        if rtype == 4:
            message = self._interaction_message(rec, data, req.files, loading=False)
            rec.original = message
        elif rtype == 5:
            message = self._interaction_message(rec, {"flags": data.get("flags", 0)}, [], loading=True)
            rec.original = message
        elif rtype in (6, 7):
            message = rec.message
            assert message is not None
            if rtype == 7:
                self._apply_edit(message, data, req.files)
                self._dispatch_update(message)
            rec.original = message
        elif rtype == 8:
            _validate_choices(data.get("choices"), self._focused_option_type(rec))
        elif rtype == 12:
            pass  # LAUNCH_ACTIVITY carries no data: Discord opens the application's Activity for the user
        else:
            _validate_modal(data)
        rec.response = InteractionCallback(rtype, data, message if rtype != 6 else None, latency)
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        result: JSON = {"interaction": {"id": str(rec.id), "type": rec.type}}
        if message is not None and rtype in (4, 5, 7):
            result["interaction"].update(
                response_message_id=str(message.id),
                response_message_loading=rtype == 5,
                response_message_ephemeral=message.ephemeral,
            )
            result["resource"] = {"type": rtype, "message": message.payload()}
        elif rtype == 12:
            instance = {"id": f"i-{rec.id}-{rec.channel_id}"}
            result["interaction"]["activity_instance_id"] = instance["id"]
            result["resource"] = {"type": rtype, "activity_instance": instance}
        elif rtype != 6:
            result["resource"] = {"type": rtype}
        return 200, result

    @_route("POST", "/webhooks/{application_id}/{token}", interaction=True)
    async def _followup(self, req: _Request) -> tuple[int, Any]:
        rec = self._interaction_from_token(req)
        if rec.response is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        body = req.json_object()
        original = rec.original
        if original is not None and original.loading and not original.deleted and rec.response.type == 5:
            # The first followup after a "thinking" defer fills in the deferred message (unless it was deleted).
            self._apply_edit(original, body, req.files)
            self._dispatch_update(original)
            msg = original
        else:
            msg = self._interaction_message(rec, body, req.files, loading=False, followup=True)
        rec.followups.append(msg)
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, msg.payload()
        return 204, None

    def _webhook_message(self, req: _Request) -> tuple[InteractionRecord, Message]:
        rec = self._interaction_from_token(req)
        mid = req.params["message_id"]
        # The original response answers to "@original" and to its own id, like the followups.
        if mid == "@original" or (rec.original is not None and str(rec.original.id) == mid):
            msg = rec.original
        else:
            msg = next((m for m in rec.followups if str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        if mid != "@original" and msg.ephemeral and msg is rec.message:
            # A click reaches the private message it sits on as "@original" only: Discord documents a token editing
            # the messages it posted, and may not find somebody's ephemeral message addressed by id (issue 36).
            raise _ApiError(404, 10008, "Unknown Message")
        return rec, msg

    @_route("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", interaction=True)
    async def _get_webhook_message(self, req: _Request) -> tuple[int, Any]:
        return 200, self._webhook_message(req)[1].payload()

    @_route("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", interaction=True)
    async def _edit_webhook_message(self, req: _Request) -> tuple[int, Any]:
        _, msg = self._webhook_message(req)
        self._apply_edit(msg, req.json_object(), req.files)
        self._dispatch_update(msg)
        return 200, msg.payload()

    @_route("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", interaction=True)
    async def _delete_webhook_message(self, req: _Request) -> tuple[int, Any]:
        _, msg = self._webhook_message(req)
        self._mark_deleted(msg, self.bot.id)
        self._dispatch_delete(msg)
        return 204, None

    def _focused_option_type(self, rec: InteractionRecord) -> int:
        options = rec.payload["data"].get("options") or []
        while options:
            focused = next((o for o in options if o.get("focused")), None)
            if focused is not None:
                return int(focused["type"])
            options = next((o.get("options") or [] for o in options if o["type"] in (1, 2)), [])
        return OPT_STRING

    # ----------------------------------------------------------------- message building

    def _new_message(
        self,
        chan: Channel,
        author: User,
        body: JSON,
        files: Sequence[tuple[str, bytes]],
        *,
        allow_ephemeral: bool = False,
    ) -> Message:
        allowed_flags = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        if allow_ephemeral:
            allowed_flags |= FLAG_EPHEMERAL
        msg = Message(new_snowflake(), chan.id, chan.guild_id, author, viewer_id=self.bot.id)
        msg.flags = int(body.get("flags") or 0) & allowed_flags
        msg.tts = bool(body.get("tts"))
        self._fill_message(msg, body, files)
        for key in ("nonce", "poll", "sticker_items"):
            if body.get(key) is not None:
                msg.extra[key] = copy.deepcopy(body[key])
        _validate_message(msg, has_sticker=bool(body.get("sticker_ids") or body.get("poll")))
        if author.id == self.bot.id:
            msg.pinged = self._pinged(msg, body)
        return msg

    def _pinged(self, msg: Message, body: JSON) -> list[User]:
        """Whom a new message notifies: Discord's ``allowed_mentions`` rules applied to the content's mentions."""
        if msg.ephemeral:
            return []
        allowed = body.get("allowed_mentions")
        if not isinstance(allowed, dict):
            return list(msg.mentions)
        parse = allowed.get("parse") or []
        listed = {int(u) for u in allowed.get("users") or []}
        return [u for u in msg.mentions if "users" in parse or u.id in listed]

    def _fill_message(self, msg: Message, body: JSON, files: Sequence[tuple[str, bytes]]) -> None:
        """Apply the message fields present in ``body`` (create and edit share the semantics)."""
        if "content" in body:
            msg.content = "" if body["content"] is None else str(body["content"])
            msg.mentions = [
                self.users[int(u)] for u in dict.fromkeys(_USER_MENTION.findall(msg.content)) if int(u) in self.users
            ]
            msg.mention_roles = [int(r) for r in dict.fromkeys(_ROLE_MENTION.findall(msg.content))]
            msg.mention_everyone = "@everyone" in msg.content or "@here" in msg.content
        if "embeds" in body or "embed" in body:
            embeds = body.get("embeds") if "embeds" in body else [body["embed"]]
            msg.embeds = [{"type": "rich", **e} for e in embeds or [] if e]
        if "components" in body:
            msg.components = _assign_component_ids(list(body["components"] or []))
        if "attachments" in body or files:
            msg.attachments = self._attachments(msg, body.get("attachments"), files)
        if "embeds" in body or "embed" in body or "attachments" in body or files:
            _link_attachments(msg)

    def _attachments(self, msg: Message, spec: list[JSON] | None, files: Sequence[tuple[str, bytes]]) -> list[JSON]:
        kept = {str(a["id"]): a for a in msg.attachments}
        result: list[JSON] = []
        new_by_index: dict[int, JSON] = {}
        for item in spec if spec is not None else [{"id": i} for i in range(len(files))]:
            key = str(item.get("id"))
            if key in kept:
                result.append(kept[key])
                continue
            index = int(key) if key.isdigit() and int(key) < len(files) else None
            if index is None:
                raise _form_error("attachments", f"Unknown attachment {key}")
            new_by_index[index] = item
        for index, (filename, data) in enumerate(files):
            item = new_by_index.get(index, {})
            att_id = new_snowflake()
            self._files[att_id] = data
            name = str(item.get("filename") or filename)
            url = f"{self.cdn_url}/attachments/{msg.channel_id}/{att_id}/{urllib.parse.quote(name)}"
            result.append(
                {
                    "id": str(att_id),
                    "filename": name,
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": mimetypes.guess_type(name)[0] or "application/octet-stream",
                    **({"description": item["description"]} if item.get("description") else {}),
                }
            )
        return result

    def _apply_edit(self, msg: Message, body: JSON, files: Sequence[tuple[str, bytes]]) -> None:
        was_loading = msg.loading
        msg.edits.append(msg._version(msg.edited_timestamp or msg.timestamp))
        previous = (msg.content, msg.embeds, msg.components, msg.attachments, msg.flags)
        self._fill_message(msg, body, files)
        if "flags" in body and body["flags"] is not None:
            # Only SUPPRESS_EMBEDS can be toggled; IS_COMPONENTS_V2 can be set but never cleared.
            msg.flags = (msg.flags & ~FLAG_SUPPRESS_EMBEDS) | (
                int(body["flags"]) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2)
            )
        # Ephemerality is fixed at creation; only the "thinking" state ends with the first edit.
        msg.flags &= ~FLAG_LOADING
        try:
            _validate_message(msg, has_sticker=bool(msg.extra.get("poll")))
        except _ApiError:
            msg.content, msg.embeds, msg.components, msg.attachments, msg.flags = previous
            msg.edits.pop()
            raise
        if was_loading:
            # Filling in a "thinking" message is not an edit from the user's point of view: it notifies like a new one.
            msg.edits.pop()
            msg.pinged = self._pinged(msg, body)
        else:
            msg.edited_timestamp = _now_iso()

    def _interaction_message(
        self,
        rec: InteractionRecord,
        body: JSON,
        files: Sequence[tuple[str, bytes]],
        *,
        loading: bool,
        followup: bool = False,
    ) -> Message:
        chan = self.channels[rec.channel_id]
        if loading:
            msg = Message(new_snowflake(), chan.id, chan.guild_id, self.bot, viewer_id=self.bot.id)
            msg.flags = FLAG_LOADING | (int(body.get("flags") or 0) & FLAG_EPHEMERAL)
        else:
            msg = self._new_message(chan, self.bot, body, files, allow_ephemeral=True)
        msg.webhook_id = msg.application_id = self.application_id
        msg.interaction_id = rec.id
        if rec.type == APPLICATION_COMMAND and not followup:
            msg.type = 23 if rec.payload["data"].get("type", 1) != 1 else 20
        metadata: JSON = {
            "id": str(rec.id),
            "type": rec.type,
            "user": rec.user.payload(),
            "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {}),
        }
        if rec.name:
            metadata["name"] = rec.name
        if followup and rec.original is not None:
            metadata["original_response_message_id"] = str(rec.original.id)
        if rec.message is not None:
            metadata["interacted_message_id"] = str(rec.message.id)
        msg.interaction_metadata = metadata
        if rec.type == APPLICATION_COMMAND:
            msg.interaction_legacy = {"id": str(rec.id), "type": rec.type, "name": rec.name, "user": rec.user.payload()}
        if msg.ephemeral:
            msg.visible_to = rec.user.id
        self._store(msg)
        self._dispatch_create(msg)
        return msg

    def _store(self, msg: Message) -> None:
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            self.channels[msg.channel_id].message_ids.append(msg.id)

    def _mark_deleted(self, msg: Message, by: int) -> None:
        msg.deleted, msg.deleted_by = True, by
        self._deleted.append(msg)

    # ----------------------------------------------------------------- acting as users

    def _require_online(self, guild_id: int | None = None) -> None:
        session = self._session_for(guild_id)
        if session is None or session.conn is None:
            where = "" if not self._shard_sessions else f" (shard {shard_of(guild_id, self._sharding())})"
            raise FakeDiscordError(f"the bot is not connected to the gateway{where}")

    def _acting_member(self, user: Any, chan: Channel) -> tuple[User, Member | None]:
        u = self._user(user)
        if chan.guild_id is None:
            if chan.recipient is not None and chan.recipient.id != u.id:
                raise InvalidInteraction(f"{u.name} cannot see the DM channel of {chan.recipient.name}")
            return u, None
        member = self.guilds[chan.guild_id].members.get(u.id)
        if member is None:
            raise InvalidInteraction(f"{u.name} is not a member of guild {chan.guild_id}")
        return u, member

    async def send_message(
        self,
        channel: Any,
        user: Any,
        content: str = "",
        *,
        embeds: Sequence[JSON] = (),
        reply_to: Any = None,
        attachments: Sequence[tuple[str, bytes]] = (),
    ) -> Message:
        """Post a message as ``user`` (MESSAGE_CREATE to the bot); returns it.

        For a DM to the bot use ``channel=fake.dm_channel(user)``.  ``<@id>`` mentions in the
        content are resolved.
        """
        chan = self._channel(channel)
        u, member = self._acting_member(user, chan)
        needed = int(Perm.VIEW_CHANNEL) | chan.send_permission
        if member is not None and self.permissions(chan, u) & needed != needed:
            raise InvalidInteraction(f"{u.name} cannot send messages in #{chan.name}")
        body: JSON = {"content": content, "embeds": list(embeds)}
        try:
            msg = self._new_message(chan, u, body, list(attachments))
        except _ApiError as exc:
            raise InvalidInteraction(f"Discord would reject this message: {exc.body()}") from None
        if reply_to is not None:
            target = self._message(reply_to)
            msg.type = 19
            msg.message_reference = {"type": 0, "message_id": str(target.id), "channel_id": str(target.channel_id)}
            msg.extra["referenced_message"] = target.payload()
        self._store(msg)
        await self._delivered(self._dispatch_create(msg))
        self._notify()
        return msg

    async def edit_message(self, message: Any, content: str) -> Message:
        """Edit a user's message (MESSAGE_UPDATE with the full message and edited_timestamp)."""
        msg = self._message(message)
        if msg.author.id == self.bot.id:
            raise FakeDiscordError("users cannot edit the bot's messages")
        msg.edits.append(msg._version(msg.edited_timestamp or msg.timestamp))
        self._fill_message(msg, {"content": content}, [])
        msg.edited_timestamp = _now_iso()
        await self._delivered(self._dispatch_update(msg))
        self._notify()
        return msg

    async def delete_message(self, message: Any, *, by: Any = None) -> None:
        """Delete a message as its author (or as ``by``, e.g. a moderator) — MESSAGE_DELETE."""
        msg = self._message(message)
        self._mark_deleted(msg, _id_of(by) if by is not None else msg.author.id)
        await self._delivered(self._dispatch_delete(msg))
        self._notify()

    async def add_reaction(self, message: Any, user: Any, emoji: str) -> None:
        """``user`` reacts with ``emoji`` (unicode, or ``name:id`` for custom) — MESSAGE_REACTION_ADD."""
        msg = self._message(message)
        chan = self.channels[msg.channel_id]
        u, member = self._acting_member(user, chan)
        emoji = _normalise_emoji(emoji)
        users = msg.reactions.setdefault(emoji, [])
        if u.id in users:
            return
        users.append(u.id)
        data = self._reaction_event(msg, u, emoji)
        data["message_author_id"] = str(msg.author.id)
        data["burst_colors"] = []
        if member is not None:
            data["member"] = member.payload()
        await self._delivered(
            self._dispatch("MESSAGE_REACTION_ADD", data, intent=self._message_intent(msg, reactions=True))
        )
        self._notify()

    async def remove_reaction(self, message: Any, user: Any, emoji: str) -> None:
        msg = self._message(message)
        await self._delivered(self._remove_reaction(msg, self._user(user), _normalise_emoji(emoji)))
        self._notify()

    def _new_interaction(
        self, itype: int, user: Any, channel: Any, *, locale: str | None = None
    ) -> tuple[InteractionRecord, Member | None, Channel]:
        chan = self._channel(channel)
        self._require_online(chan.guild_id)
        if chan.deleted:
            raise InvalidInteraction(f"#{chan.name} was deleted")
        u, member = self._acting_member(user, chan)
        user_perms = self.permissions(chan, u)
        if not user_perms & Perm.VIEW_CHANNEL:
            raise InvalidInteraction(f"{u.name} cannot see #{chan.name}")
        iid = new_snowflake()
        token = f"fake-interaction-{secrets.token_urlsafe(32)}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "locale": locale or u.locale,
            "app_permissions": str(self.permissions(chan, self.bot)),
            "channel_id": str(chan.id),
            "channel": {**chan.payload(), "permissions": str(user_perms)},
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if member is not None:
            assert chan.guild_id is not None
            payload.update(
                guild_id=str(chan.guild_id),
                guild={"id": str(chan.guild_id), "locale": self.guilds[chan.guild_id].preferred_locale, "features": []},
                guild_locale=self.guilds[chan.guild_id].preferred_locale,
                member=member.payload(permissions=user_perms),
                authorizing_integration_owners={"0": str(chan.guild_id)},
                context=0,
            )
        else:
            payload.update(user=u.payload(), authorizing_integration_owners={"0": "0"}, context=1)
        rec = InteractionRecord(
            iid, token, itype, u, chan.id, chan.guild_id, payload, asyncio.get_running_loop().time(), _fake=self
        )
        return rec, member, chan

    async def _send_interaction(
        self, rec: InteractionRecord, wait: bool, timeout: float | None, shard: int | None = None
    ) -> InteractionRecord:
        session = None
        if shard is not None:
            session = self._shard_sessions.get(shard)
            if session is None or session.conn is None:
                raise FakeDiscordError(f"shard {shard} is not connected")
        self.interactions.append(rec)
        self._interactions_by_id[rec.id] = rec
        self._interactions_by_token[rec.token] = rec
        rec.created_at = asyncio.get_running_loop().time()
        self._dispatch("INTERACTION_CREATE", rec.payload, session=session)
        self._notify()
        if wait:
            limit = self.interaction_timeout + 0.25 if timeout is None else timeout
            try:
                await self.wait_for(lambda: rec.response is not None or rec.expired, limit, poll=0.05)
            except TimeoutError:
                rec.expired = True
            if rec.response is None:
                raise InteractionTimeout(
                    f"the bot did not respond to interaction {rec.name or rec.custom_id!r} within "
                    f"{self.interaction_timeout}s (Discord shows 'This interaction failed'); errors: "
                    f"{[(e.path, e.status, e.response) for e in rec.errors]}"
                )
        return rec

    def _find_command(self, name: str, chan: Channel, ctype: int) -> JSON:
        scopes: list[int | None] = [chan.guild_id, None] if chan.guild_id is not None else [None]
        for scope in scopes:
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and int(cmd.get("type") or 1) == ctype:
                    return cmd
        known = sorted({c["name"] for s in scopes for c in self._commands.get(s, [])})
        raise InvalidInteraction(f"no synced command {name!r} (type {ctype}) usable in this channel; synced: {known}")

    def _check_command_usable(self, cmd: JSON, user: User, chan: Channel) -> None:
        contexts = cmd.get("contexts")
        if chan.guild_id is None:
            if cmd.get("guild_id") or (contexts is not None and 1 not in contexts) or cmd.get("dm_permission") is False:
                raise InvalidInteraction(f"/{cmd['name']} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise InvalidInteraction(f"/{cmd['name']} cannot be used in guilds")
        guild = self.guilds[chan.guild_id]
        needed = cmd.get("default_member_permissions")
        if needed is not None:
            # "0" means administrators only; base_permissions() is ALL_PERMISSIONS for them.
            required = int(needed) or ALL_PERMISSIONS
            if guild.base_permissions(user.id) & required != required:
                raise InvalidInteraction(f"{user.name} lacks default_member_permissions={needed} for /{cmd['name']}")
        if not self.permissions(chan, user) & Perm.USE_APPLICATION_COMMANDS:
            raise InvalidInteraction(f"{user.name} cannot use application commands in #{chan.name}")
        if cmd.get("nsfw") and not chan.nsfw:
            raise InvalidInteraction(f"/{cmd['name']} is age-restricted and #{chan.name} is not")

    async def invoke(
        self,
        command: str,
        *,
        user: Any,
        channel: Any,
        options: Mapping[str, Any] | None = None,
        target: Any = None,
        locale: str | None = None,
        wait: bool = True,
        timeout: float | None = None,
        unchecked: bool = False,
        shard: int | None = None,
    ) -> InteractionRecord:
        """Run a slash command as ``user`` in ``channel``, like the Discord client would.

        ``command`` may name a subcommand: ``"game start"``.  ``options`` values: str, int,
        float, bool, or User/Member/Channel/Role records (or ids) for those option types.
        They are checked against the synced command (``InvalidInteraction`` on unknown
        command/option, missing required option, wrong type, value out of range or not
        among the choices).  For a user/message context-menu command pass ``target``
        (a User/Member or a Message).  Waits until the bot acknowledged the interaction
        (``InteractionTimeout`` otherwise) unless ``wait=False``.

        ``unchecked=True`` sends option values verbatim with the type the command declares, without checking their
        type, length, range or choices: what a modified client or an out-of-date command list could send (say a
        string for a boolean, or 6,000 characters where a choice was expected).

        ``shard`` sends the interaction through that shard's session instead of the channel's own (see
        :meth:`click`).

        ``locale`` is the Discord language the interaction carries (default: the user's ``locale``).
        """
        name, *path = command.split()
        ctype = 1
        if target is not None:
            ctype = 3 if isinstance(target, Message) else 2
        rec, _, chan = self._new_interaction(APPLICATION_COMMAND, user, channel, locale=locale)
        cmd = self._find_command(name, chan, ctype)
        self._check_command_usable(cmd, rec.user, chan)
        ctx = _OptionCtx(chan, rec.user.id)
        data: JSON = {"id": cmd["id"], "name": name, "type": ctype}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if ctype == 1:
            data["options"] = self._command_options(
                cmd, path, dict(options or {}), ctx, f"/{name}", unchecked=unchecked
            )
        elif ctype == 2:
            data["target_id"] = self._resolve_option(OPT_USER, target, ctx, f"{name} target")
        else:
            target_msg = self._message(target)
            data["target_id"] = str(target_msg.id)
            ctx.resolved.setdefault("messages", {})[str(target_msg.id)] = target_msg.payload()
        if ctx.resolved:
            data["resolved"] = ctx.resolved
        rec.payload["data"] = data
        rec.name = command
        return await self._send_interaction(rec, wait, timeout, shard)

    async def autocomplete(
        self,
        command: str,
        *,
        user: Any,
        channel: Any,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> list[JSON]:
        """The user typed ``value`` into option ``focused``; returns the choices the bot offered.

        The full record is ``fake.interactions[-1]``.
        """
        name, *path = command.split()
        rec, _, chan = self._new_interaction(AUTOCOMPLETE, user, channel)
        cmd = self._find_command(name, chan, 1)
        self._check_command_usable(cmd, rec.user, chan)
        given = {**dict(options or {}), focused: value}
        data: JSON = {"id": cmd["id"], "name": name, "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        ctx = _OptionCtx(chan, rec.user.id)
        data["options"] = self._command_options(cmd, path, given, ctx, f"/{name}", focused=focused)
        rec.payload["data"] = data
        rec.name = command
        await self._send_interaction(rec, True, timeout)
        assert rec.response is not None
        return rec.response.choices

    def _command_options(
        self,
        parent: JSON,
        path: Sequence[str],
        given: dict[str, Any],
        ctx: _OptionCtx,
        where: str,
        *,
        focused: str | None = None,
        unchecked: bool = False,
    ) -> list[JSON]:
        specs: list[JSON] = list(parent.get("options") or [])
        subs = [o for o in specs if o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)]
        if path:
            sub = next((o for o in subs if o["name"] == path[0]), None)
            if sub is None:
                raise InvalidInteraction(f"{where} has no subcommand {path[0]!r}; has {[o['name'] for o in subs]}")
            inner = self._command_options(
                sub, path[1:], given, ctx, f"{where} {path[0]}", focused=focused, unchecked=unchecked
            )
            return [{"type": sub["type"], "name": sub["name"], "options": inner}]
        if subs:
            raise InvalidInteraction(f"{where} needs a subcommand: {[o['name'] for o in subs]}")
        by_name = {o["name"]: o for o in specs}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise InvalidInteraction(f"{where} has no option(s) {unknown}; options: {list(by_name)}")
        if focused is None:
            missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
            if missing:
                raise InvalidInteraction(f"{where}: missing required option(s) {missing}")
        elif not by_name[focused].get("autocomplete"):
            raise InvalidInteraction(f"{where}: option {focused!r} has no autocomplete")
        result: list[JSON] = []
        for spec in specs:
            if spec["name"] not in given:
                continue
            value = given[spec["name"]]
            if spec["name"] == focused:
                # Discord sends what has been typed so far, as a string.
                result.append({"type": spec["type"], "name": spec["name"], "value": str(value), "focused": True})
                continue
            checked = value if unchecked else self._option_value(spec, value, ctx, f"{where} {spec['name']}")
            result.append({"type": spec["type"], "name": spec["name"], "value": checked})
        return result

    def _option_value(self, spec: JSON, value: Any, ctx: _OptionCtx, where: str) -> Any:
        otype = int(spec["type"])
        kind = _OPTION_TYPE_NAMES.get(otype, str(otype))
        if otype == OPT_STRING:
            if not isinstance(value, str):
                raise InvalidInteraction(f"{where}: expected a {kind}, got {value!r}")
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise InvalidInteraction(
                    f"{where}: length of {value!r} outside {spec.get('min_length')}..{spec.get('max_length')}"
                )
        elif otype in (OPT_INTEGER, OPT_NUMBER):
            ok_types: tuple[type[int] | type[float], ...] = (int,) if otype == OPT_INTEGER else (int, float)
            if isinstance(value, bool) or not isinstance(value, ok_types) or abs(value) > 2**53:
                raise InvalidInteraction(f"{where}: expected an {kind}, got {value!r}")
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise InvalidInteraction(f"{where}: {value!r} outside {low}..{high}")
        elif otype == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise InvalidInteraction(f"{where}: expected a boolean, got {value!r}")
        elif otype in (OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE):
            return self._resolve_option(otype, value, ctx, where, spec.get("channel_types"))
        else:
            raise InvalidInteraction(f"{where}: {kind} options are not supported by the fake")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise InvalidInteraction(f"{where}: {value!r} is not one of the choices {[c['value'] for c in choices]}")
        return value

    def _resolve_option(
        self, otype: int, value: Any, ctx: _OptionCtx, where: str, channel_types: list[int] | None = None
    ) -> str:
        try:
            oid = _id_of(value)
        except TypeError:
            raise InvalidInteraction(f"{where}: expected a {_OPTION_TYPE_NAMES[otype]}, got {value!r}") from None
        guild = self.guilds.get(ctx.chan.guild_id) if ctx.chan.guild_id is not None else None
        resolved = ctx.resolved
        if otype in (OPT_USER, OPT_MENTIONABLE) and oid in self.users and not isinstance(value, (Role, Channel)):
            resolved.setdefault("users", {})[str(oid)] = self.users[oid].payload()
            member = guild.members.get(oid) if guild else None
            if guild is not None and member is not None:
                perms = guild.permissions_in(ctx.chan, oid)
                resolved.setdefault("members", {})[str(oid)] = member.payload(with_user=False, permissions=perms)
            return str(oid)
        if otype in (OPT_ROLE, OPT_MENTIONABLE) and guild is not None and oid in guild.roles:
            resolved.setdefault("roles", {})[str(oid)] = guild.roles[oid].payload()
            return str(oid)
        if otype == OPT_CHANNEL and oid in self.channels:
            target = self.channels[oid]
            if channel_types and target.type not in channel_types:
                raise InvalidInteraction(f"{where}: channel type {target.type} not in {channel_types}")
            # Resolved channels carry the invoking user's permissions there.
            perms = self.permissions(target, ctx.user_id)
            resolved.setdefault("channels", {})[str(oid)] = {**target.payload(), "permissions": str(perms)}
            return str(oid)
        raise InvalidInteraction(f"{where}: {value!r} is not a valid {_OPTION_TYPE_NAMES[otype]}")

    async def click(
        self,
        message: Any,
        custom_id: str | None = None,
        *,
        user: Any,
        label: str | None = None,
        values: Sequence[Any] | None = None,
        wait: bool = True,
        timeout: float | None = None,
        shard: int | None = None,
    ) -> InteractionRecord:
        """Click a button (by ``custom_id`` or ``label``) or pick ``values`` in a select menu.

        The component must exist on the message as it is now, be enabled and not be a link
        button; the message must not be deleted and, if ephemeral, belong to ``user``.

        ``shard`` sends the interaction through that shard's session, whatever the channel's guild: what two bot
        processes see when both run one shard for a moment (a rolling restart), and how a test makes two
        processes act on one game at once.
        """
        msg = self._message(message)
        if msg.deleted:
            raise InvalidInteraction(f"message {msg.id} was deleted")
        if msg.visible_to is not None and msg.visible_to != self._user(user).id:
            raise InvalidInteraction(f"message {msg.id} is ephemeral and not visible to this user")
        if msg.application_id != self.application_id and msg.author.id != self.bot.id:
            raise InvalidInteraction(f"message {msg.id} was not sent by the bot")
        try:
            comp = msg.component(custom_id, label=label)
        except KeyError as exc:
            raise InvalidInteraction(str(exc)) from None
        if comp.get("disabled"):
            raise InvalidInteraction(f"component {comp.get('custom_id')!r} is disabled")
        ctype = int(comp["type"])
        if ctype == 2 and (comp.get("url") or comp.get("style") in (5, 6)):
            raise InvalidInteraction("link/premium buttons do not create interactions")
        if ctype not in {2} | _SELECT_TYPES:
            raise InvalidInteraction(f"component type {ctype} is not clickable")
        rec, _, chan = self._new_interaction(MESSAGE_COMPONENT, user, msg.channel_id)
        data: JSON = {"custom_id": comp["custom_id"], "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        if ctype in _SELECT_TYPES:
            ctx = _OptionCtx(chan, rec.user.id)
            data["values"] = self._select_values(comp, list(values or []), ctx)
            if ctx.resolved:
                data["resolved"] = ctx.resolved
        elif values:
            raise InvalidInteraction("buttons take no values")
        rec.payload["data"] = data
        rec.payload["message"] = msg.payload()
        rec.message, rec.custom_id = msg, comp["custom_id"]
        return await self._send_interaction(rec, wait, timeout, shard)

    async def select(
        self,
        message: Any,
        custom_id: str,
        values: Sequence[Any],
        *,
        user: Any,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Choose ``values`` (option values, or users/roles/channels for those selects)."""
        return await self.click(message, custom_id, user=user, values=values, wait=wait, timeout=timeout)

    def _select_values(self, comp: JSON, values: list[Any], ctx: _OptionCtx) -> list[str]:
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not low <= len(values) <= high:
            raise InvalidInteraction(f"select {comp['custom_id']!r} needs {low}..{high} values, got {len(values)}")
        if int(comp["type"]) == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise InvalidInteraction(f"select {comp['custom_id']!r}: {bad} not among {allowed}")
            return [str(v) for v in values]
        otype = {5: OPT_USER, 6: OPT_ROLE, 7: OPT_MENTIONABLE, 8: OPT_CHANNEL}[int(comp["type"])]
        return [self._resolve_option(otype, v, ctx, f"select {comp['custom_id']}") for v in values]

    async def submit_modal(
        self,
        interaction: InteractionRecord,
        values: Mapping[str, Any],
        *,
        user: Any = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionRecord:
        """Submit the modal the bot opened in response to ``interaction`` (callback type 9).

        ``values`` maps each input's custom_id to its text (or list of values for selects).
        """
        if interaction.response is None or interaction.response.type != 9:
            raise InvalidInteraction("the bot did not answer this interaction with a modal")
        modal = interaction.response.data
        rec, _, _ = self._new_interaction(MODAL_SUBMIT, user or interaction.user, interaction.channel_id)
        remaining = dict(values)

        def submitted(comp: JSON) -> JSON | None:
            ctype = int(comp["type"])
            if ctype == 1:
                return {"type": 1, "components": [c for c in map(submitted, comp.get("components", [])) if c]}
            if ctype == 18:
                inner = submitted(comp["component"])
                return {"type": 18, "id": comp.get("id"), "component": inner} if inner else None
            custom_id = comp.get("custom_id")
            if custom_id is None:
                return None
            value = remaining.pop(custom_id, None)
            if ctype == 4:
                text = "" if value is None else str(value)
                if comp.get("required", True) and not text:
                    raise InvalidInteraction(f"modal input {custom_id!r} is required")
                if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                    raise InvalidInteraction(f"modal input {custom_id!r}: length {len(text)} out of range")
                return {"type": 4, "custom_id": custom_id, "value": text}
            picked = list(value or [])
            return {"type": ctype, "custom_id": custom_id, "values": [str(v) for v in picked]}

        components = [c for c in map(submitted, modal.get("components", [])) if c]
        if remaining:
            raise InvalidInteraction(f"modal {modal.get('custom_id')!r} has no inputs {sorted(remaining)}")
        rec.payload["data"] = {"custom_id": modal["custom_id"], "components": components}
        if interaction.message is not None:
            rec.payload["message"] = interaction.message.payload()
            rec.message = interaction.message
        rec.custom_id = modal["custom_id"]
        return await self._send_interaction(rec, wait, timeout)


# --------------------------------------------------------------------------------------
# Validation shared by REST handlers (the errors real Discord returns)
# --------------------------------------------------------------------------------------


def _link_attachments(msg: Message) -> None:
    """An embed's image or thumbnail named ``attachment://file.png`` shows that attachment of the message: Discord
    answers with the attachment's own URL (a name no attachment has is left as it was)."""
    by_name = {str(a["filename"]): a for a in msg.attachments}
    for embed in msg.embeds:
        for key in ("image", "thumbnail"):
            media = embed.get(key) or {}
            url = str(media.get("url") or "")
            attachment = by_name.get(url.removeprefix("attachment://")) if url.startswith("attachment://") else None
            if attachment is not None:
                embed[key] = {**media, "url": attachment["url"], "proxy_url": attachment["proxy_url"]}


def _validate_message(msg: Message, *, has_sticker: bool = False) -> None:
    if not (msg.content or msg.embeds or msg.components or msg.attachments or has_sticker or msg.loading):
        raise _ApiError(400, 50006, "Cannot send an empty message")
    if len(msg.content) > 2000:
        raise _form_error("content", "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    if len(msg.embeds) > 10:
        raise _form_error("embeds", "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for index, embed in enumerate(msg.embeds):
        _validate_embed(embed, f"embeds.{index}")
    _validate_components(msg.components, v2=bool(msg.flags & FLAG_COMPONENTS_V2))


def _validate_embed(embed: JSON, where: str) -> None:
    limits = {"title": 256, "description": 4096}
    total = 0
    for key, limit in limits.items():
        text = str(embed.get(key) or "")
        total += len(text)
        if len(text) > limit:
            raise _form_error(f"{where}.{key}", f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise _form_error(f"{where}.fields", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, fld in enumerate(fields):
        name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
        if not name or len(name) > 256:
            raise _form_error(
                f"{where}.fields.{i}.name", "Must be between 1 and 256 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        if not value or len(value) > 1024:
            raise _form_error(
                f"{where}.fields.{i}.value", "Must be between 1 and 1024 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        total += len(name) + len(value)
    for key, name, limit in (("footer", "text", 2048), ("author", "name", 256)):
        text = str((embed.get(key) or {}).get(name) or "")
        if len(text) > limit:
            raise _form_error(f"{where}.{key}.{name}", f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        total += len(text)
    if total > 6000:
        raise _form_error(where, "Embed size exceeds maximum size of 6000", "MAX_EMBED_SIZE_EXCEEDED")


def _validate_components(components: Sequence[JSON], *, v2: bool) -> None:
    seen: set[str] = set()
    for comp in _walk_components(components):
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(str(custom_id)) <= 100:
                raise _form_error("components", "custom_id must be 1-100 characters", "BASE_TYPE_BAD_LENGTH")
            if custom_id in seen:
                raise _form_error(
                    "components",
                    f"Component custom id {custom_id!r} cannot be duplicated",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                )
            seen.add(custom_id)
        if comp.get("type") == 2:
            if len(str(comp.get("label") or "")) > 80:
                raise _form_error("components", "label must be 80 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
            link = comp.get("style") == 5
            if link != bool(comp.get("url")) or (not link and comp.get("style") != 6 and not custom_id):
                raise _form_error(
                    "components", "A button needs a custom_id, or a url for link style", "BUTTON_COMPONENT_INVALID"
                )
    if v2:
        return
    if len(components) > 5:
        raise _form_error("components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, row in enumerate(components):
        children = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(children) <= 5:
            raise _form_error(
                f"components.{i}",
                "Top-level components must be action rows of 1-5 items",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )
        if len(children) > 1 and any(c.get("type") in _SELECT_TYPES for c in children):
            raise _form_error(
                f"components.{i}", "A select menu must be alone in its row", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
            )


def _validate_choices(choices: Any, option_type: int) -> None:
    if not isinstance(choices, list) or len(choices) > 25:
        raise _form_error("data.choices", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, choice in enumerate(choices):
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _form_error(f"data.choices.{i}.name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
        ok = {
            OPT_STRING: isinstance(value, str),
            OPT_INTEGER: isinstance(value, int) and not isinstance(value, bool),
            OPT_NUMBER: isinstance(value, (int, float)) and not isinstance(value, bool),
        }.get(option_type, True)
        if not ok:
            raise _form_error(f"data.choices.{i}.value", f"Invalid value for option type {option_type}")


def _validate_modal(data: JSON) -> None:
    if not data.get("custom_id") or not 1 <= len(str(data.get("title") or "")) <= 45:
        raise _form_error("data", "A modal needs a custom_id and a 1-45 character title")
    if not 1 <= len(data.get("components") or []) <= 5:
        raise _form_error("data.components", "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH")


def _validate_commands(commands: Sequence[Any]) -> None:
    if len(commands) > 110:
        raise _form_error("commands", "Too many application commands", "APPLICATION_COMMANDS_TOO_MANY")
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            raise _form_error(str(i), "Must be an object")
        key = _command_key(cmd)
        if key in seen:
            raise _form_error(
                f"{i}.name", "Application command names must be unique", "APPLICATION_COMMANDS_DUPLICATE_NAME"
            )
        seen.add(key)
        _validate_command_entry(cmd, str(i), chat_input=key[0] == 1)
    _validate_localized_names_unique(commands, "", by_type=True)


def _validate_command_entry(cmd: JSON, where: str, *, chat_input: bool) -> None:
    name = str(cmd.get("name") or "")
    if chat_input and (not _COMMAND_NAME.match(name) or name != name.lower()):
        raise _form_error(f"{where}.name", f"Invalid name {name!r}", "APPLICATION_COMMAND_INVALID_NAME")
    if not chat_input:
        if not 1 <= len(name) <= 32:
            raise _form_error(f"{where}.name", "Must be between 1 and 32 in length.", "BASE_TYPE_BAD_LENGTH")
        return
    if not 1 <= len(str(cmd.get("description") or "")) <= 100:
        raise _form_error(f"{where}.description", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    _validate_localizations(cmd, where)
    options = cmd.get("options") or []
    _validate_localized_names_unique(options, f"{where}.options.", by_type=False)
    if len(options) > 25:
        raise _form_error(f"{where}.options", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    names: set[str] = set()
    optional_seen = False
    for j, opt in enumerate(options):
        here = f"{where}.options.{j}"
        if opt.get("name") in names:
            raise _form_error(
                f"{here}.name", "Option names must be unique", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"
            )
        names.add(opt.get("name"))
        if opt.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            _validate_command_entry(opt, here, chat_input=True)
            continue
        _validate_command_entry({**opt, "options": []}, here, chat_input=True)
        if opt.get("required"):
            if optional_seen:
                raise _form_error(
                    here,
                    "Required options must be placed before non-required options",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                )
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            raise _form_error(f"{here}.choices", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for k, choice in enumerate(choices):
            _validate_localizations(choice, f"{here}.choices.{k}", named=False)
        if choices and opt.get("autocomplete"):
            raise _form_error(here, "Autocomplete cannot be set with choices", "AUTOCOMPLETE_WITH_CHOICES")


def _validate_localizations(entry: JSON, where: str, *, named: bool = True) -> None:
    """``name_localizations`` / ``description_localizations``: Discord's locales only, each value obeying the rule
    of what it localises (a command or option name: a name; a choice's name or a description: 1-100 characters)."""
    for field_name in ("name_localizations", "description_localizations"):
        for locale, text in (entry.get(field_name) or {}).items():
            here = f"{where}.{field_name}.{locale}"
            if locale not in _LOCALES:
                raise _form_error(here, "Invalid Locale", "LOCALE_INVALID")
            if field_name == "name_localizations" and named:
                if not _COMMAND_NAME.match(str(text)) or text != str(text).lower():
                    raise _form_error(here, f"Invalid name {text!r}", "APPLICATION_COMMAND_INVALID_NAME")
            elif not 1 <= len(str(text)) <= 100:
                raise _form_error(here, "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")


def _validate_localized_names_unique(entries: Sequence[JSON], where: str, *, by_type: bool) -> None:
    """Commands (of one type) or one command's options keep distinct names in every locale, the localised name
    standing in for the default one where there is one."""
    for locale in sorted({loc for e in entries for loc in (e.get("name_localizations") or {})}):
        names: set[tuple[int, str]] = set()
        for i, entry in enumerate(entries):
            shown = (
                int(entry.get("type") or 1) if by_type else 0,
                str((entry.get("name_localizations") or {}).get(locale, entry.get("name"))),
            )
            if shown in names:
                raise _form_error(
                    f"{where}{i}.name_localizations.{locale}",
                    "Names must be unique",
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                )
            names.add(shown)
