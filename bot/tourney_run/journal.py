"""The tournament's log in the store: one append per decision (its records together, so
a crash never leaves half a decision), each under an idempotency key naming its cause,
so the same cause is never applied twice."""

from __future__ import annotations

from collections.abc import Sequence

from bot.table.log import GuildRecorded
from bot.table.ownership import RESERVED_PREFIX
from bot.table.ports import DuplicateKey, LedgerRow, StorePort
from bot.table.standings import STANDINGS_LOG
from bot.tournament.log import Record, from_payload, to_payload

KIND = "tournament"
PAYOUTS = "payouts"


def journal_id(tournament: str) -> str:
    """The reserved log of a tournament's director records (not a table's)."""
    return f"{RESERVED_PREFIX}tournament:{tournament}"


class Journal:
    def __init__(self, store: StorePort, tournament: str) -> None:
        self.store = store
        self.log_id = journal_id(tournament)

    async def records(self) -> list[Record]:
        """Every record, in the order appended."""
        out: list[Record] = []
        for row in await self.store.events(self.log_id):
            if row.kind == KIND:
                out += [from_payload(p) for p in row.payload["records"]]
        return out

    async def keys(self) -> set[str]:
        """The key of every decision appended."""
        rows = await self.store.events(self.log_id)
        return {r.idem_key for r in rows if r.kind == KIND and r.idem_key is not None}

    async def record_guild(self, guild: int) -> bool:
        """The server the tournament is played in, once: its money (R-19.46) then
        counts in that server's night's record, stats and leaderboards too."""
        rec = GuildRecorded(self.log_id, guild)
        try:
            await self.store.append(
                STANDINGS_LOG, rec.kind, rec.to_payload(), idem_key=f"guild:{self.log_id}"
            )
        except DuplicateKey:
            return False
        return True

    async def record_payouts(self, rows: Sequence[tuple[str, str, int, int]]) -> bool:
        """The money each entry won, for the ledger, stats and leaderboards: (entry,
        player, prize, bounties). Once; never chips at a table."""
        payload = {
            "rows": [
                {"entry": e, "player": p, "prize": prize, "bounties": b} for e, p, prize, b in rows
            ]
        }
        try:
            await self.store.append(self.log_id, PAYOUTS, payload, idem_key=PAYOUTS)
        except DuplicateKey:
            return False
        return True

    async def payouts(self) -> list[tuple[str, str, int, int]]:
        rows = [r for r in await self.store.events(self.log_id) if r.kind == PAYOUTS]
        return [
            (d["entry"], d["player"], d["prize"], d["bounties"])
            for r in rows
            for d in r.payload["rows"]
        ]

    async def append(
        self, records: Sequence[Record], key: str, ledger: Sequence[LedgerRow] = ()
    ) -> bool:
        """Append one decision's records (with its money for the ledger, in the same
        commit); False when ``key`` was already appended."""
        payload = {"records": [to_payload(r) for r in records]}
        try:
            await self.store.append(self.log_id, KIND, payload, idem_key=key, ledger=ledger)
        except DuplicateKey:
            return False
        return True
