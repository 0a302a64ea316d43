"""The operator's side: private database files, logs without secrets, doctor, backup and
restore on both back ends, and the deployment files as they are documented."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import shlex
import stat
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import doctor
from bot.backup import BackupError, backup, restore
from bot.config import Config, env_names, make_token
from bot.logs import HANDLER_NAME, WIRE_LOGGERS, configure, redact
from bot.store import open_store
from bot.store.schema import LATEST
from bot.table.ports import open_store as open_port
from bot.table.state import state_digest
from cogs.app import ChipfistBot
from tests.fakediscord import FakeDiscord, audience_includes
from tests.fakediscord.fixtures import run_bot
from tests.harness import Harness as ServiceHarness
from tests.test_discord_e2e import Harness, hole_cards, players
from tests.test_store_migrate import _live_database

ROOT = Path(__file__).resolve().parents[1]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ---------------------------------------------------------------- files (item 9)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask (022), which would make new files world-readable."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


async def test_files_database_wal_and_shm_are_created_0600(
    tmp_path: Path, open_umask: None
) -> None:
    db = tmp_path / "chipfist.sqlite3"
    store = await open_store(str(db))
    try:
        await store.append("t", "created", {"deck": "secret"})
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
        assert all(f.exists() for f in files)
        assert {f.name: _mode(f) for f in files} == {f.name: 0o600 for f in files}
    finally:
        await store.close()
    ok, line = doctor.check_database(str(db))
    assert ok and "READABLE BY OTHERS" not in line, line
    db.chmod(0o644)
    ok, line = doctor.check_database(str(db))
    assert "READABLE BY OTHERS" in line, line  # the doctor names a database others can read


async def test_files_a_backup_keeps_the_source_mode(tmp_path: Path, open_umask: None) -> None:
    db = tmp_path / "live.sqlite3"
    store = await open_store(str(db))
    await store.append("t", "created", {})
    await store.close()
    first = backup(db, tmp_path / "b1.sqlite3")
    assert _mode(first.path) == 0o600
    db.chmod(0o640)
    second = backup(db, tmp_path / "b2.sqlite3")
    assert _mode(second.path) == 0o640
    # Restored into a new live database: private again, whatever the backup's mode.
    restore(second.path, str(tmp_path / "restored.sqlite3"))
    assert _mode(tmp_path / "restored.sqlite3") == 0o600


# ---------------------------------------------------------------- logs (item 9)


@pytest.fixture
def debug_logs() -> Iterator[io.StringIO]:
    """``CHIPFIST_LOG_LEVEL=DEBUG`` as ``python -m bot`` configures it, into a buffer."""
    buf = io.StringIO()
    root = logging.getLogger()
    names = ["discord", *WIRE_LOGGERS]
    levels = {n: logging.getLogger(n).level for n in names}
    level = root.level
    configure("DEBUG", "plain", stream=buf)
    try:
        yield buf
    finally:
        for handler in list(root.handlers):
            if handler.get_name() == HANDLER_NAME:
                root.removeHandler(handler)
        root.setLevel(level)
        for n, lv in levels.items():
            logging.getLogger(n).setLevel(lv)


async def test_logs_at_debug_hold_no_hole_card_and_no_interaction_token(
    fake_discord: FakeDiscord, tmp_path: Path, debug_logs: io.StringIO
) -> None:
    """A hand dealt and played with buttons at DEBUG: the log has discord.py's DEBUG lines
    but none of the DMs' bodies (each player's hole cards) and no interaction token."""
    bot = ChipfistBot(
        str(tmp_path / "chipfist.sqlite3"), clocks=False, sync=False,
        **FakeDiscord.client_options(),
    )  # fmt: skip
    async with run_bot(fake_discord, bot, sync=True):
        h = Harness(fake_discord, bot)
        users = players(fake_discord)
        await h.start_table(users)
        secrets = hole_cards(fake_discord, bot, h.tid)
        humans = [u.id for u in users]
        dms = [
            str(d.payload.get("content") or "")
            for d in fake_discord.deliveries
            if isinstance(d.payload, dict)
            and sum(audience_includes(d.audience, u) for u in humans) == 1
        ]
        assert any(dms)
        for _ in range(3):
            actor = h.to_act()
            if actor is None:
                break
            await h.click(actor, "check_call")
        tokens = list(fake_discord._interactions_by_token)
    text = debug_logs.getvalue()
    assert " DEBUG " in text and "discord." in text  # DEBUG is really on
    assert len(tokens) >= 5
    leaked = [t for t in tokens if t in text]
    assert not leaked, f"{len(leaked)} interaction tokens in the log"
    assert all(len(c) == 2 for c in secrets.values())
    hands = [" ".join(sorted(c)) for c in secrets.values()]
    for line in text.splitlines():
        cards = set(re.findall(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])", line))
        for owner, mine in secrets.items():
            assert not mine <= cards, f"{owner}'s hole cards {mine} in the log: {line[:300]}"
    for body in dms:
        for piece in (p for p in body.splitlines() if len(p) > 20):
            assert piece not in text, f"a DM's text in the log: {piece!r}"
    assert hands


def test_logs_redact_tokens_from_every_logger() -> None:
    token = make_token(123456789012345678)
    buf = io.StringIO()
    configure("INFO", "plain", stream=buf)
    try:
        log = logging.getLogger("anything")
        log.info("POST https://discord.com/api/v10/interactions/111/itok-abcdef0123/callback")
        log.info("webhook %s", "https://discord.com/api/v10/webhooks/222/wtok_secret99/messages/1")
        log.info("payload %s", {"id": "1", "token": "itok-0123456789"})
        log.info("header Authorization: Bot %s", token)
        log.info("token %s alone", token)
        configure("INFO", "json", stream=buf)
        try:
            raise RuntimeError(f"GET /webhooks/333/wtok_in_traceback/messages/@original {token}")
        except RuntimeError:
            log.exception("failed")
    finally:
        root = logging.getLogger()
        for handler in list(root.handlers):
            if handler.get_name() == HANDLER_NAME:
                root.removeHandler(handler)
    text = buf.getvalue()
    assert "RuntimeError" in text and "/webhooks/333/***/messages" in text
    for secret in ("itok-abcdef0123", "wtok_secret99", "itok-0123456789", "wtok_in_", token):
        assert secret not in text, text
    assert "/interactions/111/***/callback" in text and "/webhooks/222/***/messages/1" in text
    assert redact("nothing secret here, 5 chips") == "nothing secret here, 5 chips"


def test_logs_discord_wire_loggers_stay_at_info_unless_opted_in() -> None:
    names = ["discord", *WIRE_LOGGERS]
    levels = {n: logging.getLogger(n).level for n in names}
    root = logging.getLogger()
    level = root.level
    try:
        configure("DEBUG", stream=io.StringIO())
        assert logging.getLogger("discord").isEnabledFor(logging.DEBUG)
        for name in WIRE_LOGGERS:
            assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name
            assert logging.getLogger(name).isEnabledFor(logging.INFO), name
        configure("DEBUG", stream=io.StringIO(), discord_wire=True)
        assert all(logging.getLogger(n).isEnabledFor(logging.DEBUG) for n in WIRE_LOGGERS)
        configure("INFO", stream=io.StringIO())
        assert not logging.getLogger("discord.http").isEnabledFor(logging.INFO)
        assert logging.getLogger("discord.gateway").isEnabledFor(logging.INFO)
    finally:
        for handler in list(root.handlers):
            if handler.get_name() == HANDLER_NAME:
                root.removeHandler(handler)
        root.setLevel(level)
        for n, lv in levels.items():
            logging.getLogger(n).setLevel(lv)
    assert Config.load(env={"CHIPFIST_LOG_DISCORD_WIRE": "1"}, dotenv=None).log_discord_wire


# ---------------------------------------------------------------- doctor (item 10)


def _with_password(url: str, role: str, password: str) -> str:
    return url.replace("postgresql://chipfist@", f"postgresql://{role}:{password}@")


@pytest_asyncio.fixture
async def pg_secret(pg_cluster: Any) -> tuple[str, str]:
    """A new database owned by a role with a password; its URL with the password in it."""
    import asyncpg

    url = pg_cluster.new_database()
    password = "Sw0rdfish-not-in-logs"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'secretrole') "
            f"THEN CREATE ROLE secretrole LOGIN PASSWORD '{password}'; END IF; END $$"
        )
        await admin.execute("GRANT ALL ON SCHEMA public TO secretrole")
    finally:
        await admin.close()
    return _with_password(url, "secretrole", password), password


async def test_doctor_on_postgres_connects_reads_the_schema_and_masks_the_password(
    pg_secret: tuple[str, str],
) -> None:
    url, password = pg_secret
    env = {"DISCORD_TOKEN": make_token(123456789012345678), "CHIPFIST_DB": url}
    out = io.StringIO()
    code = await asyncio.to_thread(doctor.run, out, env, None)
    text = out.getvalue()
    assert password not in text and "secretrole:***@" in text, text
    assert code == 0, text
    assert (
        "connected (PostgreSQL 1" in text
        and f"schema v0, migrated to v{LATEST} at the next start (an empty database" in text
    ), text
    store = await open_store(url)  # the bot's first start: migrated
    await store.close()
    out = io.StringIO()
    assert await asyncio.to_thread(doctor.run, out, env, None) == 0
    assert "(current): no migration pending" in out.getvalue(), out.getvalue()


async def test_doctor_on_an_unreachable_postgres_fails_in_one_line_without_the_password(
    tmp_path: Path,
) -> None:
    url = "postgresql://chipfist:hunter2secret@127.0.0.1:1/chipfist"
    env = {"DISCORD_TOKEN": make_token(123456789012345678), "CHIPFIST_DB": url}
    out = io.StringIO()
    code = await asyncio.to_thread(doctor.run, out, env, None)
    text = out.getvalue()
    assert code == 1 and "hunter2secret" not in text and "Traceback" not in text, text
    assert re.search(r"^FAIL database postgresql://chipfist:\*\*\*@.*cannot connect", text, re.M)


# ---------------------------------------------------------------- backup/restore (item 10)


async def _digests(url: str) -> dict[str, str]:
    store = await open_port(url)
    try:
        h = ServiceHarness(store=store)
        assert await h.service.recover() == []
        out = {}
        for table_id in sorted(await store.open_tables()):
            table = h.service.table(table_id)
            h.check(table)  # chips conserved, ledger agrees (R-2.5)
            out[table_id] = state_digest(table.state)
        return out
    finally:
        await store.close()


async def test_r2_5_backup_of_postgres_mid_hand_restores_into_postgres_and_sqlite(
    tmp_path: Path, pg_cluster: Any, open_umask: None
) -> None:
    """A PostgreSQL store with three tables mid-hand is backed up (one snapshot), restored
    into a fresh PostgreSQL database and into a SQLite file: every table recovers to the
    same state digest, chips conserved."""
    url = pg_cluster.new_database()
    digests = await _live_database(url)
    assert len(digests) == 3
    file = tmp_path / "pg-backup.sqlite3"
    result = await asyncio.to_thread(backup, url, file)
    assert result.events > 0 and result.tables == 4 and result.schema >= 5
    assert _mode(file) == 0o600
    before = file.read_bytes()
    fresh = pg_cluster.new_database()
    line = await asyncio.to_thread(restore, file, fresh)
    assert "3 open tables recover identically (3 with a hand in progress)" in line, line
    assert await _digests(fresh) == digests
    target = tmp_path / "restored.sqlite3"
    await asyncio.to_thread(restore, file, str(target))
    assert await _digests(str(target)) == digests
    assert file.read_bytes() == before  # restoring leaves the backup as it was
    with pytest.raises(BackupError, match="not empty"):
        await asyncio.to_thread(restore, file, fresh)  # never over a live database
    with pytest.raises(BackupError, match="exists"):
        await asyncio.to_thread(restore, file, str(target))


async def test_r2_5_backup_of_sqlite_restores_with_the_same_state_digest(tmp_path: Path) -> None:
    db = str(tmp_path / "live.sqlite3")
    digests = await _live_database(db)
    file = tmp_path / "b.sqlite3"
    await asyncio.to_thread(backup, db, file)
    target = tmp_path / "restored.sqlite3"
    await asyncio.to_thread(restore, file, str(target))
    assert await _digests(str(target)) == digests


def test_backup_and_restore_command_lines_on_postgres(
    tmp_path: Path, pg_secret: tuple[str, str], pg_cluster: Any
) -> None:
    """What an operator types: one summary line each, the password never printed."""
    url, password = pg_secret
    asyncio.run(_live_database(url))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHIPFIST_")}
    env.update(DISCORD_TOKEN="", CHIPFIST_DB=url)
    path = tmp_path / "b.sqlite3"

    def bot(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    env["PYTHONPATH"] = str(ROOT)
    done = bot("backup", str(path))
    assert done.returncode == 0, done.stderr
    assert "secretrole:***@" in done.stdout and "4 tables" in done.stdout, done.stdout
    again = bot("backup", str(path))
    assert again.returncode == 1 and "exists" in again.stderr and "Traceback" not in again.stderr
    fresh = pg_cluster.new_database()
    done = bot("restore", str(path), "--db", fresh)
    assert done.returncode == 0 and "3 open tables recover identically" in done.stdout, done
    for proc in (done, again):
        assert password not in proc.stdout + proc.stderr


# ---------------------------------------------------------------- deployment (item 12)


def _dockerfile_env() -> dict[str, str]:
    text = (ROOT / "deploy" / "Dockerfile").read_text().replace("\\\n", " ")
    final = text[text.rindex("\nFROM ") :]
    env: dict[str, str] = {}
    for line in final.splitlines():
        if line.startswith("ENV "):
            for word in shlex.split(line[4:]):
                key, _, value = word.partition("=")
                env[key] = value
    return env


def _docker_env_file(path: Path) -> dict[str, str]:
    """What ``docker run --env-file`` passes: every ``KEY=VALUE`` line (an empty value
    too), comments and blank lines skipped, nothing unquoted."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value
    return out


