"""The service seam a presenter uses (issue 14): commands carry an ``Actor``, notices carry
the hand's seats and names, and the service serves the session report and the stats.

Every test checks chip conservation (R-2.5) through the harness.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from bot.poker.messages import msg
from bot.table.actor import Actor
from bot.table.session import hand_stats, session_results, settle
from cogs import channel as channel_module
from cogs.channel import TableChannel
from tests.harness import HOST, Harness


async def test_r1_1_manage_commands_judge_the_actor_not_a_side_channel() -> None:
    """R-1.1 (the table of a channel is run by its host or a moderator): the Actor sent
    with the command decides; a refusal changes nothing."""
    h = Harness(moderators={"mod"})
    table = await h.seated(["alice", "bob"])
    turn = table.state.turn
    # A player without the platform's permission is refused, and nothing changes...
    out = await table.deal(Actor("alice", may_manage=False), key=h.key())
    assert not out.ok and out.msg == msg("table.hosts_only")
    assert table.state.turn == turn and table.state.hand is None
    # ...even one the presenter would call a moderator: the command's actor is the word.
    out = await table.pause(Actor("mod", may_manage=False), key=h.key())
    assert not out.ok and not table.state.paused
    # A moderator by the platform's word may deal, pause and change settings.
    assert (await table.deal(Actor("carol", may_manage=True), key=h.key())).ok
    h.check(table)
    await h.play_passively(table)
    assert (await table.pause(Actor("dave", may_manage=True), key=h.key())).ok
    assert table.state.paused
    out = await table.change_settings(Actor("dave", True), {"action_clock": 45}, key=h.key())
    assert out.ok and table.settings.action_clock == 45
    # The host needs no permission; a bare id still works for the terminal and tests.
    assert (await table.pause(Actor(HOST), False, key=h.key())).ok
    h.check(table)


async def test_r8_3_notices_carry_the_hands_seats_and_names() -> None:
    """R-8.3 (who wins which pot, by seat): every notice of a hand carries the seats and
    names by engine position, so a presenter never reads the table's state."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    before = len(h.presenter.public_notices)
    assert all(n.hand is None for _, n in h.presenter.public_notices)  # no hand yet
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    info = None
    notices = h.presenter.public_notices[before:]
    privates = h.presenter.private_notices
    for _, notice in notices:
        if notice.kind in ("hand_started", "hand_ended") or "event" in notice.data:
            assert notice.hand is not None, notice.kind
            info = notice.hand
    assert info is not None and info.hand_no == 1
    seats = {s.user_id: s.number for s in table.state.seats.values()}
    names = {s.number: s.name for s in table.state.seats.values()}
    assert sorted(info.seats) == sorted(seats.values())
    assert [names[s] for s in info.seats] == list(info.names)
    assert privates and all(n.hand is not None for _, _, n in privates)
    # Between hands a notice names the hand just played.
    await table.top_up("alice", 10, key=h.key())
    assert h.presenter.public_notices[-1][1].hand == info
    h.check(table)


