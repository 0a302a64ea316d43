"""Table snapshots: the folded state as a typed record, so recovery replays only the
log's tail.

A snapshot is taken between hands (every ``snapshot_every`` hands) and saved through the
store with the seq of the last event it includes. Recovery loads the newest snapshot and
applies the events after it; with no snapshot (or a store without snapshots) it folds
the whole log, which gives the same state (the tests compare both).

The body is :class:`SnapshotBody`, a frozen record with one ``to_payload`` /
``from_payload`` pair (as the log's records in :mod:`bot.table.log`): its seats are
:class:`SeatRecord`, the hand in progress an :class:`OpenHand`. The payload is the JSON
snapshots have always held, key for key (``version`` 1), so every stored snapshot loads;
a field added later is optional in the payload (an older snapshot lacks it and its
default stands). A payload of another version is not read (recovery folds the whole
log); a malformed one raises :class:`LogError` (kind ``snapshot``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from bot.poker.actions import Action, action_from_dict, action_to_dict
from bot.poker.errors import PokerError
from bot.poker.messages import RAW, Msg, Name, raw
from bot.poker.record import HandStart
from bot.table import said
from bot.table.fields import Malformed as _Malformed
from bot.table.fields import as_bool as _bool
from bot.table.fields import as_dict as _dict
from bot.table.fields import as_float as _float
from bot.table.fields import as_int as _int
from bot.table.fields import as_list as _list
from bot.table.fields import as_seat_state
from bot.table.fields import as_str as _str
from bot.table.fields import get as _get
from bot.table.fields import opt_float as _opt_float
from bot.table.fields import opt_int as _opt_int
from bot.table.fields import opt_str as _opt_str
from bot.table.hosting import read as hosting_read
from bot.table.log import LogError, read_start
from bot.table.seating import Seat, SeatState
from bot.table.settings import TableSettings
from bot.table.state import HandInfo, TableState

VERSION = 1


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat as a snapshot holds it (:class:`bot.table.seating.Seat`)."""

    number: int
    user_id: str
    name: str
    stack: int
    state: SeatState
    bank: float
    timeouts: int
    owes: int
    leaving: bool = False
    sit_out_next: bool = False
    missed: bool = False
    """The three flags came after the first snapshots: an older one lacks them."""

    _FLAGS: ClassVar[tuple[str, ...]] = ("leaving", "sit_out_next", "missed")

    @classmethod
    def of(cls, seat: Seat) -> SeatRecord:
        return cls(**{f.name: getattr(seat, f.name) for f in fields(cls)})

    def to_seat(self) -> Seat:
        return Seat(**{f.name: getattr(self, f.name) for f in fields(self)})

    def to_payload(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_payload(cls, raw: Any) -> SeatRecord:
        p = _dict(raw, "seat")
        state = as_seat_state(_get(p, "state"), "state")
        flags = {f: _bool(p[f], f) for f in cls._FLAGS if f in p}
        return cls(
            number=_int(_get(p, "number"), "number"),
            user_id=_str(_get(p, "user_id"), "user_id"),
            name=_str(_get(p, "name"), "name"),
            stack=_int(_get(p, "stack"), "stack"),
            state=state,
            bank=_float(_get(p, "bank"), "bank"),
            timeouts=_int(_get(p, "timeouts"), "timeouts"),
            owes=_int(_get(p, "owes"), "owes"),
            **flags,
        )


@dataclass(frozen=True, slots=True)
class OpenHand:
    """The hand in progress when the snapshot was taken: its start record and the
    actions so far (the engine replays them at recovery)."""

    hand_no: int
    start: HandStart
    order: tuple[int, ...]
    names: tuple[str, ...]
    users: tuple[str, ...]
    button: int
    sb_seat: int | None
    bb_seat: int | None
    variant: str
    limit: str
    actions: tuple[Action, ...]
    started_at: float
    replay_error: Msg | None = None
    """Not stored: why this engine refuses the start record's rules (R-16.8), found on
    reading; the hand is then cancelled at recovery."""
    level: tuple[tuple[str, int], ...] = ()
    """The tournament level the hand was dealt at (R-19.1); none at a cash table."""

    @classmethod
    def of(cls, info: HandInfo) -> OpenHand:
        return cls(
            hand_no=info.hand_no,
            start=info.start,
            order=info.order,
            names=info.names,
            users=info.users,
            button=info.button,
            sb_seat=info.sb_seat,
            bb_seat=info.bb_seat,
            variant=info.variant,
            limit=info.limit,
            actions=tuple(info.actions),
            started_at=info.started_at,
            level=info.level,
        )

    def to_info(self) -> HandInfo:
        return HandInfo(
            hand_no=self.hand_no,
            start=self.start,
            replay_error=self.replay_error,
            order=self.order,
            names=self.names,
            users=self.users,
            button=self.button,
            sb_seat=self.sb_seat,
            bb_seat=self.bb_seat,
            variant=self.variant,
            limit=self.limit,
            actions=list(self.actions),
            started_at=self.started_at,
            level=self.level,
        )

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand_no": self.hand_no,
            "start": self.start.to_dict(),
            "order": list(self.order),
            "names": list(self.names),
            "users": list(self.users),
            "button": self.button,
            "sb_seat": self.sb_seat,
            "bb_seat": self.bb_seat,
            "variant": self.variant,
            "limit": self.limit,
            "actions": [action_to_dict(a) for a in self.actions],
            "started_at": self.started_at,
        }
        if self.level:
            out["level"] = dict(self.level)
        return out

    @classmethod
    def from_payload(cls, raw: Any) -> OpenHand:
        p = _dict(raw, "current")
        start, refused = read_start(_dict(_get(p, "start"), "start"))
        return cls(
            hand_no=_int(_get(p, "hand_no"), "hand_no"),
            start=start,
            order=tuple(_int(v, "order") for v in _list(_get(p, "order"), "order")),
            names=tuple(_str(v, "names") for v in _list(_get(p, "names"), "names")),
            users=tuple(_str(v, "users") for v in _list(_get(p, "users"), "users")),
            button=_int(_get(p, "button"), "button"),
            sb_seat=_opt_int(_get(p, "sb_seat"), "sb_seat"),
            bb_seat=_opt_int(_get(p, "bb_seat"), "bb_seat"),
            variant=_str(_get(p, "variant"), "variant"),
            limit=_str(_get(p, "limit"), "limit"),
            actions=tuple(
                action_from_dict(_dict(a, "action")) for a in _list(_get(p, "actions"), "actions")
            ),
            started_at=_float(_get(p, "started_at"), "started_at"),
            replay_error=refused,
            level=tuple(
                (_str(k, "level"), _int(v, "level"))
                for k, v in _dict(p.get("level", {}), "level").items()
            ),
        )


