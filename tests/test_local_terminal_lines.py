"""The terminal's input thread hands its lines to the event loop without leaving a
coroutine behind, even when the loop is closed before the thread reads (R-19.122)."""

from __future__ import annotations

import asyncio
import gc
import io
import threading
import warnings

from bot.local.terminal import LineReader


class _Held(io.StringIO):
    """Input whose first line is given only once ``go`` is set."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.go = threading.Event()
        self.done = threading.Event()

    def fileno(self) -> int:
        raise OSError("not a real file")

    def readline(self, size: int | None = -1) -> str:
        self.go.wait(5)
        line = super().readline()
        if not line:
            self.done.set()
        return line


def test_R_19_122_a_line_read_after_the_loop_closed_leaves_no_coroutine() -> None:
    """The loop ends (the tournament over, Ctrl-C) while the reader thread still waits
    for input; the line then read, and the end of input, are dropped quietly: no
    coroutine is left never awaited."""
    held = _Held("alice: fold\n")

    async def start() -> LineReader:
        return LineReader(held)

    assert isinstance(asyncio.run(start()), LineReader)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        held.go.set()
        assert held.done.wait(5)
        threading.Event().wait(0.2)  # the thread's last puts follow its last read
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], caught


async def test_R_19_122_lines_read_ahead_are_bounded_and_all_delivered() -> None:
    """More lines than the reader holds ahead are all delivered, in order, then the
    end of input (None)."""
    count = 200  # more than the 64 read ahead
    reader = LineReader(io.StringIO("".join(f"line {i}\n" for i in range(count))))
    got = [await asyncio.wait_for(reader.get(), 5) for _ in range(count + 1)]
    assert got == [f"line {i}\n" for i in range(count)] + [None]
