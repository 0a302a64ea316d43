"""Each table's running totals, for a table's ``/stats``, ``/ledger`` and ``/settle`` in
one small query each.

``ledger_sums``: per (table, player, ledger kind) the sum of the ledger's amounts since
the table's latest ``created`` (a channel's next table starts a session of its own: the
``created`` clears the sums), kept by the writer with the ledger rows it sums (migration
6 sums the ledger already written), so the session's results never read a table's every
rake row.

The writer keeps ``hand_totals`` (migration 6, ``schema.py``) in the transaction of the
``hand_ended`` events they come from: per (table, player) the hands dealt, the hands won
(a positive net), the hands' net and the biggest net of one hand (never below 0). The
player of each position is the ``users`` of the ``hand_ended``; a log written before
``hand_ended`` named its players is folded in by the migration the way the table's log
reader always counted them (:class:`LogFold`): each position's seat from the latest
``hand_started``, the seat's player from its latest ``sat`` (a seat nobody sat in counts
as ``seat N``). Counts and chips only: no card is kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from bot.store.records import HAND_ENDED, HAND_STARTED, TABLE_OPENED

SAT: Final = "sat"
SETTINGS: Final = "settings"
SEATING: Final = (TABLE_OPENED, SAT, SETTINGS)
SEATING_KINDS: Final = "(" + ", ".join(f"'{kind}'" for kind in SEATING) + ")"
"""The kinds the partial index ``events_seating`` holds (a table's creations, players
sitting down and settings changes: a handful of rows against a hand's dozen), spelt as
the index's predicate; a query must repeat it word for word to use the index."""

Row = tuple[str, str, int, int, int, int]
"""(table, player, hands, won, net, best): one row's change."""

COLUMNS: Final = "table_id, player_id, hands, won, net, best"
CONFLICT: Final = (
    " ON CONFLICT (table_id, player_id) DO UPDATE SET"
    " hands = hand_totals.hands + excluded.hands,"
    " won = hand_totals.won + excluded.won,"
    " net = hand_totals.net + excluded.net,"
    " best = CASE WHEN excluded.best > hand_totals.best THEN excluded.best"
    " ELSE hand_totals.best END"
)
UPSERT: Final = f"INSERT INTO hand_totals ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?){CONFLICT}"
LEDGER_COLUMNS: Final = "table_id, player_id, kind, amount"
LEDGER_CONFLICT: Final = (
    " ON CONFLICT (table_id, player_id, kind) DO UPDATE"
    " SET amount = ledger_sums.amount + excluded.amount"
)
LEDGER_UPSERT: Final = (
    f"INSERT INTO ledger_sums ({LEDGER_COLUMNS}) VALUES (?, ?, ?, ?){LEDGER_CONFLICT}"
)
LEDGER_RESET: Final = "DELETE FROM ledger_sums WHERE table_id = ?"
LEDGER_QUERY: Final = (
    "SELECT player_id, kind, amount FROM ledger_sums WHERE table_id = ? ORDER BY player_id, kind"
)

QUERY: Final = (
    "SELECT player_id, hands, won, net, best FROM hand_totals WHERE table_id = ? ORDER BY player_id"
)
LEDGER_BACKFILL: Final = (
    "INSERT INTO ledger_sums (table_id, player_id, kind, amount)"
    " SELECT l.table_id, l.player_id, l.kind, SUM(l.amount) FROM ledger AS l"
    " LEFT JOIN (SELECT table_id, MAX(seq) AS opened FROM events"
    f" WHERE kind IN {SEATING_KINDS} AND kind = '{TABLE_OPENED}' GROUP BY table_id) AS o"
    " ON o.table_id = l.table_id"
    " WHERE l.seq >= COALESCE(o.opened, 0)"
    " GROUP BY l.table_id, l.player_id, l.kind"
)
"""The sums of the ledger already written, each table's since its latest ``created``."""
BACKFILL_READ: Final = (
    "SELECT table_id, seq, kind, payload FROM events"
    f" WHERE kind IN ('{SAT}', '{HAND_STARTED}', '{HAND_ENDED}') ORDER BY table_id, seq"
)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def hand_nets(kind: str, payload: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """(player, net) per position of a ``hand_ended`` that names its players; nothing
    for any other event, or one whose fields are not there or not readable."""
    if kind != HAND_ENDED:
        return ()
    users, net = payload.get("users"), payload.get("net")
    if not (isinstance(users, list) and isinstance(net, list)) or not users:
        return ()
    out = []
    for user, n in zip(users, net, strict=False):
        value = _int(n)
        if not isinstance(user, str) or value is None:
            return ()
        out.append((user, value))
    return tuple(out)


def totals_rows(results: Iterable[tuple[str, str, int]]) -> list[Row]:
    """One batch's (table, player, net) per position dealt, in order, as one change per
    (table, player) for :data:`UPSERT`."""
    acc: dict[tuple[str, str], list[int]] = {}
    for table, player, net in results:
        row = acc.setdefault((table, player), [0, 0, 0, 0])
        row[0] += 1
        row[1] += 1 if net > 0 else 0
        row[2] += net
        row[3] = max(row[3], net)
    return [(t, p, r[0], r[1], r[2], r[3]) for (t, p), r in acc.items()]


def ledger_rows(
    ledger: Iterable[tuple[str, int, str, str, int, int | None]],
    opened: Mapping[str, int],
) -> list[tuple[str, str, str, int]]:
    """One batch's ledger rows (table, seq, player, kind, amount, hand) as one change per
    (table, player, kind) for :data:`LEDGER_UPSERT`. ``opened``: the seq of the last
    ``created`` of each table the batch opens; the rows before it belong to the table's
    earlier session, which that ``created`` clears (:data:`LEDGER_RESET` runs first)."""
    acc: dict[tuple[str, str, str], int] = {}
    for table, seq, player, kind, amount, _hand in ledger:
        if seq >= opened.get(table, 0):
            acc[(table, player, kind)] = acc.get((table, player, kind), 0) + amount
    return [(t, p, k, amount) for (t, p, k), amount in acc.items()]


class LogFold:
    """The totals of logs already written, folded as the rows stream in: rows (table,
    seq, kind, payload JSON) of kinds ``sat``, ``hand_started`` and ``hand_ended``, by
    table and seq (:data:`BACKFILL_READ`), given to :meth:`feed` in chunks. A row that
    does not read is skipped. Memory: one table's seats and a row per player."""

    def __init__(self) -> None:
        self._acc: dict[tuple[str, str], list[int]] = {}
        self._table: str | None = None
        self._seat_user: dict[int, str] = {}
        self._order: list[int] = []

    def feed(self, rows: Iterable[tuple[Any, ...]]) -> None:
        for table_id, _seq, kind, text in rows:
            if table_id != self._table:
                self._table, self._seat_user, self._order = table_id, {}, []
            try:
                payload = json.loads(text)
            except ValueError:
                continue
            if not isinstance(payload, dict):
                continue
            if kind == SAT:
                seat, user = _int(payload.get("seat")), payload.get("user")
                if seat is not None and isinstance(user, str):
                    self._seat_user[seat] = user
            elif kind == HAND_STARTED:
                raw = payload.get("order")
                if isinstance(raw, list) and all(_int(s) is not None for s in raw):
                    self._order = list(raw)
            elif kind == HAND_ENDED:
                net = payload.get("net", [])
                if isinstance(net, list) and all(_int(n) is not None for n in net):
                    for seat, n in zip(self._order, net, strict=False):
                        user = self._seat_user.get(seat, f"seat {seat}")
                        row = self._acc.setdefault((table_id, user), [0, 0, 0, 0])
                        row[0] += 1
                        row[1] += 1 if n > 0 else 0
                        row[2] += n
                        row[3] = max(row[3], n)

    def rows(self) -> list[Row]:
        """One row per (table, player), for :data:`UPSERT`."""
        return [(t, p, r[0], r[1], r[2], r[3]) for (t, p), r in self._acc.items()]
