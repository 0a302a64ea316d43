"""The host's tools and the waiting list at the terminal (R-20.50 to R-20.56): typed by
the host with no name in front, answered in the terminal's language; a line that does not
read is answered with the commands and changes nothing."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local.terminal import TABLE_ID, run
from bot.table.ports import LedgerKind, open_store
from bot.table.recovery import ledger_error, load


async def _script(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    code = await run(["--db", str(db), *args], inp=inp, out=out)
    assert code == 0
    return out.getvalue()


async def test_r20_53_terminal_host_commands_adjust_seat_kick_and_wait(tmp_path: Path) -> None:
    """R-20.52, R-20.53, R-20.51, R-20.55 typed at the terminal, then R-2.5 on the file."""
    db = tmp_path / "h.sqlite3"
    lines = [
        "adjust a +50 found a stray chip",
        "adjust b -20 paid at the bar",
        "adjust a 5",
        "seat b 4",
        "cohost a",
        "kick b",
        "set seats=2",
        "sitout",
        "end now",
    ]
    text = await _script(db, lines, "a", "b", "--buy-in", "100")
    assert "added 50 from the bank to a's stack (found a stray chip); it is now 150." in text
    assert "The host took 20 from b's stack back to the bank (paid at the bar)" in text
    assert "The host moved b from seat 2 to seat 4." in text
    assert "a is now a co-host" in text
    assert "b was removed from the table by the host" in text
    assert text.count("Host commands: kick NAME") == 3  # "adjust a 5", "sitout", "end now"
    assert "Traceback" not in text
    store = await open_store(str(db))
    try:
        state = await load(store, TABLE_ID)
        assert state.seat_of("b") is None and state.seat_of("a") is not None
        rows = [r for r in await store.ledger_rows(TABLE_ID) if r.kind is LedgerKind.ADJUSTMENT]
        assert [(r.player_id, r.amount) for r in rows] == [("a", 50), ("b", -20)]
        assert state.conservation_error() is None
        assert await ledger_error(store, state) is None
    finally:
        await store.close()
    text = await _script(db, ["c: sit 2 100", "wait d", "wait d off", "wait d", "end"])
    assert "d joined the waiting list (number 1)." in text
    assert "d left the waiting list." in text
    assert "Every player was cashed out." in text or "closed" in text
