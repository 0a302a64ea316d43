"""Engine rules versions (R-16.8): hand records written before a rule change.

A hand start records the engine rules version it was dealt under; a record without one is
version 1, the engine before the floor review of issue 12. A hand in progress at an
upgrade whose record the new engine cannot replay is cancelled at recovery with every
chip back where it was; one that replays goes on.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.poker.actions import Call, action_to_dict
from bot.poker.errors import ConfigError
from bot.poker.messages import RAW, Msg, Number, Rule, msg
from bot.poker.record import ENGINE_RULES, OLD_ENGINE_RULES, HandStart
from bot.poker.rules import Rules
from bot.table.errors import TableError
from bot.table.ports import MemoryStore
from bot.words import render
from tests.harness import Harness, told_story
from tests.said import said_in


def _old_form(store: MemoryStore, table_id: str = "t") -> dict[str, Any]:
    """Rewrite the log's last hand start as the old engine wrote it: no version."""
    started = [e for e in store._events[table_id] if e.kind == "hand_started"][-1]
    start = dict(started.payload["start"])
    start.pop("engine_rules")
    started.payload["start"] = start
    return start


def test_r16_8_the_version_is_recorded_and_an_old_record_reads_as_version_1() -> None:
    """R-16.8: every hand start carries the engine rules version; one written without it
    (before the floor review) reads as version 1."""
    start = HandStart(Rules(), (100, 100), ())
    data = start.to_dict()
    assert data["engine_rules"] == ENGINE_RULES
    assert HandStart.from_dict(data).current_rules
    del data["engine_rules"]
    old = HandStart.from_dict(data)
    assert old.engine_rules == OLD_ENGINE_RULES and not old.current_rules


async def test_r16_8_an_old_hand_that_no_longer_replays_is_cancelled_with_chips_back() -> None:
    """R-16.8 (with R-3.8, R-2.5): blinds 1/1, four players, a hand in progress written
    by the old engine, which asked the big blind (position 1) first; the new engine asks
    position 2, so the record does not replay. Recovery cancels the hand, every stack is
    as it was before the deal, the ledger agrees, the table says why and deals on."""
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], small_blind=1, big_blind=1)
    before = {s.user_id: s.stack for s in table.state.seats.values()}
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    _old_form(h.store)  # type: ignore[arg-type]
    bb_seat = info.order[1]
    await h.store.append(
        "t",
        "action",
        {
            "hand_no": info.hand_no,
            "seat": bb_seat,
            "action": action_to_dict(Call(1)),
            "text": "b calls",
            "at": 0.0,
        },
    )

    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []  # not halted, and no exception
    again = h2.service.table("t")
    assert again.state.current is not None and again.state.current.ended
    assert {s.user_id: s.stack for s in again.state.seats.values()} == before
    assert again.snapshot().last_said is None  # the old call does not stand
    h2.check(again)
    cancelled = msg("table.hand_unresumable", hand=Number(info.hand_no), rule=Rule("R-16.8"))
    said = [n.msg for _, n in h2.presenter.public_notices]
    assert any(said_in(m, cancelled) for m in said), said
    ended = [e for e in await h.store.events("t") if e.kind == "hand_ended"]
    assert ended[-1].payload["reason"] == "cancelled" and ended[-1].payload["rake"] == 0
    # The cancelled hand is not exported as if it had been played: a clear refusal.
    with pytest.raises(TableError) as refused:
        await again.hand_history(info.hand_no)
    assert refused.value.msg.get("rule") == Rule("R-16.8")
    # Why, as the engine's own message (not its English as text): it reads in German.
    why = refused.value.msg.get("why")
    assert refused.value.msg.key == "table.unreplayable" and isinstance(why, Msg)
    assert why.key != RAW and render(refused.value.msg, "de").startswith("Hand #")
    # A second recovery reads the cancellation from the log: the same table.
    h3 = Harness(store=h.store)
    assert await h3.service.recover() == []
    assert {s.user_id: s.stack for s in h3.service.table("t").state.seats.values()} == before
    # And play goes on.
    assert (await h3.deal(h3.service.table("t"))).ok


