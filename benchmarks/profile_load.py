"""Where the bot's CPU goes under ``benchmarks/load.py``, by part: aiohttp, asyncio, discord.py, ... (issue 25).

Run from a checkout: ``python benchmarks/profile_load.py [--seconds 20] [--all-threads] [-- LOAD.PY OPTIONS]``
(needs ``py-spy``: ``pip install py-spy``; attaching to another process may need root or
``kernel.yama.ptrace_scope=0``).

It runs ``load.py`` (default ``--games 200 --seconds 30``), and once the measured window opens it samples the bot's
process with ``py-spy record`` for ``--seconds``: by default only the threads holding the GIL (``--gil``), which is
the CPU the event loop and the database thread compete for; ``--all-threads`` samples every thread that is not idle
instead (the database thread's time inside SQLite included). Each sample is charged to the part of its innermost
frame (its "self" time): the bot's own code (``table/``, ``i18n/``, ``bot.py``, ``cogs/``, ``engine/``,
``storage/``), discord.py, aiohttp, asyncio's loop (with ``selectors``), aiosqlite, SQLite, JSON, logging, the rest of
the standard library, other packages. It also prints the top functions by self time.

``--tree`` and ``--python`` profile another checkout with another interpreter (say, an older commit in a
``git worktree`` with the environment ``benchmarks/compare.py`` made for it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LOAD_ARGS = ("--games", "200", "--seconds", "30")
BOT_PID = re.compile(r"bot ready \(pid (\d+)")
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>.*?)(?::(?P<line>\d+))?\)$")

# (part, pattern on the frame's file as py-spy names it: relative to its sys.path entry), first match wins. A sample
# whose innermost Python frame is the event loop's run call (asyncio.Runner.run) is time inside the loop's own C code
# (uvloop) or its selector.
PARTS = (
    ("the bot: engine", re.compile(r"(^|/)engine/")),
    ("the bot: storage", re.compile(r"(^|/)storage/")),
    ("the bot: table", re.compile(r"(^|/)table/")),
    ("the bot: i18n", re.compile(r"(^|/)i18n/")),
    ("the bot: cogs, bot.py, metrics.py", re.compile(r"(^|/)cogs/|(^|/)(bot|metrics)\.py$")),
    ("discord.py", re.compile(r"(^|/)discord/")),
    ("aiohttp (with yarl, multidict)", re.compile(r"(^|/)(aiohttp|yarl|multidict|propcache|aiosignal|frozenlist)/")),
    ("aiosqlite hand-offs", re.compile(r"(^|/)aiosqlite/")),
    ("SQLite (sqlite3)", re.compile(r"(^|/)sqlite3/")),
    ("asyncio's loop and selector", re.compile(r"(^|/)(asyncio|uvloop)/|(^|/)selectors\.py$")),
    ("JSON (json, orjson)", re.compile(r"(^|/)json/|orjson")),
    ("logging", re.compile(r"(^|/)logging/")),
    ("threading, queue", re.compile(r"(^|/)(threading|queue)\.py$")),
)


def part_of(path: str) -> str:
    for name, pattern in PARTS:
        if pattern.search(path):
            return name
    return "everything else (standard library, other packages)"


def parse_frame(text: str) -> tuple[str, str]:
    match = FRAME.match(text.strip())
    if match is None:
        return text.strip(), ""
    return match["function"], match["file"]


def summarise(raw: str, top: int) -> str:
    """The share of each part by self time, and the top functions."""
    by_part: Counter[str] = Counter()
    by_function: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        samples = int(number)
        frames = [parse_frame(frame) for frame in stack.split(";") if frame]
        frames = [frame for frame in frames if frame[1]]  # drop thread names and process lines
        if not frames:
            continue
        function, file = frames[-1]
        total += samples
        by_part[part_of(file)] += samples
        short = "/".join(Path(file).parts[-2:])
        by_function[f"{function} ({short})"] += samples
    if not total:
        return "no samples"
    lines = [f"{total} samples; share by part (self time of the innermost frame):"]
    for name, samples in by_part.most_common():
        lines.append(f"  {samples / total:6.1%}  {name}")
    lines.append(f"top {top} functions by self time:")
    for name, samples in by_function.most_common(top):
        lines.append(f"  {samples / total:6.1%}  {name}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    load_args = list(DEFAULT_LOAD_ARGS)
    if "--" in argv:
        cut = argv.index("--")
        argv, load_args = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to sample (default 20)")
    parser.add_argument("--rate", type=int, default=200, help="samples per second (default 200)")
    parser.add_argument("--all-threads", action="store_true", help="every thread that is not idle, not only the GIL's")
    parser.add_argument("--top", type=int, default=25, help="how many functions to list (default 25)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose load.py runs (default: this one)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--output", type=Path, default=None, help="keep py-spy's raw stacks in this file")
    args = parser.parse_args(argv)
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("py-spy is not installed: pip install py-spy")

    tree = args.tree.resolve()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    load = subprocess.Popen(
        [args.python, str(tree / "benchmarks" / "load.py"), *load_args],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert load.stdout is not None
    output = Path(args.output or tempfile.mkstemp(prefix="cardtable-profile-", suffix=".txt")[1])
    pid, sampler = None, None
    printed: list[str] = []
    for line in load.stdout:
        printed.append(line)
        print(line, end="", flush=True)
        found = BOT_PID.search(line)
        if found:
            pid = int(found[1])
        if line.startswith("measuring") and pid is not None:
            command = [spy, "record", "--pid", str(pid), "--duration", f"{args.seconds:g}", "--rate", str(args.rate)]
            command += ["--format", "raw", "--output", str(output), "--nonblocking"]
            command += [] if args.all_threads else ["--gil"]
            sampler = threading.Thread(
                target=subprocess.run, args=(command,), kwargs={"capture_output": True, "check": False}
            )
            sampler.start()
    load.wait()
    if sampler is None:
        print("the measured window never opened: no profile")
        return 1
    sampler.join()
    print()
    print(f"py-spy, {'every busy thread' if args.all_threads else 'threads holding the GIL'}, {args.seconds:g} s:")
    print(summarise(output.read_text(encoding="utf-8") if output.exists() else "", args.top))
    if args.output is None:
        output.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
