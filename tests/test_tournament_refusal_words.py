"""Tournament words players found wrong: the rebuy refusal's reason (R-19.94), how
refusals end (R-19.95) and Russian lines that would need a name declined (R-19.96)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Message

from bot.poker.messages import Chips, Count, Msg, Name, Rule, msg
from bot.tournament import director
from bot.tournament.structure import Entries, Level, Schedule
from bot.words import SUPPORTED, render
from bot.words.catalog import read_catalog
from tests.test_tournament import _started

NOTHING_CHANGED = {
    "en": "Nothing was changed.",
    "de": "Nichts wurde geändert.",
    "fr": "Rien n'a été changé.",
    "es": "No se cambió nada.",
    "pt_BR": "Nada foi alterado.",
    "ru": "Ничего не изменено.",
}


def _msgstrs(m: Message) -> list[str]:
    return [s for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if s]


def _key(m: Message) -> str:
    return str(m.id[0] if isinstance(m.id, tuple) else m.id)


def test_R_19_94_a_player_who_used_his_rebuys_is_told_so() -> None:
    entries = Entries(rebuys=1, rebuy_until=2)
    sched = Schedule((Level(5, 10, 0, 0, 10), Level(10, 20, 0, 0, 10), Level(20, 40)))
    d = _started(4, stack=1000, schedule=sched, entries=entries)
    a, b, *_ = d.seated(1)
    d.hand(1, {a: 500, b: 1500})
    chips = d.state.chips
    stack = director.rebuy(d.state, b)  # above the starting stack: said apart
    assert stack.refusal == msg("tournament.refuse.rebuy_stack", amount=Chips(1000))
    d.do(director.rebuy(d.state, a))
    assert d.state.chips == chips + 1000  # the rebuy's chips, no other
    used = director.rebuy(d.state, a)
    assert used.refusal == msg("tournament.refuse.rebuy_used", count=Count(1))
    assert not used.records and d.state.chips == chips + 1000
    assert "bought your 1 rebuy" in render(used.refusal, "en")
    d.do(director.level_up(d.state))
    d.do(director.level_up(d.state))  # past rebuy_until: the period is over for b
    over = director.rebuy(d.state, b)
    assert over.refusal is not None and over.refusal.key == "tournament.refuse.rebuy_closed"


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_19_95_every_tournament_refusal_says_nothing_was_changed(locale: str) -> None:
    """The tournament's refusals end as the tourney commands' do, in each language."""
    refusals = [
        m for m in read_catalog(locale, "tournament") if _key(m).startswith("tournament.refuse.")
    ]
    assert len(refusals) >= 20
    for m in refusals:
        for s in _msgstrs(m):
            assert s.endswith(" " + NOTHING_CHANGED[locale]), (locale, _key(m), s)
    tourney = [m for m in read_catalog(locale, "tourney") if _key(m) == "tourney.refuse.none"]
    assert _msgstrs(tourney[0])[0].endswith(NOTHING_CHANGED[locale])  # the same words


_NAMES = {"player", "victim", "who"}
_ALLOWED_BEFORE = re.compile(r"(^|: |; |\(|игрок | и |раздаёт )$")
"""Where a name stands as typed: first, after a colon, after "игрок", or as the subject
after its verb ("следующим раздаёт Аня")."""


def test_R_19_96_russian_tournament_lines_never_decline_a_name() -> None:
    """A name stands where it needs no case: first, after a colon, or after "игрок";
    never after a preposition or a noun that governs a case ("против", "у", "за",
    "Стек")."""
    lines = [*read_catalog("ru", "tournament"), *read_catalog("ru", "deal")]
    assert len(lines) > 40
    for m in lines:
        names = _NAMES | ({"first", "second"} if _key(m) == "tournament.heads_up" else set())
        for s in _msgstrs(m):
            for hit in re.finditer(r"\{(\w+)\}", s):
                if hit.group(1) in names:
                    before = s[: hit.start()]
                    assert _ALLOWED_BEFORE.search(before), (_key(m), s)


def test_R_19_96_heads_up_in_russian_names_both_players_as_they_are() -> None:
    said = render(
        Msg(
            "tournament.heads_up",
            (("first", Name("Робот 19")), ("second", Name("Робот 23")), ("rule", Rule("R-19.30"))),
        ),
        "ru",
    )
    assert "Робот 19 и Робот 23" in said and "против" not in said, said
