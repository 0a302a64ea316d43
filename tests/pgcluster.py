"""A throwaway PostgreSQL cluster for the tests, and the ``store_url`` fixture that runs a
test on both back ends.

The cluster is made once per session with ``initdb`` in a new temporary directory and
started with ``pg_ctl`` on a free loopback port (its socket in the same directory); it is
stopped and deleted at the end. PostgreSQL refuses to run as root, so as root it runs as
the ``postgres`` system user if there is one, else as ``chipfist-ci`` (created here).

Binaries: ``CHIPFIST_PG_BIN`` (a directory), else ``initdb`` on the PATH, else Debian's
``/usr/lib/postgresql/<version>/bin``. When there are none, the PostgreSQL tests are
skipped and the summary says so; with ``CHIPFIST_REQUIRE_POSTGRES=1`` (CI) they fail
instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REQUIRE = os.environ.get("CHIPFIST_REQUIRE_POSTGRES", "") == "1"
_STATUS: dict[str, Any] = {"used": 0, "skipped": 0, "reason": None, "where": None}


def pg_bin_dir() -> Path | None:
    """Where initdb, pg_ctl and postgres are; ``None`` if PostgreSQL is not installed."""
    given = os.environ.get("CHIPFIST_PG_BIN")
    if given:
        return Path(given) if (Path(given) / "initdb").exists() else None
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(debian[-1]).parent if debian else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> str | None:
    """The user to run PostgreSQL as: ``None`` means ourselves (not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "chipfist-ci"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "chipfist-ci"],
        check=True,
    )
    return "chipfist-ci"


@dataclass
class Cluster:
    bin: Path
    root: Path
    port: int
    user: str | None
    _names: Iterator[int]

    def url(self, database: str) -> str:
        return f"postgresql://chipfist@127.0.0.1:{self.port}/{database}"

    def _cmd(self, *args: str) -> list[str]:
        return ["runuser", "-u", self.user, "--", *args] if self.user else list(args)

    def new_database(self) -> str:
        """A new empty database; its URL."""
        name = f"t{next(self._names)}"
        # On a thread of its own: callers may be inside a running event loop.
        statement = f'CREATE DATABASE "{name}"'
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _sql(self.url("postgres"), statement)).result()
        return self.url(name)

    @classmethod
    def start(cls, bin_dir: Path) -> Cluster:
        user = _run_as()
        root = Path(tempfile.mkdtemp(prefix="chipfist-pg-"))
        data = root / "data"
        if user:
            shutil.chown(root, user)
            os.chmod(root, 0o700)
        port = _free_port()
        cluster = cls(bin_dir, root, port, user, itertools.count(1))
        subprocess.run(
            cluster._cmd(
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "chipfist",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ),
            check=True,
            capture_output=True,
        )
        # A throwaway cluster: fsync off makes the many CREATE DATABASEs cheap. Commits
        # still go through the WAL, so a killed client process loses nothing committed
        # (what the kill tests check); only a power cut would.
        options = (
            f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={root}"
            " -c fsync=off -c full_page_writes=off -c max_connections=200"
        )
        subprocess.run(
            cluster._cmd(
                str(bin_dir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(root / "log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ),
            check=True,
            capture_output=True,
        )
        return cluster

    def stop(self) -> None:
        subprocess.run(
            self._cmd(
                str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "stop"
            ),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(self.root, ignore_errors=True)


async def _sql(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """The session's PostgreSQL cluster (skipped, or failed under CI, without one)."""
    bin_dir = pg_bin_dir()
    reason = None
    if bin_dir is None:
        reason = "no PostgreSQL binary (initdb) found"
    else:
        try:
            import asyncpg  # noqa: F401
        except ImportError:
            reason = "asyncpg is not installed"
    if reason is not None:
        _STATUS["reason"] = reason
        if REQUIRE:
            pytest.fail(f"CHIPFIST_REQUIRE_POSTGRES=1 but {reason}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    assert bin_dir is not None
    cluster = Cluster.start(bin_dir)
    _STATUS["where"] = f"{bin_dir} on 127.0.0.1:{cluster.port}"
    try:
        yield cluster
    finally:
        cluster.stop()


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's store lives: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


def count(report: pytest.TestReport) -> None:
    """Count the tests that used the cluster, or were skipped (or failed) for want of it."""
    if report.when != "setup" and not (report.when == "call" and report.passed):
        return
    fixtures = dict(report.user_properties).get("fixtures", ())
    if "pg_cluster" not in fixtures and "postgres" not in report.nodeid.rpartition("[")[2]:
        return
    if report.skipped or (report.failed and report.when == "setup"):
        _STATUS["skipped"] += 1
    elif report.when == "call":
        _STATUS["used"] += 1


def summary_line() -> str | None:
    """The line the terminal summary shows about the PostgreSQL tests."""
    if _STATUS["reason"] is not None and REQUIRE:
        return (
            f"PostgreSQL: {_STATUS['skipped']} tests FAILED to start: {_STATUS['reason']}"
            " (CHIPFIST_REQUIRE_POSTGRES=1)"
        )
    if _STATUS["reason"] is not None:
        return f"PostgreSQL: {_STATUS['skipped']} tests SKIPPED: {_STATUS['reason']}"
    if _STATUS["used"]:
        return (
            f"PostgreSQL: {_STATUS['used']} tests ran on a throwaway cluster ({_STATUS['where']})"
        )
    return None
