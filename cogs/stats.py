"""A server's figures: /stats (a player's games, teams and streaks, with a chart over time) and /leaderboard.

Everything reads the database's ``results`` (one row per person per ended game, written by the database when the
game ends); nothing here writes. Games with computer players or autopilot turns are counted apart from people-only
games and say so. A game where somebody took a Hint counts in its players' own /stats (they played it); on the
players' leaderboard it is left out for whoever took the Hint, not their partners, and on the teams' for the team
(``storage.stats``). The leaderboard's pages turn in place, through dynamic buttons whose custom
ids carry the query.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._cooldowns import posts_here_when_public
from cogs._pages import COLOUR, PAGE, audience, bound, company, page_locale, title, turn_page, variant_words
from cogs._results import people, won_word
from cogs._types import Interaction
from cogs._ui import Admitted, in_text_channel
from cogs.lobby import DEFAULT_GAME, VARIANTS
from i18n import Localized, Text, _, _n, _p, joined, lines, render
from storage import PlayerResult, Standing, Streak, Tally
from table.answer import UserError, detached, send, shorten
from table.end_screen import is_team_game, score_text
from table.people import mention
from table.picture import TEAM_SQUARES, Result, results_png
from table.registry import GAMES

if TYPE_CHECKING:
    from bot import Bot

MIN_GAMES = 3  # finished games a team or player needs to appear on a leaderboard
CHART_GAMES = 60  # the last games a /stats chart shows


# ---- /stats -----------------------------------------------------------------------------------------------------


def tally_lines(kind: str, tallies: list[Tally], streak: Streak | None) -> Localized:
    """One game's figures: totals, the streak, then each table size and variant played (when more than one)."""
    played = sum(t.played for t in tallies)
    won = sum(t.won for t in tallies)
    abandoned = sum(t.abandoned for t in tallies)
    scored = [t for t in tallies if t.mean is not None]
    best = min((t.best for t in scored if t.best is not None), default=None)
    mean = sum((t.mean or 0) * t.played for t in scored) / played if played else None
    word = won_word(kind)
    if played:
        share = won * 100 // played
        totals = (
            _(
                "Played **{played}**, {won_word} **{won}** ({share}%), abandoned {abandoned}",
                played=played,
                won_word=word,
                won=won,
                share=share,
                abandoned=abandoned,
            )
            if abandoned
            else _(
                "Played **{played}**, {won_word} **{won}** ({share}%)",
                played=played,
                won_word=word,
                won=won,
                share=share,
            )
        )
        scores: Text = _(
            "Best {best}, average {average}", best=score_text(kind, best), average=score_text(kind, mean, 1)
        )
    else:
        totals = (
            _(
                "Played **{played}**, {won_word} **{won}**, abandoned {abandoned}",
                played=played,
                won_word=word,
                won=won,
                abandoned=abandoned,
            )
            if abandoned
            else _("Played **{played}**, {won_word} **{won}**", played=played, won_word=word, won=won)
        )
        scores = _("No finished game yet.")
    parts: list[Localized] = [totals, scores]
    if streak is not None and played:
        parts.append(_("Winning streak: {current} now, best {best}", current=streak.current, best=streak.best))
    if len(tallies) > 1:
        for t in tallies[:6]:
            values = {
                "seats": t.seats,
                "variant": variant_words(kind, t.variants),
                "played": t.played,
                "won": t.won,
                "won_word": word,
            }
            if t.mean is not None and t.abandoned:
                line = _(
                    "· {seats} players, {variant}: {played} played, {won} {won_word}, average {average}, "
                    "{abandoned} abandoned",
                    average=score_text(kind, t.mean, 1),
                    abandoned=t.abandoned,
                    **values,
                )
            elif t.mean is not None:
                line = _(
                    "· {seats} players, {variant}: {played} played, {won} {won_word}, average {average}",
                    average=score_text(kind, t.mean, 1),
                    **values,
                )
            elif t.abandoned:
                line = _(
                    "· {seats} players, {variant}: {played} played, {won} {won_word}, {abandoned} abandoned",
                    abandoned=t.abandoned,
                    **values,
                )
            else:
                line = _("· {seats} players, {variant}: {played} played, {won} {won_word}", **values)
            parts.append(line)
    return lines(*parts)


def team_colours(teams: list[Standing]) -> dict[tuple[int, ...], int]:
    """Each team's colour in a results chart (an index of ``TEAM_SQUARES``), in the order the teams are listed."""
    colours: dict[tuple[int, ...], int] = {}
    for team in teams:
        if len(colours) < len(TEAM_SQUARES):
            colours.setdefault(team.players, len(colours))
    return colours


def team_lines(kind: str, teams: list[Standing], chart: bool = False) -> Localized:
    colours = team_colours(teams) if chart else {}
    rows: list[Localized] = []
    for t in teams:
        values = {"team": people(t.players), "played": t.games, "won": t.won, "best": score_text(kind, t.best)}
        if t.mixed:
            row = _("{team} + computer: {played} played, {won} won, best {best}", **values)
        else:
            row = _("{team}: {played} played, {won} won, best {best}", **values)
        index = colours.get(t.players)
        # The square is the team's colour in the chart: a symbol, the same in every language.
        rows.append(_("{square} {row}", square=TEAM_SQUARES[index], row=row) if index is not None else row)
    return lines(*rows)


