"""Tournaments at the terminal played as players and hosts play them: what each line
says and in which order, a waiting table told once, a player's cards and options, bad
amounts refused with nothing changed, the help naming the tournament, and the hands'
export replaying with no unshown card (R-19.71)."""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.local.words import Words
from bot.poker.messages import Chips, Count, Msg, Name, Number, msg
from bot.poker.phh import replay_file
from bot.table.ports import NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament import balance as balancing
from bot.tournament.balance import Plan
from bot.tourney_run.runner import Runner
from bot.words import SUPPORTED, render
from cards_art.tourney_standings import (
    Finisher,
    StandingsView,
    draw_standings,
    row_name,
    standings_alt,
)
from cards_art.words import Words as ArtWords
from tests.test_local_terminal_tourney import _run
from tests.test_tourney_run import _config


def _en(key: str, **params: Chips | Count | Name | Number) -> str:
    return render(msg(key, **params), "en")


def _waits(table: int) -> Msg:
    return msg("tournament.table_waits", table=Number(table))


async def test_R_19_81_a_waiting_table_is_told_once_while_its_wait_lasts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The balancing plan is made after every hand at any table; table 2 halted by
    three plans in a row is told once; halted again after a plan that freed it, it is
    told again."""
    store = await open_store(str(tmp_path / "t.sqlite3"))
    service = TableService(store, NullPresenter(), seed="qa")
    runner = Runner(service, "weekly")
    await runner.create(_config())
    for n in range(18):
        await runner.register(f"p{n}", f"Player {n}")
    assert (await runner.start()).ok
    halted: list[tuple[int, ...]] = [(2,), (2,), (2,), (), (2,), (1, 2)]

    def plan(*_: object, **__: object) -> Plan:
        tables = halted.pop(0)
        return Plan(halted=tables, notices=tuple(_waits(n) for n in tables))

    monkeypatch.setattr(balancing, "plan", plan)
    try:
        for _ in range(6):
            await runner.balance()
        told = [m.get("table") for m in runner.notices if m.key == "tournament.table_waits"]
        assert told == [Number(2), Number(2), Number(1)]
        assert runner.halted == frozenset({1, 2})  # the wait itself holds all along
        runner.check_chips()
        assert runner.chips_at_tables() == 18 * 1000 == runner.st.chips
    finally:
        await service.stop()
        await store.close()


async def test_R_19_82_seats_are_said_once_after_the_start_that_drew_them(
    tmp_path: Path,
) -> None:
    """alice types at a sit-and-go of three, all in every hand, to its end: every
    registration, then the start, then each player's seat once; the table's own "moves
    in" line never repeats it, no seat is told before the registration that filled the
    event, and nobody out (nor the last one standing up at the end) is told as moving to
    another table."""
    argv = ["--tournament", "sng", "--players", "3", "--seed", "5", "--clock", "0", "alice"]
    code, text = await _run(tmp_path, argv, "alice: all in\n" * 40)
    assert code == 0, text[-1500:]  # played to its end
    lines = text.splitlines()
    words = Words()
    start = _en("tournament.started", count=Count(3), tables=Number(1))
    assert start in lines, text[:1500]
    registered = [i for i, ln in enumerate(lines) if ln.endswith(("player).", "players)."))]
    assert len(registered) == 3 and max(registered) < lines.index(start), text[:1500]
    names = ["alice", *(words("tourney.robot", number=n) for n in (1, 2))]
    for name in names:
        seated = [ln for ln in lines if re.fullmatch(rf"{re.escape(name)}: table 1, seat \d\.", ln)]
        assert len(seated) == 1, (name, text[:1500])
        assert lines.index(seated[0]) > lines.index(start)
    moved_in = render(
        msg("deal.moved_in", who=Name("alice"), seat=Number(1), amount=Chips(1500)), "en"
    )
    assert " moves in at seat " in moved_in  # what is looked for is the line's shape
    assert " moves in at seat " not in text, text[:1500]
    moved_out = render(msg("deal.moved_out", who=Name("alice"), amount=Chips(0)), "en")
    assert " moves to another table with " in moved_out
    assert " moves to another table with " not in text, text[-1500:]


async def test_R_19_83_cards_shows_the_options_on_his_turn_as_the_prompt_says(
    tmp_path: Path,
) -> None:
    argv = ["--tournament", "sng", "--players", "3", "--seed", "1", "--clock", "0", "alice"]
    _, text = await _run(tmp_path, argv, "alice: cards\nalice: fold\n")
    prompt = Words()("prompt.turn", name="alice", clock="")
    assert prompt in text, text[:2000]
    (answer,) = [ln for ln in text.splitlines() if ln.startswith("alice: ") and "|" in ln]
    cards, options = answer.removeprefix("alice: ").split(" | ")
    assert re.fullmatch(r"[2-9TJQKA][shdc] [2-9TJQKA][shdc]", cards), answer
    assert options.startswith(Words()("cards.options", options="")), answer
    assert "fold" in options and ("call" in options or "check" in options), answer


async def test_R_19_83_bad_amounts_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """``-5``, ``1e9``, ``abc`` as an amount (and alone) are refused, each with what is
    allowed; the turn stays hers and her next action is taken as if they never came."""
    bad = ["raise -5", "raise 1e9", "bet abc", "-5", "1e9", "abc", "raise to 0"]
    script = "".join(f"alice: {b}\n" for b in bad) + "alice: fold\n"
    argv = ["--tournament", "sng", "--players", "3", "--seed", "1", "--clock", "0", "alice"]
    _, text = await _run(tmp_path, argv, script)
    refusals = [ln for ln in text.splitlines() if ln.startswith("! alice: ")]
    assert len(refusals) == len(bad), "\n".join(refusals)
    for refusal in refusals:
        assert "Traceback" not in refusal and len(refusal) < 600, refusal
    assert "  alice folds" in text.splitlines()
    # The hand went on with her fold: nobody acted in her place while she mistyped.
    before = text.split(refusals[0], 1)[0].splitlines()
    after_all = text.split(refusals[-1], 1)[1].splitlines()
    assert after_all[1] == "  alice folds", after_all[:3]
    assert not any(ln == "  alice folds" for ln in before)


def test_R_19_82_the_help_names_the_tournament() -> None:
    err = io.StringIO()
    assert bot_main(["--help"], err=err) == 0
    said = err.getvalue()
    assert "--tournament sng|mtt" in said and "--robots" in said, said
    assert "python -m bot --local --help" in said  # where the options are told
    err = io.StringIO()
    assert bot_main(["--tournamnet"], err=err) == 2
    assert "--tournament sng|mtt" in err.getvalue()


async def test_R_19_71_a_stud_event_with_bounties_exports_hands_that_replay(
    tmp_path: Path,
) -> None:
    """Robots play a stud sit-and-go of five with bounties to its end; every hand's
    PHH replays to its finishing stacks; a card is written only where its player
    showed it at the showdown (the spectator's copy: ``??`` otherwise)."""
    folder = tmp_path / "out"
    argv = ["--tournament", "sng", "--players", "5", "--game", "stud", "--robots"]
    argv += ["--seed", "4", "--bounty", "20", "--export", str(folder)]
    code, text = await _run(tmp_path, argv)
    assert code == 0, text[-1500:]
    files = sorted((folder / "hands").glob("*.phh"))
    assert files, text[-500:]
    for path in files:
        result = replay_file(path)
        assert result["ok"] and result["match"], (path.name, result)
        body = path.read_text()
        shown = set(re.findall(r'"p(\d+) sm ', body))
        dealt: dict[str, list[str]] = {}
        for seat, cards in re.findall(r'"d dh p(\d+) ([^"]+)"', body):
            dealt.setdefault(seat, []).append(cards)
        for seat, streets in dealt.items():
            if seat in shown:
                continue
            # Stud: two cards down, four up one by one, the last down; only the up
            # cards are public.
            down = [streets[0], *streets[5:6]]
            assert all(set(c) == {"?"} for c in down), (path.name, seat, streets)
    csv = (folder / "results.csv").read_text().splitlines()
    assert len(csv) == 1 + 5
    # every bounty is paid, the winner's own included.
    assert sum(int(row.split(",")[3]) for row in csv[1:]) == 5 * 20


def test_R_19_86_names_the_fonts_cannot_draw_are_told_apart_by_their_row() -> None:
    """Two finishers whose names the shipped fonts cannot draw (Chinese, Korean) are
    "Player 1" and "Player 2" in the picture, each in the reader's language;
    a drawable name is drawn as typed; the alt text keeps every name as typed. A big
    field with shared places and long names draws in every language."""
    cjk = Finisher(1, 1, "李小龍", 500)
    korean = Finisher(2, 2, "김민수", 300)
    plain = Finisher(3, 3, "Zoë", 0)
    for lang in SUPPORTED:
        w = ArtWords(lang)
        names = [row_name(w, f, row) for row, f in enumerate((cjk, korean, plain), start=1)]
        assert names[0] == w("art.player.row", row=Number(1))
        assert names[1] == w("art.player.row", row=Number(2))
        assert names[0] != names[1] and names[2] == "Zoë"
    rows = [cjk, korean, plain]
    for n in range(4, 47, 3):
        rows += [Finisher(n, n + 2, f"{'Ω' * 28}{n:04d}", 0, 10) for _ in range(3)]
    view = StandingsView("Sonntagsturnier " * 8, datetime.date(2026, 11, 27), 48, 4800, tuple(rows))
    for lang in SUPPORTED:
        image = draw_standings(view, locale=lang)
        assert image.size[0] == 900 and image.size[1] > 30 * 34
        alt = standings_alt(view, locale=lang)
        assert "李小龍" in alt and "김민수" in alt and alt.count("Ω" * 28) == 48 - 3
