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
The store's rows come in one query each; this module adds the words.

Guilds: a table records its guild when it is created (``Created.guild``). A table made
before that has none; :meth:`bot.table.service.TableService.record_guild` fills it in
(the Discord side looks channels up in the gateway's cache), and until then the table
counts in "everywhere" only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

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
    """R-14.5's ranges, refused in words (nothing is read)."""
    if not 1 <= top <= MAX_TOP:
        raise StandingsError(f"A leaderboard shows 1 to {MAX_TOP} players, not {top}.")
    if not 0 <= min_hands <= MAX_MIN_HANDS:
        raise StandingsError(f"The minimum of hands is 0 to {MAX_MIN_HANDS:,}, not {min_hands}.")


def scope_of(scope: str, guild: int | None) -> tuple[Scope, int | None]:
    """The scope's name and the guild it reads (``server`` needs one)."""
    if scope not in SCOPES:
        raise StandingsError(f"The scope is server or everywhere, not {scope!r}.")
    if scope == "server":
        if guild is None:
            raise StandingsError(
                "There is no server here (a direct message): use scope everywhere."
            )
        return "server", guild
    return "everywhere", None


# ---------------------------------------------------------------------- words


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _where(scope: Scope) -> str:
    return "on this server" if scope == "server" else "on every server"


def stats_words(standing: PlayerStanding, name: str, where: str | None = None) -> str:
    """A player's stats in words: counts and chips only (R-14.4). ``where``: the
    scope's words, for a presenter without servers (the terminal)."""
    t = standing.totals
    where = where or _where(standing.scope)
    if not t.tables:
        return f"{name} has not played {where} yet."
    lines = [
        f"**{name}** {where}: {_plural(t.tables, 'table')}, {_plural(t.hands, 'hand')} "
        f"played, {t.won:,} won.",
        f"Net {t.net:+,} (cashed out {t.cashed:,} of {t.bought:,} brought in, sessions "
        "that are over; R-14.4).",
        f"Hands: {t.hands_net:+,} chips; biggest pot won {t.biggest_pot:,}.",
    ]
    if t.hidden and standing.scope == "everywhere":
        lines.append("Hidden from the global leaderboard (your choice).")
    return "\n".join(lines)


def board_words(board: Leaderboard, name: Callable[[str], str], where: str | None = None) -> str:
    """A leaderboard in words, one line a player (R-14.5); ``where`` as for
    :func:`stats_words`."""
    where = where or ("this server" if board.scope == "server" else "every server")
    floor = f" (at least {_plural(board.min_hands, 'hand')})" if board.min_hands else ""
    head = f"**Leaderboard, {where}**{floor}: net chips over sessions that are over (R-14.4)."
    if not board.rows:
        return f"{head}\nNobody yet: finish a session (stand up, or close the table)."
    lines = [head]
    lines.extend(
        f"{s.rank}. {name(s.player_id)}: {s.net:+,} in {_plural(s.hands, 'hand')}"
        for s in board.rows
    )
    return "\n".join(lines)


def names_from(pairs: Iterable[tuple[str, str]]) -> Callable[[str], str]:
    """A name lookup that falls back to the id."""
    known = dict(pairs)
    return lambda user: known.get(user, user)
