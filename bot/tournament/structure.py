"""A tournament's structure: its blind/ante schedule, its entry options, its settings.

A schedule is a tuple of :class:`Level` and :class:`Break` items. A level's length is in
the schedule's unit (minutes or hands, R-19.20); a break is always in minutes. Blinds
games use the small and big blind and a big-blind ante (one payer, TDA RP-11); stud
games use an ante, a bring-in and the small and big bets (R-19.21). Presets (``turbo``,
``regular``, ``deep``) scale to the starting stack.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from bot.tournament.rotation import Rotate, rotate_of

Unit: TypeAlias = Literal["minutes", "hands"]
Forced: TypeAlias = Literal["blinds", "bring_in"]
Format: TypeAlias = Literal["sit_and_go", "scheduled"]
PRESETS: Final[tuple[str, ...]] = ("turbo", "regular", "deep")
REBUY_WAIT: Final = 60
"""Seconds a busted player has to rebuy by default (R-19.47)."""


@dataclass(frozen=True, slots=True)
class Level:
    """One level. Blinds games: ``small``/``big`` are the blinds and ``ante`` the big
    blind's ante. Stud games: ``ante`` each, ``bring_in``, ``small``/``big`` the bets."""

    small: int
    big: int
    ante: int = 0
    bring_in: int = 0
    length: int = 10

    def __post_init__(self) -> None:
        if not 0 <= self.small <= self.big or self.big <= 0:
            raise ValueError(f"bad blinds {self.small}/{self.big}")
        if self.ante < 0 or self.bring_in < 0 or self.length <= 0:
            raise ValueError("negative ante, bring-in or length")
        if self.bring_in > self.small and self.bring_in:
            raise ValueError("bring-in above the small bet")


@dataclass(frozen=True, slots=True)
class Break:
    """A break between levels: every table pauses between hands (minutes)."""

    minutes: int

    def __post_init__(self) -> None:
        if self.minutes <= 0:
            raise ValueError("a break lasts at least a minute")


Item: TypeAlias = Level | Break


@dataclass(frozen=True, slots=True)
class Schedule:
    """Levels and breaks in order; past the last level the last one stays."""

    items: tuple[Item, ...]
    unit: Unit = "minutes"
    forced: Forced = "blinds"

    def __post_init__(self) -> None:
        if not any(isinstance(i, Level) for i in self.items):
            raise ValueError("a schedule needs a level")
        if isinstance(self.items[0], Break):
            raise ValueError("a schedule starts with a level")

    def item(self, index: int) -> Item:
        return self.items[min(index, len(self.items) - 1)]

    def level(self, index: int) -> Level:
        """The level in force at item ``index`` (during a break: the one before it)."""
        for i in range(min(index, len(self.items) - 1), -1, -1):
            item = self.items[i]
            if isinstance(item, Level):
                return item
        raise AssertionError("a schedule starts with a level")

    def level_number(self, index: int) -> int:
        """The level's number as players count them (1-based; breaks not counted)."""
        index = min(index, len(self.items) - 1)
        return sum(1 for i in self.items[: index + 1] if isinstance(i, Level))

    def to_payload(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "forced": self.forced,
            "items": [
                {"break": i.minutes}
                if isinstance(i, Break)
                else [i.small, i.big, i.ante, i.bring_in, i.length]
                for i in self.items
            ],
        }

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Schedule:
        items: list[Item] = []
        for raw in data["items"]:
            if isinstance(raw, dict):
                items.append(Break(int(raw["break"])))
            else:
                small, big, ante, bring_in, length = (int(x) for x in raw)
                items.append(Level(small, big, ante, bring_in, length))
        unit: Unit = "hands" if data["unit"] == "hands" else "minutes"
        forced: Forced = "bring_in" if data["forced"] == "bring_in" else "blinds"
        return cls(tuple(items), unit, forced)


