"""Engine events in words, for the table channel or one player.

Only formatting lives here: which events are public is decided by the engine's
``audience`` field, and the service routes on it (invariant 2).
"""

from __future__ import annotations

from collections.abc import Callable

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
    name_players,
)
from bot.table.view import cards_words  # the joker reads "Joker", never "Xx"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands`` (``many``: an irregular plural)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


# Settings in words, from the one declaration of settings (bot/table/settings.py): its
# label, seconds and minutes with their unit, structure and game codes by name, on/off
# for switches (Settings changed: action clock 45 s, not action_clock=45).


def setting_words(name: str, value: object) -> str:
    """One setting and its value for people: ``action clock 45 s``, ``straddle on``."""
    from bot.poker.variants import VARIANTS
    from bot.table.settings import LIMIT_NAMES, declared

    setting = declared().get(name)
    label = setting.label if setting is not None else name.replace("_", " ")
    unit = setting.meta.unit if setting is not None else ""
    if isinstance(value, bool):
        shown = "on" if value else "off"
    elif value is None:
        shown = "none"
    elif unit == "seconds" and isinstance(value, int | float):
        shown = f"{value:g} s"
    elif unit == "minutes" and isinstance(value, int):
        shown = plural(value, "minute")
    elif unit == "hundredths of a percent" and isinstance(value, int):
        shown = f"{value / 100:g}%"
    elif name == "variant" and isinstance(value, str) and value in VARIANTS:
        shown = VARIANTS[value].name
    elif name == "limit" and isinstance(value, str):
        shown = LIMIT_NAMES.get(value, value).lower()
    elif name == "rotation" and isinstance(value, tuple | list):
        # "omaha:pot_limit" is stored; people read "Pot-limit Omaha".
        shown = ", ".join(_game_words(str(v)) for v in value) or "none"
    elif isinstance(value, tuple | list):
        shown = ", ".join(str(v) for v in value) or "none"
    else:
        shown = str(value).replace("_", " ")
    return f"{label} {shown}"


def _game_words(entry: str) -> str:
    """A rotation entry for people: ``omaha:pot_limit`` -> ``Pot-limit Omaha``; a game
    without a structure is just its name (it is dealt in its usual one, R-16.9)."""
    from bot.poker.variants import VARIANTS
    from bot.table.settings import LIMIT_NAMES

    variant, _, limit = entry.partition(":")
    game = VARIANTS[variant].name if variant in VARIANTS else variant
    if limit in LIMIT_NAMES:
        return f"{LIMIT_NAMES[limit]} {game}"
    return game


# How a hand ended (HandEnded.reason), in words.
_ENDINGS = {
    "showdown": "Hand over at the showdown.",
    "uncontested": "Hand over: everyone else folded.",
    "guts": "Hand over.",
    "passed out": "Hand over: nobody opened (R-4.6).",
    "not opened": "Hand over: nobody opened with jacks or better (R-4.9).",
    "nobody declared": "Hand over: nobody declared in time (R-13.2).",
}

_FORCED = {
    "ante": "antes",
    "small_blind": "posts the small blind",
    "big_blind": "posts the big blind",
    "straddle": "straddles",
    "blind": "posts a blind",
    "bring_in": "brings it in",
    "dead_blind": "posts dead",
}


