"""Whether a tournament sells rebuys or the add-on now (R-19.38), and the key that
makes one click of a player's button count once (R-19.91).

The director decides every purchase (:func:`bot.tournament.director.rebuy`); this only
says when a platform shows the buttons, so a button offered is one the director may
grant (a player's own situation, his stack or his hand in progress, is still his
table's to say when he clicks).
"""

from __future__ import annotations

from bot.tournament.director import State
from bot.tourney_run.entrants import live_entry


def _level(state: State) -> int:
    return state.config.schedule.level_number(state.level)


def _in_money(state: State) -> bool:
    return any(f.prize for f in state.finishes)


def rebuys_open(state: State) -> bool:
    """Rebuys are sold now (through level ``rebuy_until``, until the first prize)."""
    e = state.config.entries
    return (
        state.status == "running"
        and e.rebuys > 0
        and _level(state) <= e.rebuy_until
        and not _in_money(state)
    )


def addon_open(state: State) -> bool:
    """The add-on is sold now (the last rebuy level and the next, until the first prize)."""
    e = state.config.entries
    level = _level(state)
    return (
        state.status == "running"
        and e.addon > 0
        and e.rebuy_until <= level <= e.rebuy_until + 1
        and not _in_money(state)
    )


def reentry_open(state: State, player: str) -> bool:
    """``player`` may re-enter now (R-19.38): late registration open, no entry of his
    still in, a re-entry left."""
    mine = [e for e in state.entries if e.player == player]
    return (
        state.status == "running"
        and state.registration_open
        and bool(mine)
        and live_entry(state, player) is None
        and len(mine) <= state.config.entries.reentries
    )


def click_key(state: State, player: str, *, addon: bool) -> str:
    """The key of a button click buying for ``player``: the same for every click
    until one is applied (a double click buys once), a new one for his next rebuy."""
    entry = live_entry(state, player) or player
    if addon:
        return f"button:addon:{entry}"
    return f"button:{entry}:{state.rebuys.get(entry, 0)}"


__all__ = ["addon_open", "click_key", "rebuys_open", "reentry_open"]
