"""The settings say what they refuse and what changed as messages of the ``settings``
catalogue (issue 22, "words at the edge", table settings): every setting has a label in
every language, a change is said from its old to its new value, and a German table hears
a settings change in German, end to end, with no English in it."""

from __future__ import annotations

import io
import re
import typing
from pathlib import Path

import pytest

from bot.local.terminal import run
from bot.poker.messages import Chips, Count, Msg, Name, Number, Rule, Term, msg
from bot.table.errors import SettingsError
from bot.table.settings import ENGINE_INTERNAL, META, RANGES, TableSettings, declared
from bot.table.settings_said import change_said, changed_said, value_said
from bot.table.text_actions import parse_value
from bot.words import SUPPORTED, render
from bot.words.catalog import read_catalog
from bot.words.settings_doc import INTERNAL_WHY, settings_markdown
from tests.harness import HOST, Harness
from tests.said import en, params_in


def _translated(locale: str) -> dict[str, str]:
    """The settings catalogue of one language: key -> its (first) text."""
    out: dict[str, str] = {}
    # The host tools' settings (straddles, R-20.57) have their labels in ``host``.
    for m in (*read_catalog(locale, "settings"), *read_catalog(locale, "host")):
        if not m.id:
            continue
        key = str(m.id[0] if isinstance(m.id, tuple) else m.id)
        text = m.string[0] if isinstance(m.string, tuple) else m.string
        out[key] = str(text)
    return out


@pytest.mark.parametrize("locale", SUPPORTED)
def test_issue22_every_setting_has_a_label_in_every_language(locale: str) -> None:
    """Every declared setting is described in META (a new engine option without words
    would be named by its code), and has a non-empty label in every language."""
    assert set(declared()) <= set(META), set(declared()) - set(META)
    texts = _translated(locale)
    for name, setting in declared().items():
        assert setting.meta.catalogued, name
        label = texts.get(f"settings.label.{name}")
        assert label, (locale, name)
        assert render(setting.label, locale) == label


@pytest.mark.parametrize("locale", SUPPORTED)
def test_issue22_every_choice_unit_and_game_word_is_in_every_language(locale: str) -> None:
    """Each choice of a setting (``declare=simultaneous``), each unit and the games each
    setting applies to are catalogue words in every language, never the stored code."""
    texts = _translated(locale)
    for name, setting in declared().items():
        if typing.get_origin(setting.hint) is typing.Literal:
            for value in typing.get_args(setting.hint):
                key = f"settings.choice.{name}.{value or 'default'}"
                assert texts.get(key), (locale, key)
                assert render(value_said(name, value), locale) == texts[key]
        if setting.meta.unit:
            assert texts.get(f"settings.unit.{setting.meta.unit}"), (locale, name)
        if setting.games_said is not None:
            assert render(setting.games_said, locale), (locale, name)


def test_issue22_a_change_names_the_setting_and_its_old_and_new_value() -> None:
    """The words of a change are data: the label, and each value as a message."""
    said = change_said("action_clock", 60.0, 45.0)
    assert said.key == "settings.change"
    assert said.get("setting") == msg("settings.label.action_clock")
    assert said.get("new") == value_said("action_clock", 45.0)
    assert en(said) == "action clock from 60 s to 45 s"
    assert render(said, "de") == "Zeit pro Zug: 60 s → 45 s"
    told = changed_said(TableSettings(), TableSettings().changed({"straddle": True}))
    assert told.key == "settings.changed"
    assert told.get("now") == TableSettings().stakes_said()
    same = changed_said(TableSettings(), TableSettings())
    assert same.key == "settings.changed_nothing"


def test_issue22_a_language_set_back_to_the_servers_is_said() -> None:
    """``language`` is stored only when set: turning it back to the server's is still
    a change the table says (it is missing from the new settings' stored form)."""
    german = TableSettings(language="de")
    told = changed_said(german, german.changed({"language": ""}))
    assert told.key == "settings.changed", told
    assert "from Deutsch to the server's language" in en(told)


def test_R_2_6_a_refusal_carries_the_legal_range_as_typed_parameters() -> None:
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"action_clock": 0})
    told = refused.value.msg
    assert told == msg(
        "settings.out_of_range",
        setting=msg("settings.label.action_clock"),
        low=Chips(1),
        high=msg("settings.unit.seconds", count=Count(3600)),
        value=Name("0"),
    )
    assert RANGES["action_clock"] == (1, 3600, "seconds")
    assert render(told, "en") == (
        "Out of range: action clock is 1 to 3,600 seconds (R-2.6); 0 is outside that."
    )
    assert render(told, "de") == (
        "Außerhalb des Bereichs: Zeit pro Zug ist 1 bis 3.600 Sekunden (R-2.6); 0 liegt außerhalb."
    )
    with pytest.raises(SettingsError) as refused:
        TableSettings().changed({"game": "stud", "declare": "simultaneous"})
    games = refused.value.msg.get("games")
    assert isinstance(games, Msg) and games.get("rule") == Rule("R-13.1")


