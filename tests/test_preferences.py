"""A person's own preferences (/me, issue 38): read leniently, and each one set wins over the server's choice."""

from __future__ import annotations

import pytest

from cogs.the_game_panel import misclick_risks
from engine import the_game
from engine.ai.the_game_guard import regrets
from engine.game import Setup
from storage import GameRecord
from table import preferences
from table.boards import pings_on
from table.preferences import Preferences, guard_on, wants_pings

ANA, BEN = 310000000000000001, 310000000000000002


@pytest.fixture(autouse=True)
def nothing_read() -> None:
    preferences.reset()


@pytest.mark.parametrize(
    ("saved", "read"),
    [
        (None, Preferences()),
        ("", Preferences()),
        ("not json", Preferences()),
        ("[1, 2]", Preferences()),
        ('{"guard": false, "pings": true, "language": "de"}', Preferences(False, True, "de")),
        ('{"guard": "no", "pings": 0, "language": "xx"}', Preferences()),  # each bad value is unset
        ('{"guard": false, "newer": 3}', Preferences(guard=False)),
    ],
)
def test_saved_preferences_are_read_leniently(saved: str | None, read: Preferences) -> None:
    assert Preferences.from_json(saved) == read
    assert Preferences.from_json(read.to_json()) == read


def test_only_what_was_chosen_is_saved() -> None:
    assert Preferences(pings=False).to_json() == '{"pings": false}'


def test_a_persons_pings_win_over_the_servers_either_way() -> None:
    preferences._remember(ANA, Preferences(pings=True))
    preferences._remember(BEN, Preferences(pings=False))
    assert wants_pings(ANA, server_default=False)
    assert not wants_pings(BEN, server_default=True)
    record = GameRecord(
        id=1, channel_id=2, guild_id=3, kind="the_game", host_id=ANA, players=(ANA, BEN), variants=(), seed=1,
        rules_version=1, status="running", revision=1, moves=0, options={"pings": False},
    )  # fmt: skip
    assert pings_on(record, ANA)
    assert not pings_on(record, BEN)
    assert not pings_on(record)  # nobody named: the server's
    assert not pings_on(record, 999)  # somebody who chose nothing follows the server: off here
    assert wants_pings(999, server_default=True)


def test_a_guard_switched_off_never_asks_that_person() -> None:
    state = the_game.GAME.new_game(Setup((ANA, BEN), 10, frozenset(), the_game.INFO.rules_version))
    for player in (ANA, BEN):
        worse = regrets(the_game.observation(state, player))
        bad = max(worse, key=lambda play: worse[play])
        assert misclick_risks(the_game.observation(state, player), bad.card, bad.pile)
    preferences._remember(ANA, Preferences(guard=False))
    assert not guard_on(ANA)
    assert guard_on(BEN)
    worse = regrets(the_game.observation(state, ANA))
    bad = max(worse, key=lambda play: worse[play])
    assert misclick_risks(the_game.observation(state, ANA), bad.card, bad.pile) == []


class Remembered:
    """A storage that counts the preferences read."""

    def __init__(self, chosen: dict[str, str]) -> None:
        self.chosen, self.reads = chosen, 0

    async def get_meta(self, key: str) -> str | None:
        self.reads += 1
        return self.chosen.get(key)


async def test_memory_holds_every_choice_but_only_so_many_who_chose_nothing() -> None:
    everyone = range(1, preferences.PLAIN_KEPT + 1001)
    storage = Remembered({preferences.preferences_key(7): '{"guard": false}'})
    for user in everyone:
        await preferences.load(storage, user)  # type: ignore[arg-type]
    assert len(preferences._plain) == preferences.PLAIN_KEPT
    assert not guard_on(7)  # one who chose is never dropped, however many came after
    assert preferences.known(7)
    assert preferences.known(everyone[-1])
    assert not preferences.known(1)
    assert preferences.preferences_of(1) == Preferences()  # forgotten: the same answer, read again when they act
    reads = storage.reads
    await preferences.load(storage, 1)
    await preferences.load(storage, everyone[-1])
    assert storage.reads == reads + 1