def describe(event: Event, name: Callable[[int], str]) -> str | None:
    """One line for an event, or None for events nobody needs to read."""
    if isinstance(event, ForcedBet):
        note = " (all in)" if event.all_in else ""
        return f"{name(event.player)} {_FORCED.get(event.kind, event.kind)} {event.amount}{note}"
    if isinstance(event, CardsDealt):
        return f"{name(event.player)}: {cards_words(event.cards)}"
    if isinstance(event, BoardDealt):
        return f"{event.street.capitalize()}: {cards_words(event.cards)}"
    if isinstance(event, ActionTaken):
        note = " (all in)" if event.all_in else ""
        who = name(event.player)
        if event.kind in ("fold", "check"):
            return f"{who} {event.kind}s{note}"
        if event.kind == "call":
            return f"{who} calls {event.added}{note}"
        if event.kind == "bet":
            return f"{who} bets {event.total}{note}"
        if event.kind == "bring_in":
            return f"{who} brings it in for {event.total}{note}"
        return f"{who} {event.kind}s to {event.total}{note}"
    if isinstance(event, Drew):
        if event.received:
            return f"{name(event.player)} draws {cards_words(event.received)}"
        return (
            f"{name(event.player)} draws {event.count}"
            if event.count
            else (f"{name(event.player)} stands pat")
        )
    if isinstance(event, DeckReshuffled):
        return f"The discards are shuffled to continue ({plural(event.cards, 'card')})."
    if isinstance(event, BetReturned):
        return f"{event.amount} uncalled returned to {name(event.player)}"
    if isinstance(event, PotsFormed):
        if len(event.pots) <= 1:
            return None
        labels = ["main", *(f"side {k}" for k in range(1, len(event.pots)))]
        return "Pots: " + ", ".join(
            f"{k} {p.amount}" for k, p in zip(labels, event.pots, strict=True)
        )
    if isinstance(event, HandShown):
        # Hands shown before the board is out (an all-in run-out) have no name yet.
        names = [d for d in event.descriptions if d]
        desc = f" ({', '.join(names)})" if names else ""
        return f"{name(event.player)} shows {cards_words(event.cards)}{desc}"
    if isinstance(event, HandMucked):
        return f"{name(event.player)} mucks"
    if isinstance(event, OpenersShown):
        return f"{name(event.player)} shows openers {cards_words(event.cards)}"
    if isinstance(event, RakeTaken):
        return f"Rake {event.amount}"
    if isinstance(event, PotAwarded):
        who = ", ".join(f"{name(w)} {a}" for w, a in zip(event.winners, event.amounts, strict=True))
        share = "" if event.share == "whole" else f" ({event.share} half)"
        hand = f" with {event.hand}" if event.hand else ""
        pot = "main pot" if event.pot_index == 0 else f"side pot {event.pot_index}"
        return f"{pot}{share}: {who}{hand}"
    if isinstance(event, DeclarationCommitted):
        return f"You declared {event.choice}. That is final (R-13.2)."
    if isinstance(event, DeclarationCount):
        if event.what == "guts":
            return f"Calls made: {event.committed} of {event.total} (sealed until all have called)."
        return f"Declarations: {event.committed} of {event.total} fists closed."
    if isinstance(event, DeclarationMade):
        return f"{name(event.player)} declares {event.choice}"
    if isinstance(event, DeclarationsRevealed):
        return "Fists open: " + ", ".join(f"{name(p)} {c}" for p, c in event.choices)
    if isinstance(event, DeclareResolved):
        carried = f" {event.carried} carries to the next deal." if event.carried else ""
        return name_players(" ".join(event.steps), name) + carried
    if isinstance(event, ChipsAdded):
        return f"{name(event.player)} adds {plural(event.amount, 'chip')} (open stakes, R-2.4)"
    if isinstance(event, GutsCallCommitted):
        return f"You are {'in' if event.stay else 'out'}. That is final (R-15.2)."
    if isinstance(event, GutsCallMade):
        return f"{name(event.player)} is {'in' if event.stay else 'out'}"
    if isinstance(event, GutsCallsRevealed):
        return "Calls: " + ", ".join(f"{name(p)} {'in' if v else 'out'}" for p, v in event.calls)
    if isinstance(event, PotSystemSettled):
        # The log itself says what stays for the next deal (next pot, reserve, markers).
        return name_players(" ".join(event.log), name)
    if isinstance(event, HandEnded):
        carried = f" {event.carried} carries to the next deal." if event.carried else ""
        return _ENDINGS.get(event.reason, "Hand over.") + carried
    if isinstance(event, StreetStarted):
        # Stud streets after the first get a header: seventh street is dealt face down,
        # so without it the log would show two betting rounds with nothing between them.
        # Board and draw streets are announced by their own cards or draw counts.
        if event.index > 0 and event.street.endswith(" street"):
            return event.street.capitalize()
        return None
    return None
