"""The read queries, on their own connection.

WAL lets this connection read while the writer commits, so recovery and /history never wait
for a batch. It is in autocommit mode: each query sees everything committed before it
started, including every ``append`` that has already returned.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from bot.store import handtotals
from bot.store import record as night
from bot.store.records import (
    LEDGER_KINDS,
    HandRecord,
    HandTotal,
    LedgerEntry,
    LedgerKind,
    PlayerTotals,
    Snapshot,
    Standing,
    StoredEvent,
)
from bot.store.standings import leaderboard_query, player_query, unguilded_query

_EVENT_COLUMNS = "table_id, seq, kind, hand_no, idem_key, payload, created_at"


def _event(row: Any) -> StoredEvent:
    return StoredEvent(
        table_id=str(row[0]),
        seq=int(row[1]),
        kind=str(row[2]),
        hand_no=None if row[3] is None else int(row[3]),
        idem_key=None if row[4] is None else str(row[4]),
        payload=json.loads(row[5]),
        created_at=float(row[6]),
    )


class Reader:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def _rows(self, sql: str, params: Iterable[object] = ()) -> list[Any]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))

    async def events(self, table_id: str, after_seq: int, limit: int | None) -> list[StoredEvent]:
        rows = await self._rows(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq > ?"
            " ORDER BY seq LIMIT ?",
            (table_id, after_seq, -1 if limit is None else limit),
        )
        return [_event(r) for r in rows]

    async def last_seq(self, table_id: str) -> int:
        rows = await self._rows("SELECT MAX(seq) FROM events WHERE table_id = ?", (table_id,))
        return int(rows[0][0] or 0)

    async def seen(self, table_id: str, idem_key: str) -> int | None:
        rows = await self._rows(
            "SELECT seq FROM events WHERE table_id = ? AND idem_key = ?", (table_id, idem_key)
        )
        return int(rows[0][0]) if rows else None

    async def fence_generation(self, name: str) -> int:
        rows = await self._rows("SELECT generation FROM fences WHERE name = ?", (name,))
        return int(rows[0][0]) if rows else 0

    async def open_tables(self) -> list[str]:
        rows = await self._rows("SELECT table_id FROM tables WHERE is_open = 1 ORDER BY table_id")
        return [str(r[0]) for r in rows]

    async def latest_snapshot(self, table_id: str) -> Snapshot | None:
        rows = await self._rows(
            "SELECT seq, payload, created_at FROM snapshots WHERE table_id = ?"
            " ORDER BY seq DESC LIMIT 1",
            (table_id,),
        )
        if not rows:
            return None
        seq, payload, created_at = rows[0]
        return Snapshot(table_id, int(seq), json.loads(payload), float(created_at))

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        totals: dict[LedgerKind, int] = dict.fromkeys(LEDGER_KINDS, 0)
        rows = await self._rows(
            "SELECT kind, SUM(amount) FROM ledger WHERE table_id = ? GROUP BY kind", (table_id,)
        )
        totals.update({LedgerKind.read(kind): int(total) for kind, total in rows})
        return totals

    async def ledger_by_player(self, table_id: str) -> dict[str, int]:
        rows = await self._rows(
            "SELECT player_id, kind, SUM(amount) FROM ledger WHERE table_id = ?"
            " GROUP BY player_id, kind ORDER BY player_id",
            (table_id,),
        )
        net: dict[str, int] = {}
        for player, kind, total in rows:
            net[str(player)] = net.get(str(player), 0) + LedgerKind.read(kind).sign * int(total)
        return net

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        rows = await self._rows(handtotals.LEDGER_QUERY, (table_id,))
        return {(str(p), LedgerKind.read(k)): int(total) for p, k, total in rows}

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        rows = await self._rows(handtotals.QUERY, (table_id,))
        return [HandTotal(str(p), int(h), int(w), int(n), int(b)) for p, h, w, n, b in rows]

    async def seating(self, table_id: str, before_seq: int | None) -> list[StoredEvent]:
        # The predicate repeats the partial index's word for word (events_seating).
        rows = await self._rows(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE table_id = ?"
            f" AND kind IN {handtotals.SEATING_KINDS} AND seq < ? ORDER BY seq",
            (table_id, 2**63 - 1 if before_seq is None else before_seq),
        )
        return [_event(r) for r in rows]

    async def ledger(self, table_id: str) -> list[LedgerEntry]:
        rows = await self._rows(
            "SELECT table_id, seq, player_id, kind, amount, hand_no FROM ledger"
            " WHERE table_id = ? ORDER BY id",
            (table_id,),
        )
        return [
            LedgerEntry(
                str(t), int(s), str(p), LedgerKind.read(k), int(a), None if h is None else int(h)
            )
            for t, s, p, k, a, h in rows
        ]

    async def player_totals(self, player_id: str, guild: int | None) -> PlayerTotals:
        sql, params = player_query(player_id, guild)
        tables, hands, won, net, best, bought, cashed, hidden = (await self._rows(sql, params))[0]
        return PlayerTotals(
            player_id,
            tables=int(tables),
            hands=int(hands),
            won=int(won),
            hands_net=int(net),
            biggest_pot=int(best),
            bought=int(bought),
            cashed=int(cashed),
            hidden=bool(hidden),
        )

    async def leaderboard(
        self, guild: int | None, min_hands: int, limit: int, hide_private: bool
    ) -> list[Standing]:
        sql, params = leaderboard_query(guild, min_hands, limit, hide_private=hide_private)
        rows = await self._rows(sql, params)
        return [
            Standing(rank, str(p), int(n), int(h), int(t))
            for rank, (p, n, h, t) in enumerate(rows, 1)
        ]

    async def ledger_range(
        self, guild: int | None, first: int | None, last: int | None
    ) -> tuple[dict[tuple[str, str], int], int]:
        sql, params = night.ledger_range_query(guild, first, last)
        sums = {(str(p), str(k)): int(a) for p, k, a, _ in await self._rows(sql, params)}
        sql, params = night.tables_range_query(guild, first, last)
        tables = await self._rows(sql, params)
        return sums, int(tables[0][0]) if tables else 0

    async def record_stats(
        self, player: str | None, guild: int | None, first: int | None, last: int | None
    ) -> list[tuple[str, int, int, int, int, int, int, int, int, int]]:
        sql, params = night.stats_query(player, guild, first, last)
        return [
            (str(r[0]), *(int(v or 0) for v in r[1:10]))  # type: ignore[misc]  # nine figures
            for r in await self._rows(sql, params)
        ]

    async def record_board(
        self,
        by: str,
        guild: int | None,
        first: int | None,
        last: int | None,
        limit: int,
        min_hands: int,
    ) -> list[tuple[str, int, int, int]]:
        # The board of every server leaves off the players hidden from it.
        sql, params = night.board_query(
            by, guild, first, last, limit, min_hands, hide_private=guild is None
        )
        return [(str(p), int(n), int(h), int(b)) for p, n, h, b in await self._rows(sql, params)]

    async def session_hands(self, table_id: str, after_seq: int) -> dict[str, int]:
        sql, params = night.session_hands_query(table_id, after_seq)
        return {str(p): int(n) for p, n in await self._rows(sql, params)}

    async def hand_stacks(self, table_id: str, after_seq: int) -> list[tuple[int, int, str, int]]:
        sql, params = night.stacks_query(table_id, after_seq)
        return [(int(q), int(h), str(p), int(s)) for q, h, p, s in await self._rows(sql, params)]

    async def guild_of(self, table_id: str) -> int | None:
        rows = await self._rows("SELECT guild_id FROM table_guilds WHERE table_id = ?", (table_id,))
        return int(rows[0][0]) if rows else None

    async def unguilded_tables(self) -> list[str]:
        return [str(r[0]) for r in await self._rows(unguilded_query())]

    async def hand_record(
        self, table_id: str, hand_no: int, session: int | None = None
    ) -> HandRecord | None:
        rows = await self._rows(
            "SELECT hand_no, start_seq, end_seq FROM hands WHERE table_id = ? AND hand_no = ?"
            + _of_session(session)
            + " ORDER BY session DESC LIMIT 1",
            (table_id, hand_no) + (() if session is None else (session,)),
        )
        records = await self._records(table_id, rows)
        return records[0] if records else None

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], session: int | None = None
    ) -> list[StoredEvent]:
        rows = await self._rows(
            "SELECT session, hand_no, start_seq, end_seq FROM hands WHERE table_id = ?"
            " AND hand_no IN (?, ?)" + _of_session(session) + " ORDER BY session",
            (table_id, hand_no, hand_no + 1) + (() if session is None else (session,)),
        )
        # The hand's session (the newest with that number, unless asked), and the next
        # hand of the same session.
        mine = max((int(g) for g, h, _, _ in rows if int(h) == hand_no), default=None)
        bounds = {
            int(h): (int(s), None if e is None else int(e)) for g, h, s, e in rows if int(g) == mine
        }
        end = bounds.get(hand_no, (0, None))[1]
        if end is None or not kinds:
            return []
        following = bounds.get(hand_no + 1, (0, None))[0]
        high = following if following > end else 2**63 - 1
        marks = ", ".join("?" * len(kinds))
        # A range scan over the (table_id, seq) index: only the rows between two deals.
        rows = await self._rows(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq > ? AND seq < ?"
            f" AND hand_no = ? AND kind IN ({marks}) ORDER BY seq",
            (table_id, end, high, hand_no, *kinds),
        )
        return [_event(r) for r in rows]

    async def hands(
        self, table_id: str, limit: int, before: int | None, session: int | None = None
    ) -> list[HandRecord]:
        # One table's hands (their numbers are its own, R-20.97): the newest one's unless
        # asked.
        which = (
            " AND session = ?"
            if session is not None
            else " AND session = (SELECT MAX(session) FROM hands WHERE table_id = ?)"
        )
        rows = await self._rows(
            "SELECT hand_no, start_seq, end_seq FROM hands WHERE table_id = ?"
            " AND end_seq IS NOT NULL AND hand_no < ?" + which + " ORDER BY hand_no DESC LIMIT ?",
            (
                table_id,
                2**63 - 1 if before is None else before,
                table_id if session is None else session,
                limit,
            ),
        )
        return await self._records(table_id, rows)

    async def _records(self, table_id: str, hands: list[Any]) -> list[HandRecord]:
        """The records of these (hand_no, start_seq, end_seq) rows, in the order given."""
        if not hands:
            return []
        bounds = {int(h): (int(s), None if e is None else int(e)) for h, s, e in hands}
        low = min(s for s, _ in bounds.values())
        high = max(2**63 - 1 if e is None else e for _, e in bounds.values())
        marks = ", ".join("?" * len(bounds))
        # One range scan over the (table_id, seq) index covers every hand asked for.
        rows = await self._rows(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE table_id = ? AND seq BETWEEN ? AND ?"
            f" AND hand_no IN ({marks}) ORDER BY seq",
            (table_id, low, high, *bounds),
        )
        grouped: dict[int, list[StoredEvent]] = {h: [] for h in bounds}
        for row in rows:
            event = _event(row)
            assert event.hand_no is not None
            start, end = bounds[event.hand_no]
            if start <= event.seq and (end is None or event.seq <= end):
                grouped[event.hand_no].append(event)
        out = []
        for hand_no, (start, end) in bounds.items():
            events = grouped[hand_no]
            if not events or events[0].seq != start:
                continue  # pragma: no cover - the hands index points at a missing event
            last = events[-1] if end is not None and events[-1].seq == end else None
            body = events[1:-1] if last is not None else events[1:]
            out.append(HandRecord(table_id, hand_no, events[0], tuple(body), last))
        return out


def _of_session(session: int | None) -> str:
    """The hands index's rows of one of a log's tables (R-20.97), or of any (None)."""
    return "" if session is None else " AND session = ?"
