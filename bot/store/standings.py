"""The standings' side of the store: what the writer keeps for them, and their queries.

A player's stats across tables and servers, and the leaderboards, are read with one query
each (the same SQL on SQLite and PostgreSQL), never by reading every table's log. For
that the writer keeps three small tables (migration 5, ``schema.py``) from the events that
carry what they need, in the same transaction as the event:

* ``table_guilds``: a table's guild, from the ``guild`` of its ``created`` event, or from
  a ``table_guild`` event (a table created before guilds were recorded, filled in later);
* ``hand_results``: each player's result in each hand (chips won or lost, and the chips
  he was awarded from the pots), from the ``users``, ``net`` and ``won`` of ``hand_ended``
  (per engine position). Counts and chips only: no card is ever kept there;
* ``player_prefs``: a player's choice to be left off the global leaderboards, from a
  ``privacy`` event.

The index is rebuilt from the log (invariant 4): every row comes from a committed event.

The standings' net (R-14.4) is read from the ledger: chips cashed out less chips brought
in (buy-ins, top-ups, adjustments), over the sessions that are over, that is a player's
ledger rows at a table up to his last cash-out there. Chips still in play are not a
result yet (a player who just sat down with 1,000 has not lost them). The rake, whoever's
id is on its row, is the house's and is nobody's loss twice: a time charge came out of a
stack, so it is already in that player's cash-out.
"""

from __future__ import annotations

from collections.abc import Mapping
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


# ---------------------------------------------------------------------- queries
#
# ``?`` placeholders (the PostgreSQL reader numbers them). A guild scope is one more
# condition on the table id, through the (guild_id, table_id) index.

_SCOPE = " AND {col} IN (SELECT table_id FROM table_guilds WHERE guild_id = ?)"

# A player's ledger rows that belong to sessions that are over: at each table, up to his
# last cash-out there.
_SETTLED = (
    "SELECT w.table_id, w.player_id, w.kind, w.amount FROM"
    " (SELECT table_id, player_id, kind, amount, seq,"
    "  MAX(CASE WHEN kind = 'cash_out' THEN seq END)"
    "  OVER (PARTITION BY player_id, table_id) AS upto"
    "  FROM ledger WHERE 1 = 1{inner}) AS w"
    " WHERE w.seq <= w.upto"
)
_BROUGHT = "CASE WHEN s.kind IN ('buy_in', 'top_up', 'adjustment') THEN s.amount ELSE 0 END"
_CASHED = "CASE WHEN s.kind = 'cash_out' THEN s.amount ELSE 0 END"


def _scope(guild: int | None, col: str) -> tuple[str, list[object]]:
    return ("", []) if guild is None else (_SCOPE.format(col=col), [guild])


def player_query(player_id: str, guild: int | None) -> tuple[str, list[object]]:
    """One row: hands, won, hands' net, biggest pot, brought, cashed, tables, hidden."""
    hs, hp = _scope(guild, "table_id")
    ls, lp = _scope(guild, "table_id")
    sql = (
        "SELECT h.hands, h.won, h.net, h.best, l.bought, l.cashed, t.tables, p.hidden FROM"
        " (SELECT COUNT(*) AS hands, COALESCE(SUM(CASE WHEN net > 0 THEN 1 ELSE 0 END), 0)"
        " AS won, COALESCE(SUM(net), 0) AS net, COALESCE(MAX(won), 0) AS best"
        f" FROM hand_results WHERE player_id = ?{hs}) AS h,"
        f" (SELECT COALESCE(SUM({_BROUGHT}), 0) AS bought, COALESCE(SUM({_CASHED}), 0)"
        f" AS cashed FROM ({_SETTLED.format(inner=' AND player_id = ?' + ls)}) AS s) AS l,"
        " (SELECT COUNT(*) AS tables FROM ("
        f"SELECT table_id FROM ledger WHERE player_id = ?{ls}"
        f" UNION SELECT table_id FROM hand_results WHERE player_id = ?{hs}) AS x) AS t,"
        " (SELECT COALESCE(MAX(hidden), 0) AS hidden FROM player_prefs WHERE player_id = ?)"
        " AS p"
    )
    params: list[object] = [player_id, *hp, player_id, *lp, player_id, *lp, player_id, *hp]
    params.append(player_id)
    return sql, params


def leaderboard_query(
    guild: int | None, min_hands: int, limit: int, *, hide_private: bool
) -> tuple[str, list[object]]:
    """Rows (player, net, hands, tables), best first (R-14.5): net, then hands, then the
    player id, so ties always come out in the same order."""
    ls, lp = _scope(guild, "table_id")
    hs, hp = _scope(guild, "table_id")
    private = " LEFT JOIN player_prefs AS p ON p.player_id = l.player_id" if hide_private else ""
    shown = " AND COALESCE(p.hidden, 0) = 0" if hide_private else ""
    sql = (
        "SELECT l.player_id, l.net, COALESCE(h.hands, 0) AS hands, l.tables FROM"
        f" (SELECT s.player_id, SUM({_CASHED}) - SUM({_BROUGHT}) AS net,"
        " COUNT(DISTINCT s.table_id) AS tables"
        f" FROM ({_SETTLED.format(inner=' AND player_id <> ?' + ls)}) AS s"
        " GROUP BY s.player_id) AS l"
        " LEFT JOIN (SELECT player_id, COUNT(*) AS hands FROM hand_results"
        f" WHERE player_id <> ?{hs} GROUP BY player_id) AS h ON h.player_id = l.player_id"
        f"{private}"
        f" WHERE COALESCE(h.hands, 0) >= ?{shown}"
        " ORDER BY l.net DESC, hands DESC, l.player_id"
        " LIMIT ?"
    )
    return sql, [HOUSE, *lp, HOUSE, *hp, min_hands, limit]


def unguilded_query() -> str:
    """Tables with a ledger or hand results but no guild on record."""
    return (
        "SELECT table_id FROM tables WHERE table_id NOT IN (SELECT table_id FROM table_guilds)"
        " ORDER BY table_id"
    )
