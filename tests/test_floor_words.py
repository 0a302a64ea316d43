"""Issue 12, "words the dealer misreads": the terminal's line parser, the typed-action
parser, game names, amounts, names and the small words of the table's answers.

Each test names the rule it checks where there is one; the others name the issue item.
"""

from __future__ import annotations

import io
import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.local.terminal import LocalTable, parse_args, parse_settings, run
from bot.poker.events import CardsDealt
from bot.poker.legal import Legal
from bot.poker.messages import Count, Name, msg
from bot.table.errors import SettingsError
from bot.table.games import normalize_changes, split_game, split_rotation
from bot.table.notices import said as notice_said
from bot.table.session import PlayerStats, stats_said
from bot.table.settings import TableSettings, parse_game
from bot.table.settings_said import setting_said
from bot.table.text_actions import (
    MAX_NAME,
    ActionRequest,
    ParseError,
    check_name,
    parse_action,
    parse_amount,
    parse_value,
)
from bot.words import render
from tests.harness import Harness, told_story
from tests.said import en, parts, raises_saying

ROOT = Path(__file__).resolve().parents[1]


async def _script(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    code = await run(["--db", str(db), *args], inp=inp, out=out)
    assert code == 0
    return out.getvalue()


def _seated_to_act(text: str) -> str:
    picture = text.split("== local")[-1].splitlines()
    for ln in picture[1:]:
        if len(ln) > 4 and ln[2] == ">":
            return ln[4:].split()[1]
    raise AssertionError("nobody to act:\n" + "\n".join(picture))


# ---------------------------------------------------------------------- 6. stand pat


async def test_r16_4_stand_pat_in_a_draw_is_not_leaving(tmp_path: Path) -> None:
    """R-16.4 (a player may stand pat): `stand pat`, `pat` and `draw 0` keep the cards;
    none of them makes the player leave the table (issue 12, item 6)."""
    db = tmp_path / "d.sqlite3"
    text = await _script(db, ["deal", "table"], "--game", "draw5:fixed", "al", "bo", "cy")
    for _ in range(3):  # call, call, check: the draw
        who = _seated_to_act(text)
        text = await _script(db, [f"{who}: call", f"{who}: check", "table"])
    assert "| draw |" in text.split("== local")[-1].splitlines()[0], text
    for word in ("stand pat", "pat", "draw 0"):
        who = _seated_to_act(text)
        text = await _script(db, [f"{who}: {word}", "table"])
        assert f"{who} stands pat" in text, text
        assert "stands up" not in text and "leav" not in text, text
    # Nobody is leaving: after the hand all three are still seated.
    text = await _script(db, ["table"])
    picture = text.split("== local")[-1]
    assert all(f" {n} " in picture for n in ("al", "bo", "cy")), picture


async def test_r16_4_bare_stand_in_a_draw_asks_which_and_leave_is_unambiguous(
    tmp_path: Path,
) -> None:
    """R-16.4 / R-2.3: while holding draw cards, `stand` alone is answered with both
    meanings and changes nothing; `leave` (or `stand up`) leaves after the hand."""
    db = tmp_path / "d.sqlite3"
    await _script(db, ["deal"], "--game", "draw5:fixed", "al", "bo", "cy")
    text = await _script(db, ["al: stand"])
    assert "`stand pat` keeps your cards" in text and "`leave`" in text
    assert "stands up" not in text
    text = await _script(db, ["bo: stand up"])
    assert "bo stands up after this hand" in text
    text = await _script(db, ["cy: cash out"])
    assert "cy stands up after this hand" in text


def test_help_says_how_to_stand_pat_and_how_to_leave() -> None:
    from bot.local.terminal import HELP_KEY
    from bot.local.words import Words

    HELP = Words()(HELP_KEY)  # the English help

    assert "stand pat" in HELP and "leave" in HELP and "stand up" in HELP
    assert "`stand` alone does not leave" in HELP


# ---------------------------------------------------------------------- 7. set before names


async def test_r16_2_a_settings_line_is_not_a_player_line(tmp_path: Path) -> None:
    """R-16.2 (a rotation is a table setting): `set rotation=a:b,c:d` holds colons, but
    it is the setting, not a player called "set rotation=holdem" (item 7)."""
    db = tmp_path / "s.sqlite3"
    text = await _script(
        db, ["set rotation=holdem:fixed,omaha8:fixed,razz:fixed", "deal"], "al", "bo"
    )
    assert (
        "Settings changed: rotation from none to Fixed-limit Texas hold'em, "
        "Fixed-limit Omaha hi-lo eight-or-better, Fixed-limit Razz. Now: rotation of" in text
    ), text
    assert "set rotation=holdem" not in text
    assert "Fixed-limit Texas hold'em" in text  # the first game of the rotation was dealt


def test_set_lines_take_pairs_and_values_with_spaces() -> None:
    assert parse_settings("action_clock=45 time_bank=10") == {
        "action_clock": 45,
        "time_bank": 10,
    }
    assert parse_settings("game=omaha pot limit") == {"game": "omaha pot limit"}
    assert parse_settings("action-clock 45") == {"action_clock": 45}
    assert isinstance(parse_settings("rotation"), str)  # the usage, not a crash
    assert isinstance(parse_settings("=5"), str)


# ---------------------------------------------------------------------- 8. phrasings


async def test_r1_6_sit_out_and_back_in_common_words(tmp_path: Path) -> None:
    """R-1.6: `sit out`, `sit-out` and `sitout` sit out; `back`, `sit in`, `I'm back`
    come back; none is read as "sit in seat `out`"."""
    db = tmp_path / "o.sqlite3"
    text = await _script(db, ["al: sit out", "bo: sit-out", "cy: sitout"], "al", "bo", "cy")
    assert text.count("sits out") == 3, text
    text = await _script(db, ["al: back", "bo: sit in", "cy: I'm back"])
    assert text.count("is back") == 3, text
    assert "whole numbers" not in text


async def test_r2_1_top_up_in_common_words(tmp_path: Path) -> None:
    """R-2.1/R-2.2: `top up 50`, `top-up 50`, `topup 50`, `rebuy 50`, `add 50` add chips
    between hands; `top up` alone asks how many; `top up ١٠` is not 10."""
    db = tmp_path / "t.sqlite3"
    lines = ["al: top up 1", "bo: top-up 1", "al: topup 1", "bo: rebuy 1", "al: add 1"]
    text = await _script(db, lines, "al", "bo", "--buy-in", "150")
    assert text.count(" adds 1 ") == 5, text
    text = await _script(db, ["al: top up", "al: top up ١٠", "al: top-up -5"])
    assert "say how many chips, like `al: top up 50`" in text
    assert "'١٠' is not an amount" in text
    assert "'-5' is negative" in text  # the hyphen of "top-up" is a space; a sign is not


def test_r16_4_draw_with_a_count_asks_which_cards() -> None:
    """R-16.4: the player discards his own cards; `draw 2` names a count, so the answer
    says to name the cards, with an example; a bare `draw` is not a stand-pat."""
    with raises_saying(ParseError, r"says how many, not which.*`draw 7c 2d`"):
        parse_action("draw 2")
    with raises_saying(ParseError, "Say which cards you throw away"):
        parse_action("draw")
    assert parse_action("draw 2 7c 2d") == ActionRequest("draw", cards=("7c", "2d"))
    with pytest.raises(ParseError):
        parse_action("draw 3 7c 2d")  # the count disagrees with the cards
    for pat in ("draw 0", "stand pat", "pat", "draw none", "standpat"):
        assert parse_action(pat) == ActionRequest("draw")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("check", "check"),
        ("x", "check"),
        ("check.", "check"),
        ("all in", "all_in"),
        ("allin", "all_in"),
        ("all-in", "all_in"),
        ("shove", "all_in"),
        ("jam", "all_in"),
        ("bet pot", "pot"),
        ("high", "declare"),
        ("swing", "declare"),
        ("go low", "declare"),
        ("I fold", "fold"),
        ("I'll call", "call"),
    ],
)
def test_r6_1_common_action_words(text: str, kind: str) -> None:
    """R-6.1: the words players use for an action are that action."""
    assert parse_action(text).kind == kind