@dataclass(frozen=True, slots=True)
class SnapshotBody:
    """A table's folded state as a snapshot holds it: everything :class:`TableState`
    needs to carry on, except what is rebuilt (the finished hands kept for history are
    read from the log, the engine hand is replayed from ``current``)."""

    settings: TableSettings
    host: str
    turn: int
    hand_no: int
    prev_button: int | None
    prev_sb: int | None
    prev_bb: int | None
    first_button: int | None
    carried: int
    pot_state: Mapping[str, Any] | None
    time_collected_at: float | None
    rake_total: int
    bought: int
    cashed: int
    last_change_at: float
    clock_start: float
    phase_started_at: float
    last_phase: str
    paused: bool
    closed: bool
    halted: Msg | None
    last_said: Msg | None
    seq: int
    seats: tuple[SeatRecord, ...]
    idem: Mapping[str, int]
    chosen: tuple[str, str] | None
    straddler: int | None
    departures: Mapping[str, tuple[int, float]]
    current: OpenHand | None
    bank_granted: float | None = None
    incarnation: int = 1
    opened_seq: int = 0
    carried_by: tuple[str, ...] = ()
    """Added after version 1's first snapshots: an older one lacks it, and the seated
    banks were filled from the setting in force (``settings.time_bank``)."""
    moves: tuple[tuple[str, int], ...] = ()
    hosting: Mapping[str, Any] | None = None
    """Co-hosts, kicked players, the waiting list (bot/table/hosting.py); none before."""
    """R-19.2: the chips each move between tables brought in or took out (none before
    moves existed)."""
    bomb: str = ""
    """R-20.12: the bomb-pot vote (``TableState.bomb``) as JSON ("" when none)."""
    after: str = ""
    """R-20.14, R-20.15: the rabbit hunts and shows of the last hands (``TableState.after``)
    as JSON ("" when none)."""

    @classmethod
    def of(cls, state: TableState) -> SnapshotBody:
        info = state.current
        return cls(
            settings=state.settings,
            host=state.host,
            turn=state.turn,
            hand_no=state.hand_no,
            prev_button=state.prev_button,
            prev_sb=state.prev_sb,
            prev_bb=state.prev_bb,
            first_button=state.first_button,
            carried=state.carried,
            pot_state=state.pot_state,
            time_collected_at=state.time_collected_at,
            rake_total=state.rake_total,
            bought=state.bought,
            cashed=state.cashed,
            last_change_at=state.last_change_at,
            clock_start=state.clock_start,
            phase_started_at=state.phase_started_at,
            last_phase=state.last_phase,
            paused=state.paused,
            closed=state.closed,
            halted=state.halted,
            last_said=state.last_said,
            seq=state.seq,
            seats=tuple(SeatRecord.of(s) for s in state.seats.values()),
            idem=dict(state.idem),
            chosen=state.chosen,
            straddler=state.straddler,
            bomb=json.dumps(state.bomb, sort_keys=True) if state.bomb else "",
            after=json.dumps(state.after, sort_keys=True) if state.after else "",
            departures=dict(state.departures),
            current=OpenHand.of(info) if info is not None and not info.ended else None,
            bank_granted=state.bank_granted,
            incarnation=state.incarnation,
            opened_seq=state.opened_seq,
            carried_by=state.carried_by,
            moves=tuple(state.moves.items()),
            hosting=None if state.hosting.empty else state.hosting.to_payload(),
        )

    def to_state(self, table_id: str) -> TableState:
        state = TableState(table_id, settings=self.settings)
        for name in _SCALARS:
            setattr(state, name, getattr(self, name))
        state.halted = self.halted
        state.last_said = self.last_said
        state.pot_state = dict(self.pot_state) if self.pot_state is not None else None
        state.bank_granted = self.bank_granted
        state.carried_by = self.carried_by
        state.moves = dict(self.moves)
        state.hosting = hosting_read(self.hosting)
        state.seats = {s.number: s.to_seat() for s in self.seats}
        state.idem = dict(self.idem)
        state.chosen = self.chosen
        state.straddler = self.straddler
        state.bomb = json.loads(self.bomb) if self.bomb else {}
        state.after = json.loads(self.after) if self.after else {}
        state.departures = dict(self.departures)
        state.current = self.current.to_info() if self.current is not None else None
        return state

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": VERSION, "settings": self.settings.to_dict()}
        for name in _SCALARS:
            out[name] = getattr(self, name)
        # No prose kept: why the table stopped as a message (an older one's words as
        # they were).
        out["halted"] = None
        if self.halted is not None:
            words = self.halted.get("text")
            if self.halted.key == RAW and isinstance(words, Name):
                out["halted"] = words.text
            else:
                out["halted_said"] = said.dump(self.halted)
        # No prose kept: the last action as a message, read in its reader's language (an
        # older snapshot's words as they were).
        out["last_action"] = ""
        if self.last_said is not None:
            words = self.last_said.get("text")
            if self.last_said.key == RAW and isinstance(words, Name):
                out["last_action"] = words.text
            else:
                out["last_said"] = said.dump(self.last_said)
        out["pot_state"] = dict(self.pot_state) if self.pot_state is not None else None
        out["bank_granted"] = self.bank_granted
        out["carried_by"] = list(self.carried_by)
        if self.moves:
            out["moves"] = dict(self.moves)
        if self.hosting is not None:
            out["hosting"] = dict(self.hosting)
        out["seats"] = [s.to_payload() for s in self.seats]
        out["idem"] = dict(self.idem)
        out["chosen"] = list(self.chosen) if self.chosen else None
        out["straddler"] = self.straddler
        if self.bomb:
            out["bomb"] = self.bomb
        if self.after:
            out["after"] = self.after
        out["departures"] = {u: list(v) for u, v in self.departures.items()}
        if self.current is not None:
            out["current"] = self.current.to_payload()
        return out

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> SnapshotBody:
        """The body of a version-1 payload; :class:`_Malformed` (or the engine's and
        the settings' own errors) when a field cannot be read."""
        settings = TableSettings.from_dict(_dict(_get(p, "settings"), "settings"))
        chosen_raw = p.get("chosen")
        chosen = None
        if chosen_raw:
            pair = _list(chosen_raw, "chosen")
            chosen = (_str(pair[0], "chosen"), _str(pair[1], "chosen"))
        pot_state = p.get("pot_state")
        return cls(
            settings=settings,
            host=_str(_get(p, "host"), "host"),
            turn=_int(_get(p, "turn"), "turn"),
            hand_no=_int(_get(p, "hand_no"), "hand_no"),
            prev_button=_opt_int(_get(p, "prev_button"), "prev_button"),
            prev_sb=_opt_int(_get(p, "prev_sb"), "prev_sb"),
            prev_bb=_opt_int(_get(p, "prev_bb"), "prev_bb"),
            first_button=_opt_int(_get(p, "first_button"), "first_button"),
            carried=_int(_get(p, "carried"), "carried"),
            pot_state=None if pot_state is None else _dict(pot_state, "pot_state"),
            time_collected_at=_opt_float(_get(p, "time_collected_at"), "time_collected_at"),
            rake_total=_int(_get(p, "rake_total"), "rake_total"),
            bought=_int(_get(p, "bought"), "bought"),
            cashed=_int(_get(p, "cashed"), "cashed"),
            last_change_at=_float(_get(p, "last_change_at"), "last_change_at"),
            clock_start=_float(_get(p, "clock_start"), "clock_start"),
            phase_started_at=_float(_get(p, "phase_started_at"), "phase_started_at"),
            last_phase=_str(_get(p, "last_phase"), "last_phase"),
            paused=_bool(_get(p, "paused"), "paused"),
            closed=_bool(_get(p, "closed"), "closed"),
            halted=_halted(p),
            last_said=_last_said(p),
            seq=_int(_get(p, "seq"), "seq"),
            seats=tuple(SeatRecord.from_payload(s) for s in _list(_get(p, "seats"), "seats")),
            idem={str(k): _int(v, "idem") for k, v in _dict(_get(p, "idem"), "idem").items()},
            chosen=chosen,
            straddler=_opt_int(p.get("straddler"), "straddler"),
            bomb=_str(p.get("bomb", ""), "bomb"),
            after=_str(p.get("after", ""), "after"),
            departures={
                str(u): (_int(_list(v, "departures")[0], "departures"), _float(v[1], "departures"))
                for u, v in _dict(_get(p, "departures"), "departures").items()
            },
            current=OpenHand.from_payload(p["current"]) if p.get("current") else None,
            # An older snapshot: the seated banks were filled from the setting in force.
            bank_granted=_opt_float(p.get("bank_granted", settings.time_bank), "bank_granted"),
            # A snapshot without them is read only by tests: recovery folds the whole log
            # instead (recovery.load), which counts the channel's tables itself.
            incarnation=_int(p.get("incarnation", 1), "incarnation"),
            opened_seq=_int(p.get("opened_seq", 0), "opened_seq"),
            carried_by=tuple(
                _str(u, "carried_by") for u in _list(p.get("carried_by", []), "carried_by")
            ),
            moves=tuple(
                (_str(k, "moves"), _int(v, "moves"))
                for k, v in _dict(p.get("moves", {}), "moves").items()
            ),
            hosting=None if p.get("hosting") is None else _dict(p["hosting"], "hosting"),
        )


