"""The terminal presenter: public notices are printed; private ones are kept until the
player asks (``alice: cards``), because everyone shares the screen. Prompts to act (your
turn, declare, in or out) are printed without anything private (the options of a
player who may need openers to open depend on his cards): after a deal or a timeout,
that line is how the table learns whose turn it is and how long he has. Everything is
said in the terminal's language (``--lang``)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TextIO

from bot.local.words import Names, Words
from bot.poker.messages import Msg
from bot.table.ports import Notice, NoticeKind

# Prompts printed for everyone: whose turn, and the clock.
PROMPTS: tuple[NoticeKind, ...] = ("your_turn", "declare", "guts", "run_twice", "show_choice")


def namer(notice: Notice) -> Names | None:
    """How the notice's message names players by position (its hand's names)."""
    hand = notice.hand
    if hand is None:
        return None
    names = hand.names
    return lambda position: names[position] if 0 <= position < len(names) else "?"


class TerminalPresenter:
    def __init__(
        self,
        out: TextIO,
        *,
        quiet: bool = False,
        now: Callable[[], float] = time.time,
        words: Words | None = None,
    ) -> None:
        self.out = out
        self.quiet = quiet
        self.now = now
        self.words = words or Words()
        self.private_log: dict[str, list[str]] = {}
        self.answering = False
        """True while the terminal runs a command whose answer it prints itself (from
        the command's Outcome, as a message); refusals are then not printed here."""

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.out, flush=True)

    def text(self, notice: Notice) -> str:
        return self.words.render(notice.msg, namer(notice))

    async def public(self, table_id: str, notice: Notice) -> None:
        self.say(f"  {self.text(notice)}")

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if notice.kind in PROMPTS:
            clock = ""
            if notice.deadline is not None:
                left = max(0, math.ceil(notice.deadline - self.now()))
                clock = " " + self.words("prompt.left", seconds=left)
            if notice.kind == "your_turn":
                # Not the options: with jacks to open they depend on his cards. The table
                # view prints them when they are public; `name: cards` always does.
                self.say("  -> " + self.words("prompt.turn", name=user_id, clock=clock))
            else:
                self.say(f"  -> {user_id}: {self.text(notice)}{clock}")
            return
        log = self.private_log.setdefault(user_id, [])
        log.append(self.text(notice))
        del log[:-20]

    async def error(self, table_id: str, user_id: str, message: Msg) -> None:
        if self.answering:
            return  # the terminal prints the Outcome's message, in its language
        # Table commands (deal, set ...) are typed by the table itself, "host".
        who = "" if user_id == "host" else f"{user_id}: "
        self.say(f"! {who}{self.words.render(message)}")

    def is_moderator(self, table_id: str, user_id: str) -> bool:
        return True  # at one keyboard everyone may run the table
