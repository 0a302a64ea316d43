"""The two small interfaces the table service talks through, and simple implementations.

* :class:`StorePort`: the append-only event log with its chip ledger. ``append`` returns
  only after the event is durably committed (invariant 4: the log is the truth, and an
  action is committed before anyone is told about it). A repeated idempotency key raises
  :class:`DuplicateKey` and writes nothing (invariant 3).
* :class:`Presenter`: where the service sends what happened. Public notices go to the
  table channel, private ones to one player, errors to the actor only (invariant 2).

:class:`MemoryStore` is a fast in-memory log for unit tests; :func:`open_store` opens the
real store (:func:`bot.store.open_store`) through :class:`StoreAdapter`. Ledger rows are
the store's own records (:class:`~bot.store.LedgerRow` to write,
:class:`~bot.store.LedgerEntry` as committed), so there is one type for a chip movement
in both layers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.poker.legal import Legal
from bot.poker.messages import Msg
from bot.store import (
    BOUGHT,
    LEDGER_KINDS,
    BaseStore,
    DuplicateCommand,
    HandTotal,
    LedgerEntry,
    LedgerKind,
    LedgerRow,
    PlayerTotals,
    StaleFence,
    Standing,
    StoredEvent,
)
from bot.store import open_store as open_backend
from bot.store.handtotals import SEATING, hand_nets, totals_rows
from bot.store.records import HAND_ENDED, HAND_STARTED, TABLE_OPENED
from bot.store.store import Synchronous
from bot.table.handstats import Profile, profile_from_payloads
from bot.table.log import Closed, Created

_log = logging.getLogger(__name__)

__all__ = [
    "BOUGHT",
    "LEDGER_KINDS",
    "DuplicateKey",
    "EventNoticeKind",
    "HandTotal",
    "LedgerEntry",
    "LedgerKind",
    "LedgerRow",
    "LoggedEvent",
    "MemoryStore",
    "Notice",
    "NoticeKind",
    "NullPresenter",
    "Presenter",
    "RecordingPresenter",
    "StoreAdapter",
    "StorePort",
    "TableNoticeKind",
    "event_kind",
    "open_store",
]


class DuplicateKey(Exception):
    """This idempotency key was already used for this table: the command was applied."""


LoggedEvent = StoredEvent
"""One committed event of a table's log: the store's own record, in both layers."""


class StorePort(Protocol):
    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
    ) -> int:
        """Commit one event (and its ledger rows, in the same transaction); its seq."""
        ...

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]: ...

    async def open_tables(self) -> list[str]: ...

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        """Sum per ledger kind for one table (every kind present, 0 if none)."""
        ...

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        """Every ledger row of one table, in order."""
        ...

    # Reads that cost the same however long the table has run (``/export``, ``/stats``,
    # ``/ledger``, ``/settle``): indexed rows and running totals, never the whole log.

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        """Sum of amounts per (id, ledger kind) since the table's latest ``created``
        (this table's session), only the pairs with rows."""
        ...

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        """Each player's hands at this table, by player id (``bot.store.handtotals``)."""
        ...

    async def hand_events(
        self, table_id: str, hand_no: int, *, session: int | None = None
    ) -> list[LoggedEvent]:
        """Hand ``hand_no`` of the log's ``session``-th table (R-20.97; None: the latest
        hand of that number): its ``hand_started``, the events of the hand, and its
        ``hand_ended`` if it ended; empty if no such hand started."""
        ...

    async def seating(self, table_id: str, *, before_seq: int | None = None) -> list[LoggedEvent]:
        """The ``created``, ``sat`` and ``settings`` events (seq below ``before_seq``)."""
        ...

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], *, session: int | None = None
    ) -> list[LoggedEvent]:
        """The events of these ``kinds`` naming hand ``hand_no`` (of the ``session``-th
        table; None: the latest of that number) logged after its end and before the next
        hand's start (what was settled between the deals); empty if the hand has not
        ended."""
        ...

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        """Keep the table's folded state as of ``seq`` (recovery replays only what follows)."""
        ...

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        """(seq, payload) of the newest snapshot, or None."""
        ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class HandFacts:
    """The public facts of the hand a notice belongs to, so a presenter never reads the
    table's state: the engine's positions (PHH order) to seats and names."""

    hand_no: int
    variant: str
    """The game's code (``holdem``, ``stud8``...)."""
    wild: str
    """The hand's wild cards (``Rules.wild``: none, deuces, joker...)."""
    seats: tuple[int, ...]
    """Position -> seat number."""
    names: tuple[str, ...]
    """Position -> player's name."""
    session: int = 0
    """Which of its channel's tables this is (``TableState.incarnation``: 1 for the
    first): hand numbers start again with each, so a button dated by a hand carries it
    too (R-20.77)."""