@pytest.mark.parametrize(
    ("name", "game"),
    [
        ("plo", ("omaha", "pot_limit")),
        ("PLO", ("omaha", "pot_limit")),
        ("nlhe", ("holdem", "no_limit")),
        ("hold'em", ("holdem", "")),
        ("Hold'em", ("holdem", "")),
        ("holdem", ("holdem", "")),
        ("texas hold'em", ("holdem", "")),
        ("7stud", ("stud", "")),
        ("stud8", ("stud8", "")),
        ("stud/8", ("stud8", "")),
        ("stud hi-lo", ("stud8", "")),
        ("o8", ("omaha8", "")),
        ("plo8", ("omaha8", "pot_limit")),
        ("razz", ("razz", "")),
        ("2-7", ("27triple", "")),
        ("nl 2-7", ("27single", "no_limit")),
        ("badugi", ("badugi", "")),
        ("limit holdem", ("holdem", "fixed")),
        ("omaha pot limit", ("omaha", "pot_limit")),
        ("plo:fixed", ("omaha", "fixed")),  # the colon wins over the name
        ("omaha8:pl", ("omaha8", "pot_limit")),
    ],
)
def test_r16_2_game_aliases_name_the_game(name: str, game: tuple[str, str]) -> None:
    """R-16.2: a game named by its usual name is that game, in one table for all."""
    assert split_game(name) == game
    variant, limit = parse_game(name, "no_limit")
    assert (variant, limit) == (game[0], game[1] or "no_limit")


