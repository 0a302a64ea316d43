"""The waiting list of a full table (§20, R-20.55, R-20.56): players join it while no
seat is free; when one frees, the first in line is offered it privately for the table's
action clock, then the next. Logged as ``waitlisted`` records (bot/table/log.py), folded
into ``TableState.hosting`` (bot/table/hosting.py). The bodies run inside the table's
commands (:meth:`bot.table.table.Table.waitlist`); :func:`offer_seat` runs after every
command and when the clock finds an offer due (:func:`due`)."""

from __future__ import annotations

from bot.poker.messages import Count, Msg, Name, Number, msg
from bot.table import log as tlog
from bot.table.errors import TableError
from bot.table.hostport import HostTable
from bot.table.ports import Notice
from bot.table.state import TableState


def free_seats(state: TableState) -> int:
    s = state.settings
    last = min(s.max_seats_for(v) for v, _ in s.games())
    return sum(1 for n in range(1, last + 1) if n not in state.seats)


def open_to(state: TableState, user: str) -> bool:
    """Whether a free seat is ``user``'s to take: one nobody is offered, or his offer
    (R-20.56: an offered seat is kept for the player it is offered to)."""
    offer = state.hosting.offer
    if offer is None or offer.user == user:
        return free_seats(state) > 0
    return free_seats(state) > 1


def check_sit(state: TableState, user: str, now: float) -> None:
    """A sit refused while the only free seat is offered to someone else."""
    offer = state.hosting.offer
    if offer is not None and not open_to(state, user) and free_seats(state) > 0:
        left = max(1, int(offer.until - now + 0.999))
        raise TableError(msg("waitlist.reserved", seconds=Count(left)))


async def join(table: HostTable, user: str, name: str) -> Msg:
    st = table.state
    if st.tournament:
        raise TableError(msg("host.tournament"))  # the director seats its players
    if st.seat_of(user) is not None:
        raise TableError(msg("waitlist.seated"))
    if st.hosting.waits(user):
        raise TableError(msg("waitlist.already"))
    if open_to(st, user):
        raise TableError(msg("waitlist.not_full"))
    await table._commit(tlog.Waitlisted("join", user, name))
    place = len(st.hosting.waiting)
    told = msg("waitlist.joined", who=Name(name), place=Number(place))
    await table._public("settings", told, user=user)
    return told


async def leave(table: HostTable, user: str) -> Msg:
    st = table.state
    if not st.hosting.waits(user):
        raise TableError(msg("waitlist.not_on"))
    name = next((n for u, n in st.hosting.waiting if u == user), "")
    offer = st.hosting.offer
    if offer is not None and offer.user == user:
        name = offer.name
    await table._commit(tlog.Waitlisted("leave", user, name))
    told = msg("waitlist.left", who=Name(name))
    await table._public("settings", told, user=user)
    return told


def due(state: TableState, due_at: float | None) -> float | None:
    """The earlier of ``due_at`` and the waiting list's next moment: an offer's end, or
    at once when a seat is free for the first in line and nobody is offered it."""
    if state.closed or state.halted:
        return due_at
    h = state.hosting
    mine: float | None = None
    if h.offer is not None:
        mine = h.offer.until
    elif h.waiting and free_seats(state) > 0:
        mine = state.last_change_at
    if mine is None:
        return due_at
    return mine if due_at is None else min(mine, due_at)


def pending(table: HostTable) -> bool:
    """Whether the waiting list has something to do now (an offer to end or to make)."""
    st = table.state
    when = due(st, None)
    return when is not None and when <= table.time.now()


async def tick() -> Msg:
    """The body of the clock's command: the work is :func:`offer_seat`, after it."""
    return msg("waitlist.checked")


async def offer_seat(table: HostTable) -> None:
    """End an offer whose time ran out (R-20.56), then offer a free seat to the first in
    line, by a private notice with the offer's end (the table's action clock)."""
    st = table.state
    if st.closed or st.halted:
        return
    h = st.hosting
    now = table.time.now()
    if h.offer is not None and now >= h.offer.until:
        gone = h.offer
        await table._commit(tlog.Waitlisted("lapse", gone.user, gone.name))
        await table._public("settings", msg("waitlist.lapsed", who=Name(gone.name)))
    if h.offer is not None or not h.waiting or free_seats(st) == 0:
        return
    user, name = h.waiting[0]
    await table._commit(tlog.Waitlisted("offer", user, name))
    offer = h.offer
    assert offer is not None
    seconds = Count(round(table.settings.action_clock))
    private = msg("waitlist.offer", seconds=seconds)
    notice = Notice(
        "waitlist_offer",
        private,
        st.turn,
        {"table": table.table_id},
        deadline=offer.until,
    )
    await table._private(user, notice)
    await table._public("settings", msg("waitlist.offered", who=Name(name), seconds=seconds))
