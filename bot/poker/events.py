"""Domain events: what an accepted action caused, in order.

Each event names its ``audience``: ``None`` for everyone at the table, or the position
of the one player allowed to see it (hole cards, down cards, a chip-fist choice). The
presenters route events by audience; nothing private is ever put in a public event.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Literal

from bot.poker.cards import Card
from bot.poker.messages import Msg

Share = Literal["whole", "high", "low"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    audience: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ForcedBet(Event):
    """An ante, blind, straddle, kill or bring-in (§3)."""

    player: int
    kind: Literal["ante", "small_blind", "big_blind", "straddle", "blind", "bring_in", "dead_blind"]
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(Event):
    """Cards dealt to one player. The owner's copy (``audience`` = the player) shows
    them; up cards (stud) also get a public copy. Face-down cards never appear in a public
    event: a public ``CardsDealt`` holds up cards only."""

    player: int
    cards: tuple[Card, ...]
    face_up: tuple[bool, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardDealt(Event):
    cards: tuple[Card, ...]
    street: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurned(Event):
    """R-16.1 formal mode: one card burned face down (never shown)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StreetStarted(Event):
    street: str
    index: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionTaken(Event):
    """A betting action, with the chips it moved from the stack and the resulting wager."""

    player: int
    kind: Literal["fold", "check", "call", "bet", "raise", "complete", "bring_in"]
    added: int
    total: int
    all_in: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Drew(Event):
    """Draw phase. The public copy says how many; the owner's copy also names them."""

    player: int
    count: int
    discarded: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckReshuffled(Event):
    """R-16.4: discards (not the drawer's own) were shuffled to continue dealing."""

    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetReturned(Event):
    """R-4.7: the unmatched part of the last bet goes back to its owner."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundClosed(Event):
    street: str
    pot: int


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PotsFormed(Event):
    pots: tuple[Pot, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandShown(Event):
    player: int
    cards: tuple[Card, ...]
    hands: tuple[Msg | None, ...] = ()
    """The hand's name for each half of the pot, as messages."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandMucked(Event):
    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RakeTaken(Event):
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PotAwarded(Event):
    """One pot (or one half of it) and who got how much of it (§8, §11)."""

    pot_index: int
    share: Share
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    hand_words: Msg | None = None
    """The winning hand's name, as a message (None when the winner did not show)."""
    board: int = 0
    """Which board (or run) this share was played on: 0 the first, 1 the second (a
    double board, R-20.5, or the second run, R-20.1). With one board always 0."""


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenersShown(Event):
    """R-12.2: the opener proves he had openers, even when nobody called."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclarationCommitted(Event):
    """R-13.2: private to the declarer: his own choice, confirmed and final."""

    player: int
    choice: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclarationCount(Event):
    """R-13.2: all anyone else learns before the reveal: how many fists are closed
    (``what="guts"``: how many players have made their in/out call, R-15.2)."""

    committed: int
    total: int
    what: Literal["declare", "guts"] = "declare"


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclarationMade(Event):
    """R-13.3: a public declaration in turn (or a fold on the clock)."""

    player: int
    choice: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclarationsRevealed(Event):
    """R-13.2: every fist opens at once."""

    choices: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareResolved(Event):
    """R-13.4–R-13.9: every step of the resolution as a message (``messages``, players
    by position)."""

    carried: int
    messages: tuple[Msg, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GutsCallCommitted(Event):
    """Private to the player: his own in/out, confirmed and final."""

    player: int
    stay: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GutsCallMade(Event):
    """Sequential Guts: a public in/out, in turn from the dealer's left."""

    player: int
    stay: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GutsCallsRevealed(Event):
    """Simultaneous Guts: every player's in/out, opened together."""

    calls: tuple[tuple[int, bool], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PotSystemSettled(Event):
    """Two to win or Guts: what moved and what waits for the next deal, as messages
    (``messages``, players by position)."""

    carried: int
    messages: tuple[Msg, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsAdded(Event):
    """R-2.4 open stakes: a player bought chips during the hand."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BombPotStarted(Event):
    """R-20.4: this hand is a bomb pot: everyone antes, no pre-flop betting."""

    ante: int
    double_board: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SecondBoardDealt(Event):
    """Cards of the second board: a double board's (R-20.5) or the second run's
    (R-20.1). ``BoardDealt`` carries the first board only."""

    cards: tuple[Card, ...]
    street: str
    why: Literal["double_board", "run_twice"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RunItTwiceOffered(Event):
    """R-20.1: everyone left is all in before the river; these players answer."""

    players: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RunItTwiceAnswered(Event):
    """R-20.1: private to the player: his own answer, confirmed and final."""

    player: int
    agree: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RunItTwiceCount(Event):
    """R-20.1: all anyone else learns before every answer is in: how many answered."""

    answered: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RunItTwiceDecided(Event):
    """R-20.1: every answer, opened together, and whether the board runs twice."""

    answers: tuple[tuple[int, bool], ...]
    twice: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsShownByChoice(Event):
    """R-20.8: a player shows cards after the hand by choice (all, or one)."""

    player: int
    cards: tuple[Card, ...]
    won: bool
    """True for the winner of an uncontested pot, False for a hand that was mucked."""


@dataclass(frozen=True, slots=True)
class BountyPayment:
    payer: int
    winner: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SevenDeuceBounty(Event):
    """R-20.6, R-20.7: the 7-2 bounty, paid after the hand, and the stacks after it."""

    winners: tuple[int, ...]
    bounty: int
    payments: tuple[BountyPayment, ...]
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RabbitHunted(Event):
    """R-20.9: the cards that would have come, shown after the hand; never played."""

    cards: tuple[Card, ...]
    second: tuple[Card, ...] = ()
    """The second board's cards, on a double board (R-20.5)."""
    streets: tuple[str, ...] = ()
    played: Literal[False] = False


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded(Event):
    stacks: tuple[int, ...]
    net: tuple[int, ...]
    rake: int
    carried: int = 0
    reason: str = ""
    extra: dict[str, object] = field(default_factory=dict)


def _fast_init(cls: type) -> None:
    """Give a frozen, slotted event class a quicker ``__init__`` with the same signature.

    The dataclass-generated one stores each field through ``object.__setattr__`` (the
    way round its own frozen ``__setattr__``); this one calls each slot's descriptor
    directly, which is about a third faster. The engine builds some forty events per
    hand, so this is a measurable part of a hand's cost (``python -m bench engine``).
    Equality, hashing, ``repr`` and immutability stay the dataclass's own.
    """
    namespace: dict[str, object] = {"_MISSING": MISSING}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        name = f.name
        params = keyword if f.kw_only else positional
        if f.default is not MISSING:
            namespace[f"_d_{name}"] = f.default
            params.append(f"{name}=_d_{name}")
        elif f.default_factory is not MISSING:
            namespace[f"_f_{name}"] = f.default_factory
            params.append(f"{name}=_MISSING")
            body.append(f"    if {name} is _MISSING: {name} = _f_{name}()")
        else:
            params.append(name)
        namespace[f"_set_{name}"] = getattr(cls, name).__set__
        body.append(f"    _set_{name}(self, {name})")
    # Required keyword-only parameters may follow ones with defaults.
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__({signature}) -> None:\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)  # built only from this module's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]  # exec'd
    cls.__init__ = init  # type: ignore[misc]  # replacing __init__ is the point here


# The module's own names, not ``Event.__subclasses__()``: ``slots=True`` makes the
# dataclass decorator build a new class, and the discarded originals still show up there.
for _cls in list(globals().values()):
    if (
        isinstance(_cls, type)
        and _cls.__module__ == __name__
        and (_cls is Pot or _cls is BountyPayment or issubclass(_cls, Event))
    ):
        _fast_init(_cls)
