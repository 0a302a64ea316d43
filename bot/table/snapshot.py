"""Table snapshots: the folded state as JSON, so recovery replays only the log's tail.

A snapshot is taken between hands (every ``snapshot_every`` hands) and saved through the
store with the seq of the last event it includes. Recovery loads the newest snapshot and
applies the events after it; with no snapshot (or a store without snapshots) it folds
the whole log, which gives the same state (the tests compare both).
"""

from __future__ import annotations

from typing import Any

from bot.poker.actions import action_from_dict, action_to_dict
from bot.poker.errors import PokerError
from bot.table.log import LogError, read_start
from bot.table.seating import Seat
from bot.table.settings import TableSettings
from bot.table.state import HandInfo, TableState

VERSION = 1
_SCALARS = (
    "host",
    "turn",
    "hand_no",
    "prev_button",
    "prev_sb",
    "prev_bb",
    "first_button",
    "carried",
    "pot_state",
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
    "halted",
    "last_action",
    "seq",
)
_NEWER_SCALARS = ("bank_granted",)
"""Scalars added after VERSION 1: an older snapshot lacks them (their default stands)."""
_SEAT_FIELDS = ("number", "user_id", "name", "stack", "state", "bank", "timeouts", "owes")
_SEAT_FLAGS = ("leaving", "sit_out_next", "missed")


def to_payload(state: TableState) -> dict[str, Any]:
    out: dict[str, Any] = {"version": VERSION, "settings": state.settings.to_dict()}
    for name in (*_SCALARS, *_NEWER_SCALARS):
        out[name] = getattr(state, name)
    out["seats"] = [
        {f: getattr(s, f) for f in (*_SEAT_FIELDS, *_SEAT_FLAGS)} for s in state.seats.values()
    ]
    out["idem"] = state.idem
    out["chosen"] = list(state.chosen) if state.chosen else None
    out["straddler"] = state.straddler
    out["departures"] = {u: list(v) for u, v in state.departures.items()}
    info = state.current
    if info is not None and not info.ended:
        out["current"] = {
            "hand_no": info.hand_no,
            "start": info.start.to_dict(),
            "order": list(info.order),
            "names": list(info.names),
            "users": list(info.users),
            "button": info.button,
            "sb_seat": info.sb_seat,
            "bb_seat": info.bb_seat,
            "variant": info.variant,
            "limit": info.limit,
            "actions": [action_to_dict(a) for a in info.actions],
            "started_at": info.started_at,
        }
    return out


def from_payload(table_id: str, data: dict[str, Any], seq: int = 0) -> TableState | None:
    """The state a snapshot describes, or None if it is from another version; a
    malformed snapshot raises :class:`LogError` (kind ``snapshot``, its seq), as a bad
    log row does."""
    if data.get("version") != VERSION:
        return None
    try:
        return _read(table_id, data)
    except (KeyError, TypeError, ValueError, IndexError, PokerError) as exc:
        raise LogError(table_id, seq, "snapshot", f"{type(exc).__name__}: {exc}") from None


def _read(table_id: str, data: dict[str, Any]) -> TableState:
    state = TableState(table_id, settings=TableSettings.from_dict(dict(data["settings"])))
    for name in _SCALARS:
        setattr(state, name, data[name])
    # An older snapshot: the seated banks were filled from the setting in force.
    state.bank_granted = data.get("bank_granted", state.settings.time_bank)
    for raw in data["seats"]:
        # A snapshot older than a flag lacks it: the flag keeps its default.
        seat = Seat(
            **{f: raw[f] for f in _SEAT_FIELDS}, **{f: raw[f] for f in _SEAT_FLAGS if f in raw}
        )
        state.seats[seat.number] = seat
    state.idem = {str(k): int(v) for k, v in data["idem"].items()}
    state.chosen = (data["chosen"][0], data["chosen"][1]) if data.get("chosen") else None
    straddler = data.get("straddler")
    state.straddler = int(straddler) if straddler is not None else None
    state.departures = {u: (int(v[0]), float(v[1])) for u, v in data["departures"].items()}
    cur = data.get("current")
    if cur:
        start, refused = read_start(dict(cur["start"]))
        state.current = HandInfo(
            hand_no=int(cur["hand_no"]),
            start=start,
            replay_error=refused,  # rules this engine refuses: cancelled
            order=tuple(cur["order"]),
            names=tuple(cur["names"]),
            users=tuple(cur["users"]),
            button=int(cur["button"]),
            sb_seat=cur["sb_seat"],
            bb_seat=cur["bb_seat"],
            variant=str(cur["variant"]),
            limit=str(cur["limit"]),
            actions=[action_from_dict(dict(a)) for a in cur["actions"]],
            started_at=float(cur["started_at"]),
        )
    return state
