"""What a player may type at a table, said when he types something else (R-20.85).

A line the parser cannot read is answered with the words that would do something here:
at his turn, his legal actions (:class:`~bot.poker.legal.Legal`); otherwise the words of
the game the table deals (no draw words at hold'em, no Guts words at a stud game). Only
where no game is known does the answer list every game's words
(:data:`bot.table.text_actions.ACCEPTED`).
"""

from __future__ import annotations

from bot.poker.legal import Legal
from bot.poker.messages import Msg, msg
from bot.poker.variants import Variant
from bot.table.text_actions import WordKind, accepted

_NAMED: tuple[WordKind, ...] = (
    "all_in",
    "bring_in",
    "complete",
    "draw",
    "declare",
    "guts",
    "show",
    "muck",
)
"""The actions whose typed words are one group of the same name."""


def game_words(variant: Variant, *more: Variant, declare: bool, stated: bool) -> Msg:
    """The words of ``variant`` (and of ``more``, the other games of a rotation) as the
    table deals it: ``declare`` when its hi-lo hands are declared (R-13.1), ``stated``
    when shown hands are stated (R-9.3)."""
    games = (variant, *more)
    kinds: list[WordKind] = ["fold"]
    if any(not _bets(g) for g in games):
        kinds.append("guts")  # no betting rounds, an in/out call
    if any(_bets(g) for g in games):
        kinds += ["check", "call", "bet", "raise", "amounts", "all_in"]
    if any(g.forced == "bring_in" for g in games):
        kinds += ["bring_in", "complete"]
    if any(s.draw for g in games for s in g.streets):
        kinds.append("draw")
    if declare and any(g.hi_lo for g in games):
        kinds.append("declare")
    kinds += ["show", "show_stated", "muck"] if stated else ["show", "muck"]
    return accepted(kinds)


def _bets(variant: Variant) -> bool:
    return any(s.betting for s in variant.streets)


def turn_words(legal: Legal, *, stated: bool) -> Msg:
    """What the player whose options are ``legal`` may type now."""
    acts = legal.actions
    kinds: list[WordKind] = [k for k in ("check", "call", "fold") if k in acts]
    if legal.min_to is not None:
        kinds += ["bet" if legal.opening else "raise", "amounts"]
    kinds += [k for k in _NAMED if k in acts]
    if stated and "show" in acts:
        kinds.append("show_stated")
    more = (msg("home.legal.run_twice"),) if "run_twice" in acts else ()
    return accepted(kinds, *more)
