"""`python -m bench scale --db postgresql://...`: 1, 2 and 4 dealer processes on one database.

Each process is one shard: it takes its shard's lease and drives its own tables (default
20 per process) in push mode (``bench/service.py``'s workload: random legal actions, as
fast as each table goes), every append fenced with the shard's generation, as the bot
does with ``CHIPFIST_SHARDS``. For each process count it prints the actions per second in
all, the ratio to one process, and the CPU seconds per action spent in the dealer
processes and in the rest of the machine (the database, mostly: read from /proc/stat,
so anything else running counts too). From those it projects what a machine with more
cores would do when nothing else runs on it: cores / (CPU seconds per action).

Figures, one per line: ``figure: value unit``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from bench._load import setup, step
from bot.store import is_postgres
from bot.store import open_store as open_backend
from bot.store.lease import LeaseStore
from bot.table.ownership import Ownership
from bot.table.ports import NullPresenter, StoreAdapter
from bot.table.service import TableService

ROOT = Path(__file__).resolve().parent.parent


def _machine_cpu() -> float:
    """Busy CPU seconds of the whole machine so far (Linux /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


async def worker(url: str, shard: int, count: int, tables: int, seconds: float, tag: str) -> None:
    adapter = StoreAdapter(await open_backend(url))
    leases = await LeaseStore.open(url, ttl=30.0)
    ownership = Ownership(leases, f"bench-{shard}", count, [shard], guild_of=lambda _t: shard << 22)
    adapter.fencing = ownership
    await ownership.step()
    service = TableService(adapter, NullPresenter(), ownership=ownership)
    made = await setup(service, tables, f"s{tag}-{shard}-")
    print("ready", flush=True)
    sys.stdin.readline()  # every process starts together
    stop = time.perf_counter() + seconds
    actions = 0
    cpu0 = time.process_time()

    async def loop(i: int) -> None:
        nonlocal actions
        rng = random.Random(i)
        table = made[i]
        while time.perf_counter() < stop:
            await step(table, rng)
            actions += 1

    began = time.perf_counter()
    await asyncio.gather(*(loop(i) for i in range(len(made))))
    elapsed = time.perf_counter() - began
    cpu = time.process_time() - cpu0
    bad = sum(1 for t in made if t.conservation_error() is not None)
    for t in made:  # leave the database with no open tables of this run
        await adapter.append(t.table_id, "closed", {"by": "bench"})
    await ownership.release_all()
    await leases.close()
    await adapter.close()
    print(json.dumps({"actions": actions, "elapsed": elapsed, "cpu": cpu, "bad": bad}), flush=True)


def run(url: str, processes: int, tables: int, seconds: float) -> dict[str, float]:
    tag = str(int(time.time() * 1000) % 10**9)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.scale",
                "--worker",
                url,
                str(i),
                str(processes),
                str(tables),
                str(seconds),
                tag,
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    for p in procs:
        assert p.stdout is not None
        line = p.stdout.readline()
        if line.strip() != "ready":
            raise SystemExit(f"a bench process failed to start: {line!r}")
    machine0 = _machine_cpu()
    wall0 = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    results = []
    for p in procs:
        assert p.stdout is not None
        results.append(json.loads(p.stdout.readline()))
        p.wait(60)
    wall = time.perf_counter() - wall0
    machine = _machine_cpu() - machine0
    actions = sum(r["actions"] for r in results)
    bot_cpu = sum(r["cpu"] for r in results)
    return {
        "actions": actions,
        "rate": actions / max(r["elapsed"] for r in results),
        "bot_cpu": bot_cpu / actions,
        "other_cpu": max(0.0, machine - bot_cpu) / actions,
        "bad": sum(r["bad"] for r in results),
        "wall": wall,
    }


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        url, shard, count, tables, seconds, tag = argv[1:7]
        asyncio.run(worker(url, int(shard), int(count), int(tables), float(seconds), tag))
        return 0
    ap = argparse.ArgumentParser(prog="python -m bench scale", description=__doc__)
    ap.add_argument("--db", required=True, help="a postgresql:// URL (an empty database)")
    ap.add_argument("--tables", type=int, default=20, help="tables per process")
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--processes", default="1,2,4", help="process counts to run")
    ap.add_argument("--cores", type=int, default=16, help="cores of the projected machine")
    args = ap.parse_args(argv)
    if not is_postgres(args.db):
        raise SystemExit("--db must be a postgresql:// URL: several processes share it")
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; push mode, {args.tables} tables per process")
    base = None
    for n in [int(x) for x in args.processes.split(",")]:
        r = run(args.db, n, args.tables, args.seconds)
        base = base or r["rate"]
        print(f"{n} processes actions per second: {r['rate']:.0f} actions/s")
        print(f"{n} processes ratio to one: {r['rate'] / base:.2f} x")
        print(f"{n} processes dealer CPU per action: {1000 * r['bot_cpu']:.2f} ms")
        print(f"{n} processes rest of machine CPU per action: {1000 * r['other_cpu']:.2f} ms")
        print(f"{n} processes conservation failures: {int(r['bad'])} tables")
        per_action = r["bot_cpu"] + r["other_cpu"]
        if n == 1:
            print(
                f"projection for {args.cores} cores: {args.cores / per_action:.0f} actions/s "
                f"(dealers {args.cores * r['bot_cpu'] / per_action:.1f} cores, database "
                f"{args.cores * r['other_cpu'] / per_action:.1f} cores)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
