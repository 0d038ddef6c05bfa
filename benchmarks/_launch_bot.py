"""Run the real bot (``bot.main()``, unmodified) against a fake Discord; started by ``benchmarks/load.py``.

The fake runs in another process, so its addresses come from the environment:

- ``FAKE_DISCORD_API``, ``FAKE_DISCORD_GATEWAY``, ``FAKE_DISCORD_CDN``: the fake's REST base (``.../api/v10``),
  gateway (``ws://...``) and CDN base; discord.py is pointed at them exactly as ``FakeDiscord.patch_discord`` does.
- ``BENCH_BOT_OPTIONS``: a JSON object of extra ``Bot(**options)`` keyword arguments, to try a change to ``bot.py``
  without editing it (e.g. ``{"max_messages": null}``). ``guild_ready_timeout`` defaults to 0.1 s here.
- ``BENCH_STATS_PATH``: on SIGUSR1 the bot process writes the sizes of discord.py's caches there as JSON
  (written from the signal handler, between two bytecodes of whatever the event loop was doing; only reads), with
  the number of hand-offs to aiosqlite's thread so far.
- ``BENCH_TRACEMALLOC=1``: the bot's Python allocations are traced (``tracemalloc``; the bot runs several times
  slower); the first SIGUSR1 keeps a snapshot, and every later one adds the lines whose allocations grew most since
  then (``tracemalloc_growth``) and the traced total (``tracemalloc_kb``): where memory per game goes.

``DISCORD_TOKEN``, ``DATABASE_PATH``, ``DATABASE_URL``, ``SHARD_COUNT`` and ``SHARD_IDS`` are read by ``bot.main()``
itself, as in production (``load.py --database-url``/``--processes`` and ``tests/e2e/test_shards.py`` set the last
three).
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import time
import tracemalloc
from pathlib import Path
from types import FrameType
from typing import Any

# The project root must come first: benchmarks/engine.py would otherwise shadow the ``engine`` package.
ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks":
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

import bot  # noqa: E402
import config  # noqa: E402
from tests.fake_discord import point_discord_at  # noqa: E402

_running: list[bot.Bot] = []


class GcTimer:
    """How often and how long the cyclic garbage collector stopped the bot, per generation."""

    def __init__(self) -> None:
        self.started = 0.0
        self.count = [0, 0, 0]
        self.total = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        generation, took = info["generation"], time.perf_counter() - self.started
        self.count[generation] += 1
        self.total[generation] += took
        self.longest[generation] = max(self.longest[generation], took)

    def stats(self) -> dict[str, Any]:
        return {
            "gc_collections": self.count,
            "gc_total_ms": [round(t * 1000, 1) for t in self.total],
            "gc_longest_ms": [round(t * 1000, 1) for t in self.longest],
        }


GC_TIMER = GcTimer()


class HandOffs:
    """How many times the bot handed work to aiosqlite's thread and waited for it (each statement, commit, fetch)."""

    def __init__(self) -> None:
        self.count = 0

    def install(self) -> None:
        import aiosqlite

        original: Any = aiosqlite.Connection._execute  # untyped in aiosqlite
        counter = self

        async def counted(connection: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
            counter.count += 1
            return await original(connection, fn, *args, **kwargs)

        aiosqlite.Connection._execute = counted  # type: ignore[method-assign,assignment]


HAND_OFFS = HandOffs()


def extra_options() -> dict[str, Any]:
    options: dict[str, Any] = {"guild_ready_timeout": 0.1}
    options.update(json.loads(os.environ.get("BENCH_BOT_OPTIONS") or "{}"))
    return options


def patch_bot_options(options: dict[str, Any]) -> None:
    """Make ``bot.main()`` construct its ``Bot`` with ``options`` on top of its own arguments."""
    original = bot.Bot.__init__

    def init(self: bot.Bot, settings: config.Settings, *, seed: int | None = None, **given: Any) -> None:
        original(self, settings, seed=seed, **{**given, **options})
        _running.append(self)

    bot.Bot.__init__ = init  # type: ignore[method-assign]


def cache_stats() -> dict[str, Any]:
    """Sizes of the caches that grow with games, channels or actions."""
    if not _running:
        return GC_TIMER.stats()
    client = _running[-1]
    state: Any = client._connection
    store = state._view_store
    tables = client.__dict__.get("tables")
    return {
        "messages_cached": len(state._messages) if state._messages is not None else None,
        "max_messages": state.max_messages,
        "private_channels": len(state._private_channels),
        "users": len(state._users),
        "guild_channels": sum(len(guild.channels) for guild in client.guilds),
        "view_store_message_views": len(store._synced_message_views),
        "view_store_dispatch_keys": len(store._views),
        "channel_locks": len(tables.games._locks) if tables is not None else None,
        "live_games": len(tables.games._live) if tables is not None else None,
        "gc_tracked_objects": len(gc.get_objects()),
        "aiosqlite_hand_offs": HAND_OFFS.count,
        **GC_TIMER.stats(),
    }


class Allocations:
    """What the bot's Python code holds more of than at the first look (``BENCH_TRACEMALLOC``)."""

    def __init__(self) -> None:
        self.first: tracemalloc.Snapshot | None = None

    def stats(self) -> dict[str, Any]:
        if not tracemalloc.is_tracing():
            return {}
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        if self.first is None:
            self.first = snapshot
            return {}
        # BENCH_TRACEMALLOC_FRAMES=N (N > 1): grouped by whole traceback, showing where each allocation was asked for.
        frames = tracemalloc.get_traceback_limit()
        growth = snapshot.compare_to(self.first, "traceback" if frames > 1 else "lineno")
        lines = int(os.environ.get("BENCH_TRACEMALLOC_LINES", "15"))
        return {
            "tracemalloc_kb": tracemalloc.get_traced_memory()[0] // 1024,
            "tracemalloc_growth": [
                f"{stat.size_diff // 1024:+} KB {stat.count_diff:+} blocks "
                + " <- ".join(str(frame) for frame in reversed(stat.traceback))
                for stat in growth[:lines]
            ],
        }


ALLOCATIONS = Allocations()


def write_stats(signum: int, frame: FrameType | None) -> None:
    path = os.environ.get("BENCH_STATS_PATH")
    if not path:
        return
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as file:
        json.dump({**cache_stats(), **ALLOCATIONS.stats()}, file)
    os.replace(tmp, path)


def main() -> None:
    patch_bot_options(extra_options())
    signal.signal(signal.SIGUSR1, write_stats)
    gc.callbacks.append(GC_TIMER)
    HAND_OFFS.install()
    env = os.environ
    if env.get("BENCH_TRACEMALLOC"):
        tracemalloc.start(int(env.get("BENCH_TRACEMALLOC_FRAMES", "1")))
    with point_discord_at(env["FAKE_DISCORD_API"], env["FAKE_DISCORD_GATEWAY"], env["FAKE_DISCORD_CDN"]):
        bot.main()


if __name__ == "__main__":
    main()
