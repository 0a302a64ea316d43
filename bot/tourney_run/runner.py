"""The director loop: a tournament carried out over the service's tables.

Every decision of the director (:mod:`bot.tournament.director`) is appended to the
tournament's journal first, folded, then carried out at the tables: seats by
``move_in``, balancing moves through :class:`~bot.table.moves.Mover` (under the
tournament's moves log), busted entries stood up with their empty stacks, levels set
for each table's next deal. :meth:`Runner.load` rebuilds the state from the journal and
finishes whatever a crash cut short (seatings, moves, hands the director had not yet
heard of), so nothing is applied twice and nothing is lost.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable, Sequence

from bot.poker.messages import Msg, Number
from bot.table.moves import Leaving, Mover
from bot.table.service import TableService
from bot.table.settings import TableSettings
from bot.table.table import Table
from bot.tournament import balance, director
from bot.tournament.director import Decision, State
from bot.tournament.log import (
    Cancelled,
    ChipRaced,
    Created,
    HandStarted,
    LevelUp,
    Moved,
    Out,
    Paused,
    Rebought,
    Record,
    Resumed,
    Returned,
    Seated,
    Started,
    Waiting,
)
from bot.tournament.ports import shape
from bot.tournament.structure import Break, Config
from bot.tourney_run import closing, control, games, queue
from bot.tourney_run.journal import Journal
from bot.tourney_run.money import ledger_rows
from bot.tourney_run.port import ServiceTable
from bot.tourney_run.stakes import TournamentStakes, table_id

# Refusals the end of the buyer's hand may lift: his hand, his stack then too big.
_HAND_BOUND = frozenset({"tournament.refuse.in_hand", "tournament.refuse.rebuy_stack"})

Tell = Callable[[Msg], Awaitable[None]]


async def _quiet(_: Msg) -> None:
    return None


def stakes_of(service: TableService) -> TournamentStakes:
    """The service's tournament stakes source, installed on first use."""
    if not isinstance(service.stakes, TournamentStakes):
        service.stakes = TournamentStakes()
    assert isinstance(service.stakes, TournamentStakes)
    return service.stakes


def _still_waiting(notice: Msg, halted: frozenset[int]) -> bool:
    """Whether ``notice`` says a table waits that was already waiting (R-19.81)."""
    table = notice.get("table")
    return (
        notice.key == "tournament.table_waits" and isinstance(table, Number) and table.n in halted
    )


