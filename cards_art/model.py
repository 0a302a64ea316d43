"""View-models for the picture renderers: plain frozen dataclasses, no behaviour.

The table service fills these from the engine's public state; `cards_art` turns them into
images. Nothing here knows about discord, the bot or the engine, so the renderers can be
tested (and benchmarked) on hand-written views.

Cards are 2-character strings: rank from ``23456789TJQKA`` and suit from ``cdhs``
(``"As"``, ``"Td"``); ``"??"`` is a face-down or unknown card and ``"Xx"`` a joker.
Amounts are integer chips. Validation happens in ``__post_init__`` so a bad view fails
where it is built, not deep inside a render call in a worker thread.

Words are given as data, never as sentences to be read back: pots by kind and number
(:class:`Pot`), stakes by structure and amounts (:class:`Stakes`), declarations and
halves by value. Words the caller names (a game, a hand, a street, a last action) are a
:data:`~cards_art.words.Text`: a message the picture says in its language, or a ``str``
drawn as it is (names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.poker.messages import Msg, Number
from cards_art.words import Text

RANKS = "23456789TJQKA"
SUITS = "cdhs"
BACK = "??"
JOKER = "Xx"
MIN_SEATS = 2
MAX_SEATS = 10


class DeckStyle(StrEnum):
    """Colouring of suits: the classic red/black deck or the four-colour deck."""

    TWO_COLOUR = "two_colour"
    FOUR_COLOUR = "four_colour"


class Declaration(StrEnum):
    """Chip-fist declaration (R-13.2): 0 chips low, 1 high, 2 both."""

    LOW = "low"
    HIGH = "high"
    BOTH = "both"


class PotKind(StrEnum):
    """Which pot a label or an award names."""

    POT = "pot"  # the only pot
    MAIN = "main"
    SIDE = "side"  # side pot ``number`` (1, 2, ...)
    RESERVE = "reserve"  # Guts maximum pot: chips waiting above the cap


@dataclass(frozen=True)
class Pot:
    """A pot by kind and number; the picture names it in its language."""

    kind: PotKind = PotKind.POT
    number: int = 0

    def __post_init__(self) -> None:
        if (self.kind is PotKind.SIDE) != (self.number >= 1):
            raise ValueError(f"only a side pot has a number (from 1): {self.kind} {self.number}")

    @property
    def order(self) -> tuple[int, int]:
        """As a reader looks for them: the only or main pot, side pots by number, the
        reserve (the engine awards the last side pot first, R-8.3)."""
        return ({PotKind.SIDE: 1, PotKind.RESERVE: 2}.get(self.kind, 0), self.number)

    @classmethod
    def main(cls) -> Pot:
        return cls(PotKind.MAIN)

    @classmethod
    def side(cls, number: int) -> Pot:
        return cls(PotKind.SIDE, number)

    @classmethod
    def index(cls, i: int) -> Pot:
        """The engine's pot index: 0 the main pot, ``i`` side pot ``i``."""
        return cls.side(i) if i else cls.main()


ONLY_POT = Pot()
RESERVE = Pot(PotKind.RESERVE)


