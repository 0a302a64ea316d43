"""What the host tools and the waiting list (bot/table/host.py, bot/table/waitlist.py)
use of a table: its state and the few steps of a command they build on. A protocol, so
those modules do not import the table that calls them (no import cycle)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.poker.actions import Action
from bot.poker.messages import Msg
from bot.table import log as tlog
from bot.table.actor import Actor
from bot.table.clocks import TimeSource
from bot.table.ports import LedgerRow, Notice, NoticeKind, Presenter
from bot.table.predeal.stakes import StakesSource
from bot.table.settings import TableSettings
from bot.table.state import TableState


class HostTable(Protocol):
    """A table as bot/table/table.py's ``Table`` is one."""

    state: TableState
    presenter: Presenter
    time: TimeSource
    stakes: StakesSource

    @property
    def table_id(self) -> str: ...

    @property
    def settings(self) -> TableSettings: ...

    def _require_manager(self, who: str | Actor) -> None: ...

    async def _commit(
        self,
        record: tlog.LogRecord,
        *,
        key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
        live: Any = None,
    ) -> tlog.LogRecord: ...

    async def _public(self, kind: NoticeKind, said: str | Msg, **data: Any) -> None: ...

    async def _private(self, user: str, notice: Notice) -> None: ...

    async def _stand(self, seat: Any, key: str | None) -> Msg: ...

    async def _apply(
        self,
        action: Action,
        key: str | None,
        note: Msg | None = None,
        ledger: Sequence[LedgerRow] = (),
        *,
        timeout: bool = False,
    ) -> object: ...
