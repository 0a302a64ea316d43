"""The tournament director: a state folded from the log, and commands that decide.

:func:`fold` applies one record to a :class:`State` (the same code recovery uses:
:func:`replay` folds a whole log). Commands (:func:`register`, :func:`start`,
:func:`hand_finished`, ...) read a state and return a :class:`Decision`: the records to
append (and fold), or a refusal as a message; they change nothing themselves. The
caller appends the records to its store, folds them, and tells the players.

Chips in play change only by recorded causes (entries, rebuys, add-ons, a chip race):
:func:`check` asserts the sum of all stacks equals them (R-2.5), that prizes sum to the
pool, and, at the end, that places are unique and complete.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from bot.poker.messages import Chips, Count, Msg, Name, Number, Rule, msg
from bot.tournament import payouts
from bot.tournament.balance import Plan, TableShape, draw_seats, place_newcomer
from bot.tournament.chiprace import chip_race
from bot.tournament.handforhand import HandForHand
from bot.tournament.level_said import level_of_game
from bot.tournament.log import (
    BountyPaid,
    Cancelled,
    ChipRaced,
    Created,
    Finished,
    HandFinished,
    HandForHandChanged,
    HandStarted,
    LevelUp,
    Moved,
    Out,
    Paused,
    Placed,
    Rebought,
    Record,
    Registered,
    RegistrationClosed,
    Resumed,
    Returned,
    Seated,
    Started,
    TableBroken,
    Unregistered,
    Waiting,
)
from bot.tournament.naming import entry_numbers, entry_said
from bot.tournament.places import Bust, Finish, complete, rank
from bot.tournament.rotation import level_game
from bot.tournament.structure import Break, Config, Level

Status: TypeAlias = Literal["registering", "running", "finished", "cancelled"]


@dataclass(frozen=True, slots=True)
class Entry:
    entry: str
    player: str
    name: str
    number: int
    paid: int


@dataclass(frozen=True, slots=True)
class State:
    """Everything the log says, folded. Mappings are replaced, never changed, by
    :func:`fold`."""

    config: Config
    status: Status = "registering"
    entries: tuple[Entry, ...] = ()
    seats: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Alive entry -> (table, seat)."""
    stacks: Mapping[str, int] = field(default_factory=dict)
    """Alive entry -> chips, as of its table's last hand's end."""
    out: tuple[Out, ...] = ()
    """Entries out and not yet placed, oldest first."""
    finishes: tuple[Finish, ...] = ()
    bounties: tuple[BountyPaid, ...] = ()
    pool: int = 0
    bounty_pool: int = 0
    fees: int = 0
    chips: int = 0
    """Chips put in play (R-2.5): what every stack together must hold."""
    rebuys: Mapping[str, int] = field(default_factory=dict)
    addons: frozenset[str] = frozenset()
    level: int = 0
    level_at: float = 0.0
    hands_in_level: int = 0
    tables_at_level: int = 1
    registration_open: bool = True
    playing: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    """Table mid-hand -> its players' stacks as the hand began."""
    table_hands: Mapping[int, int] = field(default_factory=dict)
    moved_at: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Entry -> (table moved to, that table's hands count then) (R-19.32)."""
    broken: frozenset[int] = frozenset()
    hfh: HandForHand = field(default_factory=HandForHand)
    refunds: tuple[tuple[str, int], ...] = ()
    winner: str | None = None
    unit: int = 1
    """The smallest chip in play (raised by each color-up, R-19.25)."""
    paused_at: float | None = None
    """When the host paused the tournament (None: it runs, R-19.41)."""
    waiting: Mapping[str, Waiting] = field(default_factory=dict)
    """Entry out of chips that may still rebuy -> its wait (R-19.47): no seat, not out."""
    returns: Mapping[str, int] = field(default_factory=dict)
    """Entry -> the times it sat again after a wait (R-19.48)."""

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    # ------------------------------------------------------------ reading

    def entry(self, entry: str) -> Entry | None:
        return next((e for e in self.entries if e.entry == entry), None)

    def alive(self) -> list[str]:
        return [e for e in self.seats]

    def left(self) -> int:
        """Entries still in: seated, or waiting to rebuy (R-19.47)."""
        return len(self.seats) + len(self.waiting)

    def tables(self) -> dict[int, dict[int, str]]:
        out: dict[int, dict[int, str]] = {}
        for entry, (table, seat) in self.seats.items():
            out.setdefault(table, {})[seat] = entry
        return out

    def names(self) -> dict[str, str]:
        """Each entry's player's own name (as he sits at the tables, R-19.90)."""
        return {e.entry: e.name for e in self.entries}

    def entry_names(self) -> dict[str, Name | Msg]:
        """Each entry as the tournament names it: a re-entry with its number (R-19.59)."""
        numbers = entry_numbers((e.entry, e.player) for e in self.entries)
        return {e.entry: entry_said(e.name, numbers[e.entry]) for e in self.entries}

    def prizes(self) -> tuple[int, ...]:
        """The prize of each place for the entries so far and the pool now."""
        return payouts.amounts(self.pool, payouts.shares(len(self.entries), self.config.payouts))

    def paid_places(self) -> int:
        return len(payouts.shares(len(self.entries), self.config.payouts))

    def protected(self) -> frozenset[str]:
        """Entries moved within one round of their new table: not moved again to
        balance (R-19.32)."""
        out = set()
        for entry, (table, at) in self.moved_at.items():
            here = self.seats.get(entry, (0, 0))[0] == table
            if here and self.table_hands.get(table, 0) - at < self.config.seats:
                out.add(entry)
        return frozenset(out)

    def level_words(self) -> Msg:
        sched = self.config.schedule
        item = sched.item(self.level)
        if isinstance(item, Break):
            return msg("tournament.break", count=Count(item.minutes))
        n = Number(sched.level_number(self.level))
        game = level_game(self.config.game, self.config.rotate, sched.level_number(self.level))
        if game is not None:
            return level_of_game(n, item, sched.forced, game)
        if sched.forced == "bring_in" and self.config.mixed:
            # a mixed event's level as its players read it: the limits, the
            # stud games' ante and bring-in, the other games' blinds (half the small
            # bet and the small bet), as the tables deal them.
            return msg(
                "tournament.level_mixed",
                level=n,
                small=Chips(item.small),
                big=Chips(item.big),
                ante=Chips(item.ante),
                bring_in=Chips(item.bring_in),
                blind_small=Chips(max(1, item.small // 2)),
                blind_big=Chips(item.small),
            )
        if sched.forced == "bring_in":
            return msg(
                "tournament.level_stud",
                level=n,
                ante=Chips(item.ante),
                bring_in=Chips(item.bring_in),
                small=Chips(item.small),
                big=Chips(item.big),
            )
        if not item.ante:  # a level without an ante does not name one
            return msg(
                "tournament.level_no_ante", level=n, small=Chips(item.small), big=Chips(item.big)
            )
        return msg(
            "tournament.level",
            level=n,
            small=Chips(item.small),
            big=Chips(item.big),
            ante=Chips(item.ante),
        )


@dataclass(frozen=True, slots=True)
class Decision:
    records: tuple[Record, ...] = ()
    refusal: Msg | None = None
    notices: tuple[Msg, ...] = ()

    @property
    def ok(self) -> bool:
        return self.refusal is None


def refuse(key: str, **params: Chips | Count | Number | Name | Rule) -> Decision:
    return Decision(refusal=msg(f"tournament.refuse.{key}", **params))


# ---------------------------------------------------------------- folding


def fold(state: State, record: Record) -> State:
    """``state`` after ``record`` (the one place the log becomes state)."""
    cfg = state.config
    if isinstance(record, Registered):
        return replace(
            state,
            entries=(
                *state.entries,
                Entry(record.entry, record.player, record.name, record.number, record.paid),
            ),
            pool=state.pool + cfg.prize_part,
            bounty_pool=state.bounty_pool + cfg.entries.bounty,
            fees=state.fees + cfg.fee,
        )
    if isinstance(record, Unregistered):
        return replace(
            state,
            entries=tuple(e for e in state.entries if e.entry != record.entry),
            pool=state.pool - cfg.prize_part,
            bounty_pool=state.bounty_pool - cfg.entries.bounty,
            fees=state.fees - cfg.fee,
        )
    if isinstance(record, Started):
        seats = {e: (t, s) for e, t, s in record.seats}
        tables = len({t for _, t, _ in record.seats})
        return replace(
            state,
            status="running",
            seats=seats,
            stacks={e: cfg.stack for e in seats},
            chips=cfg.stack * len(seats),
            level=0,
            level_at=record.at,
            tables_at_level=max(1, tables),
            registration_open=cfg.entries.late_until > 0,
            table_hands={t: 0 for t in {t for _, t, _ in record.seats}},
        )
    if isinstance(record, Seated):
        return replace(
            state,
            seats={**state.seats, record.entry: (record.table, record.seat)},
            stacks={**state.stacks, record.entry: record.chips},
            chips=state.chips + record.chips,
            table_hands={record.table: 0, **state.table_hands},
        )
    if isinstance(record, LevelUp):
        return replace(
            state,
            level=record.index,
            level_at=record.at,
            hands_in_level=0,
            tables_at_level=max(1, len(state.tables())),
        )
    if isinstance(record, RegistrationClosed):
        return replace(state, registration_open=False)
    if isinstance(record, Moved):
        hands = state.table_hands.get(record.to_table, 0)
        return replace(
            state,
            seats={**state.seats, record.entry: (record.to_table, record.to_seat)},
            moved_at={**state.moved_at, record.entry: (record.to_table, hands)},
        )
    if isinstance(record, TableBroken):
        return replace(state, broken=state.broken | {record.table})
    if isinstance(record, HandStarted):
        return replace(
            state,
            playing={**state.playing, record.table: dict(record.starts)},
            hfh=state.hfh.dealt_at(record.table),
        )
    if isinstance(record, HandFinished):
        starts = state.playing.get(record.table, {})
        stacks = {**state.stacks, **dict(record.stacks)}
        playing = {t: s for t, s in state.playing.items() if t != record.table}
        busts = [
            Bust(e, starts.get(e, 0), _number(state, e)) for e, chips in record.stacks if chips == 0
        ]
        return replace(
            state,
            stacks=stacks,
            playing=playing,
            hands_in_level=state.hands_in_level + 1,
            table_hands={
                **state.table_hands,
                record.table: state.table_hands.get(record.table, 0) + 1,
            },
            hfh=state.hfh.finished_at(record.table, busts),
        )
    if isinstance(record, Out):
        seats = {e: p for e, p in state.seats.items() if e != record.entry}
        stacks = {e: c for e, c in state.stacks.items() if e != record.entry}
        waiting = {e: w for e, w in state.waiting.items() if e != record.entry}
        return replace(state, seats=seats, stacks=stacks, waiting=waiting, out=(*state.out, record))
    if isinstance(record, Waiting):
        seats = {e: p for e, p in state.seats.items() if e != record.entry}
        stacks = {e: c for e, c in state.stacks.items() if e != record.entry}
        return replace(
            state, seats=seats, stacks=stacks, waiting={**state.waiting, record.entry: record}
        )
    if isinstance(record, Returned):
        return replace(
            state,
            seats={**state.seats, record.entry: (record.table, record.seat)},
            stacks={record.entry: 0, **state.stacks},
            waiting={e: w for e, w in state.waiting.items() if e != record.entry},
            returns={**state.returns, record.entry: state.returns.get(record.entry, 0) + 1},
            table_hands={record.table: 0, **state.table_hands},
        )
    if isinstance(record, Placed):
        finish = Finish(record.entry, record.first, record.last, record.prize)
        return replace(
            state,
            finishes=(*state.finishes, finish),
            out=tuple(o for o in state.out if o.entry != record.entry),
        )
    if isinstance(record, BountyPaid):
        return replace(state, bounties=(*state.bounties, record))
    if isinstance(record, Rebought):
        return replace(
            state,
            stacks={**state.stacks, record.entry: state.stacks.get(record.entry, 0) + record.chips},
            chips=state.chips + record.chips,
            pool=state.pool + record.paid,
            rebuys=(
                state.rebuys
                if record.addon
                else {**state.rebuys, record.entry: state.rebuys.get(record.entry, 0) + 1}
            ),
            addons=state.addons | {record.entry} if record.addon else state.addons,
        )
    if isinstance(record, HandForHandChanged):
        return replace(state, hfh=state.hfh.start() if record.on else state.hfh.stop())
    if isinstance(record, ChipRaced):
        return replace(
            state,
            stacks={**state.stacks, **dict(record.stacks)},
            chips=state.chips + record.delta,
            unit=max(state.unit, record.unit),
        )
    if isinstance(record, Cancelled):
        # The waits end with it; their refunds are in the record.
        return replace(
            state, status="cancelled", refunds=record.refunds, paused_at=None, waiting={}
        )
    if isinstance(record, Paused):
        return replace(state, paused_at=record.at)
    if isinstance(record, Resumed):
        # the level's clock ran until the pause and runs on from the resume.
        stopped = max(0.0, record.at - state.paused_at if state.paused_at is not None else 0.0)
        # a busted player's time to rebuy stood still too.
        waiting = {e: replace(w, until=w.until + stopped) for e, w in state.waiting.items()}
        return replace(state, paused_at=None, level_at=state.level_at + stopped, waiting=waiting)
    if isinstance(record, Finished):
        return replace(state, status="finished", winner=record.winner)
    if isinstance(record, Created):
        return State(record.config, level_at=record.at)
    raise TypeError(f"not a tournament record: {record!r}")


def _number(state: State, entry: str) -> int:
    e = state.entry(entry)
    return e.number if e is not None else 0


def replay(records: Iterable[Record]) -> State:
    """The state a whole log folds to (it starts with :class:`Created`)."""
    it = iter(records)
    first = next(it)
    if not isinstance(first, Created):
        raise ValueError("a tournament log starts with its creation")
    state = State(first.config, level_at=first.at)
    for record in it:
        state = fold(state, record)
    return state


def folded(state: State, records: Iterable[Record]) -> State:
    for record in records:
        state = fold(state, record)
    return state


# ---------------------------------------------------------------- registration


def _entry_name(state: State, player: str) -> tuple[str, int]:
    count = sum(1 for e in state.entries if e.player == player)
    return (player if count == 0 else f"{player}#{count + 1}"), count


def register(
    state: State,
    player: str,
    name: str,
    *,
    tables: Sequence[TableShape] = (),
    rng: random.Random | None = None,
    at: float = 0.0,
) -> Decision:
    """Register (before the start), or enter late / re-enter (R-19.38) while late
    registration is open: a full stack at a drawn seat."""
    cfg = state.config
    if state.status not in ("registering", "running") or not state.registration_open:
        return refuse("closed")
    mine = [e for e in state.entries if e.player == player]
    live = any(e.entry in state.seats or e.entry in state.waiting for e in mine)
    if live or (state.status == "registering" and mine):
        return refuse("already")
    if mine and len(mine) > cfg.entries.reentries:
        return refuse("no_reentry", count=Count(cfg.entries.reentries))
    if cfg.max_players and state.status == "registering" and len(state.entries) >= cfg.max_players:
        return refuse("full", count=Count(cfg.max_players))
    entry, count = _entry_name(state, player)
    number = max((e.number for e in state.entries), default=0) + 1
    reg = Registered(player, name, entry, number, cfg.buy_in + cfg.fee)
    notice = msg(
        "tournament.registered" if count == 0 else "tournament.reentered",
        player=entry_said(name, count + 1),  # a re-entry by its number
        count=Count(len(state.entries) + 1),
    )
    if state.status == "running":
        spot = place_newcomer([t for t in tables if t.between_hands], rng or random.Random())
        if spot is None:
            return refuse("no_seat")
        table, seat = spot
        return Decision(
            (reg, Seated(entry, table, seat, cfg.stack)),
            notices=(
                notice,
                msg(
                    "tournament.seat",
                    player=entry_said(name, count + 1),
                    table=Number(table),
                    seat=Number(seat),
                ),
            ),
        )
    records: tuple[Record, ...] = (reg,)
    if cfg.format == "sit_and_go" and cfg.max_players and len(state.entries) + 1 >= cfg.max_players:
        after = fold(state, reg)
        began = start(after, rng or random.Random(), at=at)
        return Decision((reg, *began.records), notices=(notice, *began.notices))
    return Decision(records, notices=(notice,))


def unregister(state: State, player: str) -> Decision:
    """Unregister before the start: the whole price back."""
    if state.status != "registering":
        return refuse("started")
    mine = next((e for e in state.entries if e.player == player), None)
    if mine is None:
        return refuse("not_registered")
    return Decision(
        (Unregistered(mine.entry, mine.paid),),
        notices=(
            msg(
                "tournament.unregistered",
                player=Name(mine.name),
                count=Count(len(state.entries) - 1),
            ),
        ),
    )


def start(state: State, rng: random.Random, *, at: float = 0.0) -> Decision:
    """The start: seats drawn at random, stacks equal (R-19.26)."""
    if state.status != "registering":
        return refuse("started")
    if len(state.entries) < state.config.min_players:
        return refuse("too_few", count=Count(state.config.min_players))
    drawn = draw_seats([e.entry for e in state.entries], state.config.seats, rng)
    names = state.names()
    tables = len({t for _, t, _ in drawn})
    notices = [msg("tournament.started", count=Count(len(drawn)), tables=Number(tables))]
    notices += [
        msg("tournament.seat", player=Name(names[e]), table=Number(t), seat=Number(s))
        for e, t, s in drawn
    ]
    after = fold(state, Started(drawn, at))
    notices.append(after.level_words())
    return Decision((Started(drawn, at),), notices=tuple(notices))


# ---------------------------------------------------------------- play


def may_deal(state: State, table: int, players: int) -> bool:
    """Whether ``table`` may deal its next hand now: the tournament runs, no break, the
    table is not breaking or waiting to be balanced (``halted`` from the planner is the
    caller's), hand-for-hand allows it, and two players are seated."""
    if state.status != "running" or players < 2 or table in state.broken or state.paused:
        return False
    if isinstance(state.config.schedule.item(state.level), Break):
        return False
    return state.hfh.may_deal(table, state.playing)


def hand_started(state: State, table: int, hand: int) -> Decision:
    starts = tuple((e, state.stacks[e]) for e, (t, _) in sorted(state.seats.items()) if t == table)
    return Decision((HandStarted(table, hand, starts),))


def _group_places(state: State) -> tuple[list[Record], list[Msg]]:
    """Places for every group of pending entries out, newest group highest; only once
    registration is closed (the field is known then, R-19.38)."""
    if state.registration_open or not state.out:
        return [], []
    groups: dict[str, list[Out]] = {}
    for o in state.out:
        groups.setdefault(o.group, []).append(o)
    left = state.left()  # an entry waiting to rebuy is still in
    prizes = state.prizes()
    records: list[Record] = []
    told: list[tuple[int, list[Msg]]] = []
    names = state.entry_names()
    for group in reversed(list(groups)):
        busts = [Bust(o.entry, o.started_with, _number(state, o.entry)) for o in groups[group]]
        for f in rank(busts, left, prizes):
            records.append(Placed(f.entry, f.first, f.last, f.prize))
            who = names.get(f.entry, Name(f.entry))
            if f.first == f.last:
                said = [msg("tournament.out", player=who, place=Number(f.first))]
            else:
                said = [
                    msg(
                        "tournament.out_shared",
                        player=who,
                        first=Number(f.first),
                        last=Number(f.last),
                    )
                ]
            if f.prize:
                said.append(msg("tournament.prize", player=who, amount=Chips(f.prize)))
            told.append((f.first, said))
        left += len(busts)
    # as a card room announces them, the lowest place first (6th, 5th, 4th).
    told.sort(key=lambda t: -t[0])
    return records, [m for _, said in told for m in said]


def _bubble(state: State) -> bool:
    """Hand-for-hand is due (R-19.36): the players left are one more than the paid
    places, or than a chosen pay jump, and more than one table plays."""
    if state.registration_open or len(state.tables()) < 2:
        return False
    left = state.left()
    marks = {state.paid_places(), *state.config.pay_jumps}
    return any(left == m + 1 for m in marks if m > 0)


def _after_outs(state: State, *, round_over: bool = False) -> tuple[list[Record], list[Msg]]:
    """Placing, hand-for-hand, the winner: what follows entries going out. During a
    hand-for-hand round nothing is placed until the round is over (R-19.36)."""
    records: list[Record] = []
    notices: list[Msg] = []

    def add(record: Record) -> None:
        nonlocal state
        records.append(record)
        state = fold(state, record)

    def close_waits() -> None:
        more, said = _close_waits(state)
        for record in more:
            add(record)
        notices.extend(said)

    close_waits()
    if state.hfh.on and state.hfh.dealt and not round_over:
        return records, notices
    if state.left() <= 1 and state.registration_open and not state.playing:
        add(RegistrationClosed())
    placed, said = _group_places(state)
    for record in placed:
        add(record)
    notices += said
    if placed and state.waiting:
        close_waits()  # the first prize won closes rebuys: the waits end
        more, said = _group_places(state)
        for record in more:
            add(record)
        placed += more
        notices += said
    bubble = _bubble(state)
    if state.hfh.on and (round_over or not state.hfh.dealt):
        if bubble:
            if round_over:
                add(HandForHandChanged(True))  # the next synchronized hand
        else:
            add(HandForHandChanged(False))
            notices.append(msg("tournament.hand_for_hand_off"))
    elif not state.hfh.on and bubble:
        add(HandForHandChanged(True))
        notices.append(msg("tournament.hand_for_hand"))
    if len(state.seats) == 2 and placed and not state.registration_open and not state.waiting:
        # Heads-up: the table plays it as says (button small blind, acts first).
        first, second = (state.entry_names()[e] for e in sorted(state.seats))
        notices.append(msg("tournament.heads_up", first=first, second=second, rule=Rule("R-1.5")))
    if (
        len(state.seats) == 1
        and not state.registration_open
        and not state.out
        and not state.waiting  # nobody wins while another may still rebuy
    ):
        (winner,) = state.seats
        prizes = state.prizes()
        add(Placed(winner, 1, 1, prizes[0] if prizes else 0))
        if state.config.entries.bounty:
            add(BountyPaid(winner, winner, state.config.entries.bounty))
        add(Finished(winner))
        name = state.entry_names()[winner]
        notices.append(msg("tournament.winner", player=name))
        if prizes:
            notices.append(msg("tournament.prize", player=name, amount=Chips(prizes[0])))
    return records, notices


def hand_finished(
    state: State,
    table: int,
    stacks: Sequence[tuple[str, int]],
    knockers: Mapping[str, Sequence[str]] | None = None,
    *,
    hand: int = 0,
    at: float = 0.0,
) -> Decision:
    """A table's hand is over with these stacks: entries out (R-19.34), their bounties
    (R-19.24), places (R-19.35; together in hand-for-hand, R-19.36), the level by
    hands, the winner."""
    knockers = knockers or {}
    done = HandFinished(
        table, hand, tuple(stacks), tuple((v, tuple(k)) for v, k in sorted(knockers.items()))
    )
    records: list[Record] = [done]
    notices: list[Msg] = []
    starts = state.playing.get(table, {})
    in_round = state.hfh.on and table in state.hfh.dealt
    state = fold(state, done)
    group = f"hfh{state.hfh.round}" if in_round else f"t{table}h{hand}n{state.table_hands[table]}"
    names = state.entry_names()
    for entry, chips in stacks:
        if chips != 0:
            continue
        if rebuy_sold(state, entry) and entry in state.seats:
            # his seat is given up, but he is not out while he may rebuy.
            table_at, seat = state.seats[entry]
            until = at + state.config.entries.rebuy_wait
            knocked = tuple(knockers.get(entry, ()))
            wait = Waiting(entry, table_at, seat, starts.get(entry, 0), until, knocked)
            records.append(wait)
            state = fold(state, wait)
            notices.append(_wait_words(state, entry))
            continue
        out = Out(entry, starts.get(entry, 0), group)
        records.append(out)
        state = fold(state, out)
        more, said = _bounty(state, entry, tuple(knockers.get(entry, ())), names)
        records += more
        notices += said
        state = folded(state, more)
    over = in_round and state.hfh.round_over(state.tables(), _dealable(state))
    more, said = _after_outs(state, round_over=over)
    records += more
    notices += said
    state = folded(state, more)
    sched = state.config.schedule
    item = sched.item(state.level)
    if (
        state.status == "running"
        and sched.unit == "hands"
        and isinstance(item, Level)
        and state.hands_in_level >= item.length * state.tables_at_level
        and state.level + 1 < len(sched.items)
    ):
        up = level_up(state, at)
        records += up.records
        notices += up.notices
    return Decision(tuple(records), notices=tuple(notices))


def _bounty(
    state: State, entry: str, knockers: tuple[str, ...], names: Mapping[str, Name | Msg]
) -> tuple[list[Record], list[Msg]]:
    """The bounty on ``entry``, out now, shared by who won his last chips (R-19.24)."""
    records: list[Record] = []
    notices: list[Msg] = []
    for who, amount in payouts.bounty_split(state.config.entries.bounty, knockers):
        records.append(BountyPaid(who, entry, amount))
        notices.append(
            msg(
                "tournament.bounty",
                player=names[who],
                victim=names[entry],
                amount=Chips(amount),
            )
        )
    return records, notices


# ---------------------------------------------------------------- waiting to rebuy


def rebuys_sold(state: State) -> bool:
    """Rebuys are sold now (R-19.38): on, through level ``rebuy_until``, no prize won."""
    e = state.config.entries
    return (
        state.status == "running"
        and e.rebuys > 0
        and state.config.schedule.level_number(state.level) <= e.rebuy_until
        and not any(f.prize for f in state.finishes)
    )


def rebuy_sold(state: State, entry: str) -> bool:
    """A rebuy is sold to ``entry`` now: rebuys are, and he has one left."""
    return rebuys_sold(state) and state.rebuys.get(entry, 0) < state.config.entries.rebuys


def _wait_words(state: State, entry: str) -> Msg:
    cfg = state.config
    return msg(
        "tournament.waiting",
        player=state.entry_names()[entry],
        amount=Chips(cfg.stack),
        price=Chips(cfg.prize_part),
        count=Count(cfg.entries.rebuy_wait),
    )


def _end_waits(state: State, entries: Sequence[str]) -> tuple[list[Record], list[Msg]]:
    """The waits of ``entries`` over together: each out now, in one group, ranked by
    the chips he began his busting hand with (R-19.49), and his bounty paid."""
    records: list[Record] = []
    notices: list[Msg] = []
    names = state.entry_names()
    group = f"wait{len(state.finishes) + len(state.out)}"  # one per ending, never reused
    for entry in entries:
        wait = state.waiting[entry]
        out = Out(entry, wait.started_with, group)
        records.append(out)
        state = fold(state, out)
        notices.append(msg("tournament.no_rebuy", player=names[entry]))
        more, said = _bounty(state, entry, wait.knockers, names)
        records += more
        notices += said
        state = folded(state, more)
    return records, notices


def _close_waits(state: State) -> tuple[list[Record], list[Msg]]:
    """Every wait ends when rebuys close for everyone (R-19.49)."""
    if not state.waiting or rebuys_sold(state) or state.status != "running":
        return [], []
    return _end_waits(state, sorted(state.waiting))


def decline(state: State, entry: str) -> Decision:
    """A busted entry waiting to rebuy says no: out at once (R-19.48)."""
    if entry not in state.waiting:
        return refuse("not_waiting")
    records, notices = _end_waits(state, [entry])
    more, said = _after_outs(folded(state, records))
    return Decision((*records, *more), notices=(*notices, *said))


def expire(state: State, now: float) -> Decision:
    """The waits whose time ran out by ``now`` end together (R-19.49)."""
    if state.status != "running" or state.paused:
        return Decision()
    due = sorted(e for e, w in state.waiting.items() if now >= w.until)
    if not due:
        return Decision()
    records, notices = _end_waits(state, due)
    more, said = _after_outs(folded(state, records))
    return Decision((*records, *more), notices=(*notices, *said))


def may_balance(state: State) -> bool:
    """Whether tables may be balanced now: not during a hand-for-hand round (a moved
    player would play two hands of one round); between rounds they are (R-19.36)."""
    return not (state.hfh.on and state.hfh.dealt)


def _dealable(state: State) -> list[int]:
    return [t for t, seats in state.tables().items() if len(seats) >= 2 and t not in state.broken]


def level_up(state: State, at: float = 0.0) -> Decision:
    """The next schedule item begins at every table's next deal; registration closes
    after its last level (R-19.38)."""
    index = state.level + 1
    records: list[Record] = [LevelUp(index, at)]
    after = fold(state, records[0])
    notices = [after.level_words()]
    if (
        state.registration_open
        and after.config.schedule.level_number(index) > state.config.entries.late_until
    ):
        records.append(RegistrationClosed())
        after = fold(after, records[-1])
        notices.append(msg("tournament.registration_closed", count=Count(len(after.entries))))
        more, said = _after_outs(after)
        records += more
        notices += said
    elif after.waiting and not rebuys_sold(after):  # the last rebuy level is over
        more, said = _after_outs(after)
        records += more
        notices += said
    return Decision(tuple(records), notices=tuple(notices))


def tick(state: State, now: float) -> Decision:
    """Levels and breaks by the clock (schedules in minutes; a break always is), and
    busted players' rebuy waits run out (R-19.49, whatever the schedule's unit)."""
    if state.status != "running" or state.paused:
        return Decision()
    expired = expire(state, now)
    state = folded(state, expired.records)
    if state.status != "running":
        return expired
    sched = state.config.schedule
    item = sched.item(state.level)
    minutes = item.minutes if isinstance(item, Break) else item.length
    timed = isinstance(item, Break) or sched.unit == "minutes"
    if timed and now >= state.level_at + minutes * 60 and state.level + 1 < len(sched.items):
        up = level_up(state, now)
        return Decision((*expired.records, *up.records), notices=(*expired.notices, *up.notices))
    return expired


def moves(state: State, plan: Plan) -> Decision:
    """The records of a balancing plan: breaks and moves."""
    records: list[Record] = [TableBroken(t) for t in plan.breaking if t not in state.broken]
    for m in plan.moves:
        records.append(Moved(m.player, m.from_table, m.from_seat, m.to_table, m.to_seat, m.reason))
    return Decision(tuple(records), notices=plan.notices)


# ---------------------------------------------------------------- status


def status(state: State, now: float = 0.0) -> tuple[Msg, ...]:
    """The status board, line by line: the level (or break), when the next comes, the
    entries left and the average stack, the places paid and first prize, the bubble
    or the money, hand-for-hand."""
    lines = [state.level_words()]
    if state.paused_at is not None:
        now = state.paused_at  # the clock stands where the pause stopped it
    sched = state.config.schedule
    item = sched.item(state.level)
    if state.level + 1 < len(sched.items):
        if isinstance(item, Break) or sched.unit == "minutes":
            length = item.minutes if isinstance(item, Break) else item.length
            left = max(0, int(state.level_at + length * 60 - now + 59) // 60)
            lines.append(msg("tournament.status.next_minutes", count=Count(left)))
        else:
            left = max(0, item.length * state.tables_at_level - state.hands_in_level)
            lines.append(msg("tournament.status.next_hands", count=Count(left)))
    alive = state.left()  # a player waiting to rebuy is still in
    if alive:
        # he has no chips, so the average is over the players with chips.
        waiting = sum(1 for e in state.waiting if e not in state.seats)
        with_chips = max(1, alive - waiting)
        lines.append(
            msg(
                "tournament.status.players",
                count=Count(alive),
                entries=Number(len(state.entries)),
                average=Chips(sum(state.stacks.values()) // with_chips),
            )
        )
        if waiting:
            lines.append(msg("tournament.status.waiting", count=Count(waiting)))
    prizes = state.prizes()
    if prizes:
        lines.append(
            msg("tournament.status.paid", count=Count(len(prizes)), first=Chips(prizes[0]))
        )
        if not state.registration_open and alive == len(prizes) + 1:
            lines.append(msg("tournament.status.bubble"))
        elif not state.registration_open and 0 < alive <= len(prizes):
            lines.append(msg("tournament.status.in_money"))
    if state.hfh.on:
        lines.append(msg("tournament.hand_for_hand"))
    if state.paused:
        lines.append(msg("tournament.status.paused"))
    return tuple(lines)


# ---------------------------------------------------------------- the host's pause


def pause(state: State, by: str, *, at: float = 0.0) -> Decision:
    """The host pauses a running tournament (R-19.41): clocks stop, tables finish the
    hand in progress and deal no other until :func:`resume`."""
    if state.status != "running":
        return refuse("not_running")
    if state.paused:
        return refuse("paused")
    return Decision((Paused(by, at),), notices=(msg("tournament.paused"),))


def resume(state: State, by: str, *, at: float = 0.0) -> Decision:
    """The host resumes a paused tournament; the level goes on with the time it had
    left when paused (R-19.41)."""
    if state.status != "running":
        return refuse("not_running")
    if not state.paused:
        return refuse("not_paused")
    return Decision((Resumed(by, at),), notices=(msg("tournament.resumed"),))


# ---------------------------------------------------------------- buying chips


def rebuy(
    state: State,
    entry: str,
    *,
    addon: bool = False,
    tables: Sequence[TableShape] = (),
    rng: random.Random | None = None,
    at: float | None = None,
) -> Decision:
    """A rebuy (stack at or below the starting stack, through level ``rebuy_until``,
    before the money) or the add-on (once, from the last rebuy level to the next
    break's end), between hands (R-19.38). An entry waiting after his bust (R-19.47)
    rebuys the starting stack and sits at a seat drawn among ``tables`` as a late
    entry does (R-19.48); ``at``: now, past his wait he may not. Only while the
    tournament runs, whatever path asks (R-19.100)."""
    if state.status != "running":
        return refuse("not_running")
    e = state.config.entries
    if entry in state.waiting and not addon:
        wait = state.waiting[entry]
        if rebuys_sold(state) and not rebuy_sold(state, entry):
            return _rebuys_used(state)
        if not rebuy_sold(state, entry) or (at is not None and at > wait.until):
            return refuse("rebuy_closed")
        spot = place_newcomer([t for t in tables if t.between_hands], rng or random.Random())
        if spot is None:
            return refuse("no_seat")
        table, seat = spot
        name = state.entry_names()[entry]
        return Decision(
            (Rebought(entry, state.config.stack, state.config.prize_part), Returned(entry, *spot)),
            notices=(
                _bought("tournament.rebought", state, entry, state.config.stack),
                msg("tournament.seat", player=name, table=Number(table), seat=Number(seat)),
            ),
        )
    if entry not in state.seats:
        return refuse("not_playing")
    # A refusal the end of his hand would not change is said at once.
    in_hand = state.seats[entry][0] in state.playing
    level = state.config.schedule.level_number(state.level)
    if any(f.prize for f in state.finishes):
        return refuse("rebuy_closed")
    if addon:
        if (
            not e.addon
            or entry in state.addons
            or level < e.rebuy_until
            or level > e.rebuy_until + 1
        ):
            return refuse("addon_closed")
        if in_hand:
            return refuse("in_hand")
        return Decision(
            (Rebought(entry, e.addon, e.addon_price, True),),
            notices=(_bought("tournament.addon_bought", state, entry, e.addon),),
        )
    if e.rebuys and state.rebuys.get(entry, 0) >= e.rebuys:
        return _rebuys_used(state)
    if not e.rebuys or level > e.rebuy_until:
        return refuse("rebuy_closed")
    if in_hand:
        return refuse("in_hand")
    if state.stacks.get(entry, 0) > state.config.stack:
        return refuse("rebuy_stack", amount=Chips(state.config.stack))
    return Decision(
        (Rebought(entry, state.config.stack, state.config.prize_part),),
        notices=(_bought("tournament.rebought", state, entry, state.config.stack),),
    )


def _rebuys_used(state: State) -> Decision:
    """His own rebuys are all bought (R-19.94): said apart from rebuys being over."""
    return refuse("rebuy_used", count=Count(state.config.entries.rebuys))


def _bought(key: str, state: State, entry: str, chips: int) -> Msg:
    return msg(key, player=state.entry_names()[entry], amount=Chips(chips))


def color_up_due(state: State) -> int | None:
    """The new smallest chip of a color-up the configuration schedules at the current
    level (or earlier) and not yet raced, if any (``Config.chip_races``)."""
    level = state.config.schedule.level_number(state.level)
    due = [unit for at, _, unit in state.config.chip_races if at <= level and unit > state.unit]
    return max(due) if due else None


def color_up(state: State, new_unit: int, rng: random.Random) -> Decision:
    """A chip race to multiples of ``new_unit`` with every table between hands
    (R-19.25); the caller runs it when :func:`color_up_due` says so, at a break."""
    if state.playing:
        return refuse("in_hand")
    order = sorted(state.seats.items(), key=lambda kv: kv[1])
    result = chip_race([(e, state.stacks[e]) for e, _ in order], new_unit, rng)
    names = state.entry_names()
    return Decision(
        (ChipRaced(result.stacks, result.delta, new_unit),),
        notices=(
            msg("tournament.color_up", unit=Chips(new_unit)),
            *(
                msg("tournament.race_won", player=names[w], amount=Chips(new_unit))
                for w in result.winners
            ),
        ),
    )


# ---------------------------------------------------------------- cancelling


def cancel(state: State, *, at: float = 0.0, by: str = "") -> Decision:
    """Call the tournament off (R-19.39). Before the start every entry gets its whole
    price back. After it, prizes already won stand; what is left of the prize pool is
    shared by the entries still in, in proportion to their chips (odd chips one each,
    biggest stack first, then entry order), and each gets his own bounty back; fees
    are kept."""
    if state.status in ("finished", "cancelled"):
        return refuse("over")
    if state.status == "registering":
        refunds = tuple((e.entry, e.paid) for e in state.entries)
    else:
        left = state.pool - sum(f.prize for f in state.finishes)
        # A busted entry waiting to rebuy is still in: no chips, his bounty back.
        alive = sorted(
            [*state.seats, *state.waiting],
            key=lambda e: (-state.stacks.get(e, 0), _number(state, e)),
        )
        total = sum(state.stacks.get(e, 0) for e in alive)
        shares = {e: left * state.stacks.get(e, 0) // total if total else 0 for e in alive}
        odd = left - sum(shares.values())
        for e in alive[:odd]:
            shares[e] += 1
        bounty = state.config.entries.bounty
        refunds = tuple((e, shares[e] + bounty) for e in alive)
    names = state.entry_names()
    return Decision(
        (Cancelled(refunds, at, by),),
        notices=(
            msg("tournament.cancelled"),
            *(msg("tournament.refund", player=names[e], amount=Chips(a)) for e, a in refunds if a),
        ),
    )


# ---------------------------------------------------------------- invariants


def check(state: State) -> None:
    """The invariants (R-2.5 and R-19.22): chips in play all in stacks between hands;
    prizes, bounties and refunds never more than their pools and, at the end, exactly
    them; places unique and complete at the end. AssertionError says which failed."""
    if state.status == "running" and not state.playing:
        held = sum(state.stacks.values())
        assert held == state.chips, f"chips {held} != {state.chips} put in play"
    paid = sum(f.prize for f in state.finishes)
    assert paid <= state.pool, f"prizes {paid} over the pool {state.pool}"
    bounties = sum(b.amount for b in state.bounties)
    assert bounties <= state.bounty_pool, f"bounties {bounties} over {state.bounty_pool}"
    places = [(f.first, f.last) for f in state.finishes]
    singles = [p for p in places if p[0] == p[1]]
    assert len(singles) == len(set(singles)), f"a place held twice: {places}"
    if state.status == "finished":
        assert paid == state.pool, f"prizes {paid} != pool {state.pool}"
        assert bounties == state.bounty_pool, f"bounties {bounties} != {state.bounty_pool}"
        assert complete(state.finishes, len(state.entries)), f"places incomplete: {places}"
        assert not state.out and len(state.seats) == 1
    if state.status == "cancelled":
        refunded = sum(a for _, a in state.refunds)
        if state.finishes or state.bounties or state.chips:
            back = len(state.refunds) * state.config.entries.bounty  # one per entry still in
            assert paid + refunded - back == state.pool
            assert bounties + back == state.bounty_pool
        else:
            assert refunded == state.pool + state.bounty_pool + state.fees


__all__ = [
    "Decision",
    "Entry",
    "State",
    "Status",
    "cancel",
    "check",
    "color_up",
    "color_up_due",
    "decline",
    "expire",
    "fold",
    "folded",
    "hand_finished",
    "hand_started",
    "level_up",
    "may_balance",
    "may_deal",
    "moves",
    "pause",
    "rebuy",
    "rebuy_sold",
    "rebuys_sold",
    "register",
    "replay",
    "resume",
    "start",
    "status",
    "tick",
    "unregister",
]
