"""The two small interfaces the table service talks through, and simple implementations.

* :class:`StorePort`: the append-only event log with its chip ledger. ``append`` returns
  only after the event is durably committed (invariant 4: the log is the truth, and an
  action is committed before anyone is told about it). A repeated idempotency key raises
  :class:`DuplicateKey` and writes nothing (invariant 3).
* :class:`Presenter`: where the service sends what happened. Public notices go to the
  table channel, private ones to one player, errors to the actor only (invariant 2).

:class:`MemoryStore` is a fast in-memory log for unit tests; :func:`open_store` opens the
real SQLite store (``bot.store``) through :class:`StoreAdapter`, or this package's own
minimal SQLite log while that package is not available.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.poker.legal import Legal

LedgerKind = Literal["buy_in", "top_up", "cash_out", "rake"]


class DuplicateKey(Exception):
    """This idempotency key was already used for this table: the command was applied."""


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One chip movement across the table's edge (R-2.5): buy-in, top-up, cash-out, rake."""

    kind: LedgerKind
    user_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    seq: int
    table_id: str
    kind: str
    payload: Mapping[str, Any]
    idem_key: str | None = None


class StorePort(Protocol):
    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerEntry] = (),
    ) -> int:
        """Commit one event (and its ledger rows, in the same transaction); its seq."""
        ...

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]: ...

    async def open_tables(self) -> list[str]: ...

    async def ledger_totals(self, table_id: str) -> dict[str, int]:
        """Sum per ledger kind for one table."""
        ...

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        """Every ledger row of one table, in order (for session results, /settle)."""
        ...

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        """Keep the table's folded state as of ``seq`` (recovery replays only what follows)."""
        ...

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        """(seq, payload) of the newest snapshot, or None."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell: ``text`` for humans, ``kind``/``data`` for richer presenters."""

    kind: str
    text: str
    turn: int
    data: Mapping[str, Any] = field(default_factory=dict)
    legal: Legal | None = None
    """For ``your_turn``: exactly what the player may do (R-6.6)."""
    deadline: float | None = None


class Presenter(Protocol):
    """What the table service calls. Calls are made in order, under the table's lock, so
    an implementation must not block: queue slow work (network, images) and return."""

    async def public(self, table_id: str, notice: Notice) -> None:
        """To the table channel: everyone may see this."""
        ...

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        """To one player only: hole cards, his own declaration, "your turn"."""
        ...

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        """A refusal, to the actor only (R-6.5: nobody else learns anything)."""
        ...

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        """Whether the platform says this user moderates this table's channel."""
        ...


class NullPresenter:
    """Tells nobody anything (benchmarks)."""

    async def public(self, table_id: str, notice: Notice) -> None:
        return None

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        return None

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        return None

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return False


class RecordingPresenter:
    """Keeps everything it is told (tests, and the privacy checks)."""

    def __init__(self, moderators: set[str] | None = None) -> None:
        self.public_notices: list[tuple[str, Notice]] = []
        self.private_notices: list[tuple[str, str, Notice]] = []
        self.errors: list[tuple[str, str, str]] = []
        self.moderators = moderators or set()

    async def public(self, table_id: str, notice: Notice) -> None:
        self.public_notices.append((table_id, notice))

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        self.private_notices.append((table_id, user_id, notice))

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        self.errors.append((table_id, user_id, message))

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return user_id in self.moderators


class MemoryStore:
    """The event log in memory: same contract as the real store, no durability."""

    def __init__(self) -> None:
        self._events: dict[str, list[LoggedEvent]] = {}
        self._keys: set[tuple[str, str]] = set()
        self._ledger: dict[str, list[LedgerEntry]] = {}
        self._snapshots: dict[str, tuple[int, Mapping[str, Any]]] = {}
        self._seq = 0

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerEntry] = (),
    ) -> int:
        if idem_key is not None:
            if (table_id, idem_key) in self._keys:
                raise DuplicateKey(idem_key)
            self._keys.add((table_id, idem_key))
        self._seq += 1
        self._events.setdefault(table_id, []).append(
            LoggedEvent(self._seq, table_id, kind, dict(payload), idem_key)
        )
        self._ledger.setdefault(table_id, []).extend(ledger)
        return self._seq

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
        return [e for e in self._events.get(table_id, []) if e.seq > after_seq]

    async def open_tables(self) -> list[str]:
        out = []
        for table_id, evs in self._events.items():
            life = [e.kind for e in evs if e.kind in ("created", "closed")]
            if life and life[-1] == "created":  # a channel may reopen after closing
                out.append(table_id)
        return out

    async def ledger_totals(self, table_id: str) -> dict[str, int]:
        out = {"buy_in": 0, "top_up": 0, "cash_out": 0, "rake": 0}
        for entry in self._ledger.get(table_id, []):
            out[entry.kind] += entry.amount
        return out

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        return list(self._ledger.get(table_id, []))

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        self._snapshots[table_id] = (seq, json.loads(json.dumps(payload)))

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        return self._snapshots.get(table_id)

    async def close(self) -> None:
        return None


class StoreAdapter:
    """Adapts ``bot.store.Store`` to :class:`StorePort` (its names may differ slightly)."""

    def __init__(self, store: Any, duplicate_errors: tuple[type[BaseException], ...]) -> None:
        self.store = store
        self._dups = duplicate_errors

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerEntry] = (),
    ) -> int:
        rows = [{"kind": e.kind, "user_id": e.user_id, "amount": e.amount} for e in ledger]
        try:
            seq = await self.store.append(
                table_id, kind, dict(payload), idem_key=idem_key, ledger=rows
            )
        except self._dups as exc:
            raise DuplicateKey(str(idem_key)) from exc
        return int(getattr(seq, "seq", seq) or 0)

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
        out = []
        for e in await self.store.events(table_id, after_seq=after_seq):
            out.append(
                LoggedEvent(
                    int(e.seq), table_id, str(e.kind), e.payload, getattr(e, "idem_key", None)
                )
            )
        return out

    async def open_tables(self) -> list[str]:
        return [str(t) for t in await self.store.open_tables()]

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        rows = await self.store.ledger(table_id)
        return [LedgerEntry(r.kind, r.player_id, int(r.amount)) for r in rows]

    async def ledger_totals(self, table_id: str) -> dict[str, int]:
        raw = await self.store.ledger_totals(table_id)
        out = {"buy_in": 0, "top_up": 0, "cash_out": 0, "rake": 0}
        out.update({str(k): int(v) for k, v in dict(raw).items()})
        return out

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        await self.store.save_snapshot(table_id, seq, dict(payload))

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        snap = await self.store.latest_snapshot(table_id)
        return None if snap is None else (int(snap.seq), snap.payload)

    async def close(self) -> None:
        await self.store.close()


async def open_store(path: str, *, synchronous: str | None = None) -> StorePort:
    """The real store: a SQLite file at ``path``, or PostgreSQL if ``path`` is a
    ``postgresql://`` URL (``synchronous``: SQLite's durability mode, "FULL" by default;
    "NORMAL" survives a process kill but not a power cut)."""
    from bot.store import DuplicateCommand
    from bot.store import open_store as open_backend

    store = await open_backend(path, synchronous=synchronous or "FULL")  # type: ignore[arg-type]
    return StoreAdapter(store, (DuplicateCommand,))
