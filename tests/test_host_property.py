"""The conservation property over the host's tools, the waiting list and straddles
(R-2.5 with R-20.50 to R-20.58): random sequences of sitting, dealing, playing, the clock,
kicks, seat moves, stack adjustments either way, sit-outs, co-hosts, the waiting list
(joins, leaves, offers running out), straddles and re-straddles, the button straddle and
rebuys. After every step chips are conserved and the ledger agrees with the log (the
adjustments counted), every command is answered, a refused one wrote nothing; at the end
the table rebuilt from its log is the table in memory (invariant 4)."""

from __future__ import annotations

import asyncio
import os

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.table.recovery import ledger_error, load
from bot.table.state import state_digest
from tests.harness import HOST, Harness

USERS = ("ann", "bob", "cat", "dan", "eve")
KINDS = (
    "sit",
    "sit",
    "deal",
    "deal",
    "act",
    "act",
    "act",
    "act",
    "act",
    "act",
    "clock",
    "kick",
    "seat",
    "adjust",
    "sitout",
    "cohost",
    "wait",
    "unwait",
    "straddle",
    "stand",
    "rebuy",
    "back",
)
step = st.tuples(
    st.sampled_from(KINDS),
    st.sampled_from(USERS),
    st.integers(min_value=-150, max_value=150),
)


HOME_KINDS = (*KINDS, "bomb", "vote", "rabbit", "show", "twice", "deal", "act", "act")
"""With the home-game options on (§20): a bomb pot proposed or voted on, a rabbit hunt,
a show by choice, a run-it-twice answer; more deals and play, so hands end."""
HOME = {
    "run_it_twice": True,
    "bomb_pot_every": 3,
    "seven_deuce_bounty": 5,
    "rabbit_hunt": True,
    "declare_clock": 20,
}


async def _run(
    steps: list[tuple[str, str, int]],
    seats: int,
    button: bool,
    home: dict[str, object] | None = None,
) -> None:
    h = Harness()
    table = await h.table(
        seats=seats,
        straddle=True,
        straddles=3,
        straddle_button=button,
        action_clock=20,
        **(home or {}),
    )
    for kind, user, n in steps:
        before = table.state.seq
        if kind == "bomb":
            out = await table.bomb_vote(user, None, key=h.key())
        elif kind == "vote":
            out = await table.bomb_vote(user, n % 2 == 0, key=h.key())
        elif kind == "rabbit":
            out = await table.rabbit(user, key=h.key())
        elif kind == "show":
            out = await table.show_by_choice(user, ("all", "1", "2")[abs(n) % 3], key=h.key())
        elif kind == "twice":
            hand, info = table.state.hand, table.state.current
            if hand is None or info is None or hand.phase != "run_twice":
                continue
            pending = hand.run_twice_pending()
            who = info.users[pending[abs(n) % len(pending)]]
            out = await table.act(who, "run twice yes" if n % 4 else "run twice no", key=h.key())
        elif kind == "sit":
            out = await table.sit(user, user, 100, key=h.key())
        elif kind == "deal":
            out = await table.deal(HOST, key=h.key())
        elif kind == "act":
            hand = table.state.hand
            if hand is None or hand.to_act is None:
                continue
            legal = hand.legal().actions
            word = "check" if "check" in legal else ("call" if n % 3 else "fold")
            if home and "all_in" in legal and n % 5 == 0:
                word = "all in"  # all in before the river: run it twice is asked
            out = await table.act(h.to_act(table), word, key=h.key())
        elif kind == "clock":
            h.time.advance(abs(n) % 40 + 1)
            await h.service.tick()
            h.check(table)
            continue
        elif kind in ("kick", "sitout"):
            out = await table.host_tool(HOST, kind, user, key=h.key())
        elif kind == "seat":
            out = await table.host_tool(HOST, "seat", user, to=abs(n) % seats + 1, key=h.key())
        elif kind == "adjust":
            out = await table.host_tool(HOST, "adjust", user, amount=n, reason="p", key=h.key())
        elif kind == "cohost":
            if n % 2:
                out = await table.host_tool(HOST, "cohost", user, name=user, key=h.key())
            else:  # a co-host (or not) uses a tool
                out = await table.host_tool(user, "sitout", USERS[abs(n) % len(USERS)])
        elif kind in ("wait", "unwait"):
            out = await table.wait_list(user, user, kind == "wait", key=h.key())
        elif kind == "straddle":
            out = await table.straddle(user, key=h.key())
        elif kind == "stand":
            out = await table.stand(user, key=h.key())
        elif kind == "rebuy":
            out = await table.top_up(user, 50, key=h.key())
        else:
            out = await table.sit_in(user, post=n % 2 == 0, key=h.key())
        assert out.msg.key
        if out.ok and home and kind in ("bomb", "vote", "rabbit", "show", "twice", "act"):
            event(f"{kind} done")  # how often the options were really exercised
        if not out.ok:
            assert table.state.seq == before, (kind, out.msg)  # all or nothing
        h.check(table)
        assert await ledger_error(h.store, table.state) is None
    if home:
        ended = [r for r in await h.store.events("t") if r.kind == "hand_ended"]
        event(f"hands ended: {min(len(ended), 3)}{'+' if len(ended) >= 3 else ''}")
    again = await load(h.store, "t")
    assert state_digest(again) == state_digest(table.state)
    assert again.hosting == table.state.hosting
    assert again.conservation_error() is None


@settings(
    max_examples=int(os.environ.get("CHIPFIST_HOST_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.lists(step, min_size=15, max_size=80),
    st.sampled_from((2, 3, 6)),
    st.booleans(),
)
def test_r2_5_r20_53_host_tools_waiting_list_and_straddles_conserve_chips(
    steps: list[tuple[str, str, int]], seats: int, button: bool
) -> None:
    asyncio.run(_run(steps, seats, button))


home_step = st.tuples(
    st.sampled_from(HOME_KINDS),
    st.sampled_from(USERS),
    st.integers(min_value=-150, max_value=150),
)


@settings(
    max_examples=int(os.environ.get("CHIPFIST_HOST_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.lists(home_step, min_size=15, max_size=80),
    st.sampled_from((2, 3, 6)),
    st.booleans(),
    st.booleans(),
)
def test_r2_5_r20_4_r20_13_home_options_with_the_host_tools_conserve_chips(
    steps: list[tuple[str, str, int]], seats: int, button: bool, double: bool
) -> None:
    """R-2.5 with every home-game option on (R-20.4 bomb pots by count and by vote,
    R-20.5 a double board, R-20.1 run it twice, R-20.13 the 7-2 bounty, R-20.14 the
    rabbit hunt, R-20.15 showing by choice) beside the host's tools, straddles and the
    waiting list: the same checks after every step, the table rebuilt from its log."""
    seated = [("sit", user, 0) for user in USERS[:3]]  # a home game starts seated
    asyncio.run(_run(seated + steps, seats, button, {**HOME, "double_board": double}))
