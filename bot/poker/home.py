"""Home-game options settled after a hand (§20): the 7-2 bounty and the rabbit hunt, and
the words of the home-game events.

Pure functions of a finished :class:`~bot.poker.hand.Hand`: they read it and return an
event, and never change it. A refusal raises :class:`~bot.poker.errors.OptionRefused`
with the reason as a message (``home.refuse.*``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.poker.cards import Card
from bot.poker.errors import OptionRefused
from bot.poker.events import (
    BombPotStarted,
    BountyPayment,
    CardsShownByChoice,
    Event,
    PotAwarded,
    RabbitHunted,
    RunItTwiceAnswered,
    RunItTwiceCount,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    SevenDeuceBounty,
)
from bot.poker.hand import Hand
from bot.poker.messages import (
    Cards,
    Chips,
    Count,
    Listing,
    Msg,
    Number,
    Param,
    Player,
    Rule,
    msg,
    names,
)
from bot.poker.pots import split
from bot.poker.rules import community_game
from bot.poker.variants import street_title


@dataclass(frozen=True, slots=True)
class SevenDeuce:
    """R-20.6: the 7-2 game's settings: the bounty each other player pays, and whether a
    suited 7-2 counts too."""

    bounty: int
    suited: bool = False


def is_seven_deuce(cards: tuple[Card, ...] | list[Card], *, suited: bool) -> bool:
    """Two cards, a seven and a deuce; suited ones only when ``suited`` says so."""
    if len(cards) != 2 or sorted(c[0] for c in cards) != ["2", "7"]:
        return False
    return suited or cards[0][1] != cards[1][1]


def _showed_all(hand: Hand, i: int) -> bool:
    """Whether the table saw every card of the hand (at the showdown or by choice)."""
    by_choice = hand.shown_by_choice.get(i, ())
    return hand.shown[i] or (bool(by_choice) and set(by_choice) == set(hand.hole[i]))


def seven_deuce(hand: Hand, game: SevenDeuce) -> SevenDeuceBounty | None:
    """R-20.6, R-20.7: the bounty owed to whoever won a pot (any share of one, on either
    board or run) with 7-2 and showed it; None when nobody did.

    Every other player dealt in pays each such winner ``game.bounty``, up to what he has
    left after the hand (an all-in player pays what remains, perhaps nothing). A payer
    short of paying every winner in full splits what he has among them as a pot is split
    (R-11.2). Chips only move between players: the total is unchanged."""
    if not hand.over:
        raise OptionRefused(msg("home.refuse.not_over", rule=Rule("R-20.6")))
    if game.bounty <= 0:
        raise OptionRefused(msg("home.refuse.bounty", rule=Rule("R-20.6")))
    won = {
        w
        for e in hand.events
        if isinstance(e, PotAwarded)
        for w, a in zip(e.winners, e.amounts, strict=True)
        if a > 0
    }
    winners = tuple(
        sorted(
            w
            for w in won
            if is_seven_deuce(hand.hole[w], suited=game.suited) and _showed_all(hand, w)
        )
    )
    if not winners:
        return None
    stacks = list(hand.stacks)
    payments: list[BountyPayment] = []
    for payer in range(hand.n):
        if payer in winners:
            continue
        owed = game.bounty * len(winners)
        pay = min(owed, stacks[payer])
        shares = (
            [game.bounty] * len(winners)
            if pay == owed
            else split(pay, winners, list(range(hand.n)))
        )
        for winner, amount in zip(winners, shares, strict=True):
            if amount <= 0:
                continue
            stacks[payer] -= amount
            stacks[winner] += amount
            payments.append(BountyPayment(payer=payer, winner=winner, amount=amount))
    assert sum(stacks) == sum(hand.stacks), "R-2.5: the bounty creates no chip"
    assert all(s >= 0 for s in stacks)
    return SevenDeuceBounty(
        winners=winners, bounty=game.bounty, payments=tuple(payments), stacks=tuple(stacks)
    )


def rabbit_hunt(hand: Hand) -> RabbitHunted:
    """R-20.9: the board cards that would have come after a hand ended before its board
    was complete: the next cards of the deck in order, each street after its burn when
    the table burns, as the deal would have dealt them (both boards on a double board).
    Never a card dealt to anyone: the hunt starts after the last card dealt."""
    if not hand.over or hand.result is None:
        raise OptionRefused(msg("home.refuse.not_over", rule=Rule("R-20.9")))
    if not community_game(hand.variant):
        raise OptionRefused(msg("home.refuse.rabbit_game", game=hand.variant.title))
    if hand.result.reason != "uncontested":
        raise OptionRefused(msg("home.refuse.rabbit_showdown", rule=Rule("R-20.9")))
    rest = hand.variant.streets[max(hand.street_index, 0) + 1 :]
    if not rest:
        raise OptionRefused(msg("home.refuse.rabbit_nothing", rule=Rule("R-20.9")))
    deck = hand.deck
    pos = hand.deck_pos
    dealt = set(hand.dealt)
    first: list[Card] = []
    second: list[Card] = []
    two = hand.board2 is not None and hand.rules.double_board
    for street in rest:
        for cards in (first, second) if two else (first,):
            if hand.rules.burn:
                pos += 1
            if pos + street.board > len(deck):
                raise OptionRefused(msg("home.refuse.rabbit_nothing", rule=Rule("R-20.9")))
            cards.extend(deck[pos : pos + street.board])
            pos += street.board
    assert not (set(first) | set(second)) & dealt, "R-20.9: never a card dealt"
    return RabbitHunted(
        cards=tuple(first), second=tuple(second), streets=tuple(s.name for s in rest)
    )


def said(event: Event, *, ran_twice: bool = False) -> Msg | None:
    """The home-game event in words, as a message (``home.*`` keys); None for events
    that are not the home game's. The private answer goes to its owner only (its
    ``audience``); the count says nothing of the answers (R-20.1). ``ran_twice`` names
    an award on the second board as the second run's (``Hand.ran_twice``)."""
    if isinstance(event, BombPotStarted):
        key = "home.bomb.double" if event.double_board else "home.bomb.started"
        return msg(key, ante=Chips(event.ante), rule=Rule("R-20.4"))
    if isinstance(event, SecondBoardDealt):
        key = "home.board2.run" if event.why == "run_twice" else "home.board2.board"
        return msg(key, street=street_title(event.street), cards=Cards(tuple(event.cards)))
    if isinstance(event, RunItTwiceOffered):
        return msg(
            "home.rit.offered",
            players=names([Player(p) for p in event.players]),
            rule=Rule("R-20.1"),
        )
    if isinstance(event, RunItTwiceAnswered):
        return msg("home.rit.you_agree" if event.agree else "home.rit.you_decline")
    if isinstance(event, RunItTwiceCount):
        return msg("home.rit.count", answered=Count(event.answered), total=Number(event.total))
    if isinstance(event, RunItTwiceDecided):
        said_no: list[Param] = [Player(p) for p, agree in event.answers if not agree]
        if event.twice or not said_no:
            return msg("home.rit.twice" if event.twice else "home.rit.once", rule=Rule("R-20.1"))
        # the answers are opened together; the noes (a silence counts as one).
        return msg("home.rit.once_no", no=names(said_no), rule=Rule("R-20.1"))
    if isinstance(event, CardsShownByChoice):
        return msg("home.show.shows", who=Player(event.player), cards=Cards(tuple(event.cards)))
    if isinstance(event, SevenDeuceBounty):
        parts = [
            msg(
                "home.seven_deuce.pays",
                payer=Player(p.payer),
                winner=Player(p.winner),
                amount=Chips(p.amount),
            )
            for p in event.payments
        ]
        return msg(
            "home.seven_deuce.won",
            count=Count(len(event.winners)),
            winners=names([Player(w) for w in event.winners]),
            bounty=Chips(event.bounty),
            payments=Listing(tuple(parts), "and") if parts else msg("home.seven_deuce.nobody_pays"),
            rule=Rule("R-20.6"),
        )
    if isinstance(event, RabbitHunted):
        if event.second:
            return msg(
                "home.rabbit.two",
                cards=Cards(tuple(event.cards)),
                second=Cards(tuple(event.second)),
                rule=Rule("R-20.9"),
            )
        return msg("home.rabbit.cards", cards=Cards(tuple(event.cards)), rule=Rule("R-20.9"))
    if isinstance(event, PotAwarded) and event.board == 1:
        return msg(
            "home.award.second_run" if ran_twice else "home.award.second",
            who=names([Player(w) for w in event.winners]),
            amount=Chips(event.amount),
        )
    return None
