"""What a tournament's table says when a player sits or leaves without a buy-in or a
cash-out (R-19.2): the start and a rebuy after a wait seat him, a balancing move or a
broken table moves him, a bust stands him up out of the tournament or waiting to rebuy
(R-19.47), the end (R-19.80) and a cancel (R-19.42) send the last players away. Only a
move says "another table". And a seeded tournament's tables each deal their own cards
(R-16.1)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from bot.poker.messages import Chips, Msg
from bot.table.ports import Notice, NullPresenter, open_store
from bot.table.service import TableService
from bot.tournament.log import Moved, Out, Returned, Waiting
from bot.tournament.structure import Config, Entries, preset
from bot.tourney_run.robots import play
from bot.tourney_run.runner import Runner
from tests.said import params_in

LEAVE = {"deal.moved_out", "deal.left_out", "deal.left_wait", "deal.left_end", "deal.left_cancel"}
ARRIVE = {"deal.moved_in", "deal.seated"}


class Heard(NullPresenter):
    """Every public notice of every table, in order."""

    def __init__(self) -> None:
        self.said: list[Msg] = []

    async def public(self, table_id: str, notice: Notice) -> None:
        if notice.msg is not None and notice.msg.key in LEAVE | ARRIVE:
            self.said.append(notice.msg)


def _config(entries: Entries) -> Config:
    return Config(
        buy_in=100,
        fee=10,
        stack=1000,
        schedule=preset("turbo", 1000, unit="hands"),
        seats=6,
        entries=entries,
    )


async def _runner(path: Path, heard: Heard, players: int, entries: Entries) -> Runner:
    store = await open_store(str(path))
    service = TableService(store, heard, seed="words")
    runner = Runner(service, "words", rng=random.Random(3))
    await runner.create(_config(entries))
    for n in range(players):
        assert (await runner.register(f"p{n}", f"Player {n}")).ok
    assert (await runner.start()).ok
    return runner


def _chips(m: Msg) -> int:
    (amount,) = [p for p in params_in(m) if isinstance(p, Chips)]
    return amount.n


async def test_R_19_2_a_tables_words_say_why_a_player_sits_or_leaves(tmp_path: Path) -> None:
    heard = Heard()
    runner = await _runner(tmp_path / "t.sqlite3", heard, 12, Entries(rebuys=1, rebuy_until=2))
    await play(runner, random.Random(5), rebuy_rate=0.5)
    records = await runner.journal.records()
    keys = Counter(m.key for m in heard.said)
    waits = sum(isinstance(r, Waiting) for r in records)
    outs = sum(isinstance(r, Out) for r in records)
    moves = sum(isinstance(r, Moved) for r in records)
    returns = sum(isinstance(r, Returned) for r in records)
    assert waits and outs and moves and returns, (waits, outs, moves, returns)
    assert keys["deal.seated"] == 12 + returns  # the start, and each rebuy after a wait
    assert keys["deal.moved_out"] == keys["deal.moved_in"] == moves
    assert keys["deal.left_wait"] == waits
    assert keys["deal.left_out"] == outs - waits + returns  # a wait declined is out unseated
    assert keys["deal.left_end"] == 1  # the winner, off the final table
    # A move carries chips; a bust leaves with none; the winner takes every chip.
    assert all(_chips(m) > 0 for m in heard.said if m.key == "deal.moved_out")
    assert all(_chips(m) == 0 for m in heard.said if m.key in {"deal.left_out", "deal.left_wait"})
    (end,) = [m for m in heard.said if m.key == "deal.left_end"]
    assert _chips(end) == runner.st.chips
    assert "deal.left_cancel" not in keys


async def test_R_19_42_a_cancel_sends_each_player_away_with_his_chips(tmp_path: Path) -> None:
    heard = Heard()
    runner = await _runner(tmp_path / "c.sqlite3", heard, 8, Entries())
    assert (await runner.cancel("host", key="c1")).ok
    gone = [m for m in heard.said if m.key == "deal.left_cancel"]
    assert len(gone) == 8 and sum(_chips(m) for m in gone) == runner.st.chips
    assert not {"deal.moved_out", "deal.left_out", "deal.left_end"} & {m.key for m in heard.said}


async def test_R_16_1_a_seeded_tournaments_tables_deal_their_own_decks(tmp_path: Path) -> None:
    """A local ``--seed`` tournament (reproducible) still deals each table its own
    cards: two tables' first hands are not the same deck."""
    store = await open_store(str(tmp_path / "s.sqlite3"))
    service = TableService(store, NullPresenter(), seed="same")
    runner = Runner(service, "seeded", rng=random.Random(1))
    await runner.create(_config(Entries()))
    for n in range(12):
        assert (await runner.register(f"p{n}", f"Player {n}")).ok
    assert (await runner.start()).ok
    dealt = []
    for number in sorted(runner.ports):
        assert await runner.deal(number)
        hand = runner.table(number).state.hand
        assert hand is not None
        dealt.append(sorted(c for cards in hand.hole for c in cards))
    assert len(dealt) == 2 and dealt[0] != dealt[1]
    await store.close()
