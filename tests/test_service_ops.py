"""Running Chipfist as a service (issue 13): start-up without a token, settings,
``doctor``, permissions and the invite URL, command sync, logs with error ids, the
graceful stop (SIGTERM mid-hand in a real process, then resume), backups, health,
metrics and the deployment files.

Rules checked here are the ones every hand must keep across restarts and copies: chip
conservation (R-2.5) and "the log is the truth" (architecture invariant 4).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import pty
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import health
from bot.backup import BackupError, backup
from bot.config import Config, env_names, make_token, token_client_id, unknown_names
from bot.logs import HANDLER_NAME, configure
from bot.table.ports import NullPresenter, open_store
from bot.table.recovery import ledger_error
from bot.table.service import TableService
from cogs import permissions
from cogs.app import RESTARTING, SYNC_LOG, ChipfistBot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
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
    """On a TTY the old convenience stays: no token opens the terminal table. Players
    are named after ``--local`` only (a bare word is a command: ``python -m bot
    frobnicate`` is refused, never a player), so here they sit by typing."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            bot_cmd(),
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=clean_env(CHIPFIST_DB=str(tmp_path / "t.sqlite3")),
        )
        os.write(master, b"alice: sit\nbob: sit\ndeal\ntable\nquit\n")
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
            DISCORD_TOKEN=make_token(123456789012345678),
            CHIPFIST_DB=str(tmp_path / "l.sqlite3"),
            CHIPFIST_LOGLEVEL="DEBUG",
        ),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Hand #1" in proc.stdout
    # The terminal table plays on, but says loudly that a setting name is wrong.
    assert "warning: CHIPFIST_LOGLEVEL is not a Chipfist setting" in proc.stderr


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
        ({"CHIPFIST_REPO_URL": "github.com/x"}, "CHIPFIST_REPO_URL='github.com/x'"),
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


# ---------------------------------------------------------------- a real process


class BotProcess:
    """``python -m bot`` in its own process against ``fake`` (tests/fakediscord/launch.py)."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, **env: str) -> None:
        self.fake = fake
        self.health = tmp_path / "health.json"
        self.log = tmp_path / f"bot-{time.monotonic_ns()}.log"
        self.env = clean_env(
            **{
                "DISCORD_TOKEN": fake.token,
                "CHIPFIST_DB": str(tmp_path / "live.sqlite3"),
                "CHIPFIST_HEALTH_FILE": str(self.health),
                "CHIPFIST_HEALTH_INTERVAL": "0.5",
                "FAKEDISCORD_URL": fake.base_url,
                **env,
            }
        )
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.health.unlink(missing_ok=True)
        with self.log.open("wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.fakediscord.launch",
                cwd=ROOT, env=self.env, stdin=asyncio.subprocess.DEVNULL,
                stdout=log, stderr=log,
            )  # fmt: skip

        def ready() -> bool:
            assert self.proc is not None and self.proc.returncode is None, self.text()
            return health.check(self.health, 30).ok

        await self.fake.wait_for(ready, timeout=60)

    async def stop(self, sig: int = signal.SIGTERM) -> tuple[int, float]:
        assert self.proc is not None
        started = time.monotonic()
        self.proc.send_signal(sig)
        code = await asyncio.wait_for(self.proc.wait(), timeout=30)
        return code, time.monotonic() - started

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    async def kill(self) -> None:
        """After a failed test: never leave the process behind."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


def table_message(fake: FakeDiscord) -> FakeMessage:
    for msg in reversed(fake.channel_messages()):
        if any(":check_call" in c for c in msg.custom_ids()):
            return msg
    raise LookupError("no table message with action buttons")


def to_act(fake: FakeDiscord, msg: FakeMessage) -> FakeUser | None:
    for embed in msg.embeds:
        for f in embed.get("fields", []):
            if f.get("name") == "To act":
                found = re.search(r"<@(\d+)>", f["value"])
                return fake.users[int(found.group(1))] if found else None
    return None


def _has_table(fake: FakeDiscord) -> bool:
    try:
        table_message(fake)
    except LookupError:
        return False
    return True


async def act(fake: FakeDiscord, kind: str = "check_call") -> FakeUser:
    await fake.wait_for(lambda: _has_table(fake), timeout=10)
    msg = table_message(fake)
    actor = to_act(fake, msg)
    assert actor is not None, msg.embeds
    button = next(c for c in msg.custom_ids() if c.endswith(":" + kind))
    await fake.click(actor, msg, button)

    def moved_on() -> bool:
        # The table message shows a later turn (its buttons carry it), or the hand is over.
        if any("is over" in m.content for m in fake.channel_messages()):
            return True
        try:
            return button not in table_message(fake).custom_ids()
        except LookupError:  # no action buttons any more: between hands
            return True

    await fake.wait_for(moved_on, timeout=10)
    return actor


