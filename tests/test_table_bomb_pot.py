"""Bomb pots at the table (R-20.4, R-20.5, R-20.11): every N hands the deal is a bomb
pot: the agreed ante from everyone dealt in and nothing else, the betting from the flop,
two boards when set. Every step checks that no chip is created or lost (R-2.5)."""

from __future__ import annotations

from bot.poker.events import BombPotStarted, ForcedBet, PotAwarded, SecondBoardDealt
from bot.table.ports import Notice, RecordingPresenter
from bot.table.service import TableService
from bot.table.state import state_digest
from bot.table.table import Table
from tests.harness import Harness


def _events(table: Table, hand_no: int) -> list[object]:
    return list(table.state.recent[hand_no].events)


def _public(h: Harness) -> list[Notice]:
    return [n for _, n in h.presenter.public_notices]


async def test_r20_11_every_third_hand_is_a_bomb_pot() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], bomb_pot_every=3, bomb_pot_ante=5)
    for hand_no in (1, 2, 3):
        before = sum(s.stack for s in table.state.seats.values())
        assert (await h.deal(table)).ok
        hand = table.state.hand
        assert hand is not None
        forced = [e for e in hand.events if isinstance(e, ForcedBet)]
        bomb = any(isinstance(e, BombPotStarted) for e in hand.events)
        assert bomb == (hand_no == 3)
        if bomb:
            # everyone antes 5 and nothing else; the flop is out, betting on it.
            assert [(e.kind, e.amount) for e in forced] == [("ante", 5)] * 3
            assert len(hand.board) == 3 and hand.street.name == "flop"
        else:
            assert {e.kind for e in forced} == {"small_blind", "big_blind"}
        await h.play_passively(table)
        assert sum(s.stack for s in table.state.seats.values()) == before
    said = [n.msg.key for n in _public(h) if n.msg is not None]
    assert said.count("home.bomb.started") == 1
    h.check(table)


async def test_r20_11_the_ante_is_the_big_blind_when_not_set() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], bomb_pot_every=1, big_blind=4, small_blind=2)
    assert (await h.deal(table)).ok
    hand = table.state.hand
    assert hand is not None
    forced = [e for e in hand.events if isinstance(e, ForcedBet)]
    assert [(e.kind, e.amount) for e in forced] == [("ante", 4)] * 2
    await h.play_passively(table)
    h.check(table)


async def test_r20_5_double_board_bomb_pot_each_board_wins_half() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], bomb_pot_every=1, bomb_pot_ante=5, double_board=True)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    events = _events(table, 1)
    assert any(isinstance(e, BombPotStarted) and e.double_board for e in events)
    assert any(isinstance(e, SecondBoardDealt) and e.why == "double_board" for e in events)
    awards = [e for e in events if isinstance(e, PotAwarded)]
    first = sum(e.amount for e in awards if e.board == 0)
    second = sum(e.amount for e in awards if e.board == 1)
    assert first + second == 15 and first - second in (0, 1)  # odd chip to board one
    keys = [n.msg.key for n in _public(h) if n.msg is not None]
    assert "home.bomb.double" in keys and "home.board2.board" in keys
    h.check(table)


async def test_r20_11_a_bomb_pot_deal_recovers_from_the_log() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], bomb_pot_every=2, bomb_pot_ante=3)
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    owed = {s.number: s.owes for s in table.state.seats.values()}
    assert (await h.deal(table)).ok  # hand 2: the bomb pot
    assert table.state.hand is not None and table.state.hand.rules.bomb_pot_ante == 3
    assert {s.number: s.owes for s in table.state.seats.values()} == owed
    # Recovery replays the bomb pot from the log, as dealt.
    fresh = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh.recover() == []
    again = fresh.table("t")
    assert state_digest(again.state) == state_digest(table.state)
    await h.play_passively(again)
    assert again.conservation_error() is None


async def test_r20_11_no_bomb_pot_in_a_game_without_a_board() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b"],
        variant="stud",
        limit="fixed",
        small_bet=2,
        big_bet=4,
        ante=1,
        bomb_pot_every=1,
        bomb_pot_ante=5,
    )
    assert (await h.deal(table)).ok
    hand = table.state.hand
    assert hand is not None
    assert not any(isinstance(e, BombPotStarted) for e in hand.events)
    assert (await h.do(table, h.to_act(table), "bring in")).ok  # a normal stud deal
    await h.play_passively(table)
    h.check(table)


