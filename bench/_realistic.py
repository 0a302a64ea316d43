"""`python -m bench discord --realistic`: the dealer against Discord as it really is.

The fake Discord (``tests/fakediscord``) runs with :meth:`FakeConfig.realistic`: rate
limits on (50 requests/s global, callbacks exempt; 5 message sends/edits per 5 s per
channel), 50-300 ms latency on every request and 3% of requests answered 5xx. N tables
(default 200) of three distinct players each are played at an aggregate rate (default 25
clicks a second) for ``--duration`` seconds.

Everything is measured from the fake's side, never from the bot's opinion:

- requests: the fake's own request log and counters (429s and 5xx count: each cost a
  round trip), from the moment play starts until the bot has settled;
- click-to-table-updated: from the click's arrival at the fake (the interaction is
  dispatched) to the fake first holding a public table message in that channel whose
  footer shows a later turn (``turn T``: the table's counter of hand events, shown on
  every table message, never decreasing in the table);
- deal-to-new-hand-shown: from ``/deal`` arriving to a table message showing the next
  hand number;
- tables that went backwards: a table message edited to show an older turn than one
  already shown in its channel;
- lost updates: at the end, the newest table message of each channel compared with the
  table's final state (hand, phase, turn, pot, every stack);
- failed clicks: clicks the bot did not answer within Discord's 3 s (the player sees
  "This interaction failed").

The players only use what the fake shows them: they read whose turn it is from the
table message and press its Check/Call button. If a table message does not move for
``STALL`` seconds after a click the table is counted as stalled and its player acts on
the table's real state (as a player would with a typed command), so one stuck table
does not stop the load.

Tables are created and seated with the fake's conditions off (setup is not play); the
realistic conditions are switched on when play starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._patches import _Patches
from cogs.app import ChipfistBot
from cogs.ids import decode
from tests.fakediscord import FakeConfig, FakeDiscord, FakeInteraction, FakeMessage
from tests.fakediscord.runner import run_bot

#: Seconds a table message may stay unchanged after a click before the table counts as
#: stalled (and its player acts on the table's real state).
STALL = 10.0
#: Discord's window for the first response to an interaction.
RESPONSE_WINDOW = 3.0
#: Phases in which the table message carries the action buttons.
PLAY_PHASES = ("betting", "draw", "declare", "guts", "showdown")
#: Tables stepped through by ``--capacity``.
CAPACITY_STEPS = (25, 50, 100, 200, 400, 800, 1600)

_FOOTER = re.compile(r"Hand #(\d+)\b.*? · ([a-z_]+) · turn (\d+)")
_SEAT = re.compile(r"`(\d+)` (\S+) — (\d+)")
_MENTION = re.compile(r"<@(\d+)>")


@dataclass(frozen=True)
class Shown:
    """What one table message shows, read from its embed (the fake's copy)."""

    hand_no: int
    phase: str
    turn: int
    pot: int
    stacks: tuple[tuple[int, str, int], ...]  # (seat, name, stack)
    to_act: int | None  # the user id named under "To act"

    @staticmethod
    def read(msg: FakeMessage) -> Shown | None:
        """The table state ``msg`` shows, or None if it is not a table message."""
        if not msg.embeds:
            return None
        embed = msg.embeds[0]
        footer = _FOOTER.search((embed.get("footer") or {}).get("text") or "")
        if footer is None:
            return None
        pot = 0
        stacks: list[tuple[int, str, int]] = []
        to_act = None
        for fld in embed.get("fields") or []:
            name, value = fld.get("name"), str(fld.get("value") or "")
            if name == "Pot":
                pot = int(value.split()[0])
            elif name == "Seats":
                stacks = [(int(m[0]), m[1], int(m[2])) for m in _SEAT.findall(value)]
            elif name == "To act":
                mention = _MENTION.search(value)
                to_act = int(mention.group(1)) if mention else None
        return Shown(
            int(footer.group(1)),
            footer.group(2),
            int(footer.group(3)),
            pot,
            tuple(sorted(stacks)),
            to_act,
        )


def expected(view: Any) -> Shown:
    """What the table message must show for the table's spectator ``view``."""
    return Shown(
        view.hand_no,
        view.phase,
        view.turn,
        view.pot_total - view.reserve,
        tuple(sorted((s.seat, s.name, s.stack) for s in view.seats)),
        None,
    )


def same_state(shown: Shown, want: Shown) -> bool:
    return (shown.hand_no, shown.phase, shown.turn, shown.pot, shown.stacks) == (
        want.hand_no,
        want.phase,
        want.turn,
        want.pot,
        want.stacks,
    )


@dataclass
class _Table:
    """The fake-side record of one table channel."""

    channel: Any
    host: Any
    players: list[Any]
    message: FakeMessage | None = None  # the newest public table message
    shown: Shown | None = None  # what it shows
    top_turn: int = -1  # the highest turn any table message here has shown
    top_hand: int = -1
    known_hand: int = -1  # the highest hand its players know of (a stalled table's truth)
    went_back: int = 0
    clicks: list[tuple[int, float]] = field(default_factory=list)  # pending (turn, arrival)
    deals: list[tuple[int, float]] = field(default_factory=list)  # pending (hand, arrival)
    forced: Any = None  # a stalled table's real state (a TableView): act on it by command
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Observer:
    """Watches every payload the fake applies (``fake.watchers``) and times what the
    players see. One per run."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.tables: dict[int, _Table] = {}
        self.click_ms: list[float] = []
        self.deal_ms: list[float] = []
        self.backwards_edits = 0
        self.measuring = False
        fake.watchers.append(self._seen)

    def _seen(self, msg: FakeMessage, route: str) -> None:
        if msg.ephemeral or msg.deleted:
            return
        channel = msg.channel.parent or msg.channel
        table = self.tables.get(channel.id)
        if table is None:
            return
        shown = Shown.read(msg)
        if shown is None:
            return
        now = asyncio.get_running_loop().time()
        if table.message is None or msg.id >= table.message.id:
            table.message, table.shown, table.forced = msg, shown, None
        if shown.turn < table.top_turn:
            if self.measuring:
                table.went_back += 1
                self.backwards_edits += 1
        else:
            table.top_turn = shown.turn
        table.top_hand = max(table.top_hand, shown.hand_no)
        if table.clicks:
            done = [c for c in table.clicks if c[0] < shown.turn]
            table.clicks = [c for c in table.clicks if c[0] >= shown.turn]
            if self.measuring:
                self.click_ms.extend((now - at) * 1000 for _, at in done)
        if table.deals:
            done = [d for d in table.deals if d[0] < shown.hand_no]
            table.deals = [d for d in table.deals if d[0] >= shown.hand_no]
            if self.measuring:
                self.deal_ms.extend((now - at) * 1000 for _, at in done)
        table.changed.set()


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


@dataclass
class Run:
    """The settings of one realistic run."""

    tables: int = 200
    duration: float = 120.0
    rate: float = 25.0
    seed: int = 1
    config: FakeConfig | None = None  # None: FakeConfig.realistic(seed)
    settle: float = 15.0  # seconds the bot gets at the end to show the final states
    clocks: bool = False
    db_dir: str | None = None  # keep the store there (the chaos test reads it back)
    warmup: float = 0.0  # seconds played under the same conditions before measuring


Check = Callable[[FakeDiscord, ChipfistBot, dict[str, Any]], Awaitable[None]]


async def run(spec: Run, check: Check | None = None) -> dict[str, Any]:
    """Play ``spec`` and return the figures (see the module docstring). ``check`` is
    called once the bot has settled, before it is stopped."""
    # Exceptions no one retrieved (the bot's failed background tasks): counted here, not
    # logged. asyncio logs one when the dead task is garbage-collected, which may happen
    # inside any later ast.parse (pytest's assertion rewriting, a test reading source);
    # formatting its traceback parses again (3.11's carets), and CPython 3.11.7 then fails
    # the outer parse with "AST constructor recursion depth mismatch" (seen in pytest runs
    # after this one). So the handler stays on this loop after the run: the bot's tasks
    # may be collected later, and are then only counted.
    task_errors: list[str] = []
    loop = asyncio.get_running_loop()

    def unretrieved(_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        task_errors.append(type(exc).__name__ if exc is not None else str(context.get("message")))

    loop.set_exception_handler(unretrieved)
    out = await _play(spec, check)
    gc.collect()  # the bot is gone: most of its dead tasks are finalized now
    out["task_errors"] = len(task_errors)
    out["task_error_kinds"] = Counter(task_errors)
    return out


async def _play(spec: Run, check: Check | None) -> dict[str, Any]:
    rng = random.Random(spec.seed)
    names = [f"table-{i}" for i in range(spec.tables)]
    players = [f"t{i}p{j}" for i in range(spec.tables) for j in range(3)]
    fake = FakeDiscord(channel_names=names, member_names=players)
    await fake.start()
    mp = _Patches()
    fake.patch(mp)
    obs = Observer(fake)
    out: dict[str, Any] = {}
    stalls = 0
    loop = asyncio.get_running_loop()
    click_records: list[FakeInteraction] = []
    deal_records: list[FakeInteraction] = []
    try:
        with contextlib.ExitStack() as stack:
            folder = spec.db_dir or stack.enter_context(tempfile.TemporaryDirectory())
            db = str(Path(folder) / "bench.sqlite3")
            bot = ChipfistBot(db, clocks=spec.clocks, sync=False, **fake.client_options())
            async with run_bot(fake, bot, sync=True, timeout=60):
                for i, name in enumerate(names):
                    ch = fake.channel_named(name)
                    seat = [fake.user(f"t{i}p{j}") for j in range(3)]
                    obs.tables[ch.id] = _Table(ch, seat[0], seat)
                gate = asyncio.Semaphore(16)

                async def setup(t: _Table) -> None:
                    async with gate:
                        await fake.slash(t.host, "table create", channel=t.channel, timeout=30)
                        for u in t.players:
                            await fake.slash(u, "sit", buy_in=200, channel=t.channel, timeout=30)

                await asyncio.gather(*(setup(t) for t in obs.tables.values()))
                await bot.presenter.drain()
                await fake.wait_idle(0.3, timeout=60)
                # Play starts: Discord as it really is from here on.
                fake.configure(spec.config or FakeConfig.realistic(spec.seed))
                fake.reset_counts()
                t0 = loop.time()
                end = t0 + spec.warmup + spec.duration
                period = spec.tables / spec.rate
                cpu0 = time.process_time()
                measured_from = t0
                hands_before = 0

                def start_measuring() -> None:
                    """From here on everything counts (after the warm-up, if any)."""
                    nonlocal cpu0, measured_from, hands_before
                    hands_before = sum(v.hand_no for t in obs.tables.values() if (v := truth(t)))
                    fake.reset_counts()
                    click_records.clear()
                    deal_records.clear()
                    obs.click_ms.clear()
                    obs.deal_ms.clear()
                    cpu0 = time.process_time()
                    measured_from = loop.time()
                    obs.measuring = True

                async def warm_up() -> None:
                    # Players who have played here before: their DM channels are known
                    # (kept in the store), the table messages have live clicks.
                    await asyncio.sleep(spec.warmup)
                    start_measuring()

                async def changed(t: _Table, timeout: float, test: Callable[[], bool]) -> bool:
                    deadline = loop.time() + timeout
                    while not test():
                        left = deadline - loop.time()
                        if left <= 0:
                            return False
                        t.changed.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(t.changed.wait(), min(left, 0.5))
                    return True

                def truth(t: _Table) -> Any:
                    assert bot.service is not None
                    table = bot.service.get(str(t.channel.id))
                    return None if table is None else table.snapshot(None)

                def adopt_truth(t: _Table) -> None:
                    """A stalled table: its player goes by the table's real state (as
                    with a typed command), since the message does not show it."""
                    view = truth(t)
                    if view is None:
                        return
                    # Not counted as shown (the backwards check compares what was shown).
                    t.known_hand = max(t.known_hand, view.hand_no)
                    t.shown = expected_with_actor(view)
                    t.forced = view

                async def deal(t: _Table) -> None:
                    nonlocal stalls
                    hand = max(t.top_hand, t.known_hand, 0)
                    t.forced = None
                    rec = await fake.slash(t.host, "deal", channel=t.channel, wait=False)
                    deal_records.append(rec)
                    t.deals.append((hand, rec.created_at))
                    if not await changed(t, STALL, lambda: t.top_hand > hand):
                        # Still timed when the message shows the hand, however late.
                        stalls += 1
                        adopt_truth(t)

                async def click(t: _Table) -> None:
                    nonlocal stalls
                    shown, msg = t.shown, t.message
                    assert shown is not None and msg is not None
                    user = fake.users.get(shown.to_act or 0)
                    forced, t.forced = t.forced, None
                    if forced is not None and user is not None:
                        # The message is stale: the player types /check or /call (the
                        # stale button would be refused).
                        word = "call" if forced.to_call else "check"
                        rec = await fake.slash(user, word, channel=t.channel, wait=False)
                    else:
                        # The turn's Check/Call as the message carries it (dated by the
                        # table's session too, R-20.95).
                        tid = str(t.channel.id)
                        button = next(
                            (
                                c
                                for c in msg.custom_ids()
                                if (b := decode(c)) is not None
                                and (b.kind, b.table_id, b.turn, b.arg)
                                == ("act", tid, shown.turn, "check_call")
                            ),
                            None,
                        )
                        if user is None or button is None:
                            await changed(t, 1.0, lambda: t.shown is not shown)
                            return
                        try:
                            rec = await fake.click(user, msg, button, wait=False)
                        except (LookupError, PermissionError):
                            return  # the message changed under the player's finger
                    click_records.append(rec)
                    t.clicks.append((shown.turn, rec.created_at))
                    if not await changed(t, STALL, lambda: t.top_turn > shown.turn):
                        # Still timed when the message shows the turn, however late.
                        stalls += 1
                        adopt_truth(t)

                async def drive(t: _Table) -> None:
                    slot = t0 + rng.random() * period
                    # The tables start at random moments of the first period, as their
                    # clicks go on: the offered load is the aggregate rate from the
                    # start, not every table dealing in the same instant.
                    await asyncio.sleep(max(0.0, slot - loop.time()))
                    while loop.time() < end:
                        shown = t.shown
                        playing = (
                            shown is not None
                            and shown.phase in PLAY_PHASES
                            and shown.hand_no >= max(t.top_hand, t.known_hand)
                        )
                        if not playing:
                            await deal(t)
                            continue
                        await asyncio.sleep(max(0.0, slot - loop.time()))
                        slot = max(slot + period, loop.time())
                        if loop.time() >= end:
                            break
                        await click(t)

                if spec.warmup > 0:
                    warming = asyncio.create_task(warm_up())
                else:
                    start_measuring()
                await asyncio.gather(*(drive(t) for t in obs.tables.values()))
                played_until = loop.time()
                if spec.warmup > 0:
                    await warming
                # Settle: the bot gets ``settle`` seconds to show every final state.
                await bot.presenter.drain()
                with contextlib.suppress(TimeoutError):
                    await fake.wait_idle(1.0, timeout=spec.settle)
                deadline = loop.time() + spec.settle

                def lost() -> list[_Table]:
                    """Tables whose newest message (as the fake holds it) is not the
                    table's final state."""
                    bad = []
                    for t in obs.tables.values():
                        view = truth(t)
                        if view is None:
                            continue
                        msg = t.message
                        shown = None if msg is None or msg.deleted else Shown.read(msg)
                        if shown is None or not same_state(shown, expected(view)):
                            bad.append(t)
                    return bad

                while lost() and loop.time() < deadline:
                    await asyncio.sleep(0.25)
                stale = lost()
                settled_at = loop.time()
                cpu = time.process_time() - cpu0
                obs.measuring = False
                actions = len(click_records)
                late_429 = sum(1 for at, _, _ in fake.rate_limit_log if at > measured_from + 5.0)

                def failed(rec: FakeInteraction) -> bool:
                    if rec.responded_at is None or rec.response_error is not None:
                        return True
                    return rec.responded_at - rec.created_at > RESPONSE_WINDOW

                out = {
                    "tables": spec.tables,
                    "seconds": played_until - measured_from,
                    "warmup": spec.warmup,
                    "settle_seconds": settled_at - played_until,
                    "actions": actions,
                    "actions_per_second": sum(1 for r in click_records if r.created_at < end)
                    / spec.duration,
                    "hands": sum(v.hand_no for t in obs.tables.values() if (v := truth(t)))
                    - hands_before,
                    "deal_commands": len(deal_records),
                    "requests": fake.request_count,
                    "global_requests": fake.global_requests,
                    "per_action": fake.request_count / max(1, actions),
                    "global_per_action": fake.global_requests / max(1, actions),
                    "rate_limited": fake.rate_limited,
                    "rate_limited_after_5s": late_429,
                    "rate_limited_by_kind": dict(fake.rate_limited_by_kind),
                    "faults": dict(fake.faults.injected),
                    "routes": Counter(fake.request_log),
                    "click_p50": pct(obs.click_ms, 0.5),
                    "click_p99": pct(obs.click_ms, 0.99),
                    "click_max": max(obs.click_ms, default=0.0),
                    "clicks_shown": len(obs.click_ms),
                    "deal_p50": pct(obs.deal_ms, 0.5),
                    "deal_p99": pct(obs.deal_ms, 0.99),
                    "failed_clicks": sum(1 for r in click_records if failed(r)),
                    "failed_deals": sum(1 for r in deal_records if failed(r)),
                    "clicks_never_shown": sum(len(t.clicks) for t in obs.tables.values()),
                    "deals_never_shown": sum(len(t.deals) for t in obs.tables.values()),
                    "lost_updates": len(stale),
                    "lost_tables": [
                        (
                            t.channel.name,
                            None if t.message is None else Shown.read(t.message),
                            expected(truth(t)),
                        )
                        for t in stale
                    ],
                    "backwards_tables": sum(1 for t in obs.tables.values() if t.went_back),
                    "backwards_edits": obs.backwards_edits,
                    "stalls": stalls,
                    "cpu_seconds": cpu,
                    "unhandled": list(fake.unhandled),
                }
                if check is not None:
                    await check(fake, bot, out)
    finally:
        mp.undo()
        await fake.stop()
    return out


