"""A hand as data: its start plus its actions (invariant 4), and exact replay.

The store keeps :class:`HandStart` as JSON and appends each accepted action; rebuilding
the hand after a restart is ``replay(start, actions)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.poker.actions import Action, action_from_dict, action_to_dict
from bot.poker.cards import Card
from bot.poker.hand import Hand
from bot.poker.rules import Rules


@dataclass(frozen=True, slots=True)
class HandStart:
    rules: Rules
    stacks: tuple[int, ...]
    deck: tuple[Card, ...]
    carried: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "stacks": list(self.stacks),
            "deck": list(self.deck),
            "carried": self.carried,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandStart:
        return cls(
            rules=Rules.from_dict(data["rules"]),
            stacks=tuple(int(s) for s in data["stacks"]),
            deck=tuple(str(c) for c in data["deck"]),
            carried=int(data.get("carried", 0)),
        )

    def new_hand(self) -> Hand:
        return Hand(self.rules, self.stacks, self.deck, carried=self.carried)


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