def _halted(p: Mapping[str, Any]) -> Msg | None:
    """Why the table is stopped, as a message; an older snapshot's words read as raw
    text."""
    if p.get("halted_said") is not None:
        return said.load(p["halted_said"])
    text = _opt_str(_get(p, "halted"), "halted")
    return raw(text) if text else None


def _last_said(p: Mapping[str, Any]) -> Msg | None:
    """The last action as a message; an older snapshot's words read as raw text."""
    if p.get("last_said") is not None:
        return said.load(p["last_said"])
    text = _str(_get(p, "last_action"), "last_action")
    return raw(text) if text else None


_SCALARS = (
    "host",
    "turn",
    "hand_no",
    "prev_button",
    "prev_sb",
    "prev_bb",
    "first_button",
    "carried",
    "time_collected_at",
    "rake_total",
    "bought",
    "cashed",
    "last_change_at",
    "clock_start",
    "phase_started_at",
    "last_phase",
    "paused",
    "closed",
    "seq",
    "incarnation",
    "opened_seq",
)
"""The body's plain fields, copied to and from :class:`TableState` by name."""


def to_payload(state: TableState) -> dict[str, Any]:
    """The snapshot payload of ``state`` (:meth:`SnapshotBody.to_payload`)."""
    return SnapshotBody.of(state).to_payload()


def from_payload(table_id: str, data: Mapping[str, Any], seq: int = 0) -> TableState | None:
    """The state a snapshot describes, or None if it is from another version; a
    malformed snapshot raises :class:`LogError` (kind ``snapshot``, its seq), as a bad
    log row does."""
    if data.get("version") != VERSION:
        return None
    try:
        return SnapshotBody.from_payload(data).to_state(table_id)
    except _Malformed as exc:
        raise LogError(table_id, seq, "snapshot", str(exc)) from None
    except (KeyError, TypeError, ValueError, IndexError, PokerError) as exc:
        raise LogError(table_id, seq, "snapshot", f"{type(exc).__name__}: {exc}") from None