def test_deploy_docker_run_with_the_example_env_file_keeps_the_health_file() -> None:
    """``docker run --env-file .env`` with .env copied from the example (the token filled
    in): the image's health file and database hold, so the HEALTHCHECK can pass."""
    image = _dockerfile_env()
    assert image["CHIPFIST_HEALTH_FILE"] and image["CHIPFIST_DB"].startswith("/data/")
    passed = _docker_env_file(ROOT / "deploy" / ".env.example")
    passed["DISCORD_TOKEN"] = make_token(123456789012345678)
    config = Config.load(env={**image, **passed}, dotenv=None)
    assert config.health_file == image["CHIPFIST_HEALTH_FILE"]
    assert config.database == image["CHIPFIST_DB"]


def test_deploy_compose_files_restart_unless_stopped_with_health_and_postgres() -> None:
    import yaml

    plain = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    pg = yaml.safe_load((ROOT / "deploy" / "compose.postgres.yaml").read_text())
    for doc in (plain, pg):
        bot = doc["services"]["chipfist"]
        # A clean stop exits 0: only unless-stopped/always restart it after a reboot.
        assert bot["restart"] in ("unless-stopped", "always")
        assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]
        assert bot["environment"]["CHIPFIST_HEALTH_FILE"]
        assert bot["env_file"] == "../.env" and bot["stop_signal"] == "SIGTERM"
        assert set(bot["environment"]) <= set(env_names().values())
    postgres = pg["services"]["postgres"]
    assert postgres["image"].startswith("postgres:") and postgres["restart"] == "unless-stopped"
    assert "pg_isready" in postgres["healthcheck"]["test"]
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    bot = pg["services"]["chipfist"]
    assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    db = bot["environment"]["CHIPFIST_DB"]
    assert db.startswith("postgresql://chipfist:${POSTGRES_PASSWORD") and "@postgres:5432/" in db
    assert "sslmode=" in db
    assert postgres["environment"]["POSTGRES_USER"] == "chipfist"
    assert set(pg["volumes"]) == {"chipfist-data", "pg-data"}


