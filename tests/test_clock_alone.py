"""The clock alone plays every game to the end (R-18.1, R-18.3).

Nobody acts in any hand: every decision is the clock's, in every game and option (each
variant, declarations simultaneous and in turn, Guts in every mode, two to win,
straddles, dealer's choice, declared hands with wild cards, antes and bring-ins).
Each time the clock is due it must move the table (a due clock that fires without
moving is a clock that fires for ever), every hand must end, chips are conserved after
every step (R-2.5), and each hand tells a bounded number of notices.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker.actions import Fold, GutsCall
from bot.poker.cards import stacked_deck
from bot.poker.events import HandMucked, HandShown
from bot.poker.messages import Chips, Count, Name, msg, raw
from bot.poker.variants import VARIANTS, get_variant
from bot.table.errors import SettingsError, TableError
from bot.table.settings import TableSettings
from bot.table.table import Table
from tests.harness import Harness
from tests.said import told
from tests.test_floor_show import dealt

HANDS = 3
MAX_FIRINGS_PER_HAND = 60
"""More decisions than any of these hands has (rounds x players, draws, declarations)."""
MAX_NOTICES_PER_HAND = 300


Case = tuple[dict[str, Any], int, bool, frozenset[int], int]


@st.composite
def tables(draw: st.DrawFn) -> Case:
    variant = draw(st.sampled_from(sorted(VARIANTS)))
    info = get_variant(variant)
    players = draw(st.integers(2, min(6, info.max_players)))
    options: dict[str, Any] = {
        "variant": variant,
        "auto_deal": True,
        "hand_pause": draw(st.sampled_from([0.0, 1.0, 3.0])),
        "action_clock": draw(st.sampled_from([1.0, 2.0, 5.0])),
        "time_bank": draw(st.sampled_from([0.0, 2.0])),
        "declare_clock": draw(st.sampled_from([1.0, 4.0])),
        "timeouts_to_sit_out": 100,  # sleepers stay in: the clock plays every hand
        "ante": draw(st.sampled_from([0, 1, 2])),
        "dealers_choice": draw(st.booleans()),
    }
    if info.forced == "bring_in":
        options["bring_in"] = draw(st.sampled_from([0, 1, 2]))
    if info.hi_lo:
        options["declare"] = draw(st.sampled_from(["none", "simultaneous", "in_turn"]))
        options["declare_default"] = draw(st.sampled_from(["fold", "high"]))
    if variant == "guts":
        options["guts_mode"] = draw(st.sampled_from(["chip", "count_and_drop", "sequential"]))
        options["guts_legs"] = draw(st.sampled_from([0, 2]))
        options["guts_ghost"] = draw(st.booleans())
    elif draw(st.booleans()):
        options["pot_system"] = "two_to_win"
        options["limit"] = "fixed"
    if draw(st.booleans()):
        options["declared_hands"] = True
        options["wild"] = draw(st.sampled_from(["none", "joker", "deuces"]))
    straddle = info.forced == "blinds" and players >= 3 and draw(st.booleans())
    options["straddle"] = straddle
    # Who plays (checks and calls, never bets) so that the hand reaches the draws,
    # declarations and showdowns where the clock acts for the others; at least one
    # never acts at all (none: the clock alone).
    awake = draw(st.sets(st.integers(0, players - 1), max_size=players - 1))
    # The decks and the first button follow from a seed: a failure replays exactly.
    return options, players, straddle, frozenset(awake), draw(st.integers(0, 2**16))


_PASSIVE = (
    ("check", "check"),
    ("call", "call"),
    ("bring_in", "bring in"),
    ("draw", "stand pat"),
    ("declare", "declare high"),
    ("guts", "in"),
    ("show", "show"),
)


async def _straddle(h: Harness, table: Table) -> None:
    """Whoever may straddle the next deal does (a choice between hands, R-3.4)."""
    for seat in list(table.state.seats.values()):
        await table.straddle(seat.user_id, key=h.key())


async def _awake_act(h: Harness, table: Table, awake: set[str]) -> bool:
    """One awake player who may act now does, passively; whether one did."""
    hand, info = table.state.hand, table.state.current
    if hand is None or info is None:
        return False
    for actor in hand.actors():
        user = info.users[actor.position]
        if user not in awake or actor.turn == "waiting":
            continue
        word = next(w for a, w in _PASSIVE if a in actor.legal.actions)
        out = await h.do(table, user, word)
        assert out.ok, (word, out.msg)
        return True
    return False


async def _clock_alone(
    options: dict[str, Any],
    players: int,
    straddle: bool,
    awake_at: frozenset[int],
    seed: int = 0,
) -> Counter[str]:
    """Play HANDS hands; the clock acts for the sleepers. Returns what the clock did."""
    did: Counter[str] = Counter()
    try:
        TableSettings.of(**options).validate()
    except SettingsError:
        return did  # a combination the table refuses is not a game to play
    h = Harness()
    names = [f"p{i}" for i in range(players)]
    awake = {names[i] for i in awake_at}
    table = await h.table(**options)
    table.seed = str(seed)
    for name in names:
        assert (await table.sit(name, name, 200, key=h.key())).ok
    firings = 0
    hand_no = 0
    notices_at = 0
    if straddle:
        await _straddle(h, table)
    while table.state.hand_no < HANDS or table.state.in_hand:
        if await _awake_act(h, table, awake):
            continue
        due = h.service.next_due()
        assert due is not None, "nothing is due, yet nobody will ever act"
        h.time.set(max(h.time.now(), due))
        mark, acted = (
            table.state.seq,
            len(table.state.current.actions if table.state.current else ()),
        )
        fired = await h.service.tick()
        h.check(table)  # after every step
        assert table.state.halted is None, table.state.halted
        # A due clock moves the table: never fires again at the same moment.
        assert fired == 1 and table.state.seq != mark
        current = table.state.current
        if current is not None and current.hand_no == hand_no:
            for action in current.actions[acted:]:
                did[type(action).__name__] += 1
        firings += 1
        assert firings <= MAX_FIRINGS_PER_HAND, "a hand the clock does not finish"
        if table.state.hand_no != hand_no:
            told = len(h.presenter.public_notices) + len(h.presenter.private_notices)
            assert told - notices_at <= MAX_NOTICES_PER_HAND
            notices_at, firings, hand_no = told, 0, table.state.hand_no
            if straddle and not table.state.in_hand:
                await _straddle(h, table)
        if straddle and not table.state.in_hand and table.state.straddler is None:
            await _straddle(h, table)
    return did


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(case=tables())
def test_r18_1_the_clock_alone_finishes_every_hand_of_every_game(case: Case) -> None:
    asyncio.run(_clock_alone(*case))


async def test_r3_5_r18_1_the_clock_brings_in_for_the_bring_in_player() -> None:
    """Stud with a one-second clock: the bring-in's timeout posts the bring-in (it cannot
    fold), once, and the hand goes on."""
    h = Harness()
    table = await h.seated(
        ["alice", "bob"], variant="stud", action_clock=1, time_bank=0, bring_in=1, ante=1
    )
    await h.deal(table)
    late = h.to_act(table)
    h.time.advance(1)
    assert await h.service.tick() == 1
    assert await h.service.tick() == 0  # nothing more is due at this moment
    h.check(table)
    out = [n.msg for _, n in h.presenter.public_notices if n.kind == "timeout"]
    assert out == [msg("table.story.time_ran_out", who=Name(late))]
    assert table.state.last_said == msg("notice.action.bring_in", who=Name(late), amount=Chips(1))
    assert h.to_act(table) != late


async def test_r13_3_r18_1_the_clock_declares_in_turn_by_the_default() -> None:
    """Declaring in turn, the late player gets the table's default (here high), one
    player at a time, and the hand goes to its showdown."""
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"],
        variant="stud8",
        declare="in_turn",
        declare_default="high",
        action_clock=1,
        time_bank=0,
    )
    await h.deal(table)
    timed_out = 0
    while (hand := table.state.hand) is not None:
        if hand.phase != "declare":
            word = "check" if "check" in hand.legal().actions else "call"
            if "bring_in" in hand.legal().actions:
                word = "bring in"
            out = await h.do(table, h.to_act(table), word)
            assert out.ok, out.msg
            continue
        late = h.to_act(table)
        h.time.advance(1)
        mark = table.state.seq
        assert await h.service.tick() == 1
        assert table.state.seq != mark
        h.check(table)
        timed_out += 1
        ran_out = msg("table.story.time_ran_out", who=Name(late))
        assert ran_out in [n.msg for _, n in h.presenter.public_notices]
    assert timed_out == 3
    info = table.state.recent[table.state.hand_no]
    assert not any(isinstance(a, Fold) for a in info.actions)


async def test_r18_3_a_clock_that_cannot_act_stops_the_table_once() -> None:
    """Should the engine refuse everything the clock may do, the table halts with the
    reason, said once; the clock is then never due again."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=1, time_bank=0)
    await h.deal(table)
    hand = table.state.hand
    assert hand is not None

    def refuse(action: object) -> list[object]:
        from bot.poker.errors import IllegalAction

        raise IllegalAction("refused for the test")

    hand.apply = refuse  # type: ignore[method-assign]  # an engine that refuses all
    h.time.advance(1)
    assert await h.service.tick() == 0
    halted = table.state.halted
    assert halted is not None and halted.key == "table.clock.halted"
    assert halted.get("why") == raw("refused for the test")  # the engine's refusal, kept
    assert table.due_at() is None
    h.time.advance(100)
    assert await h.service.tick() == 0
    halted = [n for _, n in h.presenter.public_notices if n.kind == "halted"]
    assert len(halted) == 1
    h.check(table)


