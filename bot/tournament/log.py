"""The tournament's event log: one frozen record per kind, stored as plain JSON by one
pair, :func:`to_payload` and :func:`from_payload` (the fields by their types,
:mod:`bot.tournament.codec`), so a tournament is persisted as its records and recovered
by folding them again (:func:`bot.tournament.director.replay`).

Entries are named ``player`` for a first entry and ``player#n`` for the n-th (re-entry);
tables are numbers from 1; seats are 1..seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from bot.tournament import codec
from bot.tournament.structure import Config

Pairs: TypeAlias = tuple[tuple[str, int], ...]


class LogError(ValueError):
    """A payload that is no record of the tournament log (for the operator: ``unknown``
    or ``malformed``, the kind, and what was wrong)."""


@dataclass(frozen=True, slots=True)
class Created:
    kind: ClassVar[str] = "created"
    config: Config
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Registered:
    """An entry bought: ``paid`` is the whole price (buy-in and fee)."""

    kind: ClassVar[str] = "registered"
    player: str
    name: str
    entry: str
    number: int
    paid: int


@dataclass(frozen=True, slots=True)
class Unregistered:
    kind: ClassVar[str] = "unregistered"
    entry: str
    refund: int


@dataclass(frozen=True, slots=True)
class Started:
    """The seat draw: (entry, table, seat), every stack the starting stack."""

    kind: ClassVar[str] = "started"
    seats: tuple[tuple[str, int, int], ...]
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Seated:
    """A late registrant or re-entry seated with a full stack at a drawn seat."""

    kind: ClassVar[str] = "seated"
    entry: str
    table: int
    seat: int
    chips: int


@dataclass(frozen=True, slots=True)
class LevelUp:
    """Schedule item ``index`` begins (a level, or a break)."""

    kind: ClassVar[str] = "level_up"
    index: int
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class RegistrationClosed:
    kind: ClassVar[str] = "registration_closed"


@dataclass(frozen=True, slots=True)
class Moved:
    kind: ClassVar[str] = "moved"
    entry: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: Literal["balance", "break"] = "balance"


@dataclass(frozen=True, slots=True)
class TableBroken:
    kind: ClassVar[str] = "table_broken"
    table: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A table deals; ``starts`` are its players' stacks as the hand begins."""

    kind: ClassVar[str] = "hand_started"
    table: int
    hand: int
    starts: Pairs


@dataclass(frozen=True, slots=True)
class HandFinished:
    """A table's hand is over: its players' stacks after it and, for each player out
    of chips, who won a share of his last chips (most won first)."""

    kind: ClassVar[str] = "hand_finished"
    table: int
    hand: int
    stacks: Pairs
    knockers: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Out:
    """An entry with no chips left: out, placed when its group is (``group``: the hand,
    or the hand-for-hand round, it went out in)."""

    kind: ClassVar[str] = "out"
    entry: str
    started_with: int
    group: str


@dataclass(frozen=True, slots=True)
class Waiting:
    """An entry with no chips left while a rebuy is still sold to it (R-19.47): stood
    up from ``table``/``seat`` but not out, until it rebuys (:class:`Returned`), declines
    or ``until`` passes (then :class:`Out`, with ``started_with``, the chips it began
    its busting hand with, and ``knockers``, who won a share of its last chips)."""

    kind: ClassVar[str] = "waiting"
    entry: str
    table: int
    seat: int
    started_with: int
    until: float
    knockers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Returned:
    """A waiting entry that rebought sits again, with the stack it bought, at a drawn
    seat (R-19.48)."""

    kind: ClassVar[str] = "returned"
    entry: str
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry's finishing places (``first..last``: shared when they differ) and prize."""

    kind: ClassVar[str] = "placed"
    entry: str
    first: int
    last: int
    prize: int


@dataclass(frozen=True, slots=True)
class BountyPaid:
    kind: ClassVar[str] = "bounty_paid"
    entry: str
    victim: str
    amount: int


@dataclass(frozen=True, slots=True)
class Rebought:
    """A rebuy or the add-on: chips added to the entry's stack for ``paid``."""

    kind: ClassVar[str] = "rebought"
    entry: str
    chips: int
    paid: int
    addon: bool = False


@dataclass(frozen=True, slots=True)
class HandForHandChanged:
    kind: ClassVar[str] = "hand_for_hand"
    on: bool


@dataclass(frozen=True, slots=True)
class ChipRaced:
    """A color-up: the stacks after the race and the chips it added (or removed)."""

    kind: ClassVar[str] = "chip_raced"
    stacks: Pairs
    delta: int
    unit: int = 0
    """The new smallest chip (stakes and stacks are its multiples from now on)."""


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The tournament is called off; what each entry gets back (R-19.39)."""

    kind: ClassVar[str] = "cancelled"
    refunds: Pairs
    at: float = 0.0
    by: str = ""
    """Who called it off (the host, a moderator); empty in logs written before."""


@dataclass(frozen=True, slots=True)
class Paused:
    """The host stops the tournament: level clocks stop, tables stop dealing once
    their hand in progress is over (R-19.41)."""

    kind: ClassVar[str] = "paused"
    by: str
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Resumed:
    """The host starts it again: the level clock runs on with the time it had left."""

    kind: ClassVar[str] = "resumed"
    by: str
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Finished:
    kind: ClassVar[str] = "finished"
    winner: str


Record: TypeAlias = (
    Created
    | Registered
    | Unregistered
    | Started
    | Seated
    | LevelUp
    | RegistrationClosed
    | Moved
    | TableBroken
    | HandStarted
    | HandFinished
    | Out
    | Waiting
    | Returned
    | Placed
    | BountyPaid
    | Rebought
    | HandForHandChanged
    | ChipRaced
    | Cancelled
    | Paused
    | Resumed
    | Finished
)
KINDS: dict[str, type[Record]] = {
    cls.kind: cls
    for cls in (
        Created,
        Registered,
        Unregistered,
        Started,
        Seated,
        LevelUp,
        RegistrationClosed,
        Moved,
        TableBroken,
        HandStarted,
        HandFinished,
        Out,
        Waiting,
        Returned,
        Placed,
        BountyPaid,
        Rebought,
        HandForHandChanged,
        ChipRaced,
        Cancelled,
        Paused,
        Resumed,
        Finished,
    )
}


def to_payload(record: Record) -> dict[str, Any]:
    """The record as JSON-ready data, its kind first."""
    data = codec.encode(record)
    assert isinstance(data, dict)
    return {"kind": record.kind, **data}


def from_payload(data: Mapping[str, Any]) -> Record:
    """The record a payload holds; :class:`LogError` for anything else."""
    cls = KINDS.get(str(data.get("kind")))
    if cls is None:
        raise LogError("unknown", data.get("kind"))
    try:
        values = codec.fields(cls, data)
        return cls(**values)  # type: ignore[arg-type]  # each value decoded by its field's type
    except (KeyError, TypeError, ValueError) as exc:
        raise LogError("malformed", cls.kind, str(exc)) from exc


__all__ = [
    "KINDS",
    "BountyPaid",
    "Cancelled",
    "ChipRaced",
    "Created",
    "Finished",
    "HandFinished",
    "HandForHandChanged",
    "HandStarted",
    "LevelUp",
    "LogError",
    "Moved",
    "Out",
    "Pairs",
    "Paused",
    "Placed",
    "Rebought",
    "Record",
    "Registered",
    "RegistrationClosed",
    "Resumed",
    "Returned",
    "Seated",
    "Started",
    "TableBroken",
    "Unregistered",
    "Waiting",
    "from_payload",
    "to_payload",
]