TableNoticeKind = Literal[
    "created",
    "sat",
    "topped_up",
    "sat_out",
    "returned",
    "leaving",
    "stood",
    "settings",
    "paused",
    "closed",
    "halted",
    "choose",
    "chosen",
    "choice_timeout",
    "straddled",
    "time_collected",
    "hand_started",
    "hand_cancelled",
    "hand_ended",
    "timeout",
    "your_turn",
    "declare",
    "guts",
    "waitlist_offer",
    "run_twice",
    "bomb_vote",
    "rabbit",
    "shown",
    "show_choice",
]
"""What the table itself tells (seats, settings, the hand's start and end, clocks, and
the prompts to act: ``your_turn``, ``declare``, ``guts``)."""

EventNoticeKind = Literal[
    "ForcedBet",
    "CardsDealt",
    "BoardDealt",
    "CardBurned",
    "StreetStarted",
    "ActionTaken",
    "Drew",
    "DeckReshuffled",
    "BetReturned",
    "RoundClosed",
    "PotsFormed",
    "HandShown",
    "HandMucked",
    "RakeTaken",
    "PotAwarded",
    "OpenersShown",
    "DeclarationCommitted",
    "DeclarationCount",
    "DeclarationMade",
    "DeclarationsRevealed",
    "DeclareResolved",
    "GutsCallCommitted",
    "GutsCallMade",
    "GutsCallsRevealed",
    "PotSystemSettled",
    "ChipsAdded",
    "BombPotStarted",
    "SecondBoardDealt",
    "RunItTwiceOffered",
    "RunItTwiceAnswered",
    "RunItTwiceCount",
    "RunItTwiceDecided",
    "CardsShownByChoice",
    "SevenDeuceBounty",
    "RabbitHunted",
    "HandEnded",
]
"""An engine event told as it is (the class name of a :mod:`bot.poker.events` event;
tests/test_table_notices.py holds this list to the engine's events)."""

NoticeKind = TableNoticeKind | EventNoticeKind
"""Every kind of notice a presenter may be told: presenters compare against these, and
``mypy --strict`` flags a comparison with a word that is none of them."""

_EVENT_KINDS: frozenset[str] = frozenset(typing.get_args(EventNoticeKind))


