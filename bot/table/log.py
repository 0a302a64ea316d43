"""The table's event log as typed records: the persisted contract, in one place.

Every event a table appends (and the Discord side's own small logs: preferences, table
message ids, command syncs) is a frozen record here with one ``to_payload`` /
``from_payload`` pair. Writers build records; every reader (state folding, recovery,
history, stats, the session's names, the cogs' preferences) reads through
:func:`read_event`. The payloads are the JSON the store already holds, key for key, so a
database written before these records existed reads unchanged (tests/test_table_log.py
recovers one). An unknown kind or a malformed payload raises :class:`LogError`, which
names the table, the seq and the kind.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from bot.poker.actions import Action, action_from_dict, action_to_dict
from bot.poker.errors import ConfigError, PokerError
from bot.poker.messages import Msg, raw
from bot.poker.record import HandStart
from bot.table import said
from bot.table.errors import TableError
from bot.table.fields import Malformed as _Malformed
from bot.table.fields import as_dict as _dict
from bot.table.fields import as_int as _int
from bot.table.fields import as_ints as _ints
from bot.table.fields import as_list as _list
from bot.table.fields import as_seat_state, opt_int, opt_str
from bot.table.fields import as_str as _str
from bot.table.fields import get as _get
from bot.table.seating import SeatState
from bot.table.settings import TableSettings


class LogError(TableError):
    """A logged event this code cannot read: an unknown kind or a malformed payload."""

    def __init__(self, table_id: str, seq: int, kind: str, reason: str) -> None:
        super().__init__(
            f"Table {table_id!r}: event #{seq} ({kind!r}) cannot be read: {reason}. "
            "The table is stopped; the log is kept as it is."
        )
        self.table_id = table_id
        self.seq = seq
        self.kind = kind
        self.reason = reason


# The field readers (bot/table/fields.py), shared with the snapshots; the ones reading
# an optional field from the payload take the mapping.


def _opt_int(p: Mapping[str, Any], key: str) -> int | None:
    return opt_int(p.get(key), key)


def _opt_str(p: Mapping[str, Any], key: str) -> str | None:
    return opt_str(p.get(key), key)


def _opt_seat_state(p: Mapping[str, Any], key: str) -> SeatState | None:
    value = p.get(key)
    return None if value is None else as_seat_state(value, key)


def _at(p: Mapping[str, Any]) -> float | None:
    at = p.get("at")
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else None


def _put_at(out: dict[str, Any], at: float | None) -> dict[str, Any]:
    if at is not None:
        out["at"] = at
    return out


# ---------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class LogRecord(ABC):
    """One logged event. ``at`` is the table clock's time of the append (set by the
    writer when it commits; None in a record not yet written or in old rows without)."""

    KIND: ClassVar[str] = ""
    at: float | None = field(default=None, kw_only=True)

    @property
    def kind(self) -> str:
        return self.KIND

    @abstractmethod
    def to_payload(self) -> dict[str, Any]:
        """The JSON payload the store keeps (the persisted contract)."""

    @classmethod
    @abstractmethod
    def from_payload(cls, p: Mapping[str, Any]) -> LogRecord:
        """The record a stored payload holds."""


@dataclass(frozen=True, slots=True)
class Created(LogRecord):
    KIND: ClassVar[str] = "created"
    settings: TableSettings
    host: str
    first_button: int | None = None
    guild: int | None = None
    """The server (Discord guild) the table is in, when the platform has one: the
    standings of a server count its tables (the store indexes it, bot/store/standings.py)."""
    tournament: str = ""
    """The tournament that opened the table (its id; R-19.3): its seats, chips and
    stakes are the tournament's. Empty: a cash table (stored only when set)."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"settings": self.settings.to_dict(), "host": self.host}
        out["first_button"] = self.first_button
        if self.guild is not None:
            out["guild"] = self.guild
        if self.tournament:
            out["tournament"] = self.tournament
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Created:
        return cls(
            _settings(p),
            _str(_get(p, "host"), "host"),
            _opt_int(p, "first_button"),
            _opt_int(p, "guild"),
            _str(p.get("tournament", ""), "tournament"),
            at=_at(p),
        )