class Structure(StrEnum):
    """The betting structure, as the table settings name it."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    HALF_POT = "half_pot"
    FIXED = "fixed"
    SPREAD = "spread"


@dataclass(frozen=True)
class Stakes:
    """The stakes as data (the picture writes the line in its language): the structure
    (None for a game without betting rounds, Guts) and the amounts that apply."""

    structure: Structure | None = None
    blinds: tuple[int, int] | None = None  # small/big blind
    bets: tuple[int, int] | None = None  # fixed and spread limit: small/big bet
    bring_in: int | None = None
    ante: int | None = None
    stake: int | None = None  # Guts
    max_pot: int | None = None  # Guts maximum pot
    ante_mode: str = "each"
    """Who pays the ante (R-3.1): ``each`` player, or one for the table, the ``button``
    or the ``big_blind`` (said as the hand's head says it, R-19.93)."""


def is_card(card: str) -> bool:
    """True for a real card, the joker or the face-down marker."""
    if card in (BACK, JOKER):
        return True
    return len(card) == 2 and card[0] in RANKS and card[1] in SUITS


def _check_cards(cards: tuple[str, ...], what: str) -> None:
    for card in cards:
        if not is_card(card):
            raise ValueError(f"{what}: not a card: {card!r}")


def _check_amount(amount: int, what: str) -> None:
    if amount < 0:
        raise ValueError(f"{what} must not be negative: {amount}")


@dataclass(frozen=True)
class Wild:
    """Which cards are wild this hand (R-10.7): whole ranks ("2") and/or exact cards."""

    ranks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for rank in self.ranks:
            if len(rank) != 1 or rank not in RANKS:
                raise ValueError(f"wild rank must be one of {RANKS}: {rank!r}")
        _check_cards(self.cards, "wild cards")

    def is_wild(self, card: str) -> bool:
        """A joker is always marked wild; otherwise by rank or exact card."""
        if card == JOKER:
            return True
        if card == BACK:
            return False
        return card[0] in self.ranks or card in self.cards


NO_WILD = Wild()


@dataclass(frozen=True)
class StudCard:
    """One card in front of a stud seat.

    ``down`` marks a card dealt face down. A down card whose face is known (the viewer
    owns it, the view is private) is drawn face up with a "hidden from others" mark; a
    down card shown as ``"??"`` is drawn as a back.
    """

    card: str
    down: bool = False

    def __post_init__(self) -> None:
        _check_cards((self.card,), "stud card")


@dataclass(frozen=True)
class SeatView:
    """One seat around the table, as everybody (or the viewer) may see it."""

    seat: int
    name: str = ""
    stack: int = 0
    bet: int = 0
    folded: bool = False
    all_in: bool = False
    sitting_out: bool = False
    empty: bool = False
    is_button: bool = False
    is_to_act: bool = False
    clock: int | None = None  # seconds left for the player to act; shown when to act
    up_cards: tuple[StudCard, ...] = ()  # stud: cards in front of the seat, in deal order
    hidden_cards: int = 0  # hole cards drawn as backs (hold'em, Omaha, draw)
    drawn: int | None = None  # draw games: cards drawn in the last draw (0 = stood pat)
    action: Text = ""  # last action, e.g. "raise 40", shown small under the stack
    tags: tuple[Text, ...] = ()  # live pot-system marks, e.g. "marker", "legs 1/3" (§15)

    def __post_init__(self) -> None:
        if self.seat < 1:
            raise ValueError(f"seat numbers start at 1: {self.seat}")
        _check_amount(self.stack, "stack")
        _check_amount(self.bet, "bet")
        if self.hidden_cards < 0 or self.hidden_cards > 7:
            raise ValueError(f"hidden_cards must be 0..7: {self.hidden_cards}")
        if len(self.up_cards) > 8:
            raise ValueError("at most 8 stud cards per seat")
        if self.drawn is not None and not 0 <= self.drawn <= 7:
            raise ValueError(f"drawn must be 0..7: {self.drawn}")
        if self.clock is not None and self.clock < 0:
            raise ValueError(f"clock must not be negative: {self.clock}")
        if len(self.tags) > 2:
            raise ValueError("at most 2 tags per seat")


@dataclass(frozen=True)
class PotView:
    """A pot in the middle: which one (main, side 1, ...) and its chips."""

    pot: Pot
    amount: int

    def __post_init__(self) -> None:
        _check_amount(self.amount, "pot")


@dataclass(frozen=True)
class TableView:
    """Everything the table picture shows. ``seats`` lists every seat of the table
    (2-10), empty ones flagged ``empty``; they are placed clockwise from the bottom."""

    variant: Text
    stakes: Stakes | Text
    seats: tuple[SeatView, ...]
    board: tuple[str, ...] = ()
    pots: tuple[PotView, ...] = ()
    deck: DeckStyle = DeckStyle.TWO_COLOUR
    wild: Wild = NO_WILD
    hand_number: int | Number | Msg | None = None
    """The hand as the table says it (``bot.table.handlabel.hand_label``: the number, or
    the number and the channel's table after its first, R-20.90); an ``int`` is the
    bare number."""
    street: Text = ""  # e.g. "Flop", "Second draw", "Fifth street"
    declare: bool = False  # a hi-lo declare game: said in the corner

    def __post_init__(self) -> None:
        if not MIN_SEATS <= len(self.seats) <= MAX_SEATS:
            raise ValueError(f"a table has {MIN_SEATS}-{MAX_SEATS} seats: {len(self.seats)}")
        if len(self.board) > 5:
            raise ValueError("at most 5 board cards")
        _check_cards(self.board, "board")
        if sum(1 for s in self.seats if s.is_to_act) > 1:
            raise ValueError("at most one seat is to act")


@dataclass(frozen=True)
class Reading:
    """How a shown hand plays for one half: ``kind`` "high" or "low" (or "" for a
    plain high game), the hand's name and the five used cards (own or board)."""

    name: Text
    used: tuple[str, ...] = ()
    kind: str = ""

    def __post_init__(self) -> None:
        _check_cards(self.used, "used cards")
        if self.kind not in ("", "high", "low"):
            raise ValueError(f"kind must be '', 'high' or 'low': {self.kind!r}")


@dataclass(frozen=True)
class ShownHand:
    """A hand tabled at showdown: the player's own cards and its reading(s);
    ``second_readings``: how it plays on the second board or run, when there is one."""

    seat: int
    name: str
    cards: tuple[str, ...]
    readings: tuple[Reading, ...] = ()
    declared: Declaration | None = None
    second_readings: tuple[Reading, ...] = ()

    def __post_init__(self) -> None:
        _check_cards(self.cards, "shown cards")
        if len(self.cards) > 8:
            raise ValueError("at most 8 cards in a shown hand")


@dataclass(frozen=True)
class Award:
    """Who won what: ``half`` is "", "high" or "low" (split pots, R-11.3); ``board`` 0
    the first board (or run), 1 the second (R-20.2, R-20.5)."""

    pot: Pot
    seat: int
    amount: int
    half: str = ""
    board: int = 0

    def __post_init__(self) -> None:
        _check_amount(self.amount, "award")
        if self.half not in ("", "high", "low"):
            raise ValueError(f"half must be '', 'high' or 'low': {self.half!r}")
        if self.board not in (0, 1):
            raise ValueError(f"board must be 0 or 1: {self.board}")


class Second(StrEnum):
    """What a showdown's second board is: the second run of the board (run it twice,
    R-20.2) or the second board of a double board (R-20.5)."""

    RUN = "run"
    BOARD = "board"


@dataclass(frozen=True)
class ShowdownView:
    """The showdown picture: board (if any), every shown hand and the awards."""

    variant: Text
    stakes: Stakes | Text
    hands: tuple[ShownHand, ...]
    board: tuple[str, ...] = ()
    awards: tuple[Award, ...] = ()
    deck: DeckStyle = DeckStyle.TWO_COLOUR
    wild: Wild = NO_WILD
    names: tuple[tuple[int, str], ...] = ()  # seat -> name for winners who did not show
    second: tuple[str, ...] = ()
    """The second board or run, whole (a run's shared cards included); () for one."""
    second_kind: Second = Second.BOARD

    def __post_init__(self) -> None:
        if len(self.hands) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} shown hands")
        if len(self.board) > 5 or len(self.second) > 5:
            raise ValueError("at most 5 board cards")
        _check_cards(self.board, "board")
        _check_cards(self.second, "second board")
        if not self.second and any(a.board for a in self.awards):
            raise ValueError("an award on the second board needs a second board")


