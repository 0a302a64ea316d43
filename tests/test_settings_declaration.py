"""The table's settings are one declaration (issue 14): the engine options are read
from the engine's ``Rules`` fields, so a new engine option is one edit there, and the
Discord thread a table runs in is the Discord side's record, not a table setting.

R-2.6 (every number has a range, said in the refusal) holds for the declared engine
options as for the table's own; old logs (settings dicts with every option, and the
``thread_id`` older versions kept there) still load.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Literal

import pytest

from bot.poker.messages import Msg, Name, msg
from bot.poker.rules import Rake, Rules
from bot.table import settings as settings_mod
from bot.table.errors import SettingsError
from bot.table.ports import MemoryStore
from bot.table.service import TableService
from bot.table.settings import (
    ADDED_LATER,
    ENGINE_INTERNAL,
    META,
    Meta,
    TableSettings,
    declared,
    engine_settings,
)
from bot.table.settings_said import setting_said
from bot.words import render
from bot.words.settings_doc import settings_markdown
from tests.harness import HOST, Harness

# Every setting name a table had before the declaration (old logs store all of them);
# thread_id moved to the Discord side and is read from old settings by cogs/prefs.py.
HISTORICAL_NAMES = [
    "variant",
    "limit",
    "dealers_choice",
    "rotation",
    "small_blind",
    "big_blind",
    "ante",
    "ante_mode",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_buy_in",
    "max_buy_in",
    "seats",
    "return_minutes",
    "button_rule",
    "missed_blinds",
    "post_to_enter",
    "straddle",
    "auto_deal",
    "min_players",
    "hand_pause",
    "action_clock",
    "time_bank",
    "timeouts_to_sit_out",
    "declare_clock",
    "raise_cap",
    "cap_lift",
    "straddle_counts_as_raise",
    "deal_cap",
    "min_raise_rule",
    "check_raise",
    "incomplete_rule",
    "half_bet_raise",
    "checking_out",
    "clamp_to_max",
    "burn",
    "rake_percent_bp",
    "rake_cap",
    "rake_step_chips",
    "rake_step_per",
    "rake_step_mode",
    "no_flop_no_drop",
    "odd_chip",
    "auto_show_all",
    "jacks_to_open",
    "declare",
    "declare_default",
    "no_second_best",
    "both_may_split",
    "wild",
    "declared_hands",
    "time_charge",
    "time_period",
    "open_stakes",
    "pot_system",
    "guts_stake",
    "guts_mode",
    "guts_max_pot",
    "guts_only_worst_pays",
    "guts_worst_pays_ante",
    "guts_ghost",
    "guts_legs",
]


def test_r2_6_every_rules_field_is_a_setting_or_listed_engine_internal() -> None:
    """Each field of the engine's Rules (and of its nested Rake) is a declared setting or
    named in ENGINE_INTERNAL with the reason, never both and never neither: a new engine
    option cannot be silently missing from the table, and the list cannot go stale."""
    engine = engine_settings()
    reached = {s.path for s in engine.values()}
    for f in fields(Rules):
        hint = Rake if f.name == "rake" else None
        if f.name in ENGINE_INTERNAL:
            assert (f.name,) not in reached, f"{f.name} is both a setting and internal"
        elif hint is not None and is_dataclass(hint):
            for g in fields(hint):
                assert (f.name, g.name) in reached, f"rake option {g.name} is not a setting"
        else:
            assert (f.name,) in reached, f"Rules.{f.name} is neither a setting nor internal"
    rules_fields = {f.name for f in fields(Rules)}
    assert set(ENGINE_INTERNAL) <= rules_fields, "ENGINE_INTERNAL names a field Rules lacks"
    # The table's own settings never shadow an engine option of the same name.
    table_only = {n for n, s in declared().items() if not s.engine}
    assert not table_only & set(engine)
    assert set(META) <= set(declared()), "META describes a setting nobody declares"


def test_r2_6_every_historical_setting_name_is_still_declared() -> None:
    """Old logs hold every setting by name: each is still a setting, with its old
    default (the log written by a default table reads back equal)."""
    assert set(declared()) - set(HISTORICAL_NAMES) == set(ADDED_LATER)
    stored = TableSettings().to_dict()  # a newer setting at its default is not written
    assert set(stored) == set(HISTORICAL_NAMES) | {"extra"}
    assert TableSettings.from_dict(stored) == TableSettings()
    assert stored["raise_cap"] == 4 and stored["no_flop_no_drop"] is True


def test_r2_6_old_settings_dict_with_a_thread_id_loads() -> None:
    """A settings dict from an older log (thread_id among the settings, every engine
    option flat) loads: the options as they were, the thread id kept aside in
    ``extra`` for the Discord side to read once."""
    old = {**TableSettings().to_dict(), "thread_id": 555, "raise_cap": None, "wild": "joker"}
    old.pop("extra")
    s = TableSettings.from_dict(old)
    assert s.raise_cap is None and s.wild == "joker"
    assert s.extra == {"thread_id": 555}
    assert TableSettings.from_dict(s.to_dict()) == s
    with pytest.raises(SettingsError) as refused:
        s.changed({"thread_id": 9})  # no longer a table setting
    assert refused.value.msg.key == "settings.unknown"
    assert refused.value.msg.get("name") == Name("'thread_id'")


def test_r2_6_a_misspelt_setting_in_code_is_refused_by_name() -> None:
    """R-2.6 (what is not allowed is refused, saying what is): settings built in code
    with a misspelt name are refused, naming it and the names there are. The
    constructor is the dataclass's, keyword-only, so mypy refuses a misspelt table
    setting too; engine options go by name in ``options`` (or flat through ``of``)."""
    with pytest.raises(TypeError, match="big_blnd"):
        TableSettings(big_blnd=2)  # type: ignore[call-arg]  # the misspelling under test
    with pytest.raises(TypeError, match=r"no engine option 'raise_capp'.*raise_cap"):
        TableSettings(options={"raise_capp": 3})
    with pytest.raises(TypeError, match=r"no setting 'raise_capp'.*raise_cap"):
        TableSettings.of(raise_capp=3)
    with pytest.raises(TypeError, match=r"no setting 'big_blnd'.*big_blind"):
        TableSettings.of(big_blnd=2)
    built = TableSettings.of(big_blind=4, raise_cap=3)
    assert built == TableSettings(big_blind=4, options={"raise_cap": 3})
    assert (built.big_blind, built.raise_cap) == (4, 3)


def test_r2_6_stored_settings_are_checked_and_unknown_names_logged_not_applied(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """R-2.6: settings read from the log are checked like typed ones (a value of the
    wrong type is refused in words); a stored name this version does not know (a
    misspelling, or a newer version's option) is not applied: it is kept unread in
    ``extra`` and logged by name."""
    stored = {**TableSettings().to_dict(), "raise_capp": 3}
    with caplog.at_level("WARNING", logger="bot.table.settings"):
        loaded = TableSettings.from_dict(stored)
    assert loaded.raise_cap == TableSettings().raise_cap
    assert loaded.extra == {"raise_capp": 3}
    assert "raise_capp" in caplog.text and "kept unread" in caplog.text
    assert TableSettings.from_dict(loaded.to_dict()) == loaded  # kept for a newer version
    caplog.clear()
    with caplog.at_level("WARNING", logger="bot.table.settings"):
        # A name older versions stored and this one retired (docs/architecture.md,
        # "Settings") is expected: kept aside without a warning.
        TableSettings.from_dict({**TableSettings().to_dict(), "thread_id": 5})
    assert caplog.text == ""
    with pytest.raises(SettingsError) as refused:
        TableSettings.from_dict({**TableSettings().to_dict(), "raise_cap": "three"})
    assert refused.value.msg == msg(
        "settings.bad_value",
        value=Name("'three'"),
        setting=msg("settings.label.raise_cap"),
        allowed=msg("settings.allowed.or_none", allowed=msg("settings.allowed.whole")),
    )
    with pytest.raises(SettingsError) as refused:
        TableSettings.from_dict({**TableSettings().to_dict(), "big_blind": "2x"})
    assert refused.value.msg.key == "settings.bad_value"
    assert refused.value.msg.get("setting") == msg("settings.label.big_blind")
    assert refused.value.msg.get("allowed") == msg("settings.allowed.whole")


@dataclass(frozen=True, slots=True)
class _FancyRules(Rules):
    """The engine with two options it did not have: one edit, here."""

    fancy_cap: int = 0
    fancy_mode: Literal["plain", "wild"] = "plain"


@pytest.fixture
def fancy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings_mod, "RULES", _FancyRules)
    # Words for one of them (optional: the other gets its name and the stake range).
    monkeypatch.setitem(META, "fancy_cap", Meta(unit="chips", range=(0, 50), catalogued=False))


async def test_r2_6_a_new_engine_option_is_parsed_validated_shown_and_dealt(fancy: None) -> None:
    """A new Rules option, with no edit to the table: ``set`` takes it (as typed on
    the terminal), refuses a wrong type or a value outside its range with the range
    (R-2.6), says the change in words, stores it in the log and gives it to each deal's
    rules; and a default table deals it at its engine default."""
    from bot.local.terminal import parse_settings

    assert "fancy_cap" in declared() and "fancy_mode" in declared()
    h = Harness()
    table = await h.seated(["a", "b"])
    assert table.settings.fancy_cap == 0  # the engine's default

    fancy_cap = msg("settings.label.unnamed", name=Name("fancy cap"))
    fancy_mode = msg("settings.label.unnamed", name=Name("fancy mode"))
    for line, key, said in (
        ("fancy_cap=abc", "settings.bad_value", {"allowed": msg("settings.allowed.whole")}),
        ("fancy_cap=51", "settings.out_of_range", {"high": msg("settings.unit.chips")}),
        ("fancy_mode=loud", "settings.bad_value", {"setting": fancy_mode}),
    ):
        changes = parse_settings(line)
        assert isinstance(changes, dict)
        out = await table.change_settings(HOST, changes, key=h.key())
        assert not out.ok and out.msg is not None and out.msg.key == key, out.msg
        for name, value in said.items():
            got = out.msg.get(name)
            assert isinstance(got, Msg) and got.key == value.key, (name, got)
        if key == "settings.out_of_range":
            assert out.msg.get("setting") == fancy_cap
            assert render(out.msg, "en").endswith("0 to 50 chips (R-2.6); 51 is outside that.")
    assert table.settings.fancy_cap == 0  # nothing changed

    changes = parse_settings("fancy_cap=7 fancy_mode=wild")
    assert isinstance(changes, dict)
    out = await table.change_settings(HOST, changes, key=h.key())
    assert out.ok, out.msg
    assert out.msg is not None and out.msg.key == "settings.changed"
    said = render(out.msg, "en")
    assert "fancy cap from 0 to 7" in said and "fancy mode from plain to wild" in said
    assert render(setting_said("fancy_cap", 7), "de") == "fancy cap: 7"

    stored = [e for e in await h.store.events("t") if e.kind == "settings"][-1]
    assert stored.payload["settings"]["fancy_cap"] == 7
    assert TableSettings.from_dict(stored.payload["settings"]) == table.settings

    rules = table.settings.rules_for("holdem", "no_limit", 2, (0, 1))
    assert isinstance(rules, _FancyRules)
    assert (rules.fancy_cap, rules.fancy_mode) == (7, "wild")
    assert "fancy_cap" in settings_markdown()


def test_r2_6_without_the_new_option_it_is_refused_by_name() -> None:
    """The control for the test above: with the engine as it is, the name is unknown."""
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"fancy_cap": 7})
    assert refused.value.msg.key == "settings.unknown"
    assert refused.value.msg.get("name") == Name("'fancy_cap'")


def test_engine_options_pass_to_each_deal_only_in_the_games_they_apply_to() -> None:
    """R-4.9, R-10.7, R-13.1, R-2.4: in a rotation, an option applies to the games it
    can apply to; the others are dealt the engine's default."""
    s = TableSettings.of(
        rotation=("draw5:fixed", "omaha8:fixed", "holdem:no_limit"),
        jacks_to_open=True,
        declare="simultaneous",
        open_stakes=True,
        rake_percent_bp=500,
        rake_cap=3,
    )
    draw = s.rules_for("draw5", "fixed", 3, (1, 2))
    omaha = s.rules_for("omaha8", "fixed", 3, (1, 2))
    holdem = s.rules_for("holdem", "no_limit", 3, (1, 2))
    assert draw.jacks_to_open and not omaha.jacks_to_open
    assert omaha.declare == "simultaneous" and draw.declare == "none"
    assert omaha.open_stakes and not holdem.open_stakes
    assert holdem.rake == Rake(percent_bp=500, cap=3)


def test_docs_settings_page_is_written_from_the_declaration() -> None:
    """docs/settings.md lists every setting as declared (regenerate it when it fails)."""
    page = Path(__file__).resolve().parents[1] / "docs" / "settings.md"
    assert page.read_text(encoding="utf-8") == settings_markdown()


async def test_a_thread_id_in_old_settings_becomes_the_discord_record_once() -> None:
    """A table created by an older version holds its thread in its settings: at start-up
    the Discord side reads it from there once, records it in its own log, and from then
    on reads the record (a second start writes nothing)."""
    from cogs.prefs import TABLE_THREADS_LOG, load_table_threads, migrate_table_threads

    store = MemoryStore()
    old = {**TableSettings().to_dict(), "thread_id": 4242}
    old.pop("extra")
    await store.append("123", "created", {"settings": old, "host": HOST, "first_button": 0})
    service = TableService(store, Harness().presenter)
    await service.recover()
    extras = {tid: t.settings.extra for tid, t in service.tables.items()}
    assert extras == {"123": {"thread_id": 4242}}

    assert await migrate_table_threads(store, extras) == {"123": 4242}
    assert await load_table_threads(store) == {"123": 4242}
    assert await migrate_table_threads(store, extras) == {"123": 4242}
    assert len(await store.events(TABLE_THREADS_LOG)) == 1  # read once, recorded once


async def test_invariant_4_a_table_thread_is_a_log_record_a_bad_row_logged_not_applied(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The Discord side's thread record goes through the typed log like its other
    records (bot/table/log.py ``TableThread``): the payload is the one it always wrote
    (``{"table", "thread"}``); a row that does not fit is logged by seq and kind and
    skipped (the table stays in its channel), never read as a thread."""
    from bot.table.log import TableThread
    from cogs.prefs import TABLE_THREADS_LOG, load_table_threads, save_table_thread

    store = MemoryStore()
    await save_table_thread(store, "123", 77)
    (written,) = await store.events(TABLE_THREADS_LOG)
    assert (written.kind, written.payload) == (TableThread.KIND, {"table": "123", "thread": 77})
    await store.append(TABLE_THREADS_LOG, TableThread.KIND, {"table": "456", "thread": "x"})
    with caplog.at_level("WARNING", logger="cogs.prefs"):
        assert await load_table_threads(store) == {"123": 77}
    assert "'thread' is 'x', not a whole number" in caplog.text and "#2" in caplog.text
