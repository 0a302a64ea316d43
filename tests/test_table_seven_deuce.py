"""The 7-2 game at the table (R-20.6, R-20.7): the bounty paid into the winner's seat at
the hand's end, recorded with the hand's end so recovery folds it, no chip created or
lost (R-2.5)."""

from __future__ import annotations

from typing import Any

import pytest

import bot.table.table as table_module
from bot.poker.cards import stacked_deck
from bot.poker.events import SevenDeuceBounty
from bot.poker.hand import Hand
from bot.poker.messages import Rule
from bot.table import log as tlog
from bot.table.ports import RecordingPresenter
from bot.table.service import TableService
from bot.table.state import state_digest
from tests.harness import Harness
from tests.said import params_in

# Position 0 holds 7-2 offsuit and fills up on the board; position 1 has ace-king.
DECK = stacked_deck(["7c2d", "AsKd"], "7h7s2c9d4h")
SUITED = stacked_deck(["7c2c", "AsKd"], "7h7s2h9d4h")


def _stack(monkeypatch: pytest.MonkeyPatch, deck: tuple[str, ...]) -> None:
    def stacked(rules: Any, stacks: Any, _deck: Any = None, **kw: Any) -> Hand:
        return Hand(rules, stacks, deck, **kw)

    monkeypatch.setattr(table_module, "Hand", stacked)


async def _played(h: Harness, **settings: object) -> tuple[Any, dict[int, int]]:
    table = await h.seated(["a", "b"], **settings)
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    await h.play_passively(table)
    return table, {p: table.state.seats[s].stack for p, s in enumerate(info.order)}


async def test_r20_13_the_seven_deuce_winner_collects_the_bounty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _stack(monkeypatch, DECK)
    h = Harness()
    table, stacks = await _played(h, seven_deuce_bounty=10)
    # The pot was 2 + 2 (blinds, checked down): 102 for the 7-2, then 10 more from b.
    assert stacks == {0: 112, 1: 88}
    ended = tlog.read_rows(await h.store.events("t"), tlog.HandEnded)[-1]
    assert ended.bounty == ((1, 0, 10),)
    assert ended.stacks == (112, 88) and sum(ended.net) == 0
    said = [n for _, n in h.presenter.public_notices if n.kind == "SevenDeuceBounty"]
    assert len(said) == 1 and isinstance(said[0].data["event"], SevenDeuceBounty)
    assert Rule("R-20.6") in params_in(said[0].msg)
    # Recovery folds the recorded payment: the same table.
    fresh = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh.recover() == []
    assert state_digest(fresh.table("t").state) == state_digest(table.state)
    h.check(table)


async def test_r20_6_off_by_default_and_suited_only_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _stack(monkeypatch, DECK)
    h = Harness()
    table, stacks = await _played(h)
    assert stacks == {0: 102, 1: 98}  # no bounty: the pot alone
    h.check(table)
    _stack(monkeypatch, SUITED)
    h = Harness()
    table, stacks = await _played(h, seven_deuce_bounty=10)
    assert stacks == {0: 102, 1: 98}  # suited 7-2 does not count unless set
    h = Harness()
    table, stacks = await _played(h, seven_deuce_bounty=10, seven_deuce_suited=True)
    assert stacks == {0: 112, 1: 88}
    h.check(table)


async def test_r20_7_an_all_in_payer_who_lost_pays_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The 7-2 wins; the short stack went all in and lost (pays nothing); the big
    stack, with chips behind, pays the whole bounty."""
    holes = {100: "7c2d", 30: "AsKd", 200: "QhQd"}

    def stacked(rules: Any, stacks: Any, _deck: Any = None, **kw: Any) -> Hand:
        deck = stacked_deck([holes[s] for s in stacks], "7h7s2c9d4h")
        return Hand(rules, stacks, deck, **kw)

    monkeypatch.setattr(table_module, "Hand", stacked)
    h = Harness()
    table = await h.table(seven_deuce_bounty=10, min_buy_in=10, max_buy_in=500)
    for user, buy_in in (("win", 100), ("short", 30), ("big", 200)):
        assert (await table.sit(user, user, buy_in, key=h.key())).ok
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    while (hand := table.state.hand) is not None:
        user = h.to_act(table)
        acts = hand.legal().actions
        word = "check" if "check" in acts else "call"
        if user == "short" and "all_in" in acts:
            word = "all in"
        assert (await h.do(table, user, word)).ok
    ended = tlog.read_rows(await h.store.events("t"), tlog.HandEnded)[-1]
    pos = {u: p for p, u in enumerate(info.users)}
    assert ended.bounty == ((pos["big"], pos["win"], 10),)
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    assert stacks["short"] == 0
    assert stacks == {"win": 100 + 60 + 10, "short": 0, "big": 200 - 30 - 10}
    assert sum(stacks.values()) == 330
    h.check(table)
