"""The shape both game cogs share: load the channel's game, apply one action, commit, answer.

A game cog subclasses ``GameCog`` with its engine module and the few functions that render that game;
the flow of an action, its locking, its persistence and its answers live here once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import discord
from discord.ext import commands

from cogs._storage import Table, now
from cogs._ui import NO_GAME, USERS_ONLY, UserError, detached, in_text_channel, mention, send
from engine.base import GameInfo

log = logging.getLogger(__name__)

StateT = TypeVar("StateT")


class Rules(Protocol):
    """What the cogs need from an engine module (both ``engine.the_game`` and ``engine.no_thanks`` fit)."""

    INFO: GameInfo

    def from_dict(self, data: Mapping[str, Any], /) -> Any: ...
    def to_dict(self, state: Any, /) -> dict[str, Any]: ...
    def apply(self, state: Any, player: int, action: Any, /) -> Any: ...
    def is_over(self, state: Any, /) -> bool: ...
    def current_player(self, state: Any, /) -> int | None: ...


class GameCog(commands.Cog, Generic[StateT]):
    """Base of a game's cog. Subclasses set ``rules`` and implement the rendering hooks below."""

    rules: ClassVar[Rules]
    rules_text: ClassVar[str]
    closed_dms_hint: ClassVar[str]

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.told_closed_dms: set[tuple[int | None, int]] = set()  # (game id, player)

    @property
    def info(self) -> GameInfo:
        return self.rules.INFO

    async def cog_load(self) -> None:
        self.bot.games[self.info.kind] = self

    async def cog_unload(self) -> None:
        self.bot.games.pop(self.info.kind, None)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- hooks a game implements -------------------------------------------------------------------------------

    def new_state(self, table: Table) -> StateT:
        raise NotImplementedError

    def leave_action(self) -> Any:
        raise NotImplementedError

    def board(self, state: StateT) -> discord.Embed:
        raise NotImplementedError

    def board_view(self, table: Table, state: StateT) -> discord.ui.View | None:
        """Buttons under the board while the game runs (None: no buttons)."""
        return None

    def headline(self, state: StateT) -> str | None:
        """A line every public message with the board starts with (None: nothing)."""
        return None

    def private_text(self, state: StateT, player: int) -> str:
        """What only ``player`` may see: their hand, their chips."""
        raise NotImplementedError

    def start_text(self, state: StateT, interaction: discord.Interaction[Any]) -> str:
        """The public announcement of the deal (the interaction tells, e.g., which permissions the bot has)."""
        raise NotImplementedError

    def announce(self, before: StateT, after: StateT, player: int, action: Any) -> str:
        """The public sentence for an accepted action."""
        raise NotImplementedError

    def game_over_text(self, state: StateT) -> str:
        raise NotImplementedError

    def result(self, state: StateT) -> dict[str, Any]:
        """What the database keeps of a finished game, for statistics."""
        raise NotImplementedError

    def dm_after(self, before: StateT, after: StateT, player: int, action: Any) -> list[int]:
        """Players whose private information changed, to be brought up to date by DM."""
        return []

    def show_after(self, before: StateT, after: StateT, player: int, action: Any) -> bool:
        """Whether the mover also gets their private view as an ephemeral followup."""
        return False

    # ---- the shared flow ----------------------------------------------------------------------------------------

    def load(self, table: Table | None) -> StateT:
        """The running game of this kind from the channel's table, or a friendly refusal."""
        if table is None:
            raise UserError(NO_GAME)
        if table.status == "lobby" or table.state is None:
            raise UserError("The game hasn't started yet: the host starts it with /start once everybody has joined.")
        if table.kind != self.info.kind:
            other = self.bot.games[table.kind].info.title
            raise UserError(f"This channel is playing {other}; {self.info.title} commands don't work here.")
        state: StateT = self.rules.from_dict(table.state)
        return state

    def move_count(self, state: StateT) -> int:
        return len(getattr(state, "moves", ()))

    async def start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Deal the game in the lobby ``table`` (the caller holds the channel's lock)."""
        state = self.new_state(table)
        await self.bot.storage.save(replace(table, status="running", state=self.rules.to_dict(state), started_at=now()))
        log.info("%s started in channel %s with %d players", self.info.kind, table.channel_id, len(table.players))
        await send(interaction, **self._public(table, state, self.start_text(state, interaction)))
        await self.send_private(interaction, table, state, list(table.players))

    async def act(
        self,
        interaction: discord.Interaction[Any],
        action: Any,
        *,
        board: tuple[int, int] | None = None,
    ) -> None:
        """Apply ``action`` by the interaction's user to the channel's game, commit, then answer.

        ``board`` is (game id, move count) of the board whose button was pressed: the click is refused unless that
        board shows the current position of the current game."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        player = interaction.user.id
        async with self.bot.storage.lock(channel_id):
            table = await self.bot.storage.open_table(channel_id)
            before = self.load(table)
            assert table is not None
            if board is not None and board != (table.id, self.move_count(before)):
                raise UserError("That board is out of date: use the buttons on the newest board below.")
            after: StateT = self.rules.apply(before, player, action)
            await self.commit(table, after)
            log.debug("%s in channel %s: %s by %s", self.info.kind, channel_id, action, player)
            text = self.announce(before, after, player, action)
            if self.rules.is_over(after):
                text = f"{text}\n\n{self.game_over_text(after)}"
            # Mentions name everybody, but only the player whose turn it now is gets pinged.
            upcoming = self.rules.current_player(after)
            pings = [discord.Object(upcoming)] if upcoming not in (None, player) else []
            mentions = discord.AllowedMentions(everyone=False, roles=False, users=pings)
            await send(interaction, allowed_mentions=mentions, **self._public(table, after, text))
            if self.show_after(before, after, player, action):
                await interaction.followup.send(self.private_text(after, player), ephemeral=True)
            await self.send_private(interaction, table, after, self.dm_after(before, after, player, action))

    async def commit(self, table: Table, state: StateT) -> Table:
        """Save the new state; a game that just ended frees the channel and keeps its result."""
        table = replace(table, state=self.rules.to_dict(state))
        if self.rules.is_over(state):
            abandoned = getattr(state, "status", "") == "abandoned"
            table = replace(
                table,
                status="abandoned" if abandoned else "finished",
                result=None if abandoned else self.result(state),
                ended_at=now(),
            )
            log.info("%s in channel %s ended: %s", self.info.kind, table.channel_id, table.status)
        saved: Table = await self.bot.storage.save(table)
        return saved

    async def send_private(
        self, interaction: discord.Interaction[Any], table: Table, state: StateT, players: list[int]
    ) -> None:
        """DM each player their private view; tell the table (without any card) whose DMs are closed."""
        closed = [p for p in players if not await self.bot.send_dm(p, content=self.private_text(state, p))]
        # Say it once per game and player: a notice at every change of their hand or chips would flood the channel.
        # Once the game is over the hint ("use /hand") no longer helps, and the final board must stay the newest.
        untold = [p for p in closed if (table.id, p) not in self.told_closed_dms]
        if untold and not self.rules.is_over(state):
            self.told_closed_dms.update((table.id, p) for p in untold)
            who = ", ".join(mention(p) for p in untold)
            notice = f"{who}: I can't send you direct messages. {self.closed_dms_hint}"
            # The board goes along so that it stays the newest thing in the channel.
            await interaction.followup.send(allowed_mentions=USERS_ONLY, **self._public(table, state, notice))

    async def show_private(self, interaction: discord.Interaction[Any], table: Table | None) -> None:
        state = self.load(table)
        await send(interaction, content=self.private_text(state, interaction.user.id), ephemeral=True)

    async def show_board(self, interaction: discord.Interaction[Any], table: Table | None) -> None:
        state = self.load(table)
        assert table is not None
        await send(interaction, **self._public(table, state, None))

    def _public(self, table: Table, state: StateT, text: str | None) -> dict[str, Any]:
        """A public message: ``text``, the headline, the board and its buttons (none once the game is over)."""
        lines = [line for line in (text, self.headline(state)) if line]
        message: dict[str, Any] = {"embed": self.board(state)}
        if lines:
            message["content"] = "\n".join(lines)
        view = None if self.rules.is_over(state) else self.board_view(table, state)
        if view is not None:
            message["view"] = detached(view)
        return message