# Big blinds in units of the first big blind; the progression card rooms use.
_STEPS: Final = (
    1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150,
    200, 250, 300, 400, 500, 600, 800, 1000,
)  # fmt: skip
# name -> (starting stack / first big blind, minutes, hands, break every N levels)
_PRESET: Final[dict[str, tuple[int, int, int, int]]] = {
    "turbo": (50, 5, 6, 0),
    "regular": (100, 15, 10, 6),
    "deep": (200, 20, 12, 4),
}
_ANTE_FROM: Final = 4
"""Presets add the big-blind ante from the fourth level (TDA RP-11's single payer)."""


def _nice(x: float) -> int:
    """Round to two significant figures (chip amounts people read)."""
    n = max(1, round(x))
    digits = len(str(n))
    if digits <= 2:
        return n
    scale: int = 10 ** (digits - 2)
    return max(1, round(n / scale) * scale)


def preset(name: str, stack: int, *, unit: Unit = "minutes", forced: Forced = "blinds") -> Schedule:
    """The ``turbo``, ``regular`` or ``deep`` schedule for a starting stack."""
    if name not in _PRESET:
        raise ValueError(f"unknown preset {name!r}")
    depth, minutes, hands, break_every = _PRESET[name]
    first = max(2, stack // depth)
    length = minutes if unit == "minutes" else hands
    items: list[Item] = []
    for n, step in enumerate(_STEPS, start=1):
        big = _nice(first * step)
        if forced == "blinds":
            small = max(1, big // 2)
            ante = big if n >= _ANTE_FROM else 0
            items.append(Level(small, big, ante, 0, length))
        else:
            # Stud: limits small/big bet, ante a fifth and bring-in a third of the small bet.
            ante = max(1, _nice(big / 5))
            bring_in = max(ante, _nice(big / 3))
            items.append(Level(big, big * 2, ante, min(bring_in, big), length))
        if break_every and n % break_every == 0 and unit == "minutes":
            items.append(Break(5 if name != "deep" else 10))
    return Schedule(tuple(items), unit, forced)


@dataclass(frozen=True, slots=True)
class Entries:
    """How players get in and back in (all off by default).

    ``late_until``: registration stays open through this level number (0: it closes at
    the start). ``reentries``: extra entries a player may buy after busting, while late
    registration is open. ``rebuys``: stacks a player at or below the starting stack may
    buy through level ``rebuy_until``; ``addon``: chips anyone still in may buy once when
    that period ends, for ``addon_price``. ``bounty``: the part of each buy-in paid to
    whoever knocks that entry out.
    """

    late_until: int = 0
    reentries: int = 0
    rebuys: int = 0
    rebuy_until: int = 0
    addon: int = 0
    addon_price: int = 0
    bounty: int = 0
    rebuy_wait: int = REBUY_WAIT

    def __post_init__(self) -> None:
        if min(self.late_until, self.reentries, self.rebuys, self.rebuy_until) < 0:
            raise ValueError("negative entry option")
        if min(self.addon, self.addon_price, self.bounty) < 0:
            raise ValueError("negative entry option")
        if self.rebuy_wait <= 0:
            raise ValueError("a busted player's rebuy wait lasts at least a second")


STUD_GAMES: Final = frozenset({"stud", "stud8", "razz", "stud5"})
"""The engine's games with a bring-in, by code (the director, pure, does not import the
variants; tests/test_tourney_mixed_words.py holds this to ``bot.poker.variants``)."""


def is_mixed(game: tuple[str, ...]) -> bool:
    """The event deals stud games and blinds games in rotation (HORSE): its levels are
    written as a limit game's, the stud games' ante and bring-in and the other games'
    blinds beside the limits (R-19.50). Games as a rotation stores them (``variant`` or
    ``variant:limit``, ``horse`` for the five HORSE games)."""
    stud: set[bool] = set()
    for name in game:
        code = name.split(":")[0].strip().casefold()
        if re.sub(r"[\s_\-'’./]+", "", code) == "horse":
            return True
        stud.add(code in STUD_GAMES)
    return stud == {True, False}


@dataclass(frozen=True, slots=True)
class Config:
    """Everything a host chooses when creating a tournament."""

    game: tuple[str, ...] = ("holdem",)
    format: Format = "scheduled"
    buy_in: int = 100
    fee: int = 0
    stack: int = 10_000
    schedule: Schedule = field(default_factory=lambda: preset("regular", 10_000))
    seats: int = 9
    min_players: int = 2
    max_players: int = 0
    entries: Entries = field(default_factory=Entries)
    payouts: tuple[int, ...] = ()
    """A custom payout table in basis points (sums to 10,000); empty: the default."""
    pay_jumps: tuple[int, ...] = ()
    """Players left at which hand-for-hand is played (besides the bubble)."""
    chip_races: tuple[tuple[int, int, int], ...] = ()
    """(level number, chip removed, new smallest chip): a color-up at that level."""
    rotate: Rotate = "level"
    """When a rotation's tables change game: each level, orbit or deal (R-19.54)."""

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 10:
            raise ValueError("seats 2 to 10")
        if self.stack <= 0 or self.buy_in < 0 or self.fee < 0:
            raise ValueError("bad stack or buy-in")
        if self.entries.bounty > self.buy_in:
            raise ValueError("bounty above the buy-in")
        if self.payouts and sum(self.payouts) != 10_000:
            raise ValueError("a payout table sums to 10,000 basis points")
        if self.min_players < 2 or (self.max_players and self.max_players < self.min_players):
            raise ValueError("bad player limits")
        if rotate_of(self.rotate) is None:
            raise ValueError("rotate by level, orbit or deal")

    @property
    def mixed(self) -> bool:
        """A rotation of stud and blinds games (:func:`is_mixed`)."""
        return is_mixed(self.game)

    @property
    def prize_part(self) -> int:
        """What one buy-in puts into the prize pool (the bounty and fee apart)."""
        return self.buy_in - self.entries.bounty

    def to_payload(self) -> dict[str, Any]:
        e = self.entries
        # The wait is written only when not the default, so the payload of a
        # configuration without it is the one stored before it existed.
        wait = {} if e.rebuy_wait == REBUY_WAIT else {"rebuy_wait": e.rebuy_wait}
        out: dict[str, Any] = {
            "game": list(self.game),
            "format": self.format,
            "buy_in": self.buy_in,
            "fee": self.fee,
            "stack": self.stack,
            "schedule": self.schedule.to_payload(),
            "seats": self.seats,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "entries": [
                e.late_until,
                e.reentries,
                e.rebuys,
                e.rebuy_until,
                e.addon,
                e.addon_price,
                e.bounty,
            ],
            **wait,
            "payouts": list(self.payouts),
            "pay_jumps": list(self.pay_jumps),
            "chip_races": [list(r) for r in self.chip_races],
        }
        if self.rotate != "deal":
            # One game per deal is what a record without the choice means:
            # such a record is written as before, byte for byte.
            out["rotate"] = self.rotate
        return out

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Config:
        late, reentries, rebuys, rebuy_until, addon, addon_price, bounty = (
            int(x) for x in data["entries"]
        )
        races = tuple((int(a), int(b), int(c)) for a, b, c in data["chip_races"])
        return cls(
            game=tuple(str(g) for g in data["game"]),
            format="sit_and_go" if data["format"] == "sit_and_go" else "scheduled",
            buy_in=int(data["buy_in"]),
            fee=int(data["fee"]),
            stack=int(data["stack"]),
            schedule=Schedule.from_payload(data["schedule"]),
            seats=int(data["seats"]),
            min_players=int(data["min_players"]),
            max_players=int(data["max_players"]),
            entries=Entries(
                late,
                reentries,
                rebuys,
                rebuy_until,
                addon,
                addon_price,
                bounty,
                int(data.get("rebuy_wait", REBUY_WAIT)),
            ),
            payouts=tuple(int(p) for p in data["payouts"]),
            pay_jumps=tuple(int(p) for p in data["pay_jumps"]),
            chip_races=races,
            # An event recorded before the choice existed dealt one game per deal.
            rotate=rotate_of(str(data.get("rotate", "deal"))) or "deal",
        )


__all__ = [
    "PRESETS",
    "STUD_GAMES",
    "Break",
    "Config",
    "Entries",
    "Forced",
    "Format",
    "Item",
    "Level",
    "Schedule",
    "Unit",
    "is_mixed",
    "preset",
]
