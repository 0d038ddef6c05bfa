"""Forgetting (issue 33; what is kept and for how long: docs/privacy.md).

- ``/forget``: a person erases what the bot keeps about them, after one confirming click on a private message. Their
  seats in ended games read "a former player" from then on (``storage.privacy``); a game they are still playing keeps
  their seat until it ends, and is then settled by the sweep.
- A server the bot is removed from is erased once ``FORGET_SERVER_AFTER_DAYS`` have passed, unless the bot is invited
  back first. A removal while the bot was down is noticed at start, by comparing the servers the database knows with
  those Discord lists (each process only for its own shards).
- A sweep, at start and hourly, settles the games of forgotten people that ended, deletes the hand texts of games
  that ended more than ``KEEP_HAND_TEXTS_DAYS`` ago, and erases the servers whose grace period is over.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs._types import Interaction
from cogs._ui import ErrorHandlingView
from i18n import _, _p, render
from storage import cutoff
from table.admission import ANSWERED_PRIVATELY
from table.answer import detached, in_time, send, update

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

SWEEP_SECONDS = 3600

ASK = _(
    "This erases what the bot keeps about you: your language and preferences (/me), your direct-message channel and "
    "the texts of the hands it sent you. Your seats in the games you played will read “a former player” from then on: "
    "the games, their replays and their results stay, under no name. A game you are playing now keeps your seat until "
    "it ends. This cannot be undone."
)
FORGOTTEN = _("Done: the bot has forgotten you. Your seats in ended games now read “a former player”.")
KEPT = _("Nothing was erased.")


class ForgetView(ErrorHandlingView):
    """The confirmation under /forget's private answer. The instance registered at start-up answers every click, so
    a restart between the question and the click changes nothing."""

    def __init__(self, cog: Privacy, locale: str = "en") -> None:
        super().__init__()
        self.cog = cog
        self.forget.label = render(_p("button", "Forget me"), locale)
        self.keep.label = render(_p("button", "Keep my data"), locale)

    @discord.ui.button(custom_id="privacy:forget", style=discord.ButtonStyle.danger, label="-")
    async def forget(self, interaction: Interaction, _button: discord.ui.Button[Any]) -> None:
        await self.cog.forget(interaction)

    @discord.ui.button(custom_id="privacy:keep", style=discord.ButtonStyle.secondary, label="-")
    async def keep(self, interaction: Interaction, _button: discord.ui.Button[Any]) -> None:
        await update(interaction, content=render(KEPT, interaction.locale.value), view=None)


class Privacy(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_view(ForgetView(self))

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Once connected (the comparison needs Discord's list of servers); on_ready comes again after a reconnect.
        if not self.sweeper.is_running():
            self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()

    @app_commands.command(
        name="forget",
        description="Erase what the bot keeps about you (asks once to confirm).",
        extras={ANSWERED_PRIVATELY: True},
    )
    @app_commands.guild_only()  # like every command: Discord offers none in DMs
    async def ask(self, interaction: Interaction) -> None:
        # The reader's language straight from the interaction: remembering it now would store what is to be erased.
        locale = interaction.locale.value
        await send(interaction, content=render(ASK, locale), view=detached(ForgetView(self, locale)), ephemeral=True)

    async def forget(self, interaction: Interaction) -> None:
        user = interaction.user.id
        async with in_time(interaction):  # a long-time player's games take a while to rewrite (0.6 s for 150)
            await self.bot.storage.forget_user(user)  # committed before the answer
        self.bot.tables.languages.forget(user)
        self.bot.tables.courier.forget(user)
        log.info("A person asked to be forgotten; done")  # no id: the log would keep what was just erased
        await update(interaction, content=render(FORGOTTEN, interaction.locale.value), view=None)

    # ---- servers ---------------------------------------------------------------------------------------------------

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the server's shard (every server, without sharding)."""
        count, shards = getattr(self.bot, "shard_count", None), getattr(self.bot, "shard_ids", None)
        return not count or shards is None or (guild_id >> 22) % count in shards

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.bot.storage.guild_removed(guild.id)
        days = self.bot.settings.forget_server_after_days
        if days == 0:
            await self.erase(guild.id)
            return
        log.info("Removed from server %s; its data is erased in %d days unless the bot comes back", guild.id, days)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if await self.bot.storage.guild_returned(guild.id):
            log.info("Back in server %s: its data is kept", guild.id)

    async def notice_departures(self) -> None:
        """Compare the servers the database knows with those the bot is in: a removal while the bot was down starts
        its grace period now, and a server the bot is back in keeps its data."""
        storage = self.bot.storage
        present = {guild.id for guild in self.bot.guilds}
        departed = await storage.departed_guilds()
        for guild_id in await storage.known_guilds():
            if not self.owns(guild_id):
                continue
            if guild_id in present and guild_id in departed:
                await storage.guild_returned(guild_id)
            elif guild_id not in present and guild_id not in departed:
                await storage.guild_removed(guild_id)

    async def erase(self, guild_id: int) -> None:
        for record in await self.bot.storage.open_games():
            if record.guild_id == guild_id:
                self.bot.tables.games.forget(record)  # nothing in memory acts on a game about to be gone
        games = await self.bot.storage.forget_guild(guild_id)
        log.info("Erased the data of server %s (the bot was removed from it): %d games", guild_id, games)

    # ---- the sweep -------------------------------------------------------------------------------------------------

    async def sweep(self) -> None:
        settings, storage = self.bot.settings, self.bot.storage
        settled = await storage.settle_forgotten()
        texts = await storage.forget_hand_texts(cutoff(settings.keep_hand_texts_days))
        due = cutoff(settings.forget_server_after_days)
        for guild_id, removed in (await storage.departed_guilds()).items():
            if removed <= due and self.owns(guild_id) and self.bot.get_guild(guild_id) is None:
                await self.erase(guild_id)
        if settled or texts:
            log.info("Privacy sweep: %d forgotten people settled, %d hand texts deleted", settled, texts)

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweeper(self) -> None:
        try:
            await self.sweep()
        except Exception:
            # A busy database or a lost connection: the next round tries again; the bot carries on meanwhile.
            log.warning("The privacy sweep failed; trying again in %d s", SWEEP_SECONDS, exc_info=True)

    @sweeper.before_loop
    async def before_sweeping(self) -> None:
        try:
            await self.notice_departures()
        except Exception:
            log.warning("Could not compare the servers the database knows with Discord's", exc_info=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Privacy(bot))
