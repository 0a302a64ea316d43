"""The night's record in the store: running sums per day, kept by the writer in the
transaction of the events they come from (migration 7, ``schema.py``), so a server's
ledger over a date range, a player's stats over a period, a period's leaderboard and a
session's story are each one query over small rows, never a read of the logs.

* ``ledger_days``: per (table, player, ledger kind, UTC day) the sum of the ledger's
  amounts (the day of the event that wrote the row: its ``at``, else the time it was
  appended). Migration 7 sums the ledger already written.
* ``player_days``: per (table, player, UTC day) the hands dealt, of them in flop games,
  VPIP and PFR hands, showdowns and showdowns won, hands won without a showdown, the
  biggest pot awarded and the hands' net. A ``hand_ended`` feeds it through its
  ``users``, ``net``, ``won`` and ``reason``; what a hand's players did before the flop
  and who was at the showdown is the table's reading of the hand (``Profile``, given to
  ``append`` with the hand's end). Counts and chips only: no card is kept.
* ``hand_stacks``: per hand end and player, his stack after the hand (the session's
  story: a row per player per hand).

Hands ended before this version are not in ``player_days`` or ``hand_stacks`` (their
ends do not carry the profile); the ledger's days are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from bot.store.records import HAND_ENDED, HOUSE

DAY: Final = 86_400

Profile = tuple[tuple[bool, bool, bool, bool], ...]
"""Per position of a hand's end: (flop game, VPIP, PFR, at the showdown)."""

DayRow = tuple[str, str, int, int, int, int, int, int, int, int, int, int]
"""(table, player, day, hands, flop_hands, vpip, pfr, showdowns, showdowns_won,
won_without, best_pot, net)."""

STAT_COLUMNS: Final = (
    "table_id, player_id, day, hands, flop_hands, vpip, pfr, showdowns, showdowns_won,"
    " won_without, best_pot, net"
)
STAT_CONFLICT: Final = (
    " ON CONFLICT (table_id, player_id, day) DO UPDATE SET"
    " hands = player_days.hands + excluded.hands,"
    " flop_hands = player_days.flop_hands + excluded.flop_hands,"
    " vpip = player_days.vpip + excluded.vpip,"
    " pfr = player_days.pfr + excluded.pfr,"
    " showdowns = player_days.showdowns + excluded.showdowns,"
    " showdowns_won = player_days.showdowns_won + excluded.showdowns_won,"
    " won_without = player_days.won_without + excluded.won_without,"
    " best_pot = CASE WHEN excluded.best_pot > player_days.best_pot THEN excluded.best_pot"
    " ELSE player_days.best_pot END,"
    " net = player_days.net + excluded.net"
)
STAT_UPSERT: Final = (
    f"INSERT INTO player_days ({STAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    + STAT_CONFLICT
)
DAYS_COLUMNS: Final = "table_id, player_id, kind, day, amount"
DAYS_CONFLICT: Final = (
    " ON CONFLICT (table_id, player_id, kind, day) DO UPDATE"
    " SET amount = ledger_days.amount + excluded.amount"
)
DAYS_UPSERT: Final = (
    f"INSERT INTO ledger_days ({DAYS_COLUMNS}) VALUES (?, ?, ?, ?, ?){DAYS_CONFLICT}"
)
STACKS_COLUMNS: Final = "table_id, seq, hand_no, player_id, stack"
STACKS_INSERT: Final = f"INSERT INTO hand_stacks ({STACKS_COLUMNS}) VALUES (?, ?, ?, ?, ?)"