async def test_r16_8_an_old_hand_that_still_replays_goes_on() -> None:
    """R-16.8: an old-form record (no version) that the engine replays is resumed, not
    cancelled: blinds 1/2, nothing a rule change touched."""
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    await h.do(table, h.to_act(table), "call")
    _old_form(h.store)  # type: ignore[arg-type]
    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []
    again = h2.service.table("t")
    assert again.state.hand is not None and not again.state.current.ended  # type: ignore[union-attr]
    assert again.state.current.start.engine_rules == OLD_ENGINE_RULES  # type: ignore[union-attr]
    await h2.play_passively(again)
    h2.check(again)


async def test_r16_8_an_old_hand_whose_rules_are_now_refused_is_cancelled() -> None:
    """R-16.8 with R-3.5: a stud hand dealt by the old engine with a bring-in above the
    small bet (refused since R-3.9) is in progress at the upgrade. The log is still read,
    the hand is cancelled with every chip back, and it is never replayed or exported
    under rules it was not dealt by."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], variant="stud", limit="fixed")
    before = {s.user_id: s.stack for s in table.state.seats.values()}
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    start = _old_form(h.store)  # type: ignore[arg-type]
    rules = dict(start["rules"])
    rules["bring_in"] = rules["small_bet"] + 1
    start["rules"] = rules
    with pytest.raises(ConfigError):
        Rules.from_dict(rules)

    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []
    again = h2.service.table("t")
    assert again.state.current is not None and again.state.current.ended
    assert {s.user_id: s.stack for s in again.state.seats.values()} == before
    h2.check(again)
    with pytest.raises(TableError) as refused:
        await again.hand_history(info.hand_no)
    assert refused.value.msg.key == "table.unreplayable"
    assert refused.value.msg.get("rule") == Rule("R-16.8")
    with pytest.raises(TableError) as refused:
        await told_story(again, info.hand_no)
    assert refused.value.msg.key == "table.unreplayable"
    assert refused.value.msg.get("rule") == Rule("R-16.8")


async def test_r2_5_a_table_whose_log_cannot_be_read_stops_and_the_others_recover() -> None:
    """R-2.5: a table whose log cannot be read back is stopped with a clear reason and
    no chip moves; the other tables recover and play on (before, one bad log kept the
    whole service from starting)."""
    h = Harness()
    good = await h.seated(["a", "b"], table_id="good")
    bad = await h.seated(["c", "d"], table_id="bad")
    assert (await h.deal(good)).ok and (await h.deal(bad)).ok
    started = [e for e in h.store._events["bad"] if e.kind == "hand_started"][-1]  # type: ignore[attr-defined]
    del started.payload["order"]  # damaged beyond reading

    h2 = Harness(store=h.store)
    assert await h2.service.recover() == ["bad"]
    stopped = h2.service.table("bad")
    out = await stopped.deal("host", key=h2.key())
    assert not out.ok and out.msg == msg("table.unreadable_log")
    resumed = h2.service.table("good")
    assert resumed.state.hand is not None
    await h2.play_passively(resumed)
    h2.check(resumed)


async def test_r16_8_a_cancelled_guts_deal_returns_the_stakes_and_keeps_the_pot() -> None:
    """R-16.8 with R-15.2: a Guts deal whose record no longer replays (here a call the
    engine refuses) is cancelled: the stakes go back, a pot waiting from the deal before
    stays waiting, and the chips add up (R-2.5)."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], variant="guts", guts_stake=5)
    assert (await h.deal(table)).ok
    for user in ("a", "b", "c"):  # everyone in: the losers match the pot
        assert (await h.do(table, user, "in")).ok
    assert table.state.current is not None and table.state.current.ended
    waiting = table.state.carried
    assert waiting > 0
    before = {s.user_id: s.stack for s in table.state.seats.values()}
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None and not info.ended
    _old_form(h.store)  # type: ignore[arg-type]
    bogus = {"type": "guts_call", "player": 0, "stay": True}
    for _ in range(2):  # the same player twice: the engine refuses the second call
        await h.store.append(
            "t",
            "action",
            {"hand_no": info.hand_no, "seat": info.order[0], "action": bogus, "at": 0.0},
        )

    h2 = Harness(store=h.store)
    assert await h2.service.recover() == []
    again = h2.service.table("t")
    assert again.state.current is not None and again.state.current.ended
    assert {s.user_id: s.stack for s in again.state.seats.values()} == before
    assert again.state.carried == waiting
    h2.check(again)
