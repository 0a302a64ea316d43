"""Engine events in words, for the table channel or one player.

Only formatting lives here: which events are public is decided by the engine's
``audience`` field, and the service routes on it (invariant 2).
"""

from __future__ import annotations

from bot.poker import home
from bot.poker.cards import JOKER
from bot.poker.events import (
    ActionTaken,
    BetReturned,
    BoardDealt,
    CardsDealt,
    ChipsAdded,
    DeckReshuffled,
    DeclarationCommitted,
    DeclarationCount,
    DeclarationMade,
    DeclarationsRevealed,
    DeclareResolved,
    Drew,
    Event,
    ForcedBet,
    GutsCallCommitted,
    GutsCallMade,
    GutsCallsRevealed,
    HandEnded,
    HandMucked,
    HandShown,
    OpenersShown,
    PotAwarded,
    PotsFormed,
    PotSystemSettled,
    RakeTaken,
    StreetStarted,
)
from bot.poker.messages import (
    Cards,
    Chips,
    Count,
    Msg,
    Name,
    Number,
    Player,
    Rule,
    joined,
    msg,
    raw,
)
from bot.table.view import HEADINGS  # the joker reads "Joker", never "Xx"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands`` (``many``: an irregular plural)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


# How a hand ended (HandEnded.reason): its message key.
_ENDINGS = {
    "showdown": "notice.end.showdown",
    "uncontested": "notice.end.uncontested",
    "guts": "notice.end.other",
    "passed out": "notice.end.passed_out",
    "not opened": "notice.end.not_opened",
    "nobody declared": "notice.end.nobody_declared",
}

_FORCED = frozenset(
    {"ante", "small_blind", "big_blind", "straddle", "blind", "bring_in", "dead_blind"}
)


def _cards(cards: tuple[str, ...] | list[str]) -> Msg:
    """Cards for people: the joker is named ("Joker"), never shown as its code."""
    if JOKER not in cards:
        return msg("notice.cards", cards=Cards(tuple(cards)))
    parts = [
        msg("notice.joker") if c == JOKER else msg("notice.cards", cards=Cards((c,))) for c in cards
    ]
    return joined(parts, "notice.space")


def _heading(street: str) -> Msg:
    code = street.replace(" ", "_")
    return msg("notice.heading." + code) if code in HEADINGS else raw(street.capitalize())


def _all_in(said: Msg, all_in: bool) -> Msg:
    return msg("notice.all_in", action=said) if all_in else said


def _choice(choice: str) -> Msg:
    return msg("declare.choice." + choice) if choice in ("low", "high", "both") else raw(choice)


def _carried(said: Msg, carried: int) -> Msg:
    return msg("notice.carried", said=said, amount=Chips(carried)) if carried else said


def _joined(parts: list[Msg]) -> Msg:
    return joined(parts) if parts else raw("")


