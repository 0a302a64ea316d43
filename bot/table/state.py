"""One table's state, rebuilt by folding its event log (invariant 4).

:class:`TableState` changes only in :meth:`TableState.apply`, which takes one logged event.
The live service and crash recovery call the same method, so a restarted table is the
table that was running. Recovery skips the engine for finished hands (their end event
carries the stacks) and replays only the hand in progress.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.poker.actions import Action, AddChips
from bot.poker.events import Event
from bot.poker.hand import Hand
from bot.poker.messages import Chips, Msg, Rule, msg
from bot.poker.record import HandStart
from bot.poker.variants import get_variant
from bot.table import log
from bot.table.button import DealPlan
from bot.table.errors import TableError
from bot.table.handlabel import hand_label
from bot.table.home import aftermath, bombvote
from bot.table.hosting import Hosting, Offer
from bot.table.hosting import role as hosting_role
from bot.table.seating import Seat
from bot.table.settings import TableSettings

HAND_EVENTS = frozenset({log.HandStarted.KIND, log.ActionTaken.KIND, log.HandEnded.KIND})
"""Events that advance play: they bump the turn number and restart the turn clock."""
IDEM_MEMORY = 5000
RECENT_HANDS = 20
"""Finished hands kept in memory for history/PHH; older ones are read from the log."""


class UnreplayableHand(TableError):
    """A recorded hand this engine cannot replay (a rule changed since it was dealt,
    R-16.8)."""

    def __init__(self, hand_no: int, reason: Msg, session: int = 1) -> None:
        # ``reason``: the engine's refusal of the old rules; ``session``: which table of
        # the channel.
        hand = hand_label(session, hand_no)
        super().__init__(msg("table.unreplayable", hand=hand, why=reason, rule=Rule("R-16.8")))
        self.hand_no = hand_no
        self.reason = reason


@dataclass(slots=True)
class HandInfo:
    """A deal: its start record, the seats in PHH order, and the actions so far."""

    hand_no: int
    start: HandStart
    order: tuple[int, ...]
    names: tuple[str, ...]
    users: tuple[str, ...]
    button: int
    sb_seat: int | None
    bb_seat: int | None
    variant: str
    limit: str
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    hand: Hand | None = None
    ended: bool = False
    started_at: float = 0.0
    start_turn: int = 0
    """The table's turn number once this deal began: any prompt of this deal carries a
    turn at least this (an older one belongs to an earlier deal)."""
    replay_error: Msg | None = None
    """Why this engine could not replay the record (R-16.8): the hand is then cancelled
    at recovery and never replayed again."""
    level: tuple[tuple[str, int], ...] = ()
    """The tournament level it was dealt at (R-19.1); none at a cash table."""
    bounty: tuple[tuple[int, int, int], ...] = ()
    """R-20.6: the 7-2 bounty paid after it, (payer, winner, chips), as its end wrote it."""

    @classmethod
    def started(
        cls, p: log.HandStarted, names: tuple[str, ...], users: tuple[str, ...], **more: Any
    ) -> HandInfo:
        """The deal a ``hand_started`` record begins, its seats named ``names``/``users``
        in the record's order."""
        return cls(
            hand_no=p.hand_no,
            start=p.start,
            order=p.order,
            names=names,
            users=users,
            button=p.button,
            sb_seat=p.sb_seat,
            bb_seat=p.bb_seat,
            variant=p.variant,
            limit=p.limit,
            replay_error=p.refused,
            level=p.level,
            **more,
        )

    def cancellation(self, pot_state: dict[str, Any] | None) -> log.HandEnded:
        """The ``hand_ended`` payload that cancels this hand (R-16.8): every player gets
        back what he put in (his stack at the deal, plus chips bought during the hand,
        R-2.4), a pot carried into the hand is carried on, nothing is raked."""
        stacks = list(self.start.stacks)
        for action in self.actions:
            if isinstance(action, AddChips):
                stacks[action.player] += action.amount
        return log.HandEnded(
            self.hand_no,
            tuple(stacks),
            (0,) * len(stacks),
            rake=0,
            carried=self.start.carried,
            reason="cancelled",
            pot_state=pot_state,
        )

    def position_of(self, seat: int) -> int | None:
        try:
            return self.order.index(seat)
        except ValueError:
            return None

    def ensure_hand(self) -> Hand:
        """The engine hand, replayed from the record when it was not kept (recovery)."""
        if self.hand is None:
            if self.replay_error is not None:
                raise UnreplayableHand(self.hand_no, self.replay_error)
            hand = self.start.new_hand()
            events = list(hand.events)
            for action in self.actions:
                events.extend(hand.apply(action))
            self.hand = hand
            self.events = events
        return self.hand


