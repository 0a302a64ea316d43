"""Running Chipfist as a service (issue 13): start-up without a token, settings,
``doctor``, permissions and the invite URL, command sync, logs with error ids, the
graceful stop (SIGTERM mid-hand in a real process, then resume), backups, health,
metrics and the deployment files.

Rules checked here are the ones every hand must keep across restarts and copies: chip
conservation (R-2.5) and "the log is the truth" (architecture invariant 4).
"""

from __future__ import annotations

import io
import json
import logging
import os
import pty
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.config import Config, env_names, make_token, token_client_id, unknown_names
from bot.logs import HANDLER_NAME, configure
from bot.table.ports import open_store
from cogs import permissions
from cogs.app import SYNC_LOG, ChipfistBot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.test_discord_e2e import Harness, players

ROOT = Path(__file__).resolve().parents[1]
NO_TOKEN = "DISCORD_TOKEN is not set; run `python -m bot --local` for a terminal table"


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without a token or any CHIPFIST_* variable, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "DISCORD_TOKEN" and not k.startswith("CHIPFIST_")
    }
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env


def bot_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "bot", *args]


# ---------------------------------------------------------------- start without a token


def test_no_token_and_no_terminal_exits_2_with_one_line(tmp_path: Path) -> None:
    """A service (stdin not a TTY) without a token fails at once, with one clear line,
    and writes no table into any database."""
    proc = subprocess.run(
        bot_cmd(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean_env(CHIPFIST_DB=str(tmp_path / "prod.sqlite3")),
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == NO_TOKEN
    assert proc.stdout == ""
    assert not (tmp_path / "prod.sqlite3").exists()


def test_no_token_on_a_terminal_opens_the_local_table(tmp_path: Path) -> None:
    """On a TTY the old convenience stays: no token opens the terminal table."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            bot_cmd("alice", "bob"),
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=clean_env(CHIPFIST_DB=str(tmp_path / "t.sqlite3")),
        )
        os.write(master, b"deal\ntable\nquit\n")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err
    assert "local terminal table" in err
    assert "Hand #1" in out


def test_local_flag_opens_the_table_even_with_a_token_and_no_terminal(tmp_path: Path) -> None:
    proc = subprocess.run(
        bot_cmd("--local", "alice", "bob"),
        input="deal\nquit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean_env(
            DISCORD_TOKEN=make_token(123456789012345678), CHIPFIST_DB=str(tmp_path / "l.sqlite3")
        ),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Hand #1" in proc.stdout


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"DISCORD_TOKEN": "x"}, "does not look like a bot token"),
        (
            {"CHIPFIST_DBB": "other.sqlite3"},
            "CHIPFIST_DBB is not a Chipfist setting (did you mean CHIPFIST_DB?)",
        ),
        ({"CHIPFIST_METRICS_PORT": "abc"}, "CHIPFIST_METRICS_PORT='abc'"),
        ({"CHIPFIST_LOG_FORMAT": "xml"}, "CHIPFIST_LOG_FORMAT='xml'"),
    ],
)
def test_bad_configuration_refuses_to_start(
    tmp_path: Path, extra: dict[str, str], expected: str
) -> None:
    """A typo never falls back to a default in silence: the bot refuses to start (exit
    2) and says which variable is wrong, without contacting Discord."""
    env = clean_env(**{"DISCORD_TOKEN": make_token(123456789012345678), **extra})
    proc = subprocess.run(
        bot_cmd(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    assert expected in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- settings


def test_settings_read_dotenv_environment_wins_and_empty_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "DISCORD_TOKEN=abc\nCHIPFIST_DB=file.sqlite3\nCHIPFIST_DEV_GUILD=\n"
        "CHIPFIST_LOG_LEVEL=debug\nCHIPFIST_METRICS_PORT=9100\n"
    )
    for name in env_names().values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CHIPFIST_DB", "env.sqlite3")
    cfg = Config.load(dotenv=env_file)
    assert cfg.database == "env.sqlite3"  # the environment wins
    assert cfg.discord_token == "abc" and cfg.dev_guild is None
    assert cfg.log_level == "DEBUG" and cfg.metrics_port == 9100
    masked = dict(cfg.describe())
    assert masked["DISCORD_TOKEN"] != "abc" and "abc" not in masked["DISCORD_TOKEN"]


def test_every_setting_is_documented_in_env_example() -> None:
    text = (ROOT / "deploy" / ".env.example").read_text()
    documented = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.M))
    assert set(env_names().values()) == documented
    assert not unknown_names(env={}, dotenv=ROOT / "deploy" / ".env.example")


def test_unknown_names_come_from_the_environment_and_the_file(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("CHIPFIST_HEALTH_FLIE=/tmp/h\n")
    found = unknown_names(env={"CHIPFIST_LOGLEVEL": "DEBUG", "OTHER": "1"}, dotenv=env_file)
    assert any("CHIPFIST_HEALTH_FLIE" in f and "CHIPFIST_HEALTH_FILE" in f for f in found)
    assert any("CHIPFIST_LOGLEVEL" in f and "CHIPFIST_LOG_LEVEL" in f for f in found)
    assert len(found) == 2


def test_token_shape_gives_the_bot_id() -> None:
    token = make_token(987654321098765432)
    assert token_client_id(token) == 987654321098765432
    assert token_client_id("Bot " + token) is None
    assert token_client_id("abc.def.ghi") is None


# ---------------------------------------------------------------- doctor


async def _migrated_db(path: Path) -> None:
    store = await open_store(str(path))
    await store.close()


async def test_doctor_passes_on_a_good_configuration(tmp_path: Path) -> None:
    db = tmp_path / "good.sqlite3"
    await _migrated_db(db)
    token = make_token(112233445566778899)
    proc = subprocess.run(
        bot_cmd("doctor"),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env=clean_env(DISCORD_TOKEN=token, CHIPFIST_DB=str(db)),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert token not in out and token[4:] not in out  # masked
    assert f"CHIPFIST_DB={db}" in out
    assert "schema v" in out and "(current)" in out
    assert "all checks passed" in out
    url = next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("invite URL"))
    query = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)
    assert query["client_id"] == ["112233445566778899"]
    assert query["scope"] == ["bot applications.commands"]
    assert query["permissions"] == [str(permissions.permissions().value)]


def test_doctor_fails_on_a_bad_configuration(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("CHIPFIST_DBB=typo.sqlite3\n")
    proc = subprocess.run(
        bot_cmd("doctor"),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env=clean_env(
            DISCORD_TOKEN="not-a-token", CHIPFIST_DB=str(tmp_path / "missing" / "x.sqlite3")
        ),
    )
    assert proc.returncode == 1
    fails = [line for line in proc.stdout.splitlines() if line.startswith("FAIL")]
    assert any("CHIPFIST_DBB" in f and "did you mean CHIPFIST_DB" in f for f in fails), fails
    assert any("token" in f for f in fails)
    assert any("does not exist" in f for f in fails)
    assert "not-a-token" not in proc.stdout
    assert "3 check(s) failed" in proc.stdout


# ---------------------------------------------------------------- permissions


def test_invite_integer_is_exactly_the_declared_permissions() -> None:
    value = permissions.permissions().value
    declared = discord.Permissions(value)
    assert bin(value).count("1") == len(permissions.ALL)
    assert all(getattr(declared, name) for name in permissions.ALL)
    # Nothing privileged or destructive sneaks in.
    assert not (declared.manage_messages or declared.administrator or declared.mention_everyone)
    url = permissions.invite_url(1234)
    assert f"permissions={value}" in url and "scope=bot+applications.commands" in url


async def test_table_create_checks_every_invite_permission(h: Harness) -> None:
    """Each permission in the invite URL is checked by /table create (thread:True):
    take any one away and the bot refuses, naming it; with exactly the invite's
    permissions the table opens."""
    full = permissions.permissions().value
    for need in permissions.NEEDS:
        flag = discord.Permissions(**{need.name: True}).value
        h.fake.app_permissions = str(full & ~flag)
        alice = h.fake.add_user(f"host-{need.name}")  # /table create has a cooldown
        await h.slash(alice, "table create", thread=True)
        answer = h.last_ephemeral(alice)
        assert "missing permissions" in answer and permissions.label(need.name) in answer, answer
        assert h.bot.service is not None and h.bot.service.get(h.tid) is None
    h.fake.app_permissions = str(full)
    await h.slash(players(h.fake)[0], "table create", thread=True)
    assert h.bot.service is not None and h.bot.service.get(h.tid) is not None


async def test_start_up_logs_invite_and_missing_guild_permissions(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = ChipfistBot(
        str(tmp_path / "p.sqlite3"), clocks=False, sync=False, **FakeDiscord.client_options()
    )
    caplog.set_level(logging.INFO, logger="cogs.app")
    async with run_bot(fake_discord, bot):
        await fake_discord.wait_for(lambda: bot.gateway == "connected")
        guild = bot.get_guild(fake_discord.guild_id)
        assert guild is not None
        assert bot.report_permissions(guild) == []  # the fake grants everything
        text = caplog.text
        assert "invite URL: https://discord.com/oauth2/authorize" in text
        assert f"permissions={permissions.permissions().value}" in text
        # Take Administrator and Attach Files from @everyone (the bot's only role).
        role = guild.default_role
        role._permissions = role.permissions.value & ~(1 << 15) & ~(1 << 3)
        assert bot.report_permissions(guild) == ["attach_files"]
        assert "missing permissions Attach Files" in caplog.text


# ---------------------------------------------------------------- command sync


def _puts(fake: FakeDiscord, guild: bool = False) -> int:
    key = (
        "PUT /applications/{app_id}/guilds/{guild_id}/commands"
        if guild
        else ("PUT /applications/{app_id}/commands")
    )
    return fake.requests_by_route[key]


def _sync_bot(db: Path, **kw: Any) -> ChipfistBot:
    return ChipfistBot(str(db), clocks=False, sync=True, **kw, **FakeDiscord.client_options())


async def test_commands_sync_only_when_the_tree_changed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "s.sqlite3"
    bot = _sync_bot(db)
    async with run_bot(fake_discord, bot):
        assert bot.synced is True
    assert _puts(fake_discord) == 1
    assert any(c["name"] == "table" for c in fake_discord.global_commands)
    bot = _sync_bot(db)
    async with run_bot(fake_discord, bot):
        assert bot.synced is False  # same tree: no request
    assert _puts(fake_discord) == 1
    bot = _sync_bot(db)

    @app_commands.command(name="ping", description="A new command changes the tree")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    bot.tree.add_command(ping)
    async with run_bot(fake_discord, bot):
        assert bot.synced is True
    assert _puts(fake_discord) == 2
    assert any(c["name"] == "ping" for c in fake_discord.global_commands)
    store = await open_store(str(db))
    try:
        assert [e.kind for e in await store.events(SYNC_LOG)] == ["synced", "synced"]
        assert await store.open_tables() == []  # the sync log is never a table
    finally:
        await store.close()


async def test_dev_guild_syncs_to_that_guild_only(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    settings = Config.load(env={"CHIPFIST_DEV_GUILD": str(fake_discord.guild_id)}, dotenv=None)
    bot = _sync_bot(tmp_path / "g.sqlite3", settings=settings)
    async with run_bot(fake_discord, bot):
        assert bot.synced is True
    assert _puts(fake_discord, guild=True) == 1 and _puts(fake_discord) == 0
    names = {c["name"] for c in fake_discord.guild_commands[fake_discord.guild_id]}
    assert "table" in names and not fake_discord.global_commands


# ---------------------------------------------------------------- logs


@pytest.fixture
def json_logs() -> Iterator[io.StringIO]:
    buf = io.StringIO()
    root = logging.getLogger()
    level = root.level
    configure("INFO", "json", stream=buf)
    try:
        yield buf
    finally:
        for handler in list(root.handlers):
            if handler.get_name() == HANDLER_NAME:
                root.removeHandler(handler)
        root.setLevel(level)


async def test_json_log_line_carries_the_error_id_table_and_traceback(
    h: Harness, json_logs: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = players(h.fake)[0]
    assert h.bot.service is not None

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(h.bot.service, "create", broken)
    await h.slash(alice, "table create")
    answer = h.last_ephemeral(alice)
    found = re.search(r"error id `([0-9a-f]+)`", answer)
    assert found, answer
    assert "disk on fire" not in answer and "Traceback" not in answer
    records = [json.loads(line) for line in json_logs.getvalue().splitlines()]
    mine = [r for r in records if r.get("error_id") == found.group(1)]
    assert len(mine) == 1, records
    record = mine[0]
    assert record["level"] == "ERROR" and record["logger"] == "cogs.errors"
    assert record["table"] == h.tid
    assert "RuntimeError: disk on fire" in record["traceback"]


def test_plain_log_lines_show_the_extras() -> None:
    buf = io.StringIO()
    configure("INFO", "plain", stream=buf)
    try:
        logging.getLogger("t").error("boom", extra={"error_id": "abcd1234", "table": "42"})
    finally:
        root = logging.getLogger()
        for handler in list(root.handlers):
            if handler.get_name() == HANDLER_NAME:
                root.removeHandler(handler)
    line = buf.getvalue().strip()
    assert line.endswith("boom [error_id=abcd1234 table=42]") and " ERROR " in line