def event_kind(event: object) -> EventNoticeKind:
    """The notice kind of an engine event: its class name, one of :data:`EventNoticeKind`
    (a test holds the list to the engine's events). An event missing from the list is
    still told, under its name, and logged: it is told after its commit, where failing
    would leave the table's players untold."""
    name = type(event).__name__
    if name not in _EVENT_KINDS:
        _log.error("%s is not in EventNoticeKind (bot/table/ports.py): add it", name)
    return typing.cast(EventNoticeKind, name)


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell: ``msg`` for humans (the presenter renders it in the reader's
    language), ``kind``/``data`` for richer presenters."""

    kind: NoticeKind
    msg: Msg
    """What happened as a message (bot/words renders it in the reader's language)."""
    turn: int
    data: Mapping[str, Any] = field(default_factory=dict)
    legal: Legal | None = None
    """For ``your_turn``: exactly what the player may do (R-6.6)."""
    deadline: float | None = None
    hand: HandFacts | None = None
    """The hand on, or the last one played, when the notice was made (None before the
    table's first hand)."""


class Presenter(Protocol):
    """What the table service calls. Calls are made in order, under the table's lock, so
    an implementation must not block: queue slow work (network, images) and return."""

    async def public(self, table_id: str, notice: Notice) -> None:
        """To the table channel: everyone may see this."""
        ...

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        """To one player only: hole cards, his own declaration, "your turn"."""
        ...

    async def error(self, table_id: str, user_id: str, message: Msg) -> None:
        """A refusal, to the actor only (R-6.5: nobody else learns anything), as a
        message the presenter renders in the actor's language."""
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

    async def error(self, table_id: str, user_id: str, message: Msg) -> None:
        return None

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return False


class RecordingPresenter:
    """Keeps everything it is told (tests, and the privacy checks)."""

    def __init__(self, moderators: set[str] | None = None) -> None:
        self.public_notices: list[tuple[str, Notice]] = []
        self.private_notices: list[tuple[str, str, Notice]] = []
        self.errors: list[tuple[str, str, Msg]] = []
        self.moderators = moderators or set()

    async def public(self, table_id: str, notice: Notice) -> None:
        self.public_notices.append((table_id, notice))

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        self.private_notices.append((table_id, user_id, notice))

    async def error(self, table_id: str, user_id: str, message: Msg) -> None:
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

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
    ) -> int:
        if idem_key is not None:
            if (table_id, idem_key) in self._keys:
                raise DuplicateKey(idem_key)
            self._keys.add((table_id, idem_key))
        # As the real store: seqs count per table, from 1; a ledger row's hand is the
        # event's hand (the payload's integer "hand_no") unless the row names one.
        log = self._events.setdefault(table_id, [])
        seq = len(log) + 1
        hand = payload.get("hand_no")
        event_hand = hand if isinstance(hand, int) and not isinstance(hand, bool) else None
        log.append(
            StoredEvent(table_id, seq, kind, event_hand, idem_key, dict(payload), time.time())
        )
        self._ledger.setdefault(table_id, []).extend(
            LedgerEntry(
                table_id,
                seq,
                row.player_id,
                row.kind,
                row.amount,
                event_hand if row.hand_no is None else row.hand_no,
            )
            for row in ledger
        )
        return seq

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
        return [e for e in self._events.get(table_id, []) if e.seq > after_seq]

    async def open_tables(self) -> list[str]:
        out = []
        for table_id, evs in self._events.items():
            life = [e.kind for e in evs if e.kind in (Created.KIND, Closed.KIND)]
            if life and life[-1] == Created.KIND:  # a channel may reopen after closing
                out.append(table_id)
        return out

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        out: dict[LedgerKind, int] = dict.fromkeys(LEDGER_KINDS, 0)
        for entry in self._ledger.get(table_id, []):
            out[entry.kind] += entry.amount
        return out

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        return list(self._ledger.get(table_id, []))

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        out: dict[tuple[str, LedgerKind], int] = {}
        created = [e.seq for e in self._events.get(table_id, []) if e.kind == Created.KIND]
        opened = created[-1] if created else 0
        for entry in self._ledger.get(table_id, []):
            if entry.seq < opened:
                continue
            key = (entry.player_id, entry.kind)
            out[key] = out.get(key, 0) + entry.amount
        return out

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        # As the real store's writer keeps them: from each hand end's players.
        nets = (
            (table_id, player, net)
            for e in self._events.get(table_id, [])
            for player, net in hand_nets(e.kind, e.payload)
        )
        rows = sorted(totals_rows(nets), key=lambda r: r[1])
        return [HandTotal(p, h, w, n, b) for _, p, h, w, n, b in rows]

    async def hand_events(
        self, table_id: str, hand_no: int, *, session: int | None = None
    ) -> list[LoggedEvent]:
        # As the real store's hands index, keyed by the table's session (the count of
        # ``created`` before it, R-20.97): the last start of that number in the session
        # wins, and its first end after it in the same session closes it.
        log = self._events.get(table_id, [])
        starts: list[int] = []
        counted = 0
        for i, e in enumerate(log):
            counted += e.kind == TABLE_OPENED
            if e.kind == HAND_STARTED and e.hand_no == hand_no and session in (None, counted):
                starts.append(i)
        if not starts:
            return []
        out: list[LoggedEvent] = []
        for e in log[starts[-1] :]:
            if e.kind == TABLE_OPENED:
                break
            if e.hand_no == hand_no:
                out.append(e)
                if e.kind == HAND_ENDED:
                    break
        return out

    async def seating(self, table_id: str, *, before_seq: int | None = None) -> list[LoggedEvent]:
        return [
            e
            for e in self._events.get(table_id, [])
            if e.kind in SEATING and (before_seq is None or e.seq < before_seq)
        ]

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], *, session: int | None = None
    ) -> list[LoggedEvent]:
        # As the real store: from the hand's end to the next hand's start (of its table).
        hand = await self.hand_events(table_id, hand_no, session=session)
        if not hand or hand[-1].kind != HAND_ENDED:
            return []
        if session is None:
            session = _session_at(self._events.get(table_id, []), hand[0].seq)
        following = await self.hand_events(table_id, hand_no + 1, session=session)
        end = hand[-1].seq
        high = following[0].seq if following and following[0].seq > end else 2**63 - 1
        return [
            e
            for e in self._events.get(table_id, [])
            if end < e.seq < high and e.hand_no == hand_no and e.kind in kinds
        ]

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        self._snapshots[table_id] = (seq, json.loads(json.dumps(payload)))

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        return self._snapshots.get(table_id)

    async def close(self) -> None:
        return None


