"""The store facade: what the table service calls.

Writes (events with their ledger rows, snapshots) go through the group-commit
:class:`~bot.store.writer.Writer` on one connection; reads use a second connection, which
WAL lets run alongside the writer. Payloads are checked and serialised here, in the
caller's task, so a bad payload fails its own call at once and never reaches a batch.

Durability: WAL with ``synchronous=NORMAL`` by default. An acknowledged append survives a
process kill (the commit is in the WAL file, which the OS keeps), which is what the
requirement asks; it may not survive a power cut or kernel crash. ``synchronous="FULL"``
(an fsync of the WAL per batch) survives those too, but measured with ``python -m bench
store --synchronous FULL`` on the development host it cost about a third of the throughput
(roughly 9-13 k against 15-18 k appends/s at 50 tables, p50 3-4 ms against 2.5 ms), and
neither setting met the targets there, so FULL is an option, not the default.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Self

import aiosqlite

from bot.store import record as night
from bot.store.checkpoint import Checkpointer, daemon_connect
from bot.store.errors import StoreClosed
from bot.store.files import create_private
from bot.store.handtotals import hand_nets
from bot.store.inuse import FileLock
from bot.store.reader import Reader
from bot.store.records import (
    HandRecord,
    HandTotal,
    LedgerEntry,
    LedgerKind,
    LedgerRow,
    PlayerTotals,
    Snapshot,
    Standing,
    StoredEvent,
    WriterStats,
)
from bot.store.schema import migrate
from bot.store.standings import MAX_LEADERBOARD, index_rows
from bot.store.writer import AppendOp, FenceOp, GroupCommitWriter, Op, SnapshotOp, Writer

Synchronous = Literal["NORMAL", "FULL"]
LedgerInput = LedgerRow | Mapping[str, Any]
_MAX_HANDS = 500  # one /history page; also keeps the IN list under SQLite's limits


class BaseStore(ABC):
    """What both back ends offer (the table service's store): checks and serialises the
    input, hands writes to the group-commit writer and reads to the reader. A back end
    supplies the two, and :meth:`open`/:meth:`close`."""

    url: str
    """Where the store is: the SQLite file's path, or the PostgreSQL URL."""
    backend: str

    def __init__(self, url: str, reader: Reader, writer: GroupCommitWriter) -> None:
        self.url = url
        self._reader = reader
        self._writer = writer
        self._closed = False

    @abstractmethod
    async def close(self) -> None:
        """Stop the writer after the appends in flight and close the connection."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def stats(self) -> WriterStats:
        return self._writer.stats

    # ------------------------------------------------------------------ writes

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        hand_no: int | None = None,
        ledger: Iterable[LedgerInput] = (),
        fence: tuple[str, int] | None = None,
        profile: Sequence[Sequence[object]] = (),
    ) -> int:
        """Append one event, with its ledger rows in the same transaction; its seq.

        Returns only after the transaction committed. Raises
        :class:`~bot.store.errors.DuplicateCommand` (writing nothing) if ``idem_key`` is
        already in this table's log, :class:`~bot.store.errors.StoreError` if the write
        failed (nothing was written), and ``TypeError``/``ValueError`` at once for a
        payload that is not JSON or a ledger row that is not whole chips.

        ``hand_no`` defaults to the payload's integer ``"hand_no"``, if any, so the hand
        indexes work for callers that only put it in the payload. Ledger rows may be
        :class:`LedgerRow` or mappings with ``kind``, ``amount`` and ``player_id`` (or
        ``user_id``) and optionally ``hand_no``.

        ``fence`` (name, generation), from :meth:`take_fence`: commit only while that
        fence is still at that generation, else raise
        :class:`~bot.store.errors.StaleFence` and write nothing. The check and the write
        are one transaction, so a take-over either happens before (the append is refused)
        or after it (the append counts, and the new owner reads it when it recovers).

        ``profile``: for a ``hand_ended``, per position (flop game, VPIP, PFR, at the
        showdown), the table's reading of the hand for the night's record
        (``record.py``); without it the hand counts with those at 0.

        Cancelling the caller does not withdraw a queued append: it may still commit.
        """
        if hand_no is None:
            hand_no = _payload_hand_no(payload)
        elif not _is_int(hand_no):
            raise TypeError("hand_no must be an int")
        rows = tuple(_ledger_row(row) for row in ledger)
        if fence is not None:
            fence = _fence(fence)
        created_at = time.time()
        day = night.day_of(payload, created_at) if isinstance(payload, Mapping) else 0
        days, stacks = night.hand_rows(table_id, kind, payload, night.check_profile(profile), day)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        op = AppendOp(
            table_id=_text("table_id", table_id),
            kind=_text("kind", kind),
            hand_no=hand_no,
            idem_key=None if idem_key is None else _text("idem_key", idem_key),
            payload=_json(payload),
            created_at=created_at,
            ledger=rows,
            fence=fence,
            future=future,
            index=index_rows(table_id, kind, payload),
            nets=hand_nets(kind, payload),
            day=day,
            days=tuple(days),
            stacks=tuple(stacks),
        )
        self._submit(op)
        return await future

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        """Store the table's state as of ``seq`` (which must already be in the log),
        through the writer like any append; returns after it committed."""
        if not _is_int(seq) or seq < 0:
            raise ValueError("seq must be a non-negative int")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._submit(
            SnapshotOp(_text("table_id", table_id), seq, _json(payload), time.time(), future)
        )
        await future

    async def take_fence(self, name: str) -> int:
        """Take the fence ``name`` over: its generation goes up by one and the new one is
        returned. From then on appends fenced with an older generation are refused. Goes
        through the writer like any append; returns after it committed."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._submit(FenceOp(_text("name", name), future))
        return await future

    def _submit(self, op: Op) -> None:
        if self._closed:
            raise StoreClosed("the store is closed")
        self._writer.submit(op)

    # ------------------------------------------------------------------ reads

    async def fence_generation(self, name: str) -> int:
        """The fence's current generation (0 if it was never taken)."""
        return await self._reader.fence_generation(name)

    async def events(
        self, table_id: str, *, after_seq: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The table's events with seq > ``after_seq``, in order."""
        return await self._reader.events(table_id, after_seq, limit)

    async def last_seq(self, table_id: str) -> int:
        """The table's last committed seq; 0 if it has no events."""
        return await self._reader.last_seq(table_id)

    async def seen(self, table_id: str, idem_key: str) -> int | None:
        """The seq of the committed event that used this key, or ``None``."""
        return await self._reader.seen(table_id, idem_key)

    async def open_tables(self) -> list[str]:
        """Tables whose last lifecycle event is a creation (a closed channel may reopen)."""
        return await self._reader.open_tables()

    async def latest_snapshot(self, table_id: str) -> Snapshot | None:
        """The table's newest snapshot; replay ``events(after_seq=snapshot.seq)`` on it."""
        return await self._reader.latest_snapshot(table_id)

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        """Sum of amounts per ledger kind (every kind present, 0 if none)."""
        return await self._reader.ledger_totals(table_id)

    async def ledger_by_player(self, table_id: str) -> dict[str, int]:
        """Net chips per id, seen from the table: buy-ins, top-ups and adjustments count
        +, cash-outs and rake -. The rake's id is whoever took it (the house), so the sum
        over all ids is the chips that should be on the table now."""
        return await self._reader.ledger_by_player(table_id)

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        """Sum of amounts per (id, ledger kind) since the table's latest ``created`` (this
        table's session, not an earlier table's in the channel), only the pairs with
        rows: the running sums the writer keeps (``handtotals.py``), a few rows however
        long the table has run."""
        return await self._reader.ledger_sums(table_id)

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        """Each player's hands at this table (``handtotals.py``), by player id: one row
        per player, kept as the hands end."""
        return await self._reader.hand_totals(table_id)

    async def seating(self, table_id: str, *, before_seq: int | None = None) -> list[StoredEvent]:
        """The table's ``created``, ``sat`` and ``settings`` events (with seq below
        ``before_seq`` if given), in order, through their own small index."""
        return await self._reader.seating(table_id, before_seq)

    async def ledger(self, table_id: str) -> list[LedgerEntry]:
        """Every ledger row of the table, in the order written."""
        return await self._reader.ledger(table_id)

    async def hand_record(
        self, table_id: str, hand_no: int, *, session: int | None = None
    ) -> HandRecord | None:
        """The hand's start event, the events logged during it, and its end (``None``
        while it is being played); ``None`` if the hand never started. ``session``: which
        of the log's tables dealt it (1 for the first, R-20.97); None: the newest hand of
        that number."""
        return await self._reader.hand_record(table_id, hand_no, session)

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], *, session: int | None = None
    ) -> list[StoredEvent]:
        """The events of these ``kinds`` that name hand ``hand_no`` (the latest hand of
        that number) and were logged after its end and before the next hand started:
        what was settled between the deals (a rabbit hunt, a show by choice), read
        through the hands index and a range of the log between two deals."""
        return await self._reader.after_hand(table_id, hand_no, kinds, session)

    async def hands(
        self,
        table_id: str,
        *,
        limit: int = 20,
        before: int | None = None,
        session: int | None = None,
    ) -> list[HandRecord]:
        """Finished hands of one of the log's tables (``session``; None: the newest),
        newest first, with hand numbers below ``before`` if given."""
        if not _is_int(limit) or not 0 < limit <= _MAX_HANDS:
            raise ValueError(f"limit must be between 1 and {_MAX_HANDS}")
        return await self._reader.hands(table_id, limit, before, session)

    # ------------------------------------------------------------------ standings

    async def player_totals(self, player_id: str, *, guild: int | None = None) -> PlayerTotals:
        """One player's hands and chips at every table (``guild``: that guild's tables
        only), in one query (``standings.py``)."""
        return await self._reader.player_totals(_text("player_id", player_id), _guild(guild))

    async def leaderboard(
        self,
        *,
        guild: int | None = None,
        min_hands: int = 0,
        limit: int = 10,
        hide_private: bool = False,
    ) -> list[Standing]:
        """The top ``limit`` players by net (R-14.4, R-14.5) with at least ``min_hands``
        hands, at ``guild``'s tables or everywhere; ``hide_private`` leaves off the
        players who chose to be hidden (the global board). One query."""
        if not _is_int(min_hands) or min_hands < 0:
            raise ValueError("min_hands must be a whole number, 0 or more")
        if not _is_int(limit) or not 0 < limit <= MAX_LEADERBOARD:
            raise ValueError(f"limit must be between 1 and {MAX_LEADERBOARD}")
        return await self._reader.leaderboard(_guild(guild), min_hands, limit, hide_private)

    # ------------------------------------------------------------------ the night's record

    async def ledger_range(
        self, *, guild: int | None, first: int | None, last: int | None
    ) -> tuple[dict[tuple[str, str], int], int]:
        """A server's ledger (``guild``; None: every table) over UTC days ``first`` to
        ``last`` (None: every day): the sums per (id, kind) and the tables it covers
        (``record.py``); one query each."""
        return await self._reader.ledger_range(_guild(guild), first, last)

    async def record_stats(
        self, *, player: str | None, guild: int | None, first: int | None, last: int | None
    ) -> list[tuple[str, int, int, int, int, int, int, int, int, int]]:
        """Per player (or the one given): hands, flop hands, VPIP, PFR, showdowns,
        showdowns won, won without a showdown, biggest pot and net over the days."""
        return await self._reader.record_stats(player, _guild(guild), first, last)

    async def record_board(
        self,
        *,
        by: str,
        guild: int | None,
        first: int | None,
        last: int | None,
        limit: int = 10,
        min_hands: int = 0,
    ) -> list[tuple[str, int, int, int]]:
        """The top ``limit`` (player, net, hands, biggest pot) by ``by`` (``net``,
        ``hands`` or ``pot``) over the days; one query."""
        if by not in ("net", "hands", "pot"):
            raise ValueError("by must be net, hands or pot")
        if not _is_int(limit) or not 0 < limit <= MAX_LEADERBOARD:
            raise ValueError(f"limit must be between 1 and {MAX_LEADERBOARD}")
        return await self._reader.record_board(by, _guild(guild), first, last, limit, min_hands)

    async def session_hands(self, table_id: str, *, after_seq: int = 0) -> dict[str, int]:
        """Hands dealt per player at the table after ``after_seq`` (a session), counted
        in the database (one row per player back)."""
        return await self._reader.session_hands(table_id, after_seq)

    async def hand_stacks(
        self, table_id: str, *, after_seq: int = 0
    ) -> list[tuple[int, int, str, int]]:
        """(seq, hand, player, stack after it) of the table's hands ended after
        ``after_seq`` (a session's story), in order."""
        return await self._reader.hand_stacks(table_id, after_seq)

    async def guild_of(self, table_id: str) -> int | None:
        """The guild on record for a table, or None."""
        return await self._reader.guild_of(table_id)

    async def unguilded_tables(self) -> list[str]:
        """Tables (ever opened) with no guild on record."""
        return await self._reader.unguilded_tables()


