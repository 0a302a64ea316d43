"""Writes tests/data/legacy_log.sqlite3 and its recovered-state summary
(tests/data/legacy_log.json), the fixture of tests/test_table_log.py.

Run once with the code of commit 0643631 (before the typed table log): the database is
what that code wrote, and the summary is what that code recovered from it. Do not re-run
it with newer code (the point is a database written by the old writers).
``python -m tests.make_legacy_log``
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from bot.local.robot import pick
from bot.table.ports import open_store
from bot.table.state import TableState, state_digest
from tests.harness import Harness

DATA = Path(__file__).parent / "data"
DB = DATA / "legacy_log.sqlite3"
SUMMARY = DATA / "legacy_log.json"


def summary(state: TableState) -> dict[str, Any]:
    """What recovery must give back, in plain JSON (compared field by field)."""
    info = state.current
    return {
        "digest": state_digest(state),
        "seq": state.seq,
        "turn": state.turn,
        "hand_no": state.hand_no,
        "host": state.host,
        "settings": state.settings.to_dict(),
        "seats": [
            [n, s.user_id, s.name, s.stack, s.state, s.owes, s.leaving, s.sit_out_next, s.missed]
            for n, s in sorted(state.seats.items())
        ],
        "bought": state.bought,
        "cashed": state.cashed,
        "rake": state.rake_total,
        "carried": state.carried,
        "pot_state": state.pot_state,
        "paused": state.paused,
        "closed": state.closed,
        "prev": [state.prev_button, state.prev_sb, state.prev_bb],
        "departures": sorted([u, a] for u, (a, _) in state.departures.items()),
        "in_hand": state.in_hand,
        "actions": len(info.actions) if info is not None and not info.ended else None,
        "recent": sorted(state.recent),
    }


async def _play(h: Harness, table: Any, rng: random.Random, hands: int) -> None:
    for _ in range(hands):
        for seat in list(table.state.seats.values()):
            if seat.stack == 0:
                assert (await table.top_up(seat.user_id, 100, key=h.key())).ok
            if seat.state == "sitting_out" and not seat.leaving:
                assert (await table.sit_in(seat.user_id, key=h.key())).ok
        out = await h.deal(table)
        assert out.ok, out.msg
        while (hand := table.state.hand) is not None:
            info = table.state.current
            if hand.phase == "declare" and hand.to_act is None:
                pos = hand.declare_pending()[0]
                legal = hand.declare_legal(pos)
            else:
                pos = hand.to_act
                legal = hand.legal()
            out = await h.do(table, info.users[pos], pick(legal, rng, hand.hole[pos]))
            assert out.ok, out.msg


async def main() -> None:
    DB.unlink(missing_ok=True)
    store = await open_store(str(DB))
    h = Harness(store=store)
    rng = random.Random(14)
    # t1: hold'em, sit-out, top-up, settings change, a hand left in progress.
    t1 = await h.seated(["alice", "bob", "carol", "dave"], table_id="t1")
    await _play(h, t1, rng, 3)
    assert (await t1.sit_out("dave", key=h.key())).ok
    assert (await t1.top_up("alice", 50, key=h.key())).ok
    assert (await t1.change_settings("host", {"small_blind": 2, "big_blind": 4}, key=h.key())).ok
    await _play(h, t1, rng, 2)
    assert (await t1.sit_out("bob", key=h.key())).ok  # still out at the crash
    assert (await t1.stand("carol", key=h.key())).ok
    await h.deal(t1)
    for _ in range(2):
        hand = t1.state.hand
        assert hand is not None and hand.to_act is not None
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(t1, h.to_act(t1), word)).ok
    # t2: fixed-limit stud, a few hands, paused.
    t2 = await h.seated(
        ["erin", "frank", "gina"],
        table_id="t2",
        variant="stud",
        limit="fixed",
        small_bet=2,
        big_bet=4,
    )
    await _play(h, t2, rng, 3)
    assert (await t2.pause("host", True, key=h.key())).ok
    # t3: draw and omaha hi-lo, then closed (not recovered: its last lifecycle event).
    t3 = await h.seated(
        ["hal", "ivy"], table_id="t3", variant="draw5", limit="fixed", small_bet=2, big_bet=4
    )
    await _play(h, t3, rng, 2)
    assert (await t3.close("host", key=h.key())).ok
    # The Discord side's own logs: prefs and table message ids.
    from cogs.prefs import save_notify_mode, save_table_message

    await save_notify_mode(store, "alice", "dm")
    await save_table_message(store, "t1", 123456789)
    await store.close()

    # What the code of this commit recovers from the database.
    store2 = await open_store(str(DB))
    h2 = Harness(store=store2)
    h2.time.set(h.time.now())
    assert await h2.service.recover() == []
    out = {tid: summary(h2.service.table(tid).state) for tid in ("t1", "t2")}
    out["_open"] = await store2.open_tables()  # type: ignore[assignment]
    await store2.close()
    SUMMARY.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