async def test_r2_5_the_service_serves_the_session_and_the_stats() -> None:
    """R-2.5: the session report (results, names, totals, payments) and the stats come
    from the service, equal to the ledger's own arithmetic; players who stood up keep
    their names."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    assert (await table.stand("carol", key=h.key())).ok
    h.check(table)
    report = await h.service.session("t")
    rows = await h.service.store.ledger_rows("t")
    stacks = {s.user_id: s.stack for s in table.state.seats.values()}
    expected = [r for r in session_results(rows, stacks) if r.user_id != "house"]
    assert list(report.results) == expected
    assert report.name("carol") == "carol" and report.names["carol"] == "carol"
    assert sum(r.net for r in report.results) <= 0  # chips only move (rake aside)
    assert report.payments() == settle(expected)
    assert report.totals == await h.service.store.ledger_totals("t")
    events = await h.service.store.events("t")
    assert await h.service.stats("t") == hand_stats((e.kind, e.payload) for e in events)
    assert (await h.service.session("nowhere")).results == ()
    assert h.service.is_seated("t", "alice") and not h.service.is_seated("t", "carol")


class _Edits:
    """Counts REST edits; stands in for the client (the partial message is a stub)."""

    def __init__(self) -> None:
        self.edits = 0

    def get_partial_messageable(self, channel_id: int) -> Any:
        return self

    def get_partial_message(self, message_id: int) -> Any:
        return message_id

    async def edit(self, *args: Any, **kwargs: Any) -> bool:
        self.edits += 1
        return True


async def test_invariant3_a_refresh_waits_for_the_click_being_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Invariant 3 (one action per turn, answered once): while a click is answered with the table
    message itself, the refresh a notice scheduled waits on the channel's lock (no
    polling) and runs only after it; then it sees the message is current and makes no
    second edit."""
    h = Harness()
    table = await h.seated(["alice", "bob"], table_id="123")
    edits = _Edits()
    monkeypatch.setattr(channel_module.ops, "edit", edits.edit)
    loads = 0

    def load() -> Any:
        nonlocal loads
        loads += 1
        return table.snapshot(None)

    ch = TableChannel("123", edits, h.service.store, load)  # type: ignore[arg-type]  # a stub client
    ch.message_id = 42
    async with ch.answering():
        ch.note("alice checks")
        ch.schedule_refresh()
        await asyncio.sleep(0.1)
        assert loads == 0 and edits.edits == 0  # held back while the click is answered
        ch.shown = ch.key(table.snapshot(None).turn)  # the click's answer showed it
    await asyncio.gather(*ch.tasks())
    assert loads == 1 and edits.edits == 0  # woken, and nothing left to edit
    ch.note("bob checks")
    ch.schedule_refresh()
    await asyncio.gather(*ch.tasks())  # the refresh draws the picture first
    assert edits.edits == 1  # no click in flight: the refresh edits the message
    h.check(table)


def test_invariant2_no_discord_module_reads_the_table_state() -> None:
    """Invariant 2 (private information reaches only its owner): the Discord side reads a
    table through ``snapshot`` (``TableView``) and its notices only, never ``TableState``
    (whose fields hold every player's cards). Fails on any ``<x>.state.<field>`` read
    of a ``TableState`` field under ``cogs/``."""
    import ast
    import dataclasses
    from pathlib import Path

    from bot.table.state import TableState

    fields = {f.name for f in dataclasses.fields(TableState)} | {
        n for n in vars(TableState) if not n.startswith("_")
    }
    root = Path(__file__).resolve().parent.parent / "cogs"
    found = []
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in fields
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "state"
            ):
                found.append(f"{path.name}:{node.lineno} .state.{node.attr}")
    assert found == []


async def test_r1_3_the_view_tells_each_seats_place_in_the_hand_and_if_a_hand_is_on() -> None:
    """R-1.3 (the button, and the order of play from it): a presenter learns from the view
    alone each dealt-in seat's place in the hand (``SeatView.position``, PHH order: the
    engine's own order, public like the button), whether a hand is on (``in_hand``, also
    while paused) and whether the game has a draw (``draw_game``), so the terminal reads
    no TableState for them."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], variant="draw5", limit="fixed")
    view = table.snapshot(None)
    assert not view.in_hand and view.draw_game
    assert all(s.position is None for s in view.seats)
    assert (await h.deal(table)).ok
    view = table.snapshot(None)
    info = table.state.current
    assert view.in_hand and info is not None
    assert {s.seat: s.position for s in view.seats} == {
        seat: pos for pos, seat in enumerate(info.order)
    }
    assert table.snapshot("a").seats == tuple(
        dataclasses.replace(s, cards=mine.cards)
        for s, mine in zip(view.seats, table.snapshot("a").seats, strict=True)
    )  # a player's own view differs only in the cards he may see
    holdem = await h.seated(["x", "y"], table_id="u")
    assert not holdem.snapshot(None).draw_game
    assert (await h.deal(holdem)).ok and holdem.snapshot(None).in_hand
    await h.play_passively(holdem)
    view = holdem.snapshot(None)
    assert not view.in_hand and all(s.position is None for s in view.seats)
