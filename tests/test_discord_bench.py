"""The Discord benchmark runs, and a small run meets the request budget (≤ 2 Discord
requests per player action on average)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.discord import _run


async def test_bench_discord_small_run() -> None:
    # 8 hands (~100 actions): fewer make the average hostage to how a handful of
    # table edits happen to coalesce (a 2-hand run measured 1.87–2.04).
    result = await _run(tables=4, hands=2, rate=200.0, seed=3)
    assert result["hands"] == 8 and result["actions"] > 0
    assert result["per_action"] <= 2.0, result["routes"]
    assert result["click_p99"] < 3000  # Discord's limit for a first response


def test_bench_discord_runs_without_pytest() -> None:
    """`python -m bench discord` needs neither pytest nor pytest-asyncio: it is run from
    the repository root with the fake Discord from tests/, and prints its figures."""
    code = (
        "import runpy, sys\n"
        "for name in ('pytest', '_pytest', 'pytest_asyncio'):\n"
        "    sys.modules[name] = None  # any import of them now fails\n"
        "sys.argv = ['bench', 'discord', '--tables', '1', '--hands', '1', '--rate', '200']\n"
        "runpy.run_module('bench', run_name='__main__')\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "hands: 1 hands" in done.stdout, done.stdout
    assert "requests per player action:" in done.stdout, done.stdout
