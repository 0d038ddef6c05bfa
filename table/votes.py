"""The table's votes on the player to move once they have missed a turn: autopilot for them, or remove them.

A majority of the people at the table (the target aside) decides. Each vote is recorded by compare-and-swap from the
row as it is, so two people voting at the same moment both count.
"""

from __future__ import annotations

import discord

from i18n import Text, _, _p, render
from storage import GameRecord
from table.answer import Interaction, UserError, send
from table.clock import TurnClock, autopilot, misses, options_with
from table.games import Games
from table.language import Languages
from table.people import is_ai, mention
from table.presenter import SomePresenter
from table.seats import Seats

VOTE_KINDS = ("autopilot", "remove")


def vote_buttons(
    record: GameRecord, state: object, presenter: SomePresenter, locale: str
) -> list[discord.ui.Button[discord.ui.View]]:
    """Under the board, once the player to move has missed a turn: the table's two votes."""
    mover = presenter.game.current_player(state)
    if mover is None or is_ai(mover) or not misses(record).get(mover) or mover in autopilot(record):
        return []
    return [
        discord.ui.Button(
            label=render(_p("button", "Vote: autopilot for the player to move"), locale),
            style=discord.ButtonStyle.secondary,
            custom_id=f"vote:{record.id}:autopilot:{mover}",
            row=4,
        ),
        discord.ui.Button(
            label=render(_p("button", "Vote: remove the player to move"), locale),
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
        live, presenter = await self.games.running(interaction.channel_id or 0)
        game = presenter.game
        voter = interaction.user.id
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
            votes = {k: set(v) for k, v in dict(record.options.get("votes", {})).items()}
            votes.setdefault(key, set()).add(voter)
            tally[:] = [len(votes[key])]
            changes: dict[str, object] = {}
            if len(votes[key]) >= needed:
                votes.pop(key)
                if kind == "autopilot":
                    changes["autopilot"] = autopilot(record) | {target}
            return {"options": options_with(record, votes={k: sorted(v) for k, v in votes.items()}, **changes)}

        record = await self.games.modify(game_id, count)
        if record is None:
            raise UserError(_("That vote is from an earlier game."))
        player = mention(target)
        said = vote_text(kind, player, tally[0], needed)
        await send(interaction, content=render(said, self.languages.for_reader(interaction)), ephemeral=True)
        if tally[0] >= needed:
            await self.carry_out(record, presenter, kind, target)

    async def carry_out(self, record: GameRecord, presenter: SomePresenter, kind: str, target: int) -> None:
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
        await self.seats.show(played, lambda move: _("The table voted {player} out: {move}", player=player, move=move))


def vote_text(kind: str, player: str | Text, votes: int, needed: int) -> Text:
    """What the voter hears: their vote counted so far, or what the table decided."""
    if votes >= needed:
        if kind == "autopilot":
            return _("The table voted for autopilot for {player}.", player=player)
        return _("The table voted for removing {player}.", player=player)
    if kind == "autopilot":
        return _(
            "Your vote for autopilot for {player} is in ({votes} of {needed} needed).",
            player=player,
            votes=votes,
            needed=needed,
        )
    return _(
        "Your vote for removing {player} is in ({votes} of {needed} needed).", player=player, votes=votes, needed=needed
    )
