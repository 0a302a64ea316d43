"""Run it twice at the table (R-20.1): the engine holds the question and the sealed
answers (``Hand.phase == "run_twice"``); the table prompts each player asked, privately,
on the shared answer clock (``declare_clock``), and when it runs out answers no for
everyone still silent (no answer means once)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.poker.actions import RunItTwice, RunItTwiceTimeout
from bot.poker.legal import Actor
from bot.poker.messages import Count, Msg, Name, Rule, joined, msg

ANSWERS = ("run_twice_yes", "run_twice_no")
"""The two request kinds (:data:`bot.table.amounts.RequestKind`) that answer."""


def asked(actors: Sequence[Actor]) -> list[Actor]:
    """The players still to answer the run-it-twice question (none outside it)."""
    return [a for a in actors if a.turn == "sealed" and "run_twice" in a.legal.actions]


def kicked_no(
    actors: Sequence[Actor], users: Sequence[str], kicked: Collection[str]
) -> RunItTwice | None:
    """R-20.78: a kicked player still to answer cannot (his turns are the clock's,
    R-20.70): his answer is no, at once, rather than at the clock."""
    for a in asked(actors):
        if users[a.position] in kicked:
            return RunItTwice(a.position, False)
    return None


def prompt() -> Msg:
    """The private question, with what the answers mean."""
    return msg("home.prompt.run_twice", rule=Rule("R-20.1"))


def answer(kind: str, position: int) -> RunItTwice | None:
    """The engine action for a typed or clicked answer; None for any other request."""
    if kind not in ANSWERS:
        return None
    return RunItTwice(position, kind == "run_twice_yes")


def timed_out(names: Sequence[str], first: int) -> tuple[Msg, RunItTwiceTimeout]:
    """The clock ran out (R-20.1): who did not answer, said, and the one action that
    answers no for all of them."""
    who = joined([msg("engine.who", who=Name(n)) for n in names])
    said = msg("home.clock.run_twice", who=who, count=Count(len(names)), rule=Rule("R-20.1"))
    return said, RunItTwiceTimeout(first)