def expected_with_actor(view: Any) -> Shown:
    """``expected(view)`` with whose turn it is (a stalled table's real state)."""
    who = next((s for s in view.seats if s.seat == view.to_act), None)
    base = expected(view)
    return Shown(
        base.hand_no,
        base.phase,
        base.turn,
        base.pot,
        base.stacks,
        int(who.user_id) if who is not None else None,
    )


def print_figures(r: dict[str, Any], *, routes: bool = False) -> None:
    """One figure a line, ``figure: value unit``."""
    print(f"tables: {r['tables']} tables")
    if r.get("warmup"):
        print(f"warm-up before measuring: {r['warmup']:.0f} s")
    print(f"play time: {r['seconds']:.1f} s")
    print(f"player actions: {r['actions']} actions")
    print(f"actions per second: {r['actions_per_second']:.1f} actions/s")
    print(f"hands dealt: {r['hands']} hands")
    print(f"global-limited requests per player action: {r['global_per_action']:.2f} requests")
    print(f"all requests per player action: {r['per_action']:.2f} requests")
    print(f"429 responses: {r['rate_limited']} responses")
    print(f"429 responses after the first 5 s: {r['rate_limited_after_5s']} responses")
    for kind in ("global", "route"):
        n = r["rate_limited_by_kind"].get(kind, 0)
        print(f"429 responses from the {kind} limit: {n} responses")
    print(f"click-to-table-updated p50: {r['click_p50']:.0f} ms")
    print(f"click-to-table-updated p99: {r['click_p99']:.0f} ms")
    print(f"click-to-table-updated max: {r['click_max']:.0f} ms")
    print(f"deal-to-new-hand-shown p50: {r['deal_p50']:.0f} ms")
    print(f"deal-to-new-hand-shown p99: {r['deal_p99']:.0f} ms")
    print(f"failed clicks: {r['failed_clicks']} clicks")
    print(f"failed deals: {r['failed_deals']} commands")
    print(f"clicks never shown: {r['clicks_never_shown']} clicks")
    print(f"deals never shown: {r['deals_never_shown']} commands")
    print(f"lost updates: {r['lost_updates']} tables")
    print(f"tables that went backwards: {r['backwards_tables']} tables")
    print(f"stalled tables: {r['stalls']} stalls")
    print(f"injected 5xx: {sum(v for k, v in r['faults'].items() if k.isdigit())} responses")
    print(f"unretrieved task exceptions: {r['task_errors']} exceptions")
    print(f"process CPU: {r['cpu_seconds']:.1f} s")
    if routes:
        for route, n in r["routes"].most_common():
            print(f"route {route}: {n} requests")
        for name, shown, want in r["lost_tables"][:5]:
            print(f"# lost update at {name}: shows {shown}, the table is {want}")


