"""A throwaway PostgreSQL server for tests and benchmarks: the distribution's own binaries (Debian's ``postgresql``
package puts them in /usr/lib/postgresql/<version>/bin), a fresh cluster in a temporary folder, listening on a Unix
socket in that folder only (no TCP port to collide with), stopped and deleted at the end. About half a second.

PostgreSQL refuses to run as root; as root, the server runs as the unprivileged user ``nobody``.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

HINT = "PostgreSQL tests skipped: install PostgreSQL to run them (apt-get install postgresql)"
# CI sets this: missing PostgreSQL is then a failure, not a skip.
REQUIRED = "REQUIRE_POSTGRES"


def bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: $PG_BINDIR, the newest /usr/lib/postgresql/*/bin, or the PATH."""
    given = os.environ.get("PG_BINDIR")
    candidates = [Path(given)] if given else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _version(p.parent.name), reverse=True)
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())


class PostgresServer:
    """One cluster; ``url(name)`` is the DATABASE_URL of its database ``name``, ``new_database()`` makes one."""

    def __init__(self, folder: Path, bin_folder: Path, *, durable: bool = False) -> None:
        self.folder = folder
        self.bin = bin_folder
        self.data = folder / "data"
        self.durable = durable
        self._names = itertools.count(1)

    @classmethod
    def start(cls, bin_folder: Path, *, durable: bool = False, parent: str | None = None) -> PostgresServer:
        """Create and start a cluster. ``durable`` keeps PostgreSQL's defaults (fsync on, for benchmarks); tests
        run without fsync."""
        folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-", dir=parent))
        server = cls(folder, bin_folder, durable=durable)
        try:
            if os.geteuid() == 0:
                nobody = pwd.getpwnam("nobody")
                os.chown(folder, nobody.pw_uid, nobody.pw_gid)
            server._as_owner("initdb", "-D", str(server.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                             "--locale=C.UTF-8", "--no-sync", "--no-instructions")  # fmt: skip
            settings = ["-k", str(folder), "-c", "listen_addresses=", "-c", "max_connections=200"]
            if not durable:
                settings += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
            server._as_owner("pg_ctl", "-D", str(server.data), "-l", str(folder / "server.log"), "-w", "-t", "30",
                             "-o", " ".join(settings), "start")  # fmt: skip
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return server

    def _as_owner(self, program: str, *args: str) -> None:
        """Run one of PostgreSQL's programs as the user who owns the cluster (``nobody`` when we are root)."""
        options: dict[str, Any] = {}
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            options = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        result = subprocess.run(
            [str(self.bin / program), *args],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
            **options,
        )
        if result.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed ({result.returncode}):\n{result.stdout}{result.stderr}{tail}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}"

    async def new_database(self) -> str:
        """A new, empty database; returns its URL."""
        import asyncpg  # type: ignore[import-untyped]

        name = f"test_{next(self._names)}"
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()
        return self.url(name)

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._as_owner("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