class Runner:
    """One tournament on ``service``: its state, its tables, and the loop's steps."""

    def __init__(
        self,
        service: TableService,
        tournament: str,
        *,
        rng: random.Random | None = None,
        tell: Tell = _quiet,
    ) -> None:
        self.service = service
        self.tournament = tournament
        self.journal = Journal(service.store, tournament)
        self.mover = Mover(service.store, tournament, service.table)
        self.stakes = stakes_of(service)
        self.director = f"director:{tournament}"
        self.rng = rng or random.Random()
        self.tell = tell
        self.state: State | None = None
        self.count = 0
        """Records folded so far (decisions' keys count from it)."""
        self.ports: dict[int, ServiceTable] = {}
        self.halted: frozenset[int] = frozenset()
        self.last_hand: dict[int, int] = {}
        """Table -> the table's hand number the director last saw dealt."""
        self.history: list[tuple[str, Moved]] = []
        """Every move with its transfer id, in order."""
        self.done: set[str] = set()
        """The transfer ids of the moves carried out."""
        self.vacated: dict[int, list[int]] = {}
        self.outs: list[Out] = []
        self.waits: list[Waiting] = []
        """Every bust that may still rebuy (R-19.47), in journal order."""
        self.notices: list[Msg] = []
        self.changes: list[control.Change] = []
        """Stack changes recorded (rebuys, add-ons, chip races), in journal order."""
        self.made: set[str] = set()
        """The transfer ids of the stack changes made at a table."""
        self.keys: set[str] = set()
        """The journal's keys: a cause already applied is not applied again."""
        self.taken_at_end = 0
        """The chips the end took off the final table with the winner (R-19.80)."""
        self.queue = queue.Queue(self.journal)
        """Purchases asked for during the buyer's hand, made when it is over (R-19.74)."""

    # ------------------------------------------------------------ the journal

    @property
    def st(self) -> State:
        assert self.state is not None, "no tournament: create or load it first"
        return self.state

    @property
    def exists(self) -> bool:
        """Created or loaded: ``st`` may be read."""
        return self.state is not None

    def _fold(self, record: Record) -> None:
        # Seats emptied, oldest first (stud-only balancing fills the last one): from
        # the journal, so a restart knows them too.
        if isinstance(record, (Out, Waiting)) and record.entry in self.st.seats:
            table, seat = self.st.seats[record.entry]
            self.vacated.setdefault(table, []).append(seat)
        elif isinstance(record, Moved):
            self.vacated.setdefault(record.from_table, []).append(record.from_seat)
        if isinstance(record, Created):
            self.state = State(record.config, level_at=record.at)
        else:
            self.changes += control.changes(self.tournament, self.st, record, self.count)
            self.state = director.fold(self.st, record)
        if isinstance(record, HandStarted):
            self.last_hand[record.table] = record.hand
        elif isinstance(record, Moved):
            self.history.append((self._transfer(self.count), record))
        elif isinstance(record, Out):
            self.outs.append(record)
        elif isinstance(record, Waiting):
            self.waits.append(record)
        self.count += 1

    def _transfer(self, index: int) -> str:
        """The transfer id of the move recorded ``index``-th in the journal."""
        return f"{self.tournament}:move:{index}"

    async def apply(self, decision: Decision, key: str) -> bool:
        """Append ``decision`` (once: ``key``), fold it, check the invariants, carry it
        out at the tables and say it. False: refused, or already applied."""
        if not decision.ok:
            return False
        if decision.records:
            money = ledger_rows(self.state, decision.records)
            if not await self.journal.append(decision.records, key, money):
                return False
            self.keys.add(key)
            first = self.count
            for record in decision.records:
                self._fold(record)
            director.check(self.st)
            await self._carry_out(decision.records, first)
            if self.st.status == "finished":
                await self._record_payouts()
        for said in decision.notices:
            self.notices.append(said)
            await self.tell(said)
        return True

    async def create(self, config: Config) -> Decision:
        """Create the tournament; refused when its tables cannot deal its game (R-19.53)."""
        refusal = games.refusal(config)
        if refusal is not None:
            return Decision(refusal=refusal)
        decision = Decision((Created(config, self.service.time.now()),))
        await self.apply(decision, "create")
        return decision

    async def load(self) -> bool:
        """Rebuild from the journal and finish what a crash cut short. False: no such
        tournament in the store."""
        records = await self.journal.records()
        if not records:
            return False
        self.state, self.count = None, 0
        self.last_hand, self.history, self.outs, self.vacated = {}, [], [], {}
        self.waits = []
        self.changes, self.made, self.keys = [], set(), await self.journal.keys()
        self.taken_at_end = 0
        for record in records:
            self._fold(record)
        await self.queue.load()
        if self.st.status in ("running", "finished"):
            await self._open_tables()
            await control.recall_changes(self)
            await self._set_levels()
            await self.mover.resume()
            self.done = (await self.mover.recorded())[1]
            for n in sorted(self.ports):
                await self._sync_hand(n)
            await self._reconcile()
            await self.balance()
            await self._close_broken()
            await control.race_if_due(self)
            await queue.settle(self)
        if self.st.status == "finished":
            await self._record_payouts()
            closed = set(self.st.table_hands) - set(self.ports)
            self.taken_at_end = await closing.recall_taken(
                self.service.store, self.tournament, closed
            )
            await self._close_final()
        if self.st.status == "cancelled":
            await control.wind_up(self)
            await queue.settle(self)
        return True

    # ------------------------------------------------------------ registration

    async def register(self, player: str, name: str) -> Decision:
        shapes = [self._shape(p) for p in self.ports.values() if p.seats()]
        decision = director.register(
            self.st, player, name, tables=shapes, rng=self.rng, at=self.service.time.now()
        )
        await self.apply(decision, f"register:{self.count}:{player}")
        return decision

    async def start(self) -> Decision:
        decision = director.start(self.st, self.rng, at=self.service.time.now())
        await self.apply(decision, "start")
        return decision

    # ------------------------------------------------------------ the tables

    def _settings(self) -> TableSettings:
        return games.table_settings(self.st.config)

    async def _table(self, number: int) -> ServiceTable:
        port = self.ports.get(number)
        if port is not None:
            return port
        tid = table_id(self.tournament, number)
        table = self.service.get(tid)
        if table is None:
            await self.service.create(
                tid,
                self.director,
                self._settings(),
                key=f"create:{tid}",
                tournament=self.tournament,
            )
            table = self.service.table(tid)
        port = ServiceTable(
            number, table, self.stakes, self.director, self.st.config, lambda: self.st
        )
        port.set_rotation(self.st.config.schedule.level_number(self.st.level))
        self.ports[number] = port
        return port

    async def _open_tables(self) -> None:
        numbers = {t for t, _ in self.st.seats.values()} | set(self.st.table_hands)
        for n in sorted(numbers):
            open_table = self.service.get(table_id(self.tournament, n))
            loaded = open_table is not None and not open_table.state.closed
            if not closing.stays_closed(self.st, n, loaded):  # closed stays closed
                await self._table(n)

    async def _close_broken(self) -> None:
        """R-19.52: broken tables with nobody left are closed, and the runner forgets them."""
        for n in closing.closable(self.st, self.ports, self.history, self.done):
            self.checkpoint("close")
            await closing.close(self.ports.pop(n), self.tournament)

    async def _close_final(self) -> None:
        """R-19.80: the tournament over and its prizes recorded, the tables still open
        (the final one) are emptied by transfers and closed, and the runner forgets them."""
        if self.st.status != "finished":
            return
        for n in sorted(self.ports):
            self.checkpoint("close")
            port = self.ports[n]
            await closing.close_final(port, self.tournament)
            self.taken_at_end += closing.taken_at_end(port, self.tournament)
            del self.ports[n]
        # the winner took every chip in play off the final table, no more.
        assert not self.ports and self.taken_at_end == self.st.chips, (
            f"the end took {self.taken_at_end} chips; {self.st.chips} in play"
        )

    def table(self, number: int) -> Table:
        """Table ``number``: one the runner plays at, or one it closed in this process
        (what it said stays readable once the deal that ended the tournament closed it)."""
        port = self.ports.get(number)
        if port is not None:
            return port.table
        closed = self.service.get(table_id(self.tournament, number))
        if closed is None:
            raise KeyError(number)
        return closed

    async def _set_levels(self) -> None:
        sched = self.st.config.schedule
        item = sched.item(self.st.level)
        for port in self.ports.values():
            # A break keeps the game of the level before it.
            port.set_rotation(sched.level_number(self.st.level))
            if not isinstance(item, Break):
                await port.set_level(item, f"level:{self.st.level}")
        await control.hold(self)

    def _shape(self, port: ServiceTable) -> balance.TableShape:
        made = shape(port, self.st.config.seats, tuple(self.vacated.get(port.number, ())))
        if port.number in self.st.playing:
            # Players act at the tables while the loop runs: a hand may be over at the
            # table before the director hears of it. Until then it is still in that
            # hand for the plan (its busted are not out yet: none of them is moved).
            return dataclasses.replace(made, between_hands=False)
        return made

    async def _carry_out(self, records: Sequence[Record], first: int) -> None:
        """Records ``first``, ``first + 1``, ... of the journal, done at the tables."""
        names = self.st.names()
        for index, record in enumerate(records, start=first):
            if isinstance(record, Started):
                await self._open_tables()
                await self._set_levels()
                for entry, number, seat in record.seats:
                    port = await self._table(number)
                    chips = self.st.config.stack
                    key = self._seat_key(entry)
                    await port.move_in(entry, names[entry], chips, seat, key, "seated")
            elif isinstance(record, Returned):
                # back with the stack he rebought (the Rebought before it).
                port = await self._table(record.table)
                await self._set_levels()
                await port.move_in(
                    record.entry, names[record.entry], self.st.stacks.get(record.entry, 0),
                    record.seat, self._seat_key(record.entry), "seated",
                )  # fmt: skip
            elif isinstance(record, Seated):
                port = await self._table(record.table)
                await self._set_levels()
                await port.move_in(
                    record.entry, names[record.entry], record.chips, record.seat,
                    self._seat_key(record.entry), "seated",
                )  # fmt: skip
            elif isinstance(record, Moved):
                await self._move(self._transfer(index), record)
            elif isinstance(record, LevelUp):
                self.checkpoint("level")
                await self._set_levels()
            elif isinstance(record, (Paused, Resumed)):
                self.checkpoint("hold")
                await control.hold(self)
            elif isinstance(record, (Rebought, ChipRaced)):
                self.checkpoint("chips")
                await control.make_changes(self)
            elif isinstance(record, Cancelled):
                self.checkpoint("cancel")
                await control.wind_up(self)

    def _seat_key(self, entry: str) -> str:
        # Each time an entry sits again after a wait is a new seating.
        back = self.st.returns.get(entry, 0)
        return f"{self.tournament}:seat:{entry}" + (f":back{back}" if back else "")

    def _bust_key(self, entry: str) -> str:
        back = self.st.returns.get(entry, 0)
        return f"{self.tournament}:bust:{entry}" + (f":back{back}" if back else "")

    async def _move(self, transfer: str, m: Moved) -> None:
        entry = m.entry
        source, target = await self._table(m.from_table), await self._table(m.to_table)
        done = await self.mover.move(
            transfer, source.user(entry), source.table.table_id, target.table.table_id, m.to_seat
        )
        if not done.done:
            raise RuntimeError(f"move {transfer} not carried out: {done}")
        self.done.add(transfer)

    async def _record_payouts(self) -> None:
        state = self.st
        won: dict[str, int] = {}
        for b in state.bounties:
            won[b.entry] = won.get(b.entry, 0) + b.amount
        prizes = {f.entry: f.prize for f in state.finishes}
        rows = [
            (e.entry, e.player, prizes.get(e.entry, 0), won.get(e.entry, 0)) for e in state.entries
        ]
        await self.journal.record_payouts(rows)

    def checkpoint(self, where: str) -> None:
        """A named point of the loop (a crash test stops the service at one)."""

    async def _reconcile(self) -> None:
        """Seats at the tables as the director has them: moves recorded and not carried
        out finished, seatings made, busted entries stood up (between hands only)."""
        state = self.st
        for transfer, m in self.history:
            if transfer not in self.done:  # recorded in the journal, not carried out
                await self._move(transfer, m)
        where = {e: n for n, p in self.ports.items() for e in p.seats().values()}
        for entry, (number, _) in sorted(state.seats.items()):
            if where.get(entry) == number:
                continue
            if entry not in where and state.status != "finished":  # the end stands all up
                port = await self._table(number)
                if port.between_hands():
                    await port.move_in(
                        entry, state.names()[entry], state.stacks[entry],
                        state.seats[entry][1], self._seat_key(entry), "seated",
                    )  # fmt: skip
        for port in self.ports.values():
            if not port.between_hands():
                continue
            for entry, chips in list(port.stacks().items()):
                if entry not in state.seats:
                    assert chips == 0, f"{entry} is out with chips"
                    why: Leaving = "wait" if entry in state.waiting else "out"
                    await port.move_out(entry, self._bust_key(entry), why)
        await control.make_changes(self)

    # ------------------------------------------------------------ the loop's steps

    async def _sync_hand(self, number: int) -> None:
        """Tell the director what the table did that he has not heard of: a hand dealt,
        a hand over (with its stacks, those who won the chips of whoever busted)."""
        port = self.ports[number]
        st = port.table.state
        if st.hand_no > self.last_hand.get(number, 0) and number not in self.st.playing:
            started = director.hand_started(self.st, number, st.hand_no)
            await self.apply(started, f"hand:{number}:{st.hand_no}:start")
        if number in self.st.playing and not (st.in_hand and st.hand_no == self.last_hand[number]):
            hand = self.last_hand[number]
            starts = self.st.playing[number]
            chips = port.stacks()
            stacks = [(e, chips.get(e, 0)) for e in sorted(starts)]
            # who won chips this hand, most first (the odd chip of a split
            # bounty to the first); none asked when the tournament has no bounties,
            # so no bounty of nothing is recorded or said.
            won = sorted((starts[e] - c, e) for e, c in stacks if c > starts[e])
            gained = tuple(e for _, e in won)
            bounty = self.st.config.entries.bounty
            knockers = {e: gained for e, c in stacks if c == 0} if bounty else {}
            done = director.hand_finished(
                self.st, number, stacks, knockers, hand=hand, at=self.service.time.now()
            )
            await self.apply(done, f"hand:{number}:{hand}:end")

    async def balance(self) -> None:
        """The balancing plan after a hand, applied as moves (R-19.26 to R-19.33)."""
        state = self.st
        if state.status != "running" or not director.may_balance(state):
            return
        shapes = [self._shape(p) for p in self.ports.values() if p.seats()]
        plan = balance.plan(
            shapes,
            protected=state.protected(),
            names=state.names(),
            rng=self.rng,
            broken=state.broken,
        )
        # a table's wait is told when it begins, not again after every hand
        # dealt elsewhere while it lasts.
        was, self.halted = self.halted, frozenset(plan.halted)
        told = tuple(m for m in plan.notices if not _still_waiting(m, was))
        decision = director.moves(state, dataclasses.replace(plan, notices=told))
        await self.apply(decision, f"plan:{self.count}")

    async def after_hand(self, number: int) -> list[Out]:
        """A table's hand is over: the director hears of it, busted entries stand up,
        the tables are balanced. Returns the entries out in it."""
        before = len(self.outs)
        if self.st.status == "cancelled":
            await queue.settle(self)  # none is made; each buyer is told why
            return []  # the hand was called off; its table is closed
        await self._sync_hand(number)
        await self._reconcile()
        await self.balance()
        await self._close_broken()
        await self._close_final()
        await control.race_if_due(self)
        await queue.settle(self)  # what was asked during the hand
        if self.st.paused:
            await control.hold(self)
        # every chip put in play is at the tables (stacks and pots), always.
        assert self.chips_at_tables() == self.st.chips, (
            f"chips at the tables {self.chips_at_tables()} != {self.st.chips} in play"
        )
        return self.outs[before:]

    async def tick(self) -> None:
        """Levels and breaks by the clock, and busted players' rebuy waits run out
        (R-19.49; the last may end the tournament)."""
        decision = director.tick(self.st, self.service.time.now())
        await self.apply(decision, f"tick:{self.count}")
        await self._close_final()
        await control.race_if_due(self)

    def ready(self) -> list[int]:
        """Tables that may deal now (R-19.30, R-19.31, R-19.36)."""
        tables = self.st.tables()
        waiting = control.waiting_tables(self)
        return [
            n
            for n, port in sorted(self.ports.items())
            if port.between_hands()
            and n not in self.st.playing  # its last hand's end heard of first
            and n not in self.halted
            and n not in waiting
            and director.may_deal(self.st, n, len(tables.get(n, {})))
        ]

    async def deal(self, number: int) -> bool:
        if number in control.waiting_tables(self):
            return False
        table = self.table(number)
        answer = await table.deal(None, key=f"deal:{table.state.hand_no + 1}")
        if not answer.ok:
            return False
        self.checkpoint("dealt")
        await self._sync_hand(number)
        if not table.state.in_hand:  # over at once (everyone all in from the blinds)
            await self.after_hand(number)
        return True

    # ------------------------------------------------------------ the host's controls

    async def _decide(self, key: str, decide: Callable[[], Decision]) -> Decision:
        """A host's or player's command, once by ``key``: a key already in the journal
        answers an empty decision (ok, nothing new)."""
        if key in self.keys:
            return Decision()
        decision = decide()
        if decision.ok and not await self.apply(decision, key):
            return Decision()  # applied meanwhile under the same key
        return decision

    async def pause(self, by: str, *, key: str) -> Decision:
        """R-19.41: the host pauses the tournament; clocks stop, each table deals no
        more once its hand in progress is over. Idempotent by ``key``."""
        now = self.service.time.now()
        return await self._decide(f"pause:{key}", lambda: director.pause(self.st, by, at=now))

    async def resume(self, by: str, *, key: str) -> Decision:
        """R-19.41: the host resumes; the level runs on with the time it had left."""
        now = self.service.time.now()
        return await self._decide(f"resume:{key}", lambda: director.resume(self.st, by, at=now))

    async def cancel(self, by: str, *, key: str) -> Decision:
        """R-19.39, R-19.42: the tournament called off; hands in progress cancelled as
        misdeals, every table emptied and closed, refunds in the journal."""
        now = self.service.time.now()
        decision = await self._decide(
            f"cancel:{key}", lambda: director.cancel(self.st, at=now, by=by)
        )
        await queue.settle(self)  # the purchases queued: refused, each buyer told why
        return decision

    def waiting_entry(self, player: str) -> Waiting | None:
        """``player``'s entry busted and waiting to rebuy (R-19.47), if any."""
        state = self.st
        return next(
            (state.waiting[e.entry] for e in state.entries
             if e.player == player and e.entry in state.waiting),
            None,
        )  # fmt: skip

    async def rebuy(self, player: str, *, addon: bool = False, key: str) -> Decision:
        """R-19.38, R-19.43: a rebuy (or the add-on) for ``player``'s entry still in,
        its chips added at his table between hands; refused with the reason otherwise.
        A player waiting after his bust rebuys and sits again at a drawn seat (R-19.48)."""
        state = self.st
        waiting = self.waiting_entry(player)
        entry = self._buyer(player)
        if waiting is not None and not addon:
            shapes = [self._shape(p) for p in self.ports.values() if p.seats()]
            now = self.service.time.now()
            return await self._decide(
                f"rebuy:{key}",
                lambda: director.rebuy(state, entry, tables=shapes, rng=self.rng, at=now),
            )

        def decide() -> Decision:
            where = state.seats.get(entry)
            port = self.ports.get(where[0]) if where is not None else None
            if port is not None and not port.between_hands():
                return self.lasting_refusal(player, addon=addon) or director.refuse("in_hand")
            return director.rebuy(state, entry, addon=addon)

        return await self._decide(f"rebuy:{key}", decide)

    def lasting_refusal(self, player: str, *, addon: bool = False) -> Decision | None:
        """The refusal of a rebuy (or the add-on) for ``player`` that the end of his
        hand would not change (closed, none left, not running), or None: a purchase
        asked in his hand is refused at once for it rather than queued (R-19.120). His
        stack may still fall within the hand, so its being too big is not lasting."""
        refusal = director.rebuy(self.st, self._buyer(player), addon=addon).refusal
        if refusal is None or refusal.key in _HAND_BOUND:
            return None
        return Decision(refusal=refusal)

    def _buyer(self, player: str) -> str:
        """``player``'s entry a purchase is for: the one seated, else the one waiting."""
        waiting = self.waiting_entry(player)
        return next(
            (e.entry for e in self.st.entries if e.player == player and e.entry in self.st.seats),
            waiting.entry if waiting is not None else player,
        )

    async def decline(self, player: str, *, key: str) -> Decision:
        """R-19.48: ``player``, busted and waiting to rebuy, says no: out at once."""
        waiting = self.waiting_entry(player)
        entry = waiting.entry if waiting is not None else player
        decision = await self._decide(f"decline:{key}", lambda: director.decline(self.st, entry))
        await self._close_final()  # his place may have been the last but one
        return decision

    # ------------------------------------------------------------ chips

    def chips_at_tables(self) -> int:
        """Every chip of the tournament's tables (stacks and pots): with no move in
        flight, the chips put in play (R-2.5). Once the tournament is over they are the
        winner's stack, taken off the final table as it closed (R-19.80)."""
        held = sum(p.table.state.chips_on_table() for p in self.ports.values())
        return held + self.taken_at_end

    def check_chips(self) -> None:
        for p in self.ports.values():
            error = p.table.conservation_error()
            assert error is None, error
        assert self.chips_at_tables() == self.st.chips, (
            f"chips at the tables {self.chips_at_tables()} != {self.st.chips} in play"
        )
