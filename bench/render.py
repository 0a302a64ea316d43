"""`python -m bench render`: how fast the pictures are drawn and encoded, and how big.

Renders (draw + PNG encode, what the service does per action) a 9-seat hold'em table,
a 7-seat stud table, a showdown and hole cards, after one warm-up render that builds
the sprite cache and palette. Prints, one figure per line as ``figure: value unit``,
the wall-clock median, the CPU-time median and the encoded size. Targets: table
<= 12 ms and <= 120 KB, hole cards <= 3 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from cards_art import (
    RenderedImage,
    render_hole_cards,
    render_showdown,
    render_table,
    samples,
)


def _measure(make: Callable[[], RenderedImage], runs: int) -> tuple[float, float, int]:
    """Median wall-clock and CPU milliseconds per render, and the encoded size. CPU
    time is shown too because on a shared machine the wall clock includes waiting for
    a core; the CPU figure is what the render itself costs."""
    make()  # warm-up: sprites, fonts, palette, label cache
    wall, cpu = [], []
    size = 0
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        image = make()
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
        size = len(image.data)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000, size


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench render")
    parser.add_argument("--runs", type=int, default=50, help="renders per figure")
    args = parser.parse_args(argv)
    holdem, stud, showdown = samples.holdem(9), samples.stud7(), samples.showdown_split()
    cases: list[tuple[str, Callable[[], RenderedImage]]] = [
        ("holdem 9 seats", lambda: render_table(holdem)),
        ("stud 7 seats", lambda: render_table(stud)),
        ("showdown", lambda: render_showdown(showdown)),
        ("hole cards", lambda: render_hole_cards(samples.HOLE_HOLDEM)),
    ]
    for name, make in cases:
        median, cpu, size = _measure(make, args.runs)
        print(f"{name} median: {median:.1f} ms")
        print(f"{name} cpu median: {cpu:.1f} ms")
        print(f"{name} size: {size / 1024:.0f} KB")
    return 0