def _config_table() -> set[str]:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text[text.index("## 2. Configuration") : text.index("## 3. ")]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", section, re.M))


def test_deploy_configuration_table_lists_every_setting() -> None:
    """docs/operations.md's table names every setting of bot/config.py, and no other."""
    assert _config_table() == set(env_names().values())


def test_deploy_systemd_backup_command_reads_the_units_database() -> None:
    """The unit takes every setting from its env file in its working directory; the
    documented backup and doctor commands run in that folder with that file, so they
    read the database the bot writes."""
    unit = (ROOT / "deploy" / "chipfist.service").read_text()
    keys: dict[str, list[str]] = {}
    for line in unit.splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), []).append(value.strip())
    assert not [v for v in keys.get("Environment", []) if v.startswith("CHIPFIST_")]
    folder, env_file = keys["WorkingDirectory"][0], keys["EnvironmentFile"][0]
    docs = (ROOT / "docs" / "operations.md").read_text().replace("\\\n", " ")
    commands = [ln for ln in docs.splitlines() if "python -m bot backup" in ln and "sudo" in ln]
    assert commands, "operations.md documents the backup under systemd"
    for command in commands:
        assert f"cd {folder} &&" in command and f"--env-file {env_file}" in command, command
        assert "sudo -u chipfist" in command


def test_deploy_license_is_the_mit_license_pyproject_names() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 The Chipfist authors" in text
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text()


def test_deploy_metrics_bind_the_configured_host_with_process_metrics() -> None:
    from cogs.metrics import Metrics

    assert Config.load(env={}, dotenv=None).metrics_host == "127.0.0.1"
    config = Config.load(env={"CHIPFIST_METRICS_HOST": "0.0.0.0"}, dotenv=None)
    metrics = Metrics(0, host=config.metrics_host)
    port = metrics.start()
    try:
        assert metrics._server is not None and metrics._server.server_address[0] == "0.0.0.0"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
            text = resp.read().decode()
    finally:
        metrics.stop()
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes", "python_info"):
        assert re.search(rf"^{name}[{{ ]", text, re.M), name
