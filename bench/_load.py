"""The cash-table load the benchmarks share: tables of four robots set up through the
service, one random legal command per step, a rate loop timing each command, and the
percentile the figures print.

Used by ``bench service`` (the load alone), ``bench tournament`` (the same load beside a
tournament), ``bench capacity``, ``bench scale`` and ``bench reads``.
"""

from __future__ import annotations

import asyncio
import random
import time

from bot.local.robot import pick
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.table import Table

PLAYERS = ("a", "b", "c", "d")
HOST = "host"


async def setup(service: TableService, count: int, prefix: str) -> list[Table]:
    """``count`` cash tables ``<prefix>0``, ... with four robots of 200 each."""

    async def one(i: int) -> Table:
        tid = f"{prefix}{i}"
        await service.create(tid, HOST, TableSettings(), key=f"create:{tid}")
        table = service.table(tid)
        for p in PLAYERS:
            await table.sit(p, p, 200, key=f"sit:{tid}:{p}")
        return table

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def step(table: Table, rng: random.Random) -> None:
    """One command: a random legal action; between hands a top-up, a return or a deal."""
    st = table.state
    hand = st.hand
    if hand is None:
        for seat in list(st.seats.values()):
            if seat.stack == 0:
                await table.top_up(seat.user_id, 200, key=f"top:{st.hand_no}:{seat.number}")
                return
            if seat.state == "sitting_out":
                await table.sit_in(seat.user_id, key=f"back:{st.hand_no}:{seat.number}")
                return
        await table.deal(HOST, key=f"deal:{st.hand_no + 1}")
        return
    info = st.current
    assert info is not None
    actor = hand.actors()[0]  # in turn, or the first of those declaring together
    pos, legal = actor.position, actor.legal
    await table.act(info.users[pos], pick(legal, rng), key=f"a:{st.turn}", turn=st.turn)


async def run_rate(
    tables: list[Table],
    rate: float,
    *,
    seconds: float | None = None,
    until: asyncio.Event | None = None,
) -> list[float]:
    """Commands at ``rate`` per second in all, round the tables (a table whose last
    command is still running is passed over), for ``seconds`` or until ``until`` is
    set; each command's latency in seconds."""
    if (seconds is None) == (until is None):
        raise ValueError("run_rate runs for seconds or until an event, one of them")
    rng = random.Random(1)
    latencies: list[float] = []
    tasks: set[asyncio.Task[None]] = set()
    busy: set[str] = set()

    async def timed(table: Table) -> None:
        busy.add(table.table_id)
        t0 = time.perf_counter()
        try:
            await step(table, rng)
        finally:
            latencies.append(time.perf_counter() - t0)
            busy.discard(table.table_id)

    start = time.perf_counter()
    n = 0
    while True:
        due = start + n / rate
        if seconds is not None and due - start >= seconds:
            break
        now = time.perf_counter()
        if due > now:
            await asyncio.sleep(due - now)
        if until is not None and until.is_set():
            break
        table = tables[n % len(tables)]
        if table.table_id not in busy:
            task = asyncio.create_task(timed(table))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        n += 1
    if tasks:
        await asyncio.gather(*tasks)
    return latencies


def ms(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (seconds) in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


__all__ = ["HOST", "PLAYERS", "ms", "run_rate", "setup", "step"]
