"""How The Game reads to people (its presenter): the board and the panel it shows, and the texts of a move, a
turn's log line, the start and the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.the_game_board import SIGNAL_WORDS, hand_line, render_board, variant_text
from cogs.the_game_panel import board_buttons, hand_panel
from engine import the_game
from engine.the_game import EndTurn, Leave, Play, State
from i18n import Localized, Text, _, _n, joined, lines
from storage import GameRecord
from table.people import mention
from table.presenter import Step

EXCELLENT = 10  # the rulebook's "excellent result": fewer than this many cards left
# The start text's last sentence: the DM panel (``the_game_panel.dm_panel``), where a phone keeps the hand in reach.
IN_YOUR_DMS = _("Your hand is also in your DMs, with the same buttons: you can play your whole turn from there.")

RULES = _(
    "**The Game**: a cooperative game. Together, lay all 98 cards (2 to 99) on four piles.\n"
    "- Piles **A** and **B** go up from 1: a card must be **higher** than the top card. Piles **C** and **D** go "
    "down from 100: a card must be **lower**.\n"
    "- **Backwards trick**: a card exactly ten lower on an up pile, or exactly ten higher on a down pile, is always "
    "legal.\n"
    "- On your turn press **My hand** under the board, choose a card, then its pile. Lay at least **two** cards "
    "(**three** in expert), then press **End turn** to draw back up. Once the draw pile is empty, one card is enough. "
    "You may lay more, up to your whole hand.\n"
    "- Until the first card is laid, anyone may start: whoever lays it takes the first turn.\n"
    "- **Never reveal numbers**: no digits or number words in the chat (the bot removes them). Hints are fine: "
    '"don\'t lay on A", "no big jump on C".\n'
    "- The game ends when the player to move cannot lay their minimum. Score: the cards not laid. 0 beats the game; "
    "fewer than 10 is excellent.\n"
    "- Variants: *expert* (minimum three), *smaller hands* (one card fewer each)."
)


def on_piles(laid: Sequence[tuple[str, Text | int]]) -> list[Localized]:
    """Cards laid, a pile's run together: ``35, 38 on A``, ``90 on C``."""
    runs: list[tuple[str, list[Text | int]]] = []
    for pile, card in laid:
        if runs and runs[-1][0] == pile:
            runs[-1][1].append(card)
        else:
            runs.append((pile, [card]))
    return [
        _("{cards} on {pile}", cards=joined([str(c) if isinstance(c, int) else c for c in cards], ", "), pile=pile)
        for pile, cards in runs
    ]


def note_signal(signals: dict[object, tuple[int, Localized | str]], player: int, signal: the_game.Signal) -> None:
    """Keep the latest signal of each pile (and each player's "nearly stuck"), with who raised it; the ones a player
    takes down are dropped."""
    if signal.kind == the_game.CLEAR:
        for gone in [k for k, (owner, _text) in signals.items() if owner == player and signal.pile in (None, k)]:
            del signals[gone]
        return
    symbol = SIGNAL_WORDS[signal.kind][0]
    key: object = player if signal.pile is None else signal.pile
    signals.pop(key, None)  # raised again: it moves to the end, as the latest
    # The symbol alone (the board under the line spells each signal out): a line stays short in every language.
    signals[key] = (player, f"{symbol} {mention(player) if signal.pile is None else signal.pile}")