async def test_r18_3_a_refused_automatic_deal_is_said_once_and_waits() -> None:
    """An automatic deal the table refuses is said once and tried again only after the
    table changes (not at once, for ever)."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], auto_deal=True, hand_pause=1)
    deal = table._deal
    refusals = 0

    async def refused(key: str | None) -> str:
        nonlocal refusals
        refusals += 1
        raise TableError("the deal is refused for the test")

    table._deal = refused  # type: ignore[method-assign]  # a deal the table refuses
    h.time.advance(2)
    assert await h.service.tick() == 0
    assert await h.service.tick() == 0
    h.time.advance(100)
    assert await h.service.tick() == 0
    assert refusals == 1
    said = [told(n) for _, n in h.presenter.public_notices if "automatic deal" in told(n)]
    assert len(said) == 1 and "the deal is refused for the test" in said[0].lower()
    assert h.service.next_due() is None and table.state.halted is None
    # A change at the table (one stands up) and the deal goes ahead.
    table._deal = deal  # type: ignore[method-assign]
    out = await table.stand("c", key=h.key())
    assert out.ok, out.msg
    h.time.advance(2)
    assert await h.service.tick() == 1
    assert table.state.in_hand
    h.check(table)


async def test_r18_2_the_clock_shows_a_winning_hand_and_mucks_only_a_beaten_one() -> None:
    """R-18.2 (declared hands, R-9.3): nobody shows or mucks at the showdown. The first
    asked holds aces: the clock shows them (they win); the 7-2 asked next is beaten by
    a hand already shown, and only then is it mucked (R-9.2)."""
    h = Harness()
    # Position 0 is the first asked when everyone checked the last round.
    with dealt(stacked_deck(["AsAd", "7c2d"], "KhQh9s4c3d")):
        table = await h.seated(
            ["alice", "bob"], buy_in=200, declared_hands=True, action_clock=5, time_bank=0
        )
        assert (await h.deal(table)).ok
    info = table.state.current
    assert info is not None
    aces, seven_deuce = info.users
    while (hand := table.state.hand) is not None and hand.phase != "showdown":
        word = "check" if "check" in hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    # The showdown: nobody shows or mucks; the clock's turn.
    assert hand is not None and hand.phase == "showdown" and hand.to_act == 0
    for _ in range(2):
        h.time.advance(5)
        assert await h.service.tick() == 1
        h.check(table)
    assert table.state.hand is None
    events = table.state.recent[info.hand_no].events
    shown = {e.player for e in events if isinstance(e, HandShown)}
    mucked = {e.player for e in events if isinstance(e, HandMucked)}
    assert shown == {0} and mucked == {1}
    winner = table.state.seat_of(aces)
    loser = table.state.seat_of(seven_deuce)
    assert winner is not None and loser is not None
    assert winner.stack > 200 > loser.stack


async def test_r18_3_a_failing_store_is_retried_later_then_stops_the_table() -> None:
    """R-18.3: when the table cannot record what the clock did, the clock tries again
    after a growing pause, never at once; failing every time, it stops the table, said
    once. A store that comes back in time lets the clock act as usual."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=1, time_bank=0)
    await h.deal(table)
    append = h.store.append
    attempts = 0
    broken = True

    async def failing(*args: Any, **kwargs: Any) -> int:
        nonlocal attempts
        if broken:
            attempts += 1
            raise OSError("disk full")
        return await append(*args, **kwargs)

    h.store.append = failing  # type: ignore[method-assign]  # a store that fails
    h.time.advance(1)
    assert await h.service.tick() == 0 and attempts == 1
    assert await h.service.tick() == 0 and attempts == 1  # not again at once
    h.time.advance(2)
    assert await h.service.tick() == 0 and attempts == 2
    broken = False  # back: the next try acts
    h.time.advance(4)
    turn = table.state.turn
    assert await h.service.tick() == 1 and table.state.turn > turn
    h.check(table)
    broken = True
    waited = 0.0
    while table.state.halted is None and waited < 600:
        h.time.advance(1)
        waited += 1
        await h.service.tick()
    halted = table.state.halted
    assert halted is not None and halted.key == "table.clock.halted"
    assert halted.get("why") == msg("table.clock.failed", count=Count(5))
    assert attempts == 2 + 5 + 1  # five tries, then the halt it could not record either
    assert waited >= 2 + 4 + 8 + 16  # the pauses grew
    halted = [n for _, n in h.presenter.public_notices if n.kind == "halted"]
    assert len(halted) == 1
    h.time.advance(600)
    assert await h.service.tick() == 0
    h.check(table)