def chart_png(results: list[PlayerResult], teams: dict[str, list[Standing]]) -> bytes:
    """A player's results over time, one panel per game (in the embed's order): in a team game, each team that has a
    line of its own in the embed has its colour."""
    panels = []
    for kind in sorted({r.kind for r in results}):
        colours = team_colours(teams.get(kind, [])) if is_team_game(kind) else {}
        panels.append(
            [
                Result(r.score, r.won, colours.get(r.team, 0 if not is_team_game(kind) else None))
                for r in results
                if r.kind == kind
            ]
        )
    return results_png(panels)


def stats_embed(
    player: int,
    tallies: list[Tally],
    streaks: list[Streak],
    teams: dict[str, list[Standing]],
    locale: str,
    chart: bool = False,
) -> Any:
    def say(text: Localized) -> str:
        return render(text, locale)

    embed = discord.Embed(
        title=say(_("Statistics on this server")),
        colour=COLOUR,
        description=say(_("Player: {player}", player=mention(player))),
    )
    if not tallies:
        embed.description = say(_("{player} hasn't finished a game on this server yet.", player=mention(player)))
        return embed
    groups: dict[tuple[str, bool], list[Tally]] = {}
    for t in tallies:
        groups.setdefault((t.kind, t.mixed), []).append(t)
    for (kind, mixed), group in sorted(groups.items()):
        streak = next((s for s in streaks if (s.kind, s.mixed) == (kind, mixed)), None)
        embed.add_field(
            name=say(company(kind, mixed)), value=shorten(say(tally_lines(kind, group, streak)), 1024), inline=False
        )
    for kind, standings in teams.items():
        if standings:
            embed.add_field(
                name=say(_("{game}: teams", game=title(kind))),
                value=shorten(say(team_lines(kind, standings, chart)), 1024),
                inline=False,
            )
    return embed


# ---- /leaderboard -----------------------------------------------------------------------------------------------


LEADERBOARD_TEMPLATE = r"lb:(?P<kind>[a-z_]+):(?P<seats>[0-9]):(?P<variant>[a-z_]*|-):(?P<mixed>[01]):(?P<page>[0-9]+)"


class LeaderboardButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=LEADERBOARD_TEMPLATE,
):
    """A leaderboard page: the custom id is the whole query (game, table size, variant, company, page)."""

    cog: Stats | None = None  # the copy the cog registers answers the clicks (``bound``)

    def __init__(self, kind: str, seats: int, variant: str | None, mixed: bool, page: int, **options: Any) -> None:
        wanted = "-" if variant is None else variant
        super().__init__(
            discord.ui.Button(custom_id=f"lb:{kind}:{seats}:{wanted}:{int(mixed)}:{page}", **options),
        )
        self.query = (kind, seats, variant, mixed, page)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        variant = None if match["variant"] == "-" else match["variant"]
        return cls(match["kind"], int(match["seats"]), variant, match["mixed"] == "1", int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await turn_page(
            interaction, self.cog, lambda cog: cog.leaderboard_page(interaction, *self.query, page_locale(interaction))
        )


class Stats(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.min_games = MIN_GAMES
        self.button = bound(LeaderboardButton, LEADERBOARD_TEMPLATE, self)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(self.button)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(self.button)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- /stats ---------------------------------------------------------------------------------------------

    @app_commands.command(name="stats", description="A player's statistics on this server (privately by default).")
    @app_commands.guild_only()
    @posts_here_when_public()
    @app_commands.describe(
        player="Whose statistics (default: yours)",
        public="Show them to the channel",
        chart="Add a chart of the results over time",
    )
    async def stats(
        self,
        interaction: Interaction,
        player: discord.Member | None = None,
        public: bool = False,
        chart: bool = False,
    ) -> None:
        guild = interaction.guild_id or 0
        who = player.id if player is not None else interaction.user.id
        if player is not None and player.bot:
            raise UserError(_("Bots don't keep statistics; choose a person."))
        storage = self.bot.storage
        tallies = await storage.player_tallies(guild, who)
        streaks = await storage.player_streaks(guild, who)
        teams = {
            kind: await storage.player_teams(guild, who, kind)
            for kind in sorted({t.kind for t in tallies if t.played} & {k for k in GAMES if is_team_game(k)})
        }
        locale = audience(interaction, public)
        embed = stats_embed(who, tallies, streaks, teams, locale, chart)
        results = await storage.player_results(guild, who, CHART_GAMES) if chart else []
        if not results:
            await send(interaction, embed=embed, ephemeral=not public)
            return
        # Tens of milliseconds of drawing: in a thread, so the other tables' clicks are answered meanwhile.
        png = await asyncio.to_thread(chart_png, results, teams)
        embed.set_image(url="attachment://results.png")
        chart_file = discord.File(io.BytesIO(png), filename="results.png")
        await send(interaction, embed=embed, file=chart_file, ephemeral=not public)

    # ---- /leaderboard ---------------------------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="This server's best teams and players.")
    @app_commands.guild_only()
    @posts_here_when_public()
    @app_commands.describe(
        game=f"Which game (default: {title(DEFAULT_GAME)})",
        players="Only tables of this many players",
        variant="Only games with this variant (or standard rules only)",
        public="Show it to the channel",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=g.info.title, value=g.info.kind) for g in GAMES.values()],
        variant=[
            app_commands.Choice(name="standard rules", value="standard"),
            *(app_commands.Choice(name=render(v.label, "en"), value=name) for name, (v, _infos) in VARIANTS.items()),
        ],
    )
    async def leaderboard(
        self,
        interaction: Interaction,
        game: str = DEFAULT_GAME,
        players: app_commands.Range[int, 1, 9] | None = None,
        variant: str | None = None,
        public: bool = False,
    ) -> None:
        if game not in GAMES:
            raise UserError(_("Choose a game from the list."))
        if variant is not None and variant != "standard" and GAMES[game].info.variant(variant) is None:
            raise UserError(_("{game} has no variant {variant}.", game=title(game), variant=variant.replace("_", " ")))
        wanted = "" if variant == "standard" else variant
        page = await self.leaderboard_page(
            interaction, game, players or 0, wanted, False, 0, audience(interaction, public)
        )
        await send(interaction, ephemeral=not public, **page)

    async def leaderboard_page(
        self,
        interaction: Interaction,
        kind: str,
        seats: int,
        variant: str | None,
        mixed: bool,
        page: int,
        locale: str,
    ) -> dict[str, Any]:
        teams = is_team_game(kind)
        standings, total = await self.bot.storage.leaderboard(
            interaction.guild_id or 0,
            kind,
            teams=teams,
            mixed=mixed,
            seats=seats or None,
            variant=variant,
            minimum=self.min_games,
            limit=PAGE,
            offset=page * PAGE,
        )
        pages = max(1, -(-total // PAGE))
        filters: list[Localized | str] = [_n("{count} player", "{count} players", seats)] if seats else []
        if variant is not None:
            filters.append(variant_words(kind, (variant,) if variant else ()))
        embed = discord.Embed(
            title=render(_("Leaderboard: {game}", game=company(kind, mixed)), locale),
            colour=COLOUR,
        )
        rows: list[Localized] = []
        for place, line in enumerate(standings, start=page * PAGE + 1):
            rows.append(
                _(
                    "**{number}.** {players}: {won} {won_word} in {played}, average {average}, best {best}",
                    number=place,
                    players=people(line.players),
                    won=line.won,
                    won_word=won_word(kind),
                    played=line.games,
                    average=score_text(kind, line.mean, 1),
                    best=score_text(kind, line.best),
                )
            )
        if rows:
            head = [_("Only {filters}.", filters=joined(filters, ", "))] if filters else []
            embed.description = render(lines(*head, *rows), locale)
        else:
            minimum = self.min_games
            if teams:
                empty = (
                    _n(
                        "No teams with {count} finished game here yet in that choice.",
                        "No teams with {count} finished games here yet in that choice.",
                        minimum,
                    )
                    if filters
                    else _n(
                        "No teams with {count} finished game here yet.",
                        "No teams with {count} finished games here yet.",
                        minimum,
                    )
                )
            else:
                empty = (
                    _n(
                        "No players with {count} finished game here yet in that choice.",
                        "No players with {count} finished games here yet in that choice.",
                        minimum,
                    )
                    if filters
                    else _n(
                        "No players with {count} finished game here yet.",
                        "No players with {count} finished games here yet.",
                        minimum,
                    )
                )
            embed.description = render(empty, locale)
        footer = (
            _n(
                "Teams with at least {count} finished game; most wins first, then the lowest average. Page {page} of "
                "{pages}.",
                "Teams with at least {count} finished games; most wins first, then the lowest average. Page {page} of "
                "{pages}.",
                self.min_games,
                page=page + 1,
                pages=pages,
            )
            if teams
            else _n(
                "Players with at least {count} finished game; most wins first, then the lowest average. Page {page} "
                "of {pages}.",
                "Players with at least {count} finished games; most wins first, then the lowest average. Page {page} "
                "of {pages}.",
                self.min_games,
                page=page + 1,
                pages=pages,
            )
        )
        hinted = (
            _("A team's game is left out when one of them took a Hint.")
            if teams
            else _("A game doesn't count for whoever took a Hint in it.")
        )
        embed.set_footer(text=render(lines(footer, hinted), locale))
        view = discord.ui.View(timeout=None)
        view.add_item(LeaderboardButton(kind, seats, variant, mixed, max(0, page - 1), label="◀", disabled=page == 0))
        view.add_item(LeaderboardButton(kind, seats, variant, mixed, page + 1, label="▶", disabled=page + 1 >= pages))
        toggle = _p("button", "People only") if mixed else _p("button", "With computer players")
        view.add_item(LeaderboardButton(kind, seats, variant, not mixed, 0, label=render(toggle, locale)))
        return {"embed": embed, "view": detached(view)}


async def setup(bot: Bot) -> None:
    await bot.add_cog(Stats(bot))
