"""The standings' side of the store: what the writer keeps for them, and their queries.

A player's stats across tables and servers, and the leaderboards, are read with one query
each (the same SQL on SQLite and PostgreSQL), never by reading every table's log or the
whole ledger. For that the writer keeps three small tables (migration 5, ``schema.py``),
in the same transaction as the events and ledger rows they come from:

* ``table_guilds``: a table's guild, from the ``guild`` of its ``created`` event, or from
  a ``table_guild`` event (a table created before guilds were recorded, filled in later);
* ``standings``: one row per player and table, his running totals there: chips settled
  (brought and cashed out, over sessions that are over), chips pending (brought in the
  session still on), sessions, hands, hands won, the hands' net and the biggest pot won.
  The ledger rows feed the chips (:func:`standings_rows`); a ``hand_ended`` feeds the
  hands through its ``users``, ``net`` and ``won`` (per engine position). Counts and
  chips only: no card is ever kept there;
* ``player_prefs``: a player's choice to be left off the global leaderboards, from a
  ``privacy`` event.

Every row comes from a committed event or ledger row, so they can be rebuilt from the
log (invariant 4); the migration folds in the ledger written before it.

The standings' net (R-14.4) is the ledger's: chips cashed out less chips brought (buy-ins,
top-ups, adjustments), over the sessions that are over: a player's chips at a table up to
his last cash-out there. Chips still in play are not a result yet (a player who just sat
down with 1,000 has not lost them). The rake, whoever's id is on its row, is the house's
and nobody's loss twice: a time charge came out of a stack, so it is already in that
player's cash-out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.store.records import HAND_ENDED, HOUSE, PRIVACY, TABLE_GUILD, TABLE_OPENED

MAX_LEADERBOARD: Final = 100
"""The most rows one leaderboard query returns."""


@dataclass(frozen=True, slots=True)
class IndexRows:
    """What one event adds to the standings' tables (nothing, for most events)."""

    guild: tuple[str, int] | None = None
    """(table, guild): the table's guild."""
    results: tuple[tuple[str, int, int], ...] = ()
    """(player, net, won) per player dealt in, for a ``hand_ended``."""
    privacy: tuple[str, bool] | None = None
    """(player, hidden)."""


NO_ROWS: Final = IndexRows()


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def index_rows(table_id: str, kind: str, payload: Mapping[str, Any]) -> IndexRows:
    """The standings' rows of one event. A payload without the fields (a log written
    before they existed, or a malformed one, which the table's reader refuses on its own)
    adds nothing rather than failing the append."""
    if kind == TABLE_OPENED:
        guild = _int(payload.get("guild"))
        return IndexRows(guild=(table_id, guild)) if guild is not None else NO_ROWS
    if kind == TABLE_GUILD:
        table, guild = payload.get("table"), _int(payload.get("guild"))
        if isinstance(table, str) and table and guild is not None:
            return IndexRows(guild=(table, guild))
        return NO_ROWS
    if kind == HAND_ENDED:
        users, net, won = payload.get("users"), payload.get("net"), payload.get("won")
        if not (isinstance(users, list) and isinstance(net, list) and isinstance(won, list)):
            return NO_ROWS
        if not len(users) == len(net) == len(won):
            return NO_ROWS
        rows = []
        for user, n, w in zip(users, net, won, strict=True):
            n, w = _int(n), _int(w)
            if not isinstance(user, str) or not user or n is None or w is None or w < 0:
                return NO_ROWS
            rows.append((user, n, w))
        if len({r[0] for r in rows}) != len(rows):
            return NO_ROWS  # one player in two positions is no hand this table deals
        return IndexRows(results=tuple(rows))
    if kind == PRIVACY:
        user, hidden = payload.get("user"), payload.get("hidden")
        if isinstance(user, str) and user and isinstance(hidden, bool):
            return IndexRows(privacy=(user, hidden))
    return NO_ROWS


# ---------------------------------------------------------------------- the writer's fold


