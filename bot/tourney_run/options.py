"""A host's choices for a new tournament, as a platform's command gives them, checked
and turned into the director's :class:`~bot.tournament.structure.Config` (R-19.62).

Every bad choice is refused with a message of the ``tourney`` catalogue saying what is
allowed; nothing is created then.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from bot.poker.messages import Chips, Count, Msg, Name, Number, Term, msg
from bot.poker.variants import VARIANTS
from bot.table.games import split_game, split_rotation
from bot.tournament.rotation import ROTATE, rotate_of
from bot.tournament.structure import (
    PRESETS,
    REBUY_WAIT,
    Config,
    Entries,
    Forced,
    Level,
    Schedule,
    preset,
)
from bot.tourney_run.games import most_players, refusal

STACK: Final = (100, 1_000_000)
LEVEL: Final = {"minutes": 120, "hands": 100}
PLAYERS: Final = (2, 500)
FULL_TABLE: Final = 9
ENTRIES: Final = 10
"""At most this many re-entries, and this many rebuys, per player."""
START_IN: Final = 7 * 24 * 60
"""A scheduled start at most a week ahead (minutes)."""
WAIT: Final = (10, 600)
"""A busted player's wait to rebuy, in seconds (R-19.102)."""


def games() -> tuple[str, ...]:
    """The games a tournament deals: those forced by blinds or by a bring-in (the
    schedule's levels say one or the other)."""
    return tuple(code for code, v in VARIANTS.items() if v.forced in ("blinds", "bring_in"))


@dataclass(frozen=True, slots=True)
class Options:
    game: str = "holdem"
    stack: int = 1500
    structure: str = "regular"
    unit: Literal["minutes", "hands"] = "minutes"
    length: int = 0
    """Minutes or hands a level lasts; 0: the preset's."""
    format: Literal["sit_and_go", "scheduled"] = "sit_and_go"
    players: int = 0
    """A sit-and-go's size (0: one full table); a scheduled one's cap (0: none)."""
    seats: int = 0
    """Players per table; 0: a full table of the game (nine; stud eight, draw six)."""
    start_in: int = 0
    """Minutes from now a scheduled tournament starts by itself (0: by its host)."""
    buy_in: int = 100
    bounty: int = 0
    late_until: int = 0
    payouts: str = ""
    """Percentages of the prize pool by place, ``50,30,20``; empty: the default table."""
    reentries: int = 0
    """Re-entries a player may buy after busting, while late registration is open."""
    rebuys: int = 0
    rebuy_until: int = 0
    """Rebuys are sold through this level; the add-on at its end."""
    addon: int = 0
    """The add-on's chips (0: none)."""
    addon_price: int = 0
    """What the add-on costs (0: the buy-in)."""
    rebuy_wait: int = REBUY_WAIT
    """Seconds a busted player may wait to rebuy (R-19.47, R-19.102)."""
    rotate: str = "level"
    """When a rotation's tables change game: ``level`` (WSOP), ``orbit`` or ``deal``
    (R-19.54)."""


