"""A setting is applied or refused with the reason, never accepted and then ignored.

Found at the terminal: a HORSE rotation could not be turned off (``set rotation=`` and
``set rotation=none`` were refused), ``set game=nlhe`` under a rotation said "Now:
No-limit hold'em" and dealt the rotation's game, and ``set game=stud
declare=simultaneous`` was accepted and dealt plain high stud. Rulings in
docs/rules-notes.md ("Settings that do not apply").
"""

from __future__ import annotations

import io
import typing
from pathlib import Path
from typing import Any

import pytest

from bot.local.terminal import run
from bot.poker.messages import Name, msg
from bot.poker.rules import Limit
from bot.poker.variants import VARIANTS
from bot.table.errors import SettingsError
from bot.table.settings import TableSettings, conventional_limit, declared


async def _script(tmp_path: Path, lines: list[str], *players: str) -> str:
    out = io.StringIO()
    inp = io.StringIO("\n".join(lines) + "\n")
    code = await run(["--db", str(tmp_path / "s.sqlite3"), *players], inp=inp, out=out)
    assert code == 0
    return out.getvalue()


def _dealt(text: str) -> str:
    """The game of the last hand dealt, as its first line names it."""
    return text.rsplit("Hand #", 1)[1].split(":", 1)[1].split(",")[0].strip()


@pytest.mark.parametrize("off", ["", "none", "off", "None"])
async def test_R_16_2_rotation_none_or_empty_turns_the_rotation_off(
    tmp_path: Path, off: str
) -> None:
    text = await _script(tmp_path, ["set rotation=horse", f"set rotation={off}", "deal"], "a", "b")
    assert "!" not in text.split("set rotation", 1)[-1].split("Hand #")[0], text
    changed = [ln for ln in text.splitlines() if "Settings changed" in ln][-1]
    assert "to none. Now: No-limit Texas hold'em" in changed, changed
    assert _dealt(text) == "No-limit Texas hold'em"
    rotation = TableSettings(rotation=("holdem:fixed", "razz"))
    assert rotation.changed({"rotation": None}).rotation == ()


async def test_R_16_2_a_game_named_under_a_rotation_ends_it_and_is_the_game_dealt(
    tmp_path: Path,
) -> None:
    text = await _script(tmp_path, ["set rotation=horse", "set game=nlhe", "deal"], "a", "b")
    changed = [ln for ln in text.splitlines() if "Settings changed" in ln][-1]
    assert "Fixed-limit Razz" in changed and "to none" in changed, changed
    assert "Now: No-limit Texas hold'em" in changed, changed
    assert _dealt(text) == "No-limit Texas hold'em"  # what the change said, not Limit hold'em


async def test_R_16_2_a_rotation_says_its_games_as_now(tmp_path: Path) -> None:
    text = await _script(tmp_path, ["set rotation=horse"], "a", "b")
    changed = next(ln for ln in text.splitlines() if "Settings changed" in ln)
    now = changed.split("Now: ", 1)[1]
    assert now.startswith("rotation of Fixed-limit Texas hold'em") and "Razz" in now, now


def test_R_16_2_a_game_and_a_rotation_in_one_change_are_refused() -> None:
    horse = TableSettings().changed({"rotation": "horse"})
    with pytest.raises(SettingsError) as refused:
        horse.changed({"game": "plo", "rotation": "horse"})
    assert refused.value.msg.key == "settings.game_and_rotation"
    # A game with the rotation turned off in the same change is one game.
    assert horse.changed({"game": "plo", "rotation": "none"}).games() == (("omaha", "pot_limit"),)


async def test_R_13_1_declare_with_a_game_that_is_not_high_low_is_refused(tmp_path: Path) -> None:
    text = await _script(tmp_path, ["set game=stud declare=simultaneous", "deal"], "a", "b")
    refusal = next(ln for ln in text.splitlines() if ln.startswith("! "))
    assert "declare is played in high-low games (R-13.1)" in refusal
    assert "Seven-card stud" in refusal and "Nothing was changed" in refusal
    assert "Settings changed" not in text
    assert _dealt(text) == "No-limit Texas hold'em"  # nothing changed, as it said


