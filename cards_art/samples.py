"""Representative view-models: the golden-image states and the benchmark inputs.

Kept in the package (not the tests): the renderers build their shared palette from
them, and ``python -m tests.golden_make`` and ``python -m bench render`` draw exactly
what the golden tests compare.
"""

from __future__ import annotations

from bot.poker.messages import Msg, Number, msg
from cards_art.model import (
    ONLY_POT,
    RESERVE,
    Award,
    DeckStyle,
    Declaration,
    Fist,
    LedgerLine,
    LedgerView,
    Pot,
    PotView,
    Reading,
    RevealView,
    SeatView,
    Second,
    ShowdownView,
    ShownHand,
    Stakes,
    Structure,
    StudCard,
    TableView,
    Wild,
)
from cards_art.tourney_standings import Finisher, StandingsView
from cards_art.words import Text

LONG_AND_ODD_NAMES = (
    "Bartholomew Fitzgerald-Smythe III",
    "محمد الفارسي",
    "שרה כהן",
    "🃏JokerFan🎉",
    "Zoë Ångström",
    "🔥🔥🔥",
    "Алексей",
    "Ana",
    "O'Brien",
    "x" * 40,
)


def holdem(seats: int) -> TableView:
    """A hold'em hand on the flop with ``seats`` seats, everything on show."""
    names = ("Alice", "Bob", "Carol", "Dmitri", "Eve", "Farah", "Gus", "Hana", "Ivo", "Jules")
    out = []
    for i in range(seats):
        seat = i + 1
        out.append(
            SeatView(
                seat=seat,
                name=names[i],
                stack=1000 + 137 * i,
                hidden_cards=2,
            )
        )
    # A story: button, blinds, one fold, one all-in, the player to act on the clock.
    out[0] = SeatView(seat=1, name=names[0], stack=1480, bet=40, hidden_cards=2, action="bet 40")
    out[1] = SeatView(seat=2, name=names[1], stack=0, bet=220, all_in=True, hidden_cards=2)
    if seats > 2:
        out[2] = SeatView(seat=3, name=names[2], stack=2210, folded=True, action="fold")
        out[-1] = SeatView(
            seat=seats,
            name=names[seats - 1],
            stack=12_500,
            is_to_act=True,
            clock=23,
            hidden_cards=2,
            is_button=seats == 3,
        )
    else:
        out[1] = SeatView(seat=2, name=names[1], stack=960, is_to_act=True, clock=8, hidden_cards=2)
    button = min(3, seats - 1)
    if seats > 3:
        b = out[button]
        out[button] = SeatView(
            seat=b.seat, name=b.name, stack=b.stack, is_button=True, hidden_cards=2
        )
    if seats >= 6:
        out[4] = SeatView(seat=5, name=names[4], empty=True)
        out[5] = SeatView(seat=6, name=names[5], stack=800, sitting_out=True)
    pots: tuple[PotView, ...] = (PotView(Pot.main(), 660), PotView(Pot.side(1), 180))
    if seats <= 2:
        pots = (PotView(ONLY_POT, 40),)
    return TableView(
        variant="Texas Hold'em",
        stakes=Stakes(Structure.NO_LIMIT, blinds=(10, 20)),
        seats=tuple(out),
        board=("Ah", "Kd", "7c"),
        pots=pots,
        hand_number=1024,
        street="Flop",
    )


WORLD_NAMES = ("Jürgen Groß", "Zoë", "Алексей", "李小龍🂡", "François", "Sofía Muñoz")
"""Accents, Cyrillic and a name in a script the fonts lack (it falls back to its seat)."""


def holdem_words(variant: Text, street: Text) -> TableView:
    """Six seats on the flop with every word as data (stakes, pots, badges), so the
    picture is drawn wholly in the language asked for; the game's name and the street
    are the caller's words."""
    n = WORLD_NAMES
    seats = (
        SeatView(seat=1, name=n[0], stack=1480, bet=40, hidden_cards=2, is_button=True),
        SeatView(seat=2, name=n[1], stack=0, bet=220, all_in=True, hidden_cards=2),
        SeatView(seat=3, name=n[2], stack=2210, folded=True),
        SeatView(seat=4, name=n[3], stack=12_500, hidden_cards=2, is_to_act=True, clock=23),
        SeatView(seat=5, name=n[4], stack=800, sitting_out=True),
        SeatView(seat=6, empty=True),
    )
    return TableView(
        variant=variant,
        stakes=Stakes(Structure.NO_LIMIT, blinds=(10, 20), ante=2),
        seats=seats,
        board=("Ah", "Kd", "7c"),
        pots=(PotView(Pot.main(), 12_480), PotView(Pot.side(1), 1_800)),
        hand_number=1024,
        street=street,
    )


