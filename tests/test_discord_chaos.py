"""A seeded chaos run (issue 15, "Proof"): 20 tables of three players played for 60 s of
real time through the fake Discord with rate limits on and random faults: 50-800 ms
latency, 5% of requests answered 500/502/503, interactions delivered after their 3 s
window, and gateway drops with RESUME. Then, for every table:

- the live state equals the state recovered from the store (newest snapshot plus the
  log's tail, hands in progress replayed; and the whole log folded): the log holds every
  action once, none lost and none doubled by a retry or a replayed gateway event
  (invariants 3 and 4 of docs/architecture.md);
- every chip is accounted for (R-2.5): the live and the recovered state, and the
  store's ledger against the log;
- the table's newest message, as the fake holds it, shows the final state (hand, phase,
  turn, pot, every stack) once the bot has had ``SETTLE`` seconds to catch up.

The players are the ``bench discord --realistic`` drivers (``bench/_realistic.py``):
they read the table from the fake's messages and press its buttons. The faults come
from ``random.Random`` seeded with :data:`SEED` (one generator per kind): the same seed
draws the same faults in the same order of requests (timing still varies a little).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench._realistic import Run, run
from bot.table.ports import open_store
from bot.table.recovery import ledger_error, load
from bot.table.state import state_digest
from cogs.app import ChipfistBot
from tests.fakediscord import FakeConfig, FakeDiscord

SEED = 15
TABLES = 20
PLAY = 60.0
SETTLE = 10.0

CHAOS = FakeConfig(
    seed=SEED,
    rate_limits=True,
    latency=(0.05, 0.8),
    error_rate=0.05,
    late_interaction_rate=0.02,
    gateway_drops_per_minute=3.0,
    gateway_outage=(0.2, 1.5),
)


async def test_chaos_r2_5_every_table_matches_its_log_and_its_last_message(
    tmp_path: Path,
) -> None:
    """R-2.5 under chaos: after 60 s of faulted play every table's live state is the one
    its log rebuilds, every chip is accounted for (stacks, pots, rake; the ledger agrees
    with the log), and the last table message shows the final state (issue 15)."""
    live: dict[str, str] = {}
    live_errors: dict[str, str | None] = {}
    history: list[str] = []

    async def snapshot_live(fake: FakeDiscord, bot: ChipfistBot, out: dict[str, Any]) -> None:
        assert bot.service is not None
        for tid, table in bot.service.tables.items():
            live[tid] = state_digest(table.state)
            live_errors[tid] = table.state.conservation_error()
        for name, _, _ in out["lost_tables"]:
            history.append(f"{name}: what its table messages showed, in order:")
            history.extend(_shown_history(fake, fake.channel_named(name).id))

    spec = Run(
        tables=TABLES,
        duration=PLAY,
        rate=10.0,
        seed=SEED,
        config=CHAOS,
        settle=SETTLE,
        db_dir=str(tmp_path),
    )
    out = await run(spec, check=snapshot_live)

    # The faults did happen (the test cannot pass on a quiet run).
    faults = out["faults"]
    assert sum(v for k, v in faults.items() if k.isdigit()) >= 20, faults
    assert faults.get("late_interaction", 0) >= 1, faults
    assert faults.get("gateway_drop", 0) >= 1 and faults.get("resumed", 0) >= 1, faults
    assert out["actions"] >= 200 and out["hands"] >= TABLES, out
    assert len(live) == TABLES
    # Not asserted (the turn pings' own work, issue 15): background tasks that failed
    # unseen, e.g. a ping whose send met a 503 or ran out of 429 retries.
    print("unretrieved task exceptions:", dict(out["task_error_kinds"]))

    # Every table: the live state is the one its log rebuilds; every chip accounted for.
    store = await open_store(str(tmp_path / "bench.sqlite3"))
    try:
        problems = []
        for tid, digest in sorted(live.items()):
            state = await load(store, tid)
            whole = await load(store, tid, use_snapshot=False)
            errors = [
                live_errors[tid],
                state.conservation_error(),
                await ledger_error(store, state),
            ]
            if state_digest(state) != digest or state_digest(whole) != digest:
                problems.append(f"{tid}: the log rebuilds another state than the live one")
            problems += [f"{tid}: {e}" for e in errors if e]
        assert not problems, problems
    finally:
        await store.close()

    # The last table message of every table shows its final state.
    if out["lost_updates"]:
        detail = "\n".join([*(f"{n}: shows {a}, is {b}" for n, a, b in out["lost_tables"])])
        detail += "\n" + "\n".join(history)
        raise AssertionError(detail)


def _shown_history(fake: FakeDiscord, channel_id: int) -> list[str]:
    """The footer and seats of every table-message payload the fake applied in a channel."""
    lines = []
    for d in fake.deliveries:
        msg = fake.messages.get(d.message_id or 0)
        if msg is None or msg.channel.id != channel_id or msg.ephemeral:
            continue
        embed = (d.payload.get("embeds") or [{}])[0]
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            seats = [f["value"] for f in embed.get("fields") or [] if f.get("name") == "Seats"]
            flat = " / ".join(seats[0].splitlines()) if seats else ""
            lines.append(f"  {d.message_id} {d.route}: {footer} | {flat}")
    return lines
