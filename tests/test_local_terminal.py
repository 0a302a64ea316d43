"""The local terminal table in scripted mode (stdin), and ``python -m bot`` fallback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bot.config import Config
from bot.local.terminal import run

ROOT = Path(__file__).resolve().parents[1]


async def _script(tmp_path: Path, lines: list[str], *players: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    code = await run(["--db", str(tmp_path / "l.sqlite3"), *players], inp=inp, out=out)
    assert code == 0
    return out.getvalue()


async def test_scripted_hand_and_private_cards_only_on_request(tmp_path: Path) -> None:
    text = await _script(tmp_path, ["deal", "table"], "alice", "bob")
    assert "alice sits in seat 1" in text and "bob sits in seat 2" in text
    assert "Hand #1" in text
    # Nobody's hole cards were printed: only "??" or nothing.
    table_part = text.split("== local")[-1]
    assert "??" in table_part
    text = await _script(tmp_path, ["alice: cards"])
    assert text.startswith("resumed: ")
    line = next(ln for ln in text.splitlines() if ln.startswith("alice: "))
    cards = line.split(":", 1)[1].split("|")[0].split()
    assert len(cards) == 2 and "??" not in cards


async def test_scripted_actions_and_errors(tmp_path: Path) -> None:
    text = await _script(tmp_path, ["deal"], "a", "b", "c")
    lines = ["a: bet 1e9", "zed: call", "frobnicate", "history 7"]
    text = await _script(tmp_path, lines)
    assert "not an amount" in text or "not your turn" in text.lower()
    assert "not seated" in text
    assert "Unknown command" in text
    assert "no finished hand #7" in text


async def test_killed_game_resumes_from_the_file(tmp_path: Path) -> None:
    await _script(tmp_path, ["deal"], "a", "b")
    text = await _script(tmp_path, ["table"])
    assert text.startswith("resumed: ") and "conservation: ok" in text
    assert "hand #1 | betting" in text


def test_config_reads_dotenv_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nCHIPFIST_DB=x.sqlite3\n")
    cfg = Config.load(env={}, dotenv=env_file)
    assert cfg.discord_token == "abc" and cfg.database == "x.sqlite3"
    cfg = Config.load(env={"DISCORD_TOKEN": ""}, dotenv=env_file)
    assert cfg.discord_token is None


def test_r16_4_robot_discards_only_its_own_cards_within_the_draw_limit() -> None:
    import random

    from bot.local.robot import pick
    from bot.poker.legal import Legal

    legal = Legal(0, frozenset({"draw"}), 0, 0, 0, 100, 10, None, None, 1, False, draw_max=3)
    mine = ("As", "Kd", "7c", "4h", "2s")
    rng = random.Random(1)
    sizes = set()
    for _ in range(200):
        request = pick(legal, rng, mine)
        assert request.kind == "draw" and set(request.cards) <= set(mine)
        assert len(set(request.cards)) == len(request.cards) <= 3
        sizes.add(len(request.cards))
    assert sizes == {0, 1, 2, 3}  # stands pat sometimes, draws up to the limit otherwise


def test_r5_1_robot_never_goes_all_in_where_all_in_is_not_offered() -> None:
    import random

    from bot.local.robot import pick
    from bot.poker.legal import Legal

    # Fixed limit: call 1 or raise to exactly 4; "all in" is not among the actions.
    acts = frozenset({"call", "raise", "fold"})
    legal = Legal(0, acts, 1, 2, 1, 190, 3, 4, 4, 1, False)
    rng = random.Random(2)
    assert all(pick(legal, rng).kind != "all_in" for _ in range(500))


async def test_typos_are_answered_and_the_table_carries_on(tmp_path: Path) -> None:
    """QA: a bad seat or buy-in, a bad history number and an unknown game or option
    value are answered in words; no traceback, and the next line still works."""
    lines = ["alice: sit abc", "dave: sit 5 1e3", "history abc", "set variant=xyz"]
    lines += ["set declare=maybe", "set seats=abc", "deal", "table"]
    text = await _script(tmp_path, lines, "bob", "carol")
    assert "Traceback" not in text and "invalid literal" not in text
    assert "the seat and the buy-in are whole numbers" in text
    assert "N is a hand number" in text
    assert "no game called 'xyz'" in text
    assert "not a value for declare: it is one of: none, simultaneous, in_turn" in text
    assert "not a value for seats: it is a whole number" in text
    assert "Hand #1" in text  # the table carried on


async def test_refusals_are_printed_once(tmp_path: Path) -> None:
    text = await _script(tmp_path, ["set odd_chip=foo", "deal", "deal"], "a", "b")
    refusal = [ln for ln in text.splitlines() if "already being played" in ln]
    assert len(refusal) == 1, refusal
    odd_chip = "not a value for odd chip: it is one of"
    assert len([ln for ln in text.splitlines() if odd_chip in ln]) == 1


async def test_r6_2_string_raise_is_explained(tmp_path: Path) -> None:
    await _script(tmp_path, ["deal"], "a", "b", "c")
    # The first button is random: each says it in turn order until one is to act.
    text = await _script(tmp_path, [f"{p}: call and raise 200" for p in "abc"])
    assert text.count("a raise must be declared whole") >= 1


def test_bad_startup_arguments_exit_2_with_a_message(tmp_path: Path) -> None:
    for args in (["--game", "xyz"], ["--game", "holdem:bogus"], ["--blinds", "abc"]):
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "--local", "--db", str(tmp_path / "x.sqlite3"), *args],
            input="quit\n",
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "DISCORD_TOKEN": ""},
            timeout=60,
            check=False,
        )
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stderr.startswith("chipfist: ")


async def test_history_tells_the_hand_and_phh_gives_the_record(tmp_path: Path) -> None:
    lines = ["deal", *[f"{p}: fold" for p in "abcabc"], "history 1", "phh 1"]  # any button
    text = await _script(tmp_path, lines, "a", "b", "c")
    story = text.split("Hand #1: No-limit Texas hold'em, blinds 1/2.")[-1]
    assert "posts the small blind 1" in story and "folds" in story
    assert 'variant = "NT"' in text  # the PHH record
    # Nothing private in the story: nobody showed, so no hole card is named in it.
    assert "shows" not in story.split('variant = "NT"')[0]


async def test_r13_2_r15_2_robots_play_sealed_declarations_and_guts_through_views(
    tmp_path: Path,
) -> None:
    """R-13.2 (chip-fist declarations) and R-15.2 (Guts calls), where several players act
    at once: the robots find who may act from the players' own views (no TableState) and
    play every hand to its end, chips conserved (R-2.5)."""
    from bot.local.terminal import LocalTable, parse_args

    for game, setting in (("stud8:fixed", "set declare=simultaneous"), ("guts", "")):
        out = io.StringIO()
        db = str(tmp_path / f"{game[:4]}.sqlite3")
        args = parse_args(["--db", db, "--game", game, "--seed", "7", "a", "b", "c"])
        local = LocalTable(args, out)
        try:
            await local.start()
            if setting:
                await local.line(setting)
            await local.robots(6, 7)
            view = local.table.snapshot(None)
            assert view.hand_no >= 6 and not view.in_hand, out.getvalue()[-2000:]
            assert local.table.conservation_error() is None
            text = out.getvalue()
            sealed = "fists closed" if setting else "Calls made"
            assert sealed in text, text[-2000:]
            assert "Nobody may act" not in text and "CONSERVATION" not in text
        finally:
            await local.close()


async def test_new_opens_a_fresh_table_whose_history_1_is_its_own_and_the_file_restarts(
    tmp_path: Path,
) -> None:
    """`new` closes the table and opens another on its own log: its hands count from 1
    without colliding with the closed table's (`end:1`, `deal:1`), `history 1` tells the
    new table's first hand, and the file starts again afterwards (R-2.5 at each start)."""
    folds = [f"{p}: fold" for p in "abab"]  # any button: one of them folds
    await _script(tmp_path, ["deal", *folds, "new plo", "deal", *folds], "a", "b")
    text = await _script(tmp_path, ["history 1", "table"])
    assert text.startswith("resumed: ") and "conservation: ok" in text, text
    assert "Traceback" not in text and "DuplicateKey" not in text
    story = text.split("Hand #1:", 1)[1]
    assert story.lstrip().startswith("Pot-limit Omaha"), story  # the new table's hand 1
    assert "hand #1 | waiting" in text
    # Closed and new tables' chips: every chip bought is on a table or cashed out.
    text = await _script(tmp_path, ["new", "history 1", "ledger"])
    assert "conservation: ok" in text and "No hand has finished" not in text
    assert "no finished hand #1" in text and "No chips moved at this table yet." in text