async def test_R_2_6_a_refused_change_is_a_message_and_changes_nothing() -> None:
    h = Harness()
    table = await h.table()
    before = table.settings
    out = await table.change_settings(HOST, {"seats": 11}, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "settings.seats_range"
    assert table.settings == before
    assert not [n for _, n in h.presenter.public_notices if n.kind == "settings"]


async def test_R_1_1_the_seats_range_counts_seats_not_chips() -> None:
    """R-1.1 / R-2.6: the refused seat count's range is a number of seats: the low end a
    plain number, the high end counted in seats, the refused value as typed."""
    h = Harness()
    table = await h.table()
    out = await table.change_settings(HOST, {"seats": 11}, key=h.key())
    assert not out.ok and out.msg.key == "settings.seats_range"
    assert out.msg.get("low") == Number(2)
    assert out.msg.get("high") == msg("settings.unit.seats", count=Count(10))
    assert not any(isinstance(p, Chips) for p in params_in(out.msg))
    assert render(out.msg, "en") == "A table has 2 to 10 seats (R-1.1, R-2.6); 11 is outside that."


async def test_issue22_the_settings_notice_is_a_message_and_the_outcome_the_same() -> None:
    """The table's public "settings changed" notice and the host's answer carry the
    same message."""
    h = Harness()
    table = await h.table()
    out = await table.change_settings(HOST, {"action_clock": 45}, key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "settings.changed"
    notices = [n for _, n in h.presenter.public_notices if n.kind == "settings"]
    assert notices and notices[-1].msg == out.msg


ENGLISH_WORDS = re.compile(
    r"\b(Settings|changed|from|Now|action clock|rotation of|is played in|Nothing|"
    r"outside|not a value|whole number|Fixed-limit|No-limit|blinds)\b"
)


async def test_issue22_a_german_table_says_a_settings_change_in_german_end_to_end(
    tmp_path: Path,
) -> None:
    """At the terminal with ``--lang de``: a change, a change of game, a rotation and two
    refusals are said in German, with the card room's words (Blinds, Fixed-Limit); no
    English word of the settings reaches the table."""
    lines = [
        "set action_clock=45 time_bank=10",
        "set game=razz:fixed",
        "set rotation=horse",
        "set seats=11",
        "set declare=maybe",
    ]
    out = io.StringIO()
    argv = ["--db", str(tmp_path / "de.sqlite3"), "--lang", "de", "al", "bo"]
    code = await run(argv, inp=io.StringIO("\n".join(lines) + "\n"), out=out)
    assert code == 0
    text = out.getvalue()
    said = [ln for ln in text.splitlines() if "Einstellungen geändert" in ln]
    assert len(said) == 3, text
    assert "Zeit pro Zug: 60 s → 45 s" in said[0], said[0]
    assert "Zeitbank: 30 s → 10 s" in said[0], said[0]
    assert "Jetzt: No-Limit Texas Hold'em, Blinds 1/2" in said[0], said[0]
    assert "Spiel: Texas Hold'em → Razz" in said[1], said[1]
    assert "Fixed-Limit Razz" in said[1], said[1]
    assert "Jetzt: Rotation aus Fixed-Limit Texas Hold'em" in said[2], said[2]
    refusals = [ln for ln in text.splitlines() if ln.startswith("! ")]
    assert any("Ein Tisch hat 2 bis 10 Plätze" in r for r in refusals), refusals
    assert any("ist kein Wert für Ansage" in r for r in refusals), refusals
    for line in said + refusals:
        assert not ENGLISH_WORDS.search(line), line


def test_issue22_docs_settings_md_is_the_english_catalogue() -> None:
    """docs/settings.md reads each setting's label from the English catalogue, and says
    why each internal engine field is no setting."""
    page = settings_markdown()
    assert set(INTERNAL_WHY) == ENGINE_INTERNAL
    for name, setting in declared().items():
        assert f"| `{name}` | {en(setting.label)} |" in page, name
    assert "| `rake_percent_bp` | rake | 0 | 0 to 2,000 hundredths of a percent |" in page


def test_R_20_57_an_on_off_word_for_a_number_setting_is_said_back_as_typed() -> None:
    """R-20.57: ``straddles=on`` is refused saying "on" (in the reader's words), not the
    parser's True, with what the setting takes; nothing changes."""
    with pytest.raises(SettingsError) as info:
        TableSettings().changed({"straddles": parse_value("on")})
    said = info.value.msg
    assert said.key == "settings.bad_value" and said.get("value") == Term("settings.value.on")
    assert "True" not in render(said, "en") and "вкл" in render(said, "ru")
