"""Who runs a tournament when several processes share one PostgreSQL store (R-19.75 to
R-19.79).

A tournament is owned as a table is: by the shard of its guild (the server it was
opened in). Its journal (``_tournament:<id>``), its moves log (``_moves:<id>``) and its
tables (``tn:<id>:<n>``) all follow the journal's guild (:func:`anchor`, installed on
the service's :class:`~bot.table.ownership.Ownership` by :func:`follow`), so one process
holds them all: the one holding that shard's lease runs the director, and its tables
are its own (no table of a tournament is ever driven by another process). Every append
to the journal and the moves log carries the shard's fence, as a table's does: a
process that lost the lease (paused past it, its lease taken over) is refused by the
store and writes nothing; it then drops the shard and forgets the tournament.

A standby that takes the shard over recovers the tables from their logs (the service's
lease step) and then the tournament from its journal (:func:`adopt`: the driver's
``recover``, the runner's ``load``), which finishes what the dead owner cut short with
the same keys, so nothing is applied twice.

With no ownership (one process, SQLite) every tournament is this process's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.poker.messages import Msg
from bot.table.moves import moves_log
from bot.table.ownership import NotOwned, Ownership
from bot.table.service import TableService
from bot.tourney_run.driver import Driver
from bot.tourney_run.journal import journal_id
from bot.tourney_run.stakes import PREFIX

_JOURNAL = journal_id("")
_MOVES = moves_log("")


def anchor(log_id: str) -> str | None:
    """The journal a tournament's log goes with: its journal, its moves log and its
    tables ``tn:<id>:<n>``; None for any other log (a cash table, a reserved log)."""
    if log_id.startswith(_JOURNAL):
        return log_id
    if log_id.startswith(_MOVES):
        return journal_id(log_id[len(_MOVES) :])
    if log_id.startswith(PREFIX):
        tournament, sep, number = log_id[len(PREFIX) :].rpartition(":")
        if sep and tournament and number.isdigit():
            return journal_id(tournament)
    return None


def follow(ownership: Ownership) -> None:
    """A tournament's logs and tables follow its journal's shard from now on."""
    ownership.anchor = anchor


def owns(service: TableService, tournament: str) -> bool:
    """Whether this process runs ``tournament`` (holds its shard's lease now)."""
    own = service.ownership
    return own is None or own.owns(journal_id(tournament))


async def claim(service: TableService, tournament: str, guild: int | None) -> Msg | None:
    """Before a tournament's first record: its guild recorded, so it (and every table
    it opens) is on that guild's shard. A refusal (the shard is another process's, or
    being moved) when this process does not hold it; None when it may be created."""
    own = service.ownership
    if own is None:
        return None
    follow(own)
    log_id = journal_id(tournament)
    await own.record(log_id, guild)
    if not own.owns(log_id):
        return NotOwned(log_id).msg
    return None


async def adopt(driver: Driver) -> list[str]:
    """After a lease step: the tournaments of shards lost forgotten (another process
    runs them now), those of shards held and not yet run here loaded from their
    journals, finishing what their last owner cut short. Returns the ids loaded."""
    service = driver.service
    own = service.ownership
    if own is None:
        return []
    follow(own)
    for tournament in list(driver.runners):
        if not own.owns(journal_id(tournament)):
            driver.forget(tournament)
    return await driver.recover()


def attach(
    driver: Driver,
    *,
    before: Callable[[], Awaitable[None]] | None = None,
    after: Callable[[list[str]], None] | None = None,
) -> None:
    """``driver`` runs only the tournaments of the shards this process holds, and
    adopts those of every shard it takes over once its tables are recovered: the
    platform's ``before`` first (what it must know of them, their places), then
    ``after`` with the ids adopted. Nothing to do with no ownership."""
    service = driver.service
    own = service.ownership
    if own is None:
        return
    follow(own)
    driver.owns = lambda tournament: owns(service, tournament)

    async def adopted() -> None:
        if before is not None:
            await before()
        ids = await adopt(driver)
        if after is not None:
            after(ids)
        if ids:
            driver.kick()

    service.lease_hooks.append(adopted)


__all__ = ["adopt", "anchor", "attach", "claim", "follow", "owns"]
