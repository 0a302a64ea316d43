"""The rabbit hunt at the table (R-20.9, R-20.14): after a hand ended before its board
was complete, a player asks and the table shows the cards that would have come, never a
card dealt to anyone; the hunt is written to the log (once a hand) and no chip moves
(R-2.5)."""

from __future__ import annotations

from bot.poker.events import CardsDealt, RabbitHunted
from bot.poker.messages import Rule
from tests.harness import Harness


async def _folded_preflop(h: Harness, **settings: object) -> object:
    table = await h.seated(["a", "b", "c"], **settings)
    assert (await h.deal(table)).ok
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok
    return table


async def test_r20_14_the_rabbit_shows_the_cards_that_would_have_come() -> None:
    h = Harness()
    table = await _folded_preflop(h, rabbit_hunt=True)
    seq = table.state.seq  # type: ignore[attr-defined]
    stacks = {n: s.stack for n, s in table.state.seats.items()}  # type: ignore[attr-defined]
    out = await table.rabbit("b", key=h.key())  # type: ignore[attr-defined]
    assert out.ok, out.msg
    said = [n for _, n in h.presenter.public_notices if n.kind == "rabbit"]
    assert len(said) == 1 and said[0].msg is not None
    assert said[0].msg.key == "home.rabbit.cards" and said[0].msg.get("rule") == Rule("R-20.9")
    event = said[0].data["event"]
    assert isinstance(event, RabbitHunted) and len(event.cards) == 5
    info = table.state.recent[table.state.hand_no]  # type: ignore[attr-defined]
    dealt = {c for e in info.events if isinstance(e, CardsDealt) for c in e.cards}
    assert len(dealt) == 6 and not dealt & set(event.cards)  # never a dealt card
    # One record written (what was shown), no chip moved; once a hand.
    assert table.state.seq == seq + 1  # type: ignore[attr-defined]
    hunted = (await h.store.events("t"))[-1]
    assert hunted.kind == "rabbit_hunted" and hunted.payload["cards"] == list(event.cards)
    assert {n: s.stack for n, s in table.state.seats.items()} == stacks  # type: ignore[attr-defined]
    again = await table.rabbit("a", key=h.key())  # type: ignore[attr-defined]
    assert not again.ok and again.msg is not None and again.msg.key == "home.rabbit_ask.once"
    h.check(table)  # type: ignore[arg-type]


async def test_r20_14_refused_when_off_during_a_hand_or_after_a_showdown() -> None:
    h = Harness()
    table = await _folded_preflop(h)
    out = await table.rabbit("a", key=h.key())  # type: ignore[attr-defined]
    assert not out.ok and out.msg is not None and out.msg.key == "home.rabbit_ask.off"
    h = Harness()
    table = await h.seated(["a", "b"], rabbit_hunt=True)
    assert (await h.deal(table)).ok
    out = await table.rabbit("a", key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.rabbit_ask.when"
    await h.play_passively(table)  # checked down: a showdown, every card played
    out = await table.rabbit("a", key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.refuse.rabbit_showdown"
    h.check(table)
