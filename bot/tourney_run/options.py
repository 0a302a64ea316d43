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
from bot.table.games import split_game
from bot.tournament.structure import PRESETS, Config, Entries, Forced, Level, Schedule, preset

STACK: Final = (100, 1_000_000)
LEVEL: Final = {"minutes": 120, "hands": 100}
PLAYERS: Final = (2, 500)
START_IN: Final = 7 * 24 * 60
"""A scheduled start at most a week ahead (minutes)."""


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
    seats: int = 9
    start_in: int = 0
    """Minutes from now a scheduled tournament starts by itself (0: by its host)."""
    buy_in: int = 100
    bounty: int = 0
    late_until: int = 0
    payouts: str = ""
    """Percentages of the prize pool by place, ``50,30,20``; empty: the default table."""


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
    variant, _ = split_game(o.game)
    allowed = games()
    if variant not in allowed:
        return msg(
            "tourney.refuse.game",
            game=Name(o.game),
            games=Name(", ".join(allowed)),
        )
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
    shares: tuple[int, ...] = ()
    if o.payouts.strip():
        table = payout_table(o.payouts)
        if table is None:
            return msg("tourney.refuse.payouts")
        shares = table
    forced: Forced = "bring_in" if VARIANTS[variant].forced == "bring_in" else "blinds"
    schedule = preset(o.structure, o.stack, unit=o.unit, forced=forced)
    if o.length:
        schedule = Schedule(
            tuple(
                replace(i, length=o.length) if isinstance(i, Level) else i for i in schedule.items
            ),
            schedule.unit,
            schedule.forced,
        )
    players = o.players or (o.seats if o.format == "sit_and_go" else 0)
    return Config(
        game=(variant,),
        format=o.format,
        buy_in=o.buy_in,
        stack=o.stack,
        schedule=schedule,
        seats=o.seats,
        max_players=players,
        entries=Entries(late_until=o.late_until, bounty=o.bounty),
        payouts=shares,
    )


__all__ = ["Options", "config", "games", "payout_table"]