def _other_value(name: str) -> Any:
    setting = declared()[name]
    hint, default = setting.hint, setting.default
    base = typing.get_args(hint)[0] if typing.get_origin(hint) is not None else hint
    if typing.get_origin(hint) is typing.Literal:
        return next(v for v in typing.get_args(hint) if v != default)
    if hint is bool:
        return not default
    low = setting.range[0] if setting.range else 0
    assert base is int or int in typing.get_args(hint), (name, hint)
    return next(v for v in (1, 2, 3, low + 1) if v != default and v >= low)


def _games(name: str, played: bool) -> list[tuple[str, str]]:
    applies = declared()[name].meta.applies
    assert applies is not None
    games = [(v, lim) for v in VARIANTS for lim in {conventional_limit(v), "fixed", "no_limit"}]
    return [(v, lim) for v, lim in games if applies(v, Limit(lim)) == played and v != "guts"]


GAME_ONLY = sorted(n for n, s in declared().items() if s.meta.applies is not None)


def test_every_setting_of_some_games_has_its_games_in_words() -> None:
    assert {"declare", "straddle", "bring_in", "raise_cap", "guts_legs"} <= set(GAME_ONLY)
    for name in GAME_ONLY:
        assert declared()[name].meta.games, name


@pytest.mark.parametrize("name", GAME_ONLY)
def test_a_setting_is_refused_in_a_game_it_never_applies_to_naming_its_games(name: str) -> None:
    """Every setting that applies to some games only, set at a table of a game it does
    not apply to: refused, with the games it is for; nothing changed."""
    value = _other_value(name)
    for variant, limit in _games(name, played=False)[:6]:
        table = TableSettings(variant=variant, limit=limit)
        with pytest.raises(SettingsError) as refused:
            table.changed({name: value})
        told = refused.value.msg
        if told.key == "settings.jacks_unplayed":
            continue  # said with the game the table plays (its own message)
        assert told.key in ("settings.unplayed", "settings.wild_unplayed"), told
        assert told.get("games") == declared()[name].games_said, told
        if told.key == "settings.unplayed":
            assert told.get("setting") == declared()[name].label, told
    guts = "guts" if name.startswith("guts_") else None
    played = [(guts, "")] if guts else _games(name, played=True)
    variant, limit = played[0]
    context = {"big_blind": 10} if name == "bring_in" else {}
    assert variant is not None
    table = TableSettings(variant=variant, limit=limit).changed(context)
    assert table.changed({name: value}).value(name) == value  # where it applies: applied


def test_a_change_of_game_that_would_leave_a_setting_unplayed_says_what_to_set() -> None:
    stud8 = TableSettings(variant="stud8").changed({"declare": "simultaneous"})
    with pytest.raises(SettingsError) as refused:
        stud8.changed({"game": "stud"})
    assert refused.value.msg.key == "settings.unplayed_kept"
    assert refused.value.msg.get("default") == Name("none")
    assert stud8.changed({"game": "stud", "declare": "none"}).variant == "stud"
    # In a rotation or under dealer's choice, a setting is played if any game plays it.
    assert stud8.changed({"rotation": "stud,stud8"}).declare == "simultaneous"


def test_R_15_2_the_guts_pot_system_is_refused_outside_guts() -> None:
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"pot_system": "guts"})
    assert refused.value.msg == msg("settings.guts_pot_system")


def test_a_setting_stored_where_it_never_applied_does_not_block_other_changes() -> None:
    """A table from before the refusals (a raise cap kept at a no-limit table) still
    takes an unrelated change, and a change of game; only the setting itself is refused
    when it is set again there."""
    old = TableSettings.of(variant="holdem", limit="no_limit", raise_cap=2)
    assert old.changed({"action_clock": 45}).action_clock == 45
    assert old.changed({"game": "plo"}).variant == "omaha"
    with pytest.raises(SettingsError):
        old.changed({"raise_cap": 3})


def test_R_16_9_a_structure_alone_under_a_rotation_is_refused_saying_how() -> None:
    """The rotation's games carry their structures: `set limit=pot_limit` under HORSE
    was kept and never dealt. Refused, naming both ways; with a game it is that game."""
    horse = TableSettings().changed({"rotation": "horse"})
    with pytest.raises(SettingsError) as refused:
        horse.changed({"limit": "pot_limit"})
    assert refused.value.msg == msg("settings.rotation_structure")
    one = horse.changed({"game": "holdem", "limit": "pot_limit"})
    assert one.rotation == () and one.games() == (("holdem", "pot_limit"),)
    assert horse.changed({"rotation": "none", "limit": "pot_limit"}).games() == (
        ("holdem", "pot_limit"),
    )
