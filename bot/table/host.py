"""The host's tools (§20, R-20.50 to R-20.54): kick a player, move one to another seat,
adjust a stack, sit one out for the next hand, name co-hosts. Each is a body run by
:meth:`bot.table.table.Table.host` inside the table's command (one lock, all or
nothing), logged as a ``host_acted`` record naming who did it; a stack adjustment is
also an ``adjustment`` ledger row. Ending the session is the table's close.

The host, a co-host and a moderator may use them; only the host or a moderator names
or removes a co-host (R-20.50)."""

from __future__ import annotations

from typing import Final, Literal

from bot.poker.actions import Action, Fold
from bot.poker.errors import PokerError
from bot.poker.hand import Hand
from bot.poker.messages import Chips, Msg, Name, Number, msg
from bot.table import hosting
from bot.table import log as tlog
from bot.table.actor import Actor, user_of
from bot.table.errors import NotAllowed, TableError
from bot.table.home import runtwice
from bot.table.hosting import Role
from bot.table.hostport import HostTable
from bot.table.ports import LedgerKind, LedgerRow
from bot.table.state import TableState
from bot.table.timeouts import timeout_actions

Tool = Literal["kick", "seat", "adjust", "sitout", "cohost", "uncohost"]
TOOLS: Final[tuple[Tool, ...]] = ("kick", "seat", "adjust", "sitout", "cohost", "uncohost")

MAX_ADJUST: Final = 1_000_000_000_000
"""R-2.6: an adjustment, and the stack it leaves, stay within the buy-in range's bound."""
MAX_REASON: Final = 100


def tournament(table: HostTable) -> bool:
    """A tournament's table (opened by one, R-19.3): its seats and chips the director's."""
    return bool(table.state.tournament)


def may_host(state: TableState, user: str) -> bool:
    """A co-host may do what the host does (R-20.50); the platform's moderators are
    judged by the table (``Table._require_manager``)."""
    return user in state.hosting.cohosts


def clock_choices(state: TableState, hand: Hand, position: int, user: str) -> tuple[Action, ...]:
    """What the clock does for the player to act: a kicked player folds (R-20.51)."""
    choices = timeout_actions(hand, position)
    actor = hand.actor(position)
    if user in state.hosting.kicked and actor is not None and "fold" in actor.legal.actions:
        return (Fold(position), *choices)
    return choices


def role_of(state: TableState, user: str) -> Role:
    """Which of the managers (R-20.50) ``user`` acts as: the host, a co-host, or else a
    moderator (the table has let him manage it already)."""
    return hosting.role(state.host, state.hosting.cohosts, user)


def name_of(state: TableState, who: str | Actor) -> str:
    """The name ``who`` goes by: the platform's (with the command), else his seat's; ""
    when the table knows none (the terminal's host has no seat)."""
    seat = state.seat_of(user_of(who))
    return who.name if isinstance(who, Actor) and who.name else (seat.name if seat else "")


def by_role(key: str, role: Role, name: str, by: str) -> tuple[str, dict[str, Name]]:
    """``key.host``, ``key.cohost`` or ``key.moderator`` with ``by`` (his name, else his
    id); the host with no name known is ``key`` itself, "the host"."""
    if role == "host" and not name:
        return key, {}
    return f"{key}.{role}", {"by": Name(name or by)}


def acted_by(state: TableState, who: str | Actor, key: str) -> tuple[str, dict[str, Name]]:
    """R-20.76: the key of a tool's announcement (a kick, a seat move, an adjustment, a
    sit-out) naming the role that acted and the person (``key.host``, ``key.cohost``,
    ``key.moderator`` with ``by``), and that parameter. The host with no name known
    (the terminal's host, who has no seat) is ``key`` itself, "the host"."""
    by = user_of(who)
    return by_role(key, role_of(state, by), name_of(state, who), by)


def kicked_said(state: TableState, user: str) -> Msg:
    """R-20.81: what a kicked player is told when he acts for himself (R-20.70): who
    removed him, by role and name, as the kick was logged. A kick an older version
    logged named nobody: the host's words, as it said then."""
    role, name = state.hosting.kicked_by.get(user, ("host", ""))
    key, by = by_role("host.kicked.no_action", role, name, "")
    return msg(key, **by)


def check_reason(reason: str) -> str:
    text = " ".join(reason.split())
    if not text or len(text) > MAX_REASON:
        raise TableError(msg("host.adjust.reason", most=Number(MAX_REASON)))
    return text


