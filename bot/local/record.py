"""The night's record in the terminal (R-20.40-R-20.43), in the terminal's language.
The terminal has no servers: "all" is every table the file holds.

* ``ledger``: this table's session's ledger (as Discord's ``/ledger``: buy-ins,
  cash-outs, adjustments apart, chips on the table, hands); ``ledger all [SINCE
  [UNTIL]]``: every table's over the days (today by default); ``ledger csv`` (or
  ``ledger csv all [SINCE [UNTIL]]``): the same as CSV;
* ``settle`` (this table's session) or ``settle all [SINCE [UNTIL]]``: who pays whom;
* ``stats NAME [SINCE [UNTIL]]``: the player's figures, then VPIP, PFR and showdowns;
* ``leaderboard by net|hands|pot [SINCE [UNTIL]]``: a period's board (30 days by default).

Anything else (``stats``, ``leaderboard [TOP] [min HANDS]``, a ledger with no line
yet) is the standings' own (``terminal.py``): :func:`record_lines` answers None for it.
"""

from __future__ import annotations

from typing import Protocol

from bot.local.words import Words
from bot.poker.messages import msg
from bot.table.record import (
    Ledger,
    Period,
    RecordError,
    board_said,
    ledger_csv,
    ledger_said,
    now_utc,
    parse_period,
    settle_said,
    stats_said,
)
from bot.table.service import TableService
from bot.table.table import Table
from bot.table.text_actions import check_name


class LocalTable(Protocol):
    """What the record reads of the terminal's table (``bot.local.terminal``)."""

    service: TableService | None
    table_id: str
    words: Words

    @property
    def table(self) -> Table: ...

    def user_id(self, name: str) -> str: ...


PERIOD_DAYS = 30


def _period(words: list[str], *, days: int = 0) -> Period:
    if len(words) > 2:
        raise _usage()
    since = words[0] if words else None
    until = words[1] if len(words) > 1 else None
    return parse_period(since, until, now=now_utc(), days=days)


def _usage() -> RecordError:
    return RecordError(msg("record.usage"))


async def _ledger(local: LocalTable, words: list[str]) -> Ledger:
    service = local.service
    assert service is not None
    if words and words[0] == "all":
        return await service.records.server_ledger(None, _period(words[1:]))
    if words:
        raise _usage()
    return await service.session_ledger(local.table_id)


async def record_lines(local: LocalTable, cmd: str, words: list[str]) -> str | None:
    """The record's answer to one terminal line, or None for a line it does not take."""
    service = local.service
    assert service is not None
    render = local.words.render
    if cmd == "ledger" and not words:
        # R-20.40: an adjustment is the bank's, apart from the buy-ins (the standings'
        # line counts it as bought); nothing moved yet is the standings' words.
        session = await _ledger(local, [])
        return "\n".join(render(m) for m in ledger_said(session)) if session.lines else None
    if cmd == "ledger" and words and words[0] in ("all", "csv"):
        if words[0] == "csv":
            return ledger_csv(await _ledger(local, words[1:])).rstrip("\r\n")
        ledger = await _ledger(local, words)
        return "\n".join(render(m) for m in ledger_said(ledger))
    if cmd == "settle":
        ledger = await _ledger(local, words)
        names = {line.player_id: line.name for line in ledger.lines}
        return "\n".join(render(m) for m in settle_said(ledger.payments(), names))
    if cmd == "stats" and len(words) > 1:
        name = check_name(words[0])
        period = _period(words[1:])
        figures = await service.records.player(local.user_id(name), None, period)
        return "\n".join(render(m) for m in stats_said(figures, name, period))
    if cmd == "leaderboard" and words and words[0] == "by":
        if len(words) < 2:
            raise _usage()
        period = _period(words[2:], days=PERIOD_DAYS - 1)
        board = await service.records.board(words[1], None, period, min_hands=0)
        names = {s.user_id: s.name for s in local.table.snapshot(None).seats}
        return "\n".join(render(m) for m in board_said(board, names))
    return None