def test_r15_3_r10_7_a_ghost_hand_game_reads_the_joker() -> None:
    """R-15.3 with a joker (R-10.7): the stayers' hands and the ghost's are read with the
    wild card (the engine crashed on the joker here, and the clock could not settle the
    call). A joker and four aces' worth: the stayer with the joker makes five aces."""
    from bot.poker.cards import JOKER
    from bot.poker.hand import Hand
    from bot.poker.rules import Rules

    rules = Rules(variant="guts", pot_system="guts", guts_stake=2, guts_ghost=True, wild="joker")
    deck = stacked_deck([f"{JOKER}AsAdAcAh", "2c3d4h5s7c"], "")
    full = [*deck, JOKER] if JOKER not in deck else list(deck)
    hand = Hand(rules, [100, 100], tuple(full), player_ids=("a", "b"))
    for pos in (0, 1):
        if hand.can_act(pos):
            hand.apply(GutsCall(pos, pos == 0))
    assert hand.over
    result = hand.result
    assert result is not None
    assert result.net[0] > 0  # five aces beat the ghost


async def test_r18_3_one_tables_failing_clock_does_not_stop_the_others() -> None:
    """The clock loop runs every table's clock: one that raises is logged and the
    others still act (before, the exception ended the loop for every table)."""
    h = Harness()
    one = await h.seated(["a", "b"], table_id="one", action_clock=1, time_bank=0)
    two = await h.seated(["c", "d"], table_id="two", action_clock=1, time_bank=0)
    await h.deal(one)
    await h.deal(two)

    async def boom() -> bool:
        raise RuntimeError("a bug in one table")

    one.on_clock = boom  # type: ignore[method-assign]
    turn = two.state.turn
    h.time.advance(1)
    assert await h.service.tick() == 1
    assert two.state.turn > turn
    h.check(two)


