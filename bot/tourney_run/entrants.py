"""Who sits at a tournament's table for an entry, and which entry a seat is.

A player's entries are ``player``, ``player#2``, ... (a re-entry, R-19.38), but at the
table he always sits under his own user id (R-19.90): his buttons, slash commands and
DMs work for every entry of his. A player has at most one live entry at a time, so the
seat of a user at a table names one entry: his live entry sitting there, else the last
of his entries that busted (its empty seat stood up after the hand). The tournament's
records (journal, places, payouts) keep the entry ids.
"""

from __future__ import annotations

from bot.tournament.director import State


def player_of(state: State, entry: str) -> str:
    """The user id ``entry`` sits under (the entry id itself when it is unknown)."""
    found = state.entry(entry)
    return entry if found is None else found.player


def entry_at(state: State, user: str, table: int) -> str:
    """The entry of ``user``'s seat at ``table``."""
    mine = [e.entry for e in state.entries if e.player == user]
    for entry in mine:
        where = state.seats.get(entry)
        if where is not None and where[0] == table:
            return entry
    dead = [e for e in mine if e not in state.seats]
    return dead[-1] if dead else user


def live_entry(state: State, user: str) -> str | None:
    """``user``'s entry still in the tournament, if any."""
    return next(
        (e.entry for e in state.entries if e.player == user and e.entry in state.seats), None
    )


__all__ = ["entry_at", "live_entry", "player_of"]
