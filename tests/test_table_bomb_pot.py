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


async def test_r20_4_a_bomb_pot_clears_no_owed_blind_and_recovers() -> None:
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