async def test_sigterm_mid_hand_exits_0_fast_and_the_hand_resumes(tmp_path: Path) -> None:
    """SIGTERM to a running bot mid-hand: exit 0 within 5 s, with the table message up
    to date; a new process resumes the hand, which finishes with every chip accounted
    for (R-2.5), and commands were synced only by the first start."""
    async with FakeDiscord() as fake:
        fake.token = make_token(fake.application_id)
        bot = BotProcess(fake, tmp_path)
        try:
            await _mid_hand_stop_and_resume(fake, bot)
        finally:
            await bot.kill()
    await _check_resumed(bot.env["CHIPFIST_DB"], str(fake.channel.id))


async def _mid_hand_stop_and_resume(fake: FakeDiscord, bot: BotProcess) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    await bot.start()
    assert fake.global_commands, bot.text()
    await fake.slash(alice, "table create")
    for user in (alice, bob):
        await fake.slash(user, "sit", buy_in=200)
    await fake.slash(alice, "deal")
    await fake.wait_idle(0.2)
    first = await act(fake)  # the button's call: mid-hand, the other player to act
    msg = table_message(fake)
    waiting = to_act(fake, msg)
    assert waiting is not None and waiting.id != first.id
    code, took = await bot.stop()
    assert code == 0, bot.text()
    assert took < 5.0, (took, bot.text())
    assert "stopped cleanly" in bot.text()
    assert json.loads(bot.health.read_text())["gateway"] == "stopped"

    bot.env["CHIPFIST_LOG_FORMAT"] = "json"
    await bot.start()  # the same database: recover and go on

    def over() -> bool:
        return any("is over" in m.content for m in fake.channel_messages())

    for _ in range(30):
        await fake.wait_for(lambda: over() or _has_table(fake), timeout=10)
        if over():
            break
        await act(fake)
    assert any("Hand #1 is over" in m.content for m in fake.channel_messages())
    code, took = await bot.stop(signal.SIGINT)
    assert code == 0 and took < 5.0, bot.text()
    # One logging setup for the process: discord.py's records are JSON lines too.
    records = [json.loads(line) for line in bot.text().splitlines()]
    assert any(r["logger"].startswith("discord.") for r in records)
    assert any(r["message"].startswith("stopped cleanly") for r in records)
    assert fake.requests_by_route["PUT /applications/{app_id}/commands"] == 1


async def _check_resumed(db: str, table_id: str) -> None:
    store = await open_store(db)
    try:
        service = TableService(store, NullPresenter())
        assert await service.recover(settle=False) == []
        table = service.table(table_id)
        assert table.state.hand_no == 1 and not table.state.in_hand
        assert table.state.conservation_error() is None
        assert await ledger_error(store, table.state) is None
        assert sum(s.stack for s in table.state.seats.values()) == 400
    finally:
        await store.close()


async def test_a_token_discord_refuses_exits_3_once(tmp_path: Path) -> None:
    """Exit 3 (not restarted by the systemd unit) with one line, no traceback."""
    async with FakeDiscord() as fake:
        fake.token = make_token(fake.application_id)
        bot = BotProcess(fake, tmp_path, DISCORD_TOKEN=make_token(fake.application_id + 1))
        with bot.log.open("wb") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.fakediscord.launch", cwd=ROOT, env=bot.env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
            )  # fmt: skip
        assert await asyncio.wait_for(proc.wait(), timeout=60) == 3
    text = bot.text()
    assert "Discord refused the token" in text and "Traceback" not in text


def test_metrics_port_taken_refuses_to_start(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            bot_cmd(), stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path,
            env=clean_env(DISCORD_TOKEN=make_token(123456789012345678),
                          CHIPFIST_METRICS_PORT=str(port)),
            timeout=60,
        )  # fmt: skip
    assert proc.returncode == 2
    assert f"cannot serve metrics on port {port}" in proc.stderr and "Traceback" not in proc.stderr