def _settings(p: Mapping[str, Any]) -> TableSettings:
    raw = _dict(_get(p, "settings"), "settings")
    try:
        return TableSettings.from_dict(raw)
    except (PokerError, TableError, TypeError, ValueError, KeyError) as exc:
        raise _Malformed(f"settings not readable ({exc})") from None


@dataclass(frozen=True, slots=True)
class SettingsChanged(LogRecord):
    KIND: ClassVar[str] = "settings"
    settings: TableSettings
    by: str | None = None

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"settings": self.settings.to_dict(), "by": self.by}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> SettingsChanged:
        return cls(_settings(p), _opt_str(p, "by"), at=_at(p))


@dataclass(frozen=True, slots=True)
class Sat(LogRecord):
    KIND: ClassVar[str] = "sat"
    user: str
    name: str
    seat: int
    buy_in: int
    owes: int = 0
    state: SeatState | None = None
    """The seat's state on sitting down; None (not written) means "waiting"."""
    transfer: str | None = None
    """A move from another table (R-19.2): the chips came with him, no buy-in."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "user": self.user,
            "name": self.name,
            "seat": self.seat,
            "buy_in": self.buy_in,
            "owes": self.owes,
        }
        if self.state is not None:
            out["state"] = self.state
        if self.transfer is not None:
            out["transfer"] = self.transfer
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Sat:
        return cls(
            _str(_get(p, "user"), "user"),
            _str(_get(p, "name"), "name"),
            _int(_get(p, "seat"), "seat"),
            _int(_get(p, "buy_in"), "buy_in"),
            _int(p.get("owes", 0), "owes"),
            _opt_seat_state(p, "state"),
            _opt_str(p, "transfer"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class TimeCollected(LogRecord):
    """R-14.2: the house's time charge per seat."""

    KIND: ClassVar[str] = "time_collected"
    charges: tuple[tuple[int, int], ...]

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"charges": {str(s): a for s, a in self.charges}}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> TimeCollected:
        raw = _dict(_get(p, "charges"), "charges")
        charges = tuple((_int(s, "charges"), _int(a, "charges")) for s, a in raw.items())
        return cls(charges, at=_at(p))


@dataclass(frozen=True, slots=True)
class ToppedUp(LogRecord):
    KIND: ClassVar[str] = "topped_up"
    seat: int
    amount: int
    returns: bool = False
    """The rebuy brings a busted player back (payload key ``return``)."""
    state: SeatState | None = None
    """R-1.9: the state he comes back in; None in logs older than the ruling."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "amount": self.amount, "return": self.returns}
        if self.state is not None:
            out["state"] = self.state
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> ToppedUp:
        return cls(
            _int(_get(p, "seat"), "seat"),
            _int(_get(p, "amount"), "amount"),
            bool(p.get("return", False)),
            _opt_seat_state(p, "state"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class _SeatOnly(LogRecord):
    seat: int

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"seat": self.seat}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> _SeatOnly:
        return cls(_int(_get(p, "seat"), "seat"), at=_at(p))


@dataclass(frozen=True, slots=True)
class SatOut(_SeatOnly):
    KIND: ClassVar[str] = "sat_out"


@dataclass(frozen=True, slots=True)
class Leaving(_SeatOnly):
    KIND: ClassVar[str] = "leaving"


@dataclass(frozen=True, slots=True)
class Straddled(_SeatOnly):
    """R-3.4: the seat that straddles the next deal."""

    KIND: ClassVar[str] = "straddled"


@dataclass(frozen=True, slots=True)
class BombProposed(LogRecord):
    """R-20.12: the seat that proposes a bomb pot for the next deal, and the seats that
    may vote on it (a majority of them passes it)."""

    KIND: ClassVar[str] = "bomb_proposed"
    seat: int
    voters: tuple[int, ...]
    ante: int = 0
    """R-20.75: the ante the proposal stated, which a pass agrees to (0: not kept, a
    record of an older version; the deal then reads the table's settings)."""
    double_board: bool = False
    """R-20.75: whether the table dealt a bomb pot on two boards when it was proposed."""

    def to_payload(self) -> dict[str, Any]:
        p: dict[str, Any] = {"seat": self.seat, "voters": list(self.voters)}
        if self.ante:
            p |= {"ante": self.ante, "double_board": self.double_board}
        return _put_at(p, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> BombProposed:
        voters = tuple(_ints(_get(p, "voters"), "voters"))
        ante = _int(p.get("ante", 0), "ante")
        double = bool(p.get("double_board", False))
        return cls(_int(_get(p, "seat"), "seat"), voters, ante, double, at=_at(p))


@dataclass(frozen=True, slots=True)
class BombVoted(LogRecord):
    """R-20.12: a seat's vote on the open bomb-pot proposal."""

    KIND: ClassVar[str] = "bomb_voted"
    seat: int
    agree: bool

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"seat": self.seat, "agree": self.agree}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> BombVoted:
        return cls(_int(_get(p, "seat"), "seat"), bool(_get(p, "agree")), at=_at(p))


@dataclass(frozen=True, slots=True)
class BombLapsed(LogRecord):
    """R-20.82: the open bomb-pot proposal (made by ``seat``) lapsed when its time ran
    out before it passed: the table's clock said so then."""

    KIND: ClassVar[str] = "bomb_lapsed"
    seat: int

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"seat": self.seat}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> BombLapsed:
        return cls(_int(_get(p, "seat"), "seat"), at=_at(p))