def standings_rows(
    ledger: Iterable[tuple[str, int, str, str, int, int | None]],
    results: Iterable[tuple[str, int, int, str, int, int]],
) -> list[tuple[str, str, int, int, int, int, int, int, int, int]]:
    """One batch's change to the ``standings`` rows, one row per (table, player), in the
    column order of :data:`UPSERT`: (table, player, bought, cashed, pending, sessions,
    hands, won, hands_net, best).

    ``ledger`` rows (table, seq, player, kind, amount, hand) in the batch's order: chips
    brought (buy-in, top-up, adjustment) are pending until a cash-out settles them
    (R-14.4); ``bought`` is what this batch settled of its own, ``pending`` what it left
    pending after its last cash-out (or all it brought, if it has none). The rake is
    nobody's loss here (it is out of the stacks already). ``results`` (table, seq, hand,
    player, net, won) count the hands."""
    acc: dict[tuple[str, str], list[int]] = {}
    for table, _seq, player, kind, amount, _hand in ledger:
        if kind == "rake":
            continue
        row = acc.setdefault((table, player), [0] * 8)
        if kind == "cash_out":
            row[0] += row[2]
            row[2] = 0
            row[1] += amount
            row[3] += 1
        else:
            row[2] += amount
    for table, _seq, _hand, player, net, won in results:
        row = acc.setdefault((table, player), [0] * 8)
        row[4] += 1
        row[5] += 1 if net > 0 else 0
        row[6] += net
        row[7] = max(row[7], won)
    return [(t, p, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]) for (t, p), r in acc.items()]


# A batch's rows on top of what is there: a cash-out in the batch (``sessions`` > 0)
# settles what was pending before it. The same statement on both back ends (SQLite's
# executemany with ``?``, PostgreSQL's unnest arrays with the values part replaced).
UPSERT_COLUMNS: Final = (
    "table_id, player_id, bought, cashed, pending, sessions, hands, won, hands_net, best"
)
UPSERT_CONFLICT: Final = (
    " ON CONFLICT (table_id, player_id) DO UPDATE SET"
    " bought = standings.bought + excluded.bought"
    " + CASE WHEN excluded.sessions > 0 THEN standings.pending ELSE 0 END,"
    " cashed = standings.cashed + excluded.cashed,"
    " pending = CASE WHEN excluded.sessions > 0 THEN excluded.pending"
    " ELSE standings.pending + excluded.pending END,"
    " sessions = standings.sessions + excluded.sessions,"
    " hands = standings.hands + excluded.hands,"
    " won = standings.won + excluded.won,"
    " hands_net = standings.hands_net + excluded.hands_net,"
    " best = CASE WHEN excluded.best > standings.best THEN excluded.best"
    " ELSE standings.best END"
)
UPSERT: Final = (
    f"INSERT INTO standings ({UPSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    + UPSERT_CONFLICT
)


# ---------------------------------------------------------------------- queries
#
# ``?`` placeholders (the PostgreSQL reader numbers them). A guild scope is one more
# condition on the table id, through the (guild_id, table_id) index.

_SCOPE = " AND s.table_id IN (SELECT table_id FROM table_guilds WHERE guild_id = ?)"


def _scope(guild: int | None) -> tuple[str, list[object]]:
    return ("", []) if guild is None else (_SCOPE, [guild])


def player_query(player_id: str, guild: int | None) -> tuple[str, list[object]]:
    """One row: tables, hands, won, hands' net, biggest pot, bought, cashed, hidden."""
    scope, params = _scope(guild)
    sql = (
        "SELECT COUNT(s.table_id), COALESCE(SUM(s.hands), 0), COALESCE(SUM(s.won), 0),"
        " COALESCE(SUM(s.hands_net), 0), COALESCE(MAX(s.best), 0),"
        " COALESCE(SUM(s.bought), 0), COALESCE(SUM(s.cashed), 0),"
        " (SELECT COALESCE(MAX(hidden), 0) FROM player_prefs WHERE player_id = ?)"
        f" FROM standings AS s WHERE s.player_id = ?{scope}"
    )
    return sql, [player_id, player_id, *params]


def leaderboard_query(
    guild: int | None, min_hands: int, limit: int, *, hide_private: bool
) -> tuple[str, list[object]]:
    """Rows (player, net, hands, tables), best first (R-14.5): net, then hands, then the
    player id, so ties always come out in the same order. Players with no session over
    yet are on no board."""
    scope, params = _scope(guild)
    private = " LEFT JOIN player_prefs AS p ON p.player_id = s.player_id" if hide_private else ""
    shown = " AND COALESCE(p.hidden, 0) = 0" if hide_private else ""
    sql = (
        "SELECT s.player_id, SUM(s.cashed) - SUM(s.bought) AS net, SUM(s.hands) AS hands,"
        f" COUNT(*) AS tables FROM standings AS s{private}"
        f" WHERE s.player_id <> ?{scope}{shown}"
        " GROUP BY s.player_id HAVING SUM(s.sessions) > 0 AND SUM(s.hands) >= ?"
        " ORDER BY net DESC, hands DESC, s.player_id"
        " LIMIT ?"
    )
    return sql, [HOUSE, *params, min_hands, limit]


def unguilded_query() -> str:
    """Tables (ever opened) with no guild on record."""
    return (
        "SELECT table_id FROM tables WHERE table_id NOT IN (SELECT table_id FROM table_guilds)"
        " ORDER BY table_id"
    )
