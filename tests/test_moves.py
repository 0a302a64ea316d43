"""Moving a player between a tournament's tables (R-19.2): stand without cash-out, sit
with the same chips, both idempotent under the tournament's log of moves; chips
conserved over the tables and the moves in flight (R-2.5), through a SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.table import log as tlog
from bot.table.moves import Mover, balance, moves_log
from bot.table.ports import LedgerKind, open_store
from bot.table.recovery import ledger_error
from bot.table.table import Table
from tests.harness import Harness

A, B = "tn:cup:1", "tn:cup:2"
ROOT = Path(__file__).resolve().parent.parent


async def _two_tables(h: Harness) -> tuple[Table, Table]:
    a = await h.seated(["a1", "a2", "a3"], buy_in=100, table_id=A)
    b = await h.seated(["b1", "b2"], buy_in=100, table_id=B)
    return a, b


def _mover(h: Harness) -> Mover:
    return Mover(h.store, "cup", h.service.table)


async def test_r19_2_a_move_takes_the_whole_stack_and_touches_no_ledger() -> None:
    h = Harness()
    a, b = await _two_tables(h)
    mover = _mover(h)
    before = await mover.balance([A, B])
    assert before.ok and before.total == 500
    ledger_before = (await h.store.ledger_rows(A), await h.store.ledger_rows(B))
    moved = await mover.move("m1", "a1", A, B, seat=5)
    assert moved.done and moved.seat == 5
    assert a.state.seat_of("a1") is None
    seat = b.state.seat_of("a1")
    assert seat is not None and seat.stack == 100 and seat.name == "a1" and seat.number == 5
    # Not a cash-out, not a buy-in: the ledger is as it was.
    assert (await h.store.ledger_rows(A), await h.store.ledger_rows(B)) == ledger_before
    after = await mover.balance([A, B])
    assert after.ok and after.total == 500 and after.in_flight == 0
    h.check(a)
    h.check(b)
    assert await ledger_error(h.store, a.state) is None
    assert await ledger_error(h.store, b.state) is None
    # He plays at his new table.
    assert (await h.deal(b)).ok
    info = b.state.current
    assert info is not None and "a1" in info.users


async def test_r19_2_move_out_is_refused_during_his_hand() -> None:
    h = Harness()
    a, _ = await _two_tables(h)
    assert (await h.deal(a)).ok
    seq = a.state.seq
    out = await a.move_out("a1", key="m1:out")
    assert not out.ok and out.msg is not None and out.msg.key == "deal.move.in_hand"
    assert a.state.seq == seq and a.state.seat_of("a1") is not None
    await h.play_passively(a)
    assert (await a.move_out("a1", key="m1:out")).ok


async def test_r19_2_move_in_refuses_a_taken_seat_and_draws_a_free_one() -> None:
    h = Harness()
    a, b = await _two_tables(h)
    taken = b.state.seats[min(b.state.seats)].number
    assert (await a.move_out("a1", key="m1:out", transfer="m1")).ok
    refused = await b.move_in("a1", "a1", 100, taken, key="m1:in", transfer="m1")
    assert not refused.ok and refused.msg is not None and refused.msg.key == "table.sit.taken"
    assert b.state.seat_of("a1") is None
    drawn = await b.move_in("a1", "a1", 100, None, key="m1:in2", transfer="m1")
    assert drawn.ok
    seat = b.state.seat_of("a1")
    assert seat is not None and seat.number not in (taken,) and seat.stack == 100
    assert balance({A: a.state, B: b.state}, [tlog.MoveRecorded("m1", "a1", "a1", 100, A, B)]).ok


async def test_r19_2_each_command_is_done_once_whatever_the_retries() -> None:
    """A repeated key, or the same transfer under a new key, is "already done"."""
    h = Harness()
    a, b = await _two_tables(h)
    first = await a.move_out("a1", key="m1:out", transfer="m1")
    again = await a.move_out("a1", key="m1:out", transfer="m1")
    assert first.ok and again.ok and again.duplicate
    came = await b.move_in("a1", "a1", 100, key="m1:in", transfer="m1")
    twice = await b.move_in("a1", "a1", 100, key="m1:in", transfer="m1")
    assert came.ok and twice.duplicate
    assert sum(s.stack for s in b.state.seats.values()) == 300
    # Recovered from the log, each table still answers the retry as done.
    h2 = Harness(store=h.store)
    await h2.service.recover()
    out3 = await h2.service.table(A).move_out("a1", key="m1:out", transfer="m1")
    assert out3.ok and out3.duplicate


async def test_r2_5_balance_finds_chips_moved_twice_or_landing_early() -> None:
    """The check is not blind: chips in without chips out, or other chips than
    recorded, are reported."""
    h = Harness()
    a, b = await _two_tables(h)
    move = tlog.MoveRecorded("m1", "a1", "a1", 100, A, B)
    assert (await b.move_in("a1", "a1", 100, key="m1:in", transfer="m1")).ok
    early = balance({A: a.state, B: b.state}, [move])
    assert ("early", "m1") in early.problems and not early.ok
    assert ("unknown", "m1") in balance({A: a.state, B: b.state}, []).problems
    wrong = tlog.MoveRecorded("m1", "a1", "a1", 90, A, B)
    assert ("amount", "m1") in balance({A: a.state, B: b.state}, [wrong]).problems


_CRASH = """
import asyncio, os, signal, sys
from bot.table.moves import Mover
from bot.table.ports import open_store
from bot.table import log as tlog
from tests.harness import Harness

