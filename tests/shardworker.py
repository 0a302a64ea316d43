"""Test only: one dealer process of the multi-process test (tests/test_shards_processes.py).

``python -m tests.shardworker URL NAME SHARDS SHARD_COUNT TTL TABLES [--standby]`` runs a
table service with shard leases on the PostgreSQL database ``URL`` (the same
``Ownership``, fences and recovery as the bot, without the Discord presenter) and plays
the tables of the shards it holds as the players would: deal, then check or call, each
action with the idempotency key and turn a button click carries. Tables are
``"GUILD:N"``; their guild decides their shard. Each thing that happens is one JSON line
on stdout (``gained``, ``lost``, ``refused``, ``acted``) with the wall-clock time, for the
test to read.

SIGCONT (after a SIGSTOP) is noted, so the test can check that a paused owner, in an
action begun after waking, wrote nothing under the leases it held when it fell asleep
(``acted_after_wake``): they ran out by its own clock while it slept. It acts again only
on a shard it took again.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from typing import Any

from bot.store import open_store
from bot.store.lease import LeaseStore
from bot.table.ownership import NotOwned, Ownership, parse_shards
from bot.table.ports import NullPresenter, StoreAdapter
from bot.table.service import TableService
from bot.table.settings import TableSettings

PLAYERS = ("p1", "p2", "p3")
BUY_IN = 100


def say(**data: Any) -> None:
    print(json.dumps({"t": time.time(), **data}), flush=True)


async def main(argv: list[str]) -> None:
    url, name, shards, count, ttl, tables = argv[:6]
    standby = "--standby" in argv
    table_ids = [t for t in tables.split(",") if t]
    adapter = StoreAdapter(await open_store(url))
    leases = await LeaseStore.open(url, ttl=float(ttl))
    ownership = Ownership(
        leases,
        name,
        int(count),
        parse_shards(shards),
        standby=standby,
        guild_of=lambda t: int(t.split(":")[0]),
    )
    adapter.fencing = ownership
    service = TableService(adapter, NullPresenter(), ownership=ownership)
    woke = {"at": 0.0, "settled": 0.0, "refused": 0, "acted": 0}
    # Each shard's lease generation when the process woke: an action after waking may
    # only go through under a lease taken after it (nobody else had taken the shard).
    before_sleep: dict[int, int] = {}
    refusals: dict[str, int] = {}
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()

    def on_wake() -> None:
        # The first thing a paused owner does on waking: drive its tables as it was.
        woke["at"] = time.time()
        before_sleep.update({s: lease.generation for s, lease in ownership.held.items()})
        for tid in list(service.tables):
            task = asyncio.ensure_future(step(tid))
            pending.add(task)
            task.add_done_callback(pending.discard)

    loop.add_signal_handler(signal.SIGCONT, on_wake)
    await ownership.learn(table_ids)
    for tid in table_ids:
        ownership.guilds.setdefault(tid, int(tid.split(":")[0]))

    async def leases_loop() -> None:
        if standby:
            await asyncio.sleep(float(ttl))
        while True:
            held = set(ownership.held)
            started = time.time()
            try:
                await service.lease_step()
            except Exception as exc:  # the test wants to see it, not a dead loop
                say(ev="lease_error", error=repr(exc))
            if woke["at"] and started > woke["at"] and not woke["settled"]:
                woke["settled"] = time.time()
                say(ev="settled", held=sorted(ownership.held))  # for a failure's report
            now = set(ownership.held)
            if now - held:
                say(
                    ev="gained",
                    shards=sorted(now - held),
                    started=started,
                    tables=len(service.tables),
                )
            if held - now:
                say(ev="lost", shards=sorted(held - now))
            await asyncio.sleep(float(ttl) / 3)

    async def create_mine() -> None:
        for tid in table_ids:
            if ownership.owns(tid) and tid not in service.tables:
                out = await service.create(tid, "host", TableSettings(), key=f"create-{tid}")
                if out.ok:
                    table = service.table(tid)
                    for p in PLAYERS:
                        await table.sit(p, p, BUY_IN, key=f"sit-{tid}-{p}")

    async def step(tid: str) -> None:
        began = time.time()
        table = service.tables.get(tid)
        if table is None:
            return
        st = table.state
        if st.halted or st.closed:
            return
        if st.hand is None:
            out = await table.deal("host", key=f"deal-{tid}-{st.hand_no + 1}")
        else:
            hand, info = st.hand, st.current
            assert info is not None
            if hand.to_act is None:
                return
            user = info.users[hand.to_act]
            word = "check" if "check" in hand.legal().actions else "call"
            turn = st.turn
            out = await table.act(user, word, key=f"act-{tid}-{turn}", turn=turn)
        if out.ok and not out.duplicate:
            lease = ownership.held.get(ownership.shard(tid))
            stale = lease is None or before_sleep.get(lease.shard) == lease.generation
            # Only an action begun after waking counts: one begun before the pause had
            # its lease checked then, and its write, in flight across the pause, is the
            # store's fence's to let in or refuse (a take-over waits for it or fences it).
            if woke["at"] and began >= woke["at"] and stale:
                woke["acted"] += 1
                say(ev="acted_after_wake", table=tid)
        elif out.msg == NotOwned(tid).msg:
            woke["refused"] += 1
            say(ev="refused", table=tid, woke=woke["at"])
        elif not out.ok and refusals.setdefault(tid, 0) < 3:
            refusals[tid] += 1
            say(ev="refusal", table=tid, message=out.msg.key)

    lease_task = asyncio.create_task(leases_loop())
    while True:
        await create_mine()
        for tid in list(service.tables):
            await step(tid)
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.01)
        if lease_task.done():
            raise SystemExit(f"the lease loop ended: {lease_task.exception()!r}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
