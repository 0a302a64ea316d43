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

from bot.table.amounts import AMOUNT_WORDS, in_english
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
    "min",
    "max",
    "bring_in",
    "complete",
    "draw",
    "declare",
    "guts_in",
    "guts_out",
    "show",
    "muck",
]
DeclareChoice = Literal["low", "high", "both"]
"""A hi-lo declaration (R-13.1): the half (or both) a player plays for."""

ACCEPTED = (
    "check, call, fold, bet 40, raise 100 (by), raise to 300, min, max, all in, pot, half pot, "
    "bring in, complete, draw <cards> (or stand pat), declare low/high/both, in, out (Guts), "
    "show, show <five cards> (declared hands), muck"
)
MAX_AMOUNT = 10**15
MAX_NAME = 24
"""The longest player name the table takes: the pictures show 24 characters of a name."""
MAX_ECHO = 40
"""The most of a player's own text that an answer repeats back (a pasted megabyte is not
echoed whole: the answer says what was wrong with the start of it)."""
_EXAMPLE_CARDS = ("7c", "2d", "9h", "Js", "4c")


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` quoted for an answer, cut to ``limit`` characters (with an ellipsis).

    Every refusal that repeats what a player typed goes through here, so no answer is
    longer than its own words plus a short quote."""
    t = " ".join(str(text).split())
    if len(t) > limit:
        t = t[:limit] + "…"
    return repr(t)


def check_name(text: str) -> str:
    """A player's name as typed at the terminal, stripped; a refusal says why not.

    Names are compared without regard to case (``casefold``), so "Alice" and "alice" are
    one player; the length limit keeps every name whole on the table picture."""
    name = " ".join(text.split())
    if not name:
        raise ParseError("A player needs a name: write NAME: ACTION, like `alice: sit`.")
    if len(name) > MAX_NAME:
        raise ParseError(f"A name is at most {MAX_NAME} characters; {clip(name)} has {len(name)}.")
    if not name.isprintable():
        raise ParseError(f"{clip(name)} cannot be a name: it holds control characters.")
    return name


class ParseError(TableError):
    code = "parse"


@dataclass(frozen=True, slots=True)
class ActionRequest:
    kind: RequestKind
    amount: int | None = None
    cards: tuple[str, ...] = ()
    choice: DeclareChoice | None = None
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
    "jam": "all_in",
    "push": "all_in",
    "bet pot": "pot",
    "raise pot": "pot",
    "pot bet": "pot",
    "bet half pot": "half_pot",
    "raise half pot": "half_pot",
    "min": "min",
    "min raise": "min",
    "minraise": "min",
    "min bet": "min",
    "raise min": "min",
    "bet min": "min",
    "max": "max",
    "max raise": "max",
    "max bet": "max",
    "raise max": "max",
    "bet max": "max",
    "stand pat": "draw",
    "standpat": "draw",
    "stand-pat": "draw",
    "pat": "draw",
    "stay pat": "draw",
    "keep all": "draw",
    "show": "show",
    "muck": "muck",
    # The amount words the raise modal takes ("half", "½", "all", "minimum"...): one
    # vocabulary for every way in.
    **AMOUNT_WORDS,
}


def parse_amount(text: str) -> int:
    """A whole, positive number of chips; everything else is refused with a reason."""
    # ASCII digits only: int() also reads other scripts' digits ("١٠" is 10), which a
    # player may not mean and the others cannot check at a glance (R-6.4: never a guess).
    raw = text.strip()
    bad = f"{clip(text)} is not an amount; write a whole number of chips, like 40."
    if "," in raw and not re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+", raw):
        # "1,000" groups thousands; "1,5" may be a decimal comma: never guess.
        raise ParseError(bad)
    t = raw.replace(",", "").replace("_", "")
    if not t:
        raise ParseError(f"Say how many chips, for example `bet 40`. Accepted: {ACCEPTED}.")
    if not re.fullmatch(r"[0-9]+", t):
        if re.fullmatch(r"-[0-9]+(\.[0-9]+)?", t):
            raise ParseError(f"{clip(text)} is negative; an amount is a positive number of chips.")
        if re.fullmatch(r"[0-9]*\.[0-9]+", t):
            raise ParseError(f"{clip(text)} is not a whole number; chips cannot be split.")
        raise ParseError(bad)
    value = int(t)
    if value <= 0:
        raise ParseError("An amount must be at least one chip.")
    if value > MAX_AMOUNT:
        raise ParseError(f"{clip(text)} is more chips than exist at this table.")
    return value


def parse_value(text: str) -> object:
    """A typed setting's value: on/off words, an ASCII whole number or decimal, else the
    text itself (the setting then says what it accepts). Digits of other scripts are not
    numbers here either ("١٠" is text, refused by a number setting)."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    if re.fullmatch(r"-?[0-9]{1,30}", t):
        return int(t)
    if re.fullmatch(r"-?[0-9]{1,15}\.[0-9]{1,15}", t):
        return float(t)
    return t


def parse_action(text: str) -> ActionRequest:
    """Parse one typed action; a ParseError lists what is accepted."""
    t = " ".join(text.strip().lower().split())
    if not t:
        raise ParseError(f"Type an action. Accepted: {ACCEPTED}.")
    # "mitgehen", "relancer à 40", "рейз до 40": every language's words, read as English.
    t = in_english(t)
    # "I fold", "I'll call": the action is the same with the pronoun said aloud.
    t = re.sub(r"^(i|i'll|ill|i will)\s+(?=\S)", "", t) if t not in ("i'm in", "i'm out") else t
    # anything that starts as a call is a call, whatever follows.
    first = re.split(r"[\s,.…;!]+", t, maxsplit=1)[0]
    if re.fullmatch(r"(call|c)\s+[0-9][0-9,]*(\s+chips?)?\.?", t):
        return ActionRequest("call")  # "call 20": a call that names its amount
    if first in ("call", "c") and t not in ("call", "c"):
        return ActionRequest(
            "call", note="That is a call: a raise must be declared whole, in one action (R-6.2)."
        )
    t = t.rstrip(".!")  # "check." is a check
    if t in _WORDS:
        return ActionRequest(_WORDS[t])
    if t in ("bet", "b"):
        return ActionRequest("bet")  # no amount: the only one allowed (fixed limit), if so
    if t in ("raise", "r", "raise to"):
        return ActionRequest("raise_to")
    m = re.fullmatch(r"(bet|raise|r|b)\s+(to\s+|by\s+)?(\S+?)(\s+chips?)?", t)
    if m:
        verb, to, amount_text, _ = m.groups()
        to = to if to and to.startswith("to") else None  # "raise by 20" is R-6.3's default
        amount = parse_amount(amount_text)
        if verb in ("bet", "b"):
            return ActionRequest("bet", amount)
        return ActionRequest("raise_to" if to else "raise_by", amount)
    m = re.fullmatch(r"(draw|discard|throw|change)\s*(.*)", t)
    if m:
        return _draw(m.group(1), m.group(2).replace(",", " ").split())
    m = re.fullmatch(r"(?:show|state)\s+(.+)", t)
    if m:
        # declared hands: "show As Ad Ac Kd Kh" states the hand it shows.
        return ActionRequest("show", cards=parse_stated(m.group(1)))
    if t in ("in", "stay", "stay in", "i'm in"):
        return ActionRequest("guts_in")
    if t in ("out", "drop", "i'm out"):
        return ActionRequest("guts_out")
    m = re.fullmatch(r"(?:declare\s+|go\s+)?(low|high|both|hi|lo|pig|swing|hi-lo|high low)", t)
    if m:
        choice = declare_choice(m.group(1))
        assert choice is not None  # the pattern names only declaration words
        return ActionRequest("declare", choice=choice)
    raise ParseError(f"I did not understand {clip(text)}. Accepted: {ACCEPTED}.")


_DECLARE: dict[str, DeclareChoice] = {
    "low": "low",
    "high": "high",
    "both": "both",
    "hi": "high",
    "lo": "low",
    "pig": "both",
    "swing": "both",
    "hi-lo": "both",
    "high low": "both",
}


def declare_choice(word: str) -> DeclareChoice | None:
    """The declaration a word names (``hi``, ``pig``, ``both``...), or None."""
    return _DECLARE.get(word.strip().lower())


class DrawCountError(ParseError):
    """``draw 2``: a count where the cards are needed. ``count`` lets a presenter that
    knows the player's cards give an example from them (privately)."""

    def __init__(self, verb: str, count: int, cards: tuple[str, ...] = _EXAMPLE_CARDS) -> None:
        self.verb = verb
        self.count = count
        super().__init__(draw_count_message(verb, count, cards))


def draw_count_message(verb: str, count: int, cards: tuple[str, ...]) -> str:
    """The answer to ``draw 2``: say which cards, with an example of ``count`` cards
    (the player's own where the answer is private)."""
    shown = f"{verb} {count}" if count < 10**6 else verb
    n = max(1, min(count, len(cards)))
    example = f", like `{verb} {' '.join(cards[:n])}`" if cards else ""
    return (
        f"`{shown}` says how many, not which: name the cards you throw away{example} "
        "(`stand pat` keeps them all; `cards` shows yours)."
    )


def _draw(verb: str, rest: list[str]) -> ActionRequest:
    """``draw 7c 2d``: the cards thrown away. ``draw 0`` (or none) stands pat. A bare
    count (``draw 2``) is how many, not which: the dealer cannot choose for the player,
    so he is asked to name them (R-16.4: a player discards his own cards)."""
    if rest in (["none"], ["0"], ["nothing"], ["no"], ["zero"]):
        return ActionRequest("draw")
    if not rest:
        raise ParseError(
            f"Say which cards you throw away, like `{verb} 7c 2d`; `stand pat` (or "
            f"`{verb} 0`) keeps them all."
        )
    if re.fullmatch(r"[0-9]+", rest[0]):
        count = int(rest[0])
        if len(rest) > 1 and count == len(rest) - 1:
            rest = rest[1:]  # "draw 2 7c 2d": the count agrees with the cards named
        else:
            raise DrawCountError(verb, count)
    return ActionRequest("draw", cards=tuple(_card(c) for c in rest))


def parse_stated(text: str) -> tuple[str, ...]:
    """A stated hand (R-9.3): five cards, like ``As Ad Ac Kd Kh`` (commas allowed). The
    engine checks that the player's cards hold it."""
    cards = tuple(_card(c) for c in text.replace(",", " ").split())
    if len(cards) != 5:
        raise ParseError(
            "State your hand as five cards, like `show As Ad Ac Kd Kh` (a wild card as the "
            "card it stands for)."
        )
    return cards


def _card(text: str) -> str:
    from bot.poker.cards import CardError, parse_card

    try:
        return parse_card(text)
    except CardError:
        raise ParseError(
            f"{clip(text, 8)} is not a card; write rank then suit, like As, Td or 9c."
        ) from None
