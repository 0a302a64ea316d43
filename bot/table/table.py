"""One table: its commands, each serialised by the table's lock, logged, then told.

Every command follows the same path (invariants 3 and 4):

1. take the table's ``asyncio.Lock`` (other tables never wait on it);
2. answer a repeated idempotency key with "already done", and refuse a command that
   names a turn that has passed (stale);
3. check it against the state and the engine (a refusal changes nothing);
4. append the event to the store and wait for the durable commit;
5. apply the event to the in-memory state (the same code recovery uses);
6. tell the presenter: public events to the channel, private ones to their owner.

The table never computes a bet, a pot or a winner: the engine does (``bot.poker``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.poker import phh
from bot.poker.actions import (
    Action,
    AddChips,
    AllIn,
    Bet,
    BringIn,
    Call,
    Check,
    Declare,
    DeclareTimeout,
    Draw,
    Fold,
    GutsCall,
    Muck,
    RaiseBy,
    RaiseTo,
    Show,
)
from bot.poker.cards import FULL_DECK, JOKER, SHORT_DECK
from bot.poker.errors import NotYourTurn, PokerError
from bot.poker.events import (
    ActionTaken,
    DeclarationCount,
    DeclarationMade,
    Drew,
    Event,
    GutsCallMade,
    HandEnded,
    PotAwarded,
    RunItTwiceCount,
    SevenDeuceBounty,
)
from bot.poker.hand import Hand
from bot.poker.home import said as home_said
from bot.poker.legal import Legal
from bot.poker.messages import Chips, Count, Msg, Name, Number, Rule, debug, joined, msg, raw
from bot.poker.potsystems import split_by_id
from bot.poker.record import HandStart, pot_state_from_dict, pot_state_to_dict
from bot.poker.rules import Rules
from bot.poker.variants import get_variant
from bot.table import host, moves, posting, waitlist
from bot.table import log as tlog
from bot.table.actor import Actor, user_of
from bot.table.answers import options_said, refusal, says_options
from bot.table.button import DealPlan
from bot.table.clocks import TimeSource
from bot.table.errors import NotAllowed, SettingsError, StaleCommand, TableError, TableHalted
from bot.table.handlabel import hand_label
from bot.table.home import (
    aftermath,
    bombask,
    bomblapse,
    rabbit,
    runtwice,
    sevendeuce,
    showing,
)
from bot.table.levels import Level, at_level
from bot.table.notices import said as event_said
from bot.table.ports import (
    DuplicateKey,
    HandFacts,
    LedgerKind,
    LedgerRow,
    LoggedEvent,
    Notice,
    NoticeKind,
    Presenter,
    StorePort,
    event_kind,
)
from bot.table.predeal import CASH as CASH_STAKES
from bot.table.predeal import (
    Contributor,
    DealContext,
    NextDeal,
    Stakes,
    StakesSource,
    choice,
    straddle,
    timecharge,
)
from bot.table.predeal import run as run_pipeline
from bot.table.predeal.bomb import BombPot, bomb_rules
from bot.table.predeal.bomb import ante_of as bomb_ante_of
from bot.table.predeal.choice import Choice
from bot.table.predeal.plan import plan_for
from bot.table.predeal.seats import Seats
from bot.table.predeal.straddle import Straddle
from bot.table.predeal.timecharge import TimeCharge
from bot.table.said import named
from bot.table.seating import SeatState, find_free_seat
from bot.table.settings import TableSettings
from bot.table.settings_said import changed_said
from bot.table.state import HandInfo, TableState, UnreplayableHand, state_digest
from bot.table.text_actions import ACCEPTED, ActionRequest, parse_action
from bot.table.typed_words import game_words, turn_words
from bot.table.view import TableView, build_view, stakes_of, stakes_said

log = logging.getLogger(__name__)

CLOCK_FAILURES_TO_STOP = 5
"""Failures in a row (the store, or a bug) after which a due clock stops trying (R-18.3)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to one command, for the actor."""

    ok: bool
    msg: Msg
    """The answer as a message (rendered in the actor's language by the presenter)."""
    turn: int
    code: str = "ok"
    duplicate: bool = False


def _outcome(
    ok: bool, said: Msg, turn: int, code: str = "ok", *, duplicate: bool = False
) -> Outcome:
    """An answer given as a message."""
    return Outcome(ok, said, turn, code, duplicate)


@dataclass(frozen=True, slots=True)
class Abandoned:
    """What :meth:`Table.abandon` did: the hand it cancelled (if any) and each player's
    cash-out as (user id, name, chips)."""

    cancelled: int | None
    cashed: tuple[tuple[str, str, int], ...]
    reason: str
    session: int = 1
    """Which of its channel's tables it was (the cancelled hand's number with it, R-20.84)."""


class Table:
    def __init__(
        self,
        state: TableState,
        store: StorePort,
        presenter: Presenter,
        time: TimeSource,
        *,
        snapshot_every: int = 50,
    ) -> None:
        self.state = state
        self.snapshot_every = snapshot_every
        self.store = store
        self.presenter = presenter
        self.time = time
        self.lock = asyncio.Lock()
        self._declare_told: int = -1
        self.away: set[str] = set()
        """Players who left the server mid-hand (R-16.12): the clock acts for them at once.
        In memory only: after a restart his clock runs its usual length, once."""
        self.hold: Msg | None = None
        """Why the platform holds the table between deals (it cannot post in the channel):
        no new deal while set; a hand in progress plays on. In memory only: the platform
        sets it again from what it sees at start."""
        self._deal_parked: int | None = None
        """The log position at which an automatic deal was refused (R-18.3): no new try
        until the table changes."""
        self._clock_failures = 0
        self._clock_retry_at: float | None = None
        """After the store failed under the clock: not before this moment."""
        self.stakes: StakesSource = CASH_STAKES
        """Where each deal takes its stakes from: the settings, or a tournament's level
        (bot/table/predeal/stakes.py)."""
        self.seed: str | None = None
        """A local game's ``--seed``: each deal's deck and the first button follow from it
        (reproducible games). None, always on Discord: the secure shuffle (R-16.1)."""

    @property
    def table_id(self) -> str:
        return self.state.table_id

    @property
    def settings(self) -> TableSettings:
        return self.state.settings

    # ================================================================== plumbing

    async def _command(
        self,
        user: str | None,
        key: str | None,
        turn: int | None,
        body: Callable[[], Awaitable[str | Msg]],
        *,
        reopen: bool = False,
        halted_ok: bool = False,
        session: int | None = None,
    ) -> Outcome:
        async with self.lock:
            st = self.state
            own = None if key is None else st.scoped(key)
            if own is not None and own in st.idem:
                return _outcome(
                    True,
                    msg("table.already_done_at", turn=Number(st.idem[own])),
                    st.turn,
                    "duplicate",
                    duplicate=True,
                )
            before = st.seq
            try:
                if st.halted and not halted_ok:
                    raise TableHalted(st.halted)
                if st.closed and not reopen:
                    raise TableError(msg("table.closed"))
                if session is not None:
                    _same_table(session, st.incarnation)
                if turn is not None and turn != st.turn:
                    raise StaleCommand(msg("table.stale", turn=Number(turn), now=Number(st.turn)))
                await self._settle()  # a previous command cut short by a store error
                await bomblapse.lapse(self)  # a vote whose time ran out: said first
                before = st.seq
                answer = await body()
                await waitlist.offer_seat(self)  # a seat freed: offered
            except DuplicateKey as exc:
                if own is not None and str(exc) == own:
                    return _outcome(
                        True, msg("table.already_done"), st.turn, "duplicate", duplicate=True
                    )
                # A key the table derived itself (a hand's end, a clock's action) is
                # already in the log: the log holds something this table does not
                # know. Never "already done": stop the table, with the reason.
                said = await self._halt_on_collision(str(exc))
                if user is not None:
                    await self.presenter.error(self.table_id, user, said)
                return _outcome(False, said, self.state.turn, "halted")
            except (TableError, PokerError) as exc:
                if self.state.seq != before:
                    # A command is all or nothing: a refusal after one of its own writes
                    # is a bug in that command (the write stands; the log is the truth).
                    log.error("table %s: refused after a write: %s", self.table_id, exc)
                said = self._words(exc)
                legal = exc.legal if isinstance(exc, PokerError) else None
                if legal is not None and not says_options(said):
                    said = refusal(said, legal)
                if user is not None:
                    await self.presenter.error(self.table_id, user, said)
                return _outcome(False, said, st.turn, getattr(exc, "code", "refused"))
            except Exception:
                # The store failed (disk full, I/O error) or a bug: memory may now be
                # ahead of the log, so rebuild the table from the log (invariant 4).
                log.exception("table %s: command failed; reloading from the log", self.table_id)
                await self._reload()
                if self.state.seq != before:
                    # Its first write landed, a later one did not: the command took
                    # effect, and what follows it is finished now or at the next command.
                    await self._settle_quietly()
                    said = msg("table.partly_recorded")
                    return _outcome(True, said, self.state.turn, "partly_recorded")
                said = msg("table.store_error")
                if user is not None:
                    await self.presenter.error(self.table_id, user, said)
                return _outcome(False, said, self.state.turn, "store_error")
            return _outcome(True, answer if isinstance(answer, Msg) else raw(answer), st.turn)

    async def _reload(self) -> None:
        from bot.table.recovery import load

        pick = self.state.rotation_pick  # the tournament's, not the log's
        try:
            self.state = await load(self.store, self.table_id)
            self.state.rotation_pick = pick
        except Exception:
            log.exception("table %s: reload failed", self.table_id)
            self.state.halted = msg("table.unreadable")

    async def _halt_on_collision(self, key: str) -> Msg:
        """Halt the table: its log already holds ``key``, which it derived itself."""
        log.error("table %s: derived key %r is already in the log; halting", self.table_id, key)
        await self._reload()
        said = msg("table.key_collision", entry=Name(key))
        if not self.state.halted:
            try:
                await self._commit(tlog.Halted(said))
            except Exception:
                log.exception("table %s: could not log the halt", self.table_id)
                self.state.halted = said
            await self._public("halted", said)
        return said

    def _random(self, label: str) -> random.Random:
        """The secure generator (R-16.1), or a seeded one for a local ``--seed`` game.
        A tournament's tables share one seed; each draws from its own stream, or every
        table would deal the same cards at the same hand number."""
        if self.seed is None:
            return secrets.SystemRandom()
        if self.state.tournament:
            return random.Random(f"{self.seed}:{self.table_id}:{label}")
        return random.Random(f"{self.seed}:{label}")

    def _words(self, exc: TableError | PokerError) -> Msg:
        """The refusal as a message; who is to act is named (R-6.5: privately)."""
        info = self.state.current
        hand = self.state.hand
        if isinstance(exc, NotYourTurn) and info is not None and hand is not None:
            if hand.to_act is None:
                # Sealed calls and declarations: the engine's message names nobody.
                return exc.msg
            return msg("table.not_your_turn", who=Name(info.names[hand.to_act]))
        return exc.msg

    async def _commit(
        self,
        record: tlog.LogRecord,
        *,
        key: str | None = None,
        ledger: Sequence[LedgerRow] = (),
        live: Any = None,
    ) -> tlog.LogRecord:
        """Append one record (stamped with the table clock) and fold it into the state."""
        record = dataclasses.replace(record, at=self.time.now())
        payload = record.to_payload()
        key = None if key is None else self.state.scoped(key)
        seq = await self.store.append(
            self.table_id, record.kind, payload, idem_key=key, ledger=ledger
        )
        self.state.apply(record, idem_key=key, live=live, seq=seq)
        return record

    async def _public(self, kind: NoticeKind, said: str | Msg, **data: Any) -> None:
        m = said if isinstance(said, Msg) else raw(said)
        notice = Notice(kind, m, self.state.turn, data, hand=self._hand_facts())
        await self.presenter.public(self.table_id, notice)

    async def _private(self, user: str, notice: Notice) -> None:
        notice = dataclasses.replace(notice, hand=self._hand_facts())
        await self.presenter.private(self.table_id, user, notice)

    def _hand_facts(self) -> HandFacts | None:
        """What presenters need of the hand on (seats and names by position)."""
        info = self.state.current
        if info is None:
            return None
        rules = info.start.rules
        return HandFacts(
            info.hand_no, info.variant, rules.wild, info.order, info.names, self.state.incarnation
        )

    def _require_manager(self, who: str | Actor) -> None:
        user = user_of(who)
        if isinstance(who, Actor):
            manager = who.may_manage  # the platform's word, with the command
        else:
            manager = self.presenter.is_moderator(self.table_id, user)
        if user != self.state.host and not manager and not host.may_host(self.state, user):
            raise NotAllowed(msg("table.hosts_only"))  # who may, said truly

    def _seated(self, user: str) -> Any:
        seat = self.state.seat_of(user)
        if seat is None:
            raise NotAllowed(msg("table.not_seated"))
        return seat

    # ================================================================== creation

    async def create(
        self,
        host: str,
        settings: TableSettings,
        *,
        key: str | None,
        host_name: str | None = None,
        guild: int | None = None,
        tournament: str = "",
    ) -> Outcome:
        """Open the table (``tournament``: the id of the tournament opening it, R-19.3)."""

        async def body() -> str | Msg:
            if self.state.settings is not None and self.state.host and not self.state.closed:
                raise TableError(msg("table.channel_has_table"))
            settings.validate()  # an unknown game or a bound crossed: refused, in words
            first = self._random("button").randrange(settings.seats) + 1
            await self._commit(tlog.Created(settings, host, first, guild, tournament), key=key)
            # What the last table of this channel kept in memory is not this one's.
            self._declare_told = -1
            self.away.clear()
            told = msg("table.created", stakes=_stakes(settings), host=Name(host_name or host))
            await self._public("created", told)
            return told

        # A closed table's channel opens a new one even if the last was stopped.
        return await self._command(host, key, None, body, reopen=True, halted_ok=True)

    # ================================================================== seats and chips

    async def sit(
        self,
        user: str,
        name: str,
        buy_in: int,
        seat: int | None = None,
        *,
        key: str | None = None,
        turn: int | None = None,
    ) -> Outcome:
        async def body() -> str | Msg:
            st = self.state
            s = self.settings
            if st.seat_of(user) is not None:
                raise TableError(msg("table.sit.has_seat"))
            low, high = s.buy_in_range
            _check_chips(buy_in)
            if not low <= buy_in <= high:
                raise TableError(msg("table.sit.buy_in", low=Chips(low), high=Chips(high)))
            left = st.departures.get(user)
            recent = left is not None and self.time.now() - left[1] < s.return_minutes * 60
            if left and s.return_minutes and buy_in < left[0] and recent:
                raise TableError(
                    msg(
                        "table.sit.come_back_with",
                        left=msg("table.chips", count=Count(left[0])),
                        minutes=msg("table.minutes", count=Count(s.return_minutes)),
                        least=Chips(left[0]),
                    )
                )
            limit = min(s.max_seats_for(v) for v, _ in s.games())
            waitlist.check_sit(st, user, self.time.now())
            number = find_free_seat(set(st.seats), limit, seat)
            if number is None:
                if seat is not None and not 1 <= seat <= limit:
                    raise TableError(
                        msg("table.sit.no_seat", seat=Number(seat), last=Number(limit))
                    )
                if seat is not None:
                    raise TableError(msg("table.sit.taken", seat=Number(seat), last=Number(limit)))
                raise TableError(msg("table.sit.full"))
            owes = s.big_blind if s.post_to_enter and st.hand_no > 0 else 0
            await self._commit(
                tlog.Sat(user, name, number, buy_in, owes),
                key=key,
                ledger=[LedgerRow(user, LedgerKind.BUY_IN, buy_in)],
            )
            self.away.discard(user)  # back on the server: he acts for himself
            told = msg("table.sat", who=Name(name), seat=Number(number), amount=Chips(buy_in))
            await self._public("sat", told, seat=number, user=user)
            return told

        return await self._command(user, key, turn, body)

    async def top_up(
        self, user: str, amount: int, *, key: str | None = None, turn: int | None = None
    ) -> Outcome:
        async def body() -> str | Msg:
            seat = self._seated(user)
            _check_chips(amount)
            _, high = self.settings.buy_in_range

            def check_maximum(stack: int) -> None:
                # holds during a hand too: open stakes only change *when* (R-2.4).
                if stack + amount > high:
                    room = high - stack
                    raise TableError(
                        msg("table.top_up.above_max", most=Chips(high), room=Chips(room))
                        if room > 0
                        else msg("table.top_up.at_max", most=Chips(high))
                    )

            if self.state.dealt_in(seat.number):
                info, hand = self._hand_or_refuse()
                if not hand.rules.open_stakes:
                    raise TableError(msg("table.top_up.between_deals"))
                # open stakes: the buy goes through the engine so a replay of the
                # hand sees it at the same point, and into the ledger with the action.
                pos = info.position_of(seat.number)
                assert pos is not None
                check_maximum(hand.stacks[pos])
                return await self._apply(
                    AddChips(pos, amount),
                    key,
                    ledger=[LedgerRow(user, LedgerKind.TOP_UP, amount)],
                )
            check_maximum(seat.stack)
            await self._commit(
                tlog.ToppedUp(
                    seat.number,
                    amount,
                    returns=seat.stack == 0,
                    # a rebuy before the big blind passed him misses nothing.
                    state="waiting" if seat.missed else "active",
                ),
                key=key,
                ledger=[LedgerRow(user, LedgerKind.TOP_UP, amount)],
            )
            told = msg(
                "table.topped_up",
                who=Name(seat.name),
                amount=Chips(amount),
                stack=Chips(seat.stack),
            )
            await self._public("topped_up", told, seat=seat.number)
            return told

        return await self._command(user, key, turn, body)

    async def sit_out(self, user: str, *, key: str | None = None) -> Outcome:
        async def body() -> str | Msg:
            seat = self._seated(user)
            if seat.leaving:
                raise TableError(msg("table.sit_out.leaving"))
            if seat.state == "sitting_out" or seat.sit_out_next:
                raise TableError(msg("table.sit_out.already"))
            await self._commit(tlog.SatOut(seat.number), key=key)
            key_ = "table.sat_out_after_hand" if seat.sit_out_next else "table.sat_out"
            told = msg(key_, who=Name(seat.name))
            await self._public("sat_out", told, seat=seat.number)
            return told

        return await self._command(user, key, None, body)

    async def sit_in(self, user: str, *, key: str | None = None, post: bool = False) -> Outcome:
        """Come back from sitting out (R-1.6): wait for the big blind, or post what is owed
        when the table's option says so (or ``post`` asks to post now)."""

        async def body() -> str | Msg:
            seat = self._seated(user)
            if seat.leaving:
                raise TableError(msg("table.sit_in.leaving"))
            if post and seat.state == "waiting":  # post instead of waiting
                back = posting.post_now(self.state, seat)
                await self._commit(back, key=key)
                told = msg("table.back_posting", who=Name(seat.name), amount=Chips(back.owes))
                await self._public("returned", told, seat=seat.number)
                return told
            if seat.state != "sitting_out" and not seat.sit_out_next:
                raise TableError(msg("table.sit_in.not_out"))
            if seat.state != "sitting_out":
                # Still in this hand: only the pending sit-out is cancelled.
                await self._commit(tlog.Returned(seat.number, seat.state, 0), key=key)
                told = msg("table.keeps_playing", who=Name(seat.name))
                await self._public("returned", told, seat=seat.number)
                return told
            if seat.stack == 0:
                raise TableError(msg("table.sit_in.no_chips"))
            s = self.settings
            owes = seat.owes if s.missed_blinds == "post" else 0
            if post and not owes and seat.missed:
                owes = s.big_blind
            state: SeatState = "waiting"
            if self.state.hand_no == 0 or not s.big_blind:
                owes, state = 0, "active"
            elif not seat.missed:
                # the big blind has not passed him since he sat out: he missed
                # nothing and is dealt in at once, in his place in the rotation. A blind
                # he owed before he left (R-1.4 moving button) is still owed: sitting
                # out for a moment does not wipe it.
                owes, state = seat.owes, "active"
            await self._commit(tlog.Returned(seat.number, state, owes), key=key)
            who = Name(seat.name)
            if state != "waiting":
                told = msg("table.back", who=who)
            elif owes:
                told = msg("table.back_posting", who=who, amount=Chips(owes))
            else:
                told = msg("table.back_waiting", who=who)
            await self._public("returned", told, seat=seat.number)
            return told

        return await self._command(user, key, None, body)

    async def stand(self, user: str, *, key: str | None = None) -> Outcome:
        async def body() -> str | Msg:
            return await self._stand(self._seated(user), key)

        return await self._command(user, key, None, body)

    async def _stand(self, seat: Any, key: str | None) -> Msg:
        if self.state.dealt_in(seat.number):
            # his chips are in play; he is cashed out when the deal ends.
            if seat.leaving:
                raise TableError(msg("table.stand.already"))
            await self._commit(tlog.Leaving(seat.number), key=key)
            told = msg("table.stands_after_hand", who=Name(seat.name))
            await self._public("leaving", told, seat=seat.number)
            return told
        amount = seat.stack
        await self._commit(
            tlog.Stood(seat.number, amount),
            key=key,
            ledger=[LedgerRow(seat.user_id, LedgerKind.CASH_OUT, amount)],
        )
        self.away.discard(seat.user_id)
        told = msg("table.stood", who=Name(seat.name), amount=Chips(amount))
        await self._public("stood", told, seat=seat.number)
        return told

    # ================================================================== moves

    async def move_out(
        self,
        user: str,
        *,
        key: str | None,
        chips: int | None = None,
        transfer: str | None = None,
        why: moves.Leaving = "moved",
    ) -> Outcome:
        """R-19.2: stand ``user`` up without a cash-out, his stack leaving as the move
        ``transfer`` (default ``key``); between hands only; the table is told ``why``.
        See bot/table/moves.py."""
        move = transfer or key
        if move is None:
            raise TypeError("a move needs its transfer id (or its key)")

        async def body() -> str | Msg:
            st = self.state
            if st.moves.get(move, 0) < 0 and key is not None:
                raise DuplicateKey(st.scoped(key))  # done under another key: not again
            seat = self._seated(user)
            amount = moves.check_out(st, seat, chips)
            await self._commit(tlog.Stood(seat.number, amount, move), key=key)
            self.away.discard(user)
            told = msg(moves.LEAVING[why], who=Name(seat.name), amount=Chips(amount))
            await self._public("stood", told, seat=seat.number)
            return told

        return await self._command(user, key, None, body)

    async def move_in(
        self,
        user: str,
        name: str,
        chips: int,
        seat: int | None = None,
        *,
        key: str | None,
        transfer: str | None = None,
        why: moves.Arriving = "moved",
    ) -> Outcome:
        """R-19.2: sit ``user`` with the ``chips`` he brings from another table (no
        buy-in), in ``seat`` or a free one drawn at random; the table is told ``why``.
        See bot/table/moves.py."""
        move = transfer or key
        if move is None:
            raise TypeError("a move needs its transfer id (or its key)")

        async def body() -> str | Msg:
            st = self.state
            if st.moves.get(move, 0) > 0 and key is not None:
                raise DuplicateKey(st.scoped(key))  # done under another key: not again
            if st.seat_of(user) is not None:
                raise TableError(msg("table.sit.has_seat"))
            moves.check_in_chips(chips)
            s = self.settings
            limit = min(s.max_seats_for(v) for v, _ in s.games())
            if seat is None:
                free = [n for n in range(1, limit + 1) if n not in st.seats]
                number = self._random(f"seat:{move}").choice(free) if free else None
            else:
                number = find_free_seat(set(st.seats), limit, seat)
            if number is None:
                if seat is not None and not 1 <= seat <= limit:
                    raise TableError(
                        msg("table.sit.no_seat", seat=Number(seat), last=Number(limit))
                    )
                if seat is not None:
                    raise TableError(msg("table.sit.taken", seat=Number(seat), last=Number(limit)))
                raise TableError(msg("table.sit.full"))
            record = tlog.Sat(user, name, number, chips, 0, "active", move)
            await self._commit(record, key=key)
            self.away.discard(user)
            told = msg(
                moves.ARRIVING[why], who=Name(name), seat=Number(number), amount=Chips(chips)
            )
            await self._public("sat", told, seat=number, user=user)
            return told

        return await self._command(user, key, None, body)

    async def change_chips(
        self, user: str, amount: int, *, key: str | None, transfer: str
    ) -> Outcome:
        """R-19.43: a tournament adds chips to ``user``'s stack (a rebuy, the add-on) or
        a chip race changes it, between his hands only; counted by ``transfer`` like a
        move, no ledger row. A transfer already done answers "already done"."""

        async def body() -> str | Msg:
            st = self.state
            if transfer in st.moves and key is not None:
                raise DuplicateKey(st.scoped(key))  # done under another key: not again
            seat = self._seated(user)
            if st.dealt_in(seat.number):
                raise TableError(msg("deal.move.in_hand", who=Name(seat.name)))
            if type(amount) is not int or amount == 0 or seat.stack + amount <= 0:
                raise TableError(msg("tournament.refuse.chips", amount=Chips(amount)))
            await self._commit(tlog.ChipsChanged(seat.number, user, amount, transfer), key=key)
            told = msg(
                "tournament.chips_changed",
                player=Name(seat.name),
                amount=Chips(amount),
                stack=Chips(seat.stack),
            )
            await self._public("topped_up", told, seat=seat.number, user=user)
            return told

        return await self._command(user, key, None, body)

    async def call_off(self, who: str | Actor, *, key: str | None = None) -> Outcome:
        """R-19.42: the hand in progress of a tournament called off is cancelled as a
        misdeal: every player gets back what he put in (as R-16.8 cancels a hand)."""

        async def body() -> str | Msg:
            self._require_manager(who)
            info = self.state.current
            if info is None or info.ended:
                raise TableError(msg("tournament.refuse.no_hand"))
            await self._commit(info.cancellation(self.state.pot_state), key=f"end:{info.hand_no}")
            told = msg(
                "tournament.hand_called_off", hand=Number(info.hand_no), rule=Rule("R-19.42")
            )
            await self._public("hand_cancelled", told)
            return told

        return await self._command(user_of(who), key, None, body, halted_ok=True)

    # ================================================================== management

    async def host_tool(
        self,
        who: str | Actor,
        tool: str,
        user: str,
        *,
        key: str | None = None,
        name: str = "",
        to: int = 0,
        amount: int = 0,
        reason: str = "",
    ) -> Outcome:
        """§20 host tools (bot/table/host.py): ``kick``, ``seat`` (to ``to``), ``adjust``
        (``amount``, ``reason``), ``sitout``, ``cohost``, ``uncohost`` on ``user``."""

        async def body() -> str | Msg:
            return await host.run(
                self, who, tool, user, name=name, to=to, amount=amount, reason=reason
            )

        return await self._command(user_of(who), key, None, body)

    async def wait_list(
        self, user: str, name: str, join: bool, *, key: str | None = None
    ) -> Outcome:
        """Join or leave the waiting list of a full table (bot/table/waitlist.py)."""

        async def body() -> str | Msg:
            if join:
                return await waitlist.join(self, user, name)
            return await waitlist.leave(self, user)

        return await self._command(user, key, None, body)

    async def change_settings(
        self, who: str | Actor, changes: Mapping[str, Any], *, key: str | None = None
    ) -> Outcome:
        user = user_of(who)

        async def body() -> str | Msg:
            self._require_manager(who)
            if self.state.in_hand:
                raise SettingsError(msg("table.settings.between_hands"))
            new = self.settings.changed(dict(changes))
            limit = min(new.max_seats_for(v) for v, _ in new.games())
            if any(n > limit for n in self.state.seats):
                raise SettingsError(msg("table.settings.seat_above", last=Number(limit)))
            # Each change from what to what, as stored (aliases resolved), and the game.
            told = changed_said(self.settings, new)
            await self._commit(tlog.SettingsChanged(new, user), key=key)
            await self._public("settings", told)
            return told

        return await self._command(user, key, None, body)

    async def pause(
        self, who: str | Actor, paused: bool = True, *, key: str | None = None
    ) -> Outcome:
        user = user_of(who)

        async def body() -> str | Msg:
            self._require_manager(who)
            if self.state.paused == paused:
                raise TableError(msg("table.already_paused" if paused else "table.already_running"))
            await self._commit(tlog.Paused(paused), key=key)
            told = msg("table.paused" if paused else "table.running")
            await self._public("paused", told)
            return told

        return await self._command(user, key, None, body)

    async def close(self, who: str | Actor, *, key: str | None = None) -> Outcome:
        user = user_of(who)

        async def body() -> str | Msg:
            self._require_manager(who)
            st = self.state
            said: list[Msg] = []
            if st.halted:
                # a stopped table whose chips are all accounted for can be
                # closed; on a wrong count nothing moves.
                if st.conservation_error() is not None:
                    raise TableHalted(st.halted)
                info = st.current
                if info is not None and not info.ended:
                    await self._commit(info.cancellation(st.pot_state), key=f"end:{info.hand_no}")
                    said.append(
                        msg(
                            "table.close.cancelled",
                            hand=hand_label(self.state.incarnation, info.hand_no),
                            rule=Rule("R-16.14"),
                        )
                    )
            elif st.in_hand:
                raise TableError(msg("table.close.in_hand"))
            returned = await self._return_carry()
            if returned is not None:
                said.append(returned)
            for seat in list(st.seats.values()):
                await self._stand(seat, None)
            await self._commit(tlog.Closed(user), key=key)
            told = joined([*said, msg("table.close.done")], "notice.space")
            await self._public("closed", told)
            return told

        return await self._command(user, key, None, body, halted_ok=True)

    async def _return_carry(self) -> Msg | None:
        """R-16.13: a pot still carried when the table closes goes back to the players
        dealt into the hand that carried it, in equal shares, the odd chips one each from
        the first of them left of the button. Returns what the table says of it."""
        st = self.state
        if not st.carried:
            return None
        owed = st.carried_by or tuple(s.user_id for s in st.seats.values())
        if not owed:
            return None
        # The engine's split: equal shares, odd chips from the button's left.
        split = split_by_id(st.carried, owed, owed)
        shares = tuple((u, split[u]) for u in owed if split[u])
        gone = [(u, a) for u, a in shares if st.seat_of(u) is None]
        total = st.carried
        await self._commit(
            tlog.CarryReturned(shares),
            ledger=[LedgerRow(u, LedgerKind.CASH_OUT, a) for u, a in gone],
        )
        return msg(
            "table.close.carry_returned",
            amount=Chips(total),
            count=Count(len(owed)),
            rule=Rule("R-16.13"),
        )

    async def abandon(self, reason: str, *, by: str) -> Abandoned | None:
        """R-16.11: the table lost its place (its channel or thread deleted, the dealer
        removed from the server). A hand in progress is cancelled as R-16.8 cancels one
        (every player gets back the chips he put in), every player is cashed out, and
        the table is closed (``by`` is logged with the close). Returns who was cashed
        out of how much, for the platform to tell them where the table is gone; None if
        the table was already closed (a second event for the same loss)."""
        done: list[Abandoned] = []

        async def body() -> str | Msg:
            st = self.state
            cancelled = None
            info = st.current
            if info is not None and not info.ended:
                await self._commit(info.cancellation(st.pot_state), key=f"end:{info.hand_no}")
                cancelled = info.hand_no
            await self._return_carry()
            seats = list(st.seats.values())
            cashed = tuple((s.user_id, s.name, s.stack) for s in seats)
            for seat in seats:
                await self._stand(seat, None)
            await self._commit(tlog.Closed(by))
            self.away.clear()
            done.append(Abandoned(cancelled, cashed, reason, max(1, self.state.incarnation)))
            return msg("table.close.done")

        await self._command(None, None, None, body)
        return done[0] if done else None

    async def member_gone(self, user: str) -> Msg | None:
        """R-16.12: a seated player left the server (or was removed). Between deals he is
        stood up and cashed out at once; dealt in, he is away: the clock acts for him at
        once on each of his turns (check if free, else fold), and he is stood up and
        cashed out when the hand ends. Returns what the table said (None: not seated)."""
        said: list[Msg] = []

        async def body() -> str | Msg:
            seat = self.state.seat_of(user)
            if seat is None:
                return msg("table.gone.not_seated")
            self.away.add(user)
            if self.state.dealt_in(seat.number) and not seat.leaving:
                await self._commit(tlog.Leaving(seat.number))
                told = msg("table.gone.leaving", who=Name(seat.name), rule=Rule("R-16.12"))
                await self._public("leaving", told, seat=seat.number)
            elif self.state.dealt_in(seat.number):
                told = msg("table.gone.away", who=Name(seat.name), rule=Rule("R-16.12"))
            else:
                told = await self._stand(seat, None)
            said.append(told)
            return told

        await self._command(None, None, None, body)
        return said[0] if said else None

    async def choose(self, user: str, game: str, *, key: str | None = None) -> Outcome:
        """R-16.2 dealer's choice: the next dealer names the game for his deal."""

        async def body() -> str | Msg:
            plan = self._plan()
            record = choice.check_choose(self.state, user, game, plan)
            assert plan is not None  # checked: a choice needs a deal to choose for
            dealer = self.state.seats[plan.button]
            await self._commit(record, key=key)
            stakes = _stakes(self.settings, record.variant, record.limit)
            told = msg("table.chosen", who=Name(dealer.name), stakes=stakes)
            await self._public("chosen", told)
            return told

        return await self._command(user, key, None, body)

    # ================================================================== before a deal

    def _plan(self) -> DealPlan | None:
        """Who the next deal would deal in, as the seats are now (R-1.3 to R-1.5)."""
        return plan_for(self.state, self.state.next_game()[0])

    async def straddle(self, user: str, *, key: str | None = None) -> Outcome:
        """R-3.4: the player who will sit left of the big blind posts a live straddle of
        twice the big blind for the next deal (said between deals)."""

        async def body() -> str | Msg:
            seat = self._seated(user)
            amount = Chips(straddle.next_amount(self.state))  # twice the last
            await self._commit(straddle.check_straddle(self.state, seat), key=key)
            told = msg("table.straddled", who=Name(seat.name), amount=amount)
            await self._public("straddled", told, seat=seat.number)
            return told

        return await self._command(user, key, None, body)

    async def bomb_vote(
        self,
        user: str,
        agree: bool | None,
        *,
        key: str | None = None,
        deal: int = 0,
        session: int = 0,
    ) -> Outcome:
        """R-20.12: propose a bomb pot for the next deal (``agree`` None), or vote on
        the open proposal; votes are public, a majority passes it. ``deal``: the deal
        the vote was asked for (a button's date; 0: the open proposal, whichever);
        ``session``: the table it was asked at (``TableState.incarnation``; 0: not said)."""

        async def body() -> str | Msg:
            if agree is not None:
                _same_session(session, self.state.incarnation, deal, vote=True)
            seat, now = self._seated(user), self.time.now()
            if agree is not None and deal and deal != self.state.hand_no + 1:
                raise StaleCommand(msg("home.vote.stale"))  # a settled proposal's button
            if agree is None:
                ante = bomb_ante_of(self.settings)
                record: tlog.LogRecord = bombask.check_propose(
                    self.state, seat, now, ante, self.settings.double_board
                )
                await self._commit(record, key=key)
                assert isinstance(record, tlog.BombProposed)
                told = bombask.proposed_said(self.state, seat, record, ante)
            else:
                await self._commit(bombask.check_vote(self.state, seat, agree, now), key=key)
                told = bombask.voted_said(self.state, seat, agree)
            await self._public(
                "bomb_vote",
                told,
                seat=seat.number,
                deal=self.state.hand_no + 1,
                session=self.state.incarnation,
            )
            return told

        return await self._command(user, key, None, body)

    async def show_by_choice(
        self,
        user: str,
        which: str,
        *,
        key: str | None = None,
        for_hand: int = 0,
        session: int = 0,
    ) -> Outcome:
        """R-20.15: after the last hand, show all one's cards or one of them (``which``:
        all, 1 or 2) to the table; written to the log, no chip moves. ``for_hand``: the
        hand the request was made for (a button's date; 0: the last); ``session``: the
        table it was made at (``HandFacts.session``; 0: not said)."""

        async def body() -> str | Msg:
            _same_session(session, self.state.incarnation, for_hand)
            self._seated(user)
            if self.state.in_hand or self.state.hand_no == 0:
                raise TableError(msg("home.show_ask.when", rule=showing.RULE))
            hand_no = self.state.hand_no
            _same_hand(for_hand, hand_no, self.state.incarnation)
            info = await self._finished_info(hand_no)
            hand = await asyncio.to_thread(_replay, hand_no, info)
            for earlier in aftermath.shows_of(self.state.after, hand_no):
                hand.apply(earlier)
            if user not in info.users:
                raise TableError(msg("home.refuse.show_who", rule=showing.RULE))
            action = showing.action(hand, info.users.index(user), which)
            events = hand.apply(action)  # the engine's refusals, in words
            own = key or f"show:{hand_no}:{action.player}:{''.join(action.cards)}"
            await self._commit(tlog.ShownByChoice(hand_no, action.player, action.cards), key=own)
            told = home_said(events[-1])
            assert told is not None
            await self._public("shown", named(told, info.names), event=events[-1])
            return named(told, info.names)

        return await self._command(user, key, None, body)

    async def rabbit(
        self, user: str, *, key: str | None = None, for_hand: int = 0, session: int = 0
    ) -> Outcome:
        """R-20.14: show the cards the last hand would have dealt (written: once a hand).
        ``for_hand``: the hand the request was made for (a button's date; 0: the last);
        ``session``: the table it was made at (``HandFacts.session``; 0: not said)."""

        async def body() -> str | Msg:
            _same_session(session, self.state.incarnation, for_hand)
            seat = self._seated(user)
            hand_no = rabbit.check(self.state)
            _same_hand(for_hand, hand_no, self.state.incarnation)
            info = await self._finished_info(hand_no)
            hand = await asyncio.to_thread(_replay, hand_no, info)
            event = rabbit.hunt(hand)  # a refusal raises, in words
            hunted = tlog.RabbitHunted(hand_no, seat.number, event.cards, event.second)
            await self._commit(hunted, key=key or f"rabbit:{hand_no}")
            told = home_said(event)
            assert told is not None
            await self._public("rabbit", told, event=event)
            return told

        return await self._command(user, key, None, body)

    def _choice_pending(self) -> bool:
        return choice.pending(self.state)

    async def _tell_chooser(self) -> None:
        """Between deals at a dealer's-choice table: who chooses, and from what."""
        told = choice.chooser(self.state)
        if told is not None:
            await self._public("choose", told[1], seat=told[0])

    def _contributors(self) -> tuple[Contributor, ...]:
        """What shapes the next deal, in order (bot/table/predeal)."""
        return (Stakes(self.stakes), Choice(), Seats(), TimeCharge(), Straddle(), BombPot())

    def _next_deal(self, key: str | None) -> NextDeal:
        """The next deal as the contributors shape it (nothing written; a refusal
        raises)."""
        ctx = DealContext(self.state, self.time.now(), key)
        return run_pipeline(self._contributors(), NextDeal(self.settings), ctx)

    def _build_hand(self, deal: NextDeal) -> tuple[Hand, HandStart]:
        """The next hand as ``deal`` says (checked by the engine; nothing logged)."""
        st = self.state
        plan = deal.plan
        assert plan is not None
        live, dead = st.posts_for(plan)
        if deal.live:
            width = max(len(live), len(deal.live))
            live = tuple(
                max(a, b)
                for a, b in zip(
                    (*live, *([0] * (width - len(live)))),
                    (*deal.live, *([0] * (width - len(deal.live)))),
                    strict=True,
                )
            )
        rules = deal.settings.rules_for(
            deal.variant, deal.limit, len(plan.order), plan.blind_positions, dead, live
        )
        rules = bomb_rules(rules, deal)  # the ante alone, when a bomb pot
        stacks = [st.seats[s].stack for s in plan.order]
        ids: tuple[str, ...] | None = None
        pot_state = None
        if rules.pot_system != "normal":
            # §15: markers and legs belong to players, not seats, and carry over.
            ids = tuple(st.seats[s].user_id for s in plan.order)
            if st.pot_state and st.pot_state.get("system") == rules.pot_system:
                pot_state = pot_state_from_dict(st.pot_state)
        deck = None if self.seed is None else seeded_deck(rules, self._random(f"deal:{st.hand_no}"))
        hand = Hand(
            rules, stacks, deck, carried=st.carried, player_ids=ids, pot_state=pot_state
        )  # secure shuffle, unless a local game was seeded
        start = HandStart(rules, tuple(stacks), hand.deck, st.carried, ids, pot_state)
        return hand, start

    # ================================================================== the hand loop

    async def deal(self, who: str | Actor | None, *, key: str | None = None) -> Outcome:
        """Start the next hand (the host or a moderator; the clock when auto-deal is on)."""
        user = None if who is None else user_of(who)

        async def body() -> str | Msg:
            if who is not None:
                self._require_manager(who)
            return await self._deal(key)

        return await self._command(user, key, None, body)

    async def _deal(self, key: str | None) -> Msg:
        st = self.state
        if st.in_hand:
            raise TableError(msg("table.deal.in_hand"))
        if st.paused:
            raise TableError(msg("table.paused"))
        if self.hold:
            raise TableError(self.hold)
        await self._check_conservation()  # never deal on a wrong count
        if st.halted:
            raise TableHalted(st.halted)
        deal = self._next_deal(key)
        with timecharge.charged(st, deal.charges):
            # Everything that can refuse the deal happens before any chip moves: the
            # charge is collected only for a deal that goes ahead.
            hand, start = self._build_hand(deal)
        plan = deal.plan
        assert plan is not None
        if deal.charges:
            record, tkey, ledger, told_time = timecharge.collection(st, deal.charges)
            await self._commit(record, key=tkey, ledger=ledger)
            await self._public("time_collected", told_time)
        hand_no = st.hand_no + 1
        lapsed = bombask.lapsed_said(st)  # the deal spends an open proposal
        no_straddle = bombask.straddle_lapsed_said(st, start.rules.bomb_pot_ante > 0)
        late = choice.late_said(deal, st)
        if late is not None:
            # said just before the deal it explains.
            await self._public("choice_timeout", late, seat=deal.chooser_late)
        await self._commit(
            tlog.HandStarted(
                hand_no,
                start,
                tuple(plan.order),
                plan.button,
                plan.sb_seat,
                plan.bb_seat,
                plan.dead_sb,
                deal.variant,
                deal.limit,
                level=deal.level.pairs() if deal.level is not None else (),
            ),
            key=key if key not in (None, choice.TIMED_OUT) else f"deal:{hand_no}",
            live=hand,
        )
        for told_first in (lapsed, no_straddle):
            if told_first is not None:
                await self._public("bomb_vote", told_first)
        players = joined([msg("engine.who", who=Name(st.seats[s].name)) for s in plan.order])
        # Stud has no button (R-16.3: the cards decide who acts); the seat is only the
        # nominal dealer the deal starts from.
        told = msg(
            "table.hand_started" if hand.variant.button else "table.hand_started_dealer",
            hand=hand_label(st.incarnation, hand_no),
            stakes=choice.stakes_line(deal.settings, deal.variant, deal.limit),
            seat=Number(plan.button),
            players=players,
        )
        await self._public("hand_started", told, hand_no=hand_no, button=plan.button)
        await self._tell(hand.events)
        await self._after_change()
        return told

    async def act(
        self,
        user: str,
        request: ActionRequest | str,
        *,
        key: str | None = None,
        turn: int | None = None,
        prompt_turn: int | None = None,
        session: int | None = None,
    ) -> Outcome:
        """A player's action: a typed line (``"raise to 300"``) or a parsed request.

        ``turn``: the action must be for exactly this turn (table buttons). ``prompt_turn``:
        the turn of a sealed-choice prompt (declare, Guts), which stays valid while others
        commit but never carries over to a later deal (R-13.2, R-15.2). ``session``: which
        of the channel's tables the button was posted at (``TableState.incarnation``; 0:
        a button that does not say; None: no button, the caller acts at this table):
        turns start again with each table (R-20.95, R-20.96).
        """

        async def body() -> str | Msg:
            req = (
                parse_action(request, self._typed_words(user))
                if isinstance(request, str)
                else request
            )
            seat = self._seated(user)
            info, hand = self._hand_or_refuse()
            if prompt_turn is not None and prompt_turn < info.start_turn:
                raise StaleCommand(msg("table.act.old_prompt"))
            pos = info.position_of(seat.number)
            if pos is None:
                raise TableError(msg("table.act.not_dealt"))
            kicked = user in self.state.hosting.kicked and not hand.folded[pos]
            if kicked and req.kind != "fold":
                # a kicked player's turns are the clock's; his own fold is
                # what the clock would do, anything else waits for it.
                raise TableError(host.kicked_said(self.state, user))
            action = _to_action(req, pos, hand)
            return await self._apply(action, key, note=req.why)

        return await self._command(user, key, turn, body, session=session)

    def _typed_words(self, user: str) -> Msg:
        """What ``user`` may type now (R-20.85): his legal actions if he may act, else
        the words of the game being dealt (or to be dealt next)."""
        st, s = self.state, self.settings
        hand, seat = st.hand, st.seat_of(user)
        if hand is not None and st.current is not None and hand.phase != "over":
            pos = None if seat is None else st.current.position_of(seat.number)
            try:
                for actor in hand.actors():
                    if actor.position == pos:
                        return turn_words(actor.legal, stated=hand.rules.declared_hands)
            except PokerError:
                pass  # nobody may act at this moment: the game's words say enough
            declare = hand.rules.declare != "none"
            return game_words(hand.variant, declare=declare, stated=hand.rules.declared_hands)
        if s.dealers_choice and not s.rotation:
            return ACCEPTED  # the dealer may name any game
        games = [get_variant(v) for v, _ in s.games()]
        return game_words(*games, declare=s.declare != "none", stated=bool(s.declared_hands))

    def _hand_or_refuse(self) -> tuple[HandInfo, Hand]:
        st = self.state
        hand = st.hand
        if hand is None or st.current is None:
            raise TableError(msg("table.act.no_hand"))
        return st.current, hand

    async def _apply(
        self,
        action: Action,
        key: str | None,
        note: Msg | None = None,
        ledger: Sequence[LedgerRow] = (),
        *,
        timeout: bool = False,
    ) -> Msg:
        info, hand = self._hand_or_refuse()
        events = hand.apply(action)  # a refusal raises here and changes nothing
        summary = _summary(events)
        told = None if summary is None else named(summary, info.names)
        try:
            await self._commit(
                tlog.ActionTaken(
                    info.hand_no,
                    info.order[action.player],
                    action,
                    timeout=timeout,
                    said=told,
                ),
                key=key,
                ledger=ledger,
                live=events,
            )
        except BaseException:
            # Not committed: rebuild the engine hand from its record (the log is the truth).
            info.hand = None
            info.ensure_hand()
            raise
        await self._tell(events)
        await self._after_change()
        answer = told or msg("table.done")
        if note is None:
            return answer
        # The parser's remark on how it read the line, then what was done.
        return joined([note, answer], "notice.space")

    async def _tell(self, events: Sequence[Event]) -> None:
        info = self.state.current
        assert info is not None
        twice = info.hand is not None and info.hand.ran_twice  # the second run
        for event in events:
            m = event_said(event, ran_twice=twice)
            if m is None:
                continue
            notice = Notice(event_kind(event), m, self.state.turn, {"event": event})
            if event.audience is None:
                await self.presenter.public(
                    self.table_id, dataclasses.replace(notice, hand=self._hand_facts())
                )
            else:
                await self._private(info.users[event.audience], notice)

    async def _after_change(self) -> None:
        """After an accepted event: end the hand, or tell whoever must act next."""
        st = self.state
        info = st.current
        if info is None or info.ended:
            return
        hand = info.ensure_hand()
        if hand.over:
            await self._end_hand(info, hand)
            return
        deadline = self.deadline()
        actors = hand.actors()
        sealed = [a for a in actors if a.turn == "sealed"]
        if (no := runtwice.kicked_no(sealed, info.users, st.hosting.kicked)) is not None:
            await self._apply(no, f"kick:{info.hand_no}:{st.turn}", timeout=True)
            return
        if sealed:
            # Sealed Guts calls or declarations: one prompt per player
            # per deal; each commit moves the turn, and prompting again then would leave
            # several live prompts in every DM.
            if self._declare_told != info.hand_no:
                for a in sealed:
                    if "run_twice" in a.legal.actions:  # asked privately
                        told = runtwice.prompt()
                        notice = Notice("run_twice", told, st.turn, deadline=deadline)
                    elif "guts" in a.legal.actions:
                        told = msg("table.prompt.guts")
                        notice = Notice("guts", told, st.turn, deadline=deadline)
                    else:
                        told = msg("table.prompt.declare")
                        notice = Notice(
                            "declare",
                            told,
                            st.turn,
                            legal=a.legal,
                            deadline=deadline,
                        )
                    await self._private(info.users[a.position], notice)
                self._declare_told = info.hand_no
            return
        if hand.to_act is not None:
            legal = hand.legal()
            told = msg("table.your_turn", options=options_said(legal), pot=Chips(legal.pot))
            await self._private(
                info.users[hand.to_act],
                Notice(
                    "your_turn",
                    told,
                    st.turn,
                    {"seat": info.order[hand.to_act]},
                    legal=legal,
                    deadline=deadline,
                ),
            )

    async def _end_hand(self, info: HandInfo, hand: Hand) -> None:
        result = hand.result
        assert result is not None
        bounty = sevendeuce.settle(hand, self.settings)  # the 7-2 game
        stacks, net, paid = sevendeuce.paid(tuple(result.stacks), tuple(result.net), bounty)
        await self._commit(
            tlog.HandEnded(
                info.hand_no,
                stacks,
                net,
                rake=result.rake,
                carried=result.carried,
                reason=result.reason,
                pot_state=(
                    pot_state_to_dict(hand.pot_state_out)
                    if hand.pot_state_out is not None
                    else None
                ),
                users=info.users,
                won=_awarded(hand, len(info.users)),
                bounty=paid,
            ),
            key=f"end:{info.hand_no}",
            ledger=[LedgerRow("house", LedgerKind.RAKE, result.rake)] if result.rake else (),
        )
        if bounty is not None:
            await self._tell([bounty])
        for pos in showing.offered(hand):  # each may show by choice, privately
            told = showing.prompt()
            await self._private(info.users[pos], Notice("show_choice", told, 0))
        over = msg("table.hand_over", hand=hand_label(self.state.incarnation, info.hand_no))
        await self._public("hand_ended", over, result=result)
        # At a tournament's table a player with no chips is out of the tournament, which
        # the tournament says; no buy-in brings him back there.
        cash = not self.state.tournament
        for number in info.order if cash else ():
            seat = self.state.seats.get(number)
            if seat is not None and seat.stack == 0 and not seat.leaving:
                # Said, not done silently: he is out of the deals until he buys in again.
                await self._public(
                    "sat_out",
                    msg("table.broke_sits_out", who=Name(seat.name), rule=Rule("R-1.9")),
                    seat=number,
                )
        await self._check_conservation()
        for seat in [s for s in self.state.seats.values() if s.leaving]:
            await self._stand(seat, None)
        if self.snapshot_every and info.hand_no % self.snapshot_every == 0:
            await self._snapshot()
        await self._tell_chooser()

    async def cancel_unreplayable(self) -> bool:
        """R-16.8: a hand in progress that this engine cannot replay (dealt under earlier
        rules, before an upgrade) is cancelled: every player gets back the chips he put
        in, and the table says so. Returns whether a hand was cancelled."""
        info = self.state.current
        if info is None or info.ended or info.replay_error is None:
            return False
        await self._commit(info.cancellation(self.state.pot_state), key=f"end:{info.hand_no}")
        await self._public(
            "hand_cancelled",
            msg(
                "table.hand_unresumable",
                hand=hand_label(self.state.incarnation, info.hand_no),
                rule=Rule("R-16.8"),
            ),
        )
        return True

    async def _snapshot(self) -> None:
        """Save the folded state between hands, so a restart replays only the tail."""
        from bot.table.snapshot import to_payload

        try:
            await self.store.save_snapshot(self.table_id, self.state.seq, to_payload(self.state))
        except Exception:  # a missed snapshot only makes the next recovery longer
            log.exception("table %s: snapshot failed", self.table_id)

    async def _check_conservation(self) -> None:
        error = self.state.conservation_error()
        if error is not None and not self.state.halted:
            await self._commit(tlog.Halted(error))
            await self._public("halted", error)

    # ================================================================== clocks

    def deadline(self) -> float | None:
        """When the current turn (or declaration) runs out, as a wall-clock time."""
        st = self.state
        hand = st.hand
        if hand is None or st.halted or st.paused:
            return None
        s = self.settings
        if any(a.turn == "sealed" for a in hand.actors()):
            return st.phase_started_at + s.declare_clock  # one clock for all
        if hand.to_act is None or st.current is None:
            return None
        seat = st.seats.get(st.current.order[hand.to_act])
        if seat is not None and (seat.user_id in self.away or seat.user_id in st.hosting.kicked):
            return st.clock_start  # he left the server; the clock acts now
        bank = seat.bank if seat is not None else 0.0
        return st.clock_start + s.action_clock + bank

    def due_at(self) -> float | None:
        """The next moment the clock has something to do at this table."""
        due = bomblapse.due(self.state, waitlist.due(self.state, self._due_at()))
        if due is not None and self._clock_retry_at is not None:
            due = max(due, self._clock_retry_at)  # after a store failure: not at once
        return due

    def _due_at(self) -> float | None:
        st = self.state
        if st.halted or st.closed:
            return None
        if st.in_hand:
            hand = st.hand
            if hand is not None and hand.over:
                # Played out, its end not recorded (the store failed just then): the
                # clock ends it now rather than wait for someone's command.
                return st.last_change_at
            return self.deadline()
        s = self.settings
        if not s.auto_deal or st.paused or self.hold:
            return None
        if self._deal_parked == st.seq:
            return None  # refused at this state, said once: wait for a change
        ready = [seat for seat in st.seats.values() if seat.ready]
        if len(ready) < s.min_players:
            return None
        due = st.last_change_at + s.hand_pause
        if self._choice_pending():
            due += s.action_clock  # the dealer's time to choose; then the default game
        return due

    async def on_clock(self) -> bool:
        """Do what is due: a timeout (R-18.1) or an automatic deal. Returns whether the
        table moved. A due clock never fires twice at the same moment: when nothing it
        may do is accepted, an automatic deal waits for the next change at the table and
        a hand stops the table (R-18.3), each said once."""
        now = self.time.now()
        due = self.due_at()
        if due is None or due > now:
            return False
        if waitlist.pending(self) or bomblapse.pending(self):
            # Said by the clock: the waiting list's offer, a bomb-pot vote's end.
            return (await self._command(None, None, None, waitlist.tick)).ok
        async with self.lock:
            due = self.due_at()
            if due is None or due > now:
                return False
            st = self.state
            mark = st.seq
            dealing = not st.in_hand
            why: Msg = msg("table.clock.nothing_accepted")
            try:
                if dealing:
                    key = choice.TIMED_OUT if self._choice_pending() else None
                    await self._deal(key)
                elif (hand := st.hand) is not None and hand.over:
                    await self._settle()
                else:
                    why = await self._timeout() or why
            except DuplicateKey:
                # Another writer may have done it: the log says what is true.
                await self._reload()
                why = msg("table.clock.already_logged")
            except (TableError, PokerError) as exc:
                why = self._words(exc)
            except Exception:
                # The store failed (or a bug): rebuild from the log and try again later,
                # not at once; failing every time, the clock stops the table.
                log.exception("table %s: clock failed; reloading from the log", self.table_id)
                await self._reload()
                self._clock_failures += 1
                self._clock_retry_at = now + min(60.0, 2.0**self._clock_failures)
                if self._clock_failures < CLOCK_FAILURES_TO_STOP:
                    return False
                why = msg("table.clock.failed", count=Count(self._clock_failures))
                self._clock_failures, self._clock_retry_at = 0, None
                if self.state.seq == mark and not self.state.halted:
                    await self._clock_stuck(not self.state.in_hand, why)
                return False
            self._clock_failures, self._clock_retry_at = 0, None
            if self.state.seq != mark or self.state.halted or self.state.closed:
                return True
            await self._clock_stuck(dealing, why)
            return False

    async def _timeout(self) -> Msg | None:
        """The clock acts for whoever is late (R-18.1); returns why it could not, if it
        could not (then nothing changed)."""
        st = self.state
        info, hand = self._hand_or_refuse()
        ckey = f"clock:{info.hand_no}:{st.turn}"
        sealed = [a for a in hand.actors() if a.turn == "sealed"]
        if late_rit := [a.position for a in runtwice.asked(sealed)]:
            told, once = runtwice.timed_out([info.names[p] for p in late_rit], late_rit[0])
            await self._public("timeout", told)  # no answer means once
            await self._apply(once, f"{ckey}:{late_rit[0]}", timeout=True)
            return None
        if sealed and "guts" in sealed[0].legal.actions:
            # a player who has not called by the clock is out.
            late = [a.position for a in sealed]
            who = joined([msg("engine.who", who=Name(info.names[p])) for p in late])
            told = msg("table.clock.guts_out", who=who, count=Count(len(late)))
            await self._public("timeout", told)
            for pos in late:
                if st.hand is not hand or not hand.can_act(pos):
                    break
                await self._apply(DeclareTimeout(pos), f"{ckey}:{pos}", timeout=True)
            return None
        if sealed:
            # the clock is shared: every fist still open times out at once
            # (the engine takes them together; said first, then done).
            late = [a.position for a in sealed]
            who = joined([msg("engine.who", who=Name(info.names[p])) for p in late])
            key_ = "table.clock.declare_fold"
            if self.settings.declare_default != "fold":
                key_ = "table.clock.declare_high"
            await self._public("timeout", msg(key_, who=who, count=Count(len(late))))
            await self._apply(DeclareTimeout(late[0]), f"{ckey}:{late[0]}", timeout=True)
            return None
        if hand.to_act is None:
            return msg("table.clock.nobody_to_act")
        pos = hand.to_act
        choices = host.clock_choices(st, hand, pos, info.users[pos])
        seat = st.seats.get(info.order[pos])
        if seat is not None:
            # Said before what it causes, so the log reads in order.
            told = msg("table.story.time_ran_out", who=Name(seat.name))
            await self._public("timeout", told, seat=seat.number)
        was = seat.timeouts if seat is not None else 0
        refusal = msg("table.clock.none_allowed", who=Name(info.names[pos]))
        for action in choices:
            try:
                await self._apply(action, ckey, timeout=True)
            except PokerError as exc:  # refused: nothing changed; the next choice
                refusal = exc.msg
                continue
            break
        else:
            return refusal
        limit = self.settings.timeouts_to_sit_out
        if seat is not None and not seat.leaving and limit and was < limit <= seat.timeouts:
            # Sat out by the clock: said, like every other thing the clock does.
            if limit == 1:
                told = msg("table.clock.sat_out_once", who=Name(seat.name))
            else:
                told = msg("table.clock.sat_out", who=Name(seat.name), count=Count(limit))
            await self._public("sat_out", told, seat=seat.number)
        return None

    async def _clock_stuck(self, dealing: bool, why: Msg) -> None:
        """R-18.3: the clock was due and nothing moved. Said once, and never again at
        the same moment: the automatic deal waits until the table changes; a hand the
        clock cannot move stops the table, with the reason (its chips stay where they
        are, counted, R-2.5)."""
        rule = Rule("R-18.3")
        if dealing:
            self._deal_parked = self.state.seq
            await self._public("timeout", msg("table.clock.deal_parked", why=why, rule=rule))
            return
        hand = hand_label(self.state.incarnation, self.state.hand_no)
        reason = msg("table.clock.halted", hand=hand, why=why, rule=rule)
        try:
            await self._commit(tlog.Halted(reason))
        except Exception:  # not recorded: stopped in memory all the same
            log.exception("table %s: could not record the halt", self.table_id)
            self.state.halted = reason
        log.error("table %s halted: %s", self.table_id, debug(reason))
        await self._public("halted", reason)

    async def settle(self) -> None:
        """Finish what a crash interrupted between two appends of one command: a hand
        whose last action was logged but not its end, players due to be cashed out."""
        async with self.lock:
            try:
                await self._settle()
            except DuplicateKey as exc:
                await self._halt_on_collision(str(exc))
            except Exception:
                # One table that cannot be settled must not keep the bot (or any other
                # table) from starting: it stops, with the reason, and nothing moves.
                log.exception("table %s: could not be settled; halting it", self.table_id)
                self.halt_in_memory(msg("table.unsettled"))

    async def _settle_quietly(self) -> None:
        """:meth:`_settle`, when the store may still be failing (logged, not raised)."""
        try:
            await self._settle()
        except Exception:
            log.exception("table %s: the rest of a command is still not written", self.table_id)

    def halt_in_memory(self, reason: Msg) -> None:
        """Stop the table without writing (the store is what failed): the log is
        untouched, and the next start tries again."""
        if not self.state.halted:
            self.state.halted = reason

    async def _settle(self) -> None:
        st = self.state
        if st.halted or st.closed:
            return
        info = st.current
        if info is not None and not info.ended:
            hand = info.ensure_hand()
            if hand.over:
                await self._end_hand(info, hand)
            return
        for seat in [s for s in st.seats.values() if s.leaving]:
            await self._stand(seat, None)

    # ================================================================== reading

    def snapshot(self, viewer: str | None = None) -> TableView:
        """The table as ``viewer`` may see it (``None``: a spectator, public cards only)."""
        deadline = self.deadline()
        if deadline is None and not self.state.in_hand and self._choice_pending():
            deadline = self.due_at()  # the dealer's clock to name the game
        return build_view(self.state, viewer, deadline)

    def conservation_error(self) -> Msg | None:
        return self.state.conservation_error()

    def digest(self) -> str:
        """A short fingerprint of everything the table holds (:func:`state_digest`), for
        a presenter to say which state it shows (the terminal's ``resumed:`` line)."""
        return state_digest(self.state)

    async def hand_history(
        self,
        hand_no: int,
        viewer: str | None = None,
        names: Mapping[str, str] | None = None,
        *,
        session: int | None = None,
    ) -> str:
        """PHH text of a finished hand (rebuilt from the log when it is not in memory) as
        ``viewer`` (a user id) may see it: what the table showed, plus his own cards if he
        was dealt in; ``None`` or anyone else gets the spectator's copy (docs/phh.md).
        ``names``: user id -> the name a player is exported under (a tournament's entry,
        R-19.59); everyone else under his seat's name. ``session``: which of the channel's
        tables dealt it (R-20.98; None: this one)."""
        earlier = self._earlier_table(hand_no, session)
        info = await self._finished_info(hand_no, earlier)
        named = [
            (names or {}).get(user, name) for user, name in zip(info.users, info.names, strict=True)
        ]
        position = info.users.index(viewer) if viewer in info.users else None
        dealt_under = await self._dealt_under(hand_no, earlier)
        kept = await self._after_of(hand_no, earlier)

        def export() -> str:
            hand = _replay(hand_no, info)
            after = aftermath.settled(hand, hand_no, info.bounty, kept, dealt_under)
            return phh.export_hand(hand, players=named, viewer=position, after=after)

        return await asyncio.to_thread(export)  # the engine's replay and PHH: off the loop

    async def hand_told(self, hand_no: int, *, session: int | None = None) -> list[Msg]:
        """A finished hand as the table told it: its public lines as messages, players
        named, for a presenter to render in its reader's language. Nothing private:
        hole cards appear only where they were shown. ``session``: which of the channel's
        tables dealt it (R-20.98; None: this one)."""
        earlier = self._earlier_table(hand_no, session)
        info = await self._finished_info(hand_no, earlier)
        timed_out = await self._timed_out(hand_no, earlier)
        dealt_under = await self._dealt_under(hand_no, earlier)
        stakes = _stakes(dealt_under, info.variant, info.limit)
        kept = await self._after_of(hand_no, earlier)
        label = hand_label(earlier or self.state.incarnation, hand_no)
        lines = [msg("table.story.head", hand=label, stakes=stakes)]
        clock_told = False  # sealed calls run out on one clock: told once

        def tell(events: Sequence[Event], twice: bool = False) -> None:
            nonlocal clock_told
            for event in events:
                m = event_said(event, ran_twice=twice)  # the second run's awards
                if event.audience is None and m is not None:
                    lines.append(named(m, info.names))
                    clock_told = False

        def replay() -> None:
            nonlocal clock_told
            _replay(hand_no, info)  # whole first: rules this engine refuses raise here
            hand = info.start.new_hand()
            tell(hand.events)
            for index, action in enumerate(info.actions):
                if index in timed_out:
                    # As the table said it: the clock, then what the clock did.
                    if isinstance(action, DeclareTimeout):
                        if not clock_told:
                            lines.append(msg("table.story.clock"))
                            clock_told = True
                    else:
                        who = Name(info.names[action.player])
                        lines.append(msg("table.story.time_ran_out", who=who))
                        clock_told = False
                tell(hand.apply(action), hand.ran_twice)
            # After the hand: the 7-2 bounty, the shows by choice, the rabbit hunt.
            played = len(hand.events)
            after = aftermath.settled(hand, hand_no, info.bounty, kept, dealt_under)
            tell([e for e in after if isinstance(e, SevenDeuceBounty)])
            tell(hand.events[played:])
            tell([e for e in after if not isinstance(e, SevenDeuceBounty)])

        await asyncio.to_thread(replay)  # the engine's CPU work, off the loop
        return lines

    def _earlier_table(self, hand_no: int, session: int | None) -> int | None:
        """R-20.98: the earlier table of the channel a hand is asked of (``session``), or
        None for this one (not said, or said as this one). One the channel has not had
        is refused, naming the hand as asked."""
        this = max(1, self.state.incarnation)
        if session is None or session == this:
            return None
        if not 1 <= session < this:
            raise TableError(msg("table.story.no_hand", hand=hand_label(session, hand_no)))
        return session

    async def _after_of(self, hand_no: int, earlier: int | None = None) -> dict[str, Any]:
        """What was settled after hand ``hand_no`` (its rabbit hunt, its shows by
        choice; R-20.61): the state keeps the last hands', and an older hand's are read
        from its own records in the log, the rows between its end and the next deal.
        ``earlier``: an earlier table's hand (R-20.98), read from the log."""
        if earlier is None and str(hand_no) in self.state.after:
            return aftermath.kept(self.state.after, hand_no)
        rows = await self.store.after_hand(
            self.table_id, hand_no, aftermath.KINDS, session=earlier or self._session()
        )
        return aftermath.folded(self._read(rows))

    def _session(self) -> int | None:
        """This table's session in the store's hands index (R-20.97); None for a log
        whose tables were not counted (its hands are the newest of each number)."""
        return self.state.incarnation or None

    async def _dealt_under(self, hand_no: int, earlier: int | None = None) -> TableSettings:
        """The settings in force when hand ``hand_no`` was dealt (R-16.8: a hand is told
        by the stakes it was played at, not by a later settings change)."""
        events = await self.store.hand_events(
            self.table_id, hand_no, session=earlier or self._session()
        )
        if not events:
            return self.settings
        settings = self.settings
        before = await self.store.seating(self.table_id, before_seq=events[0].seq)
        for rec in self._read(before):
            if isinstance(rec, tlog.Created | tlog.SettingsChanged):
                settings = rec.settings
        for rec in self._read(events[:1]):
            if isinstance(rec, tlog.HandStarted) and rec.level:
                settings = at_level(settings, Level.of(rec.level))
        return settings

    async def _timed_out(self, hand_no: int, earlier: int | None = None) -> set[int]:
        """Which of a hand's actions the clock took (their index in the hand's actions),
        read from the log: the engine's record does not say who acted by timeout."""
        events = await self.store.hand_events(
            self.table_id, hand_no, session=earlier or self._session()
        )
        actions = [ev for ev in events if ev.kind == tlog.ActionTaken.KIND]
        return {
            index
            for index, rec in enumerate(self._read(actions))
            if isinstance(rec, tlog.ActionTaken) and rec.timeout
        }

    async def _finished_info(self, hand_no: int, earlier: int | None = None) -> HandInfo:
        """A finished hand of this table, or of the ``earlier`` one of the channel."""
        info = self.state.recent.get(hand_no) if earlier is None else None
        if info is None:
            info = await self._load_hand(hand_no, earlier)
        session = earlier or self.state.incarnation
        if info is None or not info.ended:
            raise TableError(msg("table.story.no_hand", hand=hand_label(session, hand_no)))
        if info.replay_error is not None:  # rules this engine refuses
            raise UnreplayableHand(hand_no, info.replay_error, session)
        return info

    def _read(self, events: Sequence[LoggedEvent]) -> Iterator[tlog.LogRecord]:
        """This table's logged rows as records (:class:`tlog.LogError` on a bad row)."""
        for ev in events:
            yield tlog.read_event(ev.kind, ev.payload, table_id=self.table_id, seq=ev.seq)

    async def _load_hand(self, hand_no: int, earlier: int | None = None) -> HandInfo | None:
        """A hand from the store's index of hands (its own rows, not the whole log) and
        the names of its seats from the seating index: the latest ``sat`` of each seat
        before it started. ``earlier``: the channel's earlier table it is asked of
        (R-20.98); else this table's."""
        session = earlier or self._session()
        events = await self.store.hand_events(self.table_id, hand_no, session=session)
        if not events:
            return None
        if earlier is None and events[0].seq <= self.state.opened_seq:
            # an earlier table's of this channel (numbers start again), in a log
            # whose tables were not counted.
            return None
        if earlier is not None and events[0].seq > self.state.opened_seq:
            return None  # pragma: no cover - the index dates hands by their table
        seating = await self.store.seating(self.table_id, before_seq=events[0].seq)
        names: dict[int, str] = {}
        users: dict[int, str] = {}
        for sat in tlog.read_rows(seating, tlog.Sat, table_id=self.table_id):
            names[sat.seat] = sat.name
            users[sat.seat] = sat.user
        found: HandInfo | None = None
        for rec in self._read(events):
            if isinstance(rec, tlog.HandStarted):
                order = rec.order
                found = HandInfo.started(
                    rec,
                    tuple(names.get(s, f"#{s}") for s in order),
                    tuple(users.get(s, "") for s in order),
                )
            elif found is not None and isinstance(rec, tlog.ActionTaken):
                found.actions.append(rec.action)
            elif found is not None and isinstance(rec, tlog.HandEnded):
                found.ended = True
                found.bounty = rec.bounty
        return found


# ====================================================================== helpers


def _same_session(asked: int, this: int, dated: int = 0, vote: bool = False) -> None:
    """R-20.77: a show or a hunt asked from an end message of an earlier table at this
    channel (its hand numbers started again) acts on nothing here. 0: not said. R-20.83:
    a request dated by a hand (or a vote by a deal, ``vote``) that does not say its table
    is an older version's button; at the channel's first table it is judged by its date
    alone, at a later one it could be an earlier table's: refused, nothing done."""
    if asked and asked != this:
        raise StaleCommand(msg("home.vote.stale" if vote else "home.after.stale.table"))
    if not asked and dated and this > 1:
        raise StaleCommand(msg("home.vote.stale.unsaid" if vote else "home.after.stale.unsaid"))


def _same_table(asked: int, this: int) -> None:
    """R-20.95: a request dated by a turn (an action button, a fist, the discard menu, a
    bet's modal) posted at an earlier table of this channel acts on nothing here: turns
    start again with each table, so its turn could be one of this table's. ``asked``: the
    table it says (0: not said). R-20.96: one that does not say its table (an older
    version's) is judged by its turn alone at the channel's first table only."""
    if asked and asked != max(1, this):
        raise StaleCommand(msg("table.stale.earlier_table"))
    if not asked and this > 1:
        raise StaleCommand(msg("table.stale.table_unsaid"))


def _same_hand(asked: int, last: int, session: int) -> None:
    """R-20.14, R-20.15: a show or a hunt asked for hand ``asked`` (a button under that
    hand's end message; 0: not dated) acts on it only while it is the last hand."""
    if asked and asked != last:
        hand, last_ = hand_label(session, asked), hand_label(session, last)
        raise StaleCommand(msg("home.after.stale", hand=hand, last=last_))


def _replay(hand_no: int, info: HandInfo) -> Hand:
    """The finished hand replayed in the engine (run in a worker thread)."""
    try:
        hand = info.start.new_hand()
        for action in info.actions:
            hand.apply(action)
    except PokerError as exc:  # recorded under earlier rules
        raise UnreplayableHand(hand_no, exc.msg) from None
    return hand


def seeded_deck(rules: Rules, rng: random.Random) -> tuple[str, ...]:
    """The deck a hand of ``rules`` is dealt from, shuffled by ``rng`` (local --seed)."""
    full = SHORT_DECK if get_variant(rules.variant).deck == "short" else FULL_DECK
    deck = [*full, JOKER] if rules.uses_joker else list(full)
    rng.shuffle(deck)
    return tuple(deck)


def _check_chips(amount: int) -> None:
    if type(amount) is not int or amount <= 0:
        raise TableError(msg("table.amount_whole"))


def _to_action(req: ActionRequest, pos: int, hand: Hand) -> Action:
    kind = req.kind
    if (answer := runtwice.answer(kind, pos)) is not None:
        return answer
    if kind == "check":
        return Check(pos)
    if kind == "call":
        return Call(pos)
    if kind == "fold":
        return Fold(pos)
    if kind == "all_in":
        return AllIn(pos)
    if kind == "bring_in":
        return BringIn(pos)
    if kind == "show":
        return Show(pos, req.cards)  # the hand he states, if any
    if kind == "muck":
        return Muck(pos)
    if kind == "draw":
        return Draw(pos, req.cards)
    if kind == "declare":
        assert req.choice is not None
        return Declare(pos, req.choice)
    if kind in ("guts_in", "guts_out"):
        return GutsCall(pos, kind == "guts_in")
    if kind in ("bet", "raise_to") and req.amount is None:
        # "bet" or "raise" with no amount: fine where only one amount is allowed (fixed
        # limit); otherwise say which amounts are (R-6.4: never a guess).
        legal = hand.legal() if hand.to_act == pos else None
        if legal is not None and legal.min_to is not None and legal.min_to == legal.max_to:
            return (Bet if legal.opening else RaiseTo)(pos, legal.min_to)
        if legal is not None and legal.min_to is None:
            # Capped, not reopened, no openers...: say why not, not "how much".
            raise TableError(_no_raise(hand, legal))
        if legal is not None:
            raise TableError(refusal(msg("table.say_how_much"), legal))
        return Check(pos)  # not his turn: the engine answers with its own words
    assert_amount = req.amount or 0
    if kind == "bet":
        return Bet(pos, assert_amount)
    if kind == "raise_by":
        return RaiseBy(pos, assert_amount)
    if kind == "raise_to":
        return RaiseTo(pos, assert_amount)
    # complete / pot / half pot: named sizes read from the engine's legal range.
    if hand.to_act != pos:
        return Check(pos)  # the engine answers "not your turn" with its own words
    legal = hand.legal()
    if legal.min_to is None or legal.max_to is None:
        raise TableError(_no_raise(hand, legal))
    if kind in ("min", "max"):
        # "min" / "max": the ends of the legal range, as the Discord raise modal reads
        # them (R-5: "max" is all in only where the structure allows it).
        return (Bet if legal.opening else RaiseTo)(
            pos, legal.min_to if kind == "min" else legal.max_to
        )
    if kind == "complete":
        # Only a bring-in or an incomplete bet under the half-bet rule
        # can be completed; elsewhere the word must not turn into a raise.
        if "complete" not in legal.actions:
            raise TableError(refusal(msg("table.nothing_to_complete"), legal))
        return RaiseTo(pos, legal.min_to)
    total = legal.pot_raise_to("pot" if kind == "pot" else "half_pot")
    assert total is not None
    return RaiseTo(pos, total)


def _no_raise(hand: Hand, legal: Legal) -> Msg:
    return refusal(hand.no_raise_why() or msg("table.no_raise"), legal)


def _stakes(settings: TableSettings, variant: str | None = None, limit: str | None = None) -> Msg:
    """The stakes line as a message (what ``settings.stakes_text`` says in English)."""
    variant = variant or settings.variant
    limit = limit or settings.limit_for(variant)
    declare = settings.declare != "none" and get_variant(variant).hi_lo
    return stakes_said(stakes_of(settings, variant, limit, declare))


def _summary(events: Sequence[Event]) -> Msg | None:
    """The public message for the action itself (never a private event), players by
    position."""
    for event in events:
        if event.audience is not None:
            continue
        if isinstance(
            event,
            ActionTaken
            | Drew
            | DeclarationMade
            | DeclarationCount
            | GutsCallMade
            | RunItTwiceCount,
        ):
            return event_said(event)
    for event in events:
        if isinstance(event, HandEnded):
            return event_said(event)
    return None


def _awarded(hand: Hand, players: int) -> tuple[int, ...]:
    """By position, the chips each player was awarded from the pots this hand (for the
    standings' biggest pot). A pot system that pays otherwise (Guts, two-to-win) awards
    no pot: a player who gained counts his gain."""
    won = [0] * players
    for event in hand.events:
        if isinstance(event, PotAwarded):
            for position, amount in zip(event.winners, event.amounts, strict=True):
                won[position] += amount
    result = hand.result
    net = result.net if result is not None else ()
    return tuple(max(w, n) for w, n in zip(won, tuple(net) + (0,) * players, strict=False))
