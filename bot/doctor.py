"""``python -m bot doctor`` and ``python -m bot health``.

The doctor checks what can be checked without connecting to Discord: the settings
(typed; unknown ``CHIPFIST_*`` names; the token and the database password masked), the
token's shape, the database (SQLite: its folder writable, its mode, an integrity check;
PostgreSQL: that it connects; both: its schema version against this code's migrations,
read only, so it is safe while the bot runs), the fonts, the optional metrics package, and
prints the invite URL with exactly the permissions the code needs. Exit 0 when every check
passed, 1 if not.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

from bot.config import Config, settings_error, token_client_id, token_problem, unknown_names
from bot.store.files import others_can_read

Check = tuple[bool, str]


def check_database(path: str) -> Check:
    from bot.store.backends import is_postgres

    if is_postgres(path):
        return check_postgres(path)
    return check_sqlite(path)


def _schema_verdict(name: str, version: int, extra: str) -> Check:
    from bot.store.schema import LATEST

    if version > LATEST:
        return False, (
            f"database {name}: schema v{version} is newer than this code (v{LATEST}): "
            "run the newer Chipfist, or restore a backup"
        )
    if version < LATEST:
        if version == 0:
            pending = "an empty database: the bot creates its tables"
        else:
            pending = (
                f"{LATEST - version} migrations pending; "
                "back it up first: python -m bot backup PATH"
            )
        return True, (
            f"database {name}: {extra}schema v{version}, migrated to v{LATEST} at the next start"
            f" ({pending})"
        )
    return True, f"database {name}: {extra}schema v{version} (current): no migration pending"


def check_postgres(url: str) -> Check:
    """Connect (5 s at most), read the schema version; never print the password."""
    import asyncio

    from bot.store.backends import describe

    name = describe(url)
    try:
        import asyncpg
    except ImportError:
        return False, f"database {name}: needs asyncpg: pip install 'chipfist[postgres]'"

    async def read() -> tuple[int, str]:
        from bot.store.schema import pg_schema_version

        conn = await asyncpg.connect(url, timeout=5)
        try:
            version = await pg_schema_version(conn)
            server = str(await conn.fetchval("SHOW server_version"))
            tls = await conn.fetchval("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            return version, f"PostgreSQL {server}, {'TLS' if tls else 'no TLS'}"
        finally:
            await conn.close()

    try:
        version, server = asyncio.run(read())
    except Exception as exc:  # refused, unknown host, bad password, timeout: one line
        password = urlsplit(url).password
        text = f"{type(exc).__name__}: {exc}"
        if password:
            text = text.replace(password, "***")
        return False, f"database {name}: cannot connect: {text}"
    return _schema_verdict(name, version, f"connected ({server}), ")


def check_sqlite(path: str) -> Check:
    from bot.store.schema import LATEST

    db = Path(path)
    folder = db.parent if str(db.parent) else Path(".")
    if not db.exists():
        if not folder.is_dir():
            return False, f"database {db}: folder {folder} does not exist"
        if not os.access(folder, os.W_OK):
            return False, f"database {db}: folder {folder} is not writable"
        return True, (
            f"database {db}: not created yet (created 0600 at first start, schema v{LATEST})"
        )
    if not os.access(db, os.W_OK) or not os.access(folder, os.W_OK):
        # WAL needs the folder too: SQLite creates the -wal and -shm files beside it.
        return False, f"database {db}: the file or its folder {folder} is not writable"
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            has = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'"
            ).fetchone()
            version = conn.execute("SELECT version FROM schema_version").fetchone()[0] if has else 0
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return False, f"database {db}: cannot read it: {exc}"
    if ok != "ok":
        return False, f"database {db}: integrity check failed: {ok}"
    private = "" if not others_can_read(db) else "READABLE BY OTHERS (chmod 600 it), "
    return _schema_verdict(str(db), version, f"writable, {private}")


def check_fonts() -> Check:
    try:
        from cards_art.fonts import BOLD_FILE, REGULAR_FILE, font

        font(20, bold=True)
        font(20, bold=False)
    except Exception as exc:  # a missing file or a broken FreeType: pictures fail
        return False, f"fonts: cannot load the card fonts: {exc}"
    return True, f"fonts: {BOLD_FILE.name}, {REGULAR_FILE.name}"


def check_metrics(port: int, host: str = "127.0.0.1") -> Check | None:
    if not port:
        return None
    try:
        import prometheus_client  # noqa: F401
    except ImportError:
        return False, "metrics: CHIPFIST_METRICS_PORT is set but prometheus-client is missing"
    return True, f"metrics: will serve http://{host}:{port}/metrics"


def check_health_file(path: str) -> Check | None:
    if not path:
        return None
    folder = Path(path).parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        return False, f"health file {path}: folder {folder} is missing or not writable"
    return True, f"health file {path}: writable"


def run(out: TextIO, env: dict[str, str] | None = None, dotenv: str | None = ".env") -> int:
    results: list[Check] = []
    try:
        config = Config.load(env=env, dotenv=dotenv)
    except Exception as exc:
        print(f"FAIL settings: {settings_error(exc)}", file=out)
        return 1
    print("settings:", file=out)
    for name, value in config.describe():
        print(f"  {name}={value}", file=out)
    for line in unknown_names(env=env, dotenv=dotenv):
        results.append((False, f"settings: {line}"))
    problem = token_problem(config.discord_token)
    client_id = token_client_id(config.discord_token or "")
    if problem is None:
        results.append((True, f"token: well formed (bot id {client_id}); Discord checks it"))
    else:
        results.append((False, f"token: {problem}"))
    results.append(check_database(config.database))
    results.append(check_fonts())
    for extra in (
        check_metrics(config.metrics_port, config.metrics_host),
        check_health_file(config.health_file),
    ):
        if extra is not None:
            results.append(extra)
    for ok, line in results:
        print(f"{'ok  ' if ok else 'FAIL'} {line}", file=out)
    from cogs import permissions

    bits = permissions.permissions().value
    labels = ", ".join(permissions.label(n) for n in permissions.ALL)
    print(f"permissions: {bits} ({labels}); scopes: {' '.join(permissions.SCOPES)}", file=out)
    if client_id is not None:
        print(f"invite URL: {permissions.invite_url(client_id)}", file=out)
    else:
        print("invite URL: needs a well-formed DISCORD_TOKEN (or the application id)", file=out)
    failed = sum(1 for ok, _ in results if not ok)
    print("all checks passed" if not failed else f"{failed} check(s) failed", file=out)
    return 0 if not failed else 1


def main(argv: list[str], out: TextIO | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot doctor", description=__doc__)
    ap.add_argument("--env-file", default=".env", help="the .env file (default %(default)s)")
    args = ap.parse_args(argv)
    return run(out or sys.stdout, dotenv=args.env_file)


def health_main(argv: list[str], out: TextIO | None = None) -> int:
    from bot import health

    ap = argparse.ArgumentParser(
        prog="python -m bot health", description="Exit 0 if the running bot is healthy."
    )
    ap.add_argument("--file", default=None, help="the health file (default CHIPFIST_HEALTH_FILE)")
    ap.add_argument("--max-age", type=float, default=None, help="seconds (default 3 intervals)")
    args = ap.parse_args(argv)
    write: Callable[[str], None] = lambda s: print(s, file=out or sys.stdout)  # noqa: E731
    try:
        config = Config.load()
    except Exception as exc:
        write(f"unhealthy: bad configuration: {settings_error(exc)}")
        return 1
    path = args.file or config.health_file
    if not path:
        write("unhealthy: no health file configured (set CHIPFIST_HEALTH_FILE)")
        return 1
    max_age = args.max_age if args.max_age is not None else 3 * config.health_interval + 5
    verdict = health.check(path, max_age)
    write(verdict.line)
    return 0 if verdict.ok else 1
