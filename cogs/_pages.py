"""What the pages of a server's past share (/stats, /leaderboard, /history, /daily): names, dates, ranks and turning a
page in place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar, cast

import discord

from cogs._results import variants_text
from cogs._types import Interaction
from cogs._ui import reply_error
from i18n import Localized, Text, _
from storage import GameRecord
from table.language import Languages
from table.registry import GAMES

ItemT = TypeVar("ItemT", bound=type)

COLOUR = discord.Colour.gold()
PAGE = 10  # lines of a leaderboard or history page


def title(kind: str) -> str:
    game = GAMES.get(kind)
    return game.info.title if game else kind


def when(stamp: str | None) -> str:
    """A Discord timestamp (each reader sees their own time zone and language), or nothing."""
    try:
        return f"<t:{int(datetime.fromisoformat(stamp or '').timestamp())}:d>"
    except ValueError:
        return ""


def rank_key(record: GameRecord) -> tuple[int, float]:
    """Best first: finished before abandoned, won first, then the lowest score (the winner's, in a player game)."""
    result = record.result
    if record.status != "finished" or result is None:
        return (2, 0.0)
    if result.team:
        return (0 if result.won else 1, float(result.score or 0))
    return (1, float(result.score_of(result.winner) or 0))


def variant_words(kind: str, variants: tuple[str, ...]) -> Localized | str:
    if kind in GAMES:
        return variants_text(kind, variants)
    return ", ".join(variants) or _("standard rules")


def company(kind: str, mixed: bool) -> Text:
    """A game's name and who played it: people only, or with computer players."""
    if mixed:
        return _("{game} (with computer players or autopilot turns)", game=title(kind))
    return _("{game} (people only)", game=title(kind))


def audience(interaction: Interaction, public: bool) -> str:
    """Whose language a page is in: the channel's when everybody sees it, else the reader's."""
    languages: Languages = interaction.client.tables.languages
    return languages.for_table(interaction) if public else languages.for_reader(interaction)


def page_locale(interaction: Interaction) -> str:
    """A page turned in place keeps its audience: the reader's language for a private page, else the channel's."""
    message = interaction.message
    return audience(interaction, public=message is None or not message.flags.ephemeral)


def bound(item: ItemT, template: str, cog: Any) -> ItemT:
    """A copy of the dynamic item class ``item`` (whose ``template`` is given again: discord.py asks for it on every
    subclass) whose ``cog`` attribute is ``cog``: the cog registers it, so its clicks reach that cog without looking
    it up by name."""
    copy: Any = type(item.__name__, (item,), {"cog": cog}, template=template)
    return cast(ItemT, copy)


async def turn_page(interaction: Interaction, cog: Any, page: Callable[[Any], Awaitable[dict[str, Any]]]) -> None:
    """A page button: the message it is under shows the next page of ``cog`` (the cog its item is bound to), in
    place; a refusal goes privately."""
    try:
        assert cog is not None, "clicks reach the copy of the item the cog registered"
        await interaction.response.edit_message(**await page(cog))
    except Exception as error:
        await reply_error(interaction, error)