@dataclass(slots=True)
class TableState:
    table_id: str
    settings: TableSettings = field(default_factory=TableSettings)
    host: str = ""
    seats: dict[int, Seat] = field(default_factory=dict)
    turn: int = 0
    hand_no: int = 0
    current: HandInfo | None = None
    recent: dict[int, HandInfo] = field(default_factory=dict)
    prev_button: int | None = None
    prev_sb: int | None = None
    prev_bb: int | None = None
    first_button: int | None = None
    carried: int = 0
    time_collected_at: float | None = None
    pot_state: dict[str, Any] | None = None
    """§15 two to win / Guts: markers, legs and reserve carried between deals."""
    carried_by: tuple[str, ...] = ()
    """The players (in the hand's order from the button's left) dealt into the last
    hand that carried a pot: whom it goes back to if the table closes (R-16.13)."""
    rake_total: int = 0
    bought: int = 0
    cashed: int = 0
    moves: dict[str, int] = field(default_factory=dict)
    """R-19.2: chips each move between tables brought in (+) or took out (-), by the
    move's transfer id, and a tournament's rebuys, add-ons and chip races (R-19.43);
    none of it is in the ledger."""
    idem: dict[str, int] = field(default_factory=dict)
    last_change_at: float = 0.0
    """Time of the last event of any kind (the pause before an automatic deal)."""
    clock_start: float = 0.0
    """When the current turn began: the last hand event (a seat change elsewhere at the
    table does not restart anyone's clock), or the moment play resumed after a pause."""
    phase_started_at: float = 0.0
    last_phase: str = ""
    paused: bool = False
    closed: bool = False
    halted: Msg | None = None
    """Why the table is stopped (None: it is not)."""
    chosen: tuple[str, str] | None = None
    rotation_pick: tuple[int, int] | None = None
    """A tournament's pick of its rotation's game, ``(first, every)``: the deal numbered
    ``n`` deals game ``first + n // every`` (``every`` 0: game ``first``), by level or
    by orbit (R-19.55, R-19.56). The tournament's record, set again when it resumes;
    None: one game per deal (R-16.2)."""
    straddler: int | None = None
    """The seat that will straddle the next deal (R-3.4), if one asked to."""
    after: dict[str, Any] = field(default_factory=dict)
    """The rabbit hunts and the shows by choice of the last finished hands, by hand
    number (R-20.14, R-20.15; bot/table/home/aftermath.py)."""
    bomb: dict[str, Any] = field(default_factory=dict)
    """R-20.12: the open bomb-pot proposal (``vote``: seat, at, voters, yes, no) and
    whether one passed for the next deal (``passed``); bot/table/home/bombvote.py."""
    last_said: Msg | None = None
    """What the table said of the last action of the hand, as a message with names."""
    departures: dict[str, tuple[int, float]] = field(default_factory=dict)
    hosting: Hosting = field(default_factory=Hosting)
    """Co-hosts, kicked players and the waiting list (bot/table/hosting.py)."""
    bank_granted: float | None = None
    """The time bank setting the seated players' banks were last filled from; a change
    of the setting refills every bank at the next deal (R-1.10)."""
    seq: int = 0
    incarnation: int = 0
    """How many tables this channel has opened (each ``Created`` starts one). The
    idempotency keys a table derives from its hand and turn numbers, which start again
    with each table, are scoped by it (:meth:`scoped`)."""
    tournament: str = ""
    """The tournament whose table this is (its id, from the table's ``Created``;
    R-19.3): its seats, chips and stakes are the tournament's. Empty: a cash table."""
    opened_seq: int = 0
    """The log position of this table's ``Created``: what came before belongs to an
    earlier table of the channel (its session, its ledger)."""

    # ------------------------------------------------------------------ queries

    def scoped(self, key: str) -> str:
        """``key`` made unique to this table of the channel. The first table's keys are
        unchanged, so every log written before tables were scoped reads the same.

        >>> s = TableState("c"); s.incarnation = 1; s.scoped("end:3")
        'end:3'
        >>> s.incarnation = 2; s.scoped("end:3")
        'end:3@2'
        """
        return key if self.incarnation <= 1 else f"{key}@{self.incarnation}"

    def seat_of(self, user_id: str) -> Seat | None:
        for seat in self.seats.values():
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def hand(self) -> Hand | None:
        if self.current is None or self.current.ended:
            return None
        return self.current.ensure_hand()

    @property
    def in_hand(self) -> bool:
        return self.current is not None and not self.current.ended

    def dealt_in(self, seat: int) -> bool:
        return self.in_hand and self.current is not None and seat in self.current.order

    def next_game(self) -> tuple[str, str]:
        """The (variant, limit) of the next deal: the dealer's choice while the table is
        dealer's choice, Guts while a Guts pot waits (R-15.2), else the rotation."""
        s = self.settings
        if self.chosen is not None and s.dealers_choice:
            # A choice stands only while the table is dealer's choice (a host may turn
            # it off between the choice and the deal).
            return self.chosen
        held = self.pot_state or {}
        if held.get("system") == "guts" and self.carried:
            return "guts", s.limit_for("guts")  # a waiting match pot is played for in Guts
        games = s.games()
        if self.rotation_pick is None:
            return games[self.hand_no % len(games)]
        first, every = self.rotation_pick
        return games[(first + (self.hand_no // every if every else 0)) % len(games)]

    def chips_on_table(self) -> int:
        """sum(stacks) + pots + rake collected (R-2.5), whatever the moment."""
        total = self.rake_total
        info = self.current
        if info is not None and not info.ended:
            hand = info.ensure_hand()
            total += hand.total_chips() + hand.added  # chips bought mid-hand
            total += sum(s.stack for n, s in self.seats.items() if n not in info.order)
        else:
            total += sum(s.stack for s in self.seats.values()) + self.carried
        return total

    def conservation_error(self) -> Msg | None:
        """R-2.5: chips on the table must equal chips bought minus chips cashed out."""
        expected = self.bought - self.cashed + sum(self.moves.values())
        actual = self.chips_on_table()
        if actual != expected:
            return msg(
                "table.conservation_failed",
                rule=Rule("R-2.5"),
                actual=Chips(actual),
                bought=Chips(self.bought),
                cashed=Chips(self.cashed),
                expected=Chips(expected),
            )
        return None

    # ------------------------------------------------------------------ folding the log

    def apply(
        self,
        event: log.LogRecord,
        *,
        idem_key: str | None = None,
        live: Any = None,
        seq: int | None = None,
    ) -> None:
        """Apply one logged event (a record of :mod:`bot.table.log`) stored at ``seq``.
        ``live`` carries work already done by the live path (the engine hand it built or
        the events an action produced) so it is not redone."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise ValueError(f"not a table event: {event.kind!r}")
        if seq is not None:
            self.seq = seq
        when = event.at if event.at is not None else self.last_change_at
        handler(self, event, live)
        if event.kind in HAND_EVENTS:
            # The turn number moves with the play only, so a seat change elsewhere does
            # not make a player's "your turn" buttons stale.
            self.turn += 1
            self.clock_start = when
        if idem_key is not None:
            self.idem[idem_key] = self.turn
            if len(self.idem) > IDEM_MEMORY:
                # Older keys are still refused by the store's unique index (DuplicateKey);
                # memory only keeps the recent ones, to answer retries without a write.
                for old in list(self.idem)[: IDEM_MEMORY // 5]:
                    del self.idem[old]
        self.last_change_at = when

    def _on_created(self, p: log.Created, live: Any) -> None:
        # A channel may get a new table after its last one closed: a new incarnation
        # starts clean, except the chip counters, which run on for the whole channel.
        if self.closed:
            # A pot carried at the close was returned then; only a log written
            # before that ruling closed with one still carried, which stays counted.
            keep = (self.bought, self.cashed, self.rake_total, self.carried, self.idem)
            moves = self.moves
            kept = (self.incarnation, self.seq)
            fresh = TableState(self.table_id)
            for name in TableState.__slots__:
                setattr(self, name, getattr(fresh, name))
            self.bought, self.cashed, self.rake_total, self.carried, self.idem = keep
            self.moves = moves
            self.incarnation, self.seq = kept
        self.incarnation += 1
        self.opened_seq = self.seq
        self.settings = p.settings
        self.bank_granted = self.settings.time_bank
        self.host = p.host
        self.first_button = p.first_button
        self.tournament = p.tournament or _opened_by_tournament(self.table_id)

    def _on_settings(self, p: log.SettingsChanged, live: Any) -> None:
        self.settings = p.settings

    def _on_sat(self, p: log.Sat, live: Any) -> None:
        number = p.seat
        state = p.state or "waiting"
        seat = Seat(
            number=number,
            user_id=p.user,
            name=p.name,
            stack=p.buy_in,
            state=state,
            bank=float(self.settings.time_bank),
            owes=p.owes,
        )
        self.seats[number] = seat
        if p.transfer is not None:
            self.moves[p.transfer] = self.moves.get(p.transfer, 0) + seat.stack
        else:
            self.bought += seat.stack
        self.departures.pop(seat.user_id, None)
        self.hosting.drop(p.user)  # seated: off the waiting list
        self.hosting.kicked.discard(p.user)  # a kick is not a ban
        self.hosting.kicked_by.pop(p.user, None)

    def _on_time_collected(self, p: log.TimeCollected, live: Any) -> None:
        """R-14.2: the house's time charge, taken between deals; recorded as rake."""
        for number, amount in p.charges:
            seat = self.seats[number]
            seat.stack -= amount
            self.rake_total += amount
        self.time_collected_at = p.at or 0.0

    def _on_topped_up(self, p: log.ToppedUp, live: Any) -> None:
        seat = self.seats[p.seat]
        amount = p.amount
        seat.stack += amount
        self.bought += amount
        if seat.state == "sitting_out" and p.returns:
            # a rebuy before the big blind passed him misses nothing ("active");
            # logs older than the ruling say nothing and meant "waiting".
            seat.state = p.state or "waiting"

    def _on_sat_out(self, p: log.SatOut, live: Any) -> None:
        seat = self.seats[p.seat]
        if self.dealt_in(seat.number):
            seat.sit_out_next = True
        else:
            seat.state = "sitting_out"
            seat.missed = False

    def _on_returned(self, p: log.Returned, live: Any) -> None:
        seat = self.seats[p.seat]
        seat.sit_out_next = False
        seat.timeouts = 0
        if seat.state == "sitting_out":
            seat.state = p.state or "waiting"
            seat.owes = p.owes
        elif seat.state == "waiting" and p.owes > 0:
            seat.owes = p.owes  # he posts to come in rather than wait

    def _on_leaving(self, p: log.Leaving, live: Any) -> None:
        self.seats[p.seat].leaving = True

    def _on_stood(self, p: log.Stood, live: Any) -> None:
        seat = self.seats.pop(p.seat)
        amount = p.amount
        if p.transfer is not None:
            self.moves[p.transfer] = self.moves.get(p.transfer, 0) - amount
            return
        self.cashed += amount
        at = p.at or 0.0
        self.departures[seat.user_id] = (amount, at)

    def _on_chips_changed(self, p: log.ChipsChanged, live: Any) -> None:
        """A tournament's rebuy, add-on or chip race: a transfer, not a buy (R-19.43)."""
        self.seats[p.seat].stack += p.amount
        self.moves[p.transfer] = self.moves.get(p.transfer, 0) + p.amount

    def _on_host_acted(self, p: log.HostActed, live: Any) -> None:
        """§20 host tools (R-20.50 to R-20.54); the checks are bot/table/host.py's."""
        if p.what == "kick":
            self.hosting.kicked.add(p.user)
            # who kicked him, as he acted then (he may stop being a co-host).
            role = hosting_role(self.host, self.hosting.cohosts, p.by)
            self.hosting.kicked_by[p.user] = (role, p.by_name)
            if self.dealt_in(p.seat):
                self.seats[p.seat].leaving = True
        elif p.what == "seat":
            seat = self.seats.pop(p.seat)
            seat.number = p.to
            self.seats[p.to] = seat
        elif p.what == "adjust":
            self.seats[p.seat].stack += p.amount
            self.bought += p.amount  # from (or to) the bank, as the ledger row says
        elif p.what == "sitout":
            self._on_sat_out(log.SatOut(p.seat), live)
        elif p.what == "cohost":
            self.hosting.cohosts.add(p.user)
        elif p.what == "uncohost":
            self.hosting.cohosts.discard(p.user)

    def _on_waitlisted(self, p: log.Waitlisted, live: Any) -> None:
        """R-20.55/R-20.56: the waiting list and the seat offered from it."""
        h = self.hosting
        if p.what == "join":
            h.waiting.append((p.user, p.name))
        elif p.what == "leave":
            h.drop(p.user)
        elif p.what == "offer":
            h.drop(p.user)
            h.offer = Offer(p.user, p.name, (p.at or 0.0) + self.settings.action_clock)
        elif p.what == "lapse":
            h.offer = None

    def _on_straddled(self, p: log.Straddled, live: Any) -> None:
        if self.straddler is None:
            self.straddler = p.seat
        else:
            self.hosting.restraddles.append(p.seat)  # a re-straddle

    def _on_bomb_proposed(self, p: log.BombProposed, live: Any) -> None:
        bombvote.fold_proposed(self.bomb, p)

    def _on_bomb_voted(self, p: log.BombVoted, live: Any) -> None:
        bombvote.fold_voted(self.bomb, p)

    def _on_bomb_lapsed(self, p: log.BombLapsed, live: Any) -> None:
        bombvote.fold_lapsed(self.bomb)

    def _on_rabbit_hunted(self, p: log.RabbitHunted, live: Any) -> None:
        aftermath.fold_rabbit(self.after, p)

    def _on_shown_by_choice(self, p: log.ShownByChoice, live: Any) -> None:
        aftermath.fold_shown(self.after, p)

    def _on_chosen(self, p: log.Chosen, live: Any) -> None:
        self.chosen = (p.variant, p.limit)

    def _on_paused(self, p: log.Paused, live: Any) -> None:
        self.paused = p.paused
        if not self.paused:
            # Clocks stop while paused; the player to act gets a fresh clock on resume.
            at = p.at or 0.0
            self.clock_start = at
            self.phase_started_at = at

    def _on_closed(self, p: log.Closed, live: Any) -> None:
        self.closed = True

    def _on_carry_returned(self, p: log.CarryReturned, live: Any) -> None:
        for user, amount in p.shares:
            seat = self.seat_of(user)
            if seat is not None:
                seat.stack += amount
            else:
                self.cashed += amount  # he left before the close: cashed out his share
            self.carried -= amount
        self.carried_by = ()
        self.pot_state = None

    def _on_halted(self, p: log.Halted, live: Any) -> None:
        self.halted = p.told

    def _on_hand_started(self, p: log.HandStarted, live: Any) -> None:
        start, order = p.start, p.order
        info = HandInfo.started(
            p,
            tuple(self.seats[s].name for s in order),
            tuple(self.seats[s].user_id for s in order),
            started_at=p.at or 0.0,
            start_turn=self.turn + 1,  # the turn counter moves past this event just after
        )
        if isinstance(live, Hand):
            info.hand = live
            info.events = list(live.events)
        self.current = info
        self.hand_no = info.hand_no
        if self.bank_granted != self.settings.time_bank:
            # a settings change applies from the next deal to everyone seated,
            # not only to players who sit down later.
            for seat in self.seats.values():
                seat.bank = float(self.settings.time_bank)
            self.bank_granted = self.settings.time_bank
        self.carried = 0  # now inside the hand's pot
        self.chosen = None
        self.straddler = None  # posted in this deal, or lapsed
        self.hosting.restraddles = []
        bombvote.fold_dealt(self.bomb)  # a passed proposal is this deal's
        self.last_said = None
        dead = start.rules.dead_posts
        live = start.rules.blinds_or_straddles
        for pos, s in enumerate(order):
            seat = self.seats[s]
            seat.state = "active"
            seat.missed = False
            posted_dead = pos < len(dead) and dead[pos] > 0
            posted_live = (
                s not in (info.sb_seat, info.bb_seat) and pos < len(live) and live[pos] > 0
            )
            if posted_dead or posted_live:
                seat.owes = 0
            seat.stack = start.stacks[pos]
        bomb = start.rules.bomb_pot_ante > 0  # a bomb pot makes nobody miss a blind
        if self.settings.button_rule == "moving" and self.prev_bb is not None and not bomb:
            # moving button: the player who was due the big blind but was skipped
            # (the button jumped over a departed player) owes it.
            due = next((s for s in _clockwise(self.prev_bb, order)), None)
            if due is not None and due != info.bb_seat and len(order) > 2:
                self.seats[due].owes += self.settings.big_blind
            # The last big blind was due the small blind: skipped (the button landed
            # on him), he owes it, as dead money (R-1.4 "the players they skipped").
            last = self.prev_bb
            if last in order and last not in (info.sb_seat, info.bb_seat) and len(order) > 2:
                self.seats[last].owes += self.settings.small_blind
        # a player sitting out whom the big blind passes has missed his blinds
        # (with the "post" option he owes them); one it has not passed missed nothing
        # and is dealt in at once when he comes back. The last big blind who
        # sits out this deal misses the small blind that was his.
        # A seat between this deal's button and big blind would have posted a blind in
        # it (on a table's first deal there is no last big blind to go by).
        if info.bb_seat is not None and not bomb:
            post = self.settings.missed_blinds == "post"
            for seat in self.seats.values():
                if seat.state != "sitting_out":
                    continue
                n = seat.number
                if (self.prev_bb is not None and _passed(self.prev_bb, info.bb_seat, n)) or _passed(
                    info.button, info.bb_seat, n
                ):
                    seat.missed = True
                    if post:
                        seat.owes = self.settings.small_blind + self.settings.big_blind
                elif n == self.prev_bb:
                    seat.missed = True
                    if post:
                        seat.owes = max(seat.owes, self.settings.small_blind)  # posted dead
        # dead button: a dead small blind's seat is where the button goes next.
        dead_sb = p.dead_sb
        sb_seat = info.sb_seat if info.sb_seat is not None else dead_sb
        if not button_frozen(self.settings, start.rules.variant):
            self.prev_button, self.prev_sb, self.prev_bb = info.button, sb_seat, info.bb_seat
        self.phase_started_at = p.at or 0.0
        self.last_phase = "betting"

    def _on_action(self, p: log.ActionTaken, live: Any) -> None:
        info = self.current
        assert info is not None and not info.ended, "action outside a hand"
        action = p.action
        info.actions.append(action)
        if isinstance(action, AddChips):
            self.bought += action.amount  # open stakes: a buy during the hand
        if info.hand is not None:
            if live is None:
                info.events.extend(info.hand.apply(action))
            else:
                info.events.extend(live)
            phase = info.hand.phase
            if phase != self.last_phase:
                self.last_phase = phase
                self.phase_started_at = p.at or 0.0
        seat = self.seats.get(info.order[action.player])
        if seat is None:
            return
        at = p.at or 0.0
        if p.timeout:
            seat.bank = 0.0
            seat.timeouts += 1
            limit = self.settings.timeouts_to_sit_out  # 0: never (NEVER_SIT_OUT)
            if limit and seat.timeouts >= limit:
                seat.sit_out_next = True
        else:
            used = max(0.0, at - self.clock_start - self.settings.action_clock)
            seat.bank = max(0.0, seat.bank - used)
            seat.timeouts = 0
        told = p.told
        if told is not None:
            self.last_said = told

    def _on_hand_ended(self, p: log.HandEnded, live: Any) -> None:
        info = self.current
        assert info is not None
        stacks = p.stacks
        for pos, s in enumerate(info.order):
            seat = self.seats.get(s)
            if seat is not None:
                seat.stack = stacks[pos]
        self.carried_by = tuple(info.users) if p.carried else ()
        self.carried = p.carried
        self.pot_state = p.pot_state
        self.rake_total += p.rake
        info.ended = True
        info.bounty = p.bounty
        if p.reason == "cancelled":
            self.last_said = None  # nothing of it stands
        info.hand = None  # finished hands are kept as records only
        self.recent[info.hand_no] = info
        for old in [k for k in self.recent if k <= info.hand_no - RECENT_HANDS]:
            del self.recent[old]
        for seat in self.seats.values():
            if seat.sit_out_next or (seat.stack == 0 and seat.state == "active"):
                seat.state = "sitting_out"
                seat.sit_out_next = False
                seat.missed = False
        self.last_phase = "over"

    # ------------------------------------------------------------------ planning

    def plan_inputs(self) -> tuple[list[int], list[int], list[int]]:
        """(active, waiting, posting) seats for the next deal plan."""
        active = [s.number for s in self.seats.values() if s.dealable]
        waiting = [
            s.number
            for s in self.seats.values()
            if s.state == "waiting" and s.stack > 0 and not s.leaving
        ]
        posting = [n for n in waiting if self.seats[n].owes > 0]
        waiting = [n for n in waiting if n not in posting]
        if len(active) + len(posting) < 2:
            # Nobody to wait behind: a game that is not running seats everyone at once.
            active, waiting = sorted(active + waiting), []
        return sorted(active), sorted(waiting), sorted(posting)

    def posts_for(self, plan: DealPlan) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Owed blinds posted this deal, as (live, dead) per PHH position (R-1.6 "live big,
        dead small"; one per player per hand: not by a player who is in a blind now).

        The live part (up to a big blind) is his bet for the first round, like the big
        blind's; anything owed beyond it (a missed small blind) is dead money. Heads-up
        nobody owes: both players are in the blinds.
        """
        n = len(plan.order)
        live = [0] * n
        dead = [0] * n
        for pos, s in enumerate(plan.order):
            owes = self.seats[s].owes
            if owes > 0 and s not in (plan.bb_seat, plan.sb_seat):
                # A big blind (or more) owed is posted live; a small blind alone is dead.
                big = self.settings.big_blind
                part = big if n > 2 and owes >= big else 0
                live[pos] = part
                dead[pos] = owes - part
        return _trim(live), _trim(dead)


def _trim(row: list[int]) -> tuple[int, ...]:
    while row and row[-1] == 0:
        row.pop()
    return tuple(row)


def _clockwise(after: int, seats: Sequence[int]) -> list[int]:
    ordered = sorted(seats)
    return [s for s in ordered if s > after] + [s for s in ordered if s <= after]


TOURNAMENT_TABLE = "tn:"
"""The ids tournaments give their tables (``tn:<tournament>:<number>``)."""


def _opened_by_tournament(table_id: str) -> str:
    """The tournament of a table whose ``Created`` predates the record saying it: its
    id says it (``tn:<tournament>:<number>``); any other table is a cash table."""
    if not table_id.startswith(TOURNAMENT_TABLE):
        return ""
    return table_id[len(TOURNAMENT_TABLE) :].rpartition(":")[0]


def button_frozen(settings: TableSettings, variant: str) -> bool:
    """R-19.50: under the dead button, a rotation's stud deal leaves the button and the
    blinds where its last blinds deal put them (frozen, as mixed events play it, R-19.28);
    the next blinds deal moves them on from there."""
    if settings.button_rule != "dead" or get_variant(variant).forced != "bring_in":
        return False
    return any(get_variant(v).forced == "blinds" for v, _ in settings.games())


def _passed(prev_bb: int, new_bb: int | None, seat: int) -> bool:
    """Did the big blind move past ``seat`` going from ``prev_bb`` to ``new_bb``?"""
    if new_bb is None:
        return False
    if prev_bb < new_bb:
        return prev_bb < seat < new_bb
    return seat > prev_bb or seat < new_bb


_HANDLERS: dict[type[log.LogRecord], Callable[[TableState, Any, Any], None]] = {
    log.Created: TableState._on_created,
    log.SettingsChanged: TableState._on_settings,
    log.Sat: TableState._on_sat,
    log.TimeCollected: TableState._on_time_collected,
    log.ToppedUp: TableState._on_topped_up,
    log.SatOut: TableState._on_sat_out,
    log.Returned: TableState._on_returned,
    log.Leaving: TableState._on_leaving,
    log.Stood: TableState._on_stood,
    log.Straddled: TableState._on_straddled,
    log.HostActed: TableState._on_host_acted,
    log.ChipsChanged: TableState._on_chips_changed,
    log.Waitlisted: TableState._on_waitlisted,
    log.BombProposed: TableState._on_bomb_proposed,
    log.BombVoted: TableState._on_bomb_voted,
    log.BombLapsed: TableState._on_bomb_lapsed,
    log.RabbitHunted: TableState._on_rabbit_hunted,
    log.ShownByChoice: TableState._on_shown_by_choice,
    log.Chosen: TableState._on_chosen,
    log.Paused: TableState._on_paused,
    log.Closed: TableState._on_closed,
    log.CarryReturned: TableState._on_carry_returned,
    log.Halted: TableState._on_halted,
    log.HandStarted: TableState._on_hand_started,
    log.ActionTaken: TableState._on_action,
    log.HandEnded: TableState._on_hand_ended,
}
"""How each table event folds into the state (the Discord side's logs are not table events)."""


def state_digest(state: TableState) -> str:
    """A short fingerprint of everything the table holds: seats, stacks, the button's
    history, the carried pot, the rake and the hand in progress. Two states with the same
    digest are the same table (the kill test and the recovery tests compare them; the
    terminal prints it as ``resumed: DIGEST``)."""
    hand = state.hand
    data: dict[str, object] = {
        "turn": state.turn,
        "hand_no": state.hand_no,
        "seats": sorted((n, s.user_id, s.stack, s.state) for n, s in state.seats.items()),
        "carried": state.carried,
        "rake": state.rake_total,
    }
    if state.after:  # what was shown after the last hands (absent: the digest of old)
        data["after"] = state.after
    if hand is not None:
        data["hand"] = {
            "stacks": list(hand.stacks),
            "bets": list(hand.bets),
            "board": list(hand.board),
            "to_act": hand.to_act,
            "phase": hand.phase,
            "pot": hand.pot_total(),
        }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
