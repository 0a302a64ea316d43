"""At the terminal a hand is asked for with its table too: ``history 1 table:1``,
``phh 1 table:1`` (R-20.98). The terminal's `new` opens a table on a log of its own, so
there the first table is the only one of its log: naming it is the same as not naming
it, and a table the log has not had is refused, naming the hand as asked."""

from __future__ import annotations

from pathlib import Path

from tests.test_local_terminal import _script


async def test_R_20_98_the_terminal_names_a_hands_table(tmp_path: Path) -> None:
    folds = [f"{p}: fold" for p in "abab"]  # any button: one of them folds
    await _script(tmp_path, ["deal", *folds], "a", "b")
    text = await _script(tmp_path, ["history 1", "history 1 table:1"])
    assert "Traceback" not in text and "conservation: ok" in text, text
    plain, named = text.split("Hand #1", 2)[1:]
    assert plain.strip() and plain.strip() == named.strip()
    text = await _script(tmp_path, ["phh 1", "phh 1 table:1"])
    assert text.count('variant = "NT"') == 2, text
    text = await _script(tmp_path, ["history 1 table:2", "history 1 table:x"])
    assert "Traceback" not in text
    assert "no finished hand #1 (table 2)" in text, text
    assert text.count("! ") == 2, text  # both refused, the second with the usage