def payout_table(text: str) -> tuple[int, ...] | None:
    """``"50, 30, 20"`` -> basis points ``(5000, 3000, 2000)``; None if it is not
    whole percentages, highest first, adding up to 100."""
    parts = [p.strip().rstrip("%") for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        return None
    shares = [int(p) for p in parts]
    if sum(shares) != 100 or min(shares) <= 0 or shares != sorted(shares, reverse=True):
        return None
    return tuple(s * 100 for s in shares)


def config(o: Options) -> Config | Msg:
    """The director's config, or the refusal saying what is allowed."""
    dealt = split_rotation(o.game)
    allowed = games()
    if not dealt or any(split_game(g)[0] not in allowed for g in dealt):
        return msg(
            "tourney.refuse.game",
            game=Name(o.game),
            games=Name(", ".join((*allowed, "horse"))),
        )
    rotate = rotate_of(o.rotate)
    if rotate is None:
        return msg("rotation.refuse.rotate", choices=Name(", ".join(ROTATE)))
    if not STACK[0] <= o.stack <= STACK[1]:
        return msg("tourney.refuse.stack", low=Chips(STACK[0]), high=Chips(STACK[1]))
    if o.structure not in PRESETS:
        return msg("tourney.refuse.structure", presets=Name(", ".join(PRESETS)))
    high = LEVEL[o.unit]
    if not 0 <= o.length <= high:
        return msg("tourney.refuse.level", count=Count(high), unit=Term(f"tourney.unit.{o.unit}"))
    if o.players and not PLAYERS[0] <= o.players <= PLAYERS[1]:
        return msg("tourney.refuse.players", low=Number(PLAYERS[0]), high=Number(PLAYERS[1]))
    if o.start_in and (o.format != "scheduled" or not 0 < o.start_in <= START_IN):
        return msg("tourney.refuse.start_in", count=Count(START_IN))
    if o.bounty > o.buy_in or o.bounty < 0 or o.buy_in < 0:
        return msg("tourney.refuse.bounty", buy_in=Chips(o.buy_in))
    buying = entries_refusal(o)
    if buying is not None:
        return buying
    shares: tuple[int, ...] = ()
    if o.payouts.strip():
        table = payout_table(o.payouts)
        if table is None:
            return msg("tourney.refuse.payouts")
        shares = table
    # A stud deal or a mixed rotation's levels are written in the limit form.
    stud = any(VARIANTS[split_game(g)[0]].forced == "bring_in" for g in dealt)
    forced: Forced = "bring_in" if stud else "blinds"
    schedule = preset(o.structure, o.stack, unit=o.unit, forced=forced)
    if o.length:
        schedule = Schedule(
            tuple(
                replace(i, length=o.length) if isinstance(i, Level) else i for i in schedule.items
            ),
            schedule.unit,
            schedule.forced,
        )
    seats = o.seats or min(FULL_TABLE, most_players(Config(game=dealt)))
    players = o.players or (seats if o.format == "sit_and_go" else 0)
    made = Config(
        game=dealt,
        format=o.format,
        buy_in=o.buy_in,
        stack=o.stack,
        schedule=schedule,
        seats=seats,
        max_players=players,
        entries=Entries(
            late_until=o.late_until,
            reentries=o.reentries,
            rebuys=o.rebuys,
            rebuy_until=o.rebuy_until,
            addon=o.addon,
            addon_price=(o.addon_price or o.buy_in) if o.addon else 0,
            bounty=o.bounty,
            rebuy_wait=o.rebuy_wait,
        ),
        payouts=shares,
        rotate=rotate,
    )
    why = refusal(made)  # more seats than a game of the event deals to
    return made if why is None else why


def entries_refusal(o: Options) -> Msg | None:
    """R-19.92: re-entries need late registration; rebuys and the add-on need the
    level they are sold through; each within its bounds."""
    if not 0 <= o.reentries <= ENTRIES or not 0 <= o.rebuys <= ENTRIES:
        return msg("entries.refuse.count", count=Number(ENTRIES))
    if o.reentries and not o.late_until:
        return msg("entries.refuse.reentry_late")
    if (o.rebuys or o.addon) and not o.rebuy_until:
        return msg("entries.refuse.rebuy_until")
    if o.rebuy_until and not (o.rebuys or o.addon):
        return msg("entries.refuse.rebuy_until")
    if o.addon and not STACK[0] <= o.addon <= STACK[1]:
        return msg("entries.refuse.addon", low=Chips(STACK[0]), high=Chips(STACK[1]))
    if min(o.addon, o.addon_price, o.rebuy_until) < 0:
        return msg("entries.refuse.rebuy_until")
    if not WAIT[0] <= o.rebuy_wait <= WAIT[1]:
        return msg("entries.refuse.rebuy_wait", low=Number(WAIT[0]), high=Number(WAIT[1]))
    return None


__all__ = ["WAIT", "Options", "config", "entries_refusal", "games", "payout_table"]
