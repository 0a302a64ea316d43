"""The night's record: the ledger of a session or of a server over a date range, the
settle-up (who pays whom), and its CSV export (docs/RULES.md R-20.40-R-20.44).

Pure values and functions: the table service reads the store's running sums
(``bot/store/record.py``) and builds these; presenters turn them into words through the
``record`` catalogue (the ``*_said`` functions here give the messages). The CSV's column
headers are stable English identifiers, a file format and not words (R-20.44).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Final, Literal

from bot.poker.messages import Chips, Count, Msg, Name, Number, Term, msg
from bot.table.errors import TableError

HOUSE: Final = "house"
"""The ledger id of the house (the pot rake's payee); a party of the settle-up only
when the players' nets do not sum to zero (R-20.41)."""

DAY: Final = 86_400
MAX_DAYS: Final = 366
"""The longest date range one ledger or board reads (R-20.40)."""

LedgerScope = Literal["session", "server"]
BoardBy = Literal["net", "hands", "pot"]
BOARD_BY: Final[tuple[BoardBy, ...]] = ("net", "hands", "pot")


class RecordError(TableError):
    """A record asked for in a way that cannot be served; its message says what is
    allowed. Nothing is read."""

    code = "record"


def day_of(ts: float) -> int:
    """The UTC day number (days since 1970-01-01) of a time stamp."""
    return int(ts // DAY)


def day_date(day: int) -> date:
    return date(1970, 1, 1) + timedelta(days=day)


@dataclass(frozen=True, slots=True)
class Period:
    """Whole UTC days, ``first`` to ``last`` inclusive (day numbers)."""

    first: int
    last: int

    @property
    def since(self) -> date:
        return day_date(self.first)

    @property
    def until(self) -> date:
        return day_date(self.last)

    def said(self) -> Msg:
        return msg(
            "record.period", since=Name(self.since.isoformat()), until=Name(self.until.isoformat())
        )


def parse_period(since: str | None, until: str | None, *, now: float, days: int = 0) -> Period:
    """A date range from its two ends (``YYYY-MM-DD``, UTC, inclusive): ``until`` is
    today if not given, ``since`` is ``days`` before ``until`` (0: the same day).
    Refused in words (R-20.40): a date that does not read, an end before its start, or
    more than :data:`MAX_DAYS` days."""
    today = day_of(now)

    def read(text: str) -> int:
        try:
            parsed = date.fromisoformat(text.strip())
        except ValueError:
            raise RecordError(msg("record.bad_date", given=Name(text.strip()[:20]))) from None
        return (parsed - date(1970, 1, 1)).days

    last = read(until) if until and until.strip() else today
    first = read(since) if since and since.strip() else last - max(0, days)
    if first > last:
        raise RecordError(
            msg(
                "record.bad_range",
                since=Name(day_date(first).isoformat()),
                until=Name(day_date(last).isoformat()),
            )
        )
    if last - first + 1 > MAX_DAYS:
        raise RecordError(msg("record.too_long", most=Count(MAX_DAYS)))
    return Period(first, last)


# ---------------------------------------------------------------------- the ledger


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One player's figures: chips brought (buy-ins and top-ups), cashed out, adjusted
    by the host (signed: from the bank, or back to it), still on the table, the rake
    rows on his id (time charges) and the hands he was dealt."""

    player_id: str
    name: str
    buy_ins: int = 0
    cash_outs: int = 0
    adjustments: int = 0
    on_table: int = 0
    rake: int = 0
    hands: int = 0

    @property
    def net(self) -> int:
        """What he has or took away, less what he brought (R-14.4: adjustments count as
        brought). A time charge is already out of his stack."""
        return self.cash_outs + self.on_table - self.buy_ins - self.adjustments


@dataclass(frozen=True, slots=True)
class Ledger:
    """A session's ledger (one table since it opened) or a server's over a period.
    ``rake`` is the pot rake (the house's rows); the players' own rake rows are on
    their lines."""

    scope: LedgerScope
    lines: tuple[LedgerLine, ...]
    rake: int = 0
    tables: int = 1
    period: Period | None = None

    @property
    def total_rake(self) -> int:
        return self.rake + sum(line.rake for line in self.lines)

    @property
    def hands(self) -> int:
        return (
            max((line.hands for line in self.lines), default=0)
            if self.scope == "session"
            else sum(line.hands for line in self.lines)
        )

    def nets(self) -> dict[str, int]:
        return {line.player_id: line.net for line in self.lines}

    def name(self, player_id: str) -> str:
        for line in self.lines:
            if line.player_id == player_id:
                return line.name
        return player_id

    def payments(self) -> list[Payment]:
        """Who pays whom (R-20.41)."""
        return settle_up(self.nets())


def build_ledger(
    scope: LedgerScope,
    sums: Mapping[tuple[str, str], int],
    *,
    names: Mapping[str, str],
    stacks: Mapping[str, int] | None = None,
    hands: Mapping[str, int] | None = None,
    tables: int = 1,
    period: Period | None = None,
) -> Ledger:
    """A ledger from the ledger's sums per (id, kind) (the kinds' values: ``buy_in``,
    ``top_up``, ``cash_out``, ``adjustment``, ``rake``), the stacks still on the table
    and the hands dealt per player. The house's rows make the pot rake."""
    stacks = stacks or {}
    hands = hands or {}
    acc: dict[str, dict[str, int]] = {}
    rake = 0
    for (player, kind), amount in sums.items():
        if player == HOUSE:
            if kind == "rake":
                rake += amount
            continue
        acc.setdefault(player, {})[kind] = acc.get(player, {}).get(kind, 0) + amount
    for player in list(stacks) + list(hands):
        if player != HOUSE:
            acc.setdefault(player, {})
    lines = [
        LedgerLine(
            player,
            names.get(player, player),
            buy_ins=k.get("buy_in", 0) + k.get("top_up", 0),
            cash_outs=k.get("cash_out", 0),
            adjustments=k.get("adjustment", 0),
            on_table=int(stacks.get(player, 0)),
            rake=k.get("rake", 0),
            hands=int(hands.get(player, 0)),
        )
        for player, k in acc.items()
    ]
    lines.sort(key=lambda line: (-line.net, line.player_id))
    return Ledger(scope, tuple(lines), rake, tables, period)


# ---------------------------------------------------------------------- settle-up


@dataclass(frozen=True, slots=True)
class Payment:
    payer: str
    payee: str
    amount: int


def settle_up(nets: Mapping[str, int]) -> list[Payment]:
    """Who pays whom, in whole chips (R-20.41): every net is paid or received exactly,
    nobody both pays and receives, and there are at most (parties - 1) payments, where
    the parties are the players with a net other than zero and the house when the nets
    do not sum to zero (the rake it took, or chips the range does not see settled): it
    receives (or pays) the difference.

    The biggest debtor pays the biggest creditor, each payment closing at least one of
    the two; ties by id, so the answer never depends on the order of the input."""
    balance = {p: n for p, n in nets.items() if n}
    rest = -sum(balance.values())
    if rest:
        balance[HOUSE] = balance.get(HOUSE, 0) + rest
        if not balance[HOUSE]:
            del balance[HOUSE]
    creditors = sorted(((n, p) for p, n in balance.items() if n > 0), key=lambda x: (-x[0], x[1]))
    debtors = sorted(((-n, p) for p, n in balance.items() if n < 0), key=lambda x: (-x[0], x[1]))
    owed = [n for n, _ in creditors]
    owes = [n for n, _ in debtors]
    out: list[Payment] = []
    i = j = 0
    while i < len(debtors) and j < len(creditors):
        pay = min(owes[i], owed[j])
        out.append(Payment(debtors[i][1], creditors[j][1], pay))
        owes[i] -= pay
        owed[j] -= pay
        if owes[i] == 0:
            i += 1
        if owed[j] == 0:
            j += 1
    return out


# ---------------------------------------------------------------------- CSV

CSV_COLUMNS: Final = (
    "player_id",
    "name",
    "buy_ins",
    "cash_outs",
    "adjustments",
    "on_table",
    "rake",
    "hands",
    "net",
)
"""The export's columns: stable identifiers, not words (a spreadsheet reads them by
name). Counts and chips and the names players chose at the table: never a card."""

_FORMULA: Final = ("=", "+", "-", "@", "\t", "\r")


def _cell(name: str) -> str:
    # A spreadsheet runs a cell that starts like a formula: such a name is quoted with
    # an apostrophe (the reader takes one off again).
    return "'" + name if name.startswith(_FORMULA) or name.startswith("'") else name


def _uncell(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def ledger_csv(ledger: Ledger) -> str:
    """The ledger as CSV (``/ledger export``): a row per player, then the house's row
    with the pot rake (its id ``house``, its other figures 0)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    writer.writerow(CSV_COLUMNS)
    for line in ledger.lines:
        writer.writerow(
            (
                line.player_id,
                _cell(line.name),
                line.buy_ins,
                line.cash_outs,
                line.adjustments,
                line.on_table,
                line.rake,
                line.hands,
                line.net,
            )
        )
    writer.writerow((HOUSE, "", 0, 0, 0, 0, ledger.rake, 0, 0))
    return out.getvalue()


def read_ledger_csv(
    text: str, *, scope: LedgerScope = "session", tables: int = 1, period: Period | None = None
) -> Ledger:
    """The ledger a CSV export holds (the round trip of :func:`ledger_csv`); a
    ``ValueError`` for a file that is not one (a column missing, a figure not whole,
    a net that does not add up)."""
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    lines = []
    rake = 0
    for row in rows:
        if set(CSV_COLUMNS) - set(row):
            raise ValueError(f"a ledger row needs the columns {', '.join(CSV_COLUMNS)}")
        figures = {c: int(row[c]) for c in CSV_COLUMNS[2:]}
        if row["player_id"] == HOUSE:
            rake += figures["rake"]
            continue
        line = LedgerLine(
            row["player_id"],
            _uncell(row["name"]),
            buy_ins=figures["buy_ins"],
            cash_outs=figures["cash_outs"],
            adjustments=figures["adjustments"],
            on_table=figures["on_table"],
            rake=figures["rake"],
            hands=figures["hands"],
        )
        if line.net != figures["net"]:
            raise ValueError(f"the net of {line.player_id!r} does not add up")
        lines.append(line)
    return Ledger(scope, tuple(lines), rake, tables, period)


# ---------------------------------------------------------------------- stats and boards


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's stats over a server's tables (or every table) in a period (R-20.42):
    hands dealt, of them in flop games (VPIP's and PFR's count), hands he put chips in
    voluntarily before the flop and raised before the flop, went to showdown and won
    there, won without a showdown, the biggest pot awarded him and his net over those
    hands."""

    player_id: str
    hands: int = 0
    flop_hands: int = 0
    vpip: int = 0
    pfr: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    won_without: int = 0
    biggest_pot: int = 0
    net: int = 0

    @staticmethod
    def share(part: int, whole: int) -> float:
        """A percentage to one decimal (0 when there is nothing to count)."""
        return round(100 * part / whole, 1) if whole else 0.0


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    player_id: str
    net: int
    hands: int
    biggest_pot: int


@dataclass(frozen=True, slots=True)
class PeriodBoard:
    """A leaderboard for a period, by net, hands or biggest pot (R-20.43)."""

    by: BoardBy
    period: Period
    guild: int | None
    rows: tuple[BoardRow, ...] = field(default=())


def check_by(by: str) -> BoardBy:
    for b in BOARD_BY:
        if b == by:
            return b
    raise RecordError(msg("record.bad_by", given=Name(by[:20])))


# ---------------------------------------------------------------------- words


def ledger_said(ledger: Ledger, names: Mapping[str, str] | None = None) -> list[Msg]:
    """The ledger as messages, one a line (the presenter names players through
    ``names``, else the ledger's own names)."""
    names = names or {}
    if not ledger.lines:
        return [msg("record.ledger.empty")]
    head = (
        msg("record.ledger.head.session", hands=Count(ledger.hands))
        if ledger.scope == "session"
        else msg(
            "record.ledger.head.server",
            tables=Count(ledger.tables),
            period=ledger.period.said() if ledger.period else msg("record.period.all"),
        )
    )
    out = [head]
    for line in ledger.lines:
        out.append(
            msg(
                "record.ledger.line",
                name=Name(names.get(line.player_id, line.name)),
                net=signed(line.net),
                bought=Chips(line.buy_ins),
                cashed=Chips(line.cash_outs),
                adjusted=Number(line.adjustments),
                on_table=Chips(line.on_table),
                hands=Count(line.hands),
            )
        )
    out.append(msg("record.ledger.rake", rake=Chips(ledger.total_rake)))
    return out


def settle_said(payments: Iterable[Payment], name: Mapping[str, str] | None = None) -> list[Msg]:
    """Who pays whom as messages; the house by its catalogue word."""
    name = name or {}

    def who(player: str) -> Name | Term:
        return Term("record.house") if player == HOUSE else Name(name.get(player, player))

    out = [
        msg("record.settle.pays", payer=who(p.payer), payee=who(p.payee), amount=Chips(p.amount))
        for p in payments
    ]
    return out or [msg("record.settle.nothing")]


def stats_said(record: PlayerRecord, name: str, period: Period | None) -> list[Msg]:
    """A player's stats (R-20.42) as messages."""
    if not record.hands:
        return [msg("record.stats.none", name=Name(name))]
    r = record
    return [
        msg(
            "record.stats.head",
            name=Name(name),
            hands=Count(r.hands),
            period=period.said() if period else msg("record.period.all"),
        ),
        msg(
            "record.stats.preflop",
            vpip=Number(PlayerRecord.share(r.vpip, r.flop_hands)),
            pfr=Number(PlayerRecord.share(r.pfr, r.flop_hands)),
            flop_hands=Count(r.flop_hands),
        ),
        msg(
            "record.stats.showdown",
            wtsd=Number(PlayerRecord.share(r.showdowns, r.hands)),
            won=Number(PlayerRecord.share(r.showdowns_won, r.showdowns)),
            showdowns=Count(r.showdowns),
        ),
        msg("record.stats.won_without", n=Count(r.won_without)),
        msg("record.stats.chips", net=signed(r.net), pot=Chips(r.biggest_pot)),
    ]


def board_said(board: PeriodBoard, name: Mapping[str, str] | None = None) -> list[Msg]:
    """A period's board (R-20.43) as messages."""
    name = name or {}
    head = msg("record.board.head", by=Term(f"record.by.{board.by}"), period=board.period.said())
    if not board.rows:
        return [head, msg("record.board.empty")]
    return [head] + [
        msg(
            f"record.board.line.{board.by}",
            rank=Number(r.rank),
            name=Name(name.get(r.player_id, r.player_id)),
            net=signed(r.net),
            hands=Count(r.hands),
            pot=Chips(r.biggest_pot),
        )
        for r in board.rows
    ]


def signed(n: int) -> Name:
    """A net with its sign (``+12``, ``-80``, ``0``): a result reads up or down."""
    return Name(f"{n:+d}" if n else "0")


def now_utc() -> float:
    return datetime.now(UTC).timestamp()