def test_r16_2_aliases_in_settings_and_rotation() -> None:
    """R-16.2: `set game=plo8` sets the game and its structure; `horse` is the HORSE
    rotation; an explicit structure wins."""
    s = TableSettings().changed({"game": "plo8"})
    assert (s.variant, s.limit) == ("omaha8", "pot_limit")
    s = TableSettings().changed({"variant": "plo", "limit": "fixed"})
    assert (s.variant, s.limit) == ("omaha", "fixed")
    assert TableSettings().changed({"limit": "pl"}).limit == "pot_limit"
    assert split_rotation("horse")[0] == "holdem:fixed" and len(split_rotation("horse")) == 5
    assert normalize_changes({"rotation": "nlhe,plo"})["rotation"] == (
        "holdem:no_limit",
        "omaha:pot_limit",
    )
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"game": "holdum"})
    assert refused.value.msg.key == "settings.unknown_game"
    assert refused.value.msg.get("game") == Name("'holdum'")


async def test_r16_2_aliases_at_the_terminal_and_on_the_command_line(tmp_path: Path) -> None:
    """R-16.2: `--game plo`, `set game=stud8` and `choose 7stud` all name games."""
    text = await _script(tmp_path / "a.sqlite3", ["deal"], "--game", "plo", "al", "bo")
    assert "Pot-limit Omaha" in text, text
    text = await _script(tmp_path / "b.sqlite3", ["set game=razz:fixed", "deal"], "al", "bo")
    assert "Settings changed: game from Texas hold'em to Razz; " in text, text
    assert "structure from the game's usual to Fixed-limit" in text, text
    assert "Fixed-limit Razz" in text
    db = tmp_path / "c.sqlite3"
    text = await _script(db, ["set dealers_choice=on", "deal"], "al", "bo")
    chooser = re.search(r"(\w+) deals next and must choose", text)
    assert chooser, text
    text = await _script(db, [f"{chooser.group(1)}: choose 7stud", "deal"])
    assert "chooses No-limit Seven-card stud" in text or "chooses Fixed-limit Seven" in text


