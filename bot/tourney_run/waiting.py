"""A scheduled tournament that reached its start time with too few players waits for
its host (R-19.65, R-19.68): the waiting is kept in its journal log (a ``waiting_host``
row, once), so after a restart it is still shown as waiting, the clock does not try
to start it again, and the "too few players" notice is not said again."""

from __future__ import annotations

from bot.table.ports import DuplicateKey
from bot.tourney_run.journal import Journal

WAITING = "waiting_host"


async def mark(journal: Journal) -> bool:
    """Record that the tournament waits for its host; False when it was already."""
    try:
        await journal.store.append(journal.log_id, WAITING, {}, idem_key=WAITING)
    except DuplicateKey:
        return False
    return True


async def waiting(journal: Journal) -> bool:
    """Whether the tournament's scheduled start found too few players."""
    return any(row.kind == WAITING for row in await journal.store.events(journal.log_id))


__all__ = ["WAITING", "mark", "waiting"]
