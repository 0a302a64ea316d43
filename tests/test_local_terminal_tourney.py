"""Tournaments at the terminal (``python -m bot --tournament sng|mtt``): a sit-and-go
and a two-table freezeout played by robots to a winner, one typed by a player among
robots, the same seed playing the same tournament, and the exports (R-19.70, R-19.71):
every hand in PHH (replayed by the engine to its finishing stacks, no card nobody was
shown, the level's stakes and the table), the results as CSV read back with ``csv``."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.local.terminal import parse_args, run
from bot.local.tourney import Tourney, config_from_args
from bot.local.words import Words
from bot.poker.messages import Chips, Count, Name, Number, Param, Rule, msg
from bot.poker.phh import replay_file
from bot.table.ports import open_store
from bot.tournament.structure import Config, preset
from bot.tourney_run.games import refusal
from bot.tourney_run.journal import journal_id
from bot.tourney_run.results import hand_files
from bot.tourney_run.stakes import table_id
from bot.words import Locale, render
from bot.words.catalog import read_catalog


async def _run(tmp_path: Path, argv: list[str], lines: str = "") -> tuple[int, str]:
    out = io.StringIO()
    db = ["--db", str(tmp_path / "t.sqlite3")]
    code = await run([*db, *argv], inp=io.StringIO(lines), out=out)
    return code, out.getvalue()


def _en(key: str, **params: Param) -> str:
    return render(msg(key, **params), "en")


def _standings(text: str) -> list[str]:
    head = Words()("tourney.standings", title=Words()("tourney.title.sng"))
    assert head in text, text[-2000:]
    return [ln for ln in text.split(head, 1)[1].splitlines() if ln.startswith("  ")]


def _places_complete(places: list[str], entries: int) -> None:
    """R-19.34: best first; a shared place ``a–b`` is held by exactly b - a + 1
    entries; together they are 1 to ``entries``, each once."""
    spans = [
        tuple(int(p) for p in place.rstrip(".").replace(".", "").split("–")) for place in places
    ]
    covered: list[int] = []
    for span in dict.fromkeys(spans):
        first, last = span[0], span[-1]
        assert spans.count(span) == last - first + 1, places
        covered += range(first, last + 1)
    assert covered == list(range(1, entries + 1)), places


async def test_r19_70_a_sit_and_go_played_by_robots_to_a_winner(tmp_path: Path) -> None:
    """Six robots to one winner: the start, levels rising, each hand's result lines,
    each elimination, the winner once, and the standings: every entry once, places 1 to
    6, prizes summing exactly to the pool (R-19.22)."""
    argv = ["--tournament", "sng", "--players", "6", "--robots", "--seed", "3"]
    code, text = await _run(tmp_path, argv)
    assert code == 0
    assert _en("tournament.level_no_ante", level=Number(2), small=Chips(22), big=Chips(45)) in text
    table = Words()("tourney.table", table=1)
    heads = [ln for ln in text.splitlines() if ln.startswith(f"{table} Hand #")]
    assert len(heads) > 5
    rows = _standings(text)
    assert len(rows) == 6
    robots = {Words()("tourney.robot", number=n) for n in range(1, 7)}
    assert {next(r for r in robots if f" {r}:" in row) for row in rows} == robots
    _places_complete([row.split()[0] for row in rows], 6)
    prizes = [int(re.findall(r"prize ([\d,]+)", row)[0].replace(",", "")) for row in rows]
    assert sum(prizes) == 600 and prizes[0] > prizes[1] > 0
    winner = next(r for r in robots if f" {r}:" in rows[0])
    assert text.count(_en("tournament.winner", player=Name(winner))) == 1
    assert sum(text.count(_en("tournament.winner", player=Name(r))) for r in robots) == 1


async def test_r19_70_the_same_seed_plays_the_same_tournament(tmp_path: Path) -> None:
    argv = ["--tournament", "sng", "--players", "4", "--robots", "--seed", "11"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, first = await _run(tmp_path / "a", argv)
    _, again = await _run(tmp_path / "b", argv)
    assert first == again
    _, other = await _run(tmp_path / "a", [*argv[:-1], "12"])
    assert other != first


async def test_r19_33_a_two_table_freezeout_moves_players_to_the_final_table(
    tmp_path: Path,
) -> None:
    """Twelve robots on two tables: moves, the final table announced once, a winner,
    every chip still in play at the end (R-2.5) and none in the cash ledger."""
    args = parse_args(["--tournament", "mtt", "--players", "12", "--robots", "--seed", "5"])
    words = Words()
    config = config_from_args(args, 0, words)
    assert not isinstance(config, str)
    out = io.StringIO()
    store = await open_store(str(tmp_path / "m.sqlite3"))
    tourney = Tourney(args, out, words)
    try:
        await tourney.open(store, config)
        assert sorted(tourney.run.ports) == [1, 2]

        async def nothing() -> str | None:
            raise AssertionError("robots only: nobody is asked for a line")

        assert await tourney.play(nothing)
        state = tourney.run.st
        assert state.status == "finished" and len(state.finishes) == 12
        tourney.run.check_chips()
        assert tourney.run.chips_at_tables() == 12 * 1500 == state.chips
        for number in state.table_hands:
            assert await store.ledger_rows(table_id(tourney.run.tournament, number)) == []
        text = out.getvalue()
        finals = [
            _en("tournament.final_table", count=Count(n), table=Number(t))
            for n in range(2, 10)
            for t in (1, 2)
        ]
        assert sum(text.count(f) for f in finals) == 1
        moved = re.escape(_en("tournament.move", player=Name("@"), table=Number(1), seat=Number(9)))
        moved = moved.replace("@", ".+").replace("1", r"\d").replace("9", r"\d+")
        assert re.search(moved, text), "players moved to balance or break"
        # the hands of a broken table are exported even once the runner has
        # let it go and a restart did not load it (closed, R-19.52).
        every = await hand_files(tourney.run, "x")
        broken = sorted(tourney.run.st.broken)
        assert broken and any(name.startswith(f"table{broken[0]}-") for name, _ in every)
        for n in broken:
            tourney.run.ports.pop(n, None)
            tourney.service.tables.pop(table_id(tourney.run.tournament, n), None)
        assert await hand_files(tourney.run, "x") == every
    finally:
        assert tourney.service is not None
        await tourney.service.stop()
        await store.close()


async def test_r19_71_exports_replay_and_show_no_unshown_card(tmp_path: Path) -> None:
    """--export: one PHH file per hand, each replayed by the engine to its finishing
    stacks, with the event, the table, the hand and its level (its blinds those of the
    level), and no hole card but those shown at the showdown; results.csv read back
    with csv: a header in the reader's language, one row per entry, prizes summing to
    the pool; the standings picture beside them."""
    folder = tmp_path / "export"
    argv = ["--tournament", "sng", "--players", "5", "--robots", "--seed", "4"]
    argv += ["--bounty", "20", "--export", str(folder), "--lang", "de"]
    code, text = await _run(tmp_path, argv)
    assert code == 0
    files = sorted((folder / "hands").glob("*.phh"))
    assert (
        files
        and Words("de")("tourney.exported", hands=Count(len(files)), folder=str(folder)) in text
    )
    schedule = preset("turbo", 1500, unit="hands")
    for path in files:
        result = replay_file(path)
        assert result["ok"] and result.get("match") is True, (path.name, result)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data["table"] == 1 and data["event"] == Words("de")("tourney.title.sng")
        assert data["_table_id"].startswith("tn:") and data["_table_id"].endswith(":1")
        assert path.name == f"table1-hand{data['hand']:04d}.phh"
        level = schedule.level(data["level"] - 1)
        assert data["blinds_or_straddles"] == [level.small, level.big], path.name
        assert sum(data["starting_stacks"]) == sum(data["finishing_stacks"])
        shown = {
            a.split()[0]: a.split()[2] for a in data["actions"] if re.fullmatch(r"p\d+ sm \S+", a)
        }
        for action in data["actions"]:
            dealt = re.fullmatch(r"d dh (p\d+) (\S+)", action)
            if dealt:
                player, cards = dealt.groups()
                assert cards == "?" * len(cards) or shown.get(player) == cards, (path.name, action)
    with (folder / "results.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    header = [
        render(msg(k), "de")
        for k in (
            "results.col.place",
            "results.col.name",
            "results.col.prize",
            "results.col.bounties",
            "results.col.entries",
        )
    ]
    assert rows[0] == header
    body = rows[1:]
    assert len(body) == 5 and len({r[1] for r in body}) == 5
    _places_complete([r[0] for r in body], 5)
    assert sum(int(r[2]) for r in body) == 5 * 80  # the pool: buy-ins less bounties
    assert sum(int(r[3]) for r in body) == 5 * 20  # every bounty paid
    assert all(r[4] == "1" for r in body)
    assert (folder / "standings.png").read_bytes().startswith(b"\x89PNG")


async def test_r19_70_a_player_types_his_actions_among_robots(tmp_path: Path) -> None:
    """alice types (the words players use, refusals answered and nothing changed);
    robots take the other seats; she only sees her cards when she asks; the standings
    place her."""
    lines = ["alice: cards", "alice: raise banana", "bob: call", "status", "table"]
    cycle = ["alice: raise 40", "alice: call", "alice: all in", "alice: fold"]
    lines += cycle[:2] + [f"export {tmp_path / 'mid'}"] + cycle * 300
    argv = ["--tournament", "sng", "--players", "3", "--seed", "2", "alice"]
    code, text = await _run(tmp_path, argv, "\n".join(lines) + "\n")
    assert code == 0, text[-3000:]
    rows = _standings(text)
    assert len(rows) == 3 and sum(" alice:" in row for row in rows) == 1
    assert Words()("tourney.who", names="alice") in text
    # a player with no chips is out of the tournament, not sitting out until
    # he buys in again (R-1.9 is the cash table's).
    for name in ["alice", *(Words()("tourney.robot", number=n) for n in (1, 2))]:
        cash_words = _en("table.broke_sits_out", who=Name(name), rule=Rule("R-1.9"))
        assert cash_words not in text
    refusals = [ln for ln in text.splitlines() if ln.startswith("! alice:")]
    assert len(refusals) >= 1 and "banana" in refusals[0]  # "raise banana", said once
    assert sum("banana" in ln for ln in refusals) == 1
    # Her cards, and on her turn what she may do.
    assert re.search(r"^alice: [2-9TJQKA][shdc] [2-9TJQKA][shdc]( \| .+)?$", text, re.M)
    # export DIR while it is played: the hands so far; the results come at the end.
    mid = sorted((tmp_path / "mid" / "hands").glob("*.phh"))
    said = Words()("tourney.exported_hands", hands=Count(len(mid)), folder=str(tmp_path / "mid"))
    assert said in text and not (tmp_path / "mid" / "results.csv").exists()
    assert (
        _en("tournament.status.players", count=Count(3), entries=Number(3), average=Chips(1500))
        in text
    )


async def test_r19_70_bad_tournament_options_exit_2_and_say_what_is_allowed(
    tmp_path: Path,
) -> None:
    code, text = await _run(tmp_path, ["--tournament", "sng", "--players", "11", "--robots"])
    assert code == 2 and Words()("tourney.players_none", low=2, high=10) in text
    code, text = await _run(tmp_path, ["--tournament", "sng", "--game", "guts", "--robots"])
    assert code == 2 and Words()("tourney.game", game="guts") in text
    # stud deals to eight at most, so a ten-seat stud sit-and-go is refused.
    argv = ["--tournament", "sng", "--game", "stud", "--players", "10", "--robots"]
    code, text = await _run(tmp_path, argv)
    too_many = refusal(Config(game=("stud",), seats=10))
    assert too_many is not None and too_many.key == "rotation.too_many_seats"
    assert code == 2 and render(too_many, "en") in text, text
    code, text = await _run(tmp_path, ["--tournament", "sng", "x" * 200])
    assert code == 2 and "Traceback" not in text and "x" * 20 in text
    code, text = await _run(tmp_path, ["--tournament", "sng", "--bounty", "500", "--robots"])
    assert code == 2 and Words()("tourney.money", buy_in=100) in text
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = await run(["--db", str(tmp_path / "c.sqlite3"), "--robots"], io.StringIO(), out)
    assert code == 2 and Words()("args.robots") in err.getvalue()


def _english_pieces() -> set[str]:
    """The English sentences of the catalogues a terminal tournament speaks (terminal,
    tournament, results), cut at their parameters: pieces of two words or more."""
    out: set[str] = set()
    for domain in ("terminal", "tournament", "results"):
        for m in read_catalog("en", domain):
            if not m.id or m.id == "terminal.help":
                continue
            texts = m.string if isinstance(m.string, tuple) else (m.string,)
            for text in texts:
                for piece in re.split(r"\{[a-z_]+\}", str(text)):
                    piece = piece.strip(" .,:()|=!")
                    if len(piece.split()) >= 2 and len(piece) >= 8 and "`" not in piece:
                        out.add(piece)
    return out


@pytest.mark.parametrize("lang", ["ru", "de"])
async def test_r19_70_a_tournament_in_russian_says_nothing_in_english(
    tmp_path: Path, lang: Locale
) -> None:
    """--lang ru (and de): the director's notices, the hands' lines, the standings and
    the export's words are Russian (German); no English sentence of the catalogues is
    printed."""
    argv = ["--tournament", "sng", "--players", "4", "--robots", "--seed", "9", "--lang", lang]
    argv += ["--export", str(tmp_path / "ex")]
    code, text = await _run(tmp_path, argv)
    assert code == 0
    say = Words(lang)
    assert say("tourney.standings", title=say("tourney.title.sng")) in text
    assert say("tourney.table", table=1) in text and say("tourney.robot", number=4) in text
    winners = [say("tourney.robot", number=n) for n in range(1, 5)]
    said = [render(msg("tournament.winner", player=Name(w)), lang) for w in winners]
    assert sum(text.count(s) for s in said) == 1
    leaked = [piece for piece in _english_pieces() if piece in text]
    assert not leaked, leaked
    assert re.search("[а-я]" if lang == "ru" else "Tisch|Turnier", text)


async def test_r19_40_a_killed_terminal_tournament_resumes_from_the_file(tmp_path: Path) -> None:
    """The terminal stopped mid-tournament (the service dropped, nothing said): the
    next start on the same file carries the tournament on from its journal and tables
    to one winner, every entry placed once and every chip still in play (R-2.5)."""
    db = tmp_path / "t.sqlite3"
    argv = ["--tournament", "sng", "--players", "5", "--robots", "--seed", "8"]
    args = parse_args(["--db", str(db), *argv])
    config = config_from_args(args, 0, Words())
    assert not isinstance(config, str)
    store = await open_store(str(db))
    first = Tourney(args, io.StringIO(), Words())
    await first.open(store, config)
    for _ in range(150):
        await first.step()
    state = first.run.st
    assert state.status == "running" and state.table_hands
    hands = sum(state.table_hands.values())
    assert first.service is not None
    await first.service.stop()
    await store.close()

    code, text = await _run(tmp_path, argv)
    assert code == 0
    said = Words()(
        "tourney.resumed",
        title=Words()("tourney.title.sng"),
        left=Count(len(state.seats)),
        entries=5,
    )
    assert text.startswith(said), text[:300]
    rows = _standings(text)
    assert len(rows) == 5
    _places_complete([row.split()[0] for row in rows], 5)
    heads = re.findall(r"Hand #(\d+):", text)
    assert heads and int(heads[0]) >= hands, "the hands carried on, not from #1"


def test_r19_70_python_m_bot_tournament_is_the_terminal(tmp_path: Path) -> None:
    """``python -m bot --tournament ...`` needs no --local and no token: the terminal
    plays the tournament to its standings."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    argv = ["--tournament", "sng", "--players", "3", "--robots", "--seed", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "bot", *argv, "--db", str(tmp_path / "p.sqlite3")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(_standings(done.stdout)) == 3