@dataclass(frozen=True)
class Fist:
    """One player's opened fist in a chip-fist declaration (R-13.2)."""

    seat: int
    name: str
    chips: int  # 0 low, 1 high, 2 both
    timed_out: bool = False  # did not commit in time (folded or defaulted, per options)

    def __post_init__(self) -> None:
        if self.chips not in (0, 1, 2):
            raise ValueError(f"a fist holds 0, 1 or 2 chips: {self.chips}")

    @property
    def declaration(self) -> Declaration:
        return (Declaration.LOW, Declaration.HIGH, Declaration.BOTH)[self.chips]


@dataclass(frozen=True)
class RevealView:
    """All fists opening at once."""

    fists: tuple[Fist, ...]
    variant: Text = ""
    pot: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= len(self.fists) <= MAX_SEATS:
            raise ValueError(f"a reveal has 1-{MAX_SEATS} fists: {len(self.fists)}")


@dataclass(frozen=True)
class LedgerLine:
    """One player's net result over the session (chips, may be negative)."""

    name: str
    net: int


LEDGER_TITLE = Msg("art.ledger.title")


@dataclass(frozen=True)
class LedgerView:
    """The `/ledger` session chart."""

    lines: tuple[LedgerLine, ...]
    title: Text = LEDGER_TITLE
    subtitle: Text = ""
    extra: tuple[Text, ...] = field(default=())  # footnotes, e.g. "rake 12"

    def __post_init__(self) -> None:
        if len(self.lines) > 20:
            raise ValueError("at most 20 ledger lines")


@dataclass(frozen=True)
class StoryLine:
    """One player's stack after each hand of a session (None: not dealt in that hand)."""

    name: str
    stacks: tuple[int | None, ...]


STORY_TITLE = Msg("record.story.title")


@dataclass(frozen=True)
class StoryView:
    """The session's story: each player's stack over the session's hands (``/ledger
    story``). ``hands``: the hands' numbers, one per point."""

    hands: tuple[int, ...]
    lines: tuple[StoryLine, ...]
    title: Text = STORY_TITLE

    def __post_init__(self) -> None:
        if len(self.lines) > 20:
            raise ValueError("at most 20 story lines")
        if any(len(line.stacks) != len(self.hands) for line in self.lines):
            raise ValueError("a story line has one point per hand")
