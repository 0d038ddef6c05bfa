"""What a server's games leave behind: /stats, /leaderboard, /history with its replays, and /daily.

Everything reads the database's ``results`` (one row per person per ended game, written by the database when the
game ends) and the games' move logs; nothing here writes. Games with computer players or autopilot turns are counted
apart from people-only games and say so. Every page turns in place (the interaction edits its own message), and the
buttons are dynamic items whose custom ids carry all they need, so an old page still works after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._results import is_team_game, people, result_text, score_text, won_word
from cogs._ui import in_text_channel, reply_error
from cogs.lobby import DEFAULT_GAME, VARIANTS, utc_today, variants_text
from engine import GAMES
from engine.errors import CorruptState, GameError
from engine.game import decode_moves, replay
from i18n import Localized, Text, _, _n, _p, joined, lines, render
from i18n import day as i18n_day
from storage import EndedGame, GameRecord, PlayerResult, Standing, Streak, Tally
from table.answer import UserError, send, shorten
from table.games import setup_of
from table.language import Languages
from table.people import is_ai, mention
from table.picture import TEAM_SQUARES, Result, results_png

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.gold()
MIN_GAMES = 3  # finished games a team or player needs to appear on a leaderboard
PAGE = 10  # lines of a leaderboard or history page
CHART_GAMES = 60  # the last games a /stats chart shows


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
    result = record.result or {}
    if record.status != "finished" or not result:
        return (2, 0.0)
    if "won" in result:
        return (0 if result.get("won") else 1, float(result.get("score") or 0))
    scores = result.get("scores") or {}
    return (1, float(scores.get(str(result.get("winner")), 0)))


def variant_words(kind: str, variants: tuple[str, ...]) -> Localized | str:
    if kind in GAMES:
        return variants_text(kind, variants)
    return ", ".join(variants) or _("standard rules")


def company(kind: str, mixed: bool) -> Text:
    """A game's name and who played it: people only, or with computer players."""
    if mixed:
        return _("{game} (with computer players or autopilot turns)", game=title(kind))
    return _("{game} (people only)", game=title(kind))


def audience(interaction: discord.Interaction[Any], public: bool) -> str:
    """Whose language a page is in: the channel's when everybody sees it, else the reader's."""
    languages: Languages = interaction.client.tables.languages
    return languages.for_table(interaction) if public else languages.for_reader(interaction)


def page_locale(interaction: discord.Interaction[Any]) -> str:
    """A page turned in place keeps its audience: the reader's language for a private page, else the channel's."""
    message = interaction.message
    return audience(interaction, public=message is None or not message.flags.ephemeral)


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


async def turn_page(interaction: discord.Interaction[Any], page: Callable[[Stats], Awaitable[dict[str, Any]]]) -> None:
    """A page button: the message it is under shows the next page, in place; a refusal goes privately."""
    try:
        await interaction.response.edit_message(**await page(interaction.client.get_cog("Stats")))
    except Exception as error:
        await reply_error(interaction, error)


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<kind>[a-z_]+):(?P<seats>[0-9]):(?P<variant>[a-z_]*|-):(?P<mixed>[01]):(?P<page>[0-9]+)",
):
    """A leaderboard page: the custom id is the whole query (game, table size, variant, company, page)."""

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
            interaction, lambda cog: cog.leaderboard_page(interaction, *self.query, page_locale(interaction))
        )


