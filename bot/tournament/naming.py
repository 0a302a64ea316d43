"""How a tournament names an entry (R-19.59): a player's first entry by his name, a
re-entry by his name and its number among his entries ("Alice #2"), as a message of
the ``results`` catalogue (``results.entry``: the name and the number as typed
parameters, each language's form), so notices, the status board, the standings and
the exports tell his entries apart. At the table he sits under his own name
(R-19.90)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.poker.messages import Msg, Name, Number, msg


def entry_said(name: str, number: int) -> Name | Msg:
    """Entry ``number`` (1: the first) of the player called ``name``."""
    if number <= 1:
        return Name(name)
    return msg("results.entry", name=Name(name), number=Number(number))


def entry_numbers(entries: Iterable[tuple[str, str]]) -> dict[str, int]:
    """``(entry, player)`` in the order bought -> each entry's number among its
    player's entries (1, 2, ...)."""
    count: dict[str, int] = {}
    out: dict[str, int] = {}
    for entry, player in entries:
        count[player] = count.get(player, 0) + 1
        out[entry] = count[player]
    return out


__all__ = ["entry_numbers", "entry_said"]