def _terminal(
    tmp_path: Path, *args: str, stdin: str = "quit\n"
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


async def test_a_second_terminal_on_the_same_database_says_it_is_in_use(tmp_path: Path) -> None:
    """Two terminal tables on one file clashed with a traceback: the second says in one
    line that the database is in use and exits non-zero, writing nothing; once the first
    has stopped, the file opens again."""
    from bot.local.terminal import LocalTable, parse_args

    db = tmp_path / "l.sqlite3"
    first = LocalTable(parse_args(["--db", str(db), "a", "b"]), io.StringIO())
    assert await first.open_store() == ""
    await first.start()
    try:
        proc = _terminal(tmp_path, "--local", "--db", str(db), "c", stdin="c: sit\ndeal\nquit\n")
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "is in use by another terminal table or bot" in lines[0], lines
        assert "Traceback" not in proc.stderr and proc.stdout == ""
    finally:
        await first.close()
    text = await _script(tmp_path, ["table"])
    assert text.startswith("resumed: ") and " c " not in text  # c never sat


def test_cli_mistakes_are_one_line_and_exit_non_zero(tmp_path: Path) -> None:
    """`python -m bot frobnicate`, `--local --db` in a folder that does not exist, and
    `migrate-store` without asyncpg (or from a file that is no database) printed
    tracebacks or did something else: each is one line on stderr and a non-zero exit."""
    shim = tmp_path / "shim" / "asyncpg"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ImportError(\"No module named 'asyncpg'\")\n")
    made = _terminal(tmp_path, "--local", "--db", str(tmp_path / "m.sqlite3"), "a", "b")
    assert made.returncode == 0, made.stderr
    (tmp_path / "junk.sqlite3").write_text("not a database\n")
    pg = "postgresql://u@127.0.0.1:1/db"
    cases: list[tuple[list[str], dict[str, str], str]] = [
        (["frobnicate"], {}, "unknown command 'frobnicate'"),
        (["--frobnicate"], {}, "unknown option '--frobnicate'"),
        (["--force-sync", "now"], {}, "unknown command 'now'"),
        (["--local", "--db", "/no/such/dir/x.sqlite3"], {}, "the folder /no/such/dir does not"),
        (["--local", "--db", str(tmp_path)], {}, "is a folder; name a database file in it"),
        (
            ["migrate-store", "m.sqlite3", pg],
            {"PYTHONPATH": f"{tmp_path / 'shim'}{os.pathsep}{ROOT}"},
            "needs the asyncpg package",
        ),
        (["migrate-store", "junk.sqlite3", pg], {}, "is not a SQLite database"),
        (["migrate-store", "nothing.sqlite3", pg], {}, "there is no SQLite database"),
    ]
    for args, env, words in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            input="quit\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT), **env},
            timeout=60,
            check=False,
        )
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode != 0, (args, proc.stderr)
        assert "Traceback" not in proc.stderr, (args, proc.stderr)
        assert len(lines) == 1 and words in lines[0], (args, lines)
    assert not (tmp_path / "frobnicate").exists() and not list(tmp_path.glob("chipfist*"))


async def test_r2_2_sit_with_one_number_above_the_seats_is_the_buy_in(tmp_path: Path) -> None:
    """R-2.2: `alice: sit 100` at an eight-seat table means a buy-in of 100 (there is no
    seat 100), as does `sit with 80`; `sit 3` is still seat 3."""
    text = await _script(tmp_path, ["alice: sit 100", "bob: sit with 80", "carol: sit 3"])
    assert "alice sits in seat 1 with 100." in text
    assert "bob sits in seat 2 with 80." in text
    assert "carol sits in seat 3 with" in text