MIGRATION: Final = (
    """
    CREATE TABLE ledger_days (
        table_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        day {int} NOT NULL,
        amount {int} NOT NULL,
        PRIMARY KEY (table_id, player_id, kind, day)
    )
    """,
    "CREATE INDEX ledger_days_day ON ledger_days (day, table_id)",
    """
    CREATE TABLE player_days (
        table_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        day {int} NOT NULL,
        hands {int} NOT NULL,
        flop_hands {int} NOT NULL,
        vpip {int} NOT NULL,
        pfr {int} NOT NULL,
        showdowns {int} NOT NULL,
        showdowns_won {int} NOT NULL,
        won_without {int} NOT NULL,
        best_pot {int} NOT NULL,
        net {int} NOT NULL,
        PRIMARY KEY (table_id, player_id, day)
    )
    """,
    "CREATE INDEX player_days_player ON player_days (player_id, day)",
    "CREATE INDEX player_days_day ON player_days (day, table_id)",
    """
    CREATE TABLE hand_stacks (
        table_id TEXT NOT NULL,
        seq {int} NOT NULL,
        hand_no {int} NOT NULL,
        player_id TEXT NOT NULL,
        stack {int} NOT NULL,
        PRIMARY KEY (table_id, seq, player_id)
    )
    """,
)
BACKFILL_READ: Final = (
    "SELECT l.table_id, l.player_id, l.kind, l.amount, e.created_at, e.payload"
    " FROM ledger AS l JOIN events AS e ON e.table_id = l.table_id AND e.seq = l.seq"
    " ORDER BY l.id"
)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def day_of(payload: Mapping[str, Any], created_at: float) -> int:
    """The UTC day of an event: its ``at`` (the table's clock) if it has one, else the
    time it was appended."""
    at = payload.get("at")
    ts = at if isinstance(at, int | float) and not isinstance(at, bool) else created_at
    return int(ts // DAY)


class LedgerDaysFold:
    """Migration 7's backfill: the ledger already written, summed per day."""

    def __init__(self) -> None:
        self._acc: dict[tuple[str, str, str, int], int] = {}

    def feed(self, rows: Iterable[tuple[Any, ...]]) -> None:
        for table, player, kind, amount, created_at, text in rows:
            try:
                payload = json.loads(text)
            except ValueError:
                payload = {}
            day = day_of(payload if isinstance(payload, dict) else {}, float(created_at))
            key = (str(table), str(player), str(kind), day)
            self._acc[key] = self._acc.get(key, 0) + int(amount)

    def rows(self) -> list[tuple[Any, ...]]:
        return [(*k, amount) for k, amount in self._acc.items()]


def hand_rows(
    table: str, kind: str, payload: Mapping[str, Any], profile: Profile, day: int
) -> tuple[list[DayRow], list[tuple[str, int]]]:
    """A ``hand_ended``'s rows: its players' day rows (:data:`DayRow`) and their stacks
    after it (player, stack). Nothing for another event,
    or one whose players are not named or whose figures do not read."""
    if kind != HAND_ENDED:
        return [], []
    users, net, won = payload.get("users"), payload.get("net"), payload.get("won")
    stacks = payload.get("stacks")
    if not (isinstance(users, list) and isinstance(net, list) and isinstance(won, list)):
        return [], []
    if (
        not users
        or not len(users) == len(net) == len(won)
        or len(set(map(str, users))) != len(users)
    ):
        return [], []
    reason = payload.get("reason")
    rows: list[DayRow] = []
    after: list[tuple[str, int]] = []
    for i, (user, n, w) in enumerate(zip(users, net, won, strict=True)):
        n, w = _int(n), _int(w)
        if not isinstance(user, str) or not user or n is None or w is None:
            return [], []
        flop, vpip, pfr, showdown = profile[i] if i < len(profile) else (False,) * 4
        showdown = showdown and reason == "showdown"
        rows.append(
            (
                table,
                user,
                day,
                1,
                int(flop),
                int(flop and vpip),
                int(flop and pfr),
                int(showdown),
                int(showdown and w > 0),
                int(reason == "uncontested" and w > 0),
                max(0, w),
                n,
            )
        )
        stack = _int(stacks[i]) if isinstance(stacks, list) and i < len(stacks) else None
        if stack is not None:
            after.append((user, stack))
    return rows, after


def merge_days(rows: Iterable[DayRow]) -> list[DayRow]:
    """One change per (table, player, day), for :data:`STAT_UPSERT` (an upsert may not
    touch a row twice)."""
    acc: dict[tuple[str, str, int], list[int]] = {}
    for row in rows:
        have = acc.setdefault((row[0], row[1], row[2]), [0] * 9)
        for k, value in enumerate(row[3:]):
            have[k] = max(have[k], value) if k == 7 else have[k] + value
    return [
        (t, p, d, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])
        for (t, p, d), r in acc.items()
    ]


def ledger_day_rows(
    ledger: Iterable[tuple[str, int, str, str, int, int | None]],
    days: Mapping[tuple[str, int], int],
) -> list[tuple[str, str, str, int, int]]:
    """One batch's ledger rows as one change per (table, player, kind, day); ``days``:
    the day of each (table, seq) event."""
    acc: dict[tuple[str, str, str, int], int] = {}
    for table, seq, player, kind, amount, _hand in ledger:
        key = (table, player, kind, days.get((table, seq), 0))
        acc[key] = acc.get(key, 0) + amount
    return [(*k, amount) for k, amount in acc.items()]


# ---------------------------------------------------------------------- queries

