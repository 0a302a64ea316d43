"""A re-entry told apart from its player's first entry (R-19.59): "Player 3 #2" in the
tournament's notices, the final standings (lines, picture, alt text), the results CSV
and the PHH export, as a typed message (``results.entry``: the name and the number);
at the table the player still sits under his own name (R-19.90)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.poker.messages import Msg, Name, Number, msg
from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament.director import Entry, State
from bot.tournament.log import Out
from bot.tournament.structure import Config, Entries, preset
from bot.tourney_run.results import hand_files, results, results_csv
from bot.tourney_run.robots import play
from bot.tourney_run.runner import Runner
from bot.words import render
from bot.words.locales import SUPPORTED
from cards_art.tourney_standings import render_standings, standings_alt
from cogs.tourney_board import standing_lines, standings_view


def _config() -> Config:
    return Config(
        buy_in=100,
        stack=1000,
        schedule=preset("turbo", 1000, unit="hands"),
        seats=6,
        entries=Entries(late_until=4, reentries=2, bounty=20),
    )


def _second(name: str) -> Msg:
    return msg("results.entry", name=Name(name), number=Number(2))


def _players(m: Msg) -> list[object]:
    return [v for k, v in m.params if k in ("player", "victim", "first", "second")]


def test_R_19_59_an_entry_is_named_with_its_number_among_its_players() -> None:
    """R-19.59: a player's first entry is his name; his re-entries his name with the
    entry's number among his own (not the registration order), in every language."""
    state = State(
        Config(),
        entries=(
            Entry("alice", "alice", "Alice", 1, 100),
            Entry("bob", "bob", "Bob", 2, 100),
            Entry("alice#2", "alice", "Alice", 3, 100),
            Entry("alice#3", "alice", "Alice", 4, 100),
        ),
    )
    named = state.entry_names()
    assert named["alice"] == Name("Alice") and named["bob"] == Name("Bob")
    assert named["alice#2"] == _second("Alice")
    assert named["alice#3"] == msg("results.entry", name=Name("Alice"), number=Number(3))
    assert state.names()["alice#2"] == "Alice"  # the table's name for him
    for locale in SUPPORTED:
        text = render(_second("Alice"), locale)
        assert "Alice" in text and "2" in text and "{" not in text, (locale, text)
    assert render(_second("Alice"), "en") == "Alice #2"


async def test_R_19_59_a_reentry_is_told_apart_everywhere_the_tournament_names_it(
    tmp_path: Path,
) -> None:
    """R-19.59, R-19.90, R-2.5: robots play a re-entry tournament to its end; a player
    out and back in is "Player N #2" in the seat, out, bounty and winner notices, the
    standings, the CSV (every language), the picture's alt text and the hands his
    re-entry played (PHH), and "Player N" for his first entry; his seat at the table
    keeps his own name; chips constant."""
    store = await open_store(str(tmp_path / "names.sqlite3"))
    service = TableService(store, NullPresenter(), seed="names")
    runner = Runner(service, "weekly", rng=random.Random(7))
    assert (await runner.create(_config())).ok
    for n in range(8):
        assert (await runner.register(f"p{n}", f"Player {n}")).ok
    assert (await runner.start()).ok
    again: dict[str, str] = {}

    async def after(_number: int, outs: list[Out]) -> None:
        runner.check_chips()
        for out in outs:
            e = runner.st.entry(out.entry)
            assert e is not None
            if e.player in again or not runner.st.registration_open:
                continue
            if (await runner.register(e.player, e.name)).ok:
                again[e.player] = e.name
                table, seat = runner.st.seats[f"{e.player}#2"]
                # at the table he sits under his own name.
                assert runner.table(table).state.seats[seat].name == e.name

    await play(runner, random.Random(7), after)
    state = runner.st
    assert state.status == "finished" and again, "somebody busted and re-entered"
    runner.check_chips()
    player, name = next(iter(again.items()))
    said = [p for m in runner.notices for p in _players(m)]
    assert _second(name) in said and Name(name) in said
    for m in runner.notices:
        if _second(name) in _players(m):
            for locale in SUPPORTED:
                text = render(m, locale)
                assert render(_second(name), locale) in text and "{" not in text, (m.key, text)
    seat_notices = [m for m in runner.notices if m.key == "tournament.seat"]
    assert any(dict(m.params)["player"] == _second(name) for m in seat_notices)
    # The standings: both entries, apart.
    # With bounties each line wraps the place line: its player is inside.
    inner = [dict(m.params).get("line", m) for m in standing_lines(state)]
    lines = [dict(m.params)["player"] for m in inner if isinstance(m, Msg)]
    assert len(lines) == len(state.finishes)
    assert lines.count(_second(name)) == 1 and lines.count(Name(name)) == 1
    rows = {r.entry: r for r in results(state)}
    assert rows[f"{player}#2"].named() == f"{name} #2" and rows[player].named() == name
    for locale in SUPPORTED:
        csv = results_csv(list(rows.values()), locale)
        assert render(_second(name), locale) in csv
    view = standings_view("Weekly", state, 0.0)
    assert sum(1 for f in view.finishers if f.name == name and f.entry == 2) == 1
    assert f"{name} #2" in standings_alt(view, locale="en")
    assert render_standings(view, locale="de").data
    # The hands: the re-entry's as "Name #2", the first entry's as "Name".
    files = [text for _, text in await hand_files(runner, "Weekly")]
    assert any(f'"{name} #2"' in text for text in files)
    assert any(f'"{name}"' in text for text in files)
    await store.close()
