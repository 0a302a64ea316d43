"""When a mixed event's tables change game (R-19.54 to R-19.58): with each level (the
default, as WSOP mixed events play), with each orbit (as online rooms do), or with
each deal (R-19.50).

Pure: the director words a level by the game it deals; the tables' runner turns the
choice into the rotation's pick (:func:`pick`), which a table reads at each deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from bot.poker.messages import Chips, Msg, Number, joined, msg

if TYPE_CHECKING:
    from bot.tournament.structure import Level

Rotate: TypeAlias = Literal["level", "orbit", "deal"]
ROTATE: Final[tuple[Rotate, ...]] = ("level", "orbit", "deal")
"""The choices, the default first (R-19.54)."""

HORSE: Final = ("holdem:fixed", "omaha8:fixed", "razz:fixed", "stud:fixed", "stud8:fixed")
"""``horse`` in an event's games (the director, pure, does not import the tables'
names; tests/test_tourney_rotate.py holds this to ``bot.table.games.HORSE``)."""


def dealt(games: tuple[str, ...]) -> tuple[str, ...]:
    """The event's games in the order dealt, ``horse`` as its five games."""
    out: list[str] = []
    for name in games:
        out.extend(HORSE if name.strip().casefold() == "horse" else (name,))
    return tuple(out)


def rotate_of(text: str) -> Rotate | None:
    """A choice as typed (``Level``, ``orbit``), or None if it is none of them."""
    word = text.strip().casefold()
    for choice in ROTATE:
        if word == choice:
            return choice
    return None


def level_game(games: tuple[str, ...], rotate: Rotate, level_number: int) -> str | None:
    """The game every table deals through level ``level_number`` (1-based, breaks not
    counted: a break keeps the game of the level before it), when the event changes game
    by level (R-19.55); None when it does not (one game, or by orbit or deal)."""
    games = dealt(games)
    if rotate != "level" or len(games) < 2:
        return None
    return games[(max(1, level_number) - 1) % len(games)]


def pick(
    games: tuple[str, ...], rotate: Rotate, level_number: int, seats: int
) -> tuple[int, int] | None:
    """The rotation's pick a table deals by, ``(first, every)``: the deal numbered ``n``
    at the table deals game ``first + n // every`` (``every`` 0: game ``first`` for every
    deal). By level: the level's game for each deal (R-19.55); by orbit: a game for as
    many deals as the table has seats (R-19.56); by deal (or one game): None, the
    table's own rotation, one game per deal (R-19.50, R-16.2)."""
    if len(dealt(games)) < 2 or rotate == "deal":
        return None
    if rotate == "orbit":
        return (0, max(1, seats))
    return ((max(1, level_number) - 1) % len(dealt(games)), 0)


STUD: Final = frozenset({"stud", "stud8", "razz", "stud5"})
"""The games with a bring-in (as ``bot.tournament.structure.STUD_GAMES``)."""

STRUCTURES: Final = frozenset({"no_limit", "pot_limit", "half_pot", "spread"})
"""Structures a level's words name with the game (a limit level says its limits)."""


LIMITS: Final = frozenset({"no_limit", "pot_limit", "half_pot", "fixed", "spread"})


def game_said(game: str, *, structure: frozenset[str] = LIMITS) -> Msg:
    """A game as an event stores it (``razz:fixed``): its name, with its structure where
    it names one of ``structure`` ("Fixed-limit Hold'em")."""
    variant, _, limit = game.partition(":")
    name = msg(f"game.{variant.strip().casefold()}")
    return msg(f"table.stakes.game.{limit}", game=name) if limit in structure else name


def games_said(games: tuple[str, ...], rotate: Rotate) -> Msg:
    """What an event deals, for its announcement: its game, or its rotation's games
    and when they change (R-19.54)."""
    dealt_games = dealt(games)
    if len(dealt_games) == 1:
        return game_said(dealt_games[0])
    return msg(f"rotation.games.{rotate}", games=joined([game_said(g) for g in dealt_games]))


def level_of_game(level: Number, item: Level, forced: str, game: str) -> Msg:
    """A level as the tables deal it when it deals one game of a rotation (R-19.55):
    that game's forced bets only. A limit schedule (``bring_in``, R-19.50): a stud game
    its ante, bring-in and limits, another game blinds of half the small bet and the
    small bet beside the limits. A blinds schedule: blinds (and the big blind's ante);
    a stud game the limits of the big blind and twice it."""
    variant = game.partition(":")[0]
    name = game_said(game, structure=STRUCTURES)
    stud = variant in STUD
    if forced == "bring_in" and stud:
        return msg(
            "rotation.level.stud",
            level=level,
            game=name,
            ante=Chips(item.ante),
            bring_in=Chips(item.bring_in),
            small=Chips(item.small),
            big=Chips(item.big),
        )
    if forced == "bring_in":
        return msg(
            "rotation.level.limit",
            level=level,
            game=name,
            blind_small=Chips(max(1, item.small // 2)),
            blind_big=Chips(item.small),
            small=Chips(item.small),
            big=Chips(item.big),
        )
    if stud:
        return msg(
            "rotation.level.limits",
            level=level,
            game=name,
            small=Chips(item.big),
            big=Chips(2 * item.big),
        )
    if not item.ante:
        return msg(
            "rotation.level.blinds_no_ante",
            level=level,
            game=name,
            small=Chips(item.small),
            big=Chips(item.big),
        )
    return msg(
        "rotation.level.blinds",
        level=level,
        game=name,
        small=Chips(item.small),
        big=Chips(item.big),
        ante=Chips(item.ante),
    )


__all__ = [
    "HORSE",
    "ROTATE",
    "STUD",
    "Rotate",
    "dealt",
    "game_said",
    "games_said",
    "level_game",
    "level_of_game",
    "pick",
    "rotate_of",
]