async def test_stop_lets_the_command_in_flight_commit_and_answer(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop that arrives while an action is being written waits for it: the action is
    in the log after the stop (invariant 4) and the player got the answer."""
    users = players(h.fake)
    await h.start_table(users)
    assert h.bot.service is not None and h.db is not None
    store = h.bot.service.store
    append = store.append
    writing = asyncio.Event()

    async def slow_append(*args: Any, **kwargs: Any) -> int:
        writing.set()
        await asyncio.sleep(0.5)
        return await append(*args, **kwargs)

    monkeypatch.setattr(store, "append", slow_append)
    turn = h.table().state.turn
    actor = h.to_act()
    assert actor is not None
    click = await h.fake.click(actor, h.table_message(), h.button("check_call"), wait=False)
    await asyncio.wait_for(writing.wait(), timeout=5)
    await h.bot.close()
    assert click.acknowledged
    check = await open_store(str(h.db))
    try:
        service = TableService(check, NullPresenter())
        await service.recover(settle=False)
        assert service.table(h.tid).state.turn == turn + 1
    finally:
        await check.close()


async def test_draining_bot_answers_restarting_and_changes_nothing(h: Harness) -> None:
    """Once the stop began, a new command is answered (not left to time out) and not run."""
    alice = players(h.fake)[0]
    h.bot.draining = True
    await h.slash(alice, "table create")
    assert h.last_ephemeral(alice) == RESTARTING
    assert h.bot.service is not None and h.bot.service.get(h.tid) is None


# ---------------------------------------------------------------- backup


async def _check_copy(path: Path, table_id: str) -> int:
    """Open a backup: every table recovers, chips are conserved (R-2.5); the hand no."""
    store = await open_store(str(path))
    try:
        service = TableService(store, NullPresenter())
        assert await service.recover(settle=False) == []
        table = service.table(table_id)
        assert table.state.conservation_error() is None
        assert await ledger_error(store, table.state) is None
        return table.state.hand_no
    finally:
        await store.close()


async def test_backup_during_play_is_consistent_and_recovers(h: Harness, tmp_path: Path) -> None:
    """Copies taken while actions are being committed each open, recover, and conserve
    chips (R-2.5): each is the database as of one commit."""
    users = players(h.fake)
    await h.start_table(users)
    assert h.db is not None
    copies: list[Path] = []

    async def play() -> None:
        for _ in range(12):
            actor = h.to_act()
            if actor is None:
                await h.slash(users[0], "deal")
                continue
            await h.click(actor, "check_call")

    async def back_up() -> None:
        for i in range(4):
            dest = tmp_path / f"copy-{i}.sqlite3"
            await asyncio.to_thread(backup, h.db, dest)  # type: ignore[arg-type]
            copies.append(dest)
            await asyncio.sleep(0.05)

    await asyncio.gather(play(), back_up())
    assert len(copies) == 4
    for copy in copies:
        assert await _check_copy(copy, h.tid) >= 1
    # The command line, against the live file, while the bot holds it open.
    dest = tmp_path / "cli.sqlite3"
    proc = await asyncio.create_subprocess_exec(
        *bot_cmd("backup", str(dest)), cwd=tmp_path, env=clean_env(CHIPFIST_DB=str(h.db)),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    assert "integrity ok" in out.decode() and "1 tables" in out.decode()
    assert await _check_copy(dest, h.tid) >= 1
    with pytest.raises(BackupError, match="exists"):
        backup(h.db, dest)


# ---------------------------------------------------------------- health


def test_health_file_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    assert not health.check(path, 30).ok  # no file: the bot is not running
    health.write(path, "connected", tables=3)
    verdict = health.check(path, 30)
    assert verdict.ok and "3 open tables" in verdict.line
    assert not health.check(path, 30, now=time.time() + 60).ok  # stale: hung
    health.write(path, "disconnected")
    assert "gateway disconnected" in health.check(path, 30).line
    path.write_text("{not json")
    assert not health.check(path, 30).ok


def test_health_writes_that_overlap_in_one_process_all_land(tmp_path: Path) -> None:
    """Two writes of the health file at once in one process (a gateway change while the
    periodic tick writes, each from a worker thread) each rename their own temporary
    file: none fails, the file is whole, and no temporary file is left behind."""
    from concurrent.futures import ThreadPoolExecutor

    path = tmp_path / "h.json"
    with ThreadPoolExecutor(max_workers=8) as pool:
        jobs = [pool.submit(health.write, path, "connected", tables=n) for n in range(400)]
        for job in jobs:
            job.result()  # raises if a write failed
    assert health.check(path, 30).ok
    assert [p.name for p in tmp_path.iterdir()] == ["h.json"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_health_command_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "h.json"

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            bot_cmd("health"), capture_output=True, text=True, cwd=tmp_path, timeout=60,
            env=clean_env(CHIPFIST_HEALTH_FILE=str(path), CHIPFIST_HEALTH_INTERVAL="5"),
        )  # fmt: skip

    assert run().returncode == 1
    health.write(path, "connected")
    proc = run()
    assert proc.returncode == 0 and proc.stdout.startswith("healthy"), proc.stdout
    health.write(path, "connected")
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "time": time.time() - 100}))  # 100 s > 3 x 5 + 5
    proc = run()
    assert proc.returncode == 1 and "last update" in proc.stdout


async def test_bot_writes_health_and_notifies_systemd(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The running bot keeps the health file fresh with its gateway state, and under
    systemd (NOTIFY_SOCKET, WATCHDOG_USEC) sends READY=1 then WATCHDOG=1 pings."""
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(sock_path))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # ping every 0.1 s
    path = tmp_path / "health.json"
    settings = Config.load(
        env={"CHIPFIST_HEALTH_FILE": str(path), "CHIPFIST_HEALTH_INTERVAL": "5"}, dotenv=None
    )
    bot = ChipfistBot(
        str(tmp_path / "h.sqlite3"), clocks=False, sync=False, settings=settings,
        **FakeDiscord.client_options(),
    )  # fmt: skip
    messages: list[str] = []

    def received() -> bool:
        with contextlib.suppress(BlockingIOError):
            while True:
                messages.append(sock.recv(4096).decode())
        return any(m.startswith("READY=1") for m in messages) and "WATCHDOG=1" in messages

    try:
        async with run_bot(fake_discord, bot):
            await fake_discord.wait_for(received, timeout=5)
            await fake_discord.wait_for(lambda: health.check(path, 5).ok, timeout=5)
        assert json.loads(path.read_text())["gateway"] == "stopped"
        received()
        assert messages[-1] == "STOPPING=1"
    finally:
        sock.close()


