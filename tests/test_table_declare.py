"""Hi-lo declaration through the service: chip-fist privacy and the declaration clock
(R-13.2)."""

from __future__ import annotations

from bot.poker.messages import Chips, msg
from bot.words import render
from tests.harness import Harness
from tests.said import told


async def _to_declare(h: Harness, **settings: object) -> object:
    table = await h.seated(
        ["a", "b", "c"],
        variant="omaha8",
        limit="fixed",
        small_bet=2,
        big_bet=4,
        declare="simultaneous",
        declare_clock=45,
        **settings,
    )
    await h.deal(table)
    while (hand := table.state.hand) is not None and hand.phase != "declare":
        user = h.to_act(table)
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, user, word)).ok
    return table


async def test_r13_2_chip_fist_is_private_until_the_reveal() -> None:
    h = Harness()
    table = await _to_declare(h)
    hand = table.state.hand  # type: ignore[attr-defined]
    assert hand is not None, "checking and calling always reaches the declaration"
    info = table.state.current  # type: ignore[attr-defined]
    pending = hand.declare_pending()
    assert len(pending) == 3 and hand.to_act is None
    # Every pending player was asked privately.
    asked = {u for _, u, n in h.presenter.private_notices if n.kind == "declare"}
    assert asked == set(info.users)
    first = info.users[pending[0]]
    public_before = len(h.presenter.public_notices)
    out = await h.do(table, first, "declare high")  # type: ignore[arg-type]
    assert out.ok
    new_public = [told(n) for _, n in h.presenter.public_notices[public_before:]]
    assert all("high" not in t for t in new_public), new_public
    last = table.snapshot(None).last_said
    assert last is None or last.get("side") is None  # the declaration stays sealed
    assert last is None or "high" not in render(last, "en")
    # A declaration is final.
    again = await h.do(table, first, "declare low")  # type: ignore[arg-type]
    assert not again.ok
    h.check(table)  # type: ignore[arg-type]


async def test_r13_2_declaration_clock_applies_the_default() -> None:
    h = Harness()
    table = await _to_declare(h)
    hand = table.state.hand  # type: ignore[attr-defined]
    assert hand is not None, "checking and calling always reaches the declaration"
    assert table.deadline() == table.state.phase_started_at + 45  # type: ignore[attr-defined]
    h.time.set(table.deadline())  # type: ignore[attr-defined]
    assert await h.service.tick() == 1
    assert table.state.hand is None  # type: ignore[attr-defined]
    h.check(table)  # type: ignore[arg-type]


async def test_r13_2_clock_with_nobody_declared_carries_the_pot_and_says_so() -> None:
    h = Harness()
    table = await _to_declare(h)
    pot = table.state.hand.middle  # type: ignore[attr-defined]
    h.time.set(table.deadline())  # type: ignore[attr-defined]
    assert await h.service.tick() == 1
    said = [n.msg for _, n in h.presenter.public_notices]
    assert any(m.key == "table.clock.declare_fold" for m in said), said
    carried = msg("notice.carried", said=msg("notice.end.nobody_declared"), amount=Chips(pot))
    assert carried in said, said
    assert table.state.carried == pot  # type: ignore[attr-defined]
    h.check(table)  # type: ignore[arg-type]
