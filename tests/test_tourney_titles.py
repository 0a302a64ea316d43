"""A tournament's name (R-19.105) and its standings with bounties (R-19.70, R-19.106),
as the Discord boards say them; no Discord needed."""

from __future__ import annotations

from dataclasses import replace

from bot.poker.messages import Chips, Name, Number, msg
from bot.tournament.structure import Config, Entries
from bot.tourney_run.driver import Opened
from bot.tourney_run.titles import event_said, next_number
from cogs.tourney_board import standing_lines, standings_text
from tests.test_tourney_results import _state


def test_R_19_105_a_title_else_the_format_and_the_servers_number_never_the_id() -> None:
    titled = Opened("tabc", 1, "h", 0.0, "Friday Cup", 7, 3)
    assert event_said(titled, "scheduled") == Name("Friday Cup")
    plain = Opened("tabc", 1, "h", 0.0, "", 7, 3)
    assert event_said(plain, "sit_and_go") == msg("tourney.name.sit_and_go", number=Number(3))
    assert event_said(plain, "scheduled") == msg("tourney.name.scheduled", number=Number(3))
    old = Opened("tabc", 1, "h")  # opened before tournaments were numbered
    assert event_said(old, "sit_and_go") == msg("tourney.name.sit_and_go_plain")
    assert event_said(None, "scheduled") == msg("tourney.name.scheduled_plain")
    # Each server counts its own; the index keeps title, guild and number.
    opened = [Opened("a", guild=7, number=1), Opened("b", guild=8, number=1), titled]
    assert next_number(opened, 7) == 4 and next_number(opened, 8) == 2
    assert next_number(opened, 9) == 1 and next_number([], 0) == 1
    assert Opened.from_payload(titled.to_payload()) == titled
    assert Opened.from_payload(old.to_payload()) == old and "title" not in old.to_payload()


def test_R_19_106_each_standings_line_gives_the_bounties_won() -> None:
    state = _state()  # Ann #2 won 30 in bounties, Bob 10, the others none
    bounty = replace(state, config=Config(entries=Entries(bounty=10)))
    lines = standing_lines(bounty)
    plain = standing_lines(replace(state, config=Config()))
    assert len(lines) == len(plain) == 5
    won = [30, 10, 0, 0, 0]
    for line, bare, amount in zip(lines, plain, won, strict=True):
        assert line == msg("tourney.standings.bounties", line=bare, bounties=Chips(amount))
    assert all(m.key != "tourney.standings.bounties" for m in plain)  # no bounties: none said
    text = standings_text(bounty, "en")
    assert "(bounties 30)" in text.splitlines()[0] and "(bounties 10)" in text.splitlines()[1]


def test_R_1_12_names_in_the_standings_text_are_inert() -> None:
    state = _state()
    entries = tuple(
        replace(e, name="**Bob** @everyone") if e.entry == "bob" else e for e in state.entries
    )
    text = standings_text(replace(state, entries=entries), "en")
    assert "\\*\\*Bob\\*\\* \\@everyone" in text and "**Bob**" not in text
