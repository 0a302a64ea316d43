"""The terminal's help (``help`` or ``?``) names every command its parser takes, in
every language: the table commands, the host's tools (R-20.50 to R-20.56), the home
game's player lines (§20: bomb pots, run it twice, showing by choice, the rabbit hunt,
posting, straddles), the record's commands, and the tournament's options and commands
(R-19.70). A command added to the parser without a line in the help fails here."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from bot.local import terminal, tourney
from bot.local.host import HOST_COMMANDS
from bot.local.words import Words
from bot.words import SUPPORTED, Locale

PLAYER_LINES = (
    *terminal.POST[:1],
    *terminal.SHOW_CHOICES,
    *terminal.RABBIT,
    *terminal.BOMB,
    "straddle",
    "run it twice",
    "run it once",
    "choose",
    "cards",
    "sit",
    "sit out",
    "back",
    "top up",
    "leave",
    "declare",
)
RECORD_FORMS = ("ledger all", "csv", "settle", "leaderboard by", "privacy")


def _named(help_text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", help_text) is not None


def _tournament_flags() -> list[str]:
    ap = argparse.ArgumentParser()
    tourney.add_arguments(ap)
    return [o for a in ap._actions for o in a.option_strings if o.startswith("--")]


@pytest.mark.parametrize("locale", SUPPORTED)
def test_r20_50_help_names_every_command_the_terminal_takes(locale: Locale) -> None:
    """Every table, host, home-game, record and tournament command, and every
    tournament option, is in the help in ``locale``."""
    text = Words(locale)("help")
    commands = sorted(terminal.COMMANDS | tourney.COMMANDS | HOST_COMMANDS)
    missing = [c for c in commands if not _named(text, c)]
    missing += [p for p in (*PLAYER_LINES, *RECORD_FORMS) if not _named(text, p)]
    flags = [f for f in _tournament_flags() if f not in ("--help", "--title")]
    missing += [f for f in flags if not _named(text, f)]
    assert "--robots" in text and "--seed" in text
    assert not missing, (locale, missing)


def test_r20_50_the_check_finds_a_missing_command() -> None:
    """The check above can fail: a word the help does not hold is reported."""
    text = Words("en")("help")
    assert _named(text, "kick") and not _named(text, "frobnicate")
    assert not _named("bomb yesterday", "bomb yes")


async def test_r20_50_help_and_question_mark_print_the_help(tmp_path: Path) -> None:
    out = io.StringIO()
    inp = io.StringIO("help\n?\n")
    assert await terminal.run(["--db", str(tmp_path / "h.sqlite3")], inp=inp, out=out) == 0
    assert out.getvalue().count(Words()("help")) == 2
