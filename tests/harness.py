"""A test harness for the table service: in-memory store, manual clock, recording
presenter, and a chip-conservation check after every step (R-2.5).

Used by the scenario tests (and handy in a REPL, from the repository root); test support,
so it lives under tests/ and is not shipped with the packages.
"""

from __future__ import annotations

import itertools
from typing import Any

from bot.table.clocks import ManualTime
from bot.table.ports import MemoryStore, RecordingPresenter, StorePort
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.table import Outcome, Table
from bot.table.text_actions import ActionRequest

HOST = "host"


class Harness:
    def __init__(self, store: StorePort | None = None, moderators: set[str] | None = None) -> None:
        self.store = store or MemoryStore()
        self.presenter = RecordingPresenter(moderators)
        self.time = ManualTime()
        self.service = TableService(self.store, self.presenter, self.time)
        self._keys = itertools.count(1)

    def key(self) -> str:
        return f"k{next(self._keys)}"

    async def table(self, table_id: str = "t", **settings: Any) -> Table:
        out = await self.service.create(
            table_id, HOST, TableSettings.of(**settings), key=self.key()
        )
        assert out.ok, out.msg
        return self.service.table(table_id)

    async def seated(
        self, names: list[str], buy_in: int = 100, table_id: str = "t", **settings: Any
    ) -> Table:
        table = await self.table(table_id, **settings)
        for n in names:
            out = await table.sit(n, n, buy_in, key=self.key())
            assert out.ok, out.msg
        self.check(table)
        return table

    @staticmethod
    def check(table: Table) -> None:
        """R-2.5 after every step."""
        error = table.conservation_error()
        assert error is None, error

    async def do(self, table: Table, user: str, action: str | ActionRequest) -> Outcome:
        out = await table.act(user, action, key=self.key())
        self.check(table)
        return out

    async def deal(self, table: Table) -> Outcome:
        out = await table.deal(HOST, key=self.key())
        self.check(table)
        return out

    @staticmethod
    def to_act(table: Table) -> str:
        hand = table.state.hand
        info = table.state.current
        assert hand is not None and info is not None and hand.to_act is not None
        return info.users[hand.to_act]

    async def play_passively(self, table: Table) -> None:
        """Check or call until the hand ends."""
        while table.state.hand is not None:
            hand = table.state.hand
            user = self.to_act(table)
            word = "check" if "check" in hand.legal().actions else "call"
            out = await self.do(table, user, word)
            assert out.ok, out.msg


async def told_story(table: Table, hand_no: int) -> str:
    """A finished hand's public lines in English (``Table.hand_told`` rendered), for
    tests that read the story as text."""
    from tests.said import en

    return "\n".join(en(m) for m in await table.hand_told(hand_no))
