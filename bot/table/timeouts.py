"""What the clock does for a player whose time ran out, in every phase of a hand.

The rules are R-18.1 and R-18.2 (docs/RULES.md): check if free, else fold; bring in
for the bring-in (a forced bet, R-3.5); stand pat in a draw; the table's declaration
default in a declaration in turn (R-13.2, R-13.3); out in a Guts call (R-15.2); at a
showdown where players are asked (manual showdown, declared hands R-9.3) show a hand
that could still win or tie a pot, muck only one already beaten (R-9.2).

:func:`timeout_actions` gives that action first and then every other action the clock
may take for him, so a caller can try them in order: a clock that finds none the engine
accepts must stop the table, never fire again at the same moment.
"""

from __future__ import annotations

from bot.poker.actions import Action, BringIn, Check, DeclareTimeout, Draw, Fold, Muck, Show
from bot.poker.hand import Hand


def timeout_actions(hand: Hand, position: int) -> tuple[Action, ...]:
    """The actions the clock may take for the player to act at ``position``, best first.

    None of them puts chips in beyond a forced bet (the bring-in)."""
    actor = hand.actor(position)
    if actor is None:
        return ()
    allowed = actor.legal.actions
    out: list[Action] = []
    if "draw" in allowed:
        out.append(Draw(position, ()))  # stands pat
    if "show" in allowed or "muck" in allowed:
        # Winning hands are never lost by the clock.
        beaten = "muck" in allowed and not hand.could_win(position)
        if beaten:
            out.append(Muck(position))
        if "show" in allowed:
            out.append(Show(position))  # no statement: the cards speak
        if "muck" in allowed and not beaten:
            out.append(Muck(position))
    if "bring_in" in allowed:
        out.append(BringIn(position))  # the forced bet, never a completion
    if "declare" in allowed or "guts" in allowed:
        out.append(DeclareTimeout(position))  # the declare default / out
    if "check" in allowed:
        out.append(Check(position))
    if "fold" in allowed:
        out.append(Fold(position))
    return tuple(out)
