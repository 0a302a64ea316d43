"""The one parser for typed actions (terminal, and Discord when text actions are on).

It turns a line such as ``raise to 300`` into an :class:`ActionRequest` with no position
and no chip arithmetic: the table turns the request into an engine action for the
player's seat, and the engine decides whether it is legal. R-6.2: a call followed by a
raise ("call ... raise 200") is a call. R-6.3: ``raise 100`` means raise *by* 100;
``raise to 300`` names the total.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.table.errors import TableError

RequestKind = Literal[
    "check",
    "call",
    "fold",
    "bet",
    "raise_by",
    "raise_to",
    "all_in",
    "pot",
    "half_pot",
    "bring_in",
    "complete",
    "draw",
    "declare",
    "guts_in",
    "guts_out",
    "show",
    "muck",
]
ACCEPTED = (
    "check, call, fold, bet 40, raise 100 (by), raise to 300, all in, pot, half pot, "
    "bring in, complete, draw <cards> (or stand pat), declare low/high/both, in, out (Guts), "
    "show, muck"
)
MAX_AMOUNT = 10**15


class ParseError(TableError):
    code = "parse"


@dataclass(frozen=True, slots=True)
class ActionRequest:
    kind: RequestKind
    amount: int | None = None
    cards: tuple[str, ...] = ()
    choice: Literal["low", "high", "both"] | None = None
    note: str = ""
    """Why the request is not literally what was typed (R-6.2 string raise)."""


_WORDS: dict[str, RequestKind] = {
    "check": "check",
    "x": "check",
    "pass": "check",
    "call": "call",
    "c": "call",
    "fold": "fold",
    "f": "fold",
    "all in": "all_in",
    "allin": "all_in",
    "all-in": "all_in",
    "shove": "all_in",
    "pot": "pot",
    "half pot": "half_pot",
    "half-pot": "half_pot",
    "bring in": "bring_in",
    "bring-in": "bring_in",
    "bringin": "bring_in",
    "complete": "complete",
    "stand pat": "draw",
    "pat": "draw",
    "show": "show",
    "muck": "muck",
}


def parse_amount(text: str) -> int:
    """A whole, positive number of chips; everything else is refused with a reason."""
    raw = text.strip()
    if "," in raw and not re.fullmatch(r"\d{1,3}(,\d{3})+", raw):
        # "1,000" groups thousands; "1,5" may be a decimal comma: never guess.
        raise ParseError(f"{text!r} is not an amount; write a whole number of chips, like 40.")
    t = raw.replace(",", "").replace("_", "")
    if not t:
        raise ParseError(f"Say how many chips, for example `bet 40`. Accepted: {ACCEPTED}.")
    if not re.fullmatch(r"\d+", t):
        if re.fullmatch(r"-\d+(\.\d+)?", t):
            raise ParseError(f"{text!r} is negative; an amount is a positive number of chips.")
        if re.fullmatch(r"\d*\.\d+", t):
            raise ParseError(f"{text!r} is not a whole number; chips cannot be split.")
        raise ParseError(f"{text!r} is not an amount; write a whole number of chips, like 40.")
    value = int(t)
    if value <= 0:
        raise ParseError("An amount must be at least one chip.")
    if value > MAX_AMOUNT:
        raise ParseError(f"{text!r} is more chips than exist at this table.")
    return value


def parse_action(text: str) -> ActionRequest:
    """Parse one typed action; a ParseError lists what is accepted."""
    t = " ".join(text.strip().lower().split())
    if not t:
        raise ParseError(f"Type an action. Accepted: {ACCEPTED}.")
    # anything that starts as a call is a call, whatever follows.
    first = re.split(r"[\s,.…;!]+", t, maxsplit=1)[0]
    if first in ("call", "c") and t not in ("call", "c"):
        return ActionRequest(
            "call", note="That is a call: a raise must be declared whole, in one action (R-6.2)."
        )
    if t in _WORDS:
        return ActionRequest(_WORDS[t])
    m = re.fullmatch(r"(bet|raise|r|b)\s+(to\s+)?(\S+)", t)
    if m:
        verb, to, amount_text = m.groups()
        amount = parse_amount(amount_text)
        if verb in ("bet", "b"):
            return ActionRequest("bet", amount)
        return ActionRequest("raise_to" if to else "raise_by", amount)
    if t in ("bet", "b"):
        return ActionRequest("bet")  # no amount: the only one allowed (fixed limit), if so
    if t in ("raise", "r", "raise to"):
        return ActionRequest("raise_to")
    m = re.fullmatch(r"(draw|discard)\s*(.*)", t)
    if m:
        rest = m.group(2).replace(",", " ").split()
        if rest in (["none"], ["0"], ["nothing"]):
            rest = []
        return ActionRequest("draw", cards=tuple(_card(c) for c in rest))
    if t in ("in", "stay", "stay in", "i'm in"):
        return ActionRequest("guts_in")
    if t in ("out", "drop", "i'm out"):
        return ActionRequest("guts_out")
    m = re.fullmatch(r"declare\s+(low|high|both|hi|lo|pig)", t)
    if m:
        word = {"hi": "high", "lo": "low", "pig": "both"}.get(m.group(1), m.group(1))
        return ActionRequest("declare", choice=word)  # type: ignore[arg-type]  # regex: low/high/both
    raise ParseError(f"I did not understand {text.strip()!r}. Accepted: {ACCEPTED}.")


def _card(text: str) -> str:
    from bot.poker.cards import CardError, parse_card

    try:
        return parse_card(text)
    except CardError as exc:
        raise ParseError(str(exc)) from None