class Fencing(Protocol):
    """The shards this process holds (``bot.table.ownership.Ownership``)."""

    def fence_for(self, table_id: str) -> tuple[str, int] | None: ...

    def stale(self, table_id: str) -> None: ...

    def refusal(self, table_id: str) -> Exception: ...


class StoreAdapter:
    """The real store (SQLite or PostgreSQL, :class:`bot.store.BaseStore`) as a port: its
    events and snapshots as the port's records, and its :class:`~bot.store.DuplicateCommand` as
    :class:`DuplicateKey`. Ledger rows pass through unchanged (they are the store's)."""

    def __init__(self, store: BaseStore) -> None:
        self.store = store
        self.fencing: Fencing | None = None
        """Set when several processes share the store (``bot.table.ownership``): every
        append carries its table's shard fence, and a refused one is reported to it."""

    async def append(
        self,
        table_id: str,
        kind: str,
        payload: Mapping[str, Any],
        *,
        idem_key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
    ) -> int:
        fencing = self.fencing
        # A reserved log (an id starting with "_": preferences, table messages, the
        # standings' choices) is no table: any process may append to it, and it belongs
        # to no shard, so fence_for gives it no fence.
        fence = None if fencing is None else fencing.fence_for(table_id)
        profile = await self._profile(table_id, payload) if kind == HAND_ENDED else None
        try:
            return await self.store.append(
                table_id,
                kind,
                payload,
                idem_key=idem_key,
                ledger=ledger,
                fence=fence,
                profile=profile or (),
            )
        except DuplicateCommand as exc:
            raise DuplicateKey(str(idem_key)) from exc
        except StaleFence:
            assert fencing is not None
            fencing.stale(table_id)
            raise fencing.refusal(table_id) from None

    async def _profile(self, table_id: str, payload: Mapping[str, Any]) -> Profile | None:
        """What each player of the hand now ending did before the flop and whether he
        was at the showdown (the night's record, R-20.42), written with the hand's end:
        the hand's own rows (its start and actions, through the hands index) replayed in
        a worker thread. None when the hand cannot be read so; it then counts without."""
        hand_no = payload.get("hand_no")
        if not isinstance(hand_no, int) or not payload.get("users"):
            return None
        try:
            record = await self.store.hand_record(table_id, hand_no)
            if record is None or record.end is not None:
                return None
            start = record.start.payload.get("start")
            actions = [
                e.payload["action"]
                for e in record.actions
                if e.kind == "action" and isinstance(e.payload.get("action"), dict)
            ]
            if not isinstance(start, dict):
                return None
            return await asyncio.to_thread(profile_from_payloads, start, actions)
        except Exception:  # the record is no reason to refuse a hand's end
            _log.exception("could not read hand %s of %s for the record", hand_no, table_id)
            return None

    async def events(self, table_id: str, after_seq: int = 0) -> list[LoggedEvent]:
        return await self.store.events(table_id, after_seq=after_seq)

    async def open_tables(self) -> list[str]:
        return await self.store.open_tables()

    async def ledger_rows(self, table_id: str) -> list[LedgerEntry]:
        return await self.store.ledger(table_id)

    async def ledger_totals(self, table_id: str) -> dict[LedgerKind, int]:
        return await self.store.ledger_totals(table_id)

    async def ledger_sums(self, table_id: str) -> dict[tuple[str, LedgerKind], int]:
        return await self.store.ledger_sums(table_id)

    async def hand_totals(self, table_id: str) -> list[HandTotal]:
        return await self.store.hand_totals(table_id)

    async def hand_events(
        self, table_id: str, hand_no: int, *, session: int | None = None
    ) -> list[LoggedEvent]:
        record = await self.store.hand_record(table_id, hand_no, session=session)
        if record is None:
            return []
        ended = () if record.end is None else (record.end,)
        return [record.start, *record.actions, *ended]

    async def seating(self, table_id: str, *, before_seq: int | None = None) -> list[LoggedEvent]:
        return await self.store.seating(table_id, before_seq=before_seq)

    async def after_hand(
        self, table_id: str, hand_no: int, kinds: Sequence[str], *, session: int | None = None
    ) -> list[LoggedEvent]:
        return await self.store.after_hand(table_id, hand_no, kinds, session=session)

    # The standings' queries (bot.table.standings.StandingsSource), one each.

    async def player_totals(self, player_id: str, *, guild: int | None = None) -> PlayerTotals:
        return await self.store.player_totals(player_id, guild=guild)

    async def leaderboard(
        self,
        *,
        guild: int | None = None,
        min_hands: int = 0,
        limit: int = 10,
        hide_private: bool = False,
    ) -> list[Standing]:
        return await self.store.leaderboard(
            guild=guild, min_hands=min_hands, limit=limit, hide_private=hide_private
        )

    async def guild_of(self, table_id: str) -> int | None:
        return await self.store.guild_of(table_id)

    # The night's record's reads (bot.table.records.RecordSource), one query each.

    async def ledger_range(
        self, *, guild: int | None, first: int | None, last: int | None
    ) -> tuple[dict[tuple[str, str], int], int]:
        return await self.store.ledger_range(guild=guild, first=first, last=last)

    async def record_stats(
        self, *, player: str | None, guild: int | None, first: int | None, last: int | None
    ) -> list[tuple[str, int, int, int, int, int, int, int, int, int]]:
        return await self.store.record_stats(player=player, guild=guild, first=first, last=last)

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
        return await self.store.record_board(
            by=by, guild=guild, first=first, last=last, limit=limit, min_hands=min_hands
        )

    async def hand_stacks(
        self, table_id: str, *, after_seq: int = 0
    ) -> list[tuple[int, int, str, int]]:
        return await self.store.hand_stacks(table_id, after_seq=after_seq)

    async def session_hands(self, table_id: str, *, after_seq: int = 0) -> dict[str, int]:
        return await self.store.session_hands(table_id, after_seq=after_seq)

    async def unguilded_tables(self) -> list[str]:
        return await self.store.unguilded_tables()

    async def save_snapshot(self, table_id: str, seq: int, payload: Mapping[str, Any]) -> None:
        await self.store.save_snapshot(table_id, seq, payload)

    async def latest_snapshot(self, table_id: str) -> tuple[int, Mapping[str, Any]] | None:
        snap = await self.store.latest_snapshot(table_id)
        return None if snap is None else (snap.seq, snap.payload)

    async def close(self) -> None:
        await self.store.close()


async def open_store(path: str, *, synchronous: Synchronous | None = None) -> StorePort:
    """The real store: a SQLite file at ``path``, or PostgreSQL if ``path`` is a
    ``postgresql://`` URL (``synchronous``: SQLite's durability mode, "FULL" by default;
    "NORMAL" survives a process kill but not a power cut)."""
    return StoreAdapter(await open_backend(path, synchronous=synchronous or "FULL"))


def _session_at(log: Sequence[LoggedEvent], seq: int) -> int:
    """Which of the log's tables was open at ``seq``: the ``created`` events up to it."""
    return sum(1 for e in log if e.kind == TABLE_OPENED and e.seq < seq)
