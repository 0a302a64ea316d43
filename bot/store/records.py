"""The plain values the store hands out and takes in.

The store knows nothing about poker: payloads are JSON objects it keeps verbatim. It only
knows a handful of event kinds by name, listed here, because it indexes them: which events
open and close a table (for :meth:`Store.open_tables`) and which start and end a hand (for
:meth:`Store.hand_record`). They are the names ``bot.table`` writes. For the standings
(``standings.py``) it also reads a few fields of some payloads: the guild of ``created``
and ``table_guild``, the players' results of ``hand_ended`` and the choice of ``privacy``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

TABLE_OPENED: Final = "created"
TABLE_CLOSED: Final = "closed"
HAND_STARTED: Final = "hand_started"
HAND_ENDED: Final = "hand_ended"
TABLE_GUILD: Final = "table_guild"
"""A table's guild recorded after its creation (``created`` carries it for new tables)."""
PRIVACY: Final = "privacy"
"""A player's choice to be hidden from (or shown on) the global leaderboards."""
HOUSE: Final = "house"
"""The ledger id of the house: the pot rake goes to it; it is nobody's standing."""


class LedgerKind(StrEnum):
    """What moved a ledger row's chips across the table's edge (R-2.5), in one place:
    writers name a member (``LedgerKind.BUY_IN``), readers compare with members, and
    the store keeps the value, the same text it always held (``"buy_in"``)."""

    BUY_IN = "buy_in"
    TOP_UP = "top_up"
    CASH_OUT = "cash_out"
    RAKE = "rake"
    ADJUSTMENT = "adjustment"
    """Signed: the amount itself says which way the chips went."""

    @property
    def sign(self) -> int:
        """Seen from the table: chips coming in count +1, chips leaving -1. The rake
        leaves the table to the house, so the sum of every id's signed rows is the chips
        that should be on the table right now (stacks plus pots)."""
        return -1 if self in (LedgerKind.CASH_OUT, LedgerKind.RAKE) else 1

    @classmethod
    def read(cls, text: object) -> LedgerKind:
        """The kind a stored row names; a ValueError naming the kinds there are."""
        if isinstance(text, str) and text in cls._value2member_map_:
            return cls(text)
        kinds = ", ".join(k.value for k in cls)
        raise ValueError(f"ledger kind must be one of {kinds}, not {text!r}")


LEDGER_KINDS: Final[tuple[LedgerKind, ...]] = tuple(LedgerKind)
LEDGER_SIGN: Final[Mapping[LedgerKind, int]] = {k: k.sign for k in LedgerKind}
BOUGHT: Final[frozenset[LedgerKind]] = frozenset({LedgerKind.BUY_IN, LedgerKind.TOP_UP})
"""The kinds that bring a player's chips to the table (R-2.2 buy-in, R-2.4 top-up)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One committed row of a table's log."""

    table_id: str
    seq: int
    kind: str
    hand_no: int | None
    idem_key: str | None
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class HandTotal:
    """One player's hands at one table (``handtotals.py``): hands dealt, hands won (a
    positive net), their net and the best net of one hand (0 if none was positive)."""

    player_id: str
    hands: int
    won: int
    net: int
    best: int


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One chip movement across the table's edge (R-2.5), caused by one event.

    ``amount`` is a non-negative integer for every kind but ``adjustment``, which is
    signed. ``hand_no`` defaults to the hand of the event that carries the row.
    """

    player_id: str
    kind: LedgerKind
    amount: int
    hand_no: int | None = None

    def __post_init__(self) -> None:
        # The text a caller outside the typed packages may still give ("buy_in") reads
        # as its member; anything else is refused here, before it reaches a store.
        object.__setattr__(self, "kind", LedgerKind.read(self.kind))


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A committed ledger row, with the seq of the event that caused it."""

    table_id: str
    seq: int
    player_id: str
    kind: LedgerKind
    amount: int
    hand_no: int | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", LedgerKind.read(self.kind))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table's state as of ``seq``: recovery replays only the events after it."""

    table_id: str
    seq: int
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand from the log: its start, everything logged during it, and its end.

    ``end`` is ``None`` while the hand is still being played.
    """

    table_id: str
    hand_no: int
    start: StoredEvent
    actions: tuple[StoredEvent, ...]
    end: StoredEvent | None

    @property
    def finished(self) -> bool:
        return self.end is not None


@dataclass(frozen=True, slots=True)
class WriterStats:
    """Counters of the group-commit writer (tests and the benchmark read them)."""

    batches: int
    """Transactions committed."""
    appends: int
    """Events committed."""
    failed_batches: int
    """Transactions rolled back (their operations were retried one by one)."""


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One player's results over a set of tables (one guild's, or every table in the
    database), read from the ledger and the hand results: counts and chips only, never
    a card."""

    player_id: str
    tables: int
    """Tables he bought in at or was dealt a hand at."""
    hands: int
    """Hands he was dealt in (hands ended; one cancelled or still on does not count)."""
    won: int
    """Of those, hands that left him with more chips than he started with."""
    hands_net: int
    """Chips won or lost over those hands (chips still on a table count here)."""
    biggest_pot: int
    """The most chips he was awarded from the pots in one hand."""
    bought: int
    """Chips brought to tables: buy-ins, top-ups and adjustments (ledger)."""
    cashed: int
    """Chips taken away from tables (ledger)."""
    hidden: bool
    """He chose to be left off the global leaderboards."""

    @property
    def net(self) -> int:
        """The standings' net: chips cashed out less chips brought in (R-14.4)."""
        return self.cashed - self.bought


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a leaderboard: the player, his net (R-14.4) and his hands."""

    rank: int
    player_id: str
    net: int
    hands: int
    tables: int
