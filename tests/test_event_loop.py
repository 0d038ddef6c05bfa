"""``main`` runs the bot on uvloop where it is installed, and on asyncio's own loop where it is not (Windows)."""

import asyncio
import sys
from pathlib import Path

import pytest

import bot as bot_module
from bot import Settings


def loop_main_runs_on(monkeypatch: pytest.MonkeyPatch, folder: Path) -> type[asyncio.AbstractEventLoop]:
    """The class of the event loop ``bot.main()`` runs ``run`` on (the bot itself is not started)."""
    monkeypatch.chdir(folder)  # no .env there
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setattr(bot_module, "env_folders", lambda: [])
    monkeypatch.setattr(bot_module.startup, "setup_logging", lambda *_: None)
    seen: list[type[asyncio.AbstractEventLoop]] = []

    async def run(settings: Settings) -> int:
        seen.append(type(asyncio.get_running_loop()))
        return 0

    monkeypatch.setattr(bot_module, "run", run)
    with pytest.raises(SystemExit) as exited:
        bot_module.main([])
    assert exited.value.code == 0
    return seen[0]


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop does not exist on Windows")
def test_uvloop_where_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    uvloop = pytest.importorskip("uvloop")
    assert loop_main_runs_on(monkeypatch, tmp_path) is uvloop.Loop


def test_asyncio_loop_without_uvloop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # "import uvloop" raises ImportError, as where it is missing
    loop = loop_main_runs_on(monkeypatch, tmp_path)
    assert issubclass(loop, asyncio.BaseEventLoop)
    assert loop.__module__.startswith("asyncio")
