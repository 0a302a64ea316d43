"""The typed table log (bot/table/log.py): every logged kind is a record with one
``to_payload`` / ``from_payload`` pair, bad rows raise one typed error, and a database
written before the records existed (tests/data/legacy_log.sqlite3, made by
tests/make_legacy_log.py with the code of 0643631) recovers to the very state that code
recovered (invariant 4), conserves chips (R-2.5) and plays its hand in progress on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.poker.actions import Call, Fold
from bot.poker.record import HandStart
from bot.table import log
from bot.table.ports import LoggedEvent, MemoryStore, open_store
from bot.table.recovery import ledger_error, load, rebuild
from bot.table.session import hand_stats
from bot.table.settings import TableSettings
from tests.harness import Harness, told_story
from tests.make_legacy_log import DB, SUMMARY, summary

MOVED_SETTINGS = {"thread_id"}
"""Settings that may leave TableSettings (issue 14: a Discord thread id belongs to the
Discord side); every other setting must come back as the old code read it."""


def _unmoved(value: Any) -> Any:
    """A payload without the moved settings: an old row holds ``thread_id`` among the
    settings; the new code keeps it, once read, under ``extra`` until the Discord side
    records it (cogs/prefs.py). Everything else must match key for key."""
    if isinstance(value, dict):
        out = {k: _unmoved(v) for k, v in value.items() if k not in MOVED_SETTINGS}
        if isinstance(out.get("extra"), dict):
            out["extra"] = {k: v for k, v in out["extra"].items() if k not in MOVED_SETTINGS}
        return out
    if isinstance(value, list):
        return [_unmoved(v) for v in value]
    return value


def _expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SUMMARY.read_text())
    return data


def _same(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    a, e = dict(actual), dict(expected)
    a_set, e_set = a.pop("settings"), e.pop("settings")
    assert a == e
    for key, value in e_set.items():
        if key in MOVED_SETTINGS:
            continue
        got = a_set[key]
        if key == "extra":  # a moved setting read from an old log waits here (migration)
            got = {k: v for k, v in got.items() if k not in MOVED_SETTINGS}
        assert got == value, key


@pytest.fixture
def legacy(tmp_path: Path) -> str:
    """A copy of the fixture (opening a store may migrate it; the committed file stays)."""
    path = tmp_path / "legacy.sqlite3"
    shutil.copyfile(DB, path)
    return str(path)


async def test_invariant_4_legacy_database_recovers_as_the_old_code_did(legacy: str) -> None:
    """Invariant 4 / R-2.5: each open table of the old database comes back equal to what
    the old code recovered (seats, stacks, states, counters, the hand in progress), the
    closed table stays closed, and the ledger agrees with the log."""
    expected = _expected()
    store = await open_store(legacy)
    h = Harness(store=store)
    assert await store.open_tables() == expected["_open"]
    assert await h.service.recover() == []
    for table_id in expected["_open"]:
        state = h.service.table(table_id).state
        _same(summary(state), expected[table_id])
        assert state.conservation_error() is None
        assert await ledger_error(store, state) is None
        # The whole log without a snapshot gives the same table.
        whole = await load(store, table_id, use_snapshot=False)
        _same(summary(whole), expected[table_id])
    assert h.service.get("t3") is None  # closed: its last lifecycle event
    await store.close()


async def test_r2_5_legacy_hand_in_progress_plays_to_the_end(legacy: str) -> None:
    """R-2.5: the hand the old code left in progress is replayed by the new records and
    played out; chips are conserved and the ledger matches; the next deal works."""
    store = await open_store(legacy)
    h = Harness(store=store)
    assert await h.service.recover() == []
    table = h.service.table("t1")
    assert table.state.in_hand
    await h.play_passively(table)
    assert not table.state.in_hand
    h.check(table)
    totals = await store.ledger_totals("t1")
    assert totals["buy_in"] + totals["top_up"] == table.state.bought
    assert totals["cash_out"] == table.state.cashed
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    h.check(table)
    # History of an old hand is read back from the log through the records.
    table.state.recent.clear()
    story = await told_story(table, 2)
    assert story.startswith("Hand #2") and "carol posts the small blind 1" in story
    await store.close()


async def test_every_legacy_row_reads_and_writes_back_the_same_json(legacy: str) -> None:
    """The payloads are the contract: every row the old code wrote is read by a record,
    and the record writes it back key for key (so old and new rows are one format)."""
    store = await open_store(legacy)
    kinds: set[str] = set()
    for log_id in ("t1", "t2", "t3", "_player_prefs", "_table_messages"):
        for ev in await store.events(log_id):
            rec = log.read_event(ev.kind, ev.payload, table_id=log_id, seq=ev.seq)
            assert rec.kind == ev.kind
            written = json.loads(json.dumps(rec.to_payload()))  # as the store keeps it
            assert _unmoved(written) == _unmoved(ev.payload), (log_id, ev.seq, ev.kind)
            kinds.add(ev.kind)
    assert {"created", "sat", "hand_started", "action", "hand_ended", "settings"} <= kinds
    assert {"sat_out", "returned", "topped_up", "stood", "paused", "closed"} <= kinds
    await store.close()


def _samples() -> list[log.LogRecord]:
    start = HandStart.from_dict(
        {
            "rules": {"variant": "holdem", "blinds_or_straddles": [1, 2]},
            "stacks": [100, 100],
            "deck": [],
        },
        checked=False,
    )
    return [
        log.Created(TableSettings(), "host", 3, at=1.0),
        log.SettingsChanged(TableSettings(small_blind=2, big_blind=4), "host", at=2.0),
        log.Sat("u1", "Ann", 1, 100, 0, at=3.0),
        log.Sat("u2", "Bob", 2, 80, 2, "waiting"),
        log.TimeCollected(((1, 5), (2, 5)), at=4.0),
        log.ToppedUp(1, 50, returns=True, state="active", at=5.0),
        log.SatOut(2),
        log.Returned(2, "waiting", 3),
        log.Leaving(1),
        log.Stood(1, 145, at=6.0),
        log.Straddled(2),
        log.Chosen("omaha", "pot"),
        log.Paused(False, at=7.0),
        log.Closed("host"),
        log.CarryReturned((("u1", 8), ("u2", 7)), at=6.5),
        log.Halted("Chip conservation failed (R-2.5)"),
        log.HandStarted(4, start, (1, 2), 1, 1, 2, None, "holdem", "no"),
        log.HandStarted(5, start, (1, 2), 1, 1, 2, None, "holdem", "no", level=(("big_blind", 2),)),
        log.ActionTaken(4, 2, Fold(1), "Bob folds", timeout=True, at=8.0),
        log.ActionTaken(4, 1, Call(0), "Ann calls"),
        log.HandEnded(4, (101, 99), (1, -1), rake=0, carried=0, reason=None),
        log.HandEnded(5, (100, 100), (0, 0), reason="cancelled", pot_state={"system": "guts"}),
        log.HandEnded(6, (110, 90), (10, -10), users=("u1", "u2"), won=(20, 0)),
        log.NotifyChosen("u1", "dm"),
        log.TableMessage("t1", 42),
        log.TableThread("t1", 4242),
        log.CommandsSynced("global", "abc"),
        log.GuildRecorded("t1", 111 << 22, at=9.0),
        log.PrivacyChosen("u1", True),
        log.Created(TableSettings(), "host", 3, 111 << 22),
        log.Sat("u3", "Cy", 4, 1500, 0, "active", "m1", at=10.0),
        log.Stood(4, 1500, "m1"),
        log.MoveRecorded("m1", "u3", "Cy", 1500, "tn:x:1", "tn:x:2", None, at=11.0),
        log.MoveRecorded("m2", "u3", "Cy", 1500, "tn:x:2", "tn:x:1", 7),
        log.MoveFinished("m1", 4),
        log.TablePlace("tn:x:1", 4242, 4343, at=12.0),
        log.TablePlace("tn:x:2", 4244),
        log.HostActed("adjust", "u1", "host", 2, amount=-30, reason="paid at the bar", at=13.0),
        log.HostActed("seat", "u2", "u1", 3, 5),
        log.HostActed("cohost", "u1", "host"),
        log.HostActed("kick", "u3", "u1", 4, by_name="Mona"),
        log.Waitlisted("join", "u9", "Nine", at=14.0),
        log.Waitlisted("offer", "u9", "Nine"),
        log.BombProposed(2, (1, 2, 4), at=13.0),
        log.BombVoted(4, False),
        log.BombLapsed(2),
        log.RabbitHunted(4, 2, ("Kh", "7c"), at=15.0),
        log.RabbitHunted(5, 1, ("2d",), ("3s",)),
        log.ShownByChoice(4, 1, ("As",), at=16.0),
        log.ChipsChanged(4, "u3", 1000, "cup:chips:9:u3", at=17.0),
        log.ChipsChanged(2, "u2", -5, "cup:chips:12:u2"),
    ]


def test_every_kind_round_trips_through_its_payload() -> None:
    """Each record's ``from_payload(to_payload())`` is itself, through JSON; and every
    kind in the registry has a sample (a new kind must come with one)."""
    seen = set()
    for rec in _samples():
        payload = json.loads(json.dumps(rec.to_payload()))
        again = log.read_event(rec.kind, payload, table_id="t", seq=1)
        assert again == rec, rec.kind
        if isinstance(rec, log.HandStarted):
            assert (
                isinstance(again, log.HandStarted) and again.start.to_dict() == rec.start.to_dict()
            )
        seen.add(rec.kind)
    assert seen == set(log.RECORDS)


@pytest.mark.parametrize(
    ("kind", "payload", "why"),
    [
        ("dealt_twice", {"seat": 1}, "unknown event kind"),
        ("sat", {"user": "u", "name": "n", "buy_in": 10}, "missing 'seat'"),
        ("stood", {"seat": "one", "amount": 5}, "not a whole number"),
        ("hand_ended", {"hand_no": 1, "stacks": 7}, "not a list"),
        ("action", {"hand_no": 1, "action": {"kind": "teleport"}}, "action not readable"),
        ("created", {"settings": [], "host": "h"}, "not an object"),
    ],
)
def test_bad_rows_raise_one_error_naming_table_seq_and_kind(
    kind: str, payload: dict[str, Any], why: str
) -> None:
    """An unknown kind or a malformed payload is one typed error, LogError, naming the
    table, the seq and the kind (never a KeyError from deep in a reader)."""
    with pytest.raises(log.LogError) as caught:
        log.read_event(kind, payload, table_id="chan-7", seq=41)
    err = caught.value
    assert (err.table_id, err.seq, err.kind) == ("chan-7", 41, kind)
    assert why in err.reason
    said = str(err)  # an operator's log line: the raw English the reader wrote
    assert "'chan-7'" in said and "#41" in said and repr(kind) in said


async def test_r2_5_an_unreadable_row_stops_only_its_table() -> None:
    """R-2.5: recovery meets a malformed row: that table is halted (nothing moves), the
    error names the row, and the other tables recover."""
    h = Harness()
    await h.seated(["a", "b"], table_id="good")
    await h.seated(["a", "b"], table_id="bad")
    store = h.store
    assert isinstance(store, MemoryStore)
    await store.append("bad", "sat", {"user": "c", "name": "c", "buy_in": 5})  # no seat
    events = await store.events("bad")
    with pytest.raises(log.LogError, match=r"'bad': event #4 \('sat'\)"):
        rebuild("bad", events)
    h2 = Harness(store=store)
    assert await h2.service.recover() == ["bad"]
    assert h2.service.table("bad").state.halted
    assert not h2.service.table("good").state.halted


def test_stats_read_through_the_records() -> None:
    """/stats folds records: a malformed hand end is a LogError, not a silent zero."""
    good: list[tuple[str, dict[str, object]]] = [
        ("sat", {"user": "u1", "name": "Ann", "seat": 1, "buy_in": 100}),
        ("sat", {"user": "u2", "name": "Bob", "seat": 2, "buy_in": 100}),
        (
            "hand_started",
            log.HandStarted(
                1, _samples()[16].start, (1, 2), 1, 1, 2, None, "holdem", "no"
            ).to_payload(),
        ),
        ("hand_ended", {"hand_no": 1, "stacks": [110, 90], "net": [10, -10]}),
    ]
    stats = {s.user_id: s for s in hand_stats(good)}
    assert (stats["u1"].net, stats["u2"].net, stats["u1"].won) == (10, -10, 1)
    bad = [*good[:3], ("hand_ended", {"hand_no": 1, "stacks": [110, 90], "net": "ten"})]
    with pytest.raises(log.LogError):
        hand_stats(bad)


def test_logged_event_rows_read_by_kind() -> None:
    """read_rows reads only the rows of the kind asked for."""
    rows = [
        LoggedEvent(
            "t", 1, "sat", None, None, {"user": "u", "name": "U", "seat": 3, "buy_in": 9}, 0.0
        ),
        LoggedEvent("t", 2, "sat_out", None, None, {"seat": 3}, 0.0),
    ]
    assert [s.seat for s in log.read_rows(rows, log.Sat)] == [3]


async def test_invariant_4_a_malformed_snapshot_is_a_log_error_and_the_log_wins() -> None:
    """Invariant 4: a snapshot is a shortcut, the log the truth. A malformed snapshot is
    a LogError (kind 'snapshot', its seq); recovery then folds the whole log and gets
    the live table back."""
    from bot.table.snapshot import from_payload, to_payload
    from bot.table.state import state_digest

    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    good = to_payload(table.state)
    bad = {**good, "seats": [{"number": 1}]}  # a seat without its fields
    with pytest.raises(log.LogError) as caught:
        from_payload("t", bad, 17)
    assert (caught.value.table_id, caught.value.seq, caught.value.kind) == ("t", 17, "snapshot")
    await h.store.save_snapshot("t", table.state.seq, bad)
    again = await load(h.store, "t")
    assert state_digest(again) == state_digest(table.state)
    assert again.conservation_error() is None


async def test_r16_8_history_tells_the_stakes_the_hand_was_dealt_at(legacy: str) -> None:
    """R-16.8: a hand is told by the rules it was played under: hand #2 of the legacy
    table was dealt at blinds 1/2, before the host changed them to 2/4, and its history
    says 1/2 (it used to print the table's current blinds)."""
    store = await open_store(legacy)
    h = Harness(store=store)
    assert await h.service.recover() == []
    table = h.service.table("t1")
    assert table.settings.big_blind == 4
    story = await told_story(table, 2)
    assert story.splitlines()[0] == "Hand #2: No-limit Texas hold'em, blinds 1/2.", story
    late = await told_story(table, 5)  # dealt after the change
    assert late.splitlines()[0] == "Hand #5: No-limit Texas hold'em, blinds 2/4.", late
    await store.close()


def test_invariant_4_the_store_indexes_the_kinds_the_log_writes() -> None:
    """Invariant 4: the store (which knows no poker) finds open tables and hands by four
    kinds; they must be the records' kinds, or recovery would miss tables."""
    from bot.store import records

    assert records.TABLE_OPENED == log.Created.KIND
    assert records.TABLE_CLOSED == log.Closed.KIND
    assert records.HAND_STARTED == log.HandStarted.KIND
    assert records.HAND_ENDED == log.HandEnded.KIND


def test_r1_9_a_seat_state_in_the_log_is_one_of_the_seat_states() -> None:
    """R-1.9 (the state a player sits down or comes back in): the log's ``sat``,
    ``returned`` and ``topped_up`` records carry a seat state, read as one of the seat
    states (active, sitting_out, waiting); any other word is a LogError naming it."""
    sat = {"user": "u", "name": "U", "seat": 3, "buy_in": 9, "state": "active"}
    assert log.read_event("sat", sat).state == "active"  # type: ignore[attr-defined]  # a Sat
    for kind, payload in (
        ("sat", {**sat, "state": "asleep"}),
        ("returned", {"seat": 3, "state": "asleep", "owes": 0}),
        ("topped_up", {"seat": 3, "amount": 5, "returns": True, "state": "asleep"}),
    ):
        with pytest.raises(log.LogError, match="'state' is 'asleep', not one of active"):
            log.read_event(kind, payload, table_id="t", seq=4)
    assert log.read_event("returned", {"seat": 3, "state": None}).state is None  # type: ignore[attr-defined]  # a Returned
