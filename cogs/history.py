"""/history and the replays: a channel's or server's ended games, and each one move by move with every hand shown.

Nothing here writes. Every page turns in place (the interaction edits its own message), and the buttons are dynamic
items whose custom ids carry all they need, so an old page still works after a restart. A daily deal's replay opens
when its UTC day is over (``cogs.daily``).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._cooldowns import posts_here_when_public
from cogs._pages import COLOUR, PAGE, audience, bound, page_locale, title, turn_page, variant_words, when
from cogs._results import hint_marked, people, result_text
from cogs._types import Interaction
from cogs._ui import Admitted, in_text_channel, reply_error
from cogs.daily import TODAYS_DEAL_CLOSED, hidden_today, today_of
from engine.errors import CorruptState, GameError
from engine.game import decode_moves, replay
from i18n import Localized, Text, _, _n, _p, lines, render
from storage import EndedGame, GameRecord
from table.answer import UserError, detached, send, shorten
from table.end_screen import END_REPLAY_ID, score_text
from table.games import setup_of
from table.people import mention
from table.registry import registration

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

HISTORY_TEMPLATE = r"hist:(?P<scope>[cg]):(?P<offset>[0-9]+):(?P<tag>[a-z])"
PICK_TEMPLATE = r"hist:pick"
REPLAY_TEMPLATE = r"rp:(?P<game>[0-9]+):(?P<step>[0-9]+):(?P<tag>[a-z])"
END_REPLAY_TEMPLATE = r"replay:(?P<game>[0-9]+)"


class HistoryButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=HISTORY_TEMPLATE,
):
    """Older or newer games of the history (the channel's, c, or the server's, g)."""

    cog: History | None = None  # the copy the cog registers answers the clicks (``bound``)

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
            interaction,
            self.cog,
            lambda cog: cog.history_page(interaction, self.scope, self.offset, page_locale(interaction)),
        )


class HistoryPick(Admitted, discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_TEMPLATE):
    """The history's menu of games: choosing one opens its replay, privately."""

    cog: History | None = None

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
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or ["0"]
        await open_replay(self.cog, interaction, int(values[0]) if str(values[0]).isdigit() else 0)


class ReplayButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=REPLAY_TEMPLATE,
):
    """A step of a replay: the custom id names the game and the move to show."""

    cog: History | None = None

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
            interaction,
            self.cog,
            lambda cog: cog.replay_page(interaction, self.game, self.step, page_locale(interaction)),
        )


class EndReplayButton(Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=END_REPLAY_TEMPLATE):
    """The Replay button under an end screen (``table.end_screen.replay_button``): the game's replay, privately."""

    cog: History | None = None

    def __init__(self, game: int) -> None:
        # Matched by custom id only: the end screen's own button carries the label, in the table's language.
        super().__init__(discord.ui.Button(custom_id=END_REPLAY_ID.format(game=game)))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EndReplayButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await open_replay(self.cog, interaction, self.game)


async def open_replay(cog: History | None, interaction: Interaction, game: int) -> None:
    """A game's replay from its first move, privately, in the reader's language; a refusal goes privately too."""
    try:
        assert cog is not None, "clicks reach the copy of the item the cog registered"
        locale = interaction.client.tables.languages.for_reader(interaction)
        await send(interaction, ephemeral=True, **await cog.replay_page(interaction, game, 0, locale))
    except Exception as error:
        await reply_error(interaction, error)


def history_line(game: EndedGame, closed: bool = False) -> Text | Localized:
    """One ended game; marked 💡 when somebody took a Hint, and 🔒 (``closed``) when it is today's daily deal (its
    replay opens tomorrow)."""
    line = hint_marked(game.record, game_line(game))
    return _("{line} 🔒", line=line) if closed else line


