"""The product's parts import each other in one direction only: no import circle anywhere (an import inside a
function or under ``TYPE_CHECKING`` counts too), and each layer imports only the layers below it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("bot", "config", "startup", "metrics", "discord_internals", "games", "memory")
PACKAGES = ("cogs", "table", "engine", "storage", "i18n", "chatfilter", "web")
# What a layer may never import: the rules know nothing of the bot; the core knows no cog and never calls back into
# bot.py; storage knows no game flow. (Cogs name bot.Bot for typing; bot.py loads them by name, so no circle.)
# ``games`` (the registration lines) sits above the game adapters it names and below bot.py: the rest reads the
# registry (``table.registry``) it fills, and never imports it.
FORBIDDEN = {
    "engine": ("discord", "asyncio", "aiosqlite", "asyncpg", "storage", "table", "cogs", "bot", "web", "games"),
    "chatfilter": ("discord", "asyncio", "storage", "table", "cogs", "bot", "engine", "web", "games"),
    "storage": ("discord", "table", "cogs", "bot", "web", "games"),
    "i18n": ("table", "cogs", "bot", "storage", "web", "games"),
    "table": ("cogs", "bot", "web", "games"),
    "cogs": ("games",),
    # The web table is a front end beside the cogs: the core knows neither (it offers hooks), and it never calls
    # back into bot.py.
    "web": ("bot", "games"),
    "games": ("bot", "web"),
    # discord.py's private names, fenced: it needs nothing of the bot's own.
    "discord_internals": ("cogs", "table", "engine", "storage", "i18n", "chatfilter", "web", "bot", "config", "games"),
    # The process's memory: the collector and the C allocator, nothing of the bot's own.
    "memory": ("discord", "cogs", "table", "engine", "storage", "i18n", "chatfilter", "web", "bot", "config", "games"),
}


def modules() -> dict[str, Path]:
    found = {name: ROOT / f"{name}.py" for name in TOP if (ROOT / f"{name}.py").exists()}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")) if (ROOT / package).is_dir() else []:
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imported(name: str, path: Path) -> set[str]:
    """Every module ``path`` names in an import statement, wherever the statement stands."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, one package up per extra dot
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}".strip(".")
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = set()
        for target in imported(name, path):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        edges[name] = targets
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in edges:
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_in_the_product() -> None:
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_each_layer_imports_only_what_is_below_it() -> None:
    wrong = []
    for name, path in modules().items():
        layer = name.split(".")[0]
        for target in imported(name, path):
            top = target.split(".")[0]
            if top in FORBIDDEN.get(layer, ()):
                wrong.append(f"{name} imports {target}")
    assert wrong == []


# Issue 35: one registration per game. The generic core (``table``, the cogs that belong to no game, bot.py) names no
# game: no kind as a string, no import of a game's rules, computer player or adapter. A game's own modules are its
# rules (``engine.<kind>*``, ``engine.ai.<kind>*``) and its adapter (``cogs.<kind>*``).
GENERIC = ("table", "cogs", "bot")


def own_modules(kind: str, name: str) -> bool:
    return any(name == f"{package}.{kind}" or name.startswith(f"{package}.{kind}_") for package in ("cogs", "engine"))


def names_a_game(name: str, path: Path, kinds: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and node.value in kinds:
            found.append(f"{name}:{node.lineno} names {node.value!r}")
    for target in imported(name, path):
        if any(part in kinds for part in target.split(".")):
            found.append(f"{name} imports {target}")
    return found


def test_the_generic_core_names_no_game() -> None:
    from table.registry import REGISTRY

    kinds = set(REGISTRY)
    assert kinds == {"the_game", "no_thanks"}
    wrong = [
        problem
        for name, path in modules().items()
        if name.split(".")[0] in GENERIC and not any(own_modules(kind, name) for kind in kinds)
        for problem in names_a_game(name, path, kinds)
    ]
    assert wrong == []


def test_the_name_check_sees_a_game_named_in_the_core(tmp_path: Path) -> None:
    core = tmp_path / "core.py"
    core.write_text('from engine import the_game\nKIND = "no_thanks"\n', encoding="utf-8")
    assert names_a_game("table.core", core, {"the_game", "no_thanks"}) == [
        "table.core:2 names 'no_thanks'",
        "table.core imports engine.the_game",
    ]


# Issue 20: parts small enough to read. The game rules are exempt: each is one game's whole rulebook in one place.
MODULE_LINES, CLASS_LINES = 500, 300
RULEBOOKS = ("engine.the_game", "engine.no_thanks")


def oversized(name: str, path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    found = []
    if name not in RULEBOOKS and len(source.splitlines()) > MODULE_LINES:
        found.append(f"{name}: {len(source.splitlines())} lines")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
            length = node.end_lineno - node.lineno + 1
            if length > CLASS_LINES:
                found.append(f"{name}.{node.name}: {length} lines")
    return found


def test_no_module_or_class_outgrows_a_readable_size() -> None:
    assert [problem for name, path in modules().items() for problem in oversized(name, path)] == []


def test_the_size_check_sees_an_oversized_class(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_text("class Big:\n" + "    x = 1\n" * CLASS_LINES, encoding="utf-8")
    assert oversized("cogs.big", big) == [f"cogs.big.Big: {CLASS_LINES + 1} lines"]
    assert oversized("engine.the_game", big) == [f"engine.the_game.Big: {CLASS_LINES + 1} lines"]


# The core is read more than any other part: its functions fit on a screen, and its types say what flows through it
# (``Any`` only where a game's own state or action passes through untouched, named once: ``SomePresenter``...).
CORE_FUNCTION_LINES, CORE_ANY = 40, 50


def long_functions(path: Path) -> list[str]:
    return [
        f"{path.name}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > CORE_FUNCTION_LINES
    ]


def test_the_core_reads_in_small_typed_functions() -> None:
    core = sorted((ROOT / "table").glob("*.py"))
    assert [problem for path in core for problem in long_functions(path)] == []
    uses = sum(len(re.findall(r"\bAny\b", path.read_text(encoding="utf-8"))) for path in core)
    assert uses <= CORE_ANY


def test_the_size_checks_find_a_long_function(tmp_path: Path) -> None:
    sample = tmp_path / "long.py"
    sample.write_text("def long() -> None:\n" + "    pass\n" * CORE_FUNCTION_LINES)
    assert long_functions(sample) == [f"long.py:1 long: {CORE_FUNCTION_LINES + 1} lines"]
