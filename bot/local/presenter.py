"""The terminal presenter: public notices are printed; private ones are kept until the
player asks (``alice: cards``), because everyone shares the screen. Prompts to act (your
turn, declare, in or out) are printed without anything private (the options of a
player who may need openers to open depend on his cards): after a deal or a timeout,
that line is how the table learns whose turn it is and how long he has."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TextIO

from bot.table.ports import Notice, NoticeKind

# Prompts printed for everyone: whose turn, and the clock.
PROMPTS: tuple[NoticeKind, ...] = ("your_turn", "declare", "guts")


class TerminalPresenter:
    def __init__(
        self, out: TextIO, *, quiet: bool = False, now: Callable[[], float] = time.time
    ) -> None:
        self.out = out
        self.quiet = quiet
        self.now = now
        self.private_log: dict[str, list[str]] = {}

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out, flush=True)

    async def public(self, table_id: str, notice: Notice) -> None:
        self.say(f"  {notice.text}")

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if notice.kind in PROMPTS:
            clock = ""
            if notice.deadline is not None:
                clock = f" ({max(0, math.ceil(notice.deadline - self.now()))} s left)"
            if notice.kind == "your_turn":
                # Not the options: with jacks to open they depend on his cards. The table
                # view prints them when they are public; `name: cards` always does.
                self.say(
                    f"  -> {user_id}, your turn{clock}. `{user_id}: cards` shows your options."
                )
            else:
                self.say(f"  -> {user_id}: {notice.text}{clock}")
            return
        log = self.private_log.setdefault(user_id, [])
        log.append(notice.text)
        del log[:-20]

    async def error(self, table_id: str, user_id: str, message: str) -> None:
        # Table commands (deal, set ...) are typed by the table itself, "host".
        who = "" if user_id == "host" else f"{user_id}: "
        self.say(f"! {who}{message}")

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return True  # at one keyboard everyone may run the table