def holdem_odd_names() -> TableView:
    """Ten seats of long, emoji and right-to-left names, the turn dealt."""
    seats = tuple(
        SeatView(
            seat=i + 1,
            name=name,
            stack=987_654 if i == 0 else 25 * (i + 1),
            bet=1_250_000 if i == 4 else 0,
            hidden_cards=2,
            is_button=i == 9,
            is_to_act=i == 2,
            clock=5 if i == 2 else None,
            action="raise 1,250,000" if i == 4 else "",
        )
        for i, name in enumerate(LONG_AND_ODD_NAMES)
    )
    return TableView(
        variant="Texas Hold'em with a very long variant name indeed",
        stakes=Stakes(Structure.POT_LIMIT, blinds=(5_000, 10_000)),
        seats=seats,
        board=("Ts", "9h", "2d", "Qc"),
        pots=(PotView(Pot.main(), 2_500_000),),
        street="Turn",
    )


def stud7() -> TableView:
    """Seven-card stud, fifth street, seven players; the viewer (seat 1) sees his
    own down cards marked as hidden from the others."""

    def up(*cards: str) -> tuple[StudCard, ...]:
        return tuple(StudCard(c[:2], down=c.endswith("!")) for c in cards)

    rows = (
        ("Alice", up("Qs!", "4h!", "Qd", "9c", "Jh"), 0, False),
        ("Bob", up("??!", "??!", "Kd", "Kh", "2s"), 60, False),
        ("Carol", up("??!", "??!", "3c", "8d", "Td"), 0, False),
        ("Dmitri", up("??!", "??!", "As", "5s", "6s"), 0, False),
        ("Eve", up("??!", "??!", "7h"), 0, True),
        ("Farah", up("??!", "??!", "2c", "Jc", "4d"), 60, False),
        ("Gus", up("??!", "??!", "Ac", "9h", "8s"), 0, False),
    )
    seats = tuple(
        SeatView(
            seat=i + 1,
            name=name,
            stack=600 + 45 * i,
            bet=bet,
            up_cards=cards if not folded else (),
            folded=folded,
            is_to_act=i == 6,
            clock=31 if i == 6 else None,
        )
        for i, (name, cards, bet, folded) in enumerate(rows)
    )
    return TableView(
        variant="Seven-card stud",
        stakes=Stakes(Structure.FIXED, bets=(20, 40), ante=5, bring_in=5),
        seats=seats,
        pots=(PotView(ONLY_POT, 430),),
        hand_number=77,
        street="Fifth street",
    )


def draw5() -> TableView:
    """Five-card draw after the draw, four-colour deck, deuces and the joker wild."""
    seats = (
        SeatView(seat=1, name="Alice", stack=310, hidden_cards=5, drawn=1, bet=40),
        SeatView(seat=2, name="Bob", stack=275, hidden_cards=5, drawn=3, is_to_act=True, clock=17),
        SeatView(seat=3, name="Carol", stack=500, hidden_cards=5, drawn=0, is_button=True),
        SeatView(seat=4, name="Dmitri", stack=120, folded=True),
        SeatView(seat=5, name="Eve", stack=0, hidden_cards=5, drawn=2, all_in=True, bet=35),
    )
    return TableView(
        variant="Five-card draw",
        stakes=Stakes(Structure.POT_LIMIT, ante=5),
        seats=seats,
        pots=(PotView(Pot.main(), 175), PotView(Pot.side(1), 20)),
        deck=DeckStyle.FOUR_COLOUR,
        wild=Wild(ranks=("2",), cards=("Xx",)),
        hand_number=3,
        street="After the draw",
    )


def showdown_split() -> ShowdownView:
    """Omaha hi-lo: a scoop of the side pot, the main pot split high/low."""
    board = ("Ah", "5d", "8c", "Ks", "4h")
    return ShowdownView(
        variant="Omaha Hi-Lo 8 or better",
        stakes=Stakes(Structure.POT_LIMIT, blinds=(10, 20)),
        board=board,
        hands=(
            ShownHand(
                seat=1,
                name="Alice",
                cards=("Kd", "Kh", "Qs", "Jc"),
                readings=(Reading("Three kings", ("Kd", "Kh", "Ks", "Ah", "8c"), "high"),),
            ),
            ShownHand(
                seat=4,
                name="Dmitri",
                cards=("2s", "3c", "9d", "9h"),
                readings=(
                    Reading("Five high straight", ("2s", "3c", "Ah", "5d", "4h"), "high"),
                    Reading("5-4-3-2-A low", ("2s", "3c", "Ah", "5d", "4h"), "low"),
                ),
            ),
            ShownHand(
                seat=6,
                name="محمد الفارسي",
                cards=("2h", "7d", "Qh", "Jh"),
                readings=(
                    Reading("Ace-king high", ("Qh", "Jh", "Ah", "Ks", "8c"), "high"),
                    Reading("8-7-5-2-A low", ("2h", "7d", "Ah", "5d", "8c"), "low"),
                ),
            ),
        ),
        awards=(
            Award(Pot.side(1), 4, 220),
            Award(Pot.main(), 4, 300, "high"),
            Award(Pot.main(), 4, 150, "low"),
            Award(Pot.main(), 6, 150, "low"),
        ),
    )


