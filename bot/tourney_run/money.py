"""A tournament's money in the store's ledger (R-19.46): what each player paid and got
back, where the night's record, the stats and the leaderboards read a table's buy-ins
and cash-outs, under the tournament's own log (``_tournament:<id>``).

Money only: the price of an entry is a ``buy_in`` row (buy-in, bounty and fee), a
rebuy or the add-on a ``top_up`` row (its price), an unregistration's refund a
``cash_out``; when the tournament is over (won or called off) each player's prizes,
bounties and refunds together are one ``cash_out`` (a row of 0 for one who won
nothing, which settles his session: his net is then what he got less what he paid).
The fees stay with the house. The chips of the tables never enter the ledger (their
moves are transfers, R-19.2).

The rows are written in the same append as the decision they come from, so a decision
and its money are one commit: a restart never writes them twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.table.ports import LedgerKind, LedgerRow
from bot.tournament import director
from bot.tournament.director import State
from bot.tournament.log import Cancelled, Finished, Rebought, Record, Registered, Unregistered


def _player(state: State, entry: str) -> str:
    e = state.entry(entry)
    return e.player if e is not None else entry


def settled(state: State) -> dict[str, int]:
    """Each player's money back once the tournament is over: prizes, bounties won and
    refunds over all his entries (0 for one who won nothing)."""
    out = {e.player: 0 for e in state.entries}
    for f in state.finishes:
        out[_player(state, f.entry)] += f.prize
    for b in state.bounties:
        out[_player(state, b.entry)] += b.amount
    for entry, amount in state.refunds:
        out[_player(state, entry)] += amount
    return out


def ledger_rows(before: State | None, records: Sequence[Record]) -> list[LedgerRow]:
    """The ledger rows of one decision's ``records`` folded onto ``before``."""
    if before is None:
        return []
    rows: list[LedgerRow] = []
    state = before
    for record in records:
        if isinstance(record, Unregistered):
            rows.append(LedgerRow(_player(state, record.entry), LedgerKind.CASH_OUT, record.refund))
        state = director.fold(state, record)
        if isinstance(record, Registered) and record.paid:
            rows.append(LedgerRow(record.player, LedgerKind.BUY_IN, record.paid))
        elif isinstance(record, Rebought) and record.paid:
            rows.append(LedgerRow(_player(state, record.entry), LedgerKind.TOP_UP, record.paid))
        elif isinstance(record, Finished | Cancelled):
            rows += [
                LedgerRow(player, LedgerKind.CASH_OUT, amount)
                for player, amount in sorted(settled(state).items())
            ]
    return rows


__all__ = ["ledger_rows", "settled"]
