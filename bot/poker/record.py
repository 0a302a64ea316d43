"""A hand as data: its start plus its actions (invariant 4), and exact replay.

The store keeps :class:`HandStart` as JSON and appends each accepted action; rebuilding
the hand after a restart is ``replay(start, actions)``. Each start carries the engine
rules version it was dealt under (:data:`ENGINE_RULES`, R-16.8), so a record written
before a rule change is known as such.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.poker.actions import Action, action_from_dict, action_to_dict
from bot.poker.cards import Card
from bot.poker.hand import Hand
from bot.poker.potsystems import GutsState, TwoToWinState
from bot.poker.rules import Rules

ENGINE_RULES = 2
"""The engine rules version recorded with every hand start (R-16.8). Version 1, the
version of records that carry none, is the engine before the floor review of issue 12:
equal blinds by size, after-draw betting from the button's left in ante games, a full
bring-in nobody could raise, fixed-limit blinds below the small bet not completed, jacks
to open ignored with blinds (docs/rules-notes.md, "Floor review"). Version 2 plays those
as R-3.8, R-16.6, R-3.9, R-5.10 and R-4.9 say. Raise it with every change that makes an
old record replay differently."""

OLD_ENGINE_RULES = 1
"""The version of a hand record written without one."""


@dataclass(frozen=True, slots=True)
class HandStart:
    rules: Rules
    stacks: tuple[int, ...]
    deck: tuple[Card, ...]
    carried: int = 0
    player_ids: tuple[str, ...] | None = None
    pot_state: TwoToWinState | GutsState | None = None
    """§15 pot systems: the carried pot, markers, legs and reserve going into the hand."""
    engine_rules: int = ENGINE_RULES
    """The engine rules version the hand was dealt under (R-16.8)."""

    @property
    def current_rules(self) -> bool:
        """Whether this engine plays the hand by the rules it was dealt under."""
        return self.engine_rules == ENGINE_RULES

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "stacks": list(self.stacks),
            "deck": list(self.deck),
            "carried": self.carried,
            "engine_rules": self.engine_rules,
        }
        if self.player_ids is not None:
            out["player_ids"] = list(self.player_ids)
        if self.pot_state is not None:
            out["pot_state"] = pot_state_to_dict(self.pot_state)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, checked: bool = True) -> HandStart:
        """The start of a record; ``checked=False``: see :meth:`Rules.from_dict`."""
        ids = data.get("player_ids")
        state = data.get("pot_state")
        return cls(
            rules=Rules.from_dict(data["rules"], checked=checked),
            stacks=tuple(int(s) for s in data["stacks"]),
            deck=tuple(str(c) for c in data["deck"]),
            carried=int(data.get("carried", 0)),
            player_ids=tuple(str(p) for p in ids) if ids is not None else None,
            pot_state=pot_state_from_dict(state) if state is not None else None,
            engine_rules=int(data.get("engine_rules", OLD_ENGINE_RULES)),
        )

    def new_hand(self) -> Hand:
        return Hand(
            self.rules,
            self.stacks,
            self.deck,
            carried=self.carried,
            player_ids=self.player_ids,
            pot_state=self.pot_state,
        )


def pot_state_to_dict(state: TwoToWinState | GutsState) -> dict[str, Any]:
    if isinstance(state, TwoToWinState):
        return {"system": "two_to_win", "pot": state.pot, "markers": sorted(state.markers)}
    return {
        "system": "guts",
        "pot": state.pot,
        "reserve": state.reserve,
        "legs": dict(state.legs),
    }


def pot_state_from_dict(data: dict[str, Any]) -> TwoToWinState | GutsState:
    if data.get("system") == "two_to_win":
        return TwoToWinState(int(data["pot"]), frozenset(str(m) for m in data["markers"]))
    legs = {str(k): int(v) for k, v in dict(data.get("legs", {})).items()}
    return GutsState(pot=int(data["pot"]), reserve=int(data.get("reserve", 0)), legs=legs)


def replay(start: HandStart, actions: Iterable[Action]) -> Hand:
    """Rebuild a hand exactly: the same start and actions give the same state."""
    hand = start.new_hand()
    for action in actions:
        hand.apply(action)
    return hand


def actions_to_json(actions: Iterable[Action]) -> list[dict[str, object]]:
    return [action_to_dict(a) for a in actions]


def actions_from_json(data: Iterable[dict[str, object]]) -> list[Action]:
    return [action_from_dict(d) for d in data]
