"""The table's votes on the player to move once they have missed a turn: autopilot for them, or remove them.

A majority of the people at the table (the target aside) decides. Each vote is recorded by compare-and-swap from the
row as it is, so two people voting at the same moment both count.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from i18n import Text, _, _p, render
from storage import GameRecord
from table.answer import Interaction, UserError, send
from table.clock import TurnClock
from table.games import Games
from table.language import Languages
from table.options import options_of
from table.people import is_ai, mention
from table.presenter import SomePresenter
from table.seats import Seats

VOTE_KINDS = ("autopilot", "remove")
VOTE_LABELS = {
    "autopilot": _p("button", "Let the autopilot play for them"),
    "remove": _p("button", "Vote them out of the game"),
}


def vote_target(record: GameRecord, state: object, presenter: SomePresenter) -> int | None:
    """The player the table may vote on: the player to move, once they have missed a turn (not on autopilot)."""
    mover = presenter.game.current_player(state)
    options = options_of(record)
    if mover is None or is_ai(mover) or not options.misses.get(mover) or mover in options.autopilot:
        return None
    return int(mover)


def vote_buttons(
    record: GameRecord, state: object, presenter: SomePresenter, locale: str
) -> list[discord.ui.Button[discord.ui.View]]:
    """Under the board, once the player to move has missed a turn: the table's two votes."""
    mover = vote_target(record, state, presenter)
    if mover is None:
        return []
    return [
        discord.ui.Button(
            label=render(VOTE_LABELS["autopilot"], locale),
            style=discord.ButtonStyle.secondary,
            custom_id=f"vote:{record.id}:autopilot:{mover}",
            row=4,
        ),
        discord.ui.Button(
            label=render(VOTE_LABELS["remove"], locale),
            style=discord.ButtonStyle.danger,
            custom_id=f"vote:{record.id}:remove:{mover}",
            row=4,
        ),
    ]


class Votes:
    def __init__(self, games: Games, clock: TurnClock, seats: Seats, languages: Languages) -> None:
        self.games = games
        self.languages = languages
        self.clock = clock
        self.seats = seats

    async def vote(self, interaction: Interaction, game_id: int, kind: str, target: int) -> None:
        told, then = await self.cast(interaction.channel_id or 0, interaction.user.id, game_id, kind, target)
        await send(interaction, content=render(told, self.languages.for_reader(interaction)), ephemeral=True)
        if then is not None:
            await then()

    async def cast(
        self, channel_id: int, voter: int, game_id: int, kind: str, target: int
    ) -> tuple[Text, Callable[[], Awaitable[None]] | None]:
        """``voter``'s vote, committed: what to tell them, and what the table does once they are told (the decided
        vote carried out), if anything. Raises UserError, counting nothing, for a vote they may not cast."""
        live, presenter = await self.games.running(channel_id)
        game = presenter.game
        if live.record.id != game_id:
            raise UserError(_("That vote is from an earlier game."))
        people = [p for p in live.record.players if not is_ai(p) and p != target and game.legal_actions(live.state, p)]
        if voter not in people:
            raise UserError(_("Only the other players at the table can vote on this."))
        if not game.legal_actions(live.state, target):
            raise UserError(_("{player} is not at the table any more.", player=mention(target)))
        key = f"{kind}:{target}"
        needed = len(people) // 2 + 1
        tally: list[int] = []

        def count(record: GameRecord) -> dict[str, object]:
            options = options_of(record)
            votes = {k: set(v) for k, v in options.votes.items()}
            votes.setdefault(key, set()).add(voter)
            tally[:] = [len(votes[key])]
            changes: dict[str, object] = {}
            if len(votes[key]) >= needed:
                votes.pop(key)
                if kind == "autopilot":
                    changes["autopilot"] = options.autopilot | {target}
            return {"options": options.but(votes=votes, **changes)}

        record = await self.games.modify(game_id, count)
        if record is None:
            raise UserError(_("That vote is from an earlier game."))
        player = mention(target)
        said = vote_text(kind, player, tally[0], needed)
        if tally[0] < needed:
            return said, None
        return said, lambda: self._carry_out(record, presenter, kind, target)

    async def _carry_out(self, record: GameRecord, presenter: SomePresenter, kind: str, target: int) -> None:
        """The table decided: the seat goes on autopilot, or its player leaves the game."""
        player = mention(target)
        if kind == "autopilot":
            await self.clock.announce(
                record, _("The table put {player} on autopilot until they act again.", player=player)
            )
            # The stored row now has the seat on autopilot: its clock stops (no reminder), and the seat driver
            # plays the turn after its usual pause, not counted as missed.
            live = await self.games.live(record)
            await self.clock.restart(live, presenter, moved_on=True)
            self.seats.wake(record.kind, record.channel_id, record)
            return
        played = await self.games.play(record.channel_id, target, presenter.game.leave, auto=True)
        await self.seats.show(played, lambda move: _("🗳️ Voted out by the table: {move}", move=move))


def vote_text(kind: str, player: str | Text, votes: int, needed: int) -> Text:
    """What the voter hears: their vote counted so far, or what the table decided."""
    if votes >= needed:
        if kind == "autopilot":
            return _("The table agreed: the autopilot plays for {player}.", player=player)
        return _("The table agreed: {player} leaves the game.", player=player)
    if kind == "autopilot":
        return _(
            "Your vote is in: the autopilot plays for {player} once {needed} of you agree ({votes} so far).",
            player=player,
            votes=votes,
            needed=needed,
        )
    return _(
        "Your vote is in: {player} leaves the game once {needed} of you agree ({votes} so far).",
        player=player,
        votes=votes,
        needed=needed,
    )
