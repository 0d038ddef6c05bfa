"""The bot's CPU per action (and more) of an older commit against this checkout, measured in one run (issue 25).

Run from a checkout: ``python benchmarks/compare.py [OLD] [--new REF] [--runs 2] [-- LOAD.PY ARGUMENTS]``.

Machines here differ by 40% from run to run, so a figure measured on another day or machine says nothing about a
change. This script checks ``OLD`` (default 518a489, the reference of issue 25) out with ``git worktree add`` into a
temporary folder and runs each side's OWN ``benchmarks/load.py`` with the same arguments (default ``--games 200
--seconds 30``), alternating old, new, old, new, with the same Python and with ``PYTHONPATH`` set to that side's
tree (checked before the first run: ``bot``, ``cogs``, ``engine``, ``storage`` and the fake Discord must import
from the side's own folder, not from an editable install). The new side is the working tree, uncommitted changes
included, unless ``--new`` names a commit.

Each side's figures are those of its run with the lower bot CPU per action; the report gives both absolute figures
and their ratio (new / old), and for every run the machine's load average and the CPU that processes other than
the benchmark used meanwhile (from /proc/stat): a busy machine slows both sides, but not necessarily alike.

The REST requests per action are counted from the fake's own request log of the measured window, all of them
(interaction callbacks and webhooks included) and the "other" ones that count against Discord's rate limit; that
works with an old ``load.py`` too, since its ``classify`` is wrapped (see ``RUNNER``) instead of edited.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "518a489"
DEFAULT_LOAD_ARGS = ("--games", "200", "--seconds", "30")
MODULES = ("bot", "cogs", "engine", "storage", "tests.fake_discord")

# Runs a side's load.py as its own __main__ would, with its ``classify`` wrapped to count every request of the
# measured window (classify is handed exactly that window's requests, by every version of load.py so far).
RUNNER = """
import collections, importlib.util, json, sys
path = sys.argv[1]
sys.argv = sys.argv[1:]
spec = importlib.util.spec_from_file_location("load", path)
load = importlib.util.module_from_spec(spec)
sys.modules["load"] = load
spec.loader.exec_module(load)
classify = load.classify
def counting(requests, *args, **kwargs):
    interaction = sum(1 for request in requests if request.interaction_endpoint)
    print(f"compare: window requests {len(requests)}, interaction endpoints {interaction}", flush=True)
    routes = collections.Counter(f"{request.method} {request.route or request.path}" for request in requests)
    print("compare: window routes " + json.dumps(routes), flush=True)
    return classify(requests, *args, **kwargs)
load.classify = counting
sys.exit(load.main())
"""

# Where each module of a side was imported from, as JSON.
WHERE = "import importlib, json, sys; print(json.dumps({m: importlib.import_module(m).__file__ for m in sys.argv[1:]}))"

ROUTES = re.compile(r"^compare: window routes (\{.*\})$", re.MULTILINE)
FIGURES = {
    "cpu_ms": re.compile(r"^CPU in the window: bot \d+% of a core \(([\d.]+) ms per action\)", re.MULTILINE),
    "bot_core": re.compile(r"^CPU in the window: bot (\d+)% of a core", re.MULTILINE),
    "others_window": re.compile(r"^CPU in the window:.*other processes (\d+)%", re.MULTILINE),
    "actions_per_s": re.compile(r"^actions per second\s+([\d.]+)", re.MULTILINE),
    "other_requests": re.compile(r"^other REST requests per action\s+([\d.]+)", re.MULTILINE),
    "kb_per_game": re.compile(r"^memory per active game\s+(-?[\d.]+|nan) KB", re.MULTILINE),
    "rss_ready_mb": re.compile(r"^bot VmRSS after ready, no game\s+([\d.]+) MB", re.MULTILINE),
    "actions": re.compile(r"^The Game under load: .*, (\d+) actions$", re.MULTILINE),
    "p99_ms": re.compile(r"^\s+p99\s+([\d.]+) ms", re.MULTILINE),
    "window_requests": re.compile(r"^compare: window requests (\d+)", re.MULTILINE),
}


@dataclass
class Side:
    name: str  # "old" or "new"
    label: str  # the commit (or "working tree") it stands for
    tree: Path
    python: str = sys.executable
    runs: list[Run] = field(default_factory=list)

    def best(self) -> Run | None:
        measured = [run for run in self.runs if "cpu_ms" in run.figures]
        return min(measured, key=lambda run: run.figures["cpu_ms"]) if measured else None


@dataclass
class Run:
    side: str
    number: int
    figures: dict[str, float]
    exit_code: int
    seconds: float
    load_before: float  # 1-minute load average
    load_after: float
    others_cores: float  # CPU of every process but this benchmark's, in cores, over the run
    output: str
    routes: dict[str, int] = field(default_factory=dict)  # REST requests of the measured window by route

    def figure(self, key: str) -> float:
        if key == "requests_per_action":
            return self.figure("window_requests") / self.figure("actions")
        return self.figures.get(key, float("nan"))


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def machine_busy_seconds() -> float:
    """CPU time all processes of the machine used, summed over its CPUs (from /proc/stat)."""
    with open("/proc/stat", encoding="ascii") as file:
        fields = [int(value) for value in file.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds() -> float:
    """CPU of this process's waited-for descendants: load.py, and the bot processes it waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def side_env(tree: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONSTARTUP", None)
    return env


