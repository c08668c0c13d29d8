"""A throwaway PostgreSQL server: ``initdb`` and ``pg_ctl`` (Debian's `postgresql`) on a free
loopback port, in a temporary folder, with trust authentication for the user ``paiju``.

For the tests (tests/records) and ``paiju bench db --postgres``; never for production data
(fsync is off). Root may not run PostgreSQL: as root the cluster runs as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

_names = itertools.count(1)


class Unavailable(RuntimeError):
    """PostgreSQL cannot run here (not installed, or no user to run it as); says why."""


def pg_bin(tool: str) -> str | None:
    found = shutil.which(tool)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{tool}"))
    return versions[-1] if versions else None


class Cluster:
    """``Cluster.start()``; :meth:`url` of a database in it, :meth:`create` a new one; :meth:`stop`."""

    def __init__(self, folder: Path, port: int, user: str | None) -> None:
        self.folder = folder
        self.port = port
        self.user = user  # the OS user that runs it (None: this process's)

    @classmethod
    def start(cls) -> Cluster:
        initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise Unavailable("PostgreSQL is not installed (no initdb/pg_ctl): apt-get install postgresql")
        folder = Path(tempfile.mkdtemp(prefix="paiju-pg-"))
        user = None
        if os.geteuid() == 0:  # initdb refuses to run as root
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no 'postgres' user to run PostgreSQL as") from None
            os.chown(folder, pw.pw_uid, pw.pw_gid)
            user = "postgres"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        c = cls(folder, port, user)
        data = str(folder / "data")
        c._run(initdb, "-D", data, "-U", "paiju", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
        opts = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        c._run(pg_ctl, "-D", data, "-o", opts, "-l", str(folder / "log"), "-w", "-t", "60", "start")
        return c

    def stop(self) -> None:
        pg_ctl = pg_bin("pg_ctl")
        if pg_ctl is not None:
            subprocess.run(
                [pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "stop"],
                user=self.user,
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://paiju@127.0.0.1:{self.port}/{database}"

    async def create(self, name: str | None = None) -> str:
        """A new, empty database; its URL."""
        import asyncpg

        name = name or f"db{os.getpid()}_{next(_names)}"
        conn = await asyncpg.connect(f"postgresql://paiju@127.0.0.1:{self.port}/postgres")
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    def _run(self, *cmd: str) -> None:
        r = subprocess.run(cmd, user=self.user, capture_output=True, text=True, timeout=120, check=False)
        if r.returncode != 0:
            log = self.folder / "log"
            raise RuntimeError(f"{Path(cmd[0]).name} failed: {r.stderr}{log.read_text() if log.exists() else ''}")