async def test_r19_40_quit_stops_the_tournament_and_a_new_start_carries_it_on(
    tmp_path: Path,
) -> None:
    """`quit` while alice must act: exit 1, saying how to carry on; the next start on
    the file resumes the same tournament (not a new one) and plays it to its end."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "6", "alice"]
    code, text = await _run(tmp_path, argv, "alice: cards\nquit\n")
    assert code == 1 and Words()("tourney.stopped") in text
    code, text = await _run(tmp_path, argv, "alice: fold\n" * 500)
    assert code == 0
    resumed = Words()(
        "tourney.resumed", title=Words()("tourney.title.sng"), left=Count(3), entries=3
    )
    assert text.startswith(resumed)
    assert len(_standings(text)) == 3
    store = await open_store(str(tmp_path / "t.sqlite3"))
    try:
        assert await store.events(journal_id("local-tourney-1"))
        assert not await store.events(journal_id("local-tourney-2")), "one tournament"
    finally:
        await store.close()


async def test_r19_50_a_horse_sit_and_go_at_the_terminal(tmp_path: Path) -> None:
    """R-19.50, R-19.27: ``--game horse`` deals the rotation to a winner: stud deals and
    hold'em deals are both told, places complete."""
    argv = ["--tournament", "sng", "--players", "6", "--game", "horse", "--robots", "--seed", "5"]
    code, text = await _run(tmp_path, argv)
    assert code == 0, text[-2000:]
    _places_complete([r.split()[0] for r in _standings_of(text, "sng")], 6)
    for game in ("Texas hold'em", "Omaha hi-lo", "Razz", "Seven-card stud"):
        assert game in text, game


def _standings_of(text: str, fmt: str) -> list[str]:
    head = Words()("tourney.standings", title=Words()(f"tourney.title.{fmt}"))
    assert head in text, text[-2000:]
    return [ln for ln in text.split(head, 1)[1].splitlines() if ln.startswith("  ")]