# ---- /history and the replays -----------------------------------------------------------------------------------


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"hist:(?P<scope>[cg]):(?P<offset>[0-9]+):(?P<tag>[a-z])",
):
    """Older or newer games of the history (the channel's, c, or the server's, g)."""

    def __init__(self, scope: str, offset: int, tag: str, **options: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"hist:{scope}:{offset}:{tag}", **options))
        self.scope, self.offset = scope, offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryButton:
        return cls(match["scope"], int(match["offset"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await turn_page(
            interaction, lambda cog: cog.history_page(interaction, self.scope, self.offset, page_locale(interaction))
        )


class HistoryPick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"hist:pick"):
    """The history's menu of games: choosing one opens its replay, privately."""

    def __init__(self, options: list[discord.SelectOption] | None = None, locale: str = "en") -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="hist:pick",
                placeholder=render(_p("menu", "Watch the replay of a game…"), locale),
                options=options or [discord.SelectOption(label="-", value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPick:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            data: dict[str, Any] = dict(interaction.data or {})
            values = data.get("values") or ["0"]
            game = int(values[0]) if str(values[0]).isdigit() else 0
            cog: Stats = interaction.client.get_cog("Stats")
            locale = interaction.client.tables.languages.for_reader(interaction)
            await send(interaction, ephemeral=True, **await cog.replay_page(interaction, game, 0, locale))
        except Exception as error:
            await reply_error(interaction, error)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rp:(?P<game>[0-9]+):(?P<step>[0-9]+):(?P<tag>[a-z])",
):
    """A step of a replay: the custom id names the game and the move to show."""

    def __init__(self, game: int, step: int, tag: str, **options: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"rp:{game}:{step}:{tag}", **options))
        self.game, self.step = game, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await turn_page(
            interaction, lambda cog: cog.replay_page(interaction, self.game, self.step, page_locale(interaction))
        )


def history_line(game: EndedGame) -> Text:
    record = game.record
    values = {
        "number": record.id,
        "when": when(record.ended_at or record.started_at),
        "game": title(record.kind),
        "variant": variant_words(record.kind, record.variants),
        "players": people(record.players),
        "result": result_text(record),
    }
    if game.mixed:
        return _("`#{number}` {when} **{game}** ({variant}): {players} · {result} 🤖", **values)
    return _("`#{number}` {when} **{game}** ({variant}): {players} · {result}", **values)


def pick_label(record: GameRecord) -> Text:
    result = record.result or {}
    if record.status != "finished" or not result:
        outcome: Text = _("abandoned")
    elif "won" in result:
        outcome = _p("result", "won") if result.get("won") else score_text(record.kind, result.get("score"))
    else:
        outcome = _("finished")
    return _n(
        "#{number} {game}, {count} player: {outcome}",
        "#{number} {game}, {count} players: {outcome}",
        len(record.players),
        number=record.id,
        game=title(record.kind),
        outcome=outcome,
    )


def reveal(presenter: Any, state: Any, players: tuple[int, ...]) -> Localized:
    """Every seat's private view, now that the game is over: hands, chips."""
    return lines(
        *(_("{player}: {private}", player=mention(p), private=presenter.revealed_text(state, p)) for p in players)
    )


REPLAY_BUTTONS = (
    (_p("replay button", "⏮ Start"), "s", 0),
    (_p("replay button", "◀ Back"), "b", 0),
    (_p("replay button", "Next ▶"), "n", 0),
    (_p("replay button", "End ⏭"), "e", 0),
    (_p("replay button", "◀◀ 10 back"), "m", 1),
    (_p("replay button", "10 on ▶▶"), "p", 1),
)


def replay_buttons(game: int, step: int, last: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    targets = {"s": 0, "b": step - 1, "n": step + 1, "e": last, "m": step - 10, "p": step + 10}
    for label, tag, row in REPLAY_BUTTONS:
        target = max(0, min(last, targets[tag]))
        view.add_item(ReplayButton(game, target, tag, label=render(label, locale), disabled=target == step, row=row))
    return view


# ---- the cog ----------------------------------------------------------------------------------------------------


class Stats(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.min_games = MIN_GAMES

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LeaderboardButton, HistoryButton, HistoryPick, ReplayButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardButton, HistoryButton, HistoryPick, ReplayButton)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    def today(self) -> str:
        """Today's date (UTC) as the lobby deals it: the Lobby cog's clock, which tests may set."""
        lobby = self.bot.get_cog("Lobby")
        return (getattr(lobby, "today", None) or utc_today)().isoformat()

    # ---- /stats ---------------------------------------------------------------------------------------------

    @app_commands.command(name="stats", description="A player's statistics on this server (privately by default).")
    @app_commands.guild_only()
    @app_commands.describe(
        player="Whose statistics (default: yours)",
        public="Show them to the channel",
        chart="Add a chart of the results over time",
    )
    async def stats(
        self,
        interaction: discord.Interaction[Bot],
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
        interaction: discord.Interaction[Bot],
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
        interaction: discord.Interaction[Any],
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
        embed.set_footer(text=render(footer, locale))
        view = discord.ui.View(timeout=None)
        view.add_item(LeaderboardButton(kind, seats, variant, mixed, max(0, page - 1), label="◀", disabled=page == 0))
        view.add_item(LeaderboardButton(kind, seats, variant, mixed, page + 1, label="▶", disabled=page + 1 >= pages))
        toggle = _p("button", "People only") if mixed else _p("button", "With computer players")
        view.add_item(LeaderboardButton(kind, seats, variant, not mixed, 0, label=render(toggle, locale)))
        return {"embed": embed, "view": view}

    # ---- /history and the replays ---------------------------------------------------------------------------

    @app_commands.command(name="history", description="Recent games here, and their replays.")
    @app_commands.guild_only()
    @app_commands.describe(
        where="This channel's games (default) or the whole server's", public="Show it to the channel"
    )
    @app_commands.choices(
        where=[
            app_commands.Choice(name="this channel", value="channel"),
            app_commands.Choice(name="this server", value="server"),
        ]
    )
    async def history(
        self, interaction: discord.Interaction[Bot], where: str = "channel", public: bool = False
    ) -> None:
        page = await self.history_page(interaction, "g" if where == "server" else "c", 0, audience(interaction, public))
        await send(interaction, ephemeral=not public, **page)

    async def history_page(
        self, interaction: discord.Interaction[Any], scope: str, offset: int, locale: str
    ) -> dict[str, Any]:
        channel = None if scope == "g" else interaction.channel_id
        games = await self.bot.storage.ended_games(interaction.guild_id or 0, channel, PAGE + 1, offset)
        more, games = len(games) > PAGE, games[:PAGE]
        here = channel is None
        embed = discord.Embed(
            title=render(_("Recent games in this server") if here else _("Recent games in this channel"), locale),
            colour=COLOUR,
        )
        if not games:
            empty = (
                _("No game has ended in this server yet: start one with /newgame.")
                if here
                else _("No game has ended in this channel yet: start one with /newgame.")
            )
            embed.description = render(empty, locale)
        else:
            embed.description = shorten(render(lines(*(history_line(g) for g in games)), locale), 4096)
            embed.set_footer(
                text=render(
                    _("🤖 with computer players or autopilot turns. Choose a game below to watch its replay."), locale
                )
            )
        view = discord.ui.View(timeout=None)
        if games:
            options = [
                discord.SelectOption(label=shorten(render(pick_label(g.record), locale), 100), value=str(g.record.id))
                for g in games
            ]
            view.add_item(HistoryPick(options, locale))
        newer, older = render(_p("button", "◀ Newer"), locale), render(_p("button", "Older ▶"), locale)
        view.add_item(HistoryButton(scope, max(0, offset - PAGE), "n", label=newer, disabled=offset == 0, row=1))
        view.add_item(HistoryButton(scope, offset + PAGE, "o", label=older, disabled=not more, row=1))
        return {"embed": embed, "view": view}

    async def replay_page(
        self, interaction: discord.Interaction[Any], game_id: int, step: int, locale: str
    ) -> dict[str, Any]:
        """The game ``game_id`` after ``step`` moves, every hand shown: it is over."""
        record = await self.bot.storage.game(game_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError(_("I can't find that game on this server."))
        if record.is_open or record.started_at is None:
            raise UserError(_("That game isn't over yet: its replay opens when it ends."))
        presenter = self.bot.tables.presenters.get(record.kind)
        if presenter is None or record.damaged:
            raise UserError(_("That game can't be replayed on this bot."))
        game = presenter.game
        try:
            logged = await self.bot.storage.moves(record.id)
            moves = decode_moves(game, [(m.player, m.action) for m in logged])
            last = len(moves)
            step = max(0, min(step, last))
            state = replay(game, setup_of(record), moves[: max(0, step - 1)])
            before = state
            if step:
                move = moves[step - 1]
                state = game.apply(before, move.player, move.action)
        except (CorruptState, GameError, ValueError) as error:
            log.warning("Game %s cannot be replayed: %s", record.id, error)
            raise UserError(
                _("That game's log can't be replayed; it may come from another version of the bot.")
            ) from None
        parts: list[Localized] = [
            _(
                "**Replay of {game} `#{number}`** ({variant}) {when}: move {step} of {last}",
                game=title(record.kind),
                number=record.id,
                variant=variant_words(record.kind, record.variants),
                when=when(record.started_at),
                step=step,
                last=last,
            )
        ]
        if step == 0:
            parts.append(_("The deal, before the first move."))
        else:
            move = moves[step - 1]
            announced = presenter.announce(before, state, move.player, move.action)
            if logged[step - 1].auto:
                parts.append(_("{move} *(played by the autopilot)*", move=announced))
            else:
                parts.append(announced)
        parts.append(reveal(presenter, state, record.players))
        if step == last:
            if game.is_over(state):
                parts.append(presenter.game_over_text(state))
            else:
                parts.append(_("The game was ended here, without a score (abandoned)."))
        return {
            "content": shorten(render(lines(*parts), locale), 2000),
            "embed": presenter.board(state, locale),
            "view": replay_buttons(record.id, step, last, locale),
            "allowed_mentions": discord.AllowedMentions.none(),
        }

    # ---- /daily ---------------------------------------------------------------------------------------------

    @app_commands.command(name="daily", description="Today's daily deal: how every table here did with the same cards.")
    @app_commands.guild_only()
    @app_commands.describe(public="Show it to the channel")
    async def daily(self, interaction: discord.Interaction[Bot], public: bool = False) -> None:
        day = self.today()
        locale = audience(interaction, public)
        games = await self.bot.storage.daily_games(interaction.guild_id or 0, day)
        embed = discord.Embed(
            title=render(_("The daily deal of {day} (UTC)", day=i18n_day(date.fromisoformat(day))), locale),
            colour=COLOUR,
        )
        if not games:
            embed.description = render(
                _(
                    "No table here has finished today's deal yet. Play it with `/newgame deal:daily`: the same cards "
                    "on every server, one deal per game and number of players."
                ),
                locale,
            )
        groups: dict[tuple[str, int], list[GameRecord]] = {}
        for record in games:
            groups.setdefault((record.kind, len(record.players)), []).append(record)
        for (kind, seats), records in sorted(groups.items()):
            rows = []
            for r in sorted(records, key=rank_key):
                values = {"channel": f"<#{r.channel_id}>", "players": people(r.players), "result": result_text(r)}
                if any(map(is_ai, r.players)):
                    rows.append(_("{channel}: {players} · {result} 🤖", **values))
                else:
                    rows.append(_("{channel}: {players} · {result}", **values))
            embed.add_field(
                name=render(_n("{game}, {count} player", "{game}, {count} players", seats, game=title(kind)), locale),
                value=shorten(render(lines(*rows), locale), 1024),
                inline=False,
            )
        embed.set_footer(
            text=render(_("Each table's first try of the day counts. A new deal at midnight UTC."), locale)
        )
        await send(interaction, embed=embed, ephemeral=not public)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Stats(bot))
