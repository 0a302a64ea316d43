"""A model of tournament tables for the director's simulation tests.

Not the real engine: a "hand" posts the blinds and the big blind's ante by the dead
button (R-1.4, heads-up R-1.5) and moves chips at random between the seated players,
conserving them. The model keeps its own record of who paid the big blind when, so the
tests can judge the planner's moves by the table's rotation, not by the planner's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.poker.messages import Msg
from bot.tournament import balance, director
from bot.tournament.director import Decision, State
from bot.tournament.log import (
    Moved,
    Record,
    Returned,
    Seated,
    Started,
    from_payload,
    to_payload,
)


@dataclass
class SimTable:
    number: int
    seat_count: int
    occ: dict[int, str] = field(default_factory=dict)
    first_button: int = 1
    button: int | None = None
    sb: int | None = None
    bb: int | None = None
    hand: tuple[int | None, int | None, int] | None = None
    """Positions of the hand in progress (button, small blind, big blind)."""
    hands: int = 0
    vacated: list[int] = field(default_factory=list)
    newcomers: set[int] = field(default_factory=set)
    """Seats taken since the last hand (not dealt in between the button and the small
    blind, R-19.29)."""
    waiting: set[int] = field(default_factory=set)

    @property
    def in_hand(self) -> bool:
        return self.hand is not None

    def next_occ(self, seat: int) -> int:
        for k in range(1, self.seat_count + 1):
            s = (seat - 1 + k) % self.seat_count + 1
            if s in self.occ:
                return s
        raise AssertionError("empty table")

    def next_positions(self) -> tuple[int | None, int | None, int]:
        """Dead button (R-1.4); heads-up, the button posts the small blind (R-1.5)."""
        occ = sorted(self.occ)
        assert len(occ) >= 2
        if self.bb is None:
            button = self.first_button if self.first_button in self.occ else occ[0]
            if len(occ) == 2:
                return button, button, self.next_occ(button)
            sb = self.next_occ(button)
            return button, sb, self.next_occ(sb)
        bb = self.next_occ(self.bb)
        if len(occ) == 2:
            other = next(s for s in occ if s != bb)
            return other, other, bb
        return self.sb, self.bb, bb

    def bb_wait(self, seat: int, occ: dict[int, str]) -> int:
        """Hands until the big blind reaches ``seat`` with these players seated."""
        saved = (self.occ, self.button, self.sb, self.bb)
        self.occ = occ
        try:
            for n in range(1, 4 * self.seat_count):
                button, sb, bb = self.next_positions()
                if bb == seat:
                    return n
                self.button, self.sb, self.bb = button, sb, bb
            raise AssertionError("the big blind never comes")
        finally:
            self.occ, self.button, self.sb, self.bb = saved

    def shape(self) -> balance.TableShape:
        return balance.TableShape(
            table=self.number,
            seats=self.seat_count,
            players=tuple(sorted(self.occ.items())),
            button=self.button if self.bb is not None else self.first_button,
            small_blind=self.sb,
            big_blind=self.bb,
            between_hands=not self.in_hand,
            vacated=tuple(self.vacated),
        )


@dataclass
class Sim:
    """Drives a director state with model tables, asserting as it goes."""

    state: State
    rng: random.Random
    tables: dict[int, SimTable] = field(default_factory=dict)
    log: list[Record] = field(default_factory=list)
    stacks: dict[str, int] = field(default_factory=dict)
    since_bb: dict[str, int] = field(default_factory=dict)
    came_by_break: set[str] = field(default_factory=set)
    hfh_rounds: list[set[int]] = field(default_factory=list)
    hfh_seen: bool = False
    notices: list[Msg] = field(default_factory=list)
    halted: frozenset[int] = frozenset()
    balance_moves: int = 0
    break_moves: int = 0
    reenter: Callable[[str], bool] = lambda _: False
    answer: Callable[[str], str] = lambda _: "decline"
    """What an entry busted while a rebuy is sold does (R-19.48): ``rebuy``,
    ``decline``, or ``wait`` (until his time runs out, R-19.49)."""
    all_in: float = 0.25
    """How often a hand is played for a whole stack (lower: longer tournaments)."""

    def apply(self, decision: Decision) -> None:
        assert decision.ok, decision.refusal
        for record in decision.records:
            # Every record survives JSON, as the store will keep it.
            assert from_payload(to_payload(record)) == record
            self.log.append(record)
            if isinstance(record, Moved):
                self._moved(record)  # judged against the state before the move
            self.state = director.fold(self.state, record)
            if isinstance(record, Started):
                for entry, table, seat in record.seats:
                    t = self.tables.setdefault(table, SimTable(table, self.state.config.seats))
                    t.occ[seat] = entry
                    self.stacks[entry] = self.state.config.stack
                for t in self.tables.values():
                    t.first_button = self.rng.choice(sorted(t.occ))
            elif isinstance(record, Seated):
                t = self.tables[record.table]
                assert record.seat not in t.occ and not t.in_hand
                t.occ[record.seat] = record.entry
                t.newcomers.add(record.seat)
                self.stacks[record.entry] = record.chips
            elif isinstance(record, Returned):  # back with the stack he rebought
                t = self.tables[record.table]
                assert record.seat not in t.occ and not t.in_hand
                t.occ[record.seat] = record.entry
                t.newcomers.add(record.seat)
                self.stacks[record.entry] = self.state.stacks[record.entry]
                self.since_bb.pop(record.entry, None)  # dealt in afresh, as a late entry
        for m in decision.notices:
            self.notices.append(m)
        director.check(self.state)

    def _moved(self, m: Moved) -> None:
        src, dst = self.tables[m.from_table], self.tables[m.to_table]
        assert not src.in_hand and not dst.in_hand, "a move during a hand (R-19.31)"
        assert src.occ.get(m.from_seat) == m.entry and m.to_seat not in dst.occ
        if m.reason == "balance":
            # the one due the big blind next (among those not protected) ...
            waits = {
                s: src.bb_wait(s, src.occ)
                for s, e in src.occ.items()
                if e not in self.state.protected()
            }
            if waits:
                assert src.bb_wait(m.from_seat, src.occ) == min(waits.values())
            # ... to the empty seat that pays the big blind soonest.
            best = min(
                dst.bb_wait(s, {**dst.occ, s: m.entry})
                for s in range(1, dst.seat_count + 1)
                if s not in dst.occ
            )
            assert dst.bb_wait(m.to_seat, {**dst.occ, m.to_seat: m.entry}) == best
            self.balance_moves += 1
            self.came_by_break.discard(m.entry)
        else:
            self.break_moves += 1
            self.came_by_break.add(m.entry)
            if dst.sb is not None and dst.bb is not None and len(dst.occ) >= 2:
                # TDA 9: a seat between the small blind and the button only when no
                # other is free (he waits there for the button to pass).
                button, sb, _ = dst.next_positions()
                free = [s for s in range(1, dst.seat_count + 1) if s not in dst.occ]
                if _strictly_between(m.to_seat, button, sb, dst.seat_count):
                    assert all(_strictly_between(s, button, sb, dst.seat_count) for s in free)
            dst.newcomers.add(m.to_seat)
        del src.occ[m.from_seat]
        src.vacated.append(m.from_seat)
        dst.occ[m.to_seat] = m.entry

    # ------------------------------------------------------------ play

    def balance(self) -> None:
        if not director.may_balance(self.state) or self.state.status != "running":
            return
        shapes = [t.shape() for t in self.tables.values() if t.occ]
        plan = balance.plan(
            shapes,
            protected=self.state.protected(),
            names=self.state.names(),
            rng=self.rng,
            broken=self.state.broken,
        )
        self.apply(director.moves(self.state, plan))
        self.halted = frozenset(plan.halted)
        for n in [n for n, t in self.tables.items() if not t.occ]:
            del self.tables[n]
        if all(not t.in_hand for t in self.tables.values()) and len(self.tables) > 1:
            sizes = [len(t.occ) for t in self.tables.values()]
            assert max(sizes) - min(sizes) <= 1, f"unbalanced after a hand: {sizes}"

    def start_hand(self, t: SimTable) -> None:
        sizes = [len(x.occ) for x in self.tables.values()]
        assert max(sizes) - len(t.occ) < 3, "a table three short deals (R-19.30)"
        if self.state.hfh.on:
            assert t.number not in self.state.hfh.dealt
        t.hand = t.next_positions()
        button, sb, _ = t.hand
        t.waiting = {s for s in t.newcomers if _strictly_between(s, button, sb, t.seat_count)}
        t.newcomers = set()
        t.hands += 1
        self.apply(director.hand_started(self.state, t.number, t.hands))

    def finish_hand(self, t: SimTable) -> None:
        assert t.hand is not None
        button, sb, bb = t.hand
        level = self.state.config.schedule.level(self.state.level)
        stacks = self.stacks
        seated = sorted(t.occ.items())
        players = [(s, e) for s, e in seated if s not in t.waiting]
        put = {e: 0 for _, e in seated}

        def pay(entry: str, amount: int) -> None:
            amount = min(amount, stacks[entry] - put[entry])
            put[entry] += amount

        big = t.occ[bb]
        # and the rotation: who paid the big blind when.
        assert self.since_bb.get(big, 1) >= 1 or big in self.came_by_break, (
            f"{big} pays the big blind twice running"
        )
        assert self.since_bb.get(big, 0) <= 2 * t.seat_count, f"{big} skipped the big blind"
        for _, e in players:
            self.since_bb[e] = self.since_bb.get(e, 0) + 1
        self.since_bb[big] = 0
        self.came_by_break.discard(big)
        pay(big, level.big + level.ante)
        if sb is not None and sb in t.occ:
            pay(t.occ[sb], level.small)
        involved = [e for _, e in players if self.rng.random() < 0.5 or put[e]]
        if len(involved) < 2:
            involved = [e for _, e in players]
        level_to = max(put[e] for e in involved)
        if self.rng.random() < self.all_in:
            level_to = max(level_to, min(stacks[e] for e in involved))  # someone all in
        else:
            level_to = max(level_to, self.rng.randint(0, min(stacks[e] for e in involved)))
        for e in involved:
            pay(e, level_to - put[e])
        pot = sum(put.values())
        winners = [self.rng.choice(involved)]
        if self.rng.random() < 0.1:
            others = [e for e in involved if e != winners[0]]
            winners.append(self.rng.choice(others))
        for e, p in put.items():
            stacks[e] -= p
        shares = [pot // len(winners)] * len(winners)
        shares[0] += pot - sum(shares)
        for e, s in zip(winners, shares, strict=True):
            stacks[e] += s
        t.button, t.sb, t.bb = button, sb, bb
        t.hand = None
        after = [(e, stacks[e]) for _, e in seated]
        knockers = {e: winners for e, c in after if c == 0}
        if self.state.hfh.on and t.number in self.state.hfh.dealt:
            self.hfh_seen = True
        self.apply(director.hand_finished(self.state, t.number, after, knockers, hand=t.hands))
        busted = [(seat, e) for seat, e in t.occ.items() if stacks[e] == 0]
        for seat, e in busted:
            del t.occ[seat]
            t.vacated.append(seat)
            del stacks[e]
        for _, e in busted:
            if e in self.state.waiting:
                self.answer_wait(e)
                continue
            player = self.state.entry(e)
            assert player is not None
            if self.reenter(player.player):
                self.balance()
                shapes = [x.shape() for x in self.tables.values() if x.occ]
                d = director.register(
                    self.state, player.player, player.name, tables=shapes, rng=self.rng
                )
                if d.ok:
                    self.apply(d)
        assert sum(stacks.values()) == self.state.chips or self.state.playing

    def answer_wait(self, entry: str) -> None:
        """R-19.48, R-19.49: the busted entry rebuys (a drawn seat), declines, or lets
        his time run out."""
        wait = self.state.waiting[entry]
        answer = self.answer(entry)
        if answer == "rebuy":
            self.balance()
            shapes = [x.shape() for x in self.tables.values() if x.occ]
            d = director.rebuy(self.state, entry, tables=shapes, rng=self.rng)
            if d.ok:
                self.apply(d)
                return
        if answer == "wait":
            self.apply(director.tick(self.state, wait.until))
        elif entry in self.state.waiting:
            self.apply(director.decline(self.state, entry))

    def run(self, limit: int = 20_000) -> None:
        for _ in range(limit):
            if self.state.status != "running":
                return
            self.balance()
            playing = [t for t in self.tables.values() if t.in_hand]
            ready = [
                t
                for t in self.tables.values()
                if not t.in_hand
                and t.number not in self.halted
                and director.may_deal(self.state, t.number, len(t.occ))
            ]
            if playing and (not ready or self.rng.random() < 0.5):
                self.finish_hand(self.rng.choice(playing))
            else:
                assert ready, "no table can deal and none is playing: stuck"
                self.start_hand(self.rng.choice(ready))
        raise AssertionError("the tournament did not end")


def _strictly_between(seat: int, start: int | None, end: int | None, seats: int) -> bool:
    if start is None or end is None:
        return False
    k = start % seats + 1
    while k != end:
        if k == seat:
            return True
        k = k % seats + 1
    return False
