"""Prometheus metrics and a health check for operators, served only when ``METRICS_PORT`` is set.

The counting API is a few plain functions any part of the bot may call, whether or not the endpoint is served
(an untouched counter costs nothing worth measuring)::

    observe_action(game, command, seconds)   # an interaction answered, and how long the answer took
    interaction(game, command)               # an interaction received (bot.py counts every one)
    dm_failed(reason)                        # "closed" (the user's DMs are shut) or "error" (Discord kept failing)
    refusals_trace()                         # pass to the client as http_trace: counts the requests Discord refused
    db_time(operation, seconds)              # one storage call (``time_storage`` wraps a driver to call it)

Errors are counted from the log: every record at ERROR or above, by logger, so each unexpected error anywhere (the
one error path logs it once) is counted without a call of its own.

``serve(bot, port)`` starts the endpoint in the bot's event loop (aiohttp, which discord.py already brings):
``/metrics`` for Prometheus, ``/health`` answering 200 while the gateway is connected and the database answers, else
503 with the reason, for Docker's HEALTHCHECK and load balancers.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
from collections import Counter as Tally
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram, generate_latest

from storage import Storage
from table.registry import GAMES, registered

log = logging.getLogger(__name__)

T = TypeVar("T")

# How long /health waits for the database before calling it down.
HEALTH_TIMEOUT_S = 2.0

INTERACTIONS = Counter(
    "cardtable_interactions", "Interactions received (slash commands and clicks)", ["game", "command"]
)
ACTIONS = Counter("cardtable_actions", "Interactions answered, by game and command", ["game", "command"])
# Discord allows three seconds for the first answer; the buckets resolve the range that matters below it.
ANSWER_SECONDS = Histogram(
    "cardtable_answer_seconds",
    "Time from an interaction's creation to its answer",
    ["game"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0),
)
OPEN_GAMES = Gauge("cardtable_open_games", "Lobbies and running games", ["game", "status"])
ERRORS = Counter("cardtable_errors", "Log records at ERROR or above (unexpected errors), by logger", ["logger"])
DMS_FAILED = Counter("cardtable_dms_failed", "Direct messages that could not be delivered", ["reason"])
REFUSED = Counter(
    "cardtable_refused_requests",
    "Requests Discord refused (4xx other than 429; Discord bans an address after 10,000 in 10 minutes), by route",
    ["route"],
)
# A route refused this many times in a row is logged once, as one line: something keeps repeating a refused request.
KEEPS_FAILING = 10
DB_SECONDS = Histogram(
    "cardtable_database_seconds",
    "Time spent in each storage call",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
QUEUED = Gauge("cardtable_queued_interactions", "Interactions waiting for the bot to have room for them")
DROPPED = Counter(
    "cardtable_dropped_interactions", "Interactions that reached the bot after Discord's 3 s, too late to answer"
)
UP = Gauge(
    "cardtable_up", "1 while the part is working (gateway, database), as of the last scrape or health check", ["part"]
)


# The series of each game and command, looked up once: prometheus_client's ``labels`` checks and locks on every call,
# twice per action. The names are few (games times commands), so the caches stay small.
@functools.lru_cache(maxsize=1024)
def _received_series(game: str, command: str) -> Any:
    return INTERACTIONS.labels(game or "none", command or "unknown")


@functools.lru_cache(maxsize=1024)
def _answered_series(game: str, command: str) -> tuple[Any, Any]:
    return ACTIONS.labels(game or "none", command or "unknown"), ANSWER_SECONDS.labels(game or "none")


def interaction(game: str, command: str) -> None:
    _received_series(game, command).inc()


def observe_action(game: str, command: str, seconds: float) -> None:
    count, latency = _answered_series(game, command)
    count.inc()
    latency.observe(max(seconds, 0.0))


def dm_failed(reason: str) -> None:
    DMS_FAILED.labels(reason).inc()


def db_time(operation: str, seconds: float) -> None:
    DB_SECONDS.labels(operation).observe(seconds)


def received(item: discord.Interaction[Any]) -> None:
    interaction(*labels(item))


def answered(item: discord.Interaction[Any]) -> None:
    """``item`` was answered now: count it and its latency since Discord created it."""
    observe_action(*labels(item), time.time() - item.created_at.timestamp())


def labels(item: discord.Interaction[Any]) -> tuple[str, str]:
    """The game and command an interaction is about: the game whose registration's extension holds the command, or
    its ``game`` option; a button's custom_id prefix (``the_game:play`` -> the_game, play)."""
    if item.command is not None:
        module = getattr(item.command, "module", None)
        owner = next((hosted.kind for hosted in registered() if hosted.extension == module), None)
        chosen = getattr(item.namespace, "game", None)
        game = owner or (chosen if isinstance(chosen, str) and chosen in GAMES else "")
        return game, item.command.qualified_name
    data: dict[str, Any] = dict(item.data or {})
    # Ids carry game numbers and targets (rematch:12, vote:12:remove:3): only the first two words, no numbers, so
    # that the series stay few.
    words = [w for w in str(data.get("custom_id", "")).split(":") if w and not w.lstrip("-").isdecimal()][:2]
    if words and words[0] in GAMES:
        return words[0], ":".join(words[1:]) or words[0]
    return "", ":".join(words)


