"""The Game's private hand panel: the button under the board that opens it, the panel's pages (cards, piles,
signals, a question before a risky card) and what its buttons do, Hint's answer included."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord

from cogs._repeats import act_once
from cogs._types import Interaction
from cogs._ui import Admitted, ErrorHandlingView, reply_error
from cogs.the_game_board import DIRECTION, SIGNAL_SHORT, SIGNAL_WORDS, hand_line
from engine import the_game
from engine.ai.the_game_guard import regrets, worth_asking
from engine.the_game import EndTurn, Play, State
from i18n import Localized, Text, _, _n, _p, lines, render
from storage import GameRecord
from table import preferences
from table.answer import send
from table.buttons import Buttons, Press
from table.dm_panels import dm_game, show_dm_page
from table.panels import offers_hint
from table.people import mention
from table.preferences import guard_on
from table.presenter import Step

if TYPE_CHECKING:
    pass


def panel_button(game: int, verb: str, a: object = "", b: object = "", **options: Any) -> Press:
    return Press(f"tg:{game}:{verb}:{a}:{b}", **options)


# End turn on a DM panel out of turn (the DM cannot follow whose turn it is, so the button stays enabled).
NOT_YOUR_TURN_YET = _("It isn't your turn yet: End turn works once it is.")
# A leaver's DM keeps their last hand line and this, without buttons (the rules' own words for it).
LEFT = _("You left this game, so you can't act in it any more.")

CARD_PAGE = re.compile(r"card([0-9]+)")  # the panel's page choosing a pile for a card
LAY_PAGE = re.compile(r"lay([0-9]+)([A-D])")  # the panel's page asking before a risky card


def misclick_risks(
    observation: the_game.Observation, card: int, pile: str, judged: Mapping[Play, float] | None = None
) -> list[Text]:
    """Why laying ``card`` on ``pile`` takes one confirming click: it is clearly worse than the best lay this hand has
    by the computer player's own reckoning (less clearly, where somebody else asked to keep the pile). Empty for the
    hand's best lay, a good enough one, an illegal card (the rules refuse it), a backwards trick, and for a player
    who switched the guard off."""
    view, player = observation.view, observation.player
    if not guard_on(player):
        return []  # switched off for themselves (/me)
    top = next(p.top for p in view.piles if p.name == pile)
    if not the_game.is_legal(pile, top, card) or the_game.is_backwards_trick(pile, top, card):
        return []
    if not worth_asking(observation, Play(card, pile), judged):
        return []
    risks: list[Text] = [
        _("🛑 {player} asked not to lay on {pile}.", player=mention(mark.player), pile=pile)
        for mark in view.signals
        if mark.pile == pile and mark.kind == "dont_lay" and mark.player != player
    ]
    risks.append(
        _n(
            "That jumps {count} ({top} → {card}); another lay of your hand keeps more room.",
            "That jumps {count} ({top} → {card}); another lay of your hand keeps more room.",
            abs(card - top),
            top=top,
            card=card,
        )
    )
    return risks


def pile_button(
    game: int,
    observation: the_game.Observation,
    card: int,
    pile: the_game.PileView,
    my_turn: bool,
    label: Any,
    judged: Mapping[Play, float],
) -> Press:
    """A pile for the chosen card: the jump it would make (``A ↑ 35 → 38 (+3)``) and the signals on it; red when
    laying there asks first (``misclick_risks``), green for a backwards trick, disabled out of turn."""
    legal = the_game.is_legal(pile.name, pile.top, card)
    trick = legal and the_game.is_backwards_trick(pile.name, pile.top, card)
    arrow = "↑" if pile.ascending else "↓"
    if trick:
        text = _p("button", "{pile} {arrow} {top} · backwards trick!", pile=pile.name, arrow=arrow, top=pile.top)
    elif legal:
        text = _p(
            "button",
            "{pile} {arrow} {top} → {card} ({jump})",
            pile=pile.name,
            arrow=arrow,
            top=pile.top,
            card=card,
            jump=f"{card - pile.top:+d}",
        )
    else:
        text = _p("button", "{pile} {arrow} {top}", pile=pile.name, arrow=arrow, top=pile.top)
    icons = " ".join(SIGNAL_WORDS[mark.kind][0] for mark in observation.view.signals if mark.pile == pile.name)
    risky = bool(misclick_risks(observation, card, pile.name, judged))
    style = (
        discord.ButtonStyle.success if trick else discord.ButtonStyle.danger if risky else discord.ButtonStyle.primary
    )
    return panel_button(
        game,
        "pile",
        card,
        pile.name,
        label=f"{label(text)} {icons}" if icons else label(text),
        style=style,
        disabled=not (legal and my_turn),
        row=0,
    )


def hand_buttons(
    game: int,
    cards: tuple[int, ...],
    label: Callable[[Text], str],
    *,
    playable: Callable[[int], bool],
    can_end: bool,
    over: bool,
) -> list[Press]:
    """The hand page's buttons, in the channel's panel and in the DM alike: a card each, End turn, Signals…."""
    style = discord.ButtonStyle.primary
    buttons = [
        panel_button(game, "card", card, label=str(card), style=style, disabled=not playable(card), row=index // 5)
        for index, card in enumerate(cards)
    ]
    end = label(_p("button", "End turn"))
    buttons.append(panel_button(game, "end", label=end, style=discord.ButtonStyle.success, disabled=not can_end, row=2))
    buttons.append(panel_button(game, "page", "signals", label=label(_p("button", "Signals…")), disabled=over, row=2))
    return buttons


def done_line(step: Step | None, player: int) -> Text | None:
    """What the player's own move did, on their DM's resting page (nothing of the table, which others change)."""
    if step is None or step.player != player:
        return None
    if isinstance(step.action, Play):
        if the_game.is_backwards_trick(step.action.pile, the_game.top(step.before, step.action.pile), step.action.card):
            return _("You laid {card} on {pile}: backwards trick!", card=step.action.card, pile=step.action.pile)
        return _("You laid {card} on {pile}.", card=step.action.card, pile=step.action.pile)
    if isinstance(step.action, EndTurn):
        drawn = len(the_game.hand(step.after, player)) - len(the_game.hand(step.before, player))
        if drawn > 0:
            return _n(
                "You ended your turn and drew {count} card.", "You ended your turn and drew {count} cards.", drawn
            )
        return _("You ended your turn.")
    return None


def dm_panel(
    record: GameRecord, state: State, player: int, page: str | None, locale: str, done: Step | None
) -> dict[str, Any]:
    """The player's DM as a panel. Its resting page shows only what changes by the player's own moves (their hand,
    what they just did), so no one else's move needs a DM edit: every card and End turn stay enabled (out of turn a
    card opens its piles, disabled; End turn says, in place, that the turn is not theirs yet). Its other pages are
    the channel panel's (piles, a question before a risky card, signals), drawn fresh by each click; once the game
    is over, or the player left it, it has no button left."""
    cards = the_game.hand(state, player)
    chosen = CARD_PAGE.fullmatch(page or "") or LAY_PAGE.fullmatch(page or "")
    over, gone = the_game.is_over(state), state.left[state.players.index(player)]
    if (page == "signals" or (chosen is not None and int(chosen[1]) in cards)) and not (over or gone):
        return hand_panel(record, state, player, page, locale)
    ended = _("The game is over.") if over else LEFT if gone else None
    content = render(lines(hand_line(cards), done_line(done, player), ended), locale)
    if ended is not None:
        return {"content": content, "view": None}
    presses = hand_buttons(
        record.id, cards, lambda text: render(text, locale), playable=lambda card: True, can_end=True, over=False
    )
    return {"content": content, "view": Buttons(presses)}


def hand_panel(record: GameRecord, state: State, player: int, page: str | None, locale: str) -> dict[str, Any]:
    """The hand panel: a button per card; a card opens the pile buttons; the signals have a page of their own."""
    view = the_game.public_view(state)
    cards = the_game.hand(state, player)
    parts: list[Localized | str] = [
        hand_line(cards),
        _(
            "{piles} · draw pile {count}",
            piles=" · ".join(f"{p.name} {p.top}" for p in view.piles),
            count=view.draw_pile,
        ),
    ]
    if view.over:
        parts.append(_("The game is over."))
    elif view.current_player is None:
        parts.append(_("Anyone may lay the first card: choose one."))
    elif view.current_player == player:
        parts.append(_("Your turn: {laid} laid, at least {minimum}.", laid=view.laid, minimum=view.minimum))
    else:
        parts.append(_("{player} is playing.", player=mention(view.current_player)))

    def label(text: Text) -> str:
        return render(text, locale)

    buttons: list[Press] = []
    game = record.id
    back = label(_p("button", "Back"))
    my_turn = not view.over and view.current_player in (None, player)
    asked = LAY_PAGE.fullmatch(page or "")
    seat = the_game.observation(state, player)
    risks = [] if asked is None or not my_turn else misclick_risks(seat, int(asked[1]), asked[2])
    if asked is not None and not risks:
        page = f"card{asked[1]}"  # the question no longer stands (or the turn passed): back to the piles
    chosen = CARD_PAGE.fullmatch(page or "")
    if asked is not None and risks and int(asked[1]) in cards:
        card, pile_name = int(asked[1]), asked[2]
        parts.append(_("Lay {card} on {pile} anyway?", card=card, pile=pile_name))
        parts.extend(risks)
        anyway = label(_p("button", "Lay it anyway"))
        buttons.append(
            panel_button(game, "lay", card, pile_name, label=anyway, style=discord.ButtonStyle.danger, row=0)
        )
        buttons.append(panel_button(game, "card", card, label=back, style=discord.ButtonStyle.secondary, row=0))
    elif chosen is not None and int(chosen[1]) in cards:
        card = int(chosen[1])
        if my_turn:
            parts.append(_("Where does {card} go?", card=card))
        else:
            parts.append(_("Where could {card} go? You can lay it when your turn comes.", card=card))
        judged = regrets(seat)  # once for the four piles
        for pile in view.piles:
            buttons.append(pile_button(game, seat, card, pile, my_turn, label, judged))
        buttons.append(panel_button(game, "page", "main", label=back, style=discord.ButtonStyle.secondary, row=1))
    elif page == "signals":
        parts.append(_("Signals tell the table what you need, without numbers. Click one again to take it down."))
        active = {(m.kind, m.pile) for m in view.signals if m.player == player}
        for row, kind in enumerate(the_game.PILE_SIGNALS):
            for name in the_game.PILES:
                on = (kind, name) in active
                text = _p("button", "{pile}: {signal}", pile=name, signal=SIGNAL_SHORT[kind])
                style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
                buttons.append(panel_button(game, "sig", kind, name, label=label(text), style=style, row=row))
        on = ("nearly_stuck", None) in active
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        buttons.append(
            panel_button(game, "sig", "nearly_stuck", label=label(_p("button", "I'm nearly stuck")), style=style, row=3)
        )
        buttons.append(
            panel_button(
                game, "sig", "clear", label=label(_p("button", "Clear my signals")), disabled=not active, row=3
            )
        )
        buttons.append(panel_button(game, "page", "main", label=back, style=discord.ButtonStyle.secondary, row=3))
    else:
        tops = [(p.name, p.top) for p in view.piles]
        can_end = view.current_player == player and view.laid >= view.minimum and not view.over
        buttons.extend(
            hand_buttons(
                game,
                cards,
                label,
                # Enabled out of turn too: a panel left open is ready the moment the turn comes.
                playable=lambda card: not view.over and any(the_game.is_legal(n, top, card) for n, top in tops),
                can_end=can_end,
                over=view.over,
            )
        )
        buttons.append(
            panel_button(
                game,
                "page",
                "main",
                label=label(_p("button", "Refresh")),
                style=discord.ButtonStyle.secondary,
                row=2,
            )
        )
        if offers_hint(record):
            # Out of turn too (disabled), so the player knows it is there when the turn comes.
            # Its cost on the button itself, before anyone clicks.
            hint = label(_p("button", "Hint (this game won't rank for you)"))
            buttons.append(
                panel_button(game, "hint", label=hint, style=discord.ButtonStyle.secondary, disabled=not my_turn, row=2)
            )
    return {"content": render(lines(*parts), locale), "view": Buttons(buttons)}


def hint_text(state: State, action: the_game.Action, why: Text) -> Localized:
    """Hint's private answer: the computer player's card and pile for this seat (or the end of the turn), its one
    line of why, and what the hint cost (the button said so before the click)."""
    if isinstance(action, Play):
        top = the_game.top(state, action.pile)
        arrow = "↑" if DIRECTION[action.pile].startswith("↑") else "↓"
        move = _(
            "💡 Hint: lay {card} on {pile} {arrow} ({top} → {card}).",
            card=action.card,
            pile=action.pile,
            arrow=arrow,
            top=top,
        )
    else:
        assert isinstance(action, EndTurn)  # on the seat's turn the computer player lays or ends it, never signals
        move = _("💡 Hint: end your turn now.")
    return lines(move, why, _("This game no longer counts on your leaderboard; your partners' results still do."))


class PanelButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tg:(?P<game>[0-9]+):(?P<verb>card|pile|lay|end|page|sig|hint):(?P<a>[a-z_0-9]*):(?P<b>[A-D]?)",
):
    """A button of the private hand panel. Its custom id names the game, so a panel of an earlier game is refused;
    choosing a card or a page only redraws the panel, a pile, "End turn" or a signal acts. A pile that is risky at
    the moment of the click (``misclick_risks``) first asks; "Lay it anyway" (``lay``) then lays without asking.
    "Hint" answers with a private message of its own and leaves the panel as it is."""

    def __init__(self, game: int, verb: str, a: str, b: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tg:{game}:{verb}:{a}:{b}"))
        self.game, self.verb, self.a, self.b = game, verb, a, b

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelButton:
        return cls(int(match["game"]), match["verb"], match["a"], match["b"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs errors raised by dynamic items, so they join the one error path here.
        try:
            await self.act(interaction)
        except Exception as error:
            await reply_error(interaction, error)

    async def act(self, interaction: Interaction) -> None:
        tables = interaction.client.tables
        kind = the_game.INFO.kind
        await preferences.load(tables.storage, interaction.user.id)  # the guard follows their /me from the first click
        channel_id, in_dm = interaction.channel_id or 0, interaction.guild_id is None
        if in_dm:  # the player's DM panel: the game's channel comes from the game
            live, _presenter = await dm_game(tables.games, self.game, interaction.user.id)
            channel_id = live.record.channel_id
            if self.verb == "end" and the_game.current_player(live.state) != interaction.user.id:
                await show_dm_page(interaction, tables.games, tables.languages, self.game, None, NOT_YOUR_TURN_YET)
                return
        if self.verb == "hint":
            live, given = await tables.panels.hint(channel_id, interaction.user.id, kind, self.game)
            text = hint_text(live.state, given.action, given.why)
            await send(interaction, content=render(text, tables.languages.for_reader(interaction)), ephemeral=True)
            return
        page = None if self.verb in ("pile", "lay", "end") else "signals"
        if self.verb in ("card", "page"):
            page = f"card{self.a}" if self.verb == "card" else (None if self.a == "main" else self.a)
        elif self.verb == "pile" and await self.risky(interaction, channel_id):
            page = f"lay{self.a}{self.b}"
        else:
            # A signal click keeps the signals page open: the next signal is one more click.
            await act_once(
                interaction,
                await self.action(interaction, channel_id),
                kind,
                **where(self.game, page, in_dm, channel_id),
            )
            return
        if in_dm:
            await show_dm_page(interaction, tables.games, tables.languages, self.game, page)
        else:
            await tables.show_panel(interaction, kind, game=self.game, page=page)

    async def action(self, interaction: Interaction, channel_id: int) -> the_game.Action:
        """The move this button makes: a card on a pile, the end of the turn, or a signal raised or taken down."""
        if self.verb in ("pile", "lay"):
            return Play(int(self.a), self.b)
        if self.verb == "end":
            return EndTurn()
        live, _presenter = await interaction.client.tables.games.running(channel_id, the_game.INFO.kind)
        mine = {(m.kind, m.pile) for m in live.state.signals if m.player == interaction.user.id}
        pile = self.b or None
        # A signal that is up comes down with the same click.
        kind_clicked = the_game.CLEAR if (self.a, pile) in mine else self.a
        if self.a == the_game.CLEAR:
            pile = None
        return the_game.Signal(kind_clicked, pile)

    async def risky(self, interaction: Interaction, channel_id: int) -> bool:
        """Whether this pile click asks first: judged on the table as it is now, not as the panel was drawn. A
        click the rules would refuse is not asked about: it goes on to its refusal."""
        live, _presenter = await interaction.client.tables.games.running(channel_id, the_game.INFO.kind)
        view = the_game.public_view(live.state)
        player = interaction.user.id
        if live.record.id != self.game or view.current_player not in (None, player) or view.over:
            return False
        return bool(misclick_risks(the_game.observation(live.state, player), int(self.a), self.b))


def where(game: int, page: str | None, in_dm: bool, channel_id: int) -> dict[str, Any]:
    """Where a panel's move is made: the game it was made for, the page to show after, and, from a DM, the game's
    channel."""
    return {"game": game, "page": page, **({"channel": channel_id} if in_dm else {})}


# The custom id of the "My hand" button under every board: drawn by ``board_buttons``, answered by ``TheGameBoard``.
HAND_ID = "the_game:hand"


def board_buttons(locale: str) -> Buttons:
    """What goes under a board, as sent: ``TheGameBoard``'s button in the reader's language (one board per move, and
    its registered instance answers the clicks)."""
    label = render(_p("button", "My hand"), locale)
    return Buttons([Press(HAND_ID, label, discord.ButtonStyle.primary)])


class TheGameBoard(ErrorHandlingView):
    """The button under every board: a private look at one's own hand."""

    @discord.ui.button(label="My hand", style=discord.ButtonStyle.primary, custom_id=HAND_ID)
    async def hand_button(self, interaction: Interaction, button: discord.ui.Button[Any]) -> None:
        await preferences.load(interaction.client.storage, interaction.user.id)
        await interaction.client.tables.show_panel(interaction, the_game.INFO.kind)
