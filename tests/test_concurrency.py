"""Invariant 3 under load: concurrent commands on one table apply exactly once, in a
legal order; different tables never wait for each other."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.poker.actions import action_from_dict
from bot.poker.record import HandStart, replay
from bot.table.ports import LedgerRow, MemoryStore, open_store
from tests.harness import HOST, Harness

WORDS = ["check", "call", "fold", "bet 4", "raise to 8", "raise 10", "all in", "pot", "x y"]


async def test_100_concurrent_commands_on_one_table_apply_once() -> None:
    h = Harness()
    players = [f"p{i}" for i in range(6)]
    table = await h.seated(players, buy_in=200)
    await h.deal(table)
    start_turn = table.state.turn
    rng = random.Random(11)
    keys = [f"ix-{i}" for i in range(60)]  # 100 commands, 60 keys: many duplicates
    commands = []
    for i in range(100):
        user = rng.choice(players)
        stale = start_turn if i % 10 == 0 else None
        commands.append((user, rng.choice(WORDS), keys[i % 60], stale))

    async def send(user: str, word: str, key: str, turn: int | None) -> Any:
        await asyncio.sleep(0)  # let them interleave
        return await table.act(user, word, key=key, turn=turn)

    outcomes = await asyncio.gather(*(send(*c) for c in commands))
    h.check(table)
    applied = [o for o in outcomes if o.ok and not o.duplicate]
    logged = [e for e in await h.store.events("t") if e.kind == "action"]
    hand_logged = [e for e in logged if e.payload["hand_no"] == 1]
    assert len(applied) == len(hand_logged) >= 3  # several legal ones got through
    # Each idempotency key is in the log at most once.
    logged_keys = [e.idem_key for e in logged]
    assert len(logged_keys) == len(set(logged_keys))
    # A repeated key never applied twice: every other use was a duplicate or a refusal.
    for key in set(logged_keys):
        uses = [o for c, o in zip(commands, outcomes, strict=True) if c[2] == key]
        assert sum(1 for o in uses if o.ok and not o.duplicate) == 1
    # The stale commands (turn already passed) applied at most the first time.
    stale_ok = [o for c, o in zip(commands, outcomes, strict=True) if c[3] and o.ok]
    assert len([o for o in stale_ok if not o.duplicate]) <= 1
    # The log replays in the engine: every applied action was legal when it was applied.
    started = next(e for e in await h.store.events("t") if e.kind == "hand_started")
    start = HandStart.from_dict(dict(started.payload["start"]))
    hand = replay(start, [action_from_dict(dict(e.payload["action"])) for e in hand_logged])
    live = table.state.recent.get(1)
    if live is None:
        assert table.state.hand is not None
        assert hand.stacks == table.state.hand.stacks and hand.board == table.state.hand.board
    else:
        assert hand.over


class SlowStore(MemoryStore):
    """Appends for one table take long (a slow disk, a stuck writer for that table)."""

    def __init__(self, slow: str, delay: float) -> None:
        super().__init__()
        self.slow, self.delay = slow, delay

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
    ) -> int:
        if table_id == self.slow and kind == "action":
            await asyncio.sleep(self.delay)
        return await super().append(table_id, kind, payload, idem_key=idem_key, ledger=ledger)


async def test_50_tables_never_wait_for_each_other() -> None:
    h = Harness(store=SlowStore("t0", 0.5))
    tables = [await h.seated(["a", "b", "c"], table_id=f"t{i}") for i in range(50)]
    for t in tables:
        await t.deal(HOST, key=h.key())
    done: dict[str, float] = {}
    began = time.monotonic()

    async def one(t: Any) -> None:
        await t.act(Harness.to_act(t), "call", key=h.key())
        done[t.table_id] = time.monotonic() - began

    await asyncio.gather(*(one(t) for t in tables))
    assert done["t0"] >= 0.5
    others = [v for k, v in done.items() if k != "t0"]
    assert max(others) < 0.25, "a slow table held up the others"
    for t in tables:
        h.check(t)


async def test_50_tables_play_in_parallel_on_sqlite(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = await open_store(str(tmp_path / "c.sqlite3"))
    h = Harness(store=store)
    tables = [await h.seated(["a", "b", "c"], table_id=f"t{i}") for i in range(50)]

    async def play(t: Any) -> None:
        for _ in range(2):
            out = await t.deal(HOST, key=h.key())
            assert out.ok, out.msg
            await h.play_passively(t)

    await asyncio.gather(*(play(t) for t in tables))
    for t in tables:
        h.check(t)
        assert t.state.hand_no == 2
    await store.close()
