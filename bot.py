"""Card-table bot: hosts The Game and No Thanks! in Discord channels.

Run it with ``python bot.py`` (or the ``cardtable-bot`` console script) after setting ``DISCORD_TOKEN``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import importlib
import json
import logging
import os
import random
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

import config
import metrics
import startup
from cogs._ui import admitted, check_options, reply_error
from config import ConfigError, Settings
from discord_internals import (
    IDLE_BUCKET_SECONDS,
    dynamic_item_patterns,
    event_parsers,
    forget_idle_buckets,
    stop_bucket_scans,
)
from i18n import _, render
from i18n.slash import CatalogTranslator, sync_payload
from memory import BurstEnd, give_back_memory, settle_garbage_collector
from storage import Storage, StorageUnavailable, maintenance, open_storage
from table.answer import NO_PINGS
from table.flow import Table
from table.registry import REGISTRY

log = logging.getLogger("bot")

WEB_TABLE = "web.server"  # the web table's module, loaded only with WEB_PORT
# The registration lines of the games the bot hosts; imported by name, as the cogs are loaded, since the adapters it
# imports name bot.Bot for typing.
GAMES = "games"

# One cog per concern; each registered game's table adapter comes after the lobby (``Registration.extension``).
CONCERNS = (
    "cogs.lobby",
    "cogs.table_commands",
    "cogs.after_the_end",
    "cogs.moderation",
    "cogs.stats",
    "cogs.history",
    "cogs.daily",
    "cogs.settings",
    "cogs.threads",
    "cogs.help",
    "cogs.my_games",
    "cogs.me",
    "cogs.privacy",
)


def extensions() -> tuple[str, ...]:
    """The cogs to load: read when the bot sets up, so a game registered before then is played like the others."""
    importlib.import_module(GAMES)  # fills the registry, once
    return (CONCERNS[0], *(hosted.extension for hosted in REGISTRY.values()), *CONCERNS[1:])


# Where the commands were last synced to (a server id, or null for global) and a hash of them.
COMMAND_SYNC_KEY = "command_sync"


class GameTree(app_commands.CommandTree["Bot"]):
    async def interaction_check(self, interaction: discord.Interaction[Bot], /) -> bool:
        return check_options(interaction) and await admitted(interaction)

    async def on_error(self, interaction: discord.Interaction[Bot], error: app_commands.AppCommandError) -> None:
        await reply_error(interaction, error)
        metrics.answered(interaction)


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.guild_reactions = True  # keycap number reactions are removed during The Game
    wanted.dm_messages = True
    wanted.message_content = True  # privileged: needed to see numbers in chat
    return wanted


# discord.py builds a whole Message (author, embeds, components, interaction metadata) for every message event before a
# listener sees it, and schedules a task per listener. Most message events are the bot's own boards and DMs echoed
# back, which no listener wants (moderation and the chat count skip the bot's messages): they are dropped unparsed.
OWN_MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE")


def skip_own_messages(client: discord.Client) -> None:
    parsers = event_parsers(client)
    for event in OWN_MESSAGE_EVENTS:
        parse = parsers[event]

        def parse_unless_own(data: dict[str, Any], parse: Callable[[dict[str, Any]], None] = parse) -> None:
            author, user = data.get("author"), client.user
            if author is not None and user is not None and author.get("id") == str(user.id):  # ids come as strings
                return
            parse(data)

        parsers[event] = parse_unless_own


# This bot never joins voice channels: don't warn every server owner about missing voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class Bot(commands.Bot):
    storage: Storage
    tables: Table
    metrics_endpoint: metrics.Endpoint | None = None
    web: Any = None  # the web table (WEB_PORT, ``web.server.WebTable``), served by this process

    def __init__(self, settings: Settings, *, seed: int | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents(),
            allowed_mentions=NO_PINGS,
            tree_cls=GameTree,
            # No message cache: moderation reads raw events, and caching every board costs memory per message.
            max_messages=options.pop("max_messages", None),
            # No member cache and no member lists at start: interactions carry the member who acted and their
            # permissions, and a member option arrives resolved (the guilds' channels stay cached for moderation).
            member_cache_flags=options.pop("member_cache_flags", discord.MemberCacheFlags.none()),
            chunk_guilds_at_startup=options.pop("chunk_guilds_at_startup", False),
            # Every refused request is counted (cardtable_refused_requests): Discord bans an address that makes many.
            http_trace=options.pop("http_trace", metrics.refusals_trace()),
            **options,
        )
        skip_own_messages(self)
        stop_bucket_scans(self)
        self._housekeeping: asyncio.Task[None] | None = None
        self.interactions_seen = 0  # housekeeping tells a busy moment from a quiet one by it
        self.settings = settings
        # Every game's shuffle comes from a seed stored with it. The seeds come from the OS, or from ``seed``
        # when a test wants the same games every run.
        self.seeds: random.Random = random.SystemRandom() if seed is None else random.Random(seed)

    async def setup_hook(self) -> None:
        # Everything a game needs is ready here, before the gateway connects: cogs register their
        # persistent views in cog_load, and every game lives in the database.
        if "storage" not in self.__dict__:  # run() opens it before logging in; tests start a Bot directly
            self.storage = await open_storage(self.settings.database_path, self.settings.database_url)
        self.tables = Table(self, self.storage)
        if self.settings.web_port is not None:
            if self.web is None:  # run() opened it before logging in; tests start a Bot directly
                self.web = await serve_web(self.settings)
            await self.web.attach(self, self.tables)
        for extension in extensions():
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()
        # Replaying every running game once now reports a damaged one at start, for its channel only, and delivers
        # the DMs a stop interrupted.
        await self.tables.resume()
        self._housekeeping = asyncio.create_task(self.housekeeping(), name="housekeeping")

    async def housekeeping(self) -> None:
        """What a long-running bot sheds on a timer: discord.py's rate-limit buckets of channels and DM channels no
        longer written to, and, at the first quiet tick after a busy one, the memory the busy moment took."""
        after_a_burst = BurstEnd(self.interactions_seen)
        while True:
            await asyncio.sleep(IDLE_BUCKET_SECONDS / 2)
            forget_idle_buckets(self)
            if after_a_burst.tick(self.interactions_seen):
                give_back_memory()

    async def on_interaction(self, interaction: discord.Interaction[Bot]) -> None:
        """Answer a click on a button no handler knows (from an older version of the bot) instead of ignoring it."""
        metrics.received(interaction)
        self.interactions_seen += 1
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if self.knows_component(custom_id):
            return
        await asyncio.sleep(0)  # let a handler that does know it answer first
        if not interaction.response.is_done():
            older = _("This button is from an older version of the bot; use /board for the current one.")
            await interaction.response.send_message(render(older, interaction.locale.value), ephemeral=True)

    def knows_component(self, custom_id: str) -> bool:
        for view in self.persistent_views:
            if any(getattr(item, "custom_id", None) == custom_id for item in view.children):
                return True
        return any(pattern.fullmatch(custom_id) for pattern in dynamic_item_patterns(self))

    async def sync_commands(self) -> bool:
        """Register the slash commands with Discord if they, or where they belong, changed since the last sync
        (Discord rate-limits syncs). Returns whether it synced.

        Without ``DEV_GUILD_ID`` the commands are global: every server has them. With it they are registered in
        that server only, where a change shows at once, and the global set is emptied, since a command registered
        both ways is listed twice there. Changing or unsetting ``DEV_GUILD_ID`` removes the commands from the server
        it named before: each server always lists each command once."""
        dev_guild = self.settings.dev_guild_id
        payload = await sync_payload(self.tree)  # with the translations: a new one in a catalog syncs again
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        assert self.application_id is not None  # known once logged in, before setup_hook
        # The application too: a new token of another application shares the database but none of its commands.
        wanted = {"guild": dev_guild, "commands": digest, "application": self.application_id}
        stored = await self.storage.get_meta(COMMAND_SYNC_KEY)
        synced: dict[str, Any] = json.loads(stored) if stored else {}
        if synced == wanted and not self.settings.sync_commands:
            log.info("Slash commands unchanged since the last sync; not syncing (--sync-commands forces it)")
            return False
        if dev_guild is None:
            await self.tree.sync()
        else:
            guild = discord.Object(dev_guild)
            self.tree.copy_global_to(guild=guild)
            try:
                await self.tree.sync(guild=guild)
            except discord.Forbidden:
                log.error(
                    "DEV_GUILD_ID %s: the bot is not in that server, or was invited without the "
                    "applications.commands scope; no slash commands registered there",
                    dev_guild,
                )
                return False
            await self.http.bulk_upsert_global_commands(self.application_id, [])
        previous = synced.get("guild")
        same_application = synced.get("application", self.application_id) == self.application_id
        if previous is not None and previous != dev_guild and same_application:
            # If the bot left that server, its commands there went with it.
            with contextlib.suppress(discord.Forbidden, discord.NotFound):
                await self.http.bulk_upsert_guild_commands(self.application_id, previous, [])
        await self.storage.set_meta(COMMAND_SYNC_KEY, json.dumps(wanted))
        log.info("Synced %d slash commands %s", len(payload), f"to server {dev_guild}" if dev_guild else "globally")
        return True

    async def on_app_command_completion(self, interaction: discord.Interaction[Bot], command: Any) -> None:
        metrics.answered(interaction)

    async def on_ready(self) -> None:
        log.info("Connected as %s (id %s) to %d servers", self.user, self.user and self.user.id, len(self.guilds))

    async def close(self) -> None:
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        tables = self.__dict__.get("tables")
        if tables is not None:
            await tables.close()
        await super().close()
        if self.metrics_endpoint is not None:
            await self.metrics_endpoint.close()
            self.metrics_endpoint = None
        if self.web is not None:
            await self.web.close()
            self.web = None
        storage = self.__dict__.pop("storage", None)
        if storage is not None:
            await storage.close()


class ShardedBot(Bot, commands.AutoShardedBot):
    """The bot running the shards ``SHARD_IDS`` of ``SHARD_COUNT``: each guild's events come through the shard
    ``(guild_id >> 22) % SHARD_COUNT``, DMs through shard 0. Several such processes share one PostgreSQL database,
    which keeps everything a game needs, so it does not matter which process answers which event."""


async def serve_web(settings: Settings) -> Any:
    """Open the web table's port (raises OSError if it is taken). Loaded by name, like the cogs: the web table is a
    front end beside them (it names the cogs' parts), and without WEB_PORT the bot never loads it at all."""
    assert settings.web_port is not None
    server = importlib.import_module(WEB_TABLE)
    secret = settings.client_secret if settings.web_activity else None
    return await server.WebTable.serve(settings.web_port, settings.web_url, activity_secret=secret)


def build_bot(settings: Settings, **options: Any) -> Bot:
    """One process as always, or, with ``SHARD_COUNT``, discord.py's ``AutoShardedBot`` with this process's shards."""
    if settings.shard_count is None:
        return Bot(settings, **options)
    shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedBot(settings, shard_count=settings.shard_count, shard_ids=shard_ids, **options)


async def run(settings: Settings) -> int:
    """Run the bot until it is stopped; 0, or 2 after one line on stderr saying which setting to fix.

    The database is opened and checked (migrated) before anything goes to Discord, so a database problem is reported
    the same whether Discord is reachable or not, and a bot that can't keep games never logs in."""
    bot = build_bot(settings)
    try:
        bot.metrics_endpoint = await metrics.serve(bot, settings.metrics_port)
    except OSError as error:
        startup.report(
            f"Can't serve metrics on METRICS_PORT={settings.metrics_port} ({error.strerror or error}): choose a "
            "free port or leave METRICS_PORT empty."
        )
        return 2
    if settings.web_port is not None:
        try:
            bot.web = await serve_web(settings)
        except OSError as error:
            if bot.metrics_endpoint is not None:
                await bot.metrics_endpoint.close()
            startup.report(
                f"Can't serve the web table on WEB_PORT={settings.web_port} ({error.strerror or error}): choose a "
                "free port or leave WEB_PORT empty."
            )
            return 2
    try:
        storage = await open_storage(settings.database_path, settings.database_url)
    except StorageUnavailable as error:
        if bot.metrics_endpoint is not None:
            await bot.metrics_endpoint.close()
        if bot.web is not None:
            await bot.web.close()
        startup.report(error)
        return 2
    bot.storage = metrics.time_storage(storage) if bot.metrics_endpoint is not None else storage
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C interrupts asyncio.run instead (main)
            loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            # A rejected token must read as one line: keep discord.py's "logging in" chatter out of it.
            client_log = logging.getLogger("discord.client")
            level = client_log.level
            client_log.setLevel(logging.WARNING)
            try:
                await bot.login(settings.token)  # also runs setup_hook: cogs, command sync
            finally:
                client_log.setLevel(level)
            assert bot.application_id is not None
            log.info("cardtable-bot %s; invite it with %s", startup.version(), startup.invite_url(bot.application_id))
            uvloop = type(loop).__module__.startswith("uvloop")
            log.info("%s", startup.optional_parts(uvloop=uvloop, database_url=settings.database_url))
            settle_garbage_collector()
            await bot.connect()
    except discord.LoginFailure:
        startup.report("Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal into .env.")
        return 2
    except discord.PrivilegedIntentsRequired:
        startup.report(
            "Enable the Message Content intent: Developer Portal > your application > Bot > Privileged Gateway "
            "Intents, then start the bot again."
        )
        return 2
    except StorageUnavailable as error:
        startup.report(error)
        return 2
    except (aiohttp.ClientConnectionError, OSError) as error:
        # Before the gateway is up nothing is lost by stopping; an owner needs the cause in one line, not a traceback.
        startup.report(f"Can't reach Discord ({error.__class__.__name__}: {error}): check this machine's network.")
        return 2
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(signum)
    return 0


def env_folders() -> list[Path]:
    """The folders ``main`` looks in for ``.env``, in order (README, *Settings*): the current folder; the checkout
    the bot runs from (``python bot.py``, or an editable install); the folder holding the virtual environment it is
    installed in (the checkout, for ``pip install .`` into ``.venv``); the per-user config folder.

    ``CARDTABLE_HOME`` names the bot's folder outright (relative: to the current folder), and then it is the only one:
    several bots can share one install, and the tests keep every bot they start away from the owner's own ``.env``."""
    home = named_home()
    if home is not None:
        return [home]
    folders = [Path.cwd()]
    source = Path(__file__).resolve().parent
    if (source / "pyproject.toml").is_file():
        folders.append(source)
    if sys.prefix != sys.base_prefix:
        folders.append(Path(sys.prefix).resolve().parent)
    if os.name == "nt":
        config = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    else:
        config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    folders.append(config / "cardtable-bot")
    return list(dict.fromkeys(folders))


def bot_folder() -> Path:
    """The folder of the first ``.env`` in ``env_folders()``, else the current folder (``CARDTABLE_HOME`` when set):
    the settings come from its ``.env``, and a relative ``DATABASE_PATH`` (the default included) is taken from it,
    whatever the current folder."""
    home = named_home()
    if home is not None:
        return home
    # os.path.isfile, not Path.is_file: a folder the bot may not enter (ProtectHome=) is "no .env", not an error.
    return next((folder for folder in env_folders() if os.path.isfile(folder / ".env")), Path.cwd())


def named_home() -> Path | None:
    """The bot's folder as ``CARDTABLE_HOME`` names it, if it does."""
    home = os.environ.get("CARDTABLE_HOME", "").strip()
    return Path(home).expanduser().resolve() if home else None


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (not on Windows): the same asyncio code, less CPU per event.
    None: asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(argv: list[str] | None = None) -> None:
    arguments = sys.argv[1:] if argv is None else argv
    if maintenance.wanted(arguments):  # forget-server, copy-database: no bot started
        sys.exit(maintenance.main(arguments, bot_folder()))
    options = startup.parser().parse_args(argv)  # --help and --version answer and exit here: no bot started
    folder = bot_folder()
    problems = config.load_env_file(folder / ".env")
    # The log file first, named as written: every later problem, a setting's included, is reported in it too.
    log_name = config.unquoted(os.environ.get("LOG_FILE", ""))
    log_file = folder / Path(log_name).expanduser() if log_name and not config.value_problem(log_name) else None
    if log_file is not None:
        try:
            startup.open_log_file(log_file)
        except OSError as error:
            startup.report(
                f"Can't write the log file {log_file} ({error.strerror}): set LOG_FILE to a file in a folder the "
                "bot's user may write, or leave it empty."
            )
            sys.exit(2)
    try:
        if problems:
            raise ConfigError(problems[0])
        settings = Settings.from_env()
    except ConfigError as error:
        startup.report(error)
        sys.exit(2)
    if options.sync_commands:
        settings = dataclasses.replace(settings, sync_commands=True)
    # Relative paths are taken from the .env's folder; an absolute path stays as it is.
    settings = dataclasses.replace(settings, database_path=str(folder / Path(settings.database_path).expanduser()))
    startup.setup_logging(settings.log_level, settings.library_log_level)
    log.debug("Settings from %s; database %s", folder / ".env", settings.database_path)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            status = runner.run(run(settings))
    except KeyboardInterrupt:  # Ctrl+C where asyncio has no signal handlers (Windows): the bot was closed
        status = 0
    except Exception:
        # A bug, not a setting: its traceback once, on stderr and in LOG_FILE, rather than only on a console.
        log.critical("The bot stopped on an unexpected error", exc_info=True)
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