def game_line(game: EndedGame) -> Text:
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
    result = record.result
    if record.status != "finished" or result is None:
        outcome: Text = _("abandoned")
    elif result.team:
        outcome = _p("result", "won") if result.won else score_text(record.kind, result.score)
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
    return detached(view)  # the bound copies registered by the cog answer its clicks


class History(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        # Copies bound to this cog: a click reaches it without looking it up by name.
        self.items = (
            bound(HistoryButton, HISTORY_TEMPLATE, self),
            bound(HistoryPick, PICK_TEMPLATE, self),
            bound(ReplayButton, REPLAY_TEMPLATE, self),
            bound(EndReplayButton, END_REPLAY_TEMPLATE, self),
        )

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.items)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.items)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    @app_commands.command(name="history", description="Recent games here, and their replays.")
    @app_commands.guild_only()
    @posts_here_when_public()
    @app_commands.describe(
        where="This channel's games (default) or the whole server's", public="Show it to the channel"
    )
    @app_commands.choices(
        where=[
            app_commands.Choice(name="this channel", value="channel"),
            app_commands.Choice(name="this server", value="server"),
        ]
    )
    async def history(self, interaction: Interaction, where: str = "channel", public: bool = False) -> None:
        page = await self.history_page(interaction, "g" if where == "server" else "c", 0, audience(interaction, public))
        await send(interaction, ephemeral=not public, **page)

    async def history_page(self, interaction: Interaction, scope: str, offset: int, locale: str) -> dict[str, Any]:
        channel = None if scope == "g" else interaction.channel_id
        games = await self.bot.storage.ended_games(interaction.guild_id or 0, channel, PAGE + 1, offset)
        more, games = len(games) > PAGE, games[:PAGE]
        today = today_of(self.bot)
        hidden = {g.record.id for g in games if hidden_today(g.record, today)}
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
            rows = (history_line(g, g.record.id in hidden) for g in games)
            embed.description = shorten(render(lines(*rows), locale), 4096)
            footer: list[Localized] = [
                _("🤖 with computer players or autopilot turns. Choose a game below to watch its replay.")
            ]
            if any(g.record.hinted for g in games):
                footer.append(_("💡 hints used: left out of the leaderboards."))
            if hidden:
                footer.append(_("🔒 {closed}", closed=TODAYS_DEAL_CLOSED))
            embed.set_footer(text=render(lines(*footer), locale))
        view = discord.ui.View(timeout=None)
        # Today's daily deals stay out of the menu: their replays would show the cards to those yet to play them.
        shown = [g for g in games if g.record.id not in hidden]
        if shown:
            options = [
                discord.SelectOption(label=shorten(render(pick_label(g.record), locale), 100), value=str(g.record.id))
                for g in shown
            ]
            view.add_item(HistoryPick(options, locale))
        newer, older = render(_p("button", "◀ Newer"), locale), render(_p("button", "Older ▶"), locale)
        view.add_item(HistoryButton(scope, max(0, offset - PAGE), "n", label=newer, disabled=offset == 0, row=1))
        view.add_item(HistoryButton(scope, offset + PAGE, "o", label=older, disabled=not more, row=1))
        return {"embed": embed, "view": detached(view)}

    async def replay_page(self, interaction: Interaction, game_id: int, step: int, locale: str) -> dict[str, Any]:
        """The game ``game_id`` after ``step`` moves, every hand shown: it is over."""
        record = await self.bot.storage.game(game_id)
        if record is None or record.guild_id != interaction.guild_id:
            raise UserError(_("I can't find that game on this server."))
        if record.is_open or record.started_at is None:
            raise UserError(_("That game isn't over yet: its replay opens when it ends."))
        if hidden_today(record, today_of(self.bot)):
            raise UserError(TODAYS_DEAL_CLOSED)
        hosted = registration(record.kind)
        if hosted is None or record.damaged:
            raise UserError(_("That game can't be replayed on this bot."))
        presenter, game = hosted.presenter, hosted.game
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


async def setup(bot: Bot) -> None:
    await bot.add_cog(History(bot))