# ---------------------------------------------------------------- metrics


def _scrape(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


async def test_metrics_count_tables_hands_actions_requests_429s_and_commits(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    from cogs.metrics import Metrics, route_of

    assert route_of("/api/v10/interactions/1234567890123456789/aW50ZXJhY3Rpb24/callback") == (
        "/interactions/{id}/{token}/callback"
    )
    metrics = Metrics(0)
    port = metrics.start()
    bound = metrics._server.server_address[0]
    bot = ChipfistBot(
        str(tmp_path / "m.sqlite3"), clocks=False, sync=False, metrics=metrics,
        **FakeDiscord.client_options(),
    )  # fmt: skip
    try:
        async with run_bot(fake_discord, bot, sync=True):
            h = Harness(fake_discord, bot)
            users = players(fake_discord)
            await h.start_table(users)
            fake_discord.rate_limit("/callback", times=1, retry_after=0.05)
            clicks = 0
            while h.table().state.in_hand and clicks < 40:
                actor = h.to_act()
                assert actor is not None
                await h.click(actor, "check_call")
                clicks += 1
            assert not h.table().state.in_hand
            got = await asyncio.to_thread(_scrape, port)
    finally:
        metrics.stop()
    assert got["chipfist_open_tables"] == 1.0
    assert got["chipfist_hands_total"] == 1.0 and got["chipfist_hands_per_minute"] == 1.0
    assert got["chipfist_action_seconds_count"] == clicks
    callback = 'method="POST",route="/interactions/{id}/{token}/callback"'
    assert got[f"chipfist_discord_requests_total{{{callback}}}"] >= clicks + 5
    assert got[f"chipfist_discord_rate_limited_total{{{callback}}}"] == 1.0
    assert got["chipfist_store_commit_seconds_count"] >= clicks
    assert bound == "127.0.0.1"  # loopback only: never served on another interface


# ---------------------------------------------------------------- deployment files


def _set_names(text: str) -> set[str]:
    return set(re.findall(r"\b(CHIPFIST_[A-Z0-9_]+)\b", text))


def test_compose_file_parses_with_volume_env_file_and_healthcheck() -> None:
    import yaml

    text = (ROOT / "deploy" / "compose.yaml").read_text()
    doc = yaml.safe_load(text)
    service = doc["services"]["chipfist"]
    assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    context = (ROOT / "deploy" / service["build"]["context"]).resolve()
    assert context == ROOT and (context / service["build"]["dockerfile"]).is_file()
    assert service["env_file"] == "../.env"
    volume, mount = service["volumes"][0].split(":")
    assert volume in doc["volumes"] and mount == "/data"
    assert service["environment"]["CHIPFIST_DB"].startswith(mount + "/")
    assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]
    assert service["stop_signal"] == "SIGTERM" and service["restart"] == "unless-stopped"
    assert _set_names(text) <= set(env_names().values())


def test_dockerfile_is_multi_stage_non_root_with_volume_healthcheck_and_stopsignal() -> None:
    text = (ROOT / "deploy" / "Dockerfile").read_text()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    assert sum(ln.startswith("FROM ") for ln in lines) == 2
    final = lines[max(i for i, ln in enumerate(lines) if ln.startswith("FROM ")) :]
    user = [ln.split()[1] for ln in final if ln.startswith("USER ")]
    assert user and user[-1] not in ("root", "0")
    assert 'VOLUME ["/data"]' in final
    assert "STOPSIGNAL SIGTERM" in final
    assert any(ln.startswith("HEALTHCHECK") for ln in final)
    assert 'CMD ["python", "-m", "bot", "health"]' in text
    assert final[-1] == 'CMD ["python", "-m", "bot"]'
    assert "CHIPFIST_DB=/data/" in text
    assert _set_names(text) <= set(env_names().values())
    # Every package the build copies exists (a renamed folder would break the image).
    for src in re.findall(r"^COPY (?!--)(\S+)", text, re.M):
        assert (ROOT / src).exists(), src


def test_systemd_unit_is_hardened_and_restarts_on_failure() -> None:
    text = (ROOT / "deploy" / "chipfist.service").read_text()
    keys: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), []).append(value.strip())
    assert keys["User"] == ["chipfist"] and keys["Restart"] == ["on-failure"]
    assert keys["NoNewPrivileges"] == ["yes"] and keys["ProtectSystem"] == ["strict"]
    # The database is the default chipfist.sqlite3 in the working directory, the one
    # writable path (the env file may name another, or a postgresql:// URL).
    assert keys["WorkingDirectory"] == keys["ReadWritePaths"]
    assert keys["KillSignal"] == ["SIGTERM"] and keys["Type"] == ["notify"]
    assert set(keys["RestartPreventExitStatus"][0].split()) == {"2", "3"}
    assert _set_names(text) <= set(env_names().values())


