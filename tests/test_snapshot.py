"""Table snapshots as a typed record (bot/table/snapshot.py, issue 14): the body is a
frozen :class:`SnapshotBody` with one ``to_payload`` / ``from_payload`` pair, and the
snapshots stored before it existed still load (invariant 4).

``tests/data/snapshot_v1.json`` holds two snapshot payloads written by the code of
c53b4e4 (``to_payload`` over a plain dict, before the record), taken of the two open
tables of the legacy database (tests/data/legacy_log.sqlite3) as that code recovered
them, with that code's summary of each state (digest included).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.table import log
from bot.table.snapshot import VERSION, SnapshotBody, from_payload, to_payload
from bot.table.state import state_digest
from tests.harness import Harness
from tests.make_legacy_log import summary

FIXTURE = Path(__file__).parent / "data" / "snapshot_v1.json"


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_invariant_4_snapshots_written_before_the_record_load_as_they_did() -> None:
    """Invariant 4: each stored snapshot (one mid-hand, one between hands) loads to the
    state the old code had (same digest and summary, the hand in progress replayable,
    chips conserved, R-2.5), and the record writes it back key for key."""
    data = _fixture()
    for table_id in ("t1", "t2"):
        payload, expected = data[table_id]["payload"], data[table_id]["summary"]
        state = from_payload(table_id, payload, seq=1)
        assert state is not None
        assert state_digest(state) == expected["digest"]
        # The finished hands kept for history are not in a snapshot (read from the log).
        assert {**summary(state), "recent": None} == {**expected, "recent": None}
        assert state.conservation_error() is None
        written = _json(to_payload(state))
        # Written back key for key, plus which table of the channel it is (the first).
        new = (written.pop("incarnation"), written.pop("opened_seq"), written.pop("carried_by"))
        assert new == (1, 0, [])
        assert written == payload
    assert data["t1"]["summary"]["in_hand"] and data["t1"]["payload"].get("current")


def test_invariant_4_an_older_snapshot_without_the_later_fields_loads() -> None:
    """Invariant 4: a version-1 snapshot older than ``bank_granted`` and the seat flags
    (leaving, sit_out_next, missed) loads with their defaults: the banks as filled from
    the setting in force, the flags off."""
    payload = dict(_fixture()["t2"]["payload"])
    payload.pop("bank_granted")
    payload["seats"] = [
        {k: v for k, v in s.items() if k not in ("leaving", "sit_out_next", "missed")}
        for s in payload["seats"]
    ]
    body = SnapshotBody.from_payload(payload)
    assert body.bank_granted == body.settings.time_bank
    assert all(not (s.leaving or s.sit_out_next or s.missed) for s in body.seats)
    state = from_payload("t2", payload)
    assert state is not None and state.conservation_error() is None


async def test_invariant_4_the_body_round_trips_and_names_a_bad_field() -> None:
    """Invariant 4: the record reads back what it wrote (mid-hand, a departure kept,
    R-2.3); a field of the wrong type is a LogError (kind 'snapshot', its seq) naming
    the field; another version is not read (recovery folds the whole log)."""
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    body = SnapshotBody.of(table.state)
    again = SnapshotBody.from_payload(_json(body.to_payload()))
    assert again == body
    assert state_digest(again.to_state("t")) == state_digest(table.state)
    good = body.to_payload()
    seat = {**good["seats"][0], "stack": "lots"}
    with pytest.raises(log.LogError, match="'stack' is 'lots', not a whole number") as caught:
        from_payload("t", {**good, "seats": [seat, *good["seats"][1:]]}, 9)
    assert (caught.value.seq, caught.value.kind) == (9, "snapshot")
    with pytest.raises(log.LogError, match="seat state 'asleep'"):
        from_payload("t", {**good, "seats": [{**good["seats"][0], "state": "asleep"}]}, 9)
    with pytest.raises(log.LogError, match="missing 'turn'"):
        from_payload("t", {k: v for k, v in good.items() if k != "turn"}, 9)
    assert from_payload("t", {**good, "version": VERSION + 1}) is None
