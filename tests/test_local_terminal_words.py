"""The terminal in the reader's language (``--lang``, ``CHIPFIST_LANG``): its help, its
table drawing, its prompts and refusals come from the ``terminal`` catalogue, and the
players type their own language's action words (bot/table/amounts.py)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

from bot.local.terminal import HOST, LocalTable, parse_args, run
from bot.local.words import Words
from bot.poker.errors import IllegalAction
from bot.poker.messages import Chips, msg
from bot.table.table import Outcome
from bot.words import render
from bot.words.catalog import read_catalog

ROOT = Path(__file__).resolve().parents[1]


async def _script(tmp_path: Path, lang: str, lines: list[str], *players: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    argv = ["--db", str(tmp_path / "l.sqlite3"), "--lang", lang, "--seed", "7", *players]
    assert await run(argv, inp=inp, out=out) == 0
    return out.getvalue()


def _english_fragments() -> set[str]:
    """The English terminal catalogue's sentences, cut at their parameters: the pieces
    of two words or more that are not a command to type (a German table must show none
    of them)."""
    out: set[str] = set()
    for m in read_catalog("en", "terminal"):
        if not m.id or m.id == "terminal.help" or not isinstance(m.string, str):
            continue
        for piece in re.split(r"\{[a-z_]+\}", m.string):
            piece = piece.strip(" .,:()|=")
            if len(piece.split()) >= 2 and len(piece) >= 8 and "`" not in piece:
                out.add(piece)
    return out


# With --seed 7 bob has the button: he acts first before the flop, alice after it.
_HAND = [
    "help",
    "deal",
    "table",
    "alice: cards",
    "bob: cards",
    "bob: mitgehen",
    "alice: checken",
    "frobnicate",
    "alice call",
    "history x",
    "alice: ",
    "set nonsense",
    "bob: top up",
    "ledger",
]


async def test_a_german_terminal_game_speaks_german(tmp_path: Path) -> None:
    text = await _script(tmp_path, "de", _HAND, "alice", "bob")
    for german in (
        "Tischbefehle (ohne Namen davor):",  # the help
        "Aktionen: checken (x), mitgehen, aussteigen",
        "| Hand #1 | Setzrunde",  # the drawing
        "Am Zug: ",
        "[aktiv]",
        "du bist dran",  # the prompt
        "du kannst: ",  # alice: cards, her options rendered in German
        "Unbekannter Befehl 'frobnicate'. Tippe `help`.",  # refusals
        "Schreib NAME: AKTION mit Doppelpunkt",
        "history [N]: N ist eine Handnummer",
        "alice: sag, was du tust",
        "Schreib set SCHLÜSSEL=WERT",
        "bob: sag, wie viele Chips",
        "(Buy-ins 200, ausgezahlt 0, korrigiert 0, am Tisch 200",  # ledger
        "Board: ",  # mitgehen and checken were played: the flop is out
    ):
        assert german in text, german
    assert "Table commands" not in text
    leaked = [f for f in _english_fragments() if f in text]
    assert not leaked, leaked
    # The options are the engine's message in German, not its English.
    assert "you may" not in text and " or fold" not in text


async def test_a_russian_terminal_game_speaks_russian(tmp_path: Path) -> None:
    lines = [ln.replace("mitgehen", "колл").replace("checken", "чек") for ln in _HAND]
    text = await _script(tmp_path, "ru", lines, "alice", "bob")
    for russian in (
        "Команды стола (без имени впереди):",
        "действия: чек (x), колл, фолд",
        "| раздача № 1 | торговля",
        "Ход: ",
        "[в игре]",
        "ваш ход",
        "можно: ",
        "Неизвестная команда 'frobnicate'. Наберите `help`.",
        "Пишите ИМЯ: ДЕЙСТВИЕ через двоеточие",
        "Борд: ",
    ):
        assert russian in text, russian
    leaked = [f for f in _english_fragments() if f in text]
    assert not leaked, leaked


async def test_english_stays_the_default(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["--db", str(tmp_path / "e.sqlite3"), "alice", "bob"]
    assert await run(argv, inp=io.StringIO("help\ndeal\ntable\n"), out=out) == 0
    text = out.getvalue()
    assert "Table commands (no name in front):" in text and "To act: " in text
    assert "[active]" in text and "| hand #1 | betting" in text


async def test_refusals_carry_their_message_into_the_reader_s_language(tmp_path: Path) -> None:
    # The seams: an Outcome's message, and an engine refusal, are rendered.
    out = io.StringIO()
    local = LocalTable(parse_args(["--db", str(tmp_path / "s.sqlite3"), "--lang", "de"]), out)
    said = msg("legal.call", amount=Chips(1500))
    local.answer("alice", Outcome(False, said, 3))
    local.answer(HOST, Outcome(False, msg("table.paused"), 3))
    local.answer("alice", Outcome(True, said, 3))  # no answer when accepted
    paused = render(msg("table.paused"), "de")
    assert out.getvalue().splitlines() == ["! alice: 1.500 mitgehen", f"! {paused}"]
    refusal = IllegalAction(msg("legal.call", amount=Chips(20)))
    assert Words("ru").refusal(refusal) == "колл 20"
    assert Words("ru").refusal(ValueError("plain")) == "plain"


def test_lang_and_chipfist_lang_choose_the_language(tmp_path: Path) -> None:
    def start(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        db = str(tmp_path / "x.sqlite3")
        return subprocess.run(
            [sys.executable, "-m", "bot", "--local", "--db", db, *args],
            input="help\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT), **env},
            timeout=60,
            check=False,
        )

    proc = start([], {"CHIPFIST_LANG": "fr"})
    assert proc.returncode == 0 and "Commandes de table (sans nom devant) :" in proc.stdout
    proc = start(["--lang", "pt-BR"], {"CHIPFIST_LANG": "fr"})  # --lang wins
    assert proc.returncode == 0 and "Comandos da mesa (sem nome na frente):" in proc.stdout
    proc = start(["--lang", "xx"], {})
    assert proc.returncode == 2 and "en, de, fr, es, pt_BR, ru" in proc.stderr
    proc = start([], {"CHIPFIST_LANG": "klingon"})
    assert proc.returncode == 2 and "CHIPFIST_LANG" in proc.stderr


def test_every_key_the_terminal_says_is_in_the_catalogue() -> None:
    """A key the code names but the catalogue lacks would be a traceback at a player's
    screen: every ``words("...")`` / ``refuse("...")`` key, and every phase and seat
    state the drawing names, is in the English terminal catalogue (and so, by
    tests/test_words.py, in every language)."""
    import ast
    import typing

    from bot.table.view import SeatView, TableView
    from bot.words.catalog import keys

    known = keys("en")
    named: set[str] = set()
    for path in (ROOT / "bot" / "local").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in ("words", "say", "refuse") and isinstance(first, ast.Constant):
                named.add(f"terminal.{first.value}")
    assert len(named) > 40, named  # the scan finds the calls

    def codes(hint: object) -> set[str]:  # a Literal, or a union of them
        args = typing.get_args(hint)
        return {a for a in args if isinstance(a, str)} | {c for a in args for c in codes(a)}

    named |= {f"terminal.phase.{p}" for p in codes(typing.get_type_hints(TableView)["phase"])}
    named |= {f"terminal.state.{s}" for s in codes(typing.get_type_hints(SeatView)["state"])}
    assert named <= known, sorted(named - known)


async def test_stats_and_leaderboard_count_in_the_language_s_plural_forms(
    tmp_path: Path,
) -> None:
    # --seed 7: bob has the button and acts first; a fold ends each hand.
    hands = ["deal", "bob: фолд", "deal", "alice: фолд", "deal", "bob: фолд"]
    lines = [*hands, "stats", "stats alice", "leaderboard", "alice: leave", "bob: leave"]
    text = await _script(tmp_path, "ru", [*lines, "leaderboard 5 min 1"], "alice", "bob")
    assert "alice: 3 раздачи; выиграно: 2; итог +1" in text  # few: раздачи
    assert "alice за всеми столами этого файла: 1 стол, 3 раздачи" in text  # one: стол
    assert "(не меньше: 10 раздач)" in text  # many: раздач
    assert "(не меньше: 1 раздача)" in text
    assert "1. alice: +1 (3 раздачи)" in text and "2. bob: -1 (3 раздачи)" in text
    assert not [f for f in _english_fragments() if f in text]


async def test_a_refusal_at_start_is_answered_once(tmp_path: Path) -> None:
    # The players named at the start are seated before any line is read: a refused
    # buy-in is answered by the terminal (in its language), not twice.
    out = io.StringIO()
    argv = ["--db", str(tmp_path / "b.sqlite3"), "--buy-in", "5", "alice", "bob"]
    assert await run(argv, inp=io.StringIO(""), out=out) == 0
    refused = [ln for ln in out.getvalue().splitlines() if ln.startswith("! ")]
    assert len(refused) == 2 and refused[0].startswith("! alice: "), refused


async def test_the_terminal_s_player_words_in_every_language(tmp_path: Path) -> None:
    from bot.local.words import PLAYER_WORDS, player_phrase

    lines = ["alice: hinsetzen 1 100", "bob: сесть", "deal", "alice: meine karten", "bob: карты"]
    text = await _script(tmp_path, "de", [*lines, "bob: фолд", "alice: aufstehen"])
    first = text.split("== local")[1]  # the table drawn after bob folded
    assert re.search(r" 1 alice +101 ", first), first  # seat 1 with 100, won the blind
    assert " 2 bob" in first
    own = [ln for ln in text.splitlines() if ln.startswith(("alice: ", "bob: "))]
    assert len(own) == 2 and all(len(ln.split("|")[0].split()) == 3 for ln in own), own
    last = text.split("== local")[-1]  # the table drawn after alice's last line
    assert "alice" not in last and "bob" in last, last  # she stood up
    for said, meant in PLAYER_WORDS.items():
        assert player_phrase(said) == meant
        # none of them is an action word: the table's vocabulary stays the table's
        from bot.table.amounts import in_english

        assert in_english(said) == said, said


async def test_a_german_terminal_draws_its_header_last_action_and_history_in_german(
    tmp_path: Path,
) -> None:
    """The drawing's header (stakes, street), its last-action line and ``history`` come
    from the table's messages rendered in German, never the view's English."""
    lines = ["deal", "bob: mitgehen", "alice: checken", "table", "alice: aussteigen", "history 1"]
    text = await _script(tmp_path, "de", lines, "alice", "bob")
    assert "== local: No-Limit Texas Hold'em, Blinds 1/2 | Hand #1 | Setzrunde | Flop ==" in text
    assert "Zuletzt: alice checkt" in text
    assert "No-limit Texas hold'em" not in text and "Last: " not in text
    # `history 1`: the hand's story, told again in German.
    head = "\nHand #1: No-Limit Texas Hold'em, Blinds 1/2.\n"
    assert head in text, text
    story = text.split(head, 1)[1]
    assert "bob setzt den Small Blind 1" in story and "alice steigt aus" in story
    assert " folds" not in text and " posts " not in text
