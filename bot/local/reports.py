"""``stats``, ``stats NAME`` and ``leaderboard`` in the terminal's language, from the
table service's figures (counts and chips only, R-14.4). The terminal has no servers:
its scope is every table the file holds."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.local.words import Words
from bot.poker.messages import Chips, Count, Msg, msg
from bot.table.session import PlayerStats
from bot.table.standings import Leaderboard, PlayerStanding


def _sign(n: int) -> str:
    return "+" if n >= 0 else "-"


def _count(key: str, n: int) -> Msg:
    return msg(f"terminal.count.{key}", n=Count(n))


def stats_lines(words: Words, stats: Iterable[PlayerStats], limit: int = 20) -> str:
    """This table's hands and chips, one line a player."""
    return "\n".join(
        words(
            "stats.line",
            name=s.name,
            hands=_count("hands", s.hands),
            won=s.won,
            sign=_sign(s.net),
            net=Chips(abs(s.net)),
            best=Chips(s.biggest_win),
        )
        for s in list(stats)[:limit]
    )


def player_lines(words: Words, standing: PlayerStanding, name: str) -> str:
    """One player's figures over every table of the file."""
    t = standing.totals
    where = words("stats.scope")
    if not t.tables:
        return words("stats.player.none", name=name, where=where)
    lines = [
        words(
            "stats.player.played",
            name=name,
            where=where,
            tables=_count("tables", t.tables),
            hands=_count("hands", t.hands),
            won=t.won,
        ),
        words(
            "stats.player.net",
            sign=_sign(t.net),
            net=Chips(abs(t.net)),
            cashed=Chips(t.cashed),
            bought=Chips(t.bought),
        ),
        words(
            "stats.player.hands",
            sign=_sign(t.hands_net),
            net=Chips(abs(t.hands_net)),
            biggest=Chips(t.biggest_pot),
        ),
    ]
    if t.hidden:
        lines.append(words("stats.player.hidden"))
    return "\n".join(lines)


def board_lines(words: Words, board: Leaderboard, name: Callable[[str], str]) -> str:
    """The leaderboard over every table of the file, one line a player (R-14.5)."""
    where = words("leaderboard.scope")
    floor = ""
    if board.min_hands:
        floor = " " + words("leaderboard.floor", hands=_count("hands", board.min_hands))
    lines = [words("leaderboard.head", where=where, floor=floor)]
    if not board.rows:
        lines.append(words("leaderboard.nobody"))
    lines.extend(
        words(
            "leaderboard.row",
            rank=s.rank,
            name=name(s.player_id),
            sign=_sign(s.net),
            net=Chips(abs(s.net)),
            hands=_count("hands", s.hands),
        )
        for s in board.rows
    )
    return "\n".join(lines)


__all__ = ["board_lines", "player_lines", "stats_lines"]