def own_environment(python: str, tree: Path) -> str:
    """The Python of a virtual environment holding exactly the dependencies ``tree``'s pyproject.toml declares.

    discord.py uses orjson and zstandard whenever they are installed, whichever commit runs: with one environment
    for both sides the old commit would run with the new one's dependencies, and the ratio would hide their gain."""
    with (tree / "pyproject.toml").open("rb") as file:
        dependencies = sorted(tomllib.load(file)["project"]["dependencies"])
    version = subprocess.run(
        [python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True, check=True
    )
    key = hashlib.sha256(json.dumps([version.stdout, dependencies]).encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardtable-compare"
    folder = cache / key
    interpreter = folder / "bin" / "python"
    if not (folder / "ready").exists():
        print(f"making an environment with {tree.name}'s dependencies in {folder} ...", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([python, "-m", "venv", str(folder)], check=True)
        subprocess.run([str(interpreter), "-m", "pip", "install", "--quiet", *dependencies], check=True)
        (folder / "ready").write_text("\n".join(dependencies) + "\n", encoding="utf-8")
    return str(interpreter)


def installed(python: str) -> set[str]:
    done = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True, check=False)
    return {line.strip() for line in done.stdout.splitlines() if line.strip()}


def side_has(tree: Path, module: str) -> bool:
    path = tree.joinpath(*module.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def check_imports(side: Side) -> None:
    """Refuse to measure a side whose code would come from elsewhere (say, the editable install of this checkout).

    Only the modules the side has are checked: an old commit without ``storage`` never imports it."""
    tree = side.tree
    present = [module for module in MODULES if side_has(tree, module)]
    done = subprocess.run(
        [side.python, "-c", WHERE, *present], cwd=tree, env=side_env(tree), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"cannot import the code of {tree}:\n{done.stderr[-2000:]}")
    where: dict[str, str] = json.loads(done.stdout)
    strays = {module: path for module, path in where.items() if not Path(path).resolve().is_relative_to(tree)}
    if strays:
        raise SystemExit(f"these modules do not import from {tree}: {strays}")


def measure(side: Side, number: int, load_args: Sequence[str], log_dir: Path) -> Run:
    load = side.tree / "benchmarks" / "load.py"
    print(f"[{side.name} #{number}] {side.label}: load.py {' '.join(load_args)} ...", flush=True)
    load_before = os.getloadavg()[0]
    busy, ours, started = machine_busy_seconds(), children_cpu_seconds(), time.monotonic()
    done = subprocess.run(
        [side.python, "-c", RUNNER, str(load), *load_args],
        cwd=side.tree,
        env=side_env(side.tree),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    seconds = time.monotonic() - started
    others = (machine_busy_seconds() - busy) - (children_cpu_seconds() - ours)
    run = Run(
        side=side.name,
        number=number,
        figures={},
        exit_code=done.returncode,
        seconds=seconds,
        load_before=load_before,
        load_after=os.getloadavg()[0],
        others_cores=max(0.0, others) / seconds,
        output=done.stdout,
    )
    (log_dir / f"{side.name}-{number}.txt").write_text(done.stdout, encoding="utf-8")
    for name, pattern in FIGURES.items():
        match = pattern.search(done.stdout)
        if match is not None:
            run.figures[name] = float(match.group(1))
    routes = ROUTES.search(done.stdout)
    if routes is not None:
        run.routes = json.loads(routes.group(1))
    if "cpu_ms" not in run.figures:
        print(f"  no figures (exit code {done.returncode}); the end of its output:\n{done.stdout[-3000:]}", flush=True)
    else:
        print(f"  {summary(run)}", flush=True)
    side.runs.append(run)
    return run


def summary(run: Run) -> str:
    return (
        f"{run.figure('cpu_ms'):.2f} ms CPU/action, {run.figure('actions_per_s'):.1f} actions/s, "
        f"{run.figure('requests_per_action'):.2f} requests/action, {run.figure('kb_per_game'):.1f} KB/game; "
        f"load {run.load_before:.1f} -> {run.load_after:.1f}, other processes {run.others_cores:.2f} cores"
        + ("" if run.exit_code == 0 else f" (load.py exit {run.exit_code}: a target missed or a problem, see its log)")
    )


def ratio(new: float, old: float) -> str:
    return f"{new / old:.2f}" if old and not math.isnan(old + new) else "-"


def report(old: Side, new: Side, load_args: Sequence[str], log_dir: Path) -> bool:
    a, b = old.best(), new.best()
    print()
    print(f"load.py {' '.join(load_args)}; {len(old.runs)} runs a side, alternating; each side's run with the lower")
    print(f"bot CPU per action counts. Python {sys.version.split()[0]}, {os.cpu_count()} CPUs.")
    print(f"Each run's output: {log_dir} (kept with --keep-logs)")
    if old.python != new.python:
        old_packages, new_packages = installed(old.python), installed(new.python)
        print(f"packages of the old side only: {', '.join(sorted(old_packages - new_packages)) or 'none'}")
        print(f"packages of the new side only: {', '.join(sorted(new_packages - old_packages)) or 'none'}")
    if a is None or b is None:
        print("a side has no measured run: no comparison")
        return False
    rows = [
        ("bot CPU per action, ms", "cpu_ms", "{:.2f}"),
        ("actions per second", "actions_per_s", "{:.1f}"),
        ("REST requests per action, all", "requests_per_action", "{:.3f}"),
        ("  others (rate-limited)", "other_requests", "{:.3f}"),
        ("bot RSS per active game, KB", "kb_per_game", "{:.1f}"),
        ("bot RSS after ready, MB", "rss_ready_mb", "{:.1f}"),
        ("slash command p99, ms", "p99_ms", "{:.1f}"),
    ]
    width = max(len(row[0]) for row in rows)
    old_head, new_head = f"old {old.label}", f"new {new.label}"
    column = max(len(old_head), len(new_head), 10)
    print()
    print(f"{'':{width}}  {old_head:>{column}}  {new_head:>{column}}  new/old")
    for label, key, style in rows:
        before, after = a.figure(key), b.figure(key)
        shown = f"{style.format(before):>{column}}  {style.format(after):>{column}}"
        print(f"{label:<{width}}  {shown}  {ratio(after, before)}")
    print()
    print("REST requests per action by route (the runs above):")
    for route in sorted({*a.routes, *b.routes}, key=lambda route: -b.routes.get(route, 0)):
        before, after = a.routes.get(route, 0) / a.figure("actions"), b.routes.get(route, 0) / b.figure("actions")
        print(f"  {before:6.3f}  {after:6.3f}  {route}")
    print()
    print("every run (1-minute load average before -> after; CPU of other processes during the run):")
    for run in sorted([*old.runs, *new.runs], key=lambda run: (run.number, run.side != "old")):
        cpu = f"{run.figure('cpu_ms'):.2f} ms/action" if "cpu_ms" in run.figures else "no figures"
        print(
            f"  {run.side} #{run.number}: {cpu}, load {run.load_before:.2f} -> {run.load_after:.2f}, other processes "
            f"{run.others_cores:.2f} cores over the run, {run.figure('others_window'):.0f}% of a core "
            f"in the measured window"
        )
    return True


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[str]]:
    argv = list(sys.argv[1:] if argv is None else argv)
    load_args = list(DEFAULT_LOAD_ARGS)
    if "--" in argv:
        cut = argv.index("--")
        argv, load_args = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("old", nargs="?", default=REFERENCE, help=f"the older commit (default {REFERENCE})")
    parser.add_argument("--new", default=None, help="a commit for the new side (default: this working tree)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each side, alternating (default 2)")
    parser.add_argument("--python", default=sys.executable, help="the Python both sides run with (default: this one)")
    parser.add_argument(
        "--deps",
        choices=("own", "shared"),
        default="own",
        help="own (default): each side runs in a virtual environment with the dependencies of its own "
        "pyproject.toml, kept in ~/.cache/cardtable-compare; shared: both in --python's environment",
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep every run's output in the temporary folder")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args, load_args


def checkout(ref: str, into: Path) -> tuple[str, Path]:
    commit = git("rev-parse", "--verify", f"{ref}^{{commit}}")
    tree = into / commit[:9]
    git("worktree", "add", "--detach", str(tree), commit)
    return commit[:9], tree.resolve()


def main(argv: Sequence[str] | None = None) -> int:
    args, load_args = parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="cardtable-compare-"))
    log_dir = scratch / "logs"
    log_dir.mkdir()
    trees: list[Path] = []
    try:
        label, tree = checkout(args.old, scratch)
        trees.append(tree)
        old = Side("old", label, tree)
        if args.new is None:
            new = Side("new", "working tree", ROOT)
        else:
            label, tree = checkout(args.new, scratch)
            trees.append(tree)
            new = Side("new", label, tree)
        for side in (old, new):
            side.python = own_environment(args.python, side.tree) if args.deps == "own" else args.python
            check_imports(side)
        for number in range(1, args.runs + 1):
            for side in (old, new):
                measure(side, number, load_args, log_dir)
        return 0 if report(old, new, load_args, log_dir) else 1
    finally:
        for tree in trees:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
        if args.keep_logs:
            print(f"kept {log_dir}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