def said(event: Event, *, ran_twice: bool = False) -> Msg | None:
    """What an event says, as a message (players by position), or None for events
    nobody needs to read. The home-game events (§20) and a share won on the second board
    are said by :func:`bot.poker.home.said` (``ran_twice``: that board was a second run)."""
    home_said = home.said(event, ran_twice=ran_twice)
    if home_said is not None:
        return home_said
    if isinstance(event, ForcedBet):
        who = Player(event.player)
        if event.kind in _FORCED:
            m = msg("notice.forced." + event.kind, who=who, amount=Chips(event.amount))
        else:
            m = msg(
                "notice.forced.other", who=who, kind=Name(event.kind), amount=Chips(event.amount)
            )
        return _all_in(m, event.all_in)
    if isinstance(event, CardsDealt):
        return msg("notice.dealt", who=Player(event.player), cards=_cards(event.cards))
    if isinstance(event, BoardDealt):
        return msg("notice.board", street=_heading(event.street), cards=_cards(event.cards))
    if isinstance(event, ActionTaken):
        who = Player(event.player)
        if event.kind in ("fold", "check"):
            m = msg("notice.action." + event.kind, who=who)
        elif event.kind == "call":
            m = msg("notice.action.call", who=who, amount=Chips(event.added))
        else:  # bet, bring_in, raise, complete: to a total
            m = msg("notice.action." + event.kind, who=who, amount=Chips(event.total))
        return _all_in(m, event.all_in)
    if isinstance(event, Drew):
        who = Player(event.player)
        if event.received:
            return msg("notice.draws_cards", who=who, cards=_cards(event.received))
        if event.count:
            return msg("notice.draws", who=who, count=Number(event.count))
        return msg("notice.stands_pat", who=who)
    if isinstance(event, DeckReshuffled):
        return msg("notice.reshuffled", count=Count(event.cards))
    if isinstance(event, BetReturned):
        return msg("notice.returned", who=Player(event.player), amount=Chips(event.amount))
    if isinstance(event, PotsFormed):
        if len(event.pots) <= 1:
            return None
        parts = [
            msg("notice.pot.main", amount=Chips(p.amount))
            if k == 0
            else msg("notice.pot.side", number=Number(k), amount=Chips(p.amount))
            for k, p in enumerate(event.pots)
        ]
        return msg("notice.pots", pots=joined(parts))
    if isinstance(event, HandShown):
        # Hands shown before the board is out (an all-in run-out) have no name yet.
        hands = [h for h in event.hands if h is not None]
        shown = msg("notice.shows", who=Player(event.player), cards=_cards(event.cards))
        return msg("notice.shows_hand", shown=shown, hand=joined(hands)) if hands else shown
    if isinstance(event, HandMucked):
        return msg("notice.mucks", who=Player(event.player))
    if isinstance(event, OpenersShown):
        return msg("notice.openers", who=Player(event.player), cards=_cards(event.cards))
    if isinstance(event, RakeTaken):
        return msg("notice.rake", amount=Chips(event.amount))
    if isinstance(event, PotAwarded):
        winners = joined(
            [
                msg("engine.player_chips", player=Player(w), amount=Chips(a))
                for w, a in zip(event.winners, event.amounts, strict=True)
            ]
        )
        pot = (
            msg("notice.award.main")
            if event.pot_index == 0
            else msg("notice.award.side", number=Number(event.pot_index))
        )
        if event.share != "whole":
            pot = msg("notice.award.half", pot=pot, half=msg("declare.choice." + event.share))
        hand = event.hand_words
        if hand is not None:
            return msg("notice.award_with", pot=pot, winners=winners, hand=hand)
        return msg("notice.award", pot=pot, winners=winners)
    if isinstance(event, DeclarationCommitted):
        return msg("notice.you_declared", choice=_choice(event.choice), rule=Rule("R-13.2"))
    if isinstance(event, DeclarationCount):
        key = "notice.calls_count" if event.what == "guts" else "notice.declared_count"
        return msg(key, done=Number(event.committed), count=Count(event.total))
    if isinstance(event, DeclarationMade):
        return msg("notice.declares", who=Player(event.player), choice=_choice(event.choice))
    if isinstance(event, DeclarationsRevealed):
        parts = [
            msg("notice.declares_short", who=Player(p), choice=_choice(c)) for p, c in event.choices
        ]
        return msg("notice.fists_open", choices=_joined(parts))
    if isinstance(event, DeclareResolved):
        return _carried(_joined_space(list(event.messages)), event.carried)
    if isinstance(event, ChipsAdded):
        return msg(
            "notice.adds", who=Player(event.player), count=Count(event.amount), rule=Rule("R-2.4")
        )
    if isinstance(event, GutsCallCommitted):
        key = "notice.you_are_in" if event.stay else "notice.you_are_out"
        return msg(key, rule=Rule("R-15.2"))
    if isinstance(event, GutsCallMade):
        key = "notice.is_in" if event.stay else "notice.is_out"
        return msg(key, who=Player(event.player))
    if isinstance(event, GutsCallsRevealed):
        parts = [
            msg("notice.is_in_short" if v else "notice.is_out_short", who=Player(p))
            for p, v in event.calls
        ]
        return msg("notice.calls", calls=_joined(parts))
    if isinstance(event, PotSystemSettled):
        # The log itself says what stays for the next deal (next pot, reserve, markers).
        return _joined_space(list(event.messages))
    if isinstance(event, HandEnded):
        return _carried(msg(_ENDINGS.get(event.reason, "notice.end.other")), event.carried)
    if isinstance(event, StreetStarted):
        # Stud streets after the first get a header: seventh street is dealt face down,
        # so without it the log would show two betting rounds with nothing between them.
        # Board and draw streets are announced by their own cards or draw counts.
        if event.index > 0 and event.street.replace(" ", "_").endswith("_street"):
            return _heading(event.street)
        return None
    return None


def _joined_space(parts: list[Msg]) -> Msg:
    """Sentences one after another (``a b c``)."""
    return joined(parts, "notice.space") if parts else raw("")
