"""Time mentions_number() per message on realistic game chat; prints median and 99th percentile in µs.

Run as ``python benchmarks/chat_filter.py``. The workload draws from the realistic part of the test corpus
(ordinary chat in four languages, mostly clean, some violations), so it measures the common path.
"""

from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from chatfilter import mentions_number
from tests.chatfilter.chat_corpus import REALISTIC

CALLS = 50_000
CLEAN_SHARE = 0.9  # most messages in a running game are clean


def workload(rng: random.Random) -> list[str]:
    clean = [text for text, label, _ in REALISTIC if label == 0]
    flagged = [text for text, label, _ in REALISTIC if label == 1]
    return [rng.choice(clean if rng.random() < CLEAN_SHARE else flagged) for _ in range(CALLS)]


def main() -> None:
    messages = workload(random.Random(37))
    for text in messages[:1000]:  # warm up
        mentions_number(text)
    timings: list[float] = []
    clock = time.perf_counter_ns
    for text in messages:
        start = clock()
        mentions_number(text)
        timings.append((clock() - start) / 1000)
    timings.sort()
    p99 = timings[int(len(timings) * 0.99)]
    print(f"{len(timings)} messages: median {statistics.median(timings):.1f} µs, p99 {p99:.1f} µs")


if __name__ == "__main__":
    main()