async def test_sigterm_with_discord_unreachable_still_exits_0_within_5_s(tmp_path: Path) -> None:
    """Discord gone (the bot reconnecting, deliveries failing): the stop is still bounded
    and the store is closed cleanly (the table recovers, R-2.5)."""
    async with FakeDiscord() as fake:
        fake.token = make_token(fake.application_id)
        bot = BotProcess(fake, tmp_path)
        try:
            await bot.start()
            alice, bob = fake.user("alice"), fake.user("bob")
            await fake.slash(alice, "table create")
            for user in (alice, bob):
                await fake.slash(user, "sit", buy_in=200)
            await fake.slash(alice, "deal", wait=False)
            await fake.stop()  # mid-delivery: every request now fails to connect
            await asyncio.sleep(0.3)
            code, took = await bot.stop()
            assert code == 0, bot.text()
            assert took < 5.0, (took, bot.text())
        finally:
            await bot.kill()
    store = await open_store(bot.env["CHIPFIST_DB"])
    try:
        service = TableService(store, NullPresenter())
        assert await service.recover(settle=False) == []
        table = service.table(str(fake.channel.id))
        assert table.state.conservation_error() is None
    finally:
        await store.close()


async def test_doctor_reports_pending_and_too_new_schema(tmp_path: Path) -> None:
    """Upgrades: an older schema is reported as migrated at the next start; a schema
    newer than the code fails (downgrades are not supported)."""
    import aiosqlite

    from bot.doctor import check_database
    from bot.store.schema import LATEST, migrate

    db = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await migrate(conn, target=1)
    ok, line = check_database(str(db))
    assert ok and f"schema v1, migrated to v{LATEST} at the next start" in line
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await conn.execute("UPDATE schema_version SET version = ?", (LATEST + 1,))
    ok, line = check_database(str(db))
    assert not ok and "newer than this code" in line


async def test_a_database_in_use_by_a_terminal_table_refuses_the_bot_in_one_line(
    tmp_path: Path,
) -> None:
    """One process per SQLite file: the bot started on the file a terminal table (or
    another bot) has open exits 2 with one line saying so, no traceback, nothing written."""
    from bot.store import open_store as open_backend

    async with FakeDiscord() as fake:
        fake.token = make_token(fake.application_id)
        bot = BotProcess(fake, tmp_path)
        holder = await open_backend(bot.env["CHIPFIST_DB"])
        try:
            with bot.log.open("wb") as log:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "tests.fakediscord.launch", cwd=ROOT, env=bot.env,
                    stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
                )  # fmt: skip
            assert await asyncio.wait_for(proc.wait(), timeout=60) == 2
        finally:
            await holder.close()
    text = bot.text()
    assert "is in use by another terminal table or bot" in text and "Traceback" not in text