def showdown_holdem() -> ShowdownView:
    """Hold'em, a full house beats a flush."""
    return ShowdownView(
        variant="Texas Hold'em",
        stakes=Stakes(Structure.NO_LIMIT, blinds=(10, 20)),
        board=("Kc", "7h", "Ks", "2h", "9h"),
        hands=(
            ShownHand(
                seat=2,
                name="Bob",
                cards=("Kh", "7s"),
                readings=(Reading("Kings full of sevens", ("Kh", "Kc", "Ks", "7s", "7h")),),
            ),
            ShownHand(
                seat=5,
                name="Eve",
                cards=("Ah", "Th"),
                readings=(Reading("Ace high flush", ("Ah", "Th", "9h", "7h", "2h")),),
            ),
        ),
        awards=(Award(ONLY_POT, 2, 1_240),),
    )


def showdown_run_twice() -> ShowdownView:
    """Hold'em run twice from the flop (R-20.2): aces hold on the first run, kings and
    queens get there on the second; the pot of 401 split 201/200, the odd chip to the
    first run."""
    return ShowdownView(
        variant="Texas Hold'em",
        stakes=Stakes(Structure.NO_LIMIT, blinds=(1, 2)),
        board=("Kc", "7h", "2d", "5s", "9h"),
        second=("Kc", "7h", "2d", "Qc", "3s"),
        second_kind=Second.RUN,
        hands=(
            ShownHand(
                seat=1,
                name="Alice",
                cards=("As", "Ah"),
                readings=(Reading("Pair of aces", ("As", "Ah", "Kc", "9h", "7h")),),
                second_readings=(Reading("Pair of aces", ("As", "Ah", "Kc", "Qc", "7h")),),
            ),
            ShownHand(
                seat=4,
                name="Bob",
                cards=("Kd", "Qd"),
                readings=(Reading("Pair of kings", ("Kd", "Kc", "Qd", "9h", "7h")),),
                second_readings=(
                    Reading("Two pair, kings and queens", ("Kd", "Kc", "Qd", "Qc", "7h")),
                ),
            ),
        ),
        awards=(Award(ONLY_POT, 1, 201), Award(ONLY_POT, 4, 200, board=1)),
    )


def showdown_double_board() -> ShowdownView:
    """A bomb pot on a double board (R-20.5): three hands, each read on both boards;
    the pot of 75 split 38/37, the odd chip to the first board."""
    return ShowdownView(
        variant="Texas Hold'em",
        stakes=Stakes(Structure.NO_LIMIT, blinds=(10, 20)),
        board=("Ah", "Td", "6c", "6s", "2h"),
        second=("9s", "8s", "3d", "Kh", "4s"),
        second_kind=Second.BOARD,
        hands=(
            ShownHand(
                seat=2,
                name="Carol",
                cards=("Th", "Tc"),
                readings=(Reading("Tens full of sixes", ("Th", "Tc", "Td", "6c", "6s")),),
                second_readings=(Reading("Pair of tens", ("Th", "Tc", "Kh", "9s", "8s")),),
            ),
            ShownHand(
                seat=3,
                name="Dan",
                cards=("7s", "5s"),
                readings=(Reading("Pair of sixes", ("6c", "6s", "Ah", "Td", "7s")),),
                second_readings=(Reading("Nine-high flush", ("9s", "8s", "7s", "5s", "4s")),),
            ),
            ShownHand(
                seat=5,
                name="Eve",
                cards=("Ad", "Kd"),
                readings=(Reading("Two pair, aces and sixes", ("Ad", "Ah", "6c", "6s", "Kd")),),
                second_readings=(Reading("Pair of kings", ("Kd", "Kh", "Ad", "9s", "8s")),),
            ),
        ),
        awards=(Award(ONLY_POT, 2, 38), Award(ONLY_POT, 3, 37, board=1)),
    )


