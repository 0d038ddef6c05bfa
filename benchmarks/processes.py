"""Two bot processes on one PostgreSQL database against one process, per action (issue 39: at most 1.1 times).

Run from a checkout: ``python benchmarks/processes.py [--pairs 3] [-- LOAD.PY ARGUMENTS]``.

Each pair runs ``load.py --database-url throwaway`` (a temporary PostgreSQL server, see ``tests/postgres.py``) with
``--processes 1`` and then with ``--processes 2`` (two shards, one process each, sharing the database), with the same
games and seed, alternating so that a machine getting busier slows both sides alike. The figure of each run is the
bots' CPU per action (the processes summed, as ``load.py`` prints it); each pair gives a ratio, and the report shows
every pair's ratio, so that "stable" can be read off them, and their median.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LOAD_ARGS = ("--games", "200", "--players", "3", "--seconds", "30")
CPU = re.compile(r"^CPU in the window: bot \d+% of a core \(([\d.]+) ms per action\)", re.MULTILINE)
RATE = re.compile(r"^actions per second\s+([\d.]+)", re.MULTILINE)
OTHER = re.compile(r"^other REST requests per action\s+([\d.]+)", re.MULTILINE)


def run(processes: int, load_args: Sequence[str]) -> tuple[float, float, float]:
    """One load.py run: (bot CPU ms per action, actions per second, globally rate-limited requests per action)."""
    command = [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--database-url", "throwaway"]
    command += ["--processes", str(processes), *load_args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    output = done.stdout + done.stderr
    figures = [pattern.search(output) for pattern in (CPU, RATE, OTHER)]
    if not all(figures):
        raise SystemExit(f"load.py with {processes} process(es) printed no figures:\n{output[-3000:]}")
    cpu, rate, other = (float(match[1]) for match in figures if match)
    print(f"  {processes} process(es): {cpu:.2f} ms per action, {rate:.1f} actions/s, {other:.3f} other requests")
    return cpu, rate, other


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="alternating pairs of runs (default 3)")
    parser.add_argument("load_args", nargs="*", help="load.py arguments, after --")
    args = parser.parse_args(argv)
    load_args = args.load_args or list(DEFAULT_LOAD_ARGS)
    print(f"load.py {' '.join(load_args)} --database-url throwaway; {args.pairs} pairs, 1 then 2 processes")
    ratios = []
    for pair in range(1, args.pairs + 1):
        print(f"pair {pair}:", flush=True)
        one, two = run(1, load_args), run(2, load_args)
        ratios.append(two[0] / one[0])
        print(f"  two processes / one, CPU per action: {ratios[-1]:.2f}", flush=True)
    print(f"ratios {', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f} (target <= 1.1)")
    return 0 if statistics.median(ratios) <= 1.1 else 1


if __name__ == "__main__":
    sys.exit(main())
