"""The one parser for typed actions (the terminal, Discord's ``/draw`` and raise modal).

It turns a line such as ``raise to 300`` into an :class:`ActionRequest` with no position
and no chip arithmetic: the table turns the request into an engine action for the
player's seat, and the engine decides whether it is legal. R-6.2: a call followed by a
raise ("call ... raise 200") is a call. R-6.3: ``raise 100`` means raise *by* 100;
``raise to 300`` names the total. Its words are :mod:`bot.table.amounts`; its refusals
are messages of the ``input`` catalogue that say what may be typed instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, get_args

from bot.poker.messages import Cards, Chips, Count, Listing, Msg, Name, Number, Rule, msg
from bot.table.amounts import (
    ACTION_WORDS,
    AMOUNT_KINDS,
    BARE_RAISE,
    DECLARE,
    DECLARE_LINE,
    GUTS,
    PRONOUN,
    amount_word,
    in_english,
)
from bot.table.amounts import RequestKind as RequestKind
from bot.table.errors import TableError

DeclareChoice = Literal["low", "high", "both"]
"""A hi-lo declaration (R-13.1): the half (or both) a player plays for."""

WordKind = Literal[
    "check",
    "call",
    "fold",
    "bet",
    "raise",
    "amounts",
    "all_in",
    "bring_in",
    "complete",
    "draw",
    "declare",
    "guts",
    "show",
    "show_stated",
    "muck",
]
WORD_KINDS: tuple[WordKind, ...] = get_args(WordKind)
"""The groups of typed words (``input.accept.<kind>``), in the order they are listed."""


def accepted(kinds: Iterable[str], *more: Msg) -> Msg:
    """What may be typed: the groups ``kinds`` (in :data:`WORD_KINDS` order), then
    ``more`` (answers whose words are another catalogue's), in the reader's words."""
    wanted = set(kinds)
    items = tuple(msg(f"input.accept.{k}") for k in WORD_KINDS if k in wanted) + more
    return msg("input.accepted", words=Listing(items, "or"))


ACCEPTED: Msg = accepted(WORD_KINDS)
"""Everything any game reads, in the reader's words (each of them read by this parser):
said only where no table's game is known."""
MAX_AMOUNT = 10**15
MAX_NAME = 24
"""The longest player name the table takes: the pictures show 24 characters of a name."""
MAX_ECHO = 40
"""The most of a player's own text that an answer repeats back (a pasted megabyte is not
echoed whole: the answer says what was wrong with the start of it)."""
_EXAMPLE_CARDS = ("7c", "2d", "9h", "Js", "4c")
_STATED_EXAMPLE = ("As", "Ad", "Ac", "Kd", "Kh")


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
        raise ParseError(msg("input.name.missing"))
    if len(name) > MAX_NAME:
        raise ParseError(
            msg(
                "input.name.too_long",
                most=Count(MAX_NAME),
                name=Name(clip(name)),
                length=Number(len(name)),
            )
        )
    if not name.isprintable():
        raise ParseError(msg("input.name.control", name=Name(clip(name))))
    return name


class ParseError(TableError):
    """A line the parser cannot read; its message (``input.*``) says what is allowed."""

    code = "parse"


@dataclass(frozen=True, slots=True)
class ActionRequest:
    kind: RequestKind
    amount: int | None = None
    cards: tuple[str, ...] = ()
    choice: DeclareChoice | None = None
    why: Msg | None = None
    """Why the request is not literally what was typed (R-6.2 string raise)."""


def parse_amount(text: str) -> int:
    """A whole, positive number of chips; everything else is refused with a reason."""
    # ASCII digits only: int() also reads other scripts' digits ("١٠" is 10), which a
    # player may not mean and the others cannot check at a glance (R-6.4: never a guess).
    raw = text.strip()
    quoted = Name(clip(text))
    bad = msg("input.amount.bad", text=quoted, example=Chips(40))
    if "," in raw and not re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+", raw):
        # "1,000" groups thousands; "1,5" may be a decimal comma: never guess.
        raise ParseError(bad)
    t = raw.replace(",", "").replace("_", "")
    if not t:
        raise ParseError(msg("input.amount.missing", accepted=ACCEPTED))
    if not re.fullmatch(r"[0-9]+", t):
        if re.fullmatch(r"-[0-9]+(\.[0-9]+)?", t):
            raise ParseError(msg("input.amount.negative", text=quoted))
        if re.fullmatch(r"[0-9]*\.[0-9]+", t):
            raise ParseError(msg("input.amount.fraction", text=quoted))
        raise ParseError(bad)
    value = int(t)
    if value <= 0:
        raise ParseError(msg("input.amount.zero"))
    if value > MAX_AMOUNT:
        raise ParseError(msg("input.amount.too_many", text=quoted))
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


def parse_action(text: str, accepted: Msg = ACCEPTED) -> ActionRequest:
    """Parse one typed action; a ParseError lists what is accepted: ``accepted``, which
    a table narrows to its game's words or the player's legal actions (R-20.85)."""
    t = " ".join(text.strip().lower().split())
    if not t:
        raise ParseError(msg("input.action.empty", accepted=accepted))
    # "mitgehen", "relancer à 40", "рейз до 40": every language's words, read as English.
    t = in_english(t)
    # "I fold", "I'll call": the action is the same with the pronoun said aloud.
    t = t if t in GUTS else PRONOUN.sub("", t)
    # anything that starts as a call is a call, whatever follows.
    first = re.split(r"[\s,.…;!]+", t, maxsplit=1)[0]
    if re.fullmatch(r"(call|c)\s+[0-9][0-9,]*(\s+chips?)?\.?", t):
        return ActionRequest("call")  # "call 20": a call that names its amount
    if first in ("call", "c") and t not in ("call", "c"):
        return ActionRequest("call", why=msg("input.string_raise", rule=Rule("R-6.2")))
    t = t.rstrip(".!")  # "check." is a check
    if t in ACTION_WORDS:
        return ActionRequest(ACTION_WORDS[t])
    if t in ("bet", "b"):
        return ActionRequest("bet")  # no amount: the only one allowed (fixed limit), if so
    if t in BARE_RAISE:
        return ActionRequest("raise_to")
    m = re.fullmatch(r"(bet|raise|r|b)\s+(to\s+|by\s+)?(.+?)(\s+chips?)?", t)
    if m:
        verb, to, amount_text, _ = m.groups()
        named = amount_word(amount_text)
        if named is not None:
            return ActionRequest(named)  # "raise all", "bet half", "erhöhen auf Minimum"
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
    if t in GUTS:
        return ActionRequest(GUTS[t])
    m = DECLARE_LINE.fullmatch(t)
    if m:
        choice = declare_choice(m.group(1))
        assert choice is not None  # the pattern names only declaration words
        return ActionRequest("declare", choice=choice)
    raise ParseError(msg("input.action.unknown", text=Name(clip(text)), accepted=accepted))


def declare_choice(word: str) -> DeclareChoice | None:
    """The declaration a word names (``hi``, ``pig``, ``both``...), or None."""
    return DECLARE.get(word.strip().lower())


class DrawCountError(ParseError):
    """``draw 2``: a count where the cards are needed. ``count`` lets a presenter that
    knows the player's cards give an example from them (privately)."""

    def __init__(self, verb: str, count: int, cards: tuple[str, ...] = _EXAMPLE_CARDS) -> None:
        self.verb = verb
        self.count = count
        super().__init__(draw_count_message(verb, count, cards))


def draw_count_message(verb: str, count: int, cards: tuple[str, ...]) -> Msg:
    """The answer to ``draw 2``: say which cards, with an example of ``count`` cards
    (the player's own where the answer is private)."""
    typed = Name(f"{verb} {count}" if count < 10**6 else verb)
    if not cards:
        return msg("input.draw.count_bare", typed=typed)
    n = max(1, min(count, len(cards)))
    return msg("input.draw.count", typed=typed, cards=Cards(cards[:n]))


def _draw(verb: str, rest: list[str]) -> ActionRequest:
    """``draw 7c 2d``: the cards thrown away. ``draw 0`` (or none) stands pat. A bare
    count (``draw 2``) is how many, not which: the dealer cannot choose for the player,
    so he is asked to name them (R-16.4: a player discards his own cards)."""
    if rest in (["none"], ["0"], ["nothing"], ["no"], ["zero"]):
        return ActionRequest("draw")
    if not rest:
        raise ParseError(msg("input.draw.which", cards=Cards(_EXAMPLE_CARDS[:2])))
    if re.fullmatch(r"[0-9]+", rest[0]):
        count = int(rest[0])
        if len(rest) > 1 and count == len(rest) - 1:
            rest = rest[1:]  # "draw 2 7c 2d": the count agrees with the cards named
        else:
            raise DrawCountError(verb, count)
    return ActionRequest("draw", cards=tuple(_card(c) for c in rest))


def amount_words() -> Listing:
    """The amount words (``min``, ``max``, ``half``, ``pot``, ``all in``) as a list each
    language says with its own words (``input.word.<kind>``), every one of them a word
    :func:`bot.table.amounts.amount_word` reads."""
    return Listing(tuple(msg(f"input.word.{kind}") for kind in AMOUNT_KINDS), "or")


def parse_raise(to_text: str, by_text: str, opening: bool) -> ActionRequest:
    """The raise modal's two fields (a total, or an amount on top of the call) as a
    request, read by the same rules and words as typed actions: an amount word
    (``Hälfte``, ``tapis``, ``min``) names its request, for the table to size from the
    legal range; a number is never adjusted (R-6.4: the engine refuses an out-of-range
    one with the range). A refusal says what to type."""
    to_text, by_text = to_text.strip(), by_text.strip()
    text, by = (by_text, True) if by_text and not to_text else (to_text, False)
    if not text:
        raise ParseError(msg("input.modal.empty", words=amount_words()))
    word = amount_word(text)
    if word is not None:
        return ActionRequest(word)
    try:
        amount = parse_amount(text)
    except ParseError as exc:
        raise ParseError(msg("input.modal.or_words", why=exc.msg, words=amount_words())) from None
    if opening:
        return ActionRequest("bet", amount)
    return ActionRequest("raise_by" if by else "raise_to", amount)


def parse_stated(text: str) -> tuple[str, ...]:
    """A stated hand (R-9.3): five cards, like ``As Ad Ac Kd Kh`` (commas allowed). The
    engine checks that the player's cards hold it."""
    cards = tuple(_card(c) for c in text.replace(",", " ").split())
    if len(cards) != 5:
        raise ParseError(msg("input.stated.five", cards=Cards(_STATED_EXAMPLE)))
    return cards


def _card(text: str) -> str:
    from bot.poker.cards import CardError, parse_card

    try:
        return parse_card(text)
    except CardError:
        raise ParseError(msg("input.card.bad", text=Name(clip(text, 8)))) from None