async def main(path, point):
    store = await open_store(path)
    h = Harness(store=store)
    await h.seated(["a1", "a2", "a3"], buy_in=100, table_id="tn:cup:1")
    await h.seated(["b1", "b2"], buy_in=100, table_id="tn:cup:2")
    mover = Mover(store, "cup", h.service.table)
    move = tlog.MoveRecorded("m1", "a1", "a1", 100, "tn:cup:1", "tn:cup:2", None)
    await store.append(mover.log_id, move.kind, move.to_payload(), idem_key="move:m1")
    if point != "recorded":
        a = h.service.table("tn:cup:1")
        out = await a.move_out("a1", key="m1:out", chips=100, transfer="m1")
        assert out.ok
    if point == "in":
        b = h.service.table("tn:cup:2")
        came = await b.move_in("a1", "a1", 100, key="m1:in", transfer="m1")
        assert came.ok
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


@pytest.mark.parametrize("point", ["recorded", "out", "in"])
async def test_r19_2_a_move_killed_between_its_steps_resumes_once(
    store_url: str, point: str
) -> None:
    """SIGKILL after the move is recorded, after the first table stood him up, or after
    the second sat him: recovered from the store (the SQLite file, or PostgreSQL), the
    move is finished once (the step already done answers "already done"), nothing lost
    or doubled (R-2.5)."""
    path = store_url
    proc = subprocess.run(
        [sys.executable, "-c", _CRASH, path, point],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    store = await open_store(path)
    try:
        h = Harness(store=store)
        assert sorted(await h.service.recover()) == []
        mover = _mover(h)
        moves, done = await mover.recorded()
        assert [m.transfer for m in moves] == ["m1"] and not done
        mid = await mover.balance([A, B])
        assert mid.ok and mid.total == 500
        assert mid.in_flight == (100 if point == "out" else 0)
        finished = await mover.resume()
        assert len(finished) == 1 and finished[0].done
        assert finished[0].out is not None and finished[0].out.duplicate == (point != "recorded")
        assert finished[0].came is not None and finished[0].came.duplicate == (point == "in")
        a, b = h.service.table(A), h.service.table(B)
        assert a.state.seat_of("a1") is None
        seat = b.state.seat_of("a1")
        assert seat is not None and seat.stack == 100
        after = await mover.balance([A, B])
        assert after.ok and after.total == 500 and after.in_flight == 0
        assert await mover.resume() == []  # done: nothing to do again
        repeat = await mover.move("m1", "a1", A, B)
        assert repeat.done and repeat.out is not None and repeat.out.duplicate
        assert sum(s.stack for s in b.state.seats.values()) == 300
        for t in (a, b):
            assert await ledger_error(store, t.state) is None
        rows = await store.ledger_rows(A)
        assert not [r for r in rows if r.kind == LedgerKind.CASH_OUT]
        assert moves_log("cup") == mover.log_id
    finally:
        await store.close()
