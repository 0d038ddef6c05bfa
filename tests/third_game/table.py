"""Race to 21 at a Discord table: its presenter, its commands under its own name (``/race take``, so its ``take``
lives beside No Thanks!'s ``/take``), and its registration: the rules and the presenter, nothing optional."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui import in_text_channel
from storage import GameRecord
from table.answer import detached
from table.people import mention
from table.presenter import Step
from table.registry import Registration
from tests.third_game import rules
from tests.third_game.rules import Add, State

if TYPE_CHECKING:
    from bot import Bot


class Presenter:
    """Plain English: a game that exists only in the tests needs no catalogs (``i18n.render`` takes a plain string
    as it is)."""

    game = rules.GAME
    rules_text = "**Race to 21**: in turn, add one, two or three to the total (`/race take`). Reach 21 to win."
    closed_dms_hint = "Nothing in this game is secret, so you miss nothing."

    def board(self, state: State, locale: str) -> discord.Embed:
        embed = discord.Embed(title="Race to 21", description=f"Total: **{state.total}** of {rules.GOAL}")
        embed.add_field(name="Players", value=", ".join(mention(p) for p in rules.seated(state)) or "nobody")
        return embed

    def board_view(self, record: GameRecord, state: State, locale: str) -> discord.ui.View | None:
        return None

    def headline(self, state: State) -> str | None:
        mover = rules.current_player(state)
        return f"{mention(mover)} to move." if mover is not None else None

    def private_text(self, state: State, player: int) -> str:
        return f"Total: {state.total}"

    def revealed_text(self, state: State, player: int) -> str:
        return "nothing hidden"

    def start_text(self, state: State) -> str:
        return f"Race to 21 begins with {', '.join(mention(p) for p in state.players)}."

    def announce(self, before: State, after: State, player: int, action: Any) -> str:
        if isinstance(action, Add):
            return f"{mention(player)} added {action.step}: the total is {after.total}."
        return f"{mention(player)} left the race."

    def summary(self, steps: Sequence[Step]) -> str | None:
        return " ".join(self.announce(s.before, s.after, s.player, s.action) for s in steps) or None

    def game_over_text(self, state: State) -> str:
        if state.winner is None:
            return "**Game over**: the race was abandoned."
        return f"**Game over**: {mention(state.winner)} reached {rules.GOAL} and wins."

    def dm_due(self, before: State, after: State, player: int, action: Any) -> list[int]:
        return []

    def show_after(self, before: State, after: State, player: int, action: Any) -> bool:
        return False

    def new_board(self, before: State, after: State, player: int, action: Any) -> bool:
        return rules.current_player(after) != rules.current_player(before)

    def panel(self, record: GameRecord, state: State, player: int, page: str | None, locale: str) -> dict[str, Any]:
        return {"content": f"Total: {state.total}", "view": detached(discord.ui.View())}


PRESENTER = Presenter()
REGISTRATION = Registration(game=rules.GAME, presenter=PRESENTER, extension=__name__)


class RaceCog(commands.GroupCog, group_name="race", group_description="Race to 21"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    @app_commands.command(name="take", description="Race to 21: take one, two or three steps.")
    @app_commands.describe(steps="How many steps")
    async def take(self, interaction: discord.Interaction[Bot], steps: app_commands.Range[int, 1, 3]) -> None:
        await self.bot.tables.act(interaction, Add(steps), kind=rules.INFO.kind)


async def setup(bot: Bot) -> None:
    await bot.add_cog(RaceCog(bot))
