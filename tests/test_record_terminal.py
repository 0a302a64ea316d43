"""The night's record in the terminal (R-20.40-R-20.43): the ledger of every table of
the file over today, its CSV, the settle-up, a player's VPIP/PFR and a period's board,
in the terminal's language; a bad date is refused with what to write."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from bot.local.terminal import run
from bot.table.record import CSV_COLUMNS, read_ledger_csv


async def _script(tmp_path: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    code = await run(["--db", str(tmp_path / "l.sqlite3"), *args], inp=inp, out=out)
    assert code == 0
    return out.getvalue()


async def test_R_20_40_terminal_ledger_csv_settle_and_stats(tmp_path: Path) -> None:
    """R-20.40, R-20.41, R-20.42, R-20.44 at the terminal: after a raised hand called down,
    ``ledger all`` names both players, ``ledger csv`` reads back with nets summing to
    minus the rake, ``settle`` has one payment, ``stats alice <today>`` counts VPIP."""
    plays = ["deal"] + [f"{p}: call" for p in "abab"] + [f"{p}: check" for p in "ab" * 8]
    await _script(tmp_path, plays, "a", "b")
    text = await _script(tmp_path, ["ledger all", "ledger csv", "settle"])
    assert "Server ledger" in text and "a: net" in text and "b: net" in text
    body = text[text.index(",".join(CSV_COLUMNS)) :]
    rows = list(csv.reader(io.StringIO(body)))
    csv_text = "\r\n".join(",".join(r) for r in rows[: 1 + 3]) + "\r\n"
    ledger = read_ledger_csv(csv_text)
    assert {line.player_id for line in ledger.lines} == {"a", "b"}
    assert sum(line.net for line in ledger.lines) + ledger.total_rake == 0
    loser = min(ledger.lines, key=lambda line: line.net)
    if loser.net < 0:
        assert f"{loser.name} pays" in text
    else:
        assert "Nothing to settle" in text
    from datetime import UTC, datetime

    today = datetime.now(UTC).date().isoformat()
    text = await _script(
        tmp_path,
        [f"stats a {today}", f"stats b {today}", "leaderboard by hands", "ledger all 2020-13-01"],
    )
    # Heads-up, called down: the small blind completed (voluntary), the big blind
    # checked his option (not voluntary); nobody raised.
    assert text.count("VPIP 100%, PFR 0%") == 1 and text.count("VPIP 0%, PFR 0%") == 1
    assert "Leaderboard by hands" in text and "1 hand" in text
    assert "is not a date" in text and "YYYY-MM-DD" in text
    assert "Traceback" not in text