@dataclass(frozen=True, slots=True)
class RabbitHunted(LogRecord):
    """R-20.14: the rabbit hunt of a finished hand (once a hand): who asked, and the
    cards that would have come, never played (``second``: a double board's)."""

    KIND: ClassVar[str] = "rabbit_hunted"
    hand_no: int
    seat: int
    cards: tuple[str, ...]
    second: tuple[str, ...] = ()

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand_no": self.hand_no, "seat": self.seat}
        out["cards"] = list(self.cards)
        if self.second:
            out["second"] = list(self.second)
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> RabbitHunted:
        return cls(
            _int(_get(p, "hand_no"), "hand_no"),
            _int(_get(p, "seat"), "seat"),
            _cards(_get(p, "cards"), "cards"),
            _cards(p.get("second", []), "second"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class ShownByChoice(LogRecord):
    """R-20.15: cards a player showed by choice after a finished hand (``position``:
    his place in the hand's order)."""

    KIND: ClassVar[str] = "shown_by_choice"
    hand_no: int
    position: int
    cards: tuple[str, ...]

    def to_payload(self) -> dict[str, Any]:
        out = {"hand_no": self.hand_no, "position": self.position, "cards": list(self.cards)}
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> ShownByChoice:
        return cls(
            _int(_get(p, "hand_no"), "hand_no"),
            _int(_get(p, "position"), "position"),
            _cards(_get(p, "cards"), "cards"),
            at=_at(p),
        )


def _cards(value: Any, what: str) -> tuple[str, ...]:
    return tuple(_str(c, what) for c in _list(value, what))


@dataclass(frozen=True, slots=True)
class Returned(LogRecord):
    KIND: ClassVar[str] = "returned"
    seat: int
    state: SeatState | None = None
    owes: int = 0

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "state": self.state, "owes": self.owes}
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Returned:
        return cls(
            _int(_get(p, "seat"), "seat"),
            _opt_seat_state(p, "state"),
            _int(p.get("owes", 0), "owes"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class Stood(LogRecord):
    KIND: ClassVar[str] = "stood"
    seat: int
    amount: int
    transfer: str | None = None
    """A move to another table (R-19.2): the chips left with him, no cash-out."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "amount": self.amount}
        if self.transfer is not None:
            out["transfer"] = self.transfer
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Stood:
        return cls(
            _int(_get(p, "seat"), "seat"),
            _int(_get(p, "amount"), "amount"),
            _opt_str(p, "transfer"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class ChipsChanged(LogRecord):
    """A tournament's chips added to or taken from a stack between hands (a rebuy, the
    add-on, a chip race; R-19.43, R-19.45): counted like a move by its ``transfer`` id,
    never in the cash ledger."""

    KIND: ClassVar[str] = "chips_changed"
    seat: int
    user: str
    amount: int
    transfer: str

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "user": self.user, "amount": self.amount}
        out["transfer"] = self.transfer
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> ChipsChanged:
        return cls(
            _int(_get(p, "seat"), "seat"),
            _str(_get(p, "user"), "user"),
            _int(_get(p, "amount"), "amount"),
            _str(_get(p, "transfer"), "transfer"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class HostActed(LogRecord):
    """A host's (or co-host's, or moderator's) change at the table, with who made it
    (§20 host tools, bot/table/host.py): ``kick``, ``seat`` (to ``to``), ``adjust``
    (``amount`` signed, ``reason``), ``sitout``, ``cohost``, ``uncohost``."""

    KIND: ClassVar[str] = "host_acted"
    what: str
    user: str
    by: str
    seat: int = 0
    to: int = 0
    amount: int = 0
    reason: str = ""
    by_name: str = ""
    """The name ``by`` went by when he acted ("": not known, or an older record), so the
    kicked player can be told who removed him (R-20.81)."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"what": self.what, "user": self.user, "by": self.by}
        out.update(seat=self.seat, to=self.to, amount=self.amount, reason=self.reason)
        if self.by_name:
            out["by_name"] = self.by_name
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> HostActed:
        return cls(
            _str(_get(p, "what"), "what"),
            _str(_get(p, "user"), "user"),
            _str(_get(p, "by"), "by"),
            _int(p.get("seat", 0), "seat"),
            _int(p.get("to", 0), "to"),
            _int(p.get("amount", 0), "amount"),
            _str(p.get("reason", ""), "reason"),
            _str(p.get("by_name", ""), "by_name"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class Waitlisted(LogRecord):
    """The waiting list of a full table (bot/table/waitlist.py): ``join``, ``leave``,
    ``offer`` (the seat is offered to ``user`` until the table's clock runs out) and
    ``lapse`` (the offer ran out)."""

    KIND: ClassVar[str] = "waitlisted"
    what: str
    user: str
    name: str = ""

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"what": self.what, "user": self.user, "name": self.name}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Waitlisted:
        return cls(
            _str(_get(p, "what"), "what"),
            _str(_get(p, "user"), "user"),
            _str(p.get("name", ""), "name"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class Chosen(LogRecord):
    """Dealer's choice: the game of the next deal."""

    KIND: ClassVar[str] = "chosen"
    variant: str
    limit: str

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"variant": self.variant, "limit": self.limit}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Chosen:
        return cls(_str(_get(p, "variant"), "variant"), _str(_get(p, "limit"), "limit"), at=_at(p))


@dataclass(frozen=True, slots=True)
class Paused(LogRecord):
    KIND: ClassVar[str] = "paused"
    paused: bool = True

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"paused": self.paused}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Paused:
        return cls(bool(p.get("paused", True)), at=_at(p))


@dataclass(frozen=True, slots=True)
class Closed(LogRecord):
    KIND: ClassVar[str] = "closed"
    by: str | None = None

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"by": self.by}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Closed:
        return cls(_opt_str(p, "by"), at=_at(p))


@dataclass(frozen=True, slots=True)
class CarryReturned(LogRecord):
    """R-16.13: a pot still carried when the table closes, given back in shares (user,
    chips): to a seated player's stack, or cashed out to one who already left."""

    KIND: ClassVar[str] = "carry_returned"
    shares: tuple[tuple[str, int], ...]

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"shares": [[u, a] for u, a in self.shares]}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> CarryReturned:
        shares = tuple(
            (_str(_list(pair, "shares")[0], "shares"), _int(pair[1], "shares"))
            for pair in _list(_get(p, "shares"), "shares")
        )
        return cls(shares, at=_at(p))


@dataclass(frozen=True, slots=True)
class Halted(LogRecord):
    """R-2.5: the table stopped on a conservation failure."""

    KIND: ClassVar[str] = "halted"
    why: Msg | str
    """Why, as a message (words: an older record's, read back as raw text)."""

    @property
    def told(self) -> Msg:
        return self.why if isinstance(self.why, Msg) else raw(self.why)

    def to_payload(self) -> dict[str, Any]:
        if isinstance(self.why, str):  # words written before messages: kept as they were
            return _put_at({"reason": self.why}, self.at)
        return _put_at({"said": said.dump(self.why)}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Halted:
        if p.get("said") is not None:
            try:
                return cls(said.load(p["said"]), at=_at(p))
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                raise _Malformed(f"said not readable ({exc})") from None
        return cls(_str(_get(p, "reason"), "reason"), at=_at(p))


def read_start(raw: dict[str, Any]) -> tuple[HandStart, Msg | None]:
    """A hand start from the log, and why this engine refuses its rules, if it does
    (written under earlier rules, R-16.8): the table is still read, and the hand is
    never dealt or replayed by these rules (cancelled if in progress)."""
    try:
        return HandStart.from_dict(raw), None
    except ConfigError as exc:
        return HandStart.from_dict(raw, checked=False), exc.msg


@dataclass(frozen=True, slots=True)
class HandStarted(LogRecord):
    KIND: ClassVar[str] = "hand_started"
    hand_no: int
    start: HandStart
    order: tuple[int, ...]
    button: int
    sb_seat: int | None
    bb_seat: int | None
    dead_sb: int | None
    variant: str
    limit: str
    refused: Msg | None = field(default=None, compare=False)
    """Why this engine refuses the recorded rules (R-16.8); never written."""
    level: tuple[tuple[str, int], ...] = ()
    """A tournament level the hand was dealt at (R-19.1): the settings it set, by name;
    none at a cash table (not written)."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand_no": self.hand_no,
            "start": self.start.to_dict(),
            "order": list(self.order),
            "button": self.button,
            "sb_seat": self.sb_seat,
            "bb_seat": self.bb_seat,
            "dead_sb": self.dead_sb,
            "variant": self.variant,
            "limit": self.limit,
        }
        if self.level:
            out["level"] = dict(self.level)
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> HandStarted:
        raw = _dict(_get(p, "start"), "start")
        try:
            start, refused = read_start(raw)
        except (PokerError, TypeError, ValueError, KeyError) as exc:
            raise _Malformed(f"hand start not readable ({exc})") from None
        return cls(
            _int(_get(p, "hand_no"), "hand_no"),
            start,
            _ints(_get(p, "order"), "order"),
            _int(_get(p, "button"), "button"),
            _opt_int(p, "sb_seat"),
            _opt_int(p, "bb_seat"),
            _opt_int(p, "dead_sb"),
            _str(_get(p, "variant"), "variant"),
            _str(_get(p, "limit"), "limit"),
            refused,
            tuple(
                (_str(k, "level"), _int(v, "level"))
                for k, v in _dict(p.get("level", {}), "level").items()
            ),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class ActionTaken(LogRecord):
    """One engine action of the hand in progress (kind ``action``)."""

    KIND: ClassVar[str] = "action"
    hand_no: int
    seat: int
    action: Action
    text: str = ""
    """What the table said of it, in English: only in records written before ``said``."""
    timeout: bool = False
    said: Msg | None = None
    """What the table said of it, as a message with the players' names (the log keeps
    no prose: a history is told in its reader's language)."""

    @property
    def told(self) -> Msg | None:
        """What the table said of it: the message, or an older record's words."""
        if self.said is not None:
            return self.said
        return raw(self.text) if self.text else None

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand_no": self.hand_no,
            "seat": self.seat,
            "action": action_to_dict(self.action),
        }
        if self.said is not None:
            out["said"] = said.dump(self.said)
        else:
            out["text"] = self.text
        if self.timeout:
            out["timeout"] = True
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> ActionTaken:
        raw = _dict(_get(p, "action"), "action")
        try:
            action = action_from_dict(raw)
        except (PokerError, TypeError, ValueError, KeyError) as exc:
            raise _Malformed(f"action not readable ({exc})") from None
        text = p.get("text")
        try:
            told = said.load(p["said"]) if p.get("said") is not None else None
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            raise _Malformed(f"said not readable ({exc})") from None
        return cls(
            _int(_get(p, "hand_no"), "hand_no"),
            _int(p.get("seat", -1), "seat"),
            action,
            str(text) if text else "",
            bool(p.get("timeout", False)),
            told,
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class HandEnded(LogRecord):
    KIND: ClassVar[str] = "hand_ended"
    hand_no: int
    stacks: tuple[int, ...]
    net: tuple[int, ...] = ()
    rake: int = 0
    carried: int = 0
    reason: str | None = None
    pot_state: dict[str, Any] | None = None
    """§15 markers, legs and reserve carried to the next deal (JSON, as the engine
    writes it)."""
    users: tuple[str, ...] = ()
    """By engine position, the player dealt in (empty in logs written before it)."""
    won: tuple[int, ...] = ()
    """By engine position, the chips awarded from the pots (R-14.4's biggest pot)."""
    bounty: tuple[tuple[int, int, int], ...] = ()
    """R-20.6: the 7-2 bounty paid after the hand, (payer, winner, chips) by engine
    position; ``stacks`` and ``net`` already hold it (written only when paid)."""

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand_no": self.hand_no,
            "stacks": list(self.stacks),
            "net": list(self.net),
            "rake": self.rake,
            "carried": self.carried,
            "reason": self.reason,
            "pot_state": self.pot_state,
        }
        if self.users:
            # The store indexes these per player (bot/store/standings.py): counts and
            # chips only, never a card.
            out["users"] = list(self.users)
            out["won"] = list(self.won)
        if self.bounty:
            out["bounty"] = [list(b) for b in self.bounty]
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> HandEnded:
        pot_state = p.get("pot_state")
        return cls(
            _int(_get(p, "hand_no"), "hand_no"),
            _ints(_get(p, "stacks"), "stacks"),
            _ints(p.get("net", []), "net"),
            _int(p.get("rake", 0), "rake"),
            _int(p.get("carried", 0), "carried"),
            _opt_str(p, "reason"),
            None if pot_state is None else _dict(pot_state, "pot_state"),
            tuple(_str(u, "users") for u in _list(p.get("users", []), "users")),
            _ints(p.get("won", []), "won"),
            tuple(_bounty(b) for b in _list(p.get("bounty", []), "bounty")),
            at=_at(p),
        )


def _bounty(value: Any) -> tuple[int, int, int]:
    payer, winner, amount = _ints(value, "bounty")
    return payer, winner, amount


# The Discord side's own logs (reserved log ids, never a table): see cogs/prefs.py and
# cogs/bot.py. They are records here too so the one reader reads every row.


@dataclass(frozen=True, slots=True)
class NotifyChosen(LogRecord):
    KIND: ClassVar[str] = "notify"
    user: str
    mode: str

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"user": self.user, "mode": self.mode}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> NotifyChosen:
        return cls(_str(_get(p, "user"), "user"), _str(_get(p, "mode"), "mode"), at=_at(p))


