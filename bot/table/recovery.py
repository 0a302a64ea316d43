"""Crash recovery: every open table rebuilt from its log, hands in progress included.

A table's state is the fold of its events (:meth:`TableState.apply`); the hand in
progress is replayed action by action in the engine. Conservation (R-2.5) is checked
against both the rebuilt state and the store's ledger; a mismatch halts that table with
a clear reason instead of letting play continue on a wrong count. A hand in progress that
this engine cannot replay (dealt under earlier rules) is cancelled (R-16.8).
"""

from __future__ import annotations

import logging

from bot.poker.errors import PokerError
from bot.poker.messages import Chips, Msg, Rule, msg
from bot.table.log import LogError, read_event
from bot.table.ports import BOUGHT, LedgerKind, LoggedEvent, StorePort
from bot.table.snapshot import from_payload
from bot.table.state import TableState

log = logging.getLogger(__name__)


def rebuild(
    table_id: str, events: list[LoggedEvent], state: TableState | None = None
) -> TableState:
    state = state if state is not None else TableState(table_id)
    for ev in events:
        record = read_event(ev.kind, ev.payload, table_id=table_id, seq=ev.seq)
        state.apply(record, idem_key=ev.idem_key, seq=ev.seq)
    info = state.current
    if info is not None and not info.ended and info.replay_error is None:
        try:
            info.ensure_hand()  # replay the hand in progress in the engine
        except PokerError as exc:
            # dealt under rules this engine no longer plays; the service cancels
            # it (chips back as committed) instead of failing to start.
            info.hand = None
            info.replay_error = exc.msg
    return state


async def load(store: StorePort, table_id: str, *, use_snapshot: bool = True) -> TableState:
    """The table from its newest snapshot plus the events after it (or the whole log)."""
    snap = await store.latest_snapshot(table_id) if use_snapshot else None
    if snap is not None:
        seq, payload = snap
        if "incarnation" not in payload:
            # Written before tables were counted: only the whole log tells which table
            # of the channel this is (the keys it derives depend on it).
            return rebuild(table_id, await store.events(table_id))
        try:
            state = from_payload(table_id, dict(payload), seq)
        except LogError as exc:
            # A snapshot is only a shortcut; the log is the truth (invariant 4).
            log.warning("%s; folding the whole log instead", exc)
            state = None
        if state is not None:
            return rebuild(table_id, await store.events(table_id, after_seq=seq), state)
    return rebuild(table_id, await store.events(table_id))


async def ledger_error(store: StorePort, state: TableState) -> Msg | None:
    """The store's ledger must agree with the chips the log says were bought and cashed."""
    totals = await store.ledger_totals(state.table_id)
    # The log counts a host's adjustment (signed, from or to the bank, R-20.53) with the
    # chips bought: so does this.
    bought = sum(totals.get(kind, 0) for kind in BOUGHT) + totals.get(LedgerKind.ADJUSTMENT, 0)
    if (bought, totals.get(LedgerKind.CASH_OUT, 0), totals.get(LedgerKind.RAKE, 0)) != (
        state.bought,
        state.cashed,
        state.rake_total,
    ):
        return msg(
            "table.ledger_disagrees",
            ledger_bought=Chips(bought),
            ledger_cashed=Chips(totals.get(LedgerKind.CASH_OUT, 0)),
            ledger_rake=Chips(totals.get(LedgerKind.RAKE, 0)),
            bought=Chips(state.bought),
            cashed=Chips(state.cashed),
            rake=Chips(state.rake_total),
            rule=Rule("R-2.5"),
        )
    return None
