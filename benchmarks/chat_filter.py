"""Time mentions_number() per message on realistic game chat; prints median and 99th percentile in µs.

Run as ``python benchmarks/chat_filter.py``. The workload draws from the realistic part of the test corpus
(ordinary chat in four languages, mostly clean, some violations), so it measures the common path.

The first line times every call once, as the bot meets them. On a busy machine its 99th percentile also counts
the moments the process waited for a core; the second line times each message of the workload three times in a
row and keeps the fastest, which is the filter's own cost without that wait. The last line is the slowest single
message of every corpus in tests/chatfilter (the labelled ones and the two generated ordinary chats), fastest of
five. The lines after it are the adversarial shapes of ``tests/chatfilter/adversarial.py`` (messages at Discord's
limit of 2,000 characters built to make one step of the filter work hardest): the slowest message of each shape,
fastest of five, against issue 40's limit of 1 ms.

``--compare /some/dir`` loads that copy *and* this one into one process and alternates them per message: for every
adversarial shape, the slowest message of each (fastest of seven calls) and the total time of the shape, new over
old, which a busy machine changes less than the absolute figures; then the median of the realistic messages (each
the fastest of thirty calls), old and new; ``--rounds N`` repeats it. Every message's verdicts are compared too.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from chatfilter import mentions_number
from tests.chatfilter.adversarial import adversarial_messages
from tests.chatfilter.chat_corpus import ALL_CASES, REALISTIC
from tests.chatfilter.chat_corpus_issue27 import ALL_ISSUE27
from tests.chatfilter.chat_corpus_issue40 import ALL_ISSUE40
from tests.chatfilter.chat_corpus_misspellings import ALL_NEW
from tests.chatfilter.chat_corpus_w5 import ALL_W5
from tests.chatfilter.ordinary_chat import LANGUAGES, ordinary_chat
from tests.chatfilter.table_talk import table_talk

CALLS = 50_000
CLEAN_SHARE = 0.9  # most messages in a running game are clean


def workload(rng: random.Random) -> list[str]:
    clean = [text for text, label, _ in REALISTIC if label == 0]
    flagged = [text for text, label, _ in REALISTIC if label == 1]
    return [rng.choice(clean if rng.random() < CLEAN_SHARE else flagged) for _ in range(CALLS)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", metavar="DIR", help="a folder holding another copy of the chatfilter package")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if args.compare:
        for _ in range(args.rounds):
            compare(_load(args.compare), mentions_number)
        return
    messages = workload(random.Random(37))
    for text in messages[:1000]:  # warm up
        mentions_number(text)
    clock = time.perf_counter_ns
    once: list[float] = []
    for text in messages:
        start = clock()
        mentions_number(text)
        once.append((clock() - start) / 1000)
    best: list[float] = []
    for text in messages:
        fastest = float("inf")
        for _ in range(3):
            start = clock()
            mentions_number(text)
            fastest = min(fastest, (clock() - start) / 1000)
        best.append(fastest)
    for label, timings in (("each call once", once), ("fastest of three", best)):
        timings.sort()
        p99 = timings[int(len(timings) * 0.99)]
        print(f"{len(timings)} messages, {label}: median {statistics.median(timings):.1f} µs, p99 {p99:.1f} µs")
    corpus = [text for text, *_ in (*ALL_CASES, *ALL_NEW, *ALL_ISSUE27, *ALL_ISSUE40, *ALL_W5)]
    corpus += [line for lang in LANGUAGES for line in (*ordinary_chat(lang), *table_talk(lang))]
    worst, worst_text = _slowest(corpus)
    print(f"{len(corpus)} corpus messages, slowest (fastest of five): {worst:.1f} µs for {worst_text[:60]!r}")
    for shape, texts in adversarial_messages().items():
        worst, worst_text = _slowest(texts)
        print(f"adversarial, {shape}: slowest of {len(texts)} (fastest of five) {worst:.1f} µs for {worst_text[:30]!r}")


def _slowest(texts: list[str]) -> tuple[float, str]:
    clock = time.perf_counter_ns
    worst, worst_text = 0.0, ""
    for text in texts:
        fastest = float("inf")
        for _ in range(5):
            start = clock()
            mentions_number(text)
            fastest = min(fastest, (clock() - start) / 1000)
        if fastest > worst:
            worst, worst_text = fastest, text
    return worst, worst_text


def _load(folder: str) -> Callable[[str], bool]:
    """``mentions_number`` of the chatfilter package in ``folder``, loaded beside this one: its modules are imported
    under the package's own name (they import each other by it) and then taken out of ``sys.modules`` again."""
    ours = {name: module for name, module in sys.modules.items() if name.partition(".")[0] == "chatfilter"}
    for name in ours:
        del sys.modules[name]
    sys.path.insert(0, folder)
    try:
        package = importlib.import_module("chatfilter")
        if not str(package.__file__).startswith(str(pathlib.Path(folder).resolve())):
            raise SystemExit(f"no chatfilter package in {folder}")
        other: Callable[[str], bool] = package.mentions_number
    finally:
        sys.path.remove(folder)
        for name in [name for name in sys.modules if name.partition(".")[0] == "chatfilter"]:
            del sys.modules[name]
        sys.modules.update(ours)
    return other


def _fastest(function: Callable[[str], bool], text: str, calls: int) -> float:
    clock = time.perf_counter_ns
    fastest = float("inf")
    for _ in range(calls):
        start = clock()
        function(text)
        fastest = min(fastest, (clock() - start) / 1000)
    return fastest


def compare(old: Callable[[str], bool], new: Callable[[str], bool]) -> None:
    """Old and new alternated per message: the slowest message of each shape and the shape's total, new over old;
    then the median of the realistic messages."""
    print(f"{'shape':24} {'old µs':>8} {'new µs':>8} {'total new/old':>14}")
    for shape, texts in adversarial_messages().items():
        worst_old = worst_new = total_old = total_new = 0.0
        for text in texts:
            assert old(text) == new(text), (shape, text[:40])
            before, after = _fastest(old, text, 7), _fastest(new, text, 7)
            worst_old, worst_new = max(worst_old, before), max(worst_new, after)
            total_old, total_new = total_old + before, total_new + after
        print(f"{shape:24} {worst_old:8.0f} {worst_new:8.0f} {total_new / total_old:14.2f}")
    realistic = [text for text, *_ in REALISTIC][:300]
    times_before: list[float] = []
    times_after: list[float] = []
    for text in realistic:
        assert old(text) == new(text), text
        times_before.append(_fastest(old, text, 30))
        times_after.append(_fastest(new, text, 30))
    print(
        f"{len(realistic)} realistic messages, fastest of thirty: median {statistics.median(times_before):.1f} µs "
        f"before, {statistics.median(times_after):.1f} µs after (mean {statistics.mean(times_before):.1f} and "
        f"{statistics.mean(times_after):.1f})"
    )


if __name__ == "__main__":
    main()
