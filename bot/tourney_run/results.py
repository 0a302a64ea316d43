"""A tournament's record for export: the results (places, prizes, bounties, entries) as
rows and as CSV, and every hand as PHH (R-19.70, R-19.71).

The results are the director's state (:mod:`bot.tournament.director`); the hands are
the tables' own PHH exports, the spectator's copy (``Table.hand_history`` with no
viewer: every card nobody was shown is ``??``, docs/phh.md), with the tournament's
fields added: the event's name, the table's number and id, the hand's number and the
level it was dealt at (its stakes are the hand's own blinds and antes).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from bot.poker.messages import Msg, Name, Number, msg
from bot.table.ports import NullPresenter
from bot.table.recovery import load
from bot.table.table import Table
from bot.tournament.director import State
from bot.tournament.log import HandStarted, LevelUp, Record
from bot.tournament.naming import entry_numbers, entry_said
from bot.tourney_run.runner import Runner
from bot.tourney_run.stakes import table_id
from bot.words import DEFAULT, Locale, render


@dataclass(frozen=True, slots=True)
class Result:
    """One entry's result: places ``first..last`` (shared when they differ), the prize
    and the bounties it won; ``entries``: how many entries its player bought in all
    (re-entries included)."""

    first: int
    last: int
    entry: str
    player: str
    name: str
    prize: int
    bounties: int
    entries: int
    number: int = 1
    """The entry's number among its player's entries (2 and up: a re-entry, R-19.59)."""

    @property
    def said(self) -> Name | Msg:
        """The entry as the tournament names it: ``Alice``, a re-entry ``Alice #2``."""
        return entry_said(self.name, self.number)

    def named(self, locale: Locale = DEFAULT) -> str:
        said = self.said
        return said.text if isinstance(said, Name) else render(said, locale)


def results(state: State) -> list[Result]:
    """Every placed entry, best first (R-19.70); entries not yet placed are left out."""
    won: dict[str, int] = {}
    for b in state.bounties:
        won[b.entry] = won.get(b.entry, 0) + b.amount
    bought: dict[str, int] = {}
    for e in state.entries:
        bought[e.player] = bought.get(e.player, 0) + 1
    numbers = entry_numbers((e.entry, e.player) for e in state.entries)
    out = []
    for f in state.finishes:
        entry = state.entry(f.entry)
        assert entry is not None, f"placed entry {f.entry} never registered"
        out.append(
            Result(
                f.first,
                f.last,
                f.entry,
                entry.player,
                entry.name,
                f.prize,
                won.get(f.entry, 0),
                bought[entry.player],
                numbers[f.entry],
            )
        )
    return sorted(out, key=lambda r: (r.first, r.entry))


COLUMNS = (
    "results.col.place",
    "results.col.name",
    "results.col.prize",
    "results.col.bounties",
    "results.col.entries",
)
"""The CSV's columns, headed in the reader's language."""


def place_words(first: int, last: int, locale: Locale = DEFAULT) -> str:
    if first == last:
        return render(msg("results.place", place=Number(first)), locale)
    return render(msg("results.place.shared", first=Number(first), last=Number(last)), locale)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is read by a spreadsheet as a formula (the
OWASP CSV-injection list)."""


def cell(text: str) -> str:
    """A text cell a spreadsheet shows as typed (R-19.101): one starting like a
    formula gets a leading apostrophe, the OWASP advice. The writer quotes every text
    cell (a carriage return inside one included), so the file stays a true CSV."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def results_csv(rows: list[Result], locale: Locale = DEFAULT) -> str:
    """The results as CSV: a header row in ``locale``, then one row per entry, amounts
    as plain integers (a spreadsheet's numbers in every language). Every text cell is
    guarded against formulas (:func:`cell`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([cell(render(msg(key), locale)) for key in COLUMNS])
    for r in rows:
        place = cell(place_words(r.first, r.last, locale))
        writer.writerow([place, cell(r.named(locale)), r.prize, r.bounties, r.entries])
    return buffer.getvalue()


def levels_by_hand(records: list[Record]) -> dict[tuple[int, int], int]:
    """(table, hand) -> the schedule index of the level the hand was dealt at: the
    last level begun before the director heard the hand was dealt."""
    level = 0
    out: dict[tuple[int, int], int] = {}
    for record in records:
        if isinstance(record, LevelUp):
            level = record.index
        elif isinstance(record, HandStarted):
            out[(record.table, record.hand)] = level
    return out


def entries_by_hand(state: State, records: list[Record]) -> dict[tuple[int, int], dict[str, str]]:
    """(table, hand) -> user id -> the entry he played it as, where that is a re-entry
    (``Alice #2``, R-19.59; language-neutral PHH takes the default catalogue's form)."""
    found = {e.entry: e for e in state.entries}
    numbers = entry_numbers((e.entry, e.player) for e in state.entries)
    out: dict[tuple[int, int], dict[str, str]] = {}
    for record in records:
        if not isinstance(record, HandStarted):
            continue
        named: dict[str, str] = {}
        for entry, _ in record.starts:
            e = found.get(entry)
            if e is not None and numbers[entry] > 1:
                said = entry_said(e.name, numbers[entry])
                named[e.player] = said.text if isinstance(said, Name) else render(said, DEFAULT)
        if named:
            out[(record.table, record.hand)] = named
    return out


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


async def tables(runner: Runner, records: list[Record]) -> list[tuple[int, Table]]:
    """Every table the tournament dealt at, by number: the runner's, or a broken one it
    let go of (closed, perhaps not loaded since a restart), read from its log."""
    numbers = {r.table for r in records if isinstance(r, HandStarted)} | set(runner.ports)
    service = runner.service
    out: list[tuple[int, Table]] = []
    for number in sorted(numbers):
        port = runner.ports.get(number)
        tid = table_id(runner.tournament, number)
        table = port.table if port is not None else service.get(tid)
        if table is None:
            state = await load(service.store, tid)
            table = Table(state, service.store, NullPresenter(), service.time)
        out.append((number, table))
    return out


async def hand_files(runner: Runner, event: str) -> list[tuple[str, str]]:
    """Every finished hand of the tournament's tables as (file name, PHH text), the
    spectator's copy with the tournament's fields, table by table, hand by hand."""
    records = await runner.journal.records()
    levels = levels_by_hand(records)
    entries = entries_by_hand(runner.st, records)
    schedule = runner.st.config.schedule
    out: list[tuple[str, str]] = []
    for number, table in await tables(runner, records):
        view = table.snapshot(None)
        last = view.hand_no - (1 if view.in_hand else 0)
        for hand in range(1, last + 1):
            text = await table.hand_history(hand, names=entries.get((number, hand), {}))
            index = levels.get((number, hand))
            extra = [
                f"event = {_toml(event)}",
                f"table = {number}",
                f"hand = {hand}",
                f"_table_id = {_toml(table.table_id)}",
            ]
            if index is not None:
                extra.append(f"level = {schedule.level_number(index)}")
            out.append((f"table{number}-hand{hand:04d}.phh", text + "\n".join(extra) + "\n"))
    return out
