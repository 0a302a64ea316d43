"""Session results and settlement: who is up, who is down, and who pays whom.

Pure functions over the chip ledger (buy-ins, top-ups, cash-outs) and the stacks still on
the table, for `/ledger` (the chart), `/settle` and `/stats`. The rake is the house's:
it is not owed between players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.poker.messages import Chips, Msg, Name, msg
from bot.table import log
from bot.table.ports import BOUGHT, LedgerEntry, LedgerKind, LedgerRow
from bot.table.standings import counted, lines, signed


@dataclass(frozen=True, slots=True)
class Result:
    user_id: str
    bought: int
    cashed: int
    on_table: int

    @property
    def net(self) -> int:
        """Chips won (positive) or lost: what he has or took away, less what he paid in."""
        return self.cashed + self.on_table - self.bought


@dataclass(frozen=True, slots=True)
class SessionReport:
    """A table's session as the service serves it (``TableService.session``): each
    player's result (the house left out), every name seen at the table (players who
    stood up too) and the ledger's totals by kind."""

    results: tuple[Result, ...]
    names: Mapping[str, str]
    totals: Mapping[LedgerKind, int]

    def name(self, user_id: str) -> str:
        return self.names.get(user_id, user_id)

    def payments(self) -> list[Payment]:
        """Who pays whom to settle (:func:`settle`)."""
        return settle(self.results)


@dataclass(frozen=True, slots=True)
class Payment:
    payer: str
    payee: str
    amount: int


def session_results(
    rows: Iterable[LedgerEntry | LedgerRow], stacks: Mapping[str, int]
) -> list[Result]:
    """Each player's result, biggest winner first. ``rows``: the table's ledger;
    ``stacks``: chips still on the table."""
    bought: dict[str, int] = {}
    cashed: dict[str, int] = {}
    for row in rows:
        if row.kind in BOUGHT or row.kind is LedgerKind.ADJUSTMENT:
            # An adjustment (signed, R-20.53) is chips from or to the bank: brought in.
            bought[row.player_id] = bought.get(row.player_id, 0) + row.amount
        elif row.kind is LedgerKind.CASH_OUT:
            cashed[row.player_id] = cashed.get(row.player_id, 0) + row.amount
    users = set(bought) | set(cashed) | set(stacks)
    results = [Result(u, bought.get(u, 0), cashed.get(u, 0), int(stacks.get(u, 0))) for u in users]
    return sorted(results, key=lambda r: (-r.net, r.user_id))


def settle(results: Iterable[Result]) -> list[Payment]:
    """The fewest-payments-first settlement: the biggest loser pays the biggest winner,
    and so on. With a rake the losers' total exceeds the winners'; payments cover only
    what the winners won."""
    ranked = sorted(results, key=lambda r: (-abs(r.net), r.user_id))
    winners = [(r.user_id, r.net) for r in ranked if r.net > 0]
    losers = [(r.user_id, -r.net) for r in ranked if r.net < 0]
    win_left = [amount for _, amount in winners]
    lose_left = [amount for _, amount in losers]
    out: list[Payment] = []
    i = j = 0
    while i < len(losers) and j < len(winners):
        pay = min(lose_left[i], win_left[j])
        if pay > 0:
            out.append(Payment(losers[i][0], winners[j][0], pay))
        lose_left[i] -= pay
        win_left[j] -= pay
        if lose_left[i] == 0:
            i += 1
        if win_left[j] == 0:
            j += 1
    return out


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: str
    name: str
    hands: int
    won: int
    net: int
    biggest_win: int


def hand_stats(events: Iterable[tuple[str, Mapping[str, object]]]) -> list[PlayerStats]:
    """Hands played, hands won (a positive net), net chips and the biggest single win per
    player, folded from the table's log (kinds ``sat``, ``hand_started``, ``hand_ended``,
    read through :mod:`bot.table.log`; other kinds are skipped unread)."""
    seat_user: dict[int, tuple[str, str]] = {}
    order: tuple[int, ...] = ()
    acc: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    wanted = (log.Sat.KIND, log.HandStarted.KIND, log.HandEnded.KIND)
    for seq, (kind, payload) in enumerate(events, 1):
        if kind not in wanted:
            continue
        rec = log.read_event(kind, payload, seq=seq)
        if isinstance(rec, log.Sat):
            seat_user[rec.seat] = (rec.user, rec.name)
            names[rec.user] = rec.name
        elif isinstance(rec, log.HandStarted):
            order = rec.order
        elif isinstance(rec, log.HandEnded):
            for seat, net in zip(order, rec.net, strict=False):
                user = seat_user.get(seat, (f"#{seat}", ""))[0]
                row = acc.setdefault(user, [0, 0, 0, 0])
                row[0] += 1
                row[1] += 1 if net > 0 else 0
                row[2] += net
                row[3] = max(row[3], net)
    out = [PlayerStats(u, names.get(u, u), r[0], r[1], r[2], r[3]) for u, r in acc.items()]
    return sorted(out, key=lambda s: (-s.net, s.user_id))


def stats_said(stats: Iterable[PlayerStats], limit: int = 20) -> Msg | None:
    """``/stats`` as a message, one line a player: "alice: 1 hand played, 1 won, net
    +12, best 12" (None: nobody played)."""
    parts = [
        msg(
            "table.stats.line",
            who=Name(s.name),
            hands=counted("hands", s.hands),
            won=Chips(s.won),
            net=signed(s.net),
            best=Chips(s.biggest_win),
        )
        for s in list(stats)[:limit]
    ]
    return lines(parts) if parts else None
