"""Every extension loads into an offline bot, and the slash commands are the ones the issues promise."""

from pathlib import Path

import discord

from bot import Bot, Settings, extensions
from storage.sqlite import SQLiteStorage
from table.flow import Table
from table.registry import GAMES, REGISTRY

PROMISED = {
    "newgame",
    "join",
    "leave",
    "start",
    "endgame",
    "hand",
    "board",
    "rules",
    "forget",
    "me",
    "play",
    "endturn",
    "take",
    "nothanks",
    "signal",
    "stats",
    "leaderboard",
    "history",
    "daily",
    "settings",
    "help",
    "mygames",
}


async def test_every_extension_loads_and_command_names_are_unique(tmp_path: Path) -> None:
    bot = Bot(Settings(token="x", database_path=str(tmp_path / "bot.sqlite3")))
    bot.storage = await SQLiteStorage.open(bot.settings.database_path)
    bot.tables = Table(bot, bot.storage)
    try:
        for extension in extensions():
            await bot.load_extension(extension)
        names = [command.name for command in bot.tree.get_commands()]
        assert len(names) == len(set(names))
        assert set(names) == PROMISED
        assert set(GAMES) == {"the_game", "no_thanks"}
        # Each registered game's commands came with its own extension, named by its registration.
        assert {hosted.extension for hosted in REGISTRY.values()} <= set(bot.extensions)
        # Every command has a description, and every option one too (Discord shows them to players).
        for command in bot.tree.get_commands():
            assert isinstance(command, discord.app_commands.Command)
            assert command.description not in ("", "…")
            for parameter in command.parameters:
                assert parameter.description not in ("", "…"), (command.name, parameter.name)
    finally:
        await bot.close()