@dataclass(frozen=True, slots=True)
class TableMessage(LogRecord):
    KIND: ClassVar[str] = "table_message"
    table: str
    message: int

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"table": self.table, "message": self.message}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> TableMessage:
        return cls(_str(_get(p, "table"), "table"), _int(_get(p, "message"), "message"), at=_at(p))


@dataclass(frozen=True, slots=True)
class TableThread(LogRecord):
    """The Discord thread a table runs in (0: back to the channel itself); a Discord
    detail, kept with the table message, not in the platform-free settings."""

    KIND: ClassVar[str] = "table_thread"
    table: str
    thread: int

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"table": self.table, "thread": self.thread}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> TableThread:
        return cls(_str(_get(p, "table"), "table"), _int(_get(p, "thread"), "thread"), at=_at(p))


@dataclass(frozen=True, slots=True)
class TablePlace(LogRecord):
    """Where a table not named after its channel lives (R-19.3): the channel, and the
    thread in it (0: the channel itself); a Discord detail, kept with the table message."""

    KIND: ClassVar[str] = "table_place"
    table: str
    channel: int
    thread: int = 0

    def to_payload(self) -> dict[str, Any]:
        out = {"table": self.table, "channel": self.channel, "thread": self.thread}
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> TablePlace:
        return cls(
            _str(_get(p, "table"), "table"),
            _int(_get(p, "channel"), "channel"),
            _int(p.get("thread", 0), "thread"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class CommandsSynced(LogRecord):
    KIND: ClassVar[str] = "synced"
    scope: str
    hash: str

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"scope": self.scope, "hash": self.hash}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> CommandsSynced:
        return cls(_str(_get(p, "scope"), "scope"), _str(_get(p, "hash"), "hash"), at=_at(p))


# The standings' own log (bot/table/standings.py): a table's guild filled in after its
# creation, and a player's choice about the global leaderboards. The store indexes both
# (bot/store/standings.py); their kinds are the store's TABLE_GUILD and PRIVACY.


@dataclass(frozen=True, slots=True)
class GuildRecorded(LogRecord):
    KIND: ClassVar[str] = "table_guild"
    table: str
    guild: int

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"table": self.table, "guild": self.guild}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> GuildRecorded:
        return cls(_str(_get(p, "table"), "table"), _int(_get(p, "guild"), "guild"), at=_at(p))


