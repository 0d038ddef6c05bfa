"""/newgame's options, built from the games' registry (each game's variants are its own data, so a new variant or
game needs no change here), and the checks of what a player chose."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from cogs._cooldowns import NEW_GAME_SECONDS, NEW_GAMES, posts_here
from cogs._types import Interaction
from cogs.daily import DEALS
from cogs.threads import THREAD_OPTION
from engine.game import GameInfo, Variant
from i18n import _, _n, joined, listing
from table.answer import UserError
from table.lobby_rules import MAX_BOTS, has_computer_player, no_computer_players
from table.options import TURN_TIMES, turn_time_words
from table.registry import GAMES

if TYPE_CHECKING:
    pass

DEFAULT_GAME = next(iter(GAMES))  # the first game registered (``games.py``)


def default_turn_times() -> str:
    """The default game's turn time, then each other game's where it differs ("3 minutes, No Thanks! 1 minute"), in
    the English of the turn_time choices: a command string, translated through the catalogs as a whole."""
    named = {seconds: name for name, seconds in TURN_TIMES.items()}

    def words(seconds: int) -> str:
        return named.get(seconds, f"{seconds} seconds")

    first = GAMES[DEFAULT_GAME].info.turn_seconds
    others = [f"{g.info.title} {words(g.info.turn_seconds)}" for g in GAMES.values() if g.info.turn_seconds != first]
    return ", ".join([words(first), *others])


def all_variants() -> dict[str, tuple[Variant, list[GameInfo]]]:
    """Every variant of every registered game by option name, with the games that have it."""
    found: dict[str, tuple[Variant, list[GameInfo]]] = {}
    for game in GAMES.values():
        for variant in game.info.variants:
            found.setdefault(variant.name, (variant, []))[1].append(game.info)
    return found


VARIANTS = all_variants()


def checked_choices(kind: str, chosen: dict[str, Any], bots: int, turn_time: str | None, deal: str) -> GameInfo:
    """The game chosen, once every choice of /newgame fits it; a refusal that says which does not otherwise."""
    game = GAMES.get(kind)
    if game is None:
        raise UserError(_("Choose a game from the list."))
    info = game.info
    if not isinstance(bots, int) or isinstance(bots, bool) or not 0 <= bots <= MAX_BOTS:
        raise UserError(_("bots is a number of computer players, from 0 to {most}.", most=MAX_BOTS))
    if turn_time is not None and turn_time not in TURN_TIMES:
        raise UserError(
            _(
                "Choose a turn time from the list: {choices}.",
                choices=joined([turn_time_words(seconds) for seconds in TURN_TIMES.values()], ", "),
            )
        )
    if deal not in DEALS:
        raise UserError(_("Choose the deal from the list: random or daily."))
    if bots and not has_computer_player(info.kind):
        raise UserError(no_computer_players(info))
    if bots and bots + 1 > info.max_players:
        raise UserError(
            _n(
                "{game} is for at most {most} players: you and {count} bot.",
                "{game} is for at most {most} players: you and {count} bots.",
                info.max_players - 1,
                game=info.title,
                most=info.max_players,
            )
        )
    for name, value in chosen.items():
        if value is not None and not isinstance(value, bool):
            raise UserError(_("The option {option} is either true or false.", option=name.replace("_", " ")))
    misfits = [name for name, value in chosen.items() if value is not None and info.variant(name) is None]
    if misfits:
        labels = [v.label for v in info.variants]
        option = VARIANTS[misfits[0]][0].label
        if not labels:
            refusal = _("The option {option} doesn't fit {game}: it has no options.", option=option, game=info.title)
        elif len(labels) == 1:
            refusal = _(
                "The option {option} doesn't fit {game}: its only option is {only}.",
                option=option,
                game=info.title,
                only=labels[0],
            )
        else:
            refusal = _(
                "The option {option} doesn't fit {game}: its options are {options}.",
                option=option,
                game=info.title,
                options=listing(labels),
            )
        raise UserError(refusal)
    return info


def newgame_command() -> app_commands.Command[Any, Any, None]:
    """/newgame, built from the registry as it is now: the lobby's cog module calls this each time it loads, so a game
    (or variant) registered before the bot starts is offered like the others."""
    variants = all_variants()

    async def _newgame(
        self: Any,  # the Lobby cog (discord.py binds the command to it)
        interaction: Interaction,
        game: str = DEFAULT_GAME,
        bots: int = 0,
        turn_time: str | None = None,
        deal: str = "random",
        thread: bool = False,
        **chosen: Any,
    ) -> None:
        await self.newgame(interaction, game, chosen, bots, turn_time, deal, thread)

    # /newgame takes one optional boolean per variant of any registered game: its parameters are built from the
    # registry, so a new variant or game needs no change here.
    _newgame.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
            inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str, default=DEFAULT_GAME),
            inspect.Parameter(
                "bots", inspect.Parameter.KEYWORD_ONLY, annotation=app_commands.Range[int, 0, MAX_BOTS], default=0
            ),
            inspect.Parameter("turn_time", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=None),
            inspect.Parameter("deal", inspect.Parameter.KEYWORD_ONLY, annotation=str, default="random"),
            inspect.Parameter("thread", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=False),
            *(
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=bool | None, default=None)
                for name in variants
            ),
        ]
    )
    _newgame.__annotations__ = {}
    _newgame.__qualname__ = "Lobby.newgame_command"  # discord.py binds a command defined in a class to its cog
    about = "Open a game in this channel and join it as the host."
    command: app_commands.Command[Any, Any, None] = app_commands.command(name="newgame", description=about)(
        app_commands.guild_only()(
            app_commands.describe(
                game=f"Which game to play (default: {GAMES[DEFAULT_GAME].info.title})",
                bots="Computer players to seat at the table (default none)",
                turn_time=f"Time for each turn before the autopilot plays it (default: {default_turn_times()})",
                deal="A random shuffle, or today's daily deal: the same cards on every server (compare with /daily)",
                thread=THREAD_OPTION,
                **{
                    name: f"{' / '.join(info.title for info in infos)}: {variant.description}"[:100]
                    for name, (variant, infos) in variants.items()
                },
            )(
                app_commands.choices(
                    game=[app_commands.Choice(name=g.info.title, value=g.info.kind) for g in GAMES.values()],
                    turn_time=[app_commands.Choice(name=words, value=words) for words in TURN_TIMES],
                    deal=[app_commands.Choice(name=words, value=name) for name, words in DEALS.items()],
                )(cast(Any, _newgame))
            )
        )
    )
    return posts_here(NEW_GAMES, NEW_GAME_SECONDS)(command)
