"""The night's record, pure parts (docs/RULES.md §20, R-20.40-R-20.44): the settle-up
(R-20.41) over random ledgers, the CSV export's round trip (R-20.44), date ranges
(R-20.40)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.table.record import (
    CSV_COLUMNS,
    HOUSE,
    MAX_DAYS,
    Ledger,
    LedgerLine,
    RecordError,
    build_ledger,
    day_of,
    ledger_csv,
    parse_period,
    read_ledger_csv,
    settle_up,
)

KINDS = ("buy_in", "top_up", "cash_out", "adjustment", "rake")


def _check_payments(nets: dict[str, int]) -> None:
    payments = settle_up(nets)
    balance = dict.fromkeys(nets, 0)
    balance[HOUSE] = balance.get(HOUSE, 0)
    for p in payments:
        assert p.amount > 0 and isinstance(p.amount, int)
        balance[p.payer] = balance.get(p.payer, 0) - p.amount
        balance[p.payee] = balance.get(p.payee, 0) + p.amount
    # Every net is paid or received exactly; the house takes what the nets leave.
    rest = -sum(nets.values())
    for player, net in nets.items():
        expected = net + (rest if player == HOUSE else 0)
        assert balance[player] == expected  # a winner receives his net, a loser pays it
    if HOUSE not in nets:
        assert balance[HOUSE] == rest
    payers = {p.payer for p in payments}
    payees = {p.payee for p in payments}
    assert not payers & payees  # nobody both pays and receives
    parties = {p for p, n in nets.items() if n} | ({HOUSE} if rest else set())
    assert len(payments) <= max(0, len(parties) - 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=12))
def test_R_20_41_settle_up_zero_sum_ledgers_are_paid_exactly(amounts: list[int]) -> None:
    """R-20.41: for a ledger whose nets sum to zero, the payments settle every net
    exactly, number at most players - 1, and nobody both pays and receives."""
    nets = {f"p{i}": a for i, a in enumerate(amounts)}
    nets["p_last"] = -sum(amounts)
    _check_payments(nets)
    assert all(HOUSE not in (p.payer, p.payee) for p in settle_up(nets))
    players = len(nets)
    assert len(settle_up(nets)) <= players - 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 7), st.sampled_from(KINDS), st.integers(0, 5000)),
        min_size=1,
        max_size=40,
    ),
    st.lists(st.integers(0, 3000), min_size=8, max_size=8),
)
def test_R_20_41_settle_up_random_ledgers_with_rake(
    rows: list[tuple[int, str, int]], stacks: list[int]
) -> None:
    """R-20.41: random ledgers (buy-ins, top-ups, cash-outs, adjustments, rake rows on
    the house or a player, chips still on the table): the house is paid what the nets
    leave, every net is settled exactly, and there are at most parties - 1 payments."""
    sums: dict[tuple[str, str], int] = {}
    for who, kind, amount in rows:
        player = HOUSE if who == 7 and kind == "rake" else f"p{who}"
        signed = -amount if kind == "adjustment" and amount % 2 else amount
        sums[(player, kind)] = sums.get((player, kind), 0) + signed
    ledger = build_ledger(
        "session", sums, names={}, stacks={f"p{i}": s for i, s in enumerate(stacks[:4])}
    )
    _check_payments(ledger.nets())


def test_R_20_41_settle_up_example_with_rake() -> None:
    """R-20.41 worked: a +125, b -80, c -50 and a pot rake of 5: b pays a 80, c pays
    a 45 and the house 5."""
    payments = settle_up({"a": 125, "b": -80, "c": -50})
    assert [(p.payer, p.payee, p.amount) for p in payments] == [
        ("b", "a", 80),
        ("c", "a", 45),
        ("c", HOUSE, 5),
    ]


names_st = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=20,
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            names_st,
            st.integers(0, 10**9),
            st.integers(0, 10**9),
            st.integers(-(10**6), 10**6),
            st.integers(0, 10**6),
            st.integers(0, 1000),
            st.integers(0, 10**5),
        ),
        max_size=10,
    ),
    st.integers(0, 10**6),
)
def test_R_20_44_csv_export_round_trip(
    rows: list[tuple[str, int, int, int, int, int, int]], rake: int
) -> None:
    """R-20.44: the CSV parsed back is the ledger it was written from (names with
    commas, quotes, new lines and formula-like starts included)."""
    lines = tuple(
        LedgerLine(f"{i}", name, b, c, a, o, r, h)
        for i, (name, b, c, a, o, r, h) in enumerate(rows)
    )
    ledger = Ledger("session", lines, rake)
    text = ledger_csv(ledger)
    assert read_ledger_csv(text) == ledger


def test_R_20_44_csv_columns_are_figures_only() -> None:
    """R-20.44: the export's columns are the stable identifiers, a name that starts like
    a formula is never a formula cell, and a net that does not add up is refused."""
    ledger = build_ledger(
        "session",
        {("1", "buy_in"): 100, ("2", "buy_in"): 100, ("2", "cash_out"): 60, (HOUSE, "rake"): 4},
        names={"1": "=HYPERLINK(1)", "2": "bob"},
        stacks={"1": 136},
        hands={"1": 3, "2": 3},
    )
    text = ledger_csv(ledger)
    table = list(csv.reader(io.StringIO(text)))
    assert tuple(table[0]) == CSV_COLUMNS
    assert all(not row[1].startswith("=") for row in table[1:])
    assert sum(line.net for line in ledger.lines) + ledger.rake == 0
    bad = text.replace(",36\r\n", ",37\r\n")
    assert bad != text
    with pytest.raises(ValueError):
        read_ledger_csv(bad)


def test_R_20_40_periods_read_and_refuse() -> None:
    """R-20.40: a date range is whole UTC days, both ends included; a bad date, an end
    before the start or a range over the limit is refused with what is allowed."""
    now = 1_764_201_600.0  # 2025-11-27 00:00 UTC
    p = parse_period("2025-11-01", "2025-11-27", now=now)
    assert (p.since.isoformat(), p.until.isoformat()) == ("2025-11-01", "2025-11-27")
    assert parse_period(None, None, now=now).first == day_of(now)
    assert (
        parse_period(None, None, now=now, days=6).last
        - parse_period(None, None, now=now, days=6).first
        == 6
    )
    for since, until in (("yesterday", None), ("2025-11-28", "2025-11-27")):
        with pytest.raises(RecordError):
            parse_period(since, until, now=now)
    with pytest.raises(RecordError) as err:
        parse_period("2020-01-01", "2025-11-27", now=now)
    assert err.value.msg.key == "record.too_long" and err.value.msg.count() == MAX_DAYS
