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
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker.actions import Fold
from bot.poker.cards import stacked_deck
from bot.poker.events import HandMucked, HandShown
from bot.poker.variants import VARIANTS, get_variant
from bot.table.errors import SettingsError, TableError
from bot.table.settings import TableSettings
from bot.table.table import Table
from tests.harness import Harness
from tests.test_floor_show import dealt

HANDS = 3
MAX_FIRINGS_PER_HAND = 80
"""More decisions than any of these hands has (rounds x players, draws, declarations)."""
MAX_NOTICES_PER_HAND = 400


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, Any], int, bool]:
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
        # Not with a table ante: a Guts pot nobody stays in loses the carried antes of
        # the deal before (a pot-system fault outside the clock, reported separately).
        options["ante"] = 0
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
    return options, players, straddle


async def _straddle(h: Harness, table: Table) -> None:
    """Whoever may straddle the next deal does (a choice between hands, R-3.4)."""
    for seat in list(table.state.seats.values()):
        await table.straddle(seat.user_id, key=h.key())


async def _clock_alone(options: dict[str, Any], players: int, straddle: bool) -> None:
    try:
        TableSettings.of(**options).validate()
    except SettingsError:
        return  # a combination the table refuses is not a game to play
    h = Harness()
    names = [f"p{i}" for i in range(players)]
    table = await h.seated(names, buy_in=200, **options)
    ended = 0
    firings = 0
    notices_at = 0
    if straddle:
        await _straddle(h, table)
    while ended < HANDS:
        due = h.service.next_due()
        assert due is not None, "nothing is due, yet nobody will ever act"
        h.time.set(max(h.time.now(), due))
        mark = table.state.seq
        fired = await h.service.tick()
        h.check(table)  # after every step
        assert table.state.halted is None, table.state.halted
        # A due clock moves the table: never fires again at the same moment.
        assert fired == 1 and table.state.seq != mark
        firings += 1
        assert firings <= MAX_FIRINGS_PER_HAND, "a hand the clock does not finish"
        if not table.state.in_hand and table.state.current is not None:
            ended += 1
            told = len(h.presenter.public_notices) + len(h.presenter.private_notices)
            assert told - notices_at <= MAX_NOTICES_PER_HAND
            notices_at, firings = told, 0
            if straddle:
                await _straddle(h, table)
    assert table.state.hand_no >= HANDS


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(case=tables())
def test_r18_1_the_clock_alone_finishes_every_hand_of_every_game(
    case: tuple[dict[str, Any], int, bool],
) -> None:
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
    out = [n.text for _, n in h.presenter.public_notices if n.kind == "timeout"]
    assert out == [f"{late}'s time ran out."]
    assert table.state.last_action == f"{late} brings it in for 1"
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
            assert out.ok, out.message
            continue
        late = h.to_act(table)
        h.time.advance(1)
        mark = table.state.seq
        assert await h.service.tick() == 1
        assert table.state.seq != mark
        h.check(table)
        timed_out += 1
        assert f"{late}'s time ran out." in [n.text for _, n in h.presenter.public_notices]
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
    assert table.state.halted is not None and "refused for the test" in table.state.halted
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
    said = [n.text for _, n in h.presenter.public_notices if "automatic deal" in n.text]
    assert len(said) == 1 and "the deal is refused for the test" in said[0]
    assert h.service.next_due() is None and table.state.halted is None
    # A change at the table (one stands up) and the deal goes ahead.
    table._deal = deal  # type: ignore[method-assign]
    out = await table.stand("c", key=h.key())
    assert out.ok, out.message
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