@dataclass(frozen=True, slots=True)
class PrivacyChosen(LogRecord):
    KIND: ClassVar[str] = "privacy"
    user: str
    hidden: bool

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"user": self.user, "hidden": self.hidden}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> PrivacyChosen:
        hidden = _get(p, "hidden")
        if not isinstance(hidden, bool):
            raise _Malformed(f"'hidden' is {hidden!r}, not true or false")
        return cls(_str(_get(p, "user"), "user"), hidden, at=_at(p))


# A tournament's moves between tables (bot/table/moves.py), in its own reserved log.


@dataclass(frozen=True, slots=True)
class MoveRecorded(LogRecord):
    """R-19.2: a move decided, written before either table changes."""

    KIND: ClassVar[str] = "move"
    transfer: str
    user: str
    name: str
    chips: int
    source: str
    target: str
    seat: int | None = None

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "transfer": self.transfer,
            "user": self.user,
            "name": self.name,
            "chips": self.chips,
            "source": self.source,
            "target": self.target,
        }
        if self.seat is not None:
            out["seat"] = self.seat
        return _put_at(out, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> MoveRecorded:
        return cls(
            _str(_get(p, "transfer"), "transfer"),
            _str(_get(p, "user"), "user"),
            _str(_get(p, "name"), "name"),
            _int(_get(p, "chips"), "chips"),
            _str(_get(p, "source"), "source"),
            _str(_get(p, "target"), "target"),
            _opt_int(p, "seat"),
            at=_at(p),
        )


@dataclass(frozen=True, slots=True)
class MoveFinished(LogRecord):
    """R-19.2: both tables did their part of the move (``seat``: where he sat)."""

    KIND: ClassVar[str] = "move_done"
    transfer: str
    seat: int

    def to_payload(self) -> dict[str, Any]:
        return _put_at({"transfer": self.transfer, "seat": self.seat}, self.at)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> MoveFinished:
        return cls(_str(_get(p, "transfer"), "transfer"), _int(_get(p, "seat"), "seat"), at=_at(p))


RECORDS: Mapping[str, type[LogRecord]] = {
    r.KIND: r
    for r in (
        Created,
        SettingsChanged,
        Sat,
        TimeCollected,
        ToppedUp,
        SatOut,
        Returned,
        Leaving,
        Stood,
        Straddled,
        BombProposed,
        BombVoted,
        BombLapsed,
        RabbitHunted,
        ShownByChoice,
        Chosen,
        Paused,
        Closed,
        CarryReturned,
        Halted,
        HandStarted,
        ActionTaken,
        HandEnded,
        NotifyChosen,
        TableMessage,
        TableThread,
        TablePlace,
        CommandsSynced,
        GuildRecorded,
        PrivacyChosen,
        MoveRecorded,
        MoveFinished,
        HostActed,
        Waitlisted,
        ChipsChanged,
    )
}
"""Every kind the log holds, and its record."""

R = TypeVar("R", bound=LogRecord)


def read_event(
    kind: str, payload: Mapping[str, Any], *, table_id: str = "", seq: int = 0
) -> LogRecord:
    """The record of one logged row; :class:`LogError` for an unknown kind or a payload
    that does not fit it."""
    record = RECORDS.get(kind)
    if record is None:
        raise LogError(table_id, seq, kind, "unknown event kind")
    if not isinstance(payload, Mapping):
        raise LogError(table_id, seq, kind, f"payload is {type(payload).__name__}, not an object")
    try:
        return record.from_payload(payload)
    except _Malformed as exc:
        raise LogError(table_id, seq, kind, str(exc)) from None


def read_rows(rows: Iterable[Any], want: type[R], *, table_id: str = "") -> list[R]:
    """The rows of one kind, read (``rows``: the store's LoggedEvents); other kinds are
    skipped unread."""
    out: list[R] = []
    for row in rows:
        if row.kind == want.KIND:
            rec = read_event(row.kind, row.payload, table_id=table_id or row.table_id, seq=row.seq)
            assert isinstance(rec, want)
            out.append(rec)
    return out
