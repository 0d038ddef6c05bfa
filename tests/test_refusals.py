"""``metrics.Refusals``: every request Discord refused is counted by route, and a route that keeps being refused is
logged once (issue 36: Discord bans an address after 10,000 refused requests in 10 minutes)."""

from __future__ import annotations

import logging

import pytest

import metrics


def test_a_route_names_no_id_and_no_token() -> None:
    assert (
        metrics.route_of("PATCH", "/api/v10/webhooks/12/aToken/messages/34")
        == "PATCH /webhooks/{id}/{token}/messages/{id}"
    )
    assert (
        metrics.route_of("POST", "/api/v10/interactions/12/aToken/callback")
        == "POST /interactions/{id}/{token}/callback"
    )
    assert metrics.route_of("POST", "/api/v10/channels/12/messages") == "POST /channels/{id}/messages"


def test_refusals_are_counted_and_a_route_refused_again_and_again_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refusals = metrics.Refusals()
    route = "POST /channels/{id}/messages"
    before = metrics.REFUSED.labels(route)._value.get()
    refusals.saw("POST", "/api/v10/channels/1/messages", 429)  # a rate limit is waited out, not refused
    refusals.saw("POST", "/api/v10/channels/1/messages", 500)
    with caplog.at_level(logging.WARNING, logger="metrics"):
        for _n in range(3 * metrics.KEEPS_FAILING):
            refusals.saw("POST", "/api/v10/channels/1/messages", 403)
    assert metrics.REFUSED.labels(route)._value.get() == before + 3 * metrics.KEEPS_FAILING
    assert [r.getMessage() for r in caplog.records] == [
        f"Discord refused {route} {metrics.KEEPS_FAILING} times in a row (last: 403)"
    ]
    refusals.saw("POST", "/api/v10/channels/1/messages", 200)
    assert refusals.in_a_row[route] == 0