def test_r16_2_discord_game_option_suggests_aliases() -> None:
    """R-16.2: Discord's game option offers the game an alias names."""
    from bot.table.games import game_suggestions

    plo = (msg("table.stakes.game.pot_limit", game=msg("game.omaha")), "omaha:pot_limit")
    assert game_suggestions("plo")[0] == plo
    assert render(plo[0], "de") == "Pot-Limit Omaha"
    assert (msg("game.razz"), "razz") in game_suggestions("raz")
    assert len(game_suggestions("")) <= 25


# ---------------------------------------------------------------------- names


async def test_r1_1_names_ignore_case_one_player_one_seat(tmp_path: Path) -> None:
    """R-1.1 (one seat per player): "alice" and "Alice" are one player; "ALICE: cards"
    shows alice's cards."""
    db = tmp_path / "n.sqlite3"
    text = await _script(db, ["Alice: sit", "ALICE: sit 5", "deal", "ALICE: cards"], "alice", "bob")
    assert text.count("sits in seat") == 2, text
    assert "You already have a seat here." in text
    line = next(ln for ln in text.splitlines() if ln.startswith("ALICE: "))
    assert "no cards" not in line and "??" not in line


async def test_r1_1_names_are_limited_and_not_empty(tmp_path: Path) -> None:
    """R-1.1: an empty name and a name over the limit are refused with the reason,
    and nothing is seated; no traceback (item 10)."""
    db = tmp_path / "n.sqlite3"
    long = "x" * 300
    text = await _script(db, [": sit", f"{long}: sit", "table"])
    assert "A player needs a name" in text
    assert f"A name is at most {MAX_NAME} characters" in text
    assert long not in text  # the answer quotes only the start
    assert "sits in seat" not in text
    assert check_name("  Mary   Ann ") == "Mary Ann"
    with pytest.raises(ParseError):
        check_name("a\x00b")


