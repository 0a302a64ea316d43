"""A tournament through the real bot processes (``python -m bot``, tests/fakediscord/
launch.py) on one PostgreSQL store with ``CHIPFIST_SHARD_COUNT``: the owner A runs a
sit-and-go its players play by the buttons of their table's thread; A is SIGKILLed (or
SIGSTOPped, and woken after the take-over) mid-hand; the standby S takes the shard
over, connects its gateway shard, adopts the tournament and deals on; the players
finish it by their buttons and the standings are posted once. Read back from the
store: every hand heard of once, places complete, chips exact (R-2.5), the tournament
and its table on the guild's shard, and the shard's fence moved by the take-over."""

from __future__ import annotations

import asyncio
import re
import signal
from collections import Counter
from pathlib import Path

import pytest

from bot.config import make_token
from bot.poker import messages
from bot.store import open_store
from bot.table.ports import StoreAdapter
from bot.table.recovery import load
from bot.tournament.log import HandFinished, HandStarted, Placed
from bot.tourney_run.driver import INDEX_LOG
from bot.tourney_run.journal import Journal, journal_id
from bot.tourney_run.stakes import table_id
from bot.words import render
from cogs.ids import decode
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.pgcluster import Cluster
from tests.test_discord_e2e import Harness
from tests.test_discord_tourney import click, cog, command, create, t
from tests.test_service_ops import BotProcess, to_act
from tests.test_shards_processes import _answered, _leases, _owner, _until

BOT_TTL = 2.0
PLAYERS = ("bob", "carol", "dave")
__all__ = ["t"]  # the in-process bot's fixture (tests/test_discord_tourney.py)
STACK = 300


async def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


def _buttons(fake: FakeDiscord, all_in: bool = False) -> tuple[FakeMessage, str, FakeUser] | None:
    """The newest turn's button a player presses (check or call; with ``all_in``, all
    in when offered) anywhere (the tournament's table plays in its own thread), and who acts."""
    best: tuple[int, FakeMessage, list[str]] | None = None
    for msg in list(fake.messages.values()):
        if msg.deleted or msg.ephemeral:
            continue
        found = [(b, c) for c in msg.custom_ids() if (b := decode(c)) and b.kind == "act"]
        if not found:
            continue
        turn = max(b.turn for b, _ in found)
        if best is None or turn > best[0]:
            best = (turn, msg, [c for b, c in found if b.turn == turn])
    if best is None:
        return None
    _, msg, ids = best
    user = to_act(fake, msg)
    pick = [c for c in ids if all_in and c.endswith(":all_in")]
    pick = pick or [c for c in ids if c.endswith(":check_call")]
    return None if user is None or not pick else (msg, pick[0], user)


def _standings(fake: FakeDiscord) -> list[FakeMessage]:
    return [
        m
        for m in fake.channel_messages()
        if any("final standings" in str(e.get("title", "")) for e in m.embeds)
    ]


async def _click_once(fake: FakeDiscord, all_in: bool = False) -> bool:
    """The player to act presses his button; True when the bot answered it."""
    found = _buttons(fake, all_in)
    if found is None:
        await asyncio.sleep(0.1)
        return False
    msg, cid, user = found
    try:
        record = await fake.click(user, msg, cid, wait=False)
    except (LookupError, PermissionError):  # the message changed under the click
        await asyncio.sleep(0.05)
        return False
    except RuntimeError:  # no process connected to the gateway for a moment: it failed
        await asyncio.sleep(0.1)
        return False
    answered = await _answered(fake, record)
    await asyncio.sleep(0.05)
    return answered


async def _hands(url: str, tournament: str) -> tuple[Counter[tuple[int, int]], list[object]]:
    store = StoreAdapter(await open_store(url))
    try:
        records = await Journal(store, tournament).records()
    finally:
        await store.close()
    started = Counter((r.table, r.hand) for r in records if isinstance(r, HandStarted))
    return started, list(records)