def route_of(method: str, path: str) -> str:
    """A request's kind: its method and path with ids and tokens left out (``PATCH /webhooks/{id}/{token}/...``)."""
    words = path.removeprefix("/api").split("/")
    if len(words) > 2 and words[1] == "v10":
        words = ["", *words[2:]]
    kinds = []
    for i, word in enumerate(words):
        secret = i > 1 and words[i - 2] in ("webhooks", "interactions") and words[i - 1].isdecimal()
        kinds.append("{token}" if secret else "{id}" if word.isdecimal() else word)
    return f"{method} {'/'.join(kinds)}"


class Refusals:
    """Counts the requests Discord refuses, by route, seen from aiohttp's side of every request discord.py makes
    (the bot's and its interactions'); a route refused ``KEEPS_FAILING`` times in a row is logged once, until one of
    its requests succeeds again. The parts that repeat requests (DMs, panels, boards) stop by themselves on a refusal;
    this is how an operator sees one that does not."""

    def __init__(self) -> None:
        self.in_a_row: Tally[str] = Tally()

    def trace(self) -> aiohttp.TraceConfig:
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._ended)
        return config

    async def _ended(self, session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        self.saw(params.method, params.url.path, params.response.status)

    def saw(self, method: str, path: str, status: int) -> None:
        refused = 400 <= status < 500 and status != 429
        if not refused and not self.in_a_row:
            return  # nearly every request: nothing refused to forget, and no route to work out
        route = route_of(method, path)
        if not refused:
            self.in_a_row.pop(route, None)
            return
        REFUSED.labels(route).inc()
        self.in_a_row[route] += 1
        if self.in_a_row[route] == KEEPS_FAILING:
            log.warning("Discord refused %s %d times in a row (last: %d)", route, KEEPS_FAILING, status)


def refusals_trace() -> aiohttp.TraceConfig:
    return Refusals().trace()


class ErrorCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.labels(record.name).inc()


_ERROR_COUNTER = ErrorCounter()


def time_storage(storage: T) -> T:
    """Time every public coroutine method of a storage driver into ``cardtable_database_seconds`` (in place)."""
    for name, _ in inspect.getmembers(type(storage), inspect.iscoroutinefunction):
        if name.startswith("_") or name == "close":
            continue
        setattr(storage, name, _timed(name, getattr(storage, name)))
    return storage


def _timed(name: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(call)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            DB_SECONDS.labels(name).observe(time.perf_counter() - started)

    return timed


def gateway_up(bot: discord.Client) -> bool:
    if bot.is_closed() or not bot.is_ready():
        return False
    if isinstance(bot, discord.AutoShardedClient):
        return all(not shard.is_closed() for shard in bot.shards.values())
    return bot.ws is not None and bot.ws.open


def storage_of(bot: discord.Client) -> Storage | None:
    return cast("Storage | None", bot.__dict__.get("storage"))


async def database_up(bot: discord.Client) -> bool:
    storage = storage_of(bot)
    if storage is None:
        return False
    try:
        await asyncio.wait_for(storage.get_meta("health"), HEALTH_TIMEOUT_S)
    except Exception:  # closed, unreachable, locked past the timeout: down, whatever the driver raises
        log.debug("Health check: the database does not answer", exc_info=True)
        return False
    return True


async def health(bot: discord.Client) -> list[str]:
    """What is down (empty: healthy)."""
    gateway, database = gateway_up(bot), await database_up(bot)
    UP.labels("gateway").set(gateway)
    UP.labels("database").set(database)
    return [part for part, up in (("gateway", gateway), ("database", database)) if not up]


async def count_open_games(bot: discord.Client) -> None:
    storage = storage_of(bot)
    if storage is None:
        return
    try:
        games = await asyncio.wait_for(storage.open_games(), HEALTH_TIMEOUT_S)
    except Exception:
        log.debug("Metrics: could not count the open games", exc_info=True)
        return
    counts = Tally((game.kind, game.status) for game in games)
    OPEN_GAMES.clear()  # a game that ended since the last scrape must not linger
    for (kind, status), count in counts.items():
        OPEN_GAMES.labels(kind, status).set(count)


@dataclass
class Endpoint:
    """The running HTTP endpoint; ``port`` is the one bound (``METRICS_PORT=0`` picks a free one)."""

    runner: web.AppRunner
    port: int

    async def close(self) -> None:
        logging.getLogger().removeHandler(_ERROR_COUNTER)
        await self.runner.cleanup()


async def listen(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Serve ``app`` on ``host:port`` without an access log (the bot's own port: metrics, the web table); a port that
    can't be had raises OSError and leaves nothing behind."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError:
        await runner.cleanup()
        raise
    return runner


async def serve(bot: discord.Client, port: int | None, host: str = "0.0.0.0") -> Endpoint | None:
    """Serve ``/metrics`` and ``/health`` on ``port`` (all interfaces: the container's port is published by
    choice); None without a port. Raises OSError if the port is taken."""
    if port is None:
        return None

    async def scrape(request: web.Request) -> web.Response:
        await health(bot)
        await count_open_games(bot)
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def check(request: web.Request) -> web.Response:
        down = await health(bot)
        if down:
            return web.Response(status=503, text=f"down: {', '.join(down)}\n")
        return web.Response(text="ok\n")

    app = web.Application()
    app.router.add_get("/metrics", scrape)
    app.router.add_get("/health", check)
    runner = await listen(app, host, port)
    bound = runner.addresses[0][1]
    logging.getLogger().addHandler(_ERROR_COUNTER)
    log.info("Metrics on http://%s:%d/metrics, health on /health", host, bound)
    return Endpoint(runner, int(bound))