async def test_empty_name_prints_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 10: `: sit` is refused before anything is written (it printed a traceback)."""
    caplog.set_level(logging.ERROR)
    text = await _script(tmp_path / "e.sqlite3", [": sit", ":sit", " : call"])
    assert text.count("A player needs a name") == 3
    assert not [r for r in caplog.records if r.exc_info], caplog.text


# ---------------------------------------------------------------------- 9. digits


@pytest.mark.parametrize("digits", ["١٠", "१०", "１０", "߁߀", "10\u0660"])
def test_r6_4_amounts_are_ascii_digits_only(digits: str) -> None:
    """R-6.4 (an amount is never a guess): digits of other scripts are not read as a
    number; the refusal is the one for any other bad amount."""
    with pytest.raises(ParseError) as bad:
        parse_action(f"raise to {digits}")
    with pytest.raises(ParseError) as other:
        parse_action("raise to abc")
    assert bad.value.msg.key == other.value.msg.key
    assert render(bad.value.msg, "en").replace(repr(digits), "X") == render(
        other.value.msg, "en"
    ).replace("'abc'", "X")
    with pytest.raises(ParseError):
        parse_amount(digits)


def test_r6_4_the_raise_modal_and_settings_read_ascii_digits_only() -> None:
    """R-6.4: the Discord raise modal and setting values use the same reading."""
    from cogs.play import parse_raise

    legal = Legal(0, frozenset({"fold", "call", "raise"}), 2, 2, 0, 200, 3, 4, 200, 1, False)
    answer = parse_raise("١٠", "", legal.opening)
    assert isinstance(answer, str) and "not an amount" in answer
    assert parse_value("١٠") == "١٠"  # text, so the setting refuses it by type
    assert parse_value("45") == 45 and parse_value("2.5") == 2.5 and parse_value("on") is True
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"big_blind": parse_value("١٠")})
    assert refused.value.msg.key == "settings.bad_value"
    assert refused.value.msg.get("allowed") == msg("settings.allowed.whole")


async def test_r6_4_terminal_numbers_are_ascii(tmp_path: Path) -> None:
    """R-6.4: seats, buy-ins, hand numbers and settings typed with other digits are
    refused at the terminal, and nothing changes."""
    db = tmp_path / "u.sqlite3"
    text = await _script(
        db, ["al: sit ٣ ١٠٠", "history ١", "set big_blind=١٠", "table"], "bo", "cy"
    )
    assert "whole numbers" in text and "N is a hand number" in text
    assert "'١٠' is not a value for big blind: it is a whole number" in text
    assert "al sits" not in text
    out = io.StringIO()
    code = await run(["--db", str(tmp_path / "v.sqlite3"), "--blinds", "١/٢"], io.StringIO(""), out)
    assert code == 2


# ---------------------------------------------------------------------- 10. fuzz


def _fuzz_lines() -> object:
    from hypothesis import strategies as st

    words = st.sampled_from(
        [
            "deal",
            "table",
            "set",
            "history",
            "phh",
            "help",
            "new",
            "sit",
            "out",
            "back",
            "raise",
            "to",
            "bet",
            "call",
            "fold",
            "check",
            "draw",
            "stand",
            "pat",
            "top",
            "up",
            "all",
            "in",
            "x",
            ":",
            "=",
            "seats",
            "big_blind",
            "game",
            "plo",
            "-5",
            "0",
            "7",
            "1e9",
            "١٠",
            "As",
            "Kd",
            "??",
            "Xx",
            "leave",
            "choose",
            "declare",
        ]
    )
    names = st.sampled_from(["al", "bo", "al", "bo", "Al", "", " ", "zed", "x" * 30])
    line = st.one_of(
        st.lists(words, max_size=6).map(" ".join),
        st.tuples(names, st.lists(words, max_size=4).map(" ".join)).map(
            lambda t: f"{t[0]}: {t[1]}"
        ),
        st.text(max_size=60),
    )
    return line


@pytest.mark.parametrize("game", ["holdem", "draw5:fixed", "stud8:fixed", "guts"])
def test_terminal_lines_never_raise_and_refusals_change_nothing(tmp_path: Path, game: str) -> None:
    """Item 10: random lines never raise, never print a traceback, and a line that is
    only refused leaves the table exactly as it was (R-2.5 holds throughout), in a hand
    of each family (the first line deals)."""
    import asyncio

    from hypothesis import HealthCheck, example, given, settings

    from bot.table.state import state_digest

    counter = iter(range(10**6))

    @settings(
        max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @example(lines=[": sit"])  # the traceback of item 10
    @example(lines=["deal", "al: raise to ١٠", "set rotation=holdem:fixed,razz:fixed"])
    @given(lines=__import__("hypothesis").strategies.lists(_fuzz_lines(), max_size=8))
    def check(lines: list[str]) -> None:
        async def go() -> None:
            out = io.StringIO()
            db = tmp_path / f"f{next(counter)}.sqlite3"
            argv = ["--db", str(db), "--game", game, "--seed", "1", "al", "bo"]
            local = LocalTable(parse_args(argv), out)
            await local.start()
            try:
                for raw in ["deal", *lines]:
                    before = state_digest(local.table.state)
                    mark = out.tell()
                    assert await local.line(raw) in (True, False)
                    said = out.getvalue()[mark:]
                    assert "Traceback" not in said
                    printed = [ln for ln in said.splitlines() if ln.strip()]
                    if printed and all(ln.startswith("!") for ln in printed):
                        assert state_digest(local.table.state) == before, (raw, said)
                    assert local.table.conservation_error() is None
            finally:
                await local.close()

        asyncio.run(go())

    class Crashes(logging.Handler):
        """Any logged exception is a traceback printed at the terminal."""

        def __init__(self) -> None:
            super().__init__(logging.ERROR)
            self.seen: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.seen.append(record.getMessage())

    crashes = Crashes()
    logging.getLogger("bot").addHandler(crashes)
    try:
        check()
    finally:
        logging.getLogger("bot").removeHandler(crashes)
    assert not crashes.seen, crashes.seen[:3]


# ---------------------------------------------------------------------- 11. Ctrl-C


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "DISCORD_TOKEN": "", "PYTHONUNBUFFERED": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return env


def test_ctrl_c_stops_at_once_and_the_hand_resumes(tmp_path: Path) -> None:
    """Item 11: SIGINT while the terminal waits for a line stops it at once, with no
    traceback and exit code 130; the next start resumes the hand where it was."""
    db = tmp_path / "c.sqlite3"
    args = [sys.executable, "-m", "bot", "--local", "--db", str(db), "al", "bo"]
    proc = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("deal\n")
    proc.stdin.flush()
    seen = ""
    deadline = time.monotonic() + 60
    while "posts the big blind" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.readline()
    assert "posts the big blind" in seen, seen
    time.sleep(0.3)  # now waiting for the next line, with stdin still open
    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        # stdin stays open: the old reader waited for Enter here.
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("Ctrl-C did not stop the table until Enter") from None
    finally:
        proc.stdin.close()
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert time.monotonic() - began < 10
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    again = subprocess.run(
        args,
        input="table\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert "resumed:" in again.stdout and "hand #1 | betting" in again.stdout, again.stdout


# ---------------------------------------------------------------------- 12. resuming


async def test_r16_2_resuming_says_which_options_it_ignored_and_new_opens_a_table(
    tmp_path: Path,
) -> None:
    """Item 12: a second start with other options on the same file says it resumes and
    ignores them; `new` then closes the old table and opens one with those options."""
    db = tmp_path / "r.sqlite3"
    await _script(db, [], "al", "bo")
    text = await _script(db, ["table"], "--game", "razz:fixed", "--blinds", "2/4", "al", "bo")
    assert f"resuming the table in {db}" in text
    assert "--game, --blinds ignored" in text and "`new`" in text
    assert "No-limit Texas hold'em" in text.split("== local")[-1]
    text = await _script(db, ["new", "deal"], "--game", "razz:fixed", "al", "bo")
    assert "The table is closed" in text and "Table open: Fixed-limit Razz" in text
    assert "Hand #1: Fixed-limit Razz" in text
    text = await _script(db, ["table"])
    assert "ignored" not in text  # no options given: nothing to say


async def test_new_waits_for_the_hand_to_finish(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    text = await _script(db, ["deal", "new"], "al", "bo")
    assert "Finish this hand first" in text


# ---------------------------------------------------------------------- 13. replay


def test_replay_of_a_missing_file_names_the_file(tmp_path: Path) -> None:
    """Item 13: `python -m bot.poker replay` of a missing file names it (exit 2)."""
    missing = tmp_path / "nope.phh"
    proc = subprocess.run(
        [sys.executable, "-m", "bot.poker", "replay", str(missing)],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=60,
    )
    assert proc.returncode == 2
    assert f"{missing}: no such file or folder" in proc.stderr
    assert "internal error" not in proc.stdout + proc.stderr


# ---------------------------------------------------------------------- 14. echoes


async def test_long_lines_are_not_echoed_back(tmp_path: Path) -> None:
    """Item 14: a megabyte of garbage is refused without being repeated; shorter garbage
    is quoted only in part."""
    db = tmp_path / "g.sqlite3"
    garbage = "q" * 1_000_000
    lines = [garbage, f"al: {garbage}", "al: bet " + "9z" * 200, "set x=" + "y" * 400]
    lines += ["zz" * 200, "al: draw " + "Q" * 300]
    text = await _script(db, lines, "al", "bo")
    assert len(text) < 10_000, len(text)
    for run_ in ("q" * 60, "9z" * 30, "y" * 60, "zz" * 30, "Q" * 60):
        assert run_ not in text, run_
    assert "is 1,000,000 characters long" in text  # grouped as the language groups numbers


def test_discord_messages_fit_discord() -> None:
    """Item 14: whatever a message holds, what is sent fits Discord's 2000 characters."""
    from cogs.ops import MAX_CONTENT, fit

    assert fit("short") == "short"
    assert len(fit("x" * 100_000)) == MAX_CONTENT