async def test_r18_3_a_clock_key_already_in_the_log_stops_the_table_once() -> None:
    """The clock's action is refused as a duplicate (its key is already in the log, as
    when an older table in the channel used the same hand and turn numbers): before, it
    was answered "already done", the deadline stayed, and it fired again at once for
    ever. Now the table is read back from its log and, nothing having moved, stopped
    with the reason, said once."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=1, time_bank=0)
    await h.deal(table)
    st = table.state
    assert st.current is not None
    taken = f"clock:{st.current.hand_no}:{st.turn}"
    h.store._keys.add((table.table_id, taken))  # type: ignore[attr-defined]  # MemoryStore's
    h.time.advance(1)
    assert await h.service.tick() == 0
    for _ in range(3):
        h.time.advance(1)
        assert await h.service.tick() == 0
    halted = table.state.halted
    assert halted is not None and halted.key == "table.clock.halted"
    assert halted.get("why") == msg("table.clock.already_logged")
    timeouts = [n for _, n in h.presenter.public_notices if n.kind == "timeout"]
    halted = [n for _, n in h.presenter.public_notices if n.kind == "halted"]
    assert len(timeouts) == 1 and len(halted) == 1
    h.check(table)


async def test_r18_3_a_hand_whose_end_was_not_recorded_is_ended_by_the_clock() -> None:
    """The store fails just as a hand's end is written: the last action is in the log,
    the end is not. Before, no clock was due (nobody to act) and the table sat in the
    finished hand until someone typed a command; now the clock ends it."""
    h = Harness()
    table = await h.seated(["a", "b"], action_clock=30, time_bank=0)
    await h.deal(table)
    append = h.store.append

    async def no_end(table_id: str, kind: str, *args: Any, **kwargs: Any) -> int:
        if kind == "hand_ended":
            raise OSError("disk full")
        return await append(table_id, kind, *args, **kwargs)

    h.store.append = no_end  # type: ignore[method-assign]
    out = await table.act(h.to_act(table), "fold", key=h.key())
    # The fold is in the log: the player is told it was recorded (R-2.5, all or nothing
    # means never "nothing was done" for a command whose first write landed).
    assert out.ok and out.code == "partly_recorded"
    h.store.append = append  # type: ignore[method-assign]  # the store is back
    assert table.state.in_hand and table.state.hand is not None and table.state.hand.over
    assert h.service.next_due() is not None
    assert await h.service.tick() == 1
    assert not table.state.in_hand
    h.check(table)