# ------------------------------------------------------------------ by vote


async def test_r20_12_a_majority_by_vote_makes_the_next_deal_a_bomb_pot() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], bomb_pot_ante=4, action_clock=30)
    before = sum(s.stack for s in table.state.seats.values())
    out = await table.bomb_vote("a", None, key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "home.vote.proposed"
    # Votes are public; 3 of 4 pass it (the proposer is a yes).
    assert (await table.bomb_vote("b", False, key=h.key())).ok
    assert not table.state.bomb.get("passed")
    final = await table.bomb_vote("b", True, key=h.key())
    assert not final.ok  # a vote is final
    assert (await table.bomb_vote("c", True, key=h.key())).ok
    assert not table.state.bomb.get("passed")  # 2 of 4: not yet a majority
    out = await table.bomb_vote("d", True, key=h.key())
    assert out.ok and out.msg is not None
    assert dict(out.msg.params)["then"].key == "home.vote.passed"
    late = await table.bomb_vote("c", True, key=h.key())
    assert not late.ok  # settled: no vote open
    # A restart keeps the passed vote (the log is the truth).
    fresh = TableService(h.store, RecordingPresenter(), h.time)
    assert await fresh.recover() == []
    again = fresh.table("t")
    assert again.state.bomb == table.state.bomb
    assert table.state.bomb.get("passed") is True
    assert (await h.deal(again)).ok
    hand = again.state.hand
    assert hand is not None and any(isinstance(e, BombPotStarted) for e in hand.events)
    forced = [e for e in hand.events if isinstance(e, ForcedBet)]
    assert [(e.kind, e.amount) for e in forced] == [("ante", 4)] * 4
    await h.play_passively(again)
    assert again.state.bomb == {}  # spent by its deal
    assert (await h.deal(again)).ok  # the next is a normal deal
    hand = again.state.hand
    assert hand is not None and not any(isinstance(e, BombPotStarted) for e in hand.events)
    await h.play_passively(again)
    assert sum(s.stack for s in again.state.seats.values()) == before
    assert again.conservation_error() is None


async def test_r20_12_voted_down_or_out_of_time_the_deal_is_normal() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=30)
    assert (await table.bomb_vote("a", None, key=h.key())).ok
    again = await table.bomb_vote("b", None, key=h.key())
    assert not again.ok and again.msg is not None and again.msg.key == "home.vote.open"
    assert (await table.bomb_vote("b", False, key=h.key())).ok
    out = await table.bomb_vote("c", False, key=h.key())
    assert out.ok and out.msg is not None and dict(out.msg.params)["then"].key == "home.vote.failed"
    # A new proposal, left to run out: a vote after the time limit is refused.
    assert (await table.bomb_vote("b", None, key=h.key())).ok
    h.time.advance(31)
    late = await table.bomb_vote("a", True, key=h.key())
    assert not late.ok and late.msg is not None and late.msg.key == "home.vote.none"
    assert (await h.deal(table)).ok
    hand = table.state.hand
    assert hand is not None and not any(isinstance(e, BombPotStarted) for e in hand.events)
    await h.play_passively(table)
    h.check(table)


async def test_r20_12_refusals_change_nothing() -> None:
    h = Harness()
    stud = await h.seated(["a", "b"], variant="stud", limit="fixed", small_bet=2, big_bet=4)
    seq = stud.state.seq
    out = await stud.bomb_vote("a", None, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.game"
    out = await stud.bomb_vote("a", True, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "home.vote.none"
    assert stud.state.seq == seq and stud.state.bomb == {}
    h.check(stud)


async def test_r20_5_the_view_shows_the_second_board_of_a_double_board() -> None:
    h = Harness()
    table = await h.seated(["a", "b"], bomb_pot_every=1, bomb_pot_ante=5, double_board=True)
    assert (await h.deal(table)).ok
    view = table.snapshot(None)
    assert len(view.board) == 3 and len(view.board2) == 3  # both flops, before betting
    assert not set(view.board) & set(view.board2)
    await h.play_passively(table)
    assert table.snapshot(None).board2 == ()  # between hands: no board
    h.check(table)