async def run(
    table: HostTable,
    who: str | Actor,
    tool: str,
    user: str,
    *,
    name: str = "",
    to: int = 0,
    amount: int = 0,
    reason: str = "",
) -> Msg:
    """One host tool on ``user`` (by ``who``); a refusal raises and changes nothing."""
    table._require_manager(who)
    by = user_of(who)
    st = table.state
    if tool in ("cohost", "uncohost"):
        return await _cohost(table, who, tool == "cohost", user, name or user)
    if user == st.host and by != st.host and not _moderator(table, who):
        raise NotAllowed(msg("host.not_on_host"))  # a co-host's tools are not for the host
    if tool in ("kick", "seat", "adjust") and tournament(table):
        raise TableError(msg("host.tournament"))  # the director's chips and seats
    seat = st.seat_of(user)
    if seat is None:
        raise TableError(msg("host.not_seated"))
    who_name = Name(seat.name)
    if tool == "kick":
        if user in st.hosting.kicked and seat.leaving:
            raise TableError(msg("host.kick.already", who=who_name))
        await table._commit(tlog.HostActed("kick", user, by, seat.number, by_name=name_of(st, who)))
        if not st.dealt_in(seat.number):
            key, by_name = acted_by(st, who, "host.kicked")
            kicked = msg(key, who=who_name, **by_name)
            await table._public("leaving", kicked, seat=seat.number, user=user)
            await table._stand(seat, None)  # cashed out, said as any stand is
            return kicked
        key, by_name = acted_by(st, who, "host.kicked_in_hand")
        kicked = msg(key, who=who_name, **by_name)
        await table._public("leaving", kicked, seat=seat.number, user=user)
        await _fold_now(table, user)
        return kicked
    if tool == "seat":
        if st.in_hand:
            raise TableError(msg("host.between_hands"))
        s = table.settings
        last = min(s.max_seats_for(v) for v, _ in s.games())
        if not 1 <= to <= last:
            raise TableError(msg("table.sit.no_seat", seat=Number(to), last=Number(last)))
        if to in st.seats:
            raise TableError(msg("table.sit.taken", seat=Number(to), last=Number(last)))
        was = seat.number
        await table._commit(tlog.HostActed("seat", user, by, was, to))
        key, by_name = acted_by(st, who, "host.moved")
        told = msg(key, who=who_name, seat=Number(was), to=Number(to), **by_name)
        await table._public("sat", told, seat=to, user=user)
        return told
    if tool == "adjust":
        if st.dealt_in(seat.number):
            raise TableError(msg("host.between_hands"))
        if amount == 0 or abs(amount) > MAX_ADJUST:
            raise TableError(msg("host.adjust.amount", most=Chips(MAX_ADJUST)))
        after = seat.stack + amount
        if after < 0 or after > MAX_ADJUST:
            raise TableError(
                msg("host.adjust.stack", stack=Chips(seat.stack), most=Chips(MAX_ADJUST))
            )
        why = check_reason(reason)
        await table._commit(
            tlog.HostActed("adjust", user, by, seat.number, amount=amount, reason=why),
            ledger=[LedgerRow(user, LedgerKind.ADJUSTMENT, amount)],
        )
        key, by_name = acted_by(st, who, "host.adjusted.up" if amount > 0 else "host.adjusted.down")
        told = msg(
            key,
            who=who_name,
            amount=Chips(abs(amount)),
            stack=Chips(after),
            reason=Name(why),
            **by_name,
        )
        await table._public("topped_up", told, seat=seat.number, user=user)
        return told
    if tool == "sitout":
        if seat.leaving or seat.state == "sitting_out" or seat.sit_out_next:
            raise TableError(msg("host.sitout.already", who=who_name))
        dealt = st.dealt_in(seat.number)
        await table._commit(tlog.HostActed("sitout", user, by, seat.number))
        key, by_name = acted_by(st, who, "host.sat_out_next" if dealt else "host.sat_out")
        told = msg(key, who=who_name, **by_name)
        await table._public("sat_out", told, seat=seat.number, user=user)
        return told
    raise TableError(msg("host.unknown", tools=Name(" ".join(TOOLS))))


async def _cohost(table: HostTable, who: str | Actor, on: bool, user: str, name: str) -> Msg:
    st = table.state
    by = user_of(who)
    if by in st.hosting.cohosts and by != st.host and not _moderator(table, who):
        raise NotAllowed(msg("host.cohost.host_only"))
    if user == st.host:
        raise TableError(msg("host.cohost.is_host", who=Name(name)))
    if on == (user in st.hosting.cohosts):
        raise TableError(msg("host.cohost.already" if on else "host.cohost.not", who=Name(name)))
    await table._commit(tlog.HostActed("cohost" if on else "uncohost", user, by))
    told = msg("host.cohost.named" if on else "host.cohost.removed", who=Name(name))
    await table._public("settings", told, user=user)
    return told


def _moderator(table: HostTable, who: str | Actor) -> bool:
    if isinstance(who, Actor):
        return who.may_manage
    return table.presenter.is_moderator(table.table_id, who)


async def _fold_now(table: HostTable, user: str) -> None:
    """R-20.51: a kicked player whose turn it is folds at once (his later turns are the
    clock's, at once too)."""
    info, hand = table.state.current, table.state.hand
    if info is None or hand is None:
        return
    if hand.to_act is None:
        # asked to run it twice, he answers no at once.
        no = runtwice.kicked_no(hand.actors(), info.users, table.state.hosting.kicked)
        if no is not None:
            await table._apply(no, f"kick:{info.hand_no}:{table.state.turn}", timeout=True)
        return
    if info.users[hand.to_act] != user:
        return
    pos = hand.to_act
    for action in clock_choices(table.state, hand, pos, user):
        try:
            await table._apply(action, f"kick:{info.hand_no}:{table.state.turn}", timeout=True)
        except PokerError:  # refused: nothing changed; the next choice
            continue
        return
