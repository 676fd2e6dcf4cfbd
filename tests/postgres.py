"""A throwaway PostgreSQL server for the tests, from the OS's packages.

`PostgresServer` runs `initdb` in a temporary folder and `pg_ctl start` with
the server listening only on a Unix socket in that folder (no TCP port, so
nothing else on the machine can reach it or clash with it), and hands out a
fresh, empty database per test. Every commit is written before it is
acknowledged, as in a deployment, but not forced to the disk (fsync=off): that
guards against the machine losing power, which no test does; a test that kills
a server, pitkit's or PostgreSQL's, still finds every acknowledged commit.

initdb refuses to run as root, and CI runs as root: then the server runs as
`nobody`, owning its folder.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.waiting import patience

__all__ = ["REQUIRE_ENV", "PostgresServer", "PostgresUnavailableError", "find_bin"]

REQUIRE_ENV = "PITKIT_REQUIRE_POSTGRES"
"""Set to 1 (`make test` does) and a missing PostgreSQL fails the tests instead of skipping them."""

_USER = "pitkit"


class PostgresUnavailableError(RuntimeError):
    """PostgreSQL's programs or the psycopg driver are not installed here."""


def find_bin() -> Path:
    """The folder of `initdb` and `pg_ctl`: Debian's newest, else the PATH's."""
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if debian:
        return Path(debian[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).parent
    raise PostgresUnavailableError(
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb nor initdb on PATH): "
        "`apt-get install postgresql` (make test does)"
    )


class PostgresServer:
    """One PostgreSQL server in a temporary folder, reached by a Unix socket there."""

    def __init__(self) -> None:
        try:
            import psycopg  # noqa: F401  (checked here so a missing driver is reported once)
        except ImportError as exc:
            raise PostgresUnavailableError(
                "the psycopg driver is not installed: pip install -e '.[dev,postgres]'"
            ) from exc
        self.bin = find_bin()
        # Short, in /tmp: a Unix socket's path may hold at most 107 bytes.
        self.dir = Path(tempfile.mkdtemp(prefix="pitkit-pg-", dir="/tmp"))
        self.data = self.dir / "data"
        self.log = self.dir / "log"
        self._as: list[str] = []
        self._names = itertools.count(1)
        self.running = False
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self._as = ["runuser", "-u", "nobody", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self._as, *args],
            cwd=self.dir,  # `nobody` may not read the caller's folder
            capture_output=True,
            text=True,
            timeout=patience(60),  # initdb and a start are slow on a busy machine
            check=False,
        )
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}{done.stderr}{log}")

    def start(self) -> None:
        """Create the cluster and start the server; wait until it accepts connections."""
        # --no-sync only skips syncing the new cluster's files at the end of initdb;
        # the server itself keeps fsync on.
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            _USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "start",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            str(round(patience(60))),
            "-o",
            f"-c listen_addresses='' -k {self.dir} -c shared_buffers=32MB"
            " -c fsync=off -c full_page_writes=off",
        )
        self.running = True

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        if self.running:
            # Immediate: the folder goes next, so the shutdown checkpoint that "fast"
            # writes (every dirty page of every test's database, fsynced: up to 15 s of
            # a busy run's end) would be thrown away.
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run(str(self.bin / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate")
            self.running = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of `database` on this server."""
        return f"postgresql+psycopg://{_USER}@/{database}?host={self.dir}"

    def new_database(self, template: str | None = None) -> str:
        """A new database's URL: empty, or a copy of the database `template` (one of
        this server's, which nobody may be connected to)."""
        import psycopg
        from psycopg import sql

        name = f"t{os.getpid()}_{next(self._names)}"
        create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            create += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        with psycopg.connect(
            dbname="postgres", user=_USER, host=str(self.dir), autocommit=True
        ) as conn:
            conn.execute(create)
        return self.url(name)

    @staticmethod
    def name(url: str) -> str:
        """The database's name in one of this server's URLs (`url`'s)."""
        return url.split("@/", 1)[1].split("?", 1)[0]

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
