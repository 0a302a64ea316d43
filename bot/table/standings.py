"""Standings across tables and servers: a player's stats, the leaderboards, and the
choices behind them, served by the table service from the shared store.

What is counted, and how (docs/RULES.md R-14.4, R-14.5):

* a player's stats over a scope (one server's tables, or every table the database
  holds): tables played, hands dealt in, hands won, the chips those hands won or lost,
  the biggest pot he was awarded, and the standings' net, which is the chips cashed out
  less the chips brought in, over sessions that are over (R-14.4);
* a leaderboard: the top N by that net, with the hands each played, players with fewer
  than a minimum of hands left off, ties broken by hands then by id (R-14.5);
* a player may be left off the global boards (``set_hidden``); his stats across servers
  are then his own to see. Server boards show him (his own server's players see him
  play).

Nothing here reads a card: the store keeps counts and chips (``bot/store/standings.py``).
The store's rows come in one query each; this module says them as messages
(``table`` catalogue) that presenters render in the reader's language.

Guilds: a table records its guild when it is created (``Created.guild``). A table made
before that has none; :meth:`bot.table.service.TableService.record_guild` fills it in
(the Discord side looks channels up in the gateway's cache), and until then the table
counts in "everywhere" only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from bot.poker.messages import Chips, Count, Msg, Name, Number, Rule, joined, msg
from bot.store import PlayerTotals, Standing
from bot.table.errors import TableError

STANDINGS_LOG = "_standings"
"""The reserved log of the standings' choices (privacy, guilds filled in later). Table
ids are channel ids (digits) or ``local``, so it cannot clash, and it never opens a
table."""

Scope = Literal["server", "everywhere"]
SCOPES: tuple[Scope, ...] = ("server", "everywhere")
DEFAULT_TOP = 10
MAX_TOP = 25
DEFAULT_MIN_HANDS = 10
"""A leaderboard's default floor of hands (R-14.5): one lucky hand tops nothing."""
MAX_MIN_HANDS = 100_000


@runtime_checkable
class StandingsSource(Protocol):
    """The store's standings queries (``bot.store.BaseStore`` through the port)."""

    async def player_totals(self, player_id: str, *, guild: int | None = None) -> PlayerTotals:
        """One player's totals; one query."""

    async def leaderboard(
        self,
        *,
        guild: int | None = None,
        min_hands: int = 0,
        limit: int = 10,
        hide_private: bool = False,
    ) -> list[Standing]:
        """The top rows; one query."""

    async def guild_of(self, table_id: str) -> int | None: ...

    async def unguilded_tables(self) -> list[str]: ...


class StandingsError(TableError):
    """A standings request that cannot be served as asked; says what is allowed."""

    code = "standings"


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """What ``/stats player scope`` shows: the player's totals over the scope."""

    scope: Scope
    guild: int | None
    totals: PlayerTotals


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """What ``/leaderboard`` shows: its scope, its floor of hands and its rows."""

    scope: Scope
    guild: int | None
    min_hands: int
    rows: tuple[Standing, ...]


def check_board(top: int, min_hands: int) -> None:
    """R-14.5's ranges, refused as messages (nothing is read)."""
    if not 1 <= top <= MAX_TOP:
        raise StandingsError(
            msg("table.standings.top_range", most=Number(MAX_TOP), got=Number(top))
        )
    if not 0 <= min_hands <= MAX_MIN_HANDS:
        raise StandingsError(
            msg(
                "table.standings.min_hands_range",
                most=Chips(MAX_MIN_HANDS),
                got=Number(min_hands),
            )
        )


def scope_of(scope: str, guild: int | None) -> tuple[Scope, int | None]:
    """The scope's name and the guild it reads (``server`` needs one)."""
    if scope not in SCOPES:
        raise StandingsError(msg("table.standings.bad_scope", scope=Name(scope)))
    if scope == "server":
        if guild is None:
            raise StandingsError(msg("table.standings.no_server"))
        return "server", guild
    return "everywhere", None


# ---------------------------------------------------------------------- messages


def counted(what: str, n: int) -> Msg:
    """``n`` things with their plural (``table.count.hands``: "1 hand", "5 hands")."""
    return msg(f"table.count.{what}", count=Count(n))


def signed(n: int) -> Msg:
    """Chips won (``+12``, ``+0``) or lost (``-5``), grouped by the reader's locale."""
    return msg("table.signed.up" if n >= 0 else "table.signed.down", amount=Chips(abs(n)))


def lines(parts: list[Msg]) -> Msg:
    """Messages said one a line."""
    return joined(parts, "table.lines")


def standing_said(standing: PlayerStanding, who: Name) -> Msg:
    """A player's stats as a message: counts and chips only (R-14.4)."""
    t = standing.totals
    where = msg(f"table.standings.on.{standing.scope}")
    if not t.tables:
        return msg("table.standings.none", who=who, where=where)
    parts = [
        msg(
            "table.standings.played",
            who=who,
            where=where,
            tables=counted("tables", t.tables),
            hands=counted("hands", t.hands),
            won=Chips(t.won),
        ),
        msg(
            "table.standings.net",
            net=signed(t.net),
            cashed=Chips(t.cashed),
            bought=Chips(t.bought),
            rule=Rule("R-14.4"),
        ),
        msg("table.standings.hands", net=signed(t.hands_net), biggest=Chips(t.biggest_pot)),
    ]
    if t.hidden and standing.scope == "everywhere":
        parts.append(msg("table.standings.hidden"))
    return lines(parts)


def leaderboard_said(board: Leaderboard, name: Callable[[str], str]) -> Msg:
    """A leaderboard as a message, one line a player (R-14.5)."""
    where = msg(f"table.board.of.{board.scope}")
    rule = Rule("R-14.4")
    if board.min_hands:
        floor = counted("hands", board.min_hands)
        head = msg("table.board.head_floor", where=where, hands=floor, rule=rule)
    else:
        head = msg("table.board.head", where=where, rule=rule)
    if not board.rows:
        return lines([head, msg("table.board.nobody")])
    rows = [
        msg(
            "table.board.row",
            rank=Number(s.rank),
            who=Name(name(s.player_id)),
            net=signed(s.net),
            hands=counted("hands", s.hands),
        )
        for s in board.rows
    ]
    return lines([head, *rows])


def names_from(pairs: Iterable[tuple[str, str]]) -> Callable[[str], str]:
    """A name lookup that falls back to the id."""
    known = dict(pairs)
    return lambda user: known.get(user, user)
