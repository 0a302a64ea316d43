"""R-20.82: a bomb-pot proposal whose time runs out lapses then, on the table's clock:
the table says so and the proposal's post loses its buttons, not at the next deal. The
moment is the proposal's logged time plus the table's ``action_clock``, so it is the
same after a restart; :class:`bot.table.table.Table` asks :func:`due` for its clock and
runs :func:`lapse` in its command (one lock, all or nothing), as the waiting list's
offers are run (bot/table/waitlist.py)."""

from __future__ import annotations

from bot.poker.messages import Number, msg
from bot.table import log as tlog
from bot.table.home.bombask import RULE
from bot.table.home.bombvote import ends_at, passed
from bot.table.hostport import HostTable
from bot.table.state import TableState


def _ends(state: TableState) -> float | None:
    if state.closed or state.halted or state.settings is None or passed(state.bomb):
        return None
    return ends_at(state.bomb, state.settings.action_clock)


def due(state: TableState, due_at: float | None) -> float | None:
    """The earlier of ``due_at`` and the moment the open proposal's time runs out."""
    mine = _ends(state)
    if mine is None:
        return due_at
    return mine if due_at is None else min(mine, due_at)


def pending(table: HostTable) -> bool:
    """Whether the open proposal's time has run out and it is not yet said."""
    ends = _ends(table.state)
    return ends is not None and ends <= table.time.now()


async def lapse(table: HostTable) -> None:
    """Lapse the open proposal if its time ran out: logged, then said to the table (the
    presenter takes its buttons off its post, R-20.77)."""
    if not pending(table):
        return
    st = table.state
    vote = st.bomb["vote"]
    await table._commit(tlog.BombLapsed(int(vote["seat"])))
    seconds = Number(round(st.settings.action_clock))
    await table._public(
        "bomb_vote",
        msg("home.vote.timed_out", seconds=seconds, rule=RULE),
        deal=st.hand_no + 1,
        session=st.incarnation,
    )
