"""What the tournament proof tests watch while robots play through the service: after
every hand the chips, the balance of the tables, and every big blind by who paid it."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.table.state import HandInfo
from bot.tournament import director
from bot.tournament.log import Moved, Out
from bot.tournament.structure import Level
from bot.tourney_run import games
from bot.tourney_run.games import game_level
from bot.tourney_run.runner import Runner


@dataclass
class Watch:
    runner: Runner
    seats: int = 9
    hands: int = 0
    since_bb: dict[str, int] = field(default_factory=dict)
    came_by_break: set[str] = field(default_factory=set)
    seen_moves: int = 0
    balanced_checks: int = 0
    hfh_hands: int = 0
    big_blinds: int = 0
    seen_hands: dict[int, int] = field(default_factory=dict)
    levels: set[int] = field(default_factory=set)
    hfh_dealt: set[tuple[int, int]] = field(default_factory=set)
    heads_up: int = 0
    seen_waits: int = 0

    def _moves(self) -> None:
        moved = self.runner.history
        for _, m in moved[self.seen_moves :]:
            self._moved(m)
        self.seen_moves = len(moved)

    def _moved(self, m: Moved) -> None:
        if m.reason == "break":
            self.came_by_break.add(m.entry)
        else:
            self.came_by_break.discard(m.entry)

    async def dealt(self, number: int) -> None:
        r = self.runner
        self._moves()
        st = r.table(number).state
        sizes = [len(s) for s in r.st.tables().values()]
        assert max(sizes) - len(r.st.tables()[number]) < 3, "a table three short deals (R-19.30)"
        # Hands dealt while the watch was not looking (a crash between the deal and
        # the watch) are judged too, from the table's own record of them.
        first = self.seen_hands.get(number, st.hand_no - 1) + 1
        for hand_no in range(first, st.hand_no + 1):
            info = st.current if st.current and st.current.hand_no == hand_no else None
            info = info or st.recent.get(hand_no)
            assert info is not None, f"table {number} hand {hand_no} not known"
            self._big_blind(info)
        self.seen_hands[number] = st.hand_no
        # the hand just dealt is at the level in force when it was dealt.
        dealt = st.current or st.recent.get(st.hand_no)
        assert dealt is not None
        item = r.st.config.schedule.item(r.st.level)
        assert isinstance(item, Level)
        config = r.st.config
        level = game_level(item, config.schedule.forced, dealt.variant, games.is_mixed(config))
        assert dealt.level == level.pairs(), f"dealt at {dealt.level}, the level is {level}"
        self.levels.add(r.st.level)
        if r.st.hfh.on:
            # hand-for-hand, each table deals one hand a round, and only once
            # every hand begun before the round is over.
            key = (r.st.hfh.round, number)
            assert key not in self.hfh_dealt, f"table {number} dealt twice in round {key[0]}"
            assert all(t in r.st.hfh.dealt for t in r.st.playing), "a round began mid-hand"
            self.hfh_dealt.add(key)
            self.hfh_hands += 1

    def _big_blind(self, info: HandInfo) -> None:
        # Every big blind by who paid it: never twice running, never skipped (a move
        # neither spares nor charges it twice; one from a broken table may pay it again).
        position = None if info.bb_seat is None else info.position_of(info.bb_seat)
        if position is not None and len(info.order) == 2:
            # heads-up the button posts the small blind.
            assert info.button == info.sb_seat, f"heads-up hand {info.hand_no}: {info.button}"
            self.heads_up += 1
        if position is not None:
            big = info.users[position]
            assert self.since_bb.get(big, 1) >= 1 or big in self.came_by_break, (
                f"{big} pays the big blind twice running (hand {info.hand_no})"
            )
            assert self.since_bb.get(big, 0) <= 2 * self.seats, f"{big} skipped the big blind"
            self.big_blinds += 1
        for entry in info.users if position is not None else ():  # blinds deals only
            self.since_bb[entry] = self.since_bb.get(entry, 0) + 1
        if position is not None:
            self.since_bb[info.users[position]] = 0
            self.came_by_break.discard(info.users[position])

    async def after(self, number: int, outs: list[Out]) -> None:
        r = self.runner
        self.hands += 1
        self._moves()
        # stacks and pots of every table hold the chips put in play, always.
        for p in r.ports.values():
            assert p.table.conservation_error() is None
        assert r.chips_at_tables() == r.st.chips
        if not r.st.playing:
            r.check_chips()
            director.check(r.st)
        tables = r.st.tables()
        if (
            len(tables) > 1
            and not r.st.playing
            and director.may_balance(r.st)
            and r.st.status == "running"
        ):
            sizes = [len(s) for s in tables.values()]
            assert max(sizes) - min(sizes) <= 1, f"unbalanced after a hand: {sizes}"
            self.balanced_checks += 1
        for entry in [o.entry for o in outs]:
            self.since_bb.pop(entry, None)
        # one busted and waiting to rebuy sits again like a late entry, his
        # turn at the big blind counted afresh.
        for wait in r.waits[self.seen_waits :]:
            found = r.st.entry(wait.entry)
            self.since_bb.pop(wait.entry, None)
            if found is not None:
                self.since_bb.pop(found.player, None)
        self.seen_waits = len(r.waits)
