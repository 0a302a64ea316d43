"""Showing by choice at the table (R-20.8, R-20.15): the winner of an uncontested pot is
offered, privately, to show his hand or one card; what he shows goes to the table; a
player who folded may not show; each show is written to the log and no chip moves
(R-2.5)."""

from __future__ import annotations

from bot.poker.events import CardsShownByChoice
from tests.harness import Harness


async def test_r20_15_the_uncontested_winner_shows_one_card_then_all() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    info = table.state.current
    hand = table.state.hand
    assert info is not None and hand is not None
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok
    winner = next(u for p, u in enumerate(info.users) if not hand.folded[p])
    folded = [u for u in info.users if u != winner]
    # Only the winner was offered, privately.
    offered = [u for _, u, n in h.presenter.private_notices if n.kind == "show_choice"]
    assert offered == [winner]
    seq = table.state.seq
    stacks = {n: s.stack for n, s in table.state.seats.items()}
    refused = await table.show_by_choice(folded[0], "all", key=h.key())
    assert not refused.ok and refused.msg is not None
    assert refused.msg.key == "home.refuse.show_who"  # a folded hand stays hidden
    out = await table.show_by_choice(winner, "1", key=h.key())
    assert out.ok, out.msg
    again = await table.show_by_choice(winner, "1", key=h.key())
    assert not again.ok and again.msg is not None and again.msg.key == "home.refuse.show_again"
    out = await table.show_by_choice(winner, "all", key=h.key())
    assert out.ok, out.msg
    shown = [n.data["event"] for _, n in h.presenter.public_notices if n.kind == "shown"]
    assert all(isinstance(e, CardsShownByChoice) for e in shown)
    hole = hand.hole[info.users.index(winner)]
    assert [tuple(e.cards) for e in shown] == [(hole[0],), tuple(hole)]
    assert table.state.seq == seq + 2  # one record a show
    assert {n: s.stack for n, s in table.state.seats.items()} == stacks
    h.check(table)


async def test_r20_15_refused_during_a_hand_and_for_a_bad_choice() -> None:
    h = Harness()
    table = await h.seated(["a", "b"])
    assert (await h.deal(table)).ok
    out = await table.show_by_choice("a", "all", key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.show_ask.when"
    hand, info = table.state.hand, table.state.current
    assert hand is not None and info is not None
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok
    winner = next(u for p, u in enumerate(info.users) if not hand.folded[p])
    bad = await table.show_by_choice(winner, "7", key=h.key())
    assert not bad.ok and bad.msg is not None and bad.msg.key == "home.show_ask.which"
    h.check(table)
