"""``timeouts_to_sit_out = 0``: never sat out for timeouts (R-19.72's tournament tables,
and any table whose host sets it), said as "never" in every language and in
docs/settings.md."""

from __future__ import annotations

import pytest

from bot.poker.messages import msg
from bot.table.settings import NEVER_SIT_OUT, TableSettings, declared
from bot.table.settings_said import setting_said, value_said
from bot.words import render
from bot.words.locales import SUPPORTED
from bot.words.settings_doc import settings_markdown
from tests.harness import HOST, Harness


async def _sleepers(limit: int, hands: int) -> tuple[Harness, list[str]]:
    """Three players who never act: the clock acts for each of them, hand after hand."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=10, time_bank=0, timeouts_to_sit_out=limit)
    for _ in range(hands):
        if not (await h.deal(table)).ok:
            break
        while table.state.in_hand:
            h.time.advance(10)
            assert await h.service.tick() >= 1
            h.check(table)
    out = [s.user_id for s in table.state.seats.values() if s.state == "sitting_out"]
    return h, out


async def test_R_19_72_zero_never_sits_a_player_out_for_timeouts() -> None:
    """R-19.72: with 0, players whose time runs out hand after hand stay dealt in (the
    clock folds or checks for them, R-18.1), and nobody is told he sat out; with 1
    (the same play) the first sleeper is sat out."""
    h, out = await _sleepers(NEVER_SIT_OUT, 6)
    table = h.service.table("t")
    assert out == [] and all(s.state == "active" for s in table.state.seats.values())
    assert max(s.timeouts for s in table.state.seats.values()) >= 3
    assert not [n for _, n in h.presenter.public_notices if n.kind == "sat_out"]
    assert table.state.hand_no >= 6
    _, out_at_one = await _sleepers(1, 2)
    assert out_at_one


async def test_R_19_72_a_host_may_set_never_and_it_is_said_never() -> None:
    """The setting takes 0 (never) and refuses below it; 0 is said "never" in every
    language, and docs/settings.md lists it."""
    h = Harness()
    table = await h.seated(["a", "b"])
    assert (await table.change_settings(HOST, {"timeouts_to_sit_out": 0}, key=h.key())).ok
    assert table.settings.timeouts_to_sit_out == NEVER_SIT_OUT
    refused = await table.change_settings(HOST, {"timeouts_to_sit_out": -1}, key=h.key())
    assert not refused.ok and table.settings.timeouts_to_sit_out == 0
    assert value_said("timeouts_to_sit_out", 0) == msg("settings.zero.never")
    assert value_said("timeouts_to_sit_out", 3) != msg("settings.zero.never")
    for locale in SUPPORTED:
        text = render(setting_said("timeouts_to_sit_out", 0), locale)
        assert render(msg("settings.zero.never"), locale) in text and "{" not in text
    assert "| 0 to 100 timeouts (0: never) |" in settings_markdown()
    assert declared()["timeouts_to_sit_out"].meta.zero == "never"


@pytest.mark.parametrize("limit", [0, 2, 100])
def test_R_19_72_the_never_value_is_kept_with_the_tables_settings(limit: int) -> None:
    kept = TableSettings.from_dict(TableSettings(timeouts_to_sit_out=limit).to_dict())
    assert kept.timeouts_to_sit_out == limit
