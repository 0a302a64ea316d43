"""The stakes as data (:class:`StakesView`) and as a message: what a table deals, for
the view, the pictures, the notices and the settings' own refusals and changes.

It reads the settings through :class:`StakesSource` (what
:class:`~bot.table.settings.TableSettings` has), so that the settings can say their
stakes without this module importing them back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.poker.messages import Chips, Msg, joined, msg
from bot.poker.variants import get_variant


class StakesSource(Protocol):
    """The settings' stakes, as :class:`~bot.table.settings.TableSettings` derives them."""

    @property
    def small_blind(self) -> int: ...

    @property
    def big_blind(self) -> int: ...

    @property
    def min_bet(self) -> int: ...

    @property
    def big_bet_size(self) -> int: ...

    @property
    def bring_in_amount(self) -> int: ...

    def ante_for(self, variant: str) -> int: ...

    def value(self, name: str) -> Any: ...


@dataclass(frozen=True, slots=True)
class StakesView:
    """The stakes as data: the presenter writes the line in its reader's language (the
    picture maps it to its own ``Stakes``)."""

    variant: str
    """The game's code (its name is the catalogue's ``game.<code>``)."""
    structure: str | None
    """The betting structure's code (``no_limit``...); None for a game without betting
    rounds (Guts)."""
    declare: bool = False
    """A hi-lo declare game (R-13.1)."""
    blinds: tuple[int, int] | None = None
    bets: tuple[int, int] | None = None
    """Fixed and spread limit: the small and big bet."""
    bring_in: int | None = None
    ante: int | None = None
    ante_mode: str = "each"
    """Who pays the ante (R-3.1): ``each`` player, the ``button`` or the ``big_blind``
    for the table (the big-blind ante, R-19.21)."""
    stake: int | None = None
    """Guts: the stake."""
    max_pot: int | None = None
    """Guts: the maximum pot (R-15.3)."""


def stakes_of(settings: StakesSource, variant: str, limit: str, declare: bool) -> StakesView:
    """A table's stakes for one game and structure, as data."""
    info = get_variant(variant)
    if not any(s.betting for s in info.streets):
        stake = int(settings.value("guts_stake") or 0) or None
        max_pot = int(settings.value("guts_max_pot") or 0) or None
        return StakesView(variant, None, stake=stake, max_pot=max_pot)
    return StakesView(
        variant,
        limit,
        declare=declare,
        blinds=(settings.small_blind, settings.big_blind)
        if info.forced == "blinds" and settings.big_blind
        else None,
        bets=(settings.min_bet, settings.big_bet_size) if limit in ("fixed", "spread") else None,
        bring_in=settings.bring_in_amount if info.forced == "bring_in" else None,
        ante=settings.ante_for(variant) or None,
        ante_mode=str(settings.value("ante_mode")),
    )


def stakes_said(stakes: StakesView) -> Msg:
    """The stakes as a message ("No-limit Hold'em, blinds 1/2, ante 1" in English), for
    the presenter to say in its reader's language."""
    return joined(stakes_parts(stakes))


def stakes_parts(stakes: StakesView) -> list[Msg]:
    """The stakes' parts, the game in its structure first ("No-limit Hold'em", "blinds
    1/2", "ante 1"): a presenter that names the game apart (a title) takes the first."""
    game: Msg = get_variant(stakes.variant).title
    if stakes.structure is None:
        parts = [game]
        if stakes.stake:
            parts.append(msg("table.stakes.stake", amount=Chips(stakes.stake)))
        return parts
    if stakes.declare:
        game = msg("table.stakes.declare", game=game)
    parts = [msg("table.stakes.game." + stakes.structure, game=game)]
    if stakes.blinds is not None:
        small, big = stakes.blinds
        parts.append(msg("table.stakes.blinds", small=Chips(small), big=Chips(big)))
    if stakes.bets is not None:
        small, big = stakes.bets
        parts.append(msg("table.stakes.bets", small=Chips(small), big=Chips(big)))
    if stakes.bring_in is not None:
        parts.append(msg("table.stakes.bring_in", amount=Chips(stakes.bring_in)))
    if stakes.ante:
        # One payer for the table is said as the level says it (R-19.93): "big blind
        # ante 300", not an ante each player pays.
        key = {"big_blind": "deal.stakes.big_blind_ante", "button": "deal.stakes.button_ante"}
        parts.append(msg(key.get(stakes.ante_mode, "table.stakes.ante"), amount=Chips(stakes.ante)))
    return parts


__all__ = ["StakesSource", "StakesView", "stakes_of", "stakes_parts", "stakes_said"]