@pytest.mark.parametrize("how", ["SIGKILL", "SIGSTOP"])
async def test_R_19_76_bot_process_lost_mid_tournament_the_standby_finishes_it(
    tmp_path: Path, pg_cluster: Cluster, how: str
) -> None:
    """R-19.75, R-19.76, R-19.77, R-19.78, R-2.5 through real bot processes: the
    tournament on its guild's shard; its owner SIGKILLed (or SIGSTOPped, and woken once
    the standby has the lease) mid-hand; the standby takes the lease, adopts the
    tournament and its table's thread, and the players' clicks finish it to its
    standings, posted once; each hand heard of once, places complete, chips exact. The
    woken owner deals nothing and writes nothing of it."""
    url = pg_cluster.new_database()
    async with FakeDiscord() as fake:
        fake.token = make_token(fake.application_id)
        env = {"CHIPFIST_DB": url, "CHIPFIST_SHARD_COUNT": "1", "CHIPFIST_LEASE_SECONDS": "2"}
        (tmp_path / "A").mkdir()
        (tmp_path / "S").mkdir()
        a = BotProcess(fake, tmp_path / "A", **env, CHIPFIST_SHARDS="0")
        s = BotProcess(fake, tmp_path / "S", **env, CHIPFIST_STANDBY="1")
        try:
            await a.start()
            await s.start()
            host = fake.user("alice")
            made = await fake.slash(
                host,
                "tournament create",
                players=len(PLAYERS),
                seats=len(PLAYERS),
                stack=STACK,
                structure="turbo",
                level_unit="hands",
                level_length=2,
            )
            assert made.acknowledged, a.text()[-3000:]
            announcement = await _announcement(fake, host, a)
            tournament = await _opened(url)
            for name in PLAYERS:
                reg = next(c for c in announcement.custom_ids() if ":reg:" in c)
                record = await fake.click(fake.user(name), announcement, reg)
                assert await _answered(fake, record), a.text()[-3000:]
            # Play on A until its second hand is under way, then kill A mid-hand.
            for _ in range(600):
                if await _second_hand(url, tournament) and _buttons(fake) is not None:
                    break
                await _click_once(fake)
            else:
                raise AssertionError(f"no second hand\n{a.text()[-6000:]}\n{s.text()[-3000:]}")
            started_before, _ = await _hands(url, tournament)
            assert a.proc is not None
            loop = asyncio.get_running_loop()
            lost_at = loop.time()
            a.proc.send_signal(getattr(signal, how))
            if how == "SIGKILL":
                await a.proc.wait()
            # S takes the lease and connects the gateway shard; the players play on.
            taken_at = await _until("S holds shard 0", lambda: _held(url, _owner(s)), 30, 0.2)
            if how == "SIGSTOP":
                a.proc.send_signal(signal.SIGCONT)  # A wakes up, its lease long gone
            # Check or call (nobody busts) until S has dealt a hand of its own, then all in.
            dealt_by_s = False
            for _ in range(3000):
                if _standings(fake):
                    break
                if not dealt_by_s:
                    dealt_by_s = len((await _hands(url, tournament))[0]) > len(started_before)
                    dealt_at = loop.time()
                await _click_once(fake, all_in=dealt_by_s)
            else:
                raise AssertionError(f"no standings\n{s.text()[-4000:]}")
            print(
                f"\n{how}: lease taken {taken_at - lost_at:.1f} s after, the standby's first"
                f" deal {dealt_at - lost_at:.1f} s after (lease {BOT_TTL} s, 3 s between hands)"
            )
            await fake.wait_idle(0.5)
            assert len(_standings(fake)) == 1
            # The table played in one thread: S edited A's, it made no second one.
            assert len([c for c in fake.channels.values() if c.is_thread]) == 1
            started, records = await _hands(url, tournament)
            finished = Counter((r.table, r.hand) for r in records if isinstance(r, HandFinished))
            assert max(started.values()) == 1 and max(finished.values()) == 1
            assert set(started) == set(finished)
            assert dealt_by_s and set(started_before) <= set(finished)  # the cut hand too
            placed = [r.entry for r in records if isinstance(r, Placed)]
            assert sorted(placed) == sorted(str(fake.user(n).id) for n in PLAYERS)
            store = StoreAdapter(await open_store(url))
            try:
                table = await load(store, table_id(tournament, 1))
            finally:
                await store.close()
            assert table.closed and table.conservation_error() is None
            guilds = await _rows(url, "SELECT table_id, guild_id FROM table_guilds")
            assert (journal_id(tournament), fake.guild_id) in guilds
            assert (table_id(tournament, 1), fake.guild_id) in guilds
            fences = {str(n): g for n, g in await _rows(url, "SELECT name, generation FROM fences")}
            # The take-over moved the fence past every generation A held, and nobody
            # took the shard after S. A busy host may stall A's start past its lease, so
            # A may have taken the shard more than once (each time a new generation).
            by_a, by_s = _takes(a.text()), _takes(s.text())
            logs = f"{fences}\n{a.text()[-5000:]}\n{s.text()[-5000:]}"
            assert by_a and by_s == [fences["shard:0"]] and max(by_a) < by_s[0], logs
            assert "Traceback" not in s.text(), s.text()[-4000:]
            if how == "SIGSTOP":  # A, awake, let the shard go and runs nothing of it
                assert "lease of shard 0 lost" in a.text(), a.text()[-4000:]
                assert (await _leases(url)).get(0) == _owner(s)
                code, _ = await a.stop()
                assert code == 0, a.text()[-4000:]
            for proc in (a, s) if how == "SIGSTOP" else (s,):
                assert "tourney_run" not in proc.text(), proc.text()[-4000:]
            code, _ = await s.stop()
            assert code == 0
        finally:
            await a.kill()
            await s.kill()


