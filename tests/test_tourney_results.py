"""A tournament's results as data and CSV (R-19.70): every placed entry once, best
first, shared places as a range in the reader's language, bounties summed per entry,
and each player's entries counted with his re-entries; the CSV read back with csv."""

from __future__ import annotations

import csv
import io

from bot.poker.messages import Name, Number, msg
from bot.tournament.director import Entry, State
from bot.tournament.log import BountyPaid
from bot.tournament.places import Finish
from bot.tournament.structure import Config
from bot.tourney_run.results import COLUMNS, results, results_csv
from bot.words import render


def _state() -> State:
    entries = (
        Entry("ann", "ann", "Ann", 1, 100),
        Entry("bob", "bob", "Bob", 1, 100),
        Entry("cy", "cy", "Cy", 1, 100),
        Entry("ann#2", "ann", "Ann", 2, 100),
        Entry("dee", "dee", "Dée", 1, 100),
    )
    finishes = (
        Finish("cy", 4, 5, 0),
        Finish("ann", 4, 5, 0),
        Finish("dee", 3, 3, 50),
        Finish("bob", 2, 2, 150),
        Finish("ann#2", 1, 1, 300),
    )
    bounties = (
        BountyPaid("bob", "cy", 10),
        BountyPaid("ann#2", "ann", 10),
        BountyPaid("ann#2", "dee", 10),
        BountyPaid("ann#2", "ann#2", 10),
    )
    return State(Config(), entries=entries, finishes=finishes, bounties=bounties)


def test_r19_70_results_best_first_with_bounties_and_re_entries() -> None:
    rows = results(_state())
    assert [(r.entry, r.first, r.last) for r in rows] == [
        ("ann#2", 1, 1),
        ("bob", 2, 2),
        ("dee", 3, 3),
        ("ann", 4, 5),
        ("cy", 4, 5),
    ]
    assert [r.bounties for r in rows] == [30, 10, 0, 0, 0]
    assert [r.prize for r in rows] == [300, 150, 50, 0, 0]
    assert {r.name: r.entries for r in rows} == {"Ann": 2, "Bob": 1, "Dée": 1, "Cy": 1}


def test_r19_70_results_csv_reads_back_in_the_readers_language() -> None:
    for locale in ("en", "fr", "ru"):
        table = list(csv.reader(io.StringIO(results_csv(results(_state()), locale))))
        assert table[0] == [render(msg(k), locale) for k in COLUMNS]
        shared = render(msg("results.place.shared", first=Number(4), last=Number(5)), locale)
        body = table[1:]
        # the re-entry (first place here) is told apart from Ann's first entry.
        ann2 = render(msg("results.entry", name=Name("Ann"), number=Number(2)), locale)
        assert [r[1] for r in body] == [ann2, "Bob", "Dée", "Ann", "Cy"]
        assert [int(r[2]) for r in body] == [300, 150, 50, 0, 0]
        assert [int(r[3]) for r in body] == [30, 10, 0, 0, 0]
        assert [int(r[4]) for r in body] == [2, 1, 1, 2, 1]
        assert body[3][0] == body[4][0] == shared != body[2][0]


def test_R_19_101_csv_cells_that_would_be_formulas_are_guarded() -> None:
    """OWASP CSV injection: a name starting with = + - @ tab or CR is written with a
    leading apostrophe, so no spreadsheet runs it; the file still reads back as CSV with
    one row per entry and the other cells as they were."""
    hostile = ('=HYPERLINK("http://x","y")', "+1+1", "-2,3", "@SUM(A1)", "\tTab", "\rCR")
    entries = tuple(Entry(f"e{n}", f"e{n}", name, 1, 100) for n, name in enumerate(hostile))
    entries += (Entry("ok", "ok", 'Plain, "quoted"', 1, 100),)
    finishes = tuple(Finish(e.entry, n, n, 0) for n, e in enumerate(entries, start=1))
    state = State(Config(), entries=entries, finishes=finishes)
    text = results_csv(results(state))
    body = list(csv.reader(io.StringIO(text, newline="")))[1:]
    assert len(body) == len(entries)
    assert [r[1] for r in body] == [*("'" + h for h in hostile), 'Plain, "quoted"']
    for row in body:
        assert not row[1].startswith(("=", "+", "-", "@", "\t", "\r")), row
        assert [int(c) for c in row[2:]] == [0, 0, 1]
