"""The night's record served from the store (R-20.40-R-20.45): a session's ledger and a
server's over a date range, a player's stats and a period's leaderboard, and the data
of a session's story. Each is one or two small reads of the running sums the writer
keeps (``bot/store/record.py``); never a read of a log. The values and their words are
``bot/table/record.py``'s.

A *session* is a table's time since it was opened (its latest ``created``: the
channel's next table has its own, R-16.13); its ledger counts the chips still on the
table. A server's ledger counts the ledger rows of the server's tables written on the
days asked for (R-20.40).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.poker.messages import Count, msg
from bot.table.log import Created, Sat, read_rows
from bot.table.ports import LedgerKind, LoggedEvent
from bot.table.record import (
    BoardBy,
    BoardRow,
    Ledger,
    Period,
    PeriodBoard,
    PlayerRecord,
    RecordError,
    build_ledger,
    check_by,
)
from bot.table.table import Table

MAX_BOARD = 25


@runtime_checkable
class RecordSource(Protocol):
    """The store's reads the record needs (``StoreAdapter``)."""

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]: ...

    async def seating(
        self, table_id: str, *, before_seq: int | None = None
    ) -> list[LoggedEvent]: ...

    async def ledger_range(
        self, *, guild: int | None, first: int | None, last: int | None
    ) -> tuple[dict[tuple[str, str], int], int]: ...

    async def record_stats(
        self, *, player: str | None, guild: int | None, first: int | None, last: int | None
    ) -> list[tuple[str, int, int, int, int, int, int, int, int, int]]: ...

    async def record_board(
        self,
        *,
        by: str,
        guild: int | None,
        first: int | None,
        last: int | None,
        limit: int = 10,
        min_hands: int = 0,
    ) -> list[tuple[str, int, int, int]]: ...

    async def hand_stacks(
        self, table_id: str, *, after_seq: int = 0
    ) -> list[tuple[int, int, str, int]]: ...

    async def open_tables(self) -> list[str]: ...

    async def session_hands(self, table_id: str, *, after_seq: int = 0) -> dict[str, int]: ...


@dataclass(frozen=True, slots=True)
class StoryLine:
    """One player's stack after each hand of the session (None: not dealt in)."""

    player_id: str
    name: str
    stacks: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Story:
    """A session's story (R-20.45): the hands' numbers and each player's stacks."""

    hands: tuple[int, ...]
    lines: tuple[StoryLine, ...]


def _bounds(period: Period | None) -> tuple[int | None, int | None]:
    return (None, None) if period is None else (period.first, period.last)


class Records:
    """The record's reads for a presenter (``TableService.records``)."""

    def __init__(self, store: object) -> None:
        self._store = store

    def _source(self) -> RecordSource:
        if not isinstance(self._store, RecordSource):
            raise RecordError(msg("record.needs_store"))
        return self._store

    async def _session(self, table_id: str) -> tuple[int, dict[str, str]]:
        """The seq the table's session opened at, and the names its players sat with."""
        seating = await self._source().seating(table_id)
        opened = max((e.seq for e in seating if e.kind == Created.KIND), default=0)
        names = {sat.user: sat.name for sat in read_rows(seating, Sat, table_id=table_id)}
        return opened, names

    async def _readable(self, table: Table | None, table_id: str) -> bool:
        """Whether the table's session can be told here: it is loaded, or it is closed
        (every stack cashed out: a restart does not load it). A table open elsewhere (a
        shard another process drives) has stacks this process does not know."""
        if table is not None:
            return True
        opened = await self._source().open_tables()
        return table_id not in opened

    async def session_ledger(self, table: Table | None, table_id: str) -> Ledger:
        """The table's session (R-20.40): the ledger's sums since it opened, the stacks
        still on it, the hands each player was dealt in it. A closed table's last
        session too (its players cashed out)."""
        source = self._source()
        if not await self._readable(table, table_id):
            return Ledger("session", ())
        opened, names = await self._session(table_id)
        sums = await source.ledger_sums(table_id)
        hands = await source.session_hands(table_id, after_seq=opened)
        seats = list(table.state.seats.values()) if table is not None else []
        names.update({s.user_id: s.name for s in seats})
        return build_ledger(
            "session",
            {(p, k.value): amount for (p, k), amount in sums.items()},
            names=names,
            stacks={s.user_id: s.stack for s in seats},
            hands=hands,
        )

    async def server_ledger(self, guild: int | None, period: Period | None) -> Ledger:
        """A server's tables (every table: ``guild`` None) over a period (R-20.40): the
        ledger's rows of those days, and the hands dealt on them."""
        source = self._source()
        first, last = _bounds(period)
        sums, tables = await source.ledger_range(guild=guild, first=first, last=last)
        stats = await source.record_stats(player=None, guild=guild, first=first, last=last)
        hands = {row[0]: row[1] for row in stats}
        return build_ledger("server", sums, names={}, hands=hands, tables=tables, period=period)

    async def player(
        self, player_id: str, guild: int | None, period: Period | None
    ) -> PlayerRecord:
        """A player's stats over a server's tables in a period (R-20.42)."""
        first, last = _bounds(period)
        rows = await self._source().record_stats(
            player=player_id, guild=guild, first=first, last=last
        )
        if not rows:
            return PlayerRecord(player_id)
        _, *figures = rows[0]
        return PlayerRecord(player_id, *figures)

    async def board(
        self,
        by: str,
        guild: int | None,
        period: Period,
        *,
        top: int = 10,
        min_hands: int = 0,
    ) -> PeriodBoard:
        """The top ``top`` by net, hands or biggest pot in a period (R-20.43)."""
        chosen: BoardBy = check_by(by)
        if not 1 <= top <= MAX_BOARD:
            raise RecordError(msg("record.bad_top", most=Count(MAX_BOARD)))
        rows = await self._source().record_board(
            by=chosen,
            guild=guild,
            first=period.first,
            last=period.last,
            limit=top,
            min_hands=max(0, min_hands),
        )
        return PeriodBoard(
            chosen,
            period,
            guild,
            tuple(BoardRow(i, p, n, h, b) for i, (p, n, h, b) in enumerate(rows, 1)),
        )

    async def story(self, table: Table | None, table_id: str) -> Story:
        """Each player's stack after each hand of the table's session (R-20.45), a
        closed table's last session too."""
        if not await self._readable(table, table_id):
            return Story((), ())
        opened, names = await self._session(table_id)
        rows = await self._source().hand_stacks(table_id, after_seq=opened)
        order: list[int] = []
        by_seq: dict[int, int] = {}
        for seq, hand_no, _player, _stack in rows:
            if seq not in by_seq:
                by_seq[seq] = len(order)
                order.append(hand_no)
        players: dict[str, list[int | None]] = {}
        for seq, _hand, player, stack in rows:
            players.setdefault(player, [None] * len(order))[by_seq[seq]] = stack
        for s in table.state.seats.values() if table is not None else ():
            names[s.user_id] = s.name
        lines = tuple(
            StoryLine(p, names.get(p, p), tuple(points))
            for p, points in sorted(players.items(), key=lambda kv: names.get(kv[0], kv[0]))
        )
        return Story(tuple(order), lines)