def _legs(legs: int, need: int) -> Msg:
    """A Guts seat's legs (R-15.3), as the presenter passes them."""
    return msg("art.tag.legs_of", legs=Number(legs), need=Number(need))


def guts_legs() -> TableView:
    """Guts with legs and a maximum pot: legs held beside the stacks, the reserve apart
    from the pot (R-15.3), a Joker-wild declare game named in the corner."""
    seats = (
        SeatView(seat=1, name="Alice", stack=190, hidden_cards=3, tags=(_legs(2, 3),)),
        SeatView(seat=2, name="Bob", stack=205, hidden_cards=3, is_button=True),
        SeatView(seat=3, name="Carol", stack=150, hidden_cards=3, tags=(_legs(1, 3),)),
        SeatView(seat=4, name="Dmitri", stack=310, hidden_cards=3, tags=(Msg("art.tag.marker"),)),
    )
    return TableView(
        variant="Three-card guts declare",
        stakes=Stakes(stake=5, max_pot=40),
        seats=seats,
        pots=(PotView(Pot.main(), 40), PotView(RESERVE, 15)),
        hand_number=12,
        street="In or out",
        declare=True,
    )


def showdown_declare() -> ShowdownView:
    """Stud hi-lo declare: each hand framed only for the half it declared (R-13.2)."""
    return ShowdownView(
        variant="Seven-card stud hi-lo declare",
        stakes=Stakes(Structure.FIXED, bets=(2, 4), bring_in=1, ante=1),
        hands=(
            ShownHand(
                seat=1,
                name="Alice",
                cards=("Qh", "Qs", "9c", "9d", "5c", "5d", "2d"),
                readings=(
                    Reading("Two pair, queens and nines", ("Qs", "Qh", "9d", "9c", "5c"), "high"),
                ),
                declared=Declaration.HIGH,
            ),
            ShownHand(
                seat=2,
                name="Bob",
                cards=("Ah", "2h", "3h", "4h", "5h", "Kc", "Kd"),
                readings=(
                    Reading("Five-high straight flush", ("5h", "4h", "3h", "2h", "Ah"), "high"),
                    Reading("5-4-3-2-A low", ("5h", "4h", "3h", "2h", "Ah"), "low"),
                ),
                declared=Declaration.BOTH,
            ),
            ShownHand(
                seat=3,
                name="Carol",
                cards=("Ac", "2c", "4s", "3d", "8s", "6s", "7c"),
                readings=(Reading("6-4-3-2-A low", ("6s", "4s", "3d", "2c", "Ac"), "low"),),
                declared=Declaration.LOW,
            ),
        ),
        awards=(Award(Pot.main(), 2, 60, "high"), Award(Pot.main(), 2, 60, "low")),
    )


def reveal() -> RevealView:
    return RevealView(
        fists=(
            Fist(1, "Alice", 0),
            Fist(2, "Bob", 1),
            Fist(3, "Carol", 2),
            Fist(4, "שרה כהן", 1),
            Fist(5, "Bartholomew Fitzgerald-Smythe III", 0, timed_out=True),
        ),
        variant="Seven-card stud hi-lo declare",
        pot=840,
    )


def ledger() -> LedgerView:
    return LedgerView(
        lines=(
            LedgerLine("Alice", 1_840),
            LedgerLine("Bob", -620),
            LedgerLine("Carol", 75),
            LedgerLine("محمد الفارسي", -1_295),
            LedgerLine("🃏JokerFan🎉", 0),
        ),
        subtitle="Tuesday night · 214 hands",
    )


HOLE_HOLDEM = ("As", "Kh")
HOLE_OMAHA = ("Td", "Jd", "Qc", "2h")


def standings() -> StandingsView:
    """A nine-entry freezeout's final standings: a shared place, bounties, a name the
    fonts cannot draw (drawn as "Player"), accents and Cyrillic."""
    import datetime

    return StandingsView(
        name="Friday Night Freezeout",
        day=datetime.date(2026, 11, 27),
        entries=9,
        pool=900,
        finishers=(
            Finisher(1, 1, "Zoë Ångström", 450, 40),
            Finisher(2, 2, "Алексей", 270, 10),
            Finisher(3, 3, "O'Brien", 180, 20),
            Finisher(4, 5, "李小龍", 0, 10),
            Finisher(4, 5, "José Núñez", 0),
            Finisher(6, 6, "Bartholomew Fitzgerald-Smythe III", 0),
            Finisher(7, 7, "Ana", 0),
            Finisher(8, 8, "Grégoire", 0),
            Finisher(9, 9, "Hannah", 0),
        ),
    )
