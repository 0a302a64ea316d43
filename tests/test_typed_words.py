"""R-20.85: a line the parser cannot read is answered with what may be typed here."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.local.terminal import run
from bot.poker.variants import get_variant
from bot.table.text_actions import ACCEPTED, ActionRequest, ParseError, parse_action
from bot.table.typed_words import game_words
from bot.words import SUPPORTED, render


def _entries(said: str) -> list[str]:
    for conj in (" or ", " oder ", " ou ", " o ", " или "):
        said = said.replace(conj, ", ")
    return [e.strip() for e in said.split(",")]


def test_R_20_85_hold_em_words_leave_out_other_games_words() -> None:
    said = render(game_words(get_variant("holdem"), declare=False, stated=False), "en")
    for word in ("check", "call", "fold", "bet 40", "raise to 300", "all in", "muck"):
        assert word in said, said
    for word in ("bring in", "complete", "draw", "declare", "Guts", "<five cards>"):
        assert word not in said, said
    assert said != render(ACCEPTED, "en")


@pytest.mark.parametrize(
    ("game", "present", "absent"),
    [
        ("stud", ("bring in", "complete", "call"), ("draw", "Guts", "declare")),
        ("draw5", ("draw <cards>", "call"), ("bring in", "Guts")),
        ("guts", ("in, out (Guts)", "fold"), ("bet 40", "raise", "draw", "bring in")),
    ],
)
def test_R_20_85_each_game_lists_its_own_words(
    game: str, present: tuple[str, ...], absent: tuple[str, ...]
) -> None:
    said = render(game_words(get_variant(game), declare=False, stated=False), "en")
    assert all(w in said for w in present), said
    assert not any(w in said for w in absent), said


def test_R_20_85_declare_and_stated_hands_only_where_the_table_uses_them() -> None:
    hilo = get_variant("omaha8")
    undeclared = render(game_words(hilo, declare=False, stated=False), "en")
    assert "declare low/high/both" not in undeclared
    assert "declare low/high/both" in render(game_words(hilo, declare=True, stated=False), "en")
    holdem = get_variant("holdem")
    assert "declare" not in render(game_words(holdem, declare=True, stated=False), "en")
    assert "show <five cards>" in render(game_words(holdem, declare=False, stated=True), "en")


@pytest.mark.parametrize("locale", SUPPORTED)
@pytest.mark.parametrize("game", ["holdem", "stud", "draw5", "guts"])
def test_R_20_85_every_listed_simple_word_parses_in_each_language(locale: str, game: str) -> None:
    said = render(game_words(get_variant(game), declare=False, stated=False), locale)
    simple = [e for e in _entries(said) if e and " " not in e and "<" not in e and "(" not in e]
    assert simple, said
    for word in simple:
        assert isinstance(parse_action(word), ActionRequest), (locale, word)


def test_R_20_85_the_parser_answers_with_the_words_it_is_given() -> None:
    words = game_words(get_variant("holdem"), declare=False, stated=False)
    with pytest.raises(ParseError) as info:
        parse_action("abc", words)
    assert info.value.msg.get("accepted") == words
    with pytest.raises(ParseError) as info:
        parse_action("abc")
    assert info.value.msg.get("accepted") == ACCEPTED  # no table: every game's words


async def _terminal(tmp_path: Path, lang: str, lines: list[str], *game: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join([*lines, "quit"]) + "\n")
    argv = ["--db", str(tmp_path / "t.sqlite3"), "--lang", lang, "--seed", "7", *game]
    assert await run([*argv, "alice", "bob"], inp=inp, out=out) == 0
    return out.getvalue()


async def test_R_20_85_at_her_turn_she_is_told_her_legal_actions(tmp_path: Path) -> None:
    said = await _terminal(tmp_path, "en", ["deal", "bob: abc", "alice: abc"])
    lines = [ln for ln in said.splitlines() if "did not understand" in ln]
    assert len(lines) == 2, said
    bob, alice = lines
    # bob faces the big blind: call, fold or raise; no check, nothing of another game.
    assert "Accepted: call, fold, raise 100 (by), raise to 300" in bob, bob
    assert "check" not in bob and "bet 40" not in bob
    # alice is not to act: hold'em's words (check among them), nobody else's game.
    assert "check" in alice and "bet 40" in alice, alice
    for other in ("bring in", "draw", "declare", "Guts", "<five cards>"):
        assert other not in bob and other not in alice, (bob, alice)
    assert "conservation: ok" in said and "conservation: BROKEN" not in said


async def test_R_20_85_the_words_are_the_reader_s_language(tmp_path: Path) -> None:
    said = await _terminal(tmp_path, "ru", ["deal", "bob: abc"])
    line = next(ln for ln in said.splitlines() if "'abc'" in ln)
    assert "колл" in line and "фолд" in line and "обмен" not in line and "Guts" not in line
    assert "call" not in line


def test_R_20_85_a_rotation_lists_the_words_of_each_of_its_games() -> None:
    said = render(
        game_words(get_variant("holdem"), get_variant("razz"), declare=False, stated=False), "en"
    )
    assert "bring in" in said and "check" in said and "draw" not in said, said


async def test_R_20_85_between_hands_a_rotation_table_lists_its_games_words(
    tmp_path: Path,
) -> None:
    said = await _terminal(tmp_path, "en", ["alice: abc"], "--game", "holdem,draw5")
    line = next(ln for ln in said.splitlines() if "did not understand" in ln)
    assert "draw <cards>" in line and "check" in line, line
    assert "bring in" not in line and "Guts" not in line, line
