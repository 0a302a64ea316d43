"""Player actions: frozen, typed declarations (R-6.1).

An action is one whole declaration with its amount: there is no "call, then raise" (R-6.2).
``RaiseBy`` and ``RaiseTo`` are both explicit (R-6.3); ``Bet`` is the first wager of a
round and names its total. ``player`` is the PHH position (0 = first seat left of the
button) so an action out of turn can be recognised and refused (R-6.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Fold:
    player: int


@dataclass(frozen=True, slots=True)
class Check:
    player: int


@dataclass(frozen=True, slots=True)
class Call:
    player: int


@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting for ``amount`` chips (only when nobody has bet this round)."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Make the player's total wager this round ``total`` (a bet when nobody has bet)."""

    player: int
    total: int


@dataclass(frozen=True, slots=True)
class RaiseBy:
    """Raise by ``amount`` on top of calling (the rulebook's meaning of "raise 200", R-6.3)."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class AllIn:
    """Put every chip in: a call, bet or raise, whichever the stack makes it (§7)."""

    player: int


@dataclass(frozen=True, slots=True)
class BringIn:
    """Stud: post the bring-in rather than completing (R-3.5)."""

    player: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw games: discard these cards (possibly none: stand pat) and take replacements."""

    player: int
    discards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Declare:
    """Hi-lo declare games: a final low/high/both commitment (R-13.1)."""

    player: int
    choice: Literal["low", "high", "both"]


@dataclass(frozen=True, slots=True)
class DeclareTimeout:
    """The declaration clock ran out: the table's default applies (R-13.2)."""

    player: int


@dataclass(frozen=True, slots=True)
class GutsCall:
    """Guts: in (stay and compare) or out (R-15.2)."""

    player: int
    stay: bool


@dataclass(frozen=True, slots=True)
class AddChips:
    """R-2.4 open stakes (fixed and spread limit, option): chips bought during the hand.
    Not a turn action: a player may add at any time, even during betting."""

    player: int
    amount: int


@dataclass(frozen=True, slots=True)
class Show:
    """Showdown in manual mode: show the hand (R-9.2). With the R-9.3 option in wild-card
    games the player also states the five cards his hand stands for (wild cards named as
    what they represent); the hand counts as that if it holds at least that."""

    player: int
    stated: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Muck:
    """Showdown in manual mode: concede without showing (R-9.2)."""

    player: int


@dataclass(frozen=True, slots=True)
class RunItTwice:
    """R-20.1: a player's answer to running the rest of the board twice (private until
    every eligible player has answered)."""

    player: int
    agree: bool


@dataclass(frozen=True, slots=True)
class RunItTwiceTimeout:
    """R-20.1: the answer clock ran out: every player who has not answered says no
    (no answer means once). ``player`` is any player of the hand (the clock's caller)."""

    player: int


@dataclass(frozen=True, slots=True)
class ShowCards:
    """R-20.8: after the hand, the winner of an uncontested pot or a player whose hand
    was mucked shows cards by choice: all of them, or one."""

    player: int
    cards: tuple[str, ...]


Action = (
    Fold
    | Check
    | Call
    | Bet
    | RaiseTo
    | RaiseBy
    | AllIn
    | BringIn
    | Draw
    | Declare
    | DeclareTimeout
    | GutsCall
    | AddChips
    | Show
    | Muck
    | RunItTwice
    | RunItTwiceTimeout
    | ShowCards
)

ACTION_TYPES: dict[str, type[Action]] = {
    "fold": Fold,
    "check": Check,
    "call": Call,
    "bet": Bet,
    "raise_to": RaiseTo,
    "raise_by": RaiseBy,
    "all_in": AllIn,
    "bring_in": BringIn,
    "draw": Draw,
    "declare": Declare,
    "declare_timeout": DeclareTimeout,
    "guts_call": GutsCall,
    "add_chips": AddChips,
    "show": Show,
    "muck": Muck,
    "run_it_twice": RunItTwice,
    "run_it_twice_timeout": RunItTwiceTimeout,
    "show_cards": ShowCards,
}
_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def action_to_dict(action: Action) -> dict[str, object]:
    """A JSON-ready form, used by the event log (a hand is its start plus its actions)."""
    out: dict[str, object] = {"type": _NAMES[type(action)], "player": action.player}
    if isinstance(action, Bet | RaiseBy | AddChips):
        out["amount"] = action.amount
    elif isinstance(action, RaiseTo):
        out["total"] = action.total
    elif isinstance(action, Draw):
        out["discards"] = list(action.discards)
    elif isinstance(action, Declare):
        out["choice"] = action.choice
    elif isinstance(action, GutsCall):
        out["stay"] = action.stay
    elif isinstance(action, RunItTwice):
        out["agree"] = action.agree
    elif isinstance(action, ShowCards):
        out["cards"] = list(action.cards)
    elif isinstance(action, Show) and action.stated:
        out["stated"] = list(action.stated)
    return out


def action_from_dict(data: dict[str, object]) -> Action:
    kind = str(data["type"])
    player = int(str(data["player"]))
    if kind in ("bet", "raise_by"):
        amount = int(str(data["amount"]))
        return Bet(player, amount) if kind == "bet" else RaiseBy(player, amount)
    if kind == "raise_to":
        return RaiseTo(player, int(str(data["total"])))
    if kind == "draw":
        raw = data.get("discards", [])
        assert isinstance(raw, list)
        return Draw(player, tuple(str(c) for c in raw))
    if kind == "declare":
        choice = str(data["choice"])
        if choice not in ("low", "high", "both"):
            raise ValueError(f"bad declaration {choice!r}")
        return Declare(player, choice)  # type: ignore[arg-type]  # checked just above
    if kind == "add_chips":
        return AddChips(player, int(str(data["amount"])))
    if kind == "guts_call":
        return GutsCall(player, bool(data["stay"]))
    if kind == "show":
        stated = data.get("stated", [])
        assert isinstance(stated, list)
        return Show(player, tuple(str(c) for c in stated))
    if kind == "run_it_twice":
        return RunItTwice(player, bool(data["agree"]))
    if kind == "show_cards":
        cards = data.get("cards", [])
        assert isinstance(cards, list)
        return ShowCards(player, tuple(str(c) for c in cards))
    cls = ACTION_TYPES[kind]
    return cls(player)  # type: ignore[call-arg]  # the kinds left take only the player
