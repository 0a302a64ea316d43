"""What players and hosts noticed at the home game, fixed: each test is named after the
ruling (R-20.80 to R-20.89) that holds the table to it, and checks R-2.5 where chips
could move."""

from __future__ import annotations

from bot.poker.messages import Name, Number, msg
from bot.table.actor import Actor
from bot.table.clocks import ManualTime
from bot.table.errors import TableError
from bot.table.hosting import Hosting
from bot.table.ports import RecordingPresenter
from bot.table.recovery import ledger_error
from bot.table.service import TableService
from bot.table.table import Table
from bot.words import render
from tests.harness import HOST, Harness
from tests.said import keys_in


async def ok(h: Harness, table: Table) -> None:
    """R-2.5 in memory and in the ledger."""
    assert table.conservation_error() is None
    assert await ledger_error(h.store, table.state) is None


async def test_r20_80_a_refusal_names_the_co_host_among_those_who_may() -> None:
    """A player who tried to pause, deal, change a setting or close was told "Only the
    host or a moderator can do that", though a co-host may do each. The refusal names the
    host, a co-host or a moderator, and a co-host is indeed let do it."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    chips = sum(s.stack for s in table.state.seats.values())
    refusals = [
        await table.pause("bob", True, key=h.key()),
        await table.deal("bob", key=h.key()),
        await table.change_settings("bob", {"action_clock": 45}, key=h.key()),
        await table.host_tool("bob", "kick", "carol", key=h.key()),
        await table.close("bob", key=h.key()),
    ]
    for out in refusals:
        assert not out.ok and out.msg is not None and out.msg.key == "table.hosts_only"
    assert not table.state.paused and not table.state.closed and not table.state.in_hand
    assert table.state.seat_of("carol") is not None
    # What the refusal says is true: the co-host may do each of those.
    assert (await table.host_tool(HOST, "cohost", "bob", name="bob", key=h.key())).ok
    assert (await table.change_settings("bob", {"action_clock": 45}, key=h.key())).ok
    assert (await table.pause("bob", True, key=h.key())).ok
    assert (await table.pause("bob", False, key=h.key())).ok
    assert (await table.deal("bob", key=h.key())).ok
    await h.play_passively(table)
    assert sum(s.stack for s in table.state.seats.values()) == chips
    await ok(h, table)


async def test_r20_80_what_a_co_host_may_not_do_is_refused_naming_who_may() -> None:
    """Naming a co-host and using a tool on the host are the host's or a moderator's
    only: a co-host is told so (not the managers' refusal, which he is one of)."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol"])
    assert (await table.host_tool(HOST, "cohost", "bob", name="bob", key=h.key())).ok
    out = await table.host_tool("bob", "cohost", "carol", name="carol", key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "host.cohost.host_only"
    assert "carol" not in table.state.hosting.cohosts
    # The host seated: a co-host's tool on him is refused, a moderator's is taken.
    assert (await table.sit(HOST, "hugo", 100, key=h.key())).ok
    out = await table.host_tool("bob", "sitout", HOST, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "host.not_on_host"
    mod = Actor("m1", may_manage=True, name="Mona")
    out = await table.host_tool(mod, "sitout", HOST, key=h.key())
    assert out.ok
    await ok(h, table)


async def _kicked_on_his_turn(
    h: Harness, table: Table, who: str | Actor, pre: list[str] | None = None
) -> str:
    """Deal, kick a player who is not first to act, play up to his turn; his name."""
    assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    first = h.to_act(table)
    victim = next(u for u in info.users if u != first and u not in (pre or []))
    assert (await table.host_tool(who, "kick", victim, key=h.key())).ok
    while h.to_act(table) != victim:
        hand = table.state.hand
        assert hand is not None
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    return victim


async def test_r20_81_a_kicked_player_is_told_who_removed_him() -> None:
    """A player kicked by a co-host (or a moderator) who tried to bet was told "The host
    removed you". He is told the role and the name of whoever kicked him."""
    for who, key, name in (
        ("alice", "host.kicked.no_action.cohost", "alice"),
        (Actor("m1", may_manage=True, name="Mona"), "host.kicked.no_action.moderator", "Mona"),
        (Actor(HOST, name="Hugo"), "host.kicked.no_action.host", "Hugo"),
        (HOST, "host.kicked.no_action", None),  # the terminal's host: no name known
    ):
        h = Harness()
        table = await h.seated(["alice", "bob", "carol", "dave"], action_clock=30, time_bank=0)
        assert (await table.host_tool(HOST, "cohost", "alice", name="alice", key=h.key())).ok
        chips = sum(s.stack for s in table.state.seats.values())
        victim = await _kicked_on_his_turn(h, table, who, pre=["alice"])
        turn = table.state.turn
        out = await h.do(table, victim, "raise to 50")
        assert not out.ok and out.msg is not None and out.msg.key == key
        assert out.msg.get("by") == (None if name is None else Name(name))
        assert table.state.turn == turn, "nothing changed"
        assert (await h.do(table, victim, "fold")).ok
        await h.play_passively(table)
        assert table.state.seat_of(victim) is None  # cashed out when the hand ended
        on_table = sum(s.stack for s in table.state.seats.values())
        assert on_table + table.state.departures[victim][0] == chips
        await ok(h, table)


async def test_r20_81_who_kicked_him_survives_a_restart() -> None:
    """The kick's record keeps who made it: after a restart the kicked player is told
    the same, read back from the log (and a snapshot keeps it)."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol", "dave"], action_clock=30, time_bank=0)
    assert (await table.host_tool(HOST, "cohost", "alice", name="alice", key=h.key())).ok
    victim = await _kicked_on_his_turn(h, table, "alice", pre=["alice"])
    service = TableService(h.store, RecordingPresenter(), ManualTime(h.time.now()))
    await service.recover()
    again = service.table("t")
    assert again.state.hosting.kicked_by == table.state.hosting.kicked_by
    kept = again.state.hosting
    assert Hosting.from_payload(kept.to_payload()) == kept  # a snapshot keeps it too
    out = await again.act(victim, "raise to 50", key="after-restart")
    assert not out.ok and "host.kicked.no_action.cohost" in keys_in(out.msg)
    assert again.conservation_error() is None


def _said(h: Harness) -> list[str]:
    return [n.msg.key for _, n in h.presenter.public_notices if n.msg is not None]


async def test_r20_82_a_bomb_pot_vote_that_runs_out_is_said_when_it_lapses() -> None:
    """A proposal whose time ran out was said to have lapsed only at the next deal, a
    hand or more later. The table's clock says it the moment the time runs out; the
    next deal is a normal hand and says nothing more of it."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=30, auto_deal=False)
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    ends = table.due_at()
    assert ends == table.state.bomb["vote"]["at"] + 30
    h.time.advance(29)
    assert await h.service.tick() == 0 and "vote" in table.state.bomb
    h.time.advance(1)
    assert await h.service.tick() == 1
    assert table.state.bomb == {}
    assert _said(h)[-1] == "home.vote.timed_out"
    notice = h.presenter.public_notices[-1][1]
    assert notice.kind == "bomb_vote" and notice.data["deal"] == 1
    assert table.due_at() is None  # said once: nothing more due
    assert await h.service.tick() == 0
    out = await table.bomb_vote("b", True, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.none"
    assert (await h.deal(table)).ok
    assert "home.vote.lapsed" not in _said(h)
    hand = table.state.hand
    assert hand is not None and hand.rules.bomb_pot_ante == 0
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_82_a_vote_passed_or_still_open_is_not_lapsed_by_the_clock() -> None:
    """The clock lapses only a proposal still open when its time runs out: a passed one
    is the next deal's bomb pot, and one still open at a deal lapses there (R-20.73)."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=30, auto_deal=False)
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    assert (await table.bomb_vote("b", True, key=h.key())).ok
    h.time.advance(60)
    assert await h.service.tick() == 0
    assert table.state.bomb.get("passed") is True
    assert (await h.deal(table)).ok
    hand = table.state.hand
    assert hand is not None and hand.rules.bomb_pot_ante > 0
    await h.play_passively(table)
    assert (await table.bomb_vote("c", None, key=h.key())).ok
    h.time.advance(10)
    assert (await h.deal(table)).ok  # within its time: the deal lapses it
    assert _said(h).count("home.vote.lapsed") == 1 and "home.vote.timed_out" not in _said(h)
    await h.play_passively(table)
    await ok(h, table)


async def test_r20_82_the_vote_clock_survives_a_restart() -> None:
    """Restarted while a proposal is open, the table's clock still lapses it when its
    time (from the logged proposal) runs out; a restart after the lapse says nothing
    again."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=30, auto_deal=False)
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    at = table.state.bomb["vote"]["at"]
    clock = ManualTime(h.time.now() + 5)
    presenter = RecordingPresenter()
    service = TableService(h.store, presenter, clock)
    await service.recover()
    again = service.table("t")
    assert again.due_at() == at + 30
    clock.set(at + 30)
    assert await service.tick() == 1
    said = [n.msg.key for _, n in presenter.public_notices if n.msg is not None]
    assert said[-1] == "home.vote.timed_out" and again.state.bomb == {}
    third = TableService(h.store, RecordingPresenter(), ManualTime(at + 60))
    await third.recover()
    assert third.table("t").state.bomb == {} and third.table("t").due_at() is None
    assert again.conservation_error() is None


async def _fold_to_one(h: Harness, table: Table) -> None:
    """Deal a hand and fold it to one player (no showdown: the rabbit may be hunted)."""
    assert (await h.deal(table)).ok
    while table.state.hand is not None:
        assert (await h.do(table, h.to_act(table), "fold")).ok


async def test_r20_83_an_older_versions_dated_button_is_refused_at_a_later_table() -> None:
    """A show, hunt or vote button an older version posted carries its hand (or deal)
    but not its table: at the channel's first table it is judged by its date (R-20.71);
    at a later table it could be an earlier table's, so it is refused privately and
    nothing changes. Requests not dated (the terminal's lines) are not buttons: they
    act on the last hand as always."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=30, rabbit_hunt=True, auto_deal=False)
    await _fold_to_one(h, table)
    assert (await table.rabbit("a", key=h.key(), for_hand=1)).ok  # first table: by date
    assert (await table.close(HOST, key=h.key())).ok
    again = await h.seated(["a", "b", "c"], action_clock=30, rabbit_hunt=True, auto_deal=False)
    assert again.state.incarnation == 2
    await _fold_to_one(h, again)
    seq = again.state.seq
    out = await again.rabbit("b", key=h.key(), for_hand=1)
    assert not out.ok and out.msg is not None and out.msg.key == "home.after.stale.unsaid"
    out = await again.show_by_choice("b", "all", key=h.key(), for_hand=1)
    assert not out.ok and out.msg is not None and out.msg.key == "home.after.stale.unsaid"
    assert (await again.bomb_vote("a", None, key=h.key())).ok
    seq = again.state.seq
    out = await again.bomb_vote("b", True, key=h.key(), deal=2)
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.stale.unsaid"
    assert again.state.seq == seq and not again.state.bomb.get("passed"), "nothing changed"
    # Dated and with its table: taken.
    assert (await again.bomb_vote("b", True, key=h.key(), deal=2, session=2)).ok
    assert (await again.rabbit("b", key=h.key(), for_hand=1, session=2)).ok
    # Not dated (the terminal's `rabbit`, `bomb yes`): the last hand, the open vote.
    out = await again.show_by_choice("c", "all", key=h.key())
    assert out.ok or (out.msg is not None and not out.msg.key.endswith(".unsaid"))
    await ok(h, again)


def _hand_param(h: Harness, key: str) -> object:
    """The ``hand`` parameter of the last public notice with ``key``."""
    m = next(n.msg for _, n in reversed(h.presenter.public_notices) if n.msg and n.msg.key == key)
    return m.get("hand")


async def test_r20_84_a_later_tables_hand_numbers_say_which_table() -> None:
    """A channel closed and reopened started again at hand #1, and its hands were said
    as "Hand #1" like the first table's. Numbers still start again with each table
    (its session is its own), and at a later table each is said with its table."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, table)
    assert _hand_param(h, "table.hand_started") == Number(1)  # the first table: alone
    assert _hand_param(h, "table.hand_over") == Number(1)
    assert table.snapshot(None).session == 1
    await _fold_to_one(h, table)
    assert (await table.close(HOST, key=h.key())).ok
    again = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, again)
    assert again.state.hand_no == 1  # numbers start again
    second = msg("table.hand_label", hand=Number(1), session=Number(2))
    assert _hand_param(h, "table.hand_started") == second
    assert _hand_param(h, "table.hand_over") == second
    assert again.snapshot(None).session == 2
    story = await again.hand_told(1)
    assert story[0].key == "table.story.head" and story[0].get("hand") == second
    assert render(second, "en") == "1 (table 2)"
    await ok(h, again)


async def test_r20_84_a_hand_asked_by_number_is_one_of_this_tables() -> None:
    """/export 2 at the reopened table (one hand dealt) gave the earlier table's hand
    #2 as if it were this table's. A hand asked for by number is this table's: an
    earlier table's is not found, said with this table's label."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, table)
    await _fold_to_one(h, table)
    assert await table.hand_history(2)  # the first table's own hand #2
    assert (await table.close(HOST, key=h.key())).ok
    again = await h.seated(["a", "b", "c"], auto_deal=False)
    await _fold_to_one(h, again)
    for ask in (again.hand_history(2), again.hand_told(2)):
        try:
            await ask
        except TableError as exc:
            assert exc.msg.key == "table.story.no_hand"
            label = msg("table.hand_label", hand=Number(2), session=Number(2))
            assert exc.msg.get("hand") == label
        else:
            raise AssertionError("an earlier table's hand #2 was given as this table's")
    assert await again.hand_history(1)  # its own hand #1
    await ok(h, again)
