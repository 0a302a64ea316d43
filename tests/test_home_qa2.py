"""The home game's second QA pass: each test is a step players took that went wrong,
named after the ruling (R-20.75 to R-20.79) that holds the table to it. Every one checks
R-2.5 where chips could move."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local.terminal import run
from bot.poker.events import BombPotStarted, ForcedBet
from bot.table.actor import Actor
from bot.table.ports import RecordingPresenter
from bot.table.recovery import ledger_error
from bot.table.service import TableService
from bot.table.table import Table
from bot.words import render
from tests.harness import HOST, Harness


async def ok(h: Harness, table: Table) -> None:
    """R-2.5 in memory and in the ledger."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


def told(h: Harness) -> list[str]:
    """What the table said, in English, players named."""
    said = []
    for _, n in h.presenter.public_notices:
        names = n.hand.names if n.hand is not None else ()
        if n.msg is not None:
            said.append(render(n.msg, "en", names=lambda p, names=names: names[p]))
    return said


async def _terminal(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    code = await run(["--db", str(db), *args], inp=io.StringIO("\n".join(lines) + "\n"), out=out)
    assert code == 0
    return out.getvalue()


async def test_r20_76_an_adjustment_names_the_role_and_the_person_who_made_it() -> None:
    """A co-host's and a moderator's adjustments were announced as "The host added…".
    The table names the role that acted and the person, in every language; the host
    with no name known (the terminal's) is "the host" as before."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await table.host_tool(HOST, "cohost", "alice", name="alice", key=h.key())).ok
    chips = sum(s.stack for s in table.state.seats.values())

    out = await table.host_tool("alice", "adjust", "bob", amount=40, reason="found", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.up.cohost"
    assert render(out.msg, "en").startswith("The co-host alice added 40 from the bank to bob")
    assert render(out.msg, "de").startswith("Der Co-Gastgeber alice hat bob 40")

    mod = Actor("m1", may_manage=True, name="Mona")
    out = await table.host_tool(mod, "adjust", "carol", amount=-30, reason="paid", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.down.moderator"
    assert render(out.msg, "en").startswith("The moderator Mona took 30 from carol's stack")
    assert render(out.msg, "fr").startswith("Le modérateur Mona a repris 30")

    named_host = Actor(HOST, name="Hugo")
    out = await table.host_tool(named_host, "adjust", "bob", amount=5, reason="x", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.up.host"
    assert render(out.msg, "en").startswith("The host Hugo added 5")

    out = await table.host_tool(HOST, "adjust", "bob", amount=5, reason="x", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.adjusted.up"
    # Said to the table, as it was answered.
    told = [n.msg.key for _, n in h.presenter.public_notices if n.msg is not None]
    assert told.count("host.adjusted.up.cohost") == 1
    assert told.count("host.adjusted.down.moderator") == 1
    assert sum(s.stack for s in table.state.seats.values()) == chips + 40 - 30 + 5 + 5
    await ok(h, table)


async def test_r20_76_a_kick_a_move_and_a_sit_out_name_who_made_them() -> None:
    """Like the adjustment: the co-host's seat move, sit-out and kick and a moderator's
    were said as the host's. Each names the role and the person."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol", "dave"])
    assert (await table.host_tool(HOST, "cohost", "alice", name="alice", key=h.key())).ok
    mod = Actor("m1", may_manage=True, name="Mona")
    out = await table.host_tool("alice", "seat", "bob", to=7, key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.moved.cohost"
    assert render(out.msg, "en") == "The co-host alice moved bob from seat 2 to seat 7."
    out = await table.host_tool(mod, "sitout", "carol", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.sat_out.moderator"
    assert render(out.msg, "es").startswith("El moderador Mona puso a carol ausente")
    out = await table.host_tool("alice", "kick", "dave", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.kicked.cohost"
    assert render(out.msg, "en").startswith("dave was removed from the table by the co-host alice")
    assert render(out.msg, "ru").startswith("dave: помощник хозяина alice удаляет")
    assert (await h.deal(table)).ok
    victim = h.to_act(table)  # folded at once, on his turn
    out = await table.host_tool(mod, "kick", victim, key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "host.kicked_in_hand.moderator"
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_79_a_players_line_typed_alone_is_answered_with_the_line_to_type(
    tmp_path: Path,
) -> None:
    """The host typed "rabbit" alone and was told "Unknown command". A player's line
    typed with no name is answered with the line to type (`NAME: rabbit`), as R-20.72
    answers a host command typed under a name; nothing changes."""
    db = tmp_path / "r.sqlite3"
    lines = ["set rabbit_hunt on", "deal", "a: fold", "rabbit", "rabbit hunt", "bomb yes"]
    text = await _terminal(db, lines, "a", "b", "--buy-in", "100")
    assert "Unknown command" not in text, text
    assert "`rabbit` is a player's line: type it after his name, as `NAME: rabbit`." in text
    assert "as `NAME: rabbit hunt`" in text and "as `NAME: bomb yes`" in text
    assert "not played" not in text  # no hunt was made


async def _all_in_asked(h: Harness, names: list[str]) -> Table:
    """Everyone all in before the flop with run it twice on: the question is open."""
    table = await h.seated(names, declare_clock=30, run_it_twice=True)
    assert (await h.deal(table)).ok
    assert (await h.do(table, h.to_act(table), "all in")).ok
    while (hand := table.state.hand) is not None and hand.to_act is not None:
        assert (await h.do(table, h.to_act(table), "call")).ok
    return table


async def test_r20_78_a_kicked_player_asked_to_run_it_twice_says_no_at_once() -> None:
    """Kicked while the run-it-twice question was open, an all-in player could not
    answer, so everyone waited for the clock. A kicked player is counted as no at once
    (R-20.1: the board runs once), without the clock."""
    h = Harness()
    table = await _all_in_asked(h, ["a", "b", "c"])
    hand, info = table.state.hand, table.state.current
    assert hand is not None and info is not None and hand.phase == "run_twice"
    assert (await h.do(table, "a", "run twice yes")).ok
    assert (await table.host_tool(HOST, "kick", "b", key=h.key())).ok
    assert table.state.hand is not None and table.state.hand.phase == "run_twice"
    assert [info.users[p] for p in table.state.hand.run_twice_pending()] == ["c"]
    assert (await h.do(table, "c", "run twice yes")).ok
    assert not table.state.in_hand  # played out once, no clock
    said = [n.msg for _, n in h.presenter.public_notices if n.msg is not None]
    assert "home.clock.run_twice" not in [m.key for m in said]
    assert any("Not everyone agreed (no from b)" in t for t in told(h)), told(h)
    assert table.state.seat_of("b") is None  # cashed out when the hand ended
    await ok(h, table)


async def test_r20_78_a_player_kicked_before_the_question_is_counted_no_when_it_comes() -> None:
    """Kicked after going all in, before the question was asked: he is never asked and
    is counted as no the moment it is, so the others' answers settle it at once."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], declare_clock=30, run_it_twice=True)
    assert (await h.deal(table)).ok
    shover = h.to_act(table)
    assert (await h.do(table, shover, "all in")).ok
    caller = h.to_act(table)
    assert (await h.do(table, caller, "call")).ok
    assert (await table.host_tool(HOST, "kick", shover, key=h.key())).ok
    last = h.to_act(table)
    prompts = len([1 for _, _, n in h.presenter.private_notices if n.kind == "run_twice"])
    assert (await h.do(table, last, "call")).ok
    hand, info = table.state.hand, table.state.current
    assert hand is not None and info is not None and hand.phase == "run_twice"
    assert sorted(info.users[p] for p in hand.run_twice_pending()) == sorted([caller, last])
    asked = [u for _, u, n in h.presenter.private_notices[prompts:] if n.kind == "run_twice"]
    assert shover not in asked
    for user in (caller, last):
        assert (await h.do(table, user, "run twice yes")).ok
    assert not table.state.in_hand
    assert any(f"Not everyone agreed (no from {shover})" in t for t in told(h)), told(h)
    await ok(h, table)


async def test_r20_75_a_bomb_pot_by_vote_is_dealt_on_the_terms_agreed() -> None:
    """The vote passed on a bomb pot of 4 each; the host then set the ante to 50 and
    turned the double board on, and the deal took 50 from everyone on two boards. The
    ante (and the boards) the proposal stated are kept with the vote and dealt, across
    a restart; the changed settings are for later bomb pots."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], bomb_pot_ante=4, action_clock=30)
    chips = sum(s.stack for s in table.state.seats.values())
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    # Changed while the vote is open, and again once it passed.
    change = {"bomb_pot_ante": 20, "double_board": True}
    assert (await table.change_settings(HOST, change, key=h.key())).ok
    assert (await table.bomb_vote("b", True, key=h.key())).ok
    assert table.state.bomb.get("passed") is True
    change = {"bomb_pot_ante": 50}
    assert (await table.change_settings(HOST, change, key=h.key())).ok
    fresh = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh.recover() == []
    again = fresh.table("t")
    assert again.state.bomb == table.state.bomb
    assert (await h.deal(again)).ok
    hand = again.state.hand
    assert hand is not None
    started = [e for e in hand.events if isinstance(e, BombPotStarted)]
    assert len(started) == 1 and not started[0].double_board
    forced = [e for e in hand.events if isinstance(e, ForcedBet)]
    assert [(e.kind, e.amount) for e in forced] == [("ante", 4)] * 3
    assert hand.rules.bomb_pot_ante == 4 and not hand.rules.double_board
    await h.play_passively(again)
    assert sum(s.stack for s in again.state.seats.values()) == chips
    # A bomb pot proposed now is on the settings as they are.
    assert (await again.bomb_vote("a", None, key=h.key())).ok
    assert (await again.bomb_vote("c", True, key=h.key())).ok
    assert (await h.deal(again)).ok
    hand = again.state.hand
    assert hand is not None and hand.rules.bomb_pot_ante == 50 and hand.rules.double_board
    await h.play_passively(again)
    assert again.conservation_error() is None
    assert await ledger_error(h.store, again.state) is None


async def test_r20_71_a_vote_dated_for_a_dealt_deal_is_refused_by_the_table() -> None:
    """On Discord a closed vote's post loses its buttons (R-20.77); a vote that still
    arrives dated for a deal already dealt is the table's to refuse (R-20.71): refused
    privately, the open proposal for the next deal unchanged."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=30)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    vote = dict(table.state.bomb["vote"])
    out = await table.bomb_vote("b", True, key=h.key(), deal=1)
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.stale"
    assert table.state.bomb.get("vote") == vote and not table.state.bomb.get("passed")
    assert (await table.bomb_vote("b", True, key=h.key(), deal=2)).ok
    assert table.state.bomb.get("passed") is True
    await ok(h, table)
