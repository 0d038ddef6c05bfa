"""At most so many interactions are worked on at once; the rest wait their turn, deferred if they wait long."""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from prometheus_client import REGISTRY

import table.admission
from table.admission import ANSWERED_PRIVATELY, Admission


@pytest.fixture(autouse=True)
def impatient(monkeypatch: pytest.MonkeyPatch) -> None:
    """A queued interaction is deferred at once (the bot waits ``PATIENCE`` first)."""
    monkeypatch.setattr(table.admission, "PATIENCE", 0.0)


class Response:
    """Stands in for ``Interaction.response``: records deferrals, or refuses them as Discord does a dead token."""

    def __init__(self, dead: bool = False) -> None:
        self.deferrals: list[dict[str, Any]] = []
        self.dead = dead

    def is_done(self) -> bool:
        return bool(self.deferrals)

    async def defer(self, **kwargs: Any) -> None:
        if self.dead:
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, {"message": "Unknown interaction", "code": 10062})
        self.deferrals.append(kwargs)


def interaction(kind: discord.InteractionType = discord.InteractionType.application_command, **response: Any) -> Any:
    return SimpleNamespace(
        id=discord.utils.time_snowflake(discord.utils.utcnow()),  # arrived now
        type=kind,
        response=Response(**response),
        extras={},
        channel_id=5,
        message=None,
        command=None,
    )


@asynccontextmanager
async def place_held(admission: Admission) -> AsyncIterator[None]:
    """A handler holds a place until the block ends (with ``running=1``, the only one)."""
    held = asyncio.Event()

    async def hold() -> None:
        assert await admission.admit(interaction())
        await held.wait()

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    try:
        yield
    finally:
        held.set()
        await holder


async def test_a_free_place_is_taken_without_deferring_and_given_back_when_the_handler_ends() -> None:
    admission = Admission(running=1)
    first, second = interaction(), interaction()
    release = asyncio.Event()
    order: list[str] = []

    async def handle(name: str, item: Any) -> None:
        assert await admission.admit(item)
        order.append(f"{name} runs")
        await release.wait()
        order.append(f"{name} ends")

    one = asyncio.create_task(handle("first", first))
    await asyncio.sleep(0)
    two = asyncio.create_task(handle("second", second))
    for _ in range(5):
        await asyncio.sleep(0.01)
    assert order == ["first runs"]
    assert first.response.deferrals == []  # a free place: answered as ever, no deferral
    assert second.response.deferrals == [{"thinking": True, "ephemeral": False}]  # queued: acknowledged at once
    assert admission.waiting == 1
    release.set()
    await asyncio.gather(one, two)
    assert order == ["first runs", "first ends", "second runs", "second ends"]
    assert admission.waiting == 0
    # The place was given back: the next one takes it without a deferral.
    third = interaction()
    assert await asyncio.wait_for(asyncio.create_task(admission.admit(third)), 1)
    assert third.response.deferrals == []


async def test_a_queued_click_is_deferred_as_an_update_of_its_own_message() -> None:
    admission = Admission(running=1)
    async with place_held(admission):
        click = interaction(discord.InteractionType.component)
        click.message = SimpleNamespace(id=9)
        waiter = asyncio.create_task(admission.admit(click))
        await asyncio.sleep(0.05)
        assert click.response.deferrals == [{}]  # type 6: nothing the person sees changes until the answer
    assert await waiter


async def test_one_that_came_too_late_is_dropped_with_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    admission = Admission(running=1)
    late = interaction(dead=True)
    dropped = REGISTRY.get_sample_value("cardtable_dropped_interactions_total") or 0.0
    with caplog.at_level(logging.WARNING):
        async with place_held(admission):
            waiter = asyncio.create_task(admission.admit(late))
            await asyncio.sleep(0.05)
            assert [record.levelname for record in caplog.records] == ["WARNING"]  # said at once
            assert "after Discord's 3 s" in caplog.records[0].getMessage()
            assert REGISTRY.get_sample_value("cardtable_dropped_interactions_total") == dropped + 1
            assert REGISTRY.get_sample_value("cardtable_queued_interactions") == 1  # for the owner's dashboard
        assert not await waiter  # its turn comes, and goes to the next: nothing is done for it
    assert admission.waiting == 0
    assert REGISTRY.get_sample_value("cardtable_queued_interactions") == 0
    assert not admission.full


async def test_autocomplete_is_never_queued() -> None:
    admission = Admission(running=1)
    async with place_held(admission):
        typing = interaction(discord.InteractionType.autocomplete)
        assert await asyncio.wait_for(admission.admit(typing), 1)
        assert typing.response.deferrals == []


async def test_a_queued_command_whose_answer_is_private_thinks_privately() -> None:
    admission = Admission(running=1)
    hand = interaction()
    hand.command = SimpleNamespace(extras={ANSWERED_PRIVATELY: True})
    async with place_held(admission):
        waiter = asyncio.create_task(admission.admit(hand))
        await asyncio.sleep(0.05)
        assert hand.response.deferrals == [{"thinking": True, "ephemeral": True}]
    assert await waiter


async def test_a_short_wait_is_no_deferral(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table.admission, "PATIENCE", 0.5)
    admission = Admission(running=1)
    soon, next_one = interaction(), interaction()
    async with place_held(admission):
        waiters = [asyncio.create_task(admission.admit(soon)), asyncio.create_task(admission.admit(next_one))]
        await asyncio.sleep(0.05)
    assert await waiters[0]
    assert await waiters[1]
    # Places came free within PATIENCE: both answered as ever, with no deferral, even the one behind another.
    assert soon.response.deferrals == []
    assert next_one.response.deferrals == []


async def test_one_that_waited_elsewhere_is_deferred_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table.admission, "PATIENCE", 0.5)
    admission = Admission(running=1)
    late = interaction()
    late.id = discord.utils.time_snowflake(discord.utils.utcnow() - datetime.timedelta(seconds=2))  # 2 s on the way
    async with place_held(admission):
        waiter = asyncio.create_task(admission.admit(late))
        await asyncio.sleep(0.05)
        assert late.response.deferrals == [{"thinking": True, "ephemeral": False}]  # past the 1.5 s already
    assert await waiter
