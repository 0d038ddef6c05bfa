"""Clicks on a DM panel (``Registration.dm_panel``): the player's DM, played from like the channel's hand panel.

A DM has no guild and no game channel: the game is found from the game id in the button's custom id, and its
channel from the game. A click that only turns a page updates the DM in place (an interaction response: free of the
global rate limit); a move goes through ``Table.act`` like a click on the channel's panel, and its answer updates the
DM (``table.reply``). A DM of an earlier or finished game, or of somebody no longer seated, is answered privately.
"""

from __future__ import annotations

from i18n import Text, _, lines, render
from table.answer import Interaction, UserError, in_time, update
from table.courier import dm_panel_of
from table.games import Games
from table.language import Languages
from table.live import Live
from table.presenter import SomePresenter

DM_GAME_OVER = _("That game is over: its buttons no longer do anything.")
NOT_SEATED = _("You're not playing in that game.")


async def dm_game(games: Games, game_id: int, player: int) -> tuple[Live, SomePresenter]:
    """The running game a DM panel's button was made for, or a friendly refusal. From memory where this process
    runs it (a game that ends leaves the cache; a move is decided again on the stored game anyway)."""
    live = games.cached(game_id)
    record = live.record if live is not None else await games.storage.game(game_id)
    if record is None or record.status != "running" or dm_panel_of(record) is None:
        raise UserError(DM_GAME_OVER)
    if player not in record.players:
        raise UserError(NOT_SEATED)
    live = live or await games.live(record)
    presenter = games.presenter(live.record)
    if presenter.game.is_over(live.state):
        raise UserError(DM_GAME_OVER)
    return live, presenter


async def show_dm_page(
    interaction: Interaction,
    games: Games,
    languages: Languages,
    game_id: int,
    page: str | None,
    note: Text | None = None,
) -> None:
    """The clicked DM shows ``page`` of its panel (None: its resting page, with ``note`` under the hand), in place."""
    player = interaction.user.id
    async with in_time(interaction):
        live, _presenter = await dm_game(games, game_id, player)
        panel = dm_panel_of(live.record)
        assert panel is not None  # ``dm_game`` refuses a game without one
        locale = languages.for_reader(interaction)
        message = panel(live.record, live.state, player, page, locale, None)
        if note is not None:
            message["content"] = render(lines(message["content"], note), locale)
        await update(interaction, **message)
