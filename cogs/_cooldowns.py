"""Cooldowns on the commands that make the bot post in a channel, so that nobody can make it post as fast as they
click (issue 33): discord.py's own cooldown checks, refused on the one error path with its friendly line
(``cogs._ui.error_text``, ``CommandOnCooldown``), privately. Never on a move: a player's turn is never refused for
speed (/play, /endturn, /take, /nothanks and every button stay free).

Per member and channel: one person's repeats are slowed, nobody else's; the same person in another channel is not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

from cogs._types import Interaction

T = TypeVar("T")

# A board or page posted again: once per 10 seconds is plenty to find it; more is spam.
REPOST_SECONDS = 10.0
# Opening a game: open, end and open again (a change of mind, a quick game against computer players) is normal, twice
# over too; a fourth lobby within a minute is not.
NEW_GAMES, NEW_GAME_SECONDS = 3, 60.0


def member_here(interaction: Interaction) -> tuple[int | None, int]:
    return interaction.channel_id, interaction.user.id


def posts_here(rate: int = 1, per: float = REPOST_SECONDS) -> Callable[[T], T]:
    """A command that always posts in the channel: ``rate`` uses per ``per`` seconds per member and channel."""
    return app_commands.checks.cooldown(rate, per, key=member_here)


def shown_publicly(interaction: Interaction) -> bool:
    return bool(getattr(interaction.namespace, "public", False))


def public_cooldown(interaction: Interaction) -> app_commands.Cooldown | None:
    return app_commands.Cooldown(1, REPOST_SECONDS) if shown_publicly(interaction) else None


def posts_here_when_public() -> Callable[[T], T]:
    """A command whose ``public`` option posts its page in the channel; privately (the default) it is free. Public and
    private uses have keys of their own, so a private look right after a public post is never refused."""
    return app_commands.checks.dynamic_cooldown(
        public_cooldown, key=lambda interaction: (*member_here(interaction), shown_publicly(interaction))
    )