async def capacity(spec: Run, steps: tuple[int, ...] = CAPACITY_STEPS) -> list[dict[str, Any]]:
    """Step the number of tables at ``spec.rate`` until the click p99 passes 1 s."""
    results = []
    for tables in steps:
        step = Run(
            tables=tables,
            duration=spec.duration,
            rate=spec.rate,
            seed=spec.seed,
            config=spec.config,
            settle=spec.settle,
        )
        r = await run(step)
        results.append(r)
        print(
            f"capacity step {tables} tables: click p99 {r['click_p99']:.0f} ms, "
            f"{r['actions_per_second']:.1f} actions/s, {r['rate_limited_after_5s']} late 429s",
            flush=True,
        )
        if r["click_p99"] > 1000:
            break
    return results


def main(args: Any) -> int:
    # A request the bot gives up on (a cancelled ping) is logged by aiohttp as a lost
    # connection: noise here, and it is counted in the request figures anyway.
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    config = FakeConfig.realistic(args.seed, error_rate=args.error_rate)
    spec = Run(
        tables=args.tables or 200,
        duration=args.duration,
        rate=args.rate,
        seed=args.seed,
        config=config,
        warmup=args.warmup,
    )
    if args.capacity:
        results = asyncio.run(capacity(spec))
        held = [r["tables"] for r in results if r["click_p99"] <= 1000]
        # 0: not even the first step kept the click p99 under 1 s.
        print(f"capacity: {max(held, default=0)} tables")
        return 0
    r = asyncio.run(run(spec))
    print_figures(r, routes=args.routes)
    return 0
