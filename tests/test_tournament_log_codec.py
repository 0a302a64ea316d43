"""The tournament log's records as stored: every kind's payload byte for byte as the
store holds it (logs written before must replay, R-19.40), decoded back to the same
record, and a payload that is no record refused as such."""

from __future__ import annotations

import json

import pytest

from bot.tournament.log import (
    KINDS,
    BountyPaid,
    Cancelled,
    ChipRaced,
    Created,
    Finished,
    HandFinished,
    HandForHandChanged,
    HandStarted,
    LevelUp,
    LogError,
    Moved,
    Out,
    Paused,
    Placed,
    Rebought,
    Record,
    Registered,
    RegistrationClosed,
    Resumed,
    Returned,
    Seated,
    Started,
    TableBroken,
    Unregistered,
    Waiting,
    from_payload,
    to_payload,
)
from bot.tournament.structure import Break, Config, Entries, Level, Schedule

_SCHEDULE = Schedule(
    (Level(10, 20, 2, 5, 6), Break(5), Level(20, 40, 4, 10, 6)), "hands", "bring_in"
)
_CONFIG = Config(
    game=("holdem", "razz"),
    buy_in=100,
    fee=10,
    stack=1500,
    schedule=_SCHEDULE,
    seats=8,
    entries=Entries(late_until=2, reentries=1, bounty=20),
    payouts=(6000, 4000),
    pay_jumps=(3,),
    chip_races=((4, 25, 100),),
    rotate="deal",  # as every event recorded before the choice was dealt
)

STORED: tuple[tuple[Record, str], ...] = (
    (
        Created(_CONFIG, at=1700000000.25),
        '{"kind": "created", "config": {"game": ["holdem", "razz"], "format": "scheduled", '
        '"buy_in": 100, "fee": 10, "stack": 1500, "schedule": {"unit": "hands", "forced": '
        '"bring_in", "items": [[10, 20, 2, 5, 6], {"break": 5}, [20, 40, 4, 10, 6]]}, '
        '"seats": 8, "min_players": 2, "max_players": 0, "entries": [2, 1, 0, 0, 0, 0, 20], '
        '"payouts": [6000, 4000], "pay_jumps": [3], "chip_races": [[4, 25, 100]]}, '
        '"at": 1700000000.25}',
    ),
    (
        Registered("u1", "Ann Ö", "u1#2", 2, 110),
        '{"kind": "registered", "player": "u1", "name": "Ann Ö", "entry": "u1#2", '
        '"number": 2, "paid": 110}',
    ),
    (Unregistered("u2", 110), '{"kind": "unregistered", "entry": "u2", "refund": 110}'),
    (
        Started((("u1", 1, 3), ("u2", 2, 1)), at=12.5),
        '{"kind": "started", "seats": [["u1", 1, 3], ["u2", 2, 1]], "at": 12.5}',
    ),
    (
        Seated("u3#2", 2, 4, 1500),
        '{"kind": "seated", "entry": "u3#2", "table": 2, "seat": 4, "chips": 1500}',
    ),
    (LevelUp(3, at=99.0), '{"kind": "level_up", "index": 3, "at": 99.0}'),
    (RegistrationClosed(), '{"kind": "registration_closed"}'),
    (
        Moved("u1", 1, 3, 2, 5),
        '{"kind": "moved", "entry": "u1", "from_table": 1, "from_seat": 3, "to_table": 2, '
        '"to_seat": 5, "reason": "balance"}',
    ),
    (
        Moved("u4", 3, 1, 1, 2, "break"),
        '{"kind": "moved", "entry": "u4", "from_table": 3, "from_seat": 1, "to_table": 1, '
        '"to_seat": 2, "reason": "break"}',
    ),
    (TableBroken(3), '{"kind": "table_broken", "table": 3}'),
    (
        HandStarted(1, 7, (("u1", 1200), ("u2", 300))),
        '{"kind": "hand_started", "table": 1, "hand": 7, "starts": [["u1", 1200], ["u2", 300]]}',
    ),
    (
        HandFinished(1, 7, (("u1", 1500), ("u2", 0)), (("u2", ("u1", "u5")),)),
        '{"kind": "hand_finished", "table": 1, "hand": 7, "stacks": [["u1", 1500], '
        '["u2", 0]], "knockers": [["u2", ["u1", "u5"]]]}',
    ),
    (
        HandFinished(2, 1, (("u3", 10),)),
        '{"kind": "hand_finished", "table": 2, "hand": 1, "stacks": [["u3", 10]], "knockers": []}',
    ),
    (
        Out("u2", 300, "hfh:4"),
        '{"kind": "out", "entry": "u2", "started_with": 300, "group": "hfh:4"}',
    ),
    (
        Waiting("u4", 2, 5, 800, 1060.5, ("u1",)),
        '{"kind": "waiting", "entry": "u4", "table": 2, "seat": 5, "started_with": 800, '
        '"until": 1060.5, "knockers": ["u1"]}',
    ),
    (
        Returned("u4", 1, 3),
        '{"kind": "returned", "entry": "u4", "table": 1, "seat": 3}',
    ),
    (
        Placed("u2", 4, 5, 250),
        '{"kind": "placed", "entry": "u2", "first": 4, "last": 5, "prize": 250}',
    ),
    (
        BountyPaid("u1", "u2", 10),
        '{"kind": "bounty_paid", "entry": "u1", "victim": "u2", "amount": 10}',
    ),
    (
        Rebought("u1", 1500, 100, True),
        '{"kind": "rebought", "entry": "u1", "chips": 1500, "paid": 100, "addon": true}',
    ),
    (HandForHandChanged(True), '{"kind": "hand_for_hand", "on": true}'),
    (
        ChipRaced((("u1", 1500), ("u3", 1400)), -100, 100),
        '{"kind": "chip_raced", "stacks": [["u1", 1500], ["u3", 1400]], "delta": -100, '
        '"unit": 100}',
    ),
    (
        Cancelled((("u1", 110), ("u3", 55)), at=5.0, by="host"),
        '{"kind": "cancelled", "refunds": [["u1", 110], ["u3", 55]], "at": 5.0, "by": "host"}',
    ),
    (Paused("host", at=3.0), '{"kind": "paused", "by": "host", "at": 3.0}'),
    (Resumed("host"), '{"kind": "resumed", "by": "host", "at": 0.0}'),
    (Finished("u1"), '{"kind": "finished", "winner": "u1"}'),
)