# ---------------------------------------------------------------------- 18. small words


def test_settings_changes_are_said_in_words() -> None:
    """Item 18: "action clock 45 s", not "action_clock=45"."""

    def said(name: str, value: object) -> str:
        return en(setting_said(name, value))

    assert said("action_clock", 45.0) == "action clock 45 s"
    assert said("straddle", True) == "straddle on"
    assert said("variant", "omaha8") == "game Omaha hi-lo eight-or-better"
    assert said("raise_cap", None) == "raise cap none"
    assert said("rake_percent_bp", 500) == "rake 5%"


async def test_settings_change_notice_in_words() -> None:
    h = Harness()
    table = await h.table()
    out = await table.change_settings("host", {"action_clock": 45}, key="k")
    assert out.ok and out.msg is not None and out.msg.key == "settings.changed", out.msg
    said = render(out.msg, "en")
    assert "Settings changed: action clock from 60 s to 45 s." in said, said
    assert "action_clock" not in said


def test_stats_say_hand_or_hands() -> None:
    """Item 18: "1 hand", "2 hands"."""
    said = stats_said([PlayerStats("a", "alice", 1, 1, 5, 5), PlayerStats("b", "bob", 2, 0, -5, 0)])
    assert said is not None and stats_said([]) is None
    text = en(said)
    assert "alice: 1 hand played" in text and "bob: 2 hands played" in text
    assert "1 hands" not in text