class Store(BaseStore):
    """The SQLite store; see the module docstring.

    One process per database file: the writer caches each table's last seq, so a second
    writing process would make seqs collide. The UNIQUE constraint catches that and the
    colliding append fails or is retried with a fresh seq, so the log stays sound, but it is
    not a supported setup (use PostgreSQL for that). ``:memory:`` is not supported either:
    the reader needs its own connection to the same database.
    """

    backend = "sqlite"

    def __init__(
        self,
        path: str,
        reader_conn: aiosqlite.Connection,
        writer: Writer,
        checkpointer: Checkpointer,
    ) -> None:
        super().__init__(path, Reader(reader_conn), writer)
        self.path = path
        self._lock: FileLock | None = None
        self._reader_conn = reader_conn
        self._checkpointer = checkpointer

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: Synchronous = "NORMAL",
        max_batch: int = 2000,
    ) -> Store:
        """Open (creating if needed) the store at ``path`` and bring its schema up to date."""
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be 'NORMAL' or 'FULL'")
        path = os.fspath(path)
        lock = FileLock(path)
        lock.take()  # DatabaseInUse when another process has the file open
        try:
            return await cls._open(path, lock, synchronous=synchronous, max_batch=max_batch)
        except BaseException:
            lock.release()
            raise

    @classmethod
    async def _open(
        cls, path: str, lock: FileLock, *, synchronous: Synchronous, max_batch: int
    ) -> Store:
        create_private(path)  # 0600, and so its -wal and -shm (bot/store/files.py)
        # The read connection migrates first (before any writer exists), then becomes
        # read-only. isolation_level=None: migrations manage their own transactions.
        reader = await daemon_connect(path)
        try:
            await reader.execute("PRAGMA busy_timeout=5000")
            await reader.execute("PRAGMA journal_mode=WAL")
            await migrate(reader)
            await reader.execute("PRAGMA query_only=ON")
            writer = await Writer.open(path, synchronous=synchronous, max_batch=max_batch)
        except BaseException:
            await reader.close()
            raise
        try:
            checkpointer = await Checkpointer.start(path, lambda: writer.stats.batches)
        except BaseException:
            await writer.close()
            await reader.close()
            raise
        store = cls(path, reader, writer, checkpointer)
        store._lock = lock
        return store

    async def close(self) -> None:
        """Commit everything already appended, then close both connections. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._writer.close()
        finally:
            try:
                await self._checkpointer.close()
                await self._reader_conn.close()
            finally:
                if self._lock is not None:
                    self._lock.release()


# ---------------------------------------------------------------------- checks


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty str")
    return value


def _json(payload: Mapping[str, Any]) -> str:
    if not isinstance(payload, Mapping):
        raise TypeError("payload must be a mapping")
    # allow_nan=False: NaN and infinities are not JSON and would not read back.
    return json.dumps(dict(payload), separators=(",", ":"), allow_nan=False)


def _guild(guild: object) -> int | None:
    if guild is None:
        return None
    if not isinstance(guild, int) or isinstance(guild, bool) or guild < 0:
        raise ValueError("a guild id is a non-negative int")
    return guild


def _fence(fence: object) -> tuple[str, int]:
    if not isinstance(fence, tuple) or len(fence) != 2:
        raise TypeError("fence must be a (name, generation) pair")
    name, generation = fence
    if not _is_int(generation) or generation < 1:
        raise ValueError("a fence generation is an int from take_fence (1 or more)")
    return _text("fence name", name), generation


def _payload_hand_no(payload: Mapping[str, Any]) -> int | None:
    value = payload.get("hand_no") if isinstance(payload, Mapping) else None
    return value if _is_int(value) else None


def _ledger_row(row: LedgerInput) -> LedgerRow:
    player: object
    kind: object
    amount: object
    hand_no: object
    if isinstance(row, LedgerRow):
        player, kind, amount, hand_no = row.player_id, row.kind, row.amount, row.hand_no
    elif isinstance(row, Mapping):
        player = row.get("player_id", row.get("user_id"))
        kind, amount, hand_no = row.get("kind"), row.get("amount"), row.get("hand_no")
    else:
        raise TypeError("a ledger row must be a LedgerRow or a mapping")
    kind = LedgerKind.read(kind)  # a ValueError naming the kinds there are
    # Chips are whole numbers: a float (even 10.0) is refused rather than rounded.
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError(f"ledger amount must be an int, not {amount!r}")
    if kind is not LedgerKind.ADJUSTMENT and amount < 0:
        raise ValueError(f"a {kind} amount cannot be negative ({amount})")
    if hand_no is not None and not isinstance(hand_no, int):
        raise TypeError("ledger hand_no must be an int")
    return LedgerRow(_text("player_id", player), kind, amount, hand_no)