_GUILD = " AND table_id IN (SELECT table_id FROM table_guilds WHERE guild_id = ?)"


def _where(guild: int | None, first: int | None, last: int | None) -> tuple[str, list[object]]:
    sql, params = "", []  # type: tuple[str, list[object]]
    if first is not None and last is not None:
        sql += " AND day BETWEEN ? AND ?"
        params += [first, last]
    if guild is not None:
        sql += _GUILD
        params.append(guild)
    return sql, params


def ledger_range_query(
    guild: int | None, first: int | None, last: int | None
) -> tuple[str, list[object]]:
    """Rows (player, kind, amount, tables) of a server's ledger over the days."""
    where, params = _where(guild, first, last)
    return (
        "SELECT player_id, kind, SUM(amount), COUNT(DISTINCT table_id) FROM ledger_days"
        f" WHERE 1 = 1{where} GROUP BY player_id, kind ORDER BY player_id, kind",
        params,
    )


def tables_range_query(
    guild: int | None, first: int | None, last: int | None
) -> tuple[str, list[object]]:
    where, params = _where(guild, first, last)
    return (
        "SELECT COUNT(DISTINCT table_id) FROM ("
        f"SELECT table_id FROM ledger_days WHERE 1 = 1{where}"
        f" UNION SELECT table_id FROM player_days WHERE 1 = 1{where}) AS t",
        params + params,
    )


_FIGURES: Final = (
    "SUM(hands), SUM(flop_hands), SUM(vpip), SUM(pfr), SUM(showdowns), SUM(showdowns_won),"
    " SUM(won_without), MAX(best_pot), SUM(net)"
)


def stats_query(
    player: str | None, guild: int | None, first: int | None, last: int | None
) -> tuple[str, list[object]]:
    """Rows (player, hands, flop_hands, vpip, pfr, showdowns, showdowns_won,
    won_without, best_pot, net), one per player (or the one asked for)."""
    where, params = _where(guild, first, last)
    if player is not None:
        where = " AND player_id = ?" + where
        params = [player, *params]
    return (
        f"SELECT player_id, {_FIGURES} FROM player_days WHERE 1 = 1{where}"
        " GROUP BY player_id ORDER BY player_id",
        params,
    )


_ORDER: Final = {
    "net": "SUM(net) DESC, SUM(hands) DESC",
    "hands": "SUM(hands) DESC, SUM(net) DESC",
    "pot": "MAX(best_pot) DESC, SUM(hands) DESC",
}


def board_query(
    by: str,
    guild: int | None,
    first: int | None,
    last: int | None,
    limit: int,
    min_hands: int,
    *,
    hide_private: bool = False,
) -> tuple[str, list[object]]:
    """Rows (player, net, hands, best_pot), best first by ``by`` (R-20.43), ties by
    hands then id; ``hide_private`` leaves off the players hidden from the global
    boards (R-14.5)."""
    where, params = _where(guild, first, last)
    if hide_private:
        where += " AND player_id NOT IN (SELECT player_id FROM player_prefs WHERE hidden = 1)"
    return (
        "SELECT player_id, SUM(net), SUM(hands), MAX(best_pot) FROM player_days"
        f" WHERE player_id <> ?{where} GROUP BY player_id HAVING SUM(hands) >= ?"
        f" ORDER BY {_ORDER[by]}, player_id LIMIT ?",
        [HOUSE, *params, min_hands, limit],
    )


def stacks_query(table: str, after_seq: int) -> tuple[str, list[object]]:
    """Rows (seq, hand_no, player, stack) of the table's hands ended after ``after_seq``
    (its session), in order."""
    return (
        "SELECT seq, hand_no, player_id, stack FROM hand_stacks"
        " WHERE table_id = ? AND seq > ? ORDER BY seq, player_id",
        [table, after_seq],
    )


def session_hands_query(table: str, after_seq: int) -> tuple[str, list[object]]:
    return (
        "SELECT player_id, COUNT(*) FROM hand_stacks WHERE table_id = ? AND seq > ?"
        " GROUP BY player_id ORDER BY player_id",
        [table, after_seq],
    )


def check_profile(profile: Sequence[Sequence[object]]) -> Profile:
    """A profile as given to ``append``: per position four booleans."""
    out = []
    for row in profile:
        if len(row) != 4 or not all(isinstance(v, bool) for v in row):
            raise TypeError("a hand profile is four booleans per position")
        flop, vpip, pfr, showdown = (bool(v) for v in row)
        out.append((flop, vpip, pfr, showdown))
    return tuple(out)
