"""Hand-for-hand (R-19.36) as a small state machine.

Off, or on with a round: while hands begun before it started are still being played it
gathers (no table deals); then every live table deals one hand, and the next round
begins only when all of them have finished it. Entries out in one round are placed
together, at the round's end, whatever table they played at.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.tournament.places import Bust


@dataclass(frozen=True, slots=True)
class HandForHand:
    on: bool = False
    round: int = 0
    dealt: frozenset[int] = frozenset()
    """Tables that have dealt this round's hand."""
    done: frozenset[int] = frozenset()
    """Tables whose hand of this round is over."""
    busts: tuple[Bust, ...] = ()

    def start(self) -> HandForHand:
        return HandForHand(on=True, round=self.round + 1)

    def stop(self) -> HandForHand:
        return HandForHand(on=False, round=self.round)

    def may_deal(self, table: int, playing: Iterable[int]) -> bool:
        """Whether ``table`` may deal now: always when off; when on, once per round,
        and only after every hand begun outside the round is over."""
        if not self.on:
            return True
        if table in self.dealt:
            return False
        return all(t in self.dealt for t in playing)

    def dealt_at(self, table: int) -> HandForHand:
        return replace(self, dealt=self.dealt | {table}) if self.on else self

    def finished_at(self, table: int, busts: Iterable[Bust]) -> HandForHand:
        if not self.on or table not in self.dealt:
            return self
        return replace(self, done=self.done | {table}, busts=(*self.busts, *busts))

    def round_over(self, live: Iterable[int], dealable: Iterable[int]) -> bool:
        """Every live table that could deal has dealt, and every hand dealt is over.
        ``dealable``: the live tables able to deal (two players or more, not waiting)."""
        if not self.on or not self.dealt:
            return False
        live_set = set(live)
        return all(t in self.dealt for t in dealable if t in live_set) and self.dealt <= (
            self.done | (self.dealt - live_set)
        )

    def next_round(self) -> HandForHand:
        return HandForHand(on=True, round=self.round + 1)


__all__ = ["HandForHand"]