class Presenter:
    """How The Game reads to people; see ``table.presenter.Presenter``."""

    game = the_game.GAME
    rules_text = RULES
    closed_dms_hint = _(
        "Open your DMs for this server (Privacy Settings > Direct Messages) to get your hand, or use /hand."
    )

    def board(self, state: State, locale: str) -> discord.Embed:
        return render_board(state, locale)

    def board_view(self, record: GameRecord, state: State, locale: str) -> discord.ui.View:
        return board_buttons(locale)

    def headline(self, state: State) -> Text | None:
        return None

    def private_text(self, state: State, player: int) -> Text:
        return hand_line(the_game.hand(state, player))

    def revealed_text(self, state: State, player: int) -> Text:
        cards = the_game.hand(state, player)
        if not cards:
            return _("hand: (no cards)")
        return _("hand: {cards}", cards=", ".join(str(card) for card in cards))

    def start_text(self, state: State) -> Localized:
        minimum = the_game.public_view(state).minimum
        teach = _n(
            "The Game begins ({variant}) with {players}! Press **My hand** under the board to see your cards and lay "
            "them: choose a card, then its pile. Anyone may lay the first card, and whoever does takes the first turn; "
            "lay at least {count} card each turn, then press **End turn**. No numbers in the chat from now on.",
            "The Game begins ({variant}) with {players}! Press **My hand** under the board to see your cards and lay "
            "them: choose a card, then its pile. Anyone may lay the first card, and whoever does takes the first turn; "
            "lay at least {count} cards each turn, then press **End turn**. No numbers in the chat from now on.",
            minimum,
            variant=variant_text(state),
            players=joined([mention(p) for p in state.players], ", "),
        )
        return joined([teach, IN_YOUR_DMS], " ")

    def announce(self, before: State, after: State, player: int, action: Any) -> Text:
        name = mention(player)
        if isinstance(action, the_game.Signal):
            if action.kind == the_game.CLEAR:
                if action.pile:
                    return _("{player} took down their signals on {pile}.", player=name, pile=action.pile)
                return _("{player} took down their signals.", player=name)
            symbol, words = SIGNAL_WORDS[action.kind]
            if action.pile:
                return _(
                    "{symbol} {player} signals on {pile}: {signal}.",
                    symbol=symbol,
                    player=name,
                    pile=action.pile,
                    signal=words,
                )
            return _("{symbol} {player} signals: {signal}.", symbol=symbol, player=name, signal=words)
        if isinstance(action, Play):
            trick = the_game.is_backwards_trick(action.pile, the_game.top(before, action.pile), action.card)
            view = the_game.public_view(after)
            owed = view.minimum - view.laid
            if not view.over and view.current_player == player and owed > 0:
                if trick:
                    return _n(
                        "{player} laid {card} on {pile}: backwards trick! {count} more to go this turn.",
                        "{player} laid {card} on {pile}: backwards trick! {count} more to go this turn.",
                        owed,
                        player=name,
                        card=action.card,
                        pile=action.pile,
                    )
                return _n(
                    "{player} laid {card} on {pile}. {count} more to go this turn.",
                    "{player} laid {card} on {pile}. {count} more to go this turn.",
                    owed,
                    player=name,
                    card=action.card,
                    pile=action.pile,
                )
            if trick:
                return _(
                    "{player} laid {card} on {pile}: backwards trick!", player=name, card=action.card, pile=action.pile
                )
            return _("{player} laid {card} on {pile}.", player=name, card=action.card, pile=action.pile)
        upcoming = the_game.current_player(after)
        if isinstance(action, Leave) and upcoming == the_game.current_player(before):
            upcoming = None  # somebody else left: the turn did not change
        elif the_game.is_over(after):
            upcoming = None
        if isinstance(action, EndTurn):
            drawn = len(the_game.hand(after, player)) - len(the_game.hand(before, player))
            if drawn and upcoming is not None:
                return _(
                    "{player} ended the turn and drew {drawn}. {next}, your turn.",
                    player=name,
                    drawn=drawn,
                    next=mention(upcoming),
                )
            if drawn:
                return _("{player} ended the turn and drew {drawn}.", player=name, drawn=drawn)
            if upcoming is not None:
                return _("{player} ended the turn. {next}, your turn.", player=name, next=mention(upcoming))
            return _("{player} ended the turn.", player=name)
        if upcoming is not None:
            return _(
                "{player} left the game; that hand was shuffled into the draw pile. {next}, your turn.",
                player=name,
                next=mention(upcoming),
            )
        return _("{player} left the game; that hand was shuffled into the draw pile.", player=name)

    def summary(self, steps: Sequence[Step]) -> Localized | None:
        """One line of the log: who laid which cards on which piles (a pile's cards together, backwards tricks
        marked) and drew how many, who left, then the signals standing at the end: one per pile, the latest (a
        signal taken down meanwhile is not told), so the line stays short whoever signals how often."""
        said: list[Localized] = []
        # pile (or the player, for "nearly stuck") -> who raised its latest signal, and the signal
        signals: dict[object, tuple[int, Localized | str]] = {}
        laid: list[tuple[str, Text | int]] = []  # (pile, card) in the order laid
        layer: int | None = None

        def close(drawn: int | None = None) -> None:
            # A run of one player's cards, with the end of their turn when it follows.
            if layer is None or not laid:
                return
            cards = joined(on_piles(laid), ", ")
            if drawn is None:
                said.append(_("{player} laid {cards}.", player=mention(layer), cards=cards))
            elif drawn:
                said.append(
                    _n(
                        "{player} laid {cards} and drew {count} card.",
                        "{player} laid {cards} and drew {count} cards.",
                        drawn,
                        player=mention(layer),
                        cards=cards,
                    )
                )
            else:
                said.append(_("{player} laid {cards} and ended the turn.", player=mention(layer), cards=cards))
            laid.clear()

        for step in steps:
            action, name = step.action, mention(step.player)
            if isinstance(action, Play):
                if layer != step.player:
                    close()
                layer = step.player
                trick = the_game.is_backwards_trick(action.pile, the_game.top(step.before, action.pile), action.card)
                laid.append((action.pile, _("{card} (trick)", card=action.card) if trick else action.card))
            elif isinstance(action, EndTurn):
                drawn = len(the_game.hand(step.after, step.player)) - len(the_game.hand(step.before, step.player))
                if layer == step.player and laid:
                    close(drawn)
                elif drawn:
                    close()
                    said.append(
                        _n(
                            "{player} ended the turn and drew {count} card.",
                            "{player} ended the turn and drew {count} cards.",
                            drawn,
                            player=name,
                        )
                    )
                else:
                    close()
                    said.append(_("{player} ended the turn.", player=name))
            elif isinstance(action, Leave):
                close()
                said.append(_("{player} left the game; that hand was shuffled into the draw pile.", player=name))
                for key in [k for k, (owner, _text) in signals.items() if owner == step.player]:
                    del signals[key]
            elif isinstance(action, the_game.Signal):
                note_signal(signals, step.player, action)
        close()
        if signals:
            said.append(_("Signals: {signals}.", signals=joined([text for _owner, text in signals.values()], ", ")))
        return joined(said, " ") if said else None

    def game_over_text(self, state: State) -> Localized:
        if state.status == "abandoned":
            return _("**Game over**: everybody left, so the game is abandoned and records no score.")
        summary = the_game.summary(state)
        left = the_game.score(state)
        if left == 0:
            verdict = _("You won: every card is laid, you beat The Game!")
        elif left < EXCELLENT:
            verdict = _("An excellent result (fewer than ten)!")
        else:
            verdict = _("The piles are blocked; better luck next time.")
        piles = ", ".join(f"{name} {length}" for name, length in zip(the_game.PILES, summary.pile_lengths, strict=True))
        parts: list[Localized] = [
            _n(
                "**Game over**: {count} card not laid. {verdict}",
                "**Game over**: {count} cards not laid. {verdict}",
                left,
                verdict=verdict,
            )
        ]
        if state.status == "lost" and state.turn is not None:
            parts.append(
                _n(
                    "{player} was stuck: the turn needed {count} more card, and none of theirs fit.",
                    "{player} was stuck: the turn needed {count} more cards, and none of theirs fit.",
                    state.minimum - state.laid,
                    player=mention(state.players[state.turn]),
                )
            )
        # Now that it is over, the hands may be shown.
        for player, cards, gone in zip(state.players, state.hands, state.left, strict=True):
            if cards and not gone:
                parts.append(
                    _("{player} still held {cards}.", player=mention(player), cards=", ".join(map(str, cards)))
                )
        if state.draw_pile:
            parts.append(
                _n(
                    "{count} card stayed in the draw pile.",
                    "{count} cards stayed in the draw pile.",
                    len(state.draw_pile),
                )
            )
        if state.closest is not None:
            playable, turn, player = state.closest
            parts.append(
                _n(
                    "Turns: {turns}. Backwards tricks: {tricks}. Cards per pile: {piles}. Closest call: turn {turn}, "
                    "when {player} could lay only {count} card.",
                    "Turns: {turns}. Backwards tricks: {tricks}. Cards per pile: {piles}. Closest call: turn {turn}, "
                    "when {player} could lay only {count} cards.",
                    playable,
                    turns=summary.turns,
                    tricks=summary.backwards_tricks,
                    piles=piles,
                    turn=turn,
                    player=mention(player),
                )
            )
        else:
            parts.append(
                _(
                    "Turns: {turns}. Backwards tricks: {tricks}. Cards per pile: {piles}.",
                    turns=summary.turns,
                    tricks=summary.backwards_tricks,
                    piles=piles,
                )
            )
        return lines(*parts)

    def new_board(self, before: State, after: State, player: int, action: Any) -> bool:
        # A new turn is the one moment worth a new message (and the one ping); cards and signals edit the board.
        return isinstance(action, EndTurn | Leave) and the_game.current_player(after) != the_game.current_player(before)

    def panel(self, record: GameRecord, state: State, player: int, page: str | None, locale: str) -> dict[str, Any]:
        return hand_panel(record, state, player, page, locale)

    def dm_due(self, before: State, after: State, player: int, action: Any) -> list[int]:
        # Even when the game ends right after the draw, and once the draw pile is empty (nothing drawn, but cards
        # laid from the channel's panel are gone): the DM, a panel of its own, shows the hand as it is.
        if isinstance(action, Leave):
            return [player]  # a leaver's DM loses its buttons
        if not isinstance(action, EndTurn):
            return []
        drew = the_game.hand(after, player) != the_game.hand(before, player)
        return [player] if drew or not after.draw_pile else []

    def show_after(self, before: State, after: State, player: int, action: Any) -> bool:
        # After every card, the last one too: the mover always sees what is left in their hand.
        return isinstance(action, Play)


PRESENTER = Presenter()