def _takes(text: str) -> list[int]:
    """The generations a process took shard 0 at, in order, from its log."""
    return [int(g) for g in re.findall(r"took shard 0 \(generation (\d+)\)", text)]


async def _second_hand(url: str, tournament: str) -> bool:
    started, _ = await _hands(url, tournament)
    return len(started) >= 2


async def _held(url: str, owner: str) -> bool:
    return (await _leases(url)).get(0) == owner


async def _opened(url: str) -> str:
    """The tournament's id, from the driver's index."""
    store = StoreAdapter(await open_store(url))
    try:
        (row,) = [e for e in await store.events(INDEX_LOG) if e.kind == "opened"]
    finally:
        await store.close()
    return str(row.payload["tournament"])


async def _announcement(fake: FakeDiscord, host: FakeUser, bot: BotProcess) -> FakeMessage:
    def found() -> list[FakeMessage]:
        return [m for m in fake.channel_messages() if any(":reg:" in c for c in m.custom_ids())]

    try:
        await fake.wait_for(found, timeout=10)
    except Exception as exc:
        said = [m.content for m in fake.ephemerals(host)]
        raise AssertionError(f"no announcement: {said}\n{bot.text()[-3000:]}") from exc
    return found()[0]


async def test_R_19_78_a_command_or_click_for_a_tournament_run_elsewhere_changes_nothing(
    t: Harness,
) -> None:
    """R-19.78: once another process runs the tournament (its shard moved: the driver
    forgot it), its Register button and its commands are answered privately as a
    moving table's are, in the player's words, and nothing is written."""
    alice, bob = t.fake.user("alice"), t.fake.user("bob")
    assert "is open" in await create(t, alice, format="scheduled")
    driver = cog(t).driver
    (tournament,) = list(driver.runners)
    assert "registered" in await click(t, bob, "reg")
    store = driver.service.store
    before = len(await store.events(journal_id(tournament)))
    driver.forget(tournament)
    moving = render(messages.msg("table.not_owned"), "en")
    assert await click(t, alice, "reg") == moving
    assert moving in await command(t, bob, "unregister", tournament=tournament)
    assert moving in await command(t, alice, "start")  # the channel's, found by its place
    assert len(await store.events(journal_id(tournament))) == before
    assert driver.get(tournament) is None