def test_R_19_40_every_record_kind_is_sampled() -> None:
    assert {r.kind for r, _ in STORED} == set(KINDS)


@pytest.mark.parametrize(("record", "stored"), STORED, ids=[r.kind for r, _ in STORED])
def test_R_19_40_a_records_payload_is_the_stored_one_byte_for_byte(
    record: Record, stored: str
) -> None:
    assert json.dumps(to_payload(record), ensure_ascii=False) == stored
    back = from_payload(json.loads(stored))
    assert back == record and type(back) is type(record)
    assert json.dumps(to_payload(back), ensure_ascii=False) == stored


def test_R_19_40_a_field_written_later_takes_its_default_in_an_older_log() -> None:
    # Logs written before a cancel said who called it off, or before a race named its
    # new smallest chip, still read.
    older = {"kind": "cancelled", "refunds": [["u1", 110]], "at": 5.0}
    assert from_payload(older) == Cancelled((("u1", 110),), at=5.0, by="")
    race = {"kind": "chip_raced", "stacks": [["u1", 100]], "delta": 0}
    assert from_payload(race) == ChipRaced((("u1", 100),), 0, 0)


@pytest.mark.parametrize(
    "payload",
    [
        {"kind": "nonesuch"},
        {"entry": "u1"},
        {"kind": "placed", "entry": "u2", "first": 4, "last": 5},
        {"kind": "created", "config": {"game": ["holdem"]}},
    ],
)
def test_R_19_40_a_payload_that_is_no_record_is_refused(payload: dict[str, object]) -> None:
    with pytest.raises(LogError):
        from_payload(payload)


@pytest.mark.parametrize(
    "payload",
    [
        {"kind": "placed", "entry": "u2", "first": "4", "last": 5, "prize": 250},
        {"kind": "placed", "entry": "u2", "first": True, "last": 5, "prize": 250},
        {"kind": "moved", "entry": "u1", "from_table": 1, "from_seat": 3, "to_table": 2,
         "to_seat": 5, "reason": "whim"},
        {"kind": "hand_started", "table": 1, "hand": 7, "starts": [["u1"]]},
        {"kind": "hand_started", "table": 1, "hand": 7, "starts": "u1"},
        {"kind": "hand_for_hand", "on": 1},
        {"kind": "finished", "winner": 7},
        {"kind": "level_up", "index": 1, "at": "noon"},
    ],
)  # fmt: skip
def test_R_19_40_a_value_that_does_not_fit_its_field_is_refused(
    payload: dict[str, object],
) -> None:
    # Each value is checked against its field's type: a record the fold would misread
    # (a seat number as text, a move for no reason the balancer gives) is never made.
    with pytest.raises(LogError, match="malformed"):
        from_payload(payload)


def test_R_19_40_a_whole_number_stored_for_a_time_reads_as_the_same_time() -> None:
    assert from_payload({"kind": "level_up", "index": 2, "at": 60}) == LevelUp(2, at=60.0)