async def test_r13_2_pot_during_a_declaration_has_no_to_call() -> None:
    """R-13.2: while declaring, /pot does not say "To call: 0"; it says what he may do."""
    from cogs.table_cog import pot_text

    h = Harness()
    table = await h.seated(
        ["a", "b"], variant="omaha8", limit="fixed", declare="simultaneous", declare_clock=45
    )
    await h.deal(table)
    while (hand := table.state.hand) is not None and hand.phase != "declare":
        user = h.to_act(table)
        await h.do(table, user, "check" if "check" in hand.legal().actions else "call")
    assert table.state.hand is not None
    text = pot_text(table.snapshot("a"))
    assert "To call" not in text and "declare low, high or both" in text, text


async def test_r13_2_one_player_folds_when_the_declaration_clock_runs_out() -> None:
    """R-13.2: "carol folds" (one player), "alice, carol fold" (several)."""
    h = Harness()
    table = await h.seated(
        ["a", "b"], variant="omaha8", limit="fixed", declare="simultaneous", declare_clock=45
    )
    await h.deal(table)
    while (hand := table.state.hand) is not None and hand.phase != "declare":
        user = h.to_act(table)
        await h.do(table, user, "check" if "check" in hand.legal().actions else "call")
    assert (await h.do(table, "a", "declare high")).ok
    h.time.set(table.deadline() or 0)
    assert await h.service.tick() == 1
    said = [n.msg for _, n in h.presenter.public_notices]
    b_folds = msg("table.clock.declare_fold", who=msg("engine.who", who=Name("b")), count=Count(1))
    assert b_folds in said, said


async def test_r13_2_history_tells_the_timeouts() -> None:
    """R-13.2 / item 18: `history` says whose time ran out, where the table said it."""
    h = Harness()
    table = await h.seated(["a", "b"], action_clock=5, time_bank=0)
    await h.deal(table)
    h.time.set(table.deadline() or 0)
    assert await h.service.tick() == 1
    story = await told_story(table, 1)
    assert re.search(r"\b[ab]'s time ran out\.\n[ab] folds", story), story


def test_r3_5_the_bring_in_prompt_says_complete() -> None:
    """R-3.5: facing the bring-in choice, the bigger amount is a completion, in the
    prompt as in the table's message ("complete to 2", never "bet 2")."""
    legal = Legal(0, frozenset({"bring_in", "complete"}), 1, 0, 0, 200, 0, 2, 2, 1, True)
    options = legal.options()
    assert [p.key for p in parts(options)][1:] == [
        "legal.bring_in",
        "legal.complete_to",
        "legal.amount",
    ]
    assert en(options) == "bring in for 1 or complete to 2"


