"""`python -m bench discord`: hands played through the fake Discord by the real bot.

M tables (default 50) of three players in their own channels; every player action is a
button click through the real discord.py client, the cogs, the table service and a real
SQLite file. Clicks are paced to an aggregate rate (default 25 actions/s). Prints the
Discord requests per player action and per hand, and the latency from the interaction
being sent to the bot until its first response (p50/p99). ``--realistic``: Discord's
rate limits, latency and 5xx, timed play, figures taken from the fake's side
(``bench/_realistic.py``).

Figures, one per line: ``figure: value unit``.

Run from the repository root: the fake Discord is test support (``tests/fakediscord``),
not part of the shipped packages, and neither it nor this benchmark needs pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import discord

from bench._patches import _Patches
from cogs import ops
from cogs.app import ChipfistBot
from cogs.ids import decode
from tests.fakediscord import FakeConfig, FakeDiscord
from tests.fakediscord.runner import run_bot

PLAYERS = ("p1", "p2", "p3")


async def _run(
    tables: int, hands: int, rate: float, seed: int, strict: bool = False
) -> dict[str, Any]:
    rng = random.Random(seed)
    config = FakeConfig.strict(seed) if strict else None
    fake = FakeDiscord(
        channel_names=[f"table-{i}" for i in range(tables)], member_names=PLAYERS, config=config
    )
    await fake.start()
    mp = _Patches()
    fake.patch(mp)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = ChipfistBot(
                str(Path(tmp) / "bench.sqlite3"), clocks=False, sync=False, **fake.client_options()
            )
            bot_side, click_side = _measure_bot_side(bot, mp)
            async with run_bot(fake, bot, sync=True, timeout=20):
                users = [fake.user(n) for n in PLAYERS]
                channels = [fake.channel_named(f"table-{i}") for i in range(tables)]

                async def setup(ch: Any) -> None:
                    await fake.slash(users[0], "table create", channel=ch)
                    for u in users:
                        await fake.slash(u, "sit", buy_in=200, channel=ch)

                await asyncio.gather(*(setup(ch) for ch in channels))
                await bot.presenter.drain()
                await fake.wait_idle(0.2, timeout=30)
                start_log = len(fake.request_log)
                started_at = asyncio.get_running_loop().time()
                bot_side.clear()
                click_side.clear()
                latencies: list[float] = []
                actions = 0
                played = 0
                period = tables / rate

                async def drive(ch: Any) -> None:
                    nonlocal actions, played
                    tid = str(ch.id)
                    await asyncio.sleep(rng.random() * period)
                    for _ in range(hands):
                        await fake.slash(users[0], "deal", channel=ch)
                        assert bot.service is not None
                        table = bot.service.get(tid)
                        assert table is not None, "the table was not created"
                        while table.state.in_hand:
                            # This table's deliveries only: waiting for every table's
                            # would march all tables in step (bursts no bot sees).
                            await bot.presenter.drain(tid)
                            mid = bot.presenter.channel(tid).message_id
                            view = table.snapshot(None)
                            seat = next((s for s in view.seats if s.seat == view.to_act), None)
                            if mid is None or seat is None:
                                await asyncio.sleep(0.01)
                                continue
                            msg = fake.message(mid)
                            button = next(
                                (c for c in msg.custom_ids() if c.endswith(":check_call")), None
                            )
                            dated = None if button is None else decode(button)
                            if button is None or dated is None or dated.turn != view.turn:
                                await asyncio.sleep(0.01)
                                continue
                            began = time.perf_counter()
                            rec = await fake.click(fake.users[int(seat.user_id)], msg, button)
                            if rec.responded_at is not None:
                                latencies.append(rec.responded_at - rec.created_at)
                            actions += 1
                            spent = time.perf_counter() - began
                            await asyncio.sleep(max(0.0, period - spent))
                        played += 1

                await asyncio.gather(*(drive(ch) for ch in channels))
                await bot.presenter.drain()
                await fake.wait_idle(0.2, timeout=30)
                requests = len(fake.request_log) - start_log
                routes = Counter(fake.request_log[start_log:])
                exempt = fake.config.global_exempt
                global_limited = sum(n for r, n in routes.items() if r not in exempt)
                late = [(k, r) for t, k, r in fake.rate_limit_log if t >= started_at + 5.0]
                late_429 = len(late)
                late_kinds = Counter(f"{k} {r}" for k, r in late)
                pings = bot.presenter.pings_sent, bot.presenter.pings_by_followup
    finally:
        mp.undo()
        await fake.stop()
    latencies.sort()
    bot_side.sort()
    clicks = sorted(click_side)
    return {
        "bot_p50": _pct(bot_side, 0.5),
        "bot_p99": _pct(bot_side, 0.99),
        "click_p50": _pct(clicks, 0.5),
        "click_p99": _pct(clicks, 0.99),
        "routes": routes,
        "actions": actions,
        "hands": played,
        "per_action": requests / max(1, actions),
        "global_per_action": global_limited / max(1, actions),
        "late_429": late_429,
        "late_kinds": late_kinds,
        "all_429": fake.rate_limited,
        "pings": pings,
        "per_hand": requests / max(1, played),
        "p50": statistics.median(latencies) * 1000 if latencies else 0.0,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
        if latencies
        else 0.0,
    }


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(len(values) * q))] * 1000


def _is_click(interaction: Any) -> bool:
    return bool(interaction.type == discord.InteractionType.component)


def _measure_bot_side(bot: Any, mp: _Patches) -> tuple[list[float], list[float]]:
    """Bot-side latency: from the gateway event reaching the bot (``on_interaction``)
    to the end of the first response call (every first response goes through ops)."""
    received: dict[int, float] = {}
    out: list[float] = []
    clicks: list[float] = []

    async def on_interaction(interaction: Any) -> None:
        received[interaction.id] = time.perf_counter()

    bot.add_listener(on_interaction, "on_interaction")

    def timed(fn: Any) -> Any:
        async def wrapper(interaction: Any, *args: Any, **kwargs: Any) -> Any:
            first = not interaction.response.is_done()
            result = await fn(interaction, *args, **kwargs)
            began = received.pop(interaction.id, None)
            if first and began is not None:
                spent = time.perf_counter() - began
                out.append(spent)
                if _is_click(interaction):
                    clicks.append(spent)
            return result

        return wrapper

    for name in ("reply", "update", "open_modal", "defer"):
        mp.setattr(ops, name, timed(getattr(ops, name)))
    return out, clicks


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench discord")
    parser.add_argument("--tables", type=int, default=None, help="50; 200 with --realistic")
    parser.add_argument("--hands", type=int, default=1, help="hands per table")
    parser.add_argument("--rate", type=float, default=25.0, help="aggregate actions per second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--routes", action="store_true", help="also print requests per route")
    parser.add_argument(
        "--strict", action="store_true", help="the fake with Discord's rate limits on"
    )
    parser.add_argument(
        "--realistic",
        action="store_true",
        help="rate limits, 50-300 ms latency, 3%% 5xx; timed play (bench/_realistic.py)",
    )
    parser.add_argument(
        "--duration", type=float, default=120.0, help="--realistic: seconds of play (120)"
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="--realistic: seconds played first, not measured: returning players whose DM "
        "channels are known, table messages with live clicks (0)",
    )
    parser.add_argument(
        "--short",
        action="store_true",
        help="--realistic: allow under 120 s of play (tests, smoke runs)",
    )
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="--realistic: step the tables (50, 100, 200, 400...) until the click p99 passes 1 s",
    )
    parser.add_argument(
        "--error-rate",
        type=float,
        default=0.03,
        help="--realistic: share of requests answered 5xx (0.03; 0: load without faults)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    if args.realistic:
        from bench import _realistic

        if args.duration < 120 and not args.short:
            parser.error("--realistic plays at least 120 s (--short allows less)")
        return _realistic.main(args)
    if args.tables is None:
        args.tables = 50
    r = asyncio.run(_run(args.tables, args.hands, args.rate, args.seed, args.strict))
    print(f"tables: {args.tables} tables")
    print(f"hands: {r['hands']:.0f} hands")
    print(f"player actions: {r['actions']:.0f} actions")
    print(f"requests per player action: {r['per_action']:.2f} requests")
    print(f"global-limited requests per player action: {r['global_per_action']:.2f} requests")
    print(f"429 responses after the first 5 s: {r['late_429']} responses")
    print(f"429 responses in all: {r['all_429']} responses")
    for what, n in r["late_kinds"].most_common():
        print(f"429 after the first 5 s, {what}: {n} responses")
    print(f"turn pings: {r['pings'][0]} pings ({r['pings'][1]} as interaction follow-ups)")
    print(f"requests per hand: {r['per_hand']:.1f} requests")
    print(f"first response p50: {r['bot_p50']:.1f} ms")
    print(f"first response p99: {r['bot_p99']:.1f} ms")
    print(f"first response to a button click p50: {r['click_p50']:.1f} ms")
    print(f"first response to a button click p99: {r['click_p99']:.1f} ms")
    print(f"round trip from the fake p50: {r['p50']:.1f} ms")
    print(f"round trip from the fake p99: {r['p99']:.1f} ms")
    if args.routes:
        for route, n in r["routes"].most_common():
            print(f"route {route}: {n} requests")
    return 0
