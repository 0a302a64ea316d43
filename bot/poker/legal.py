"""What the player to act may do, with exact ranges (R-6.6), and who may act now.

``Legal`` is what the engine exposes for the player to act and what every refusal carries,
so a presenter can always answer "what is allowed" precisely. It is an immutable named
tuple rather than a dataclass because the engine builds one per decision on its hot path.
:class:`Actor` (from :meth:`bot.poker.hand.Hand.actors`) names each player who may act
now, including the several who act at once in sealed declarations and Guts calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from bot.poker.messages import Chips, Listing, Msg, Number, msg

Phase = Literal["betting", "draw", "declare", "guts", "run_twice", "showdown", "over"]
"""What the hand is doing: a betting round, a draw, the hi-lo declaration (§13), the Guts
in/out call (R-15.2), the run-it-twice agreement (R-20.1), the showdown, or nothing (the
hand is over)."""

ActionName = Literal[
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "all_in",
    "bring_in",
    "complete",
    "draw",
    "declare",
    "guts",
    "run_twice",
    "show",
    "muck",
]
"""The name of an action a player may take (the words of :attr:`Legal.actions`)."""

Turn = Literal["in_turn", "sealed", "waiting"]
"""How an :class:`Actor` acts now:

- ``in_turn``: it is his turn (one player at a time; his own clock runs);
- ``sealed``: several players act at once and each choice stays hidden until all have
  acted (chip-fist declarations, R-13.2; simultaneous Guts calls, R-15.2; the
  run-it-twice answers, R-20.1); one clock;
- ``waiting``: not asked yet, but he may act now if he likes (R-8.4: a player only in
  lower pots may wait to show until the pots above are settled, or show at once).
"""


class Legal(NamedTuple):
    player: int
    actions: frozenset[ActionName]
    """What the player may do (see :data:`ActionName`)."""
    to_call: int
    """Chips the player must add to call (already capped at the stack)."""
    current_bet: int
    bet_this_round: int
    stack: int
    pot: int
    """Everything in the middle, bets of this round included."""
    min_to: int | None
    """The smallest legal bet/raise total this round, or None if no bet/raise is allowed."""
    max_to: int | None
    unit: int
    opening: bool
    """True when nobody has bet this round: the word is "bet", not "raise"."""
    draw_max: int = 0

    @property
    def all_in_to(self) -> int:
        return self.bet_this_round + self.stack

    def pot_raise_to(self, fraction: Literal["pot", "half_pot"] = "pot") -> int | None:
        """The total of a pot-sized (or half-pot) bet or raise, R-5.3/R-5.4 arithmetic: call,
        then raise by the pot after the call (or half of it); kept inside the legal range
        (so in pot limit "pot" is the maximum). None if no bet or raise is allowed."""
        if self.min_to is None or self.max_to is None:
            return None
        after_call = self.pot + self.to_call
        size = after_call if fraction == "pot" else after_call // 2
        return max(self.min_to, min(self.max_to, self.current_bet + size))

    def _parts(self) -> list[Msg]:
        parts: list[Msg] = []
        if "check" in self.actions:
            parts.append(msg("legal.check"))
        if "call" in self.actions:
            key = "legal.call_all_in" if self.to_call == self.stack else "legal.call"
            parts.append(msg(key, amount=Chips(self.to_call)))
        if "bring_in" in self.actions:
            parts.append(msg("legal.bring_in", amount=Chips(self.current_bet + self.to_call)))
        if self.min_to is not None and self.max_to is not None:
            key = "legal.bet" if self.opening else "legal.raise_to"
            if "complete" in self.actions:
                # facing the bring-in (or making it) the first full bet is a
                # completion, the word the table uses for it too.
                key = "legal.complete_to"
            if self.min_to == self.max_to:
                amount = msg("legal.amount", amount=Chips(self.min_to))
            else:
                amount = msg("legal.range", low=Chips(self.min_to), high=Chips(self.max_to))
            option = msg(key, range=amount)
            if self.max_to == self.all_in_to:
                option = msg("legal.all_in_note", option=option)
            parts.append(option)
        if "draw" in self.actions:
            parts.append(msg("legal.discard", most=Number(self.draw_max)))
        if "run_twice" in self.actions:
            parts.append(msg("home.legal.run_twice"))
        for name in ("declare", "guts", "show", "muck", "fold"):
            if name in self.actions:
                parts.append(msg(f"legal.{name}"))
        return parts

    def options(self) -> Msg:
        """What the player may do, as a message: a list of options such as ``call 20,
        raise to 40–200, or fold`` (the words are the presenter's)."""
        return msg("legal.options", options=Listing(tuple(self._parts()), "or"))


@dataclass(frozen=True, slots=True)
class Actor:
    """A player who may act now, how (:data:`Turn`), and what he may do."""

    position: int
    turn: Turn
    legal: Legal