def test_the_joker_is_printed_as_joker() -> None:
    """Item 18: the joker is "Joker" in text, never its code Xx."""
    event = CardsDealt(player=0, cards=("As", "Xx"), face_up=(False, False), audience=0)
    said = notice_said(event)
    assert said is not None and render(said, "en", names=lambda p: "al") == "al: As Joker"


async def test_seed_makes_local_deals_reproducible(tmp_path: Path) -> None:
    """Item 18: `--seed` seeds the shuffle and the first button: the same seed deals the
    same cards; another seed deals others."""

    async def cards(db: str, seed: str) -> str:
        text = await _script(
            tmp_path / db, ["deal", "al: cards", "bo: cards"], "--seed", seed, "al", "bo"
        )
        return "\n".join(
            ln for ln in text.splitlines() if ln.startswith(("al: ", "bo: ", "  Hand"))
        )

    first = await cards("a.sqlite3", "42")
    assert first == await cards("b.sqlite3", "42")
    others = {await cards(f"c{i}.sqlite3", str(i)) for i in range(3)}
    assert len(others | {first}) > 1


def test_seed_has_help_text() -> None:
    import contextlib

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):
        parse_args(["--help"])
    assert re.search(r"--seed SEED\s+seed the shuffle", buf.getvalue()), buf.getvalue()


# ---------------------------------------------------------------------- siblings


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("raise by 20", ActionRequest("raise_by", 20)),
        ("raise to 40 chips", ActionRequest("raise_to", 40)),
        ("bet 20 chips", ActionRequest("bet", 20)),
        ("call 20", ActionRequest("call")),
        ("min", ActionRequest("min")),
        ("min raise", ActionRequest("min")),
        ("max", ActionRequest("max")),
    ],
)
def test_r6_3_more_ways_to_name_a_bet(text: str, expected: ActionRequest) -> None:
    """R-6.3: "raise by 20" is the by-form said outright; "call 20" names the call (it is
    not a string raise, R-6.2, so no note); min and max are the range's ends, as in the
    Discord raise modal."""
    assert parse_action(text) == expected


async def test_r5_min_and_max_are_the_ends_of_the_legal_range() -> None:
    """R-5.1/R-5.2: typed `min` raises to the smallest legal total, `max` to the largest
    (all in only in no limit)."""
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    await h.deal(table)
    first = h.to_act(table)
    hand = table.state.hand
    assert hand is not None
    low = hand.legal().min_to
    assert (await h.do(table, first, "min")).ok
    assert table.state.hand is not None and table.state.hand.current_bet == low
    second = h.to_act(table)
    out = await h.do(table, second, "max")
    assert out.ok and out.msg.key == "notice.all_in", out.msg


async def test_r1_1_buy_in_quit_and_commands_typed_with_a_name(tmp_path: Path) -> None:
    """R-1.1/R-2.3: `buy in 150` seats a new player with 150; `quit` leaves; a table
    command typed after a name is explained, not read as an action."""
    db = tmp_path / "b.sqlite3"
    text = await _script(
        db, ["cy: buy in 150", "al: quit", "bo: deal", "bo: sit any 100"], "al", "bo"
    )
    assert "cy sits in seat" in text and "with 150" in text
    assert "al stands up and cashes out" in text
    assert "`deal` is a table command" in text
    assert "You already have a seat here." in text


def test_r16_2_a_rotation_change_is_said_in_game_names() -> None:
    """R-16.2 (item 18, settings in words): a rotation reads as the games people know,
    with the structure named where the entry names one, not as stored codes."""
    words = en(setting_said("rotation", ("holdem", "omaha:pot_limit", "razz:fixed")))
    assert words == "rotation Texas hold'em, Pot-limit Omaha, Fixed-limit Razz"
    assert "pot_limit" not in words and ":" not in words
