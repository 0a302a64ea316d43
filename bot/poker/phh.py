"""Hand histories in PHH (github.com/uoftcprg/phh-std, a TOML dialect): import, replay
and export.

Players are numbered in PHH order: ``p1`` is the first seat left of the button, which
is the engine's position 0. House rules that PHH has no field for are written as
underscore-prefixed fields, as the spec allows (documented in docs/phh.md).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.poker.actions import (
    Action,
    BringIn,
    Call,
    Declare,
    Draw,
    Fold,
    GutsCall,
    Muck,
    RaiseTo,
    Show,
)
from bot.poker.cards import FULL_DECK, SHORT_DECK, Card, parse_cards
from bot.poker.errors import PokerError
from bot.poker.events import (
    ActionTaken,
    BoardDealt,
    CardsDealt,
    Drew,
    Event,
    HandMucked,
    HandShown,
    PotAwarded,
)
from bot.poker.hand import Hand
from bot.poker.potsystems import GutsState, TwoToWinState
from bot.poker.record import pot_state_from_dict, pot_state_to_dict
from bot.poker.rules import Limit, Rules
from bot.poker.variants import get_variant

# PHH variant code -> (our game, betting structure).
PHH_VARIANTS: dict[str, tuple[str, Limit]] = {
    "NT": ("holdem", Limit.NO_LIMIT),
    "FT": ("holdem", Limit.FIXED),
    "PT": ("holdem", Limit.POT_LIMIT),
    "NO": ("omaha", Limit.NO_LIMIT),
    "PO": ("omaha", Limit.POT_LIMIT),
    "FO": ("omaha", Limit.FIXED),
    "FO/8": ("omaha8", Limit.FIXED),
    "NS": ("shortdeck", Limit.NO_LIMIT),
    "PO/8": ("omaha8", Limit.POT_LIMIT),
    "F7S": ("stud", Limit.FIXED),
    "F7S/8": ("stud8", Limit.FIXED),
    "FR": ("razz", Limit.FIXED),
    "N2L1D": ("27single", Limit.NO_LIMIT),
    "F2L3D": ("27triple", Limit.FIXED),
    "FB": ("badugi", Limit.FIXED),
    "F5D": ("draw5", Limit.FIXED),
    "N5D": ("draw5", Limit.NO_LIMIT),
}
VARIANT_CODES: dict[tuple[str, Limit], str] = {v: k for k, v in PHH_VARIANTS.items()}


class PHHError(ValueError):
    """A PHH file we cannot read or cannot play."""


@dataclass
class PHHHand:
    path: str
    data: dict[str, Any]
    variant: str = ""
    actions: list[str] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.data["starting_stacks"])


def load(path: str | Path) -> PHHHand:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    if "variant" not in data or "starting_stacks" not in data or "actions" not in data:
        raise PHHError("not a PHH hand: variant, starting_stacks and actions are required")
    return PHHHand(str(path), data, str(data["variant"]), [str(a) for a in data["actions"]])


def rules_for(phh: PHHHand) -> Rules:
    d = phh.data
    house_only = d.get("_chipfist_rules")
    if phh.variant not in PHH_VARIANTS and isinstance(house_only, str):
        # Our own games (no PHH code) carry their whole rules in _chipfist_rules.
        try:
            return Rules.from_dict(json.loads(house_only))
        except (PokerError, ValueError, TypeError) as exc:
            raise PHHError(f"bad _chipfist_rules: {exc}") from None
    if phh.variant not in PHH_VARIANTS:
        raise PHHError(f"variant {phh.variant!r} is not supported yet")
    game, limit = PHH_VARIANTS[phh.variant]
    n = phh.players
    kwargs: dict[str, Any] = {
        "variant": game,
        "limit": limit,
        "blinds_or_straddles": tuple(int(x) for x in d.get("blinds_or_straddles", ())) or (0,) * n,
        "antes": tuple(int(x) for x in d.get("antes", ())),
        "bring_in": int(d.get("bring_in", 0)),
        "showdown": "manual",
        "raise_cap": 4 if limit is Limit.FIXED else None,
        "cap_lift": "never",
    }
    if limit is Limit.FIXED:
        kwargs["small_bet"] = int(d.get("small_bet", d.get("min_bet", 1)))
        kwargs["big_bet"] = int(d.get("big_bet", 2 * kwargs["small_bet"]))
    else:
        kwargs["small_bet"] = int(d.get("min_bet", max(kwargs["blinds_or_straddles"] or (1,))))
        kwargs["big_bet"] = kwargs["small_bet"]
    house = d.get("_chipfist_rules")
    if isinstance(house, str):
        extra = json.loads(house)
        base = Rules(**kwargs).to_dict()
        base.update(extra)
        return Rules.from_dict(base)
    try:
        return Rules(**kwargs)
    except PokerError as exc:
        raise PHHError(str(exc)) from None


def _script(phh: PHHHand, full: Sequence[Card] = FULL_DECK) -> dict[int, list[Card]]:
    """Which cards each recipient got, in order (-1 is the board); ``??`` cards are filled
    from cards shown at the showdown, or with unused cards (they never matter)."""
    script: dict[int, list[Card]] = {}
    shown: dict[int, list[Card]] = {}
    for line in phh.actions:
        parts = line.split("#")[0].split()
        if len(parts) >= 3 and parts[0] == "d" and parts[1] == "dh":
            script.setdefault(int(parts[2][1:]) - 1, []).extend(parse_cards(parts[3]))
        elif len(parts) >= 3 and parts[0] == "d" and parts[1] == "db":
            script.setdefault(-1, []).extend(parse_cards(parts[2]))
        elif len(parts) >= 3 and parts[1] == "sm":
            shown[int(parts[0][1:]) - 1] = list(parse_cards(parts[2]))
    for p, cards in shown.items():
        queue = script.get(p, [])
        for k, card in enumerate(cards):
            if k < len(queue) and queue[k] == "??":
                queue[k] = card
    used = {c for q in script.values() for c in q}
    spare = [c for c in full if c not in used]
    for queue in script.values():
        for k, card in enumerate(queue):
            if card == "??":
                queue[k] = spare.pop()
    return script


def _to_action(hand: Hand, parts: Sequence[str]) -> Action | None:
    player = int(parts[0][1:]) - 1
    op = parts[1]
    if op == "f":
        return Fold(player)
    if op == "cc":
        return Call(player)
    if op == "cbr":
        amount = int(parts[2])
        return RaiseTo(player, amount)
    if op == "pb":
        return BringIn(player)
    if op == "sd":
        return Draw(player, parse_cards(parts[2]) if len(parts) > 2 else ())
    if op == "sm":
        if hand.phase != "showdown" or hand.to_act != player:
            return None  # already exposed by an all-in run-out
        if len(parts) > 2 and "?" not in parts[2]:
            return Show(player)
        return Muck(player)
    raise PHHError(f"unknown PHH action {' '.join(parts)!r}")


def _limit_raise_covering_all_in(hand: Hand, action: RaiseTo) -> Action:
    """Some recorded limit hands "raise" to exactly a short stack's all-in, below a full
    raise (pokerkit 0.7.3 accepted it, 0.7.4+ refuse it). Our rules allow only the full
    limit raise; since nobody can match more than that all-in, the excess of the full raise
    comes straight back as an uncalled bet (R-4.7), so the result is the same. We replay
    it as the full raise, knowingly (docs/phh.md)."""
    legal = hand.legal()
    if legal.min_to is None or action.total >= legal.min_to:
        return action
    others = [
        hand.bets[j] + hand.effective_stack(j)
        for j in range(hand.n)
        if j != action.player and not hand.folded[j]
    ]
    if others and action.total >= max(others) and hand.rules.limited:
        return RaiseTo(action.player, legal.min_to)
    return action


def _unknown_discards(hand: Hand, action: Draw) -> Draw:
    """A record that hides which cards were discarded (``??``): discard that many of the
    player's cards that the record does not name."""
    named = [c for c in action.discards if c != "??"]
    spare = [c for c in hand.hole[action.player] if c not in named]
    hidden = len(action.discards) - len(named)
    return Draw(action.player, tuple(named + spare[:hidden]))


def _declarations(phh: PHHHand) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in phh.data.get("_declarations", []):
        who, _, choice = str(item).partition("=")
        out[int(who.strip()[1:]) - 1] = choice.strip()
    return out


def _guts_calls(phh: PHHHand) -> dict[int, bool]:
    out: dict[int, bool] = {}
    for item in phh.data.get("_guts_calls", []):
        who, _, call = str(item).partition("=")
        out[int(who.strip()[1:]) - 1] = call.strip() == "in"
    return out


def _declare_pending(hand: Hand, declared: dict[int, str], calls: dict[int, bool]) -> None:
    """Declarations and Guts calls are not PHH actions; they come from ``_declarations``
    and ``_guts_calls`` when the hand reaches that phase (docs/phh.md)."""
    while hand.phase == "guts":
        pending = hand.guts_pending()
        if not pending:
            return
        p = hand.to_act if hand.to_act is not None else pending[0]
        if p not in calls:
            raise PHHError(f"p{p + 1} reached the Guts call but _guts_calls has no call")
        hand.apply(GutsCall(p, calls[p]))
    while hand.phase == "declare":
        pending = hand.declare_pending()
        if not pending:
            return
        p = hand.to_act if hand.to_act is not None else pending[0]
        choice = declared.get(p)
        if choice not in ("low", "high", "both"):
            raise PHHError(f"p{p + 1} reached the declaration but _declarations has no choice")
        hand.apply(Declare(p, choice))  # type: ignore[arg-type]  # checked just above


def play(phh: PHHHand) -> Hand:
    rules = rules_for(phh)
    stacks = [int(s) for s in phh.data["starting_stacks"]]
    carried = int(phh.data.get("_carried_in", 0))
    ids = phh.data.get("_player_ids")
    state_in = phh.data.get("_pot_state_in")
    hand = Hand(
        rules,
        stacks,
        script=_script(
            phh, SHORT_DECK if get_variant(rules.variant).deck == "short" else FULL_DECK
        ),
        carried=carried,
        player_ids=[str(p) for p in ids] if isinstance(ids, list) else None,
        pot_state=pot_state_from_dict(json.loads(state_in)) if isinstance(state_in, str) else None,
    )
    declared = _declarations(phh)
    calls = _guts_calls(phh)
    for line in phh.actions:
        _declare_pending(hand, declared, calls)
        parts = line.split("#")[0].split()
        if not parts or parts[0] == "d":
            continue
        action = _to_action(hand, parts)
        if action is None:
            continue
        if hand.over:
            raise PHHError(f"action {line!r} after the hand ended")
        if isinstance(action, RaiseTo) and hand.to_act == action.player and hand.phase == "betting":
            action = _limit_raise_covering_all_in(hand, action)
        elif isinstance(action, Draw) and "??" in action.discards:
            action = _unknown_discards(hand, action)
        hand.apply(action)
    _declare_pending(hand, declared, calls)
    if not hand.over:
        raise PHHError("the hand history ends before the hand is over")
    return hand


def _pots(hand: Hand) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for k, pot in enumerate(hand.pots):
        winners: list[str] = []
        for e in hand.events:
            if isinstance(e, PotAwarded) and e.pot_index == k:
                winners.extend(f"p{w + 1}" for w in e.winners if f"p{w + 1}" not in winners)
        out.append(
            {
                "amount": pot.amount,
                "eligible": [f"p{i + 1}" for i in pot.eligible],
                "winners": winners,
            }
        )
    return out


def expected_stacks(raw: Sequence[float | int]) -> list[int]:
    """Finishing stacks as R-11.2 gives them. Some recorded hands split an odd chip into
    halves; R-11.2 gives the whole chip to the tied winner nearest the button's left."""
    halves = [i for i, v in enumerate(raw) if float(v) != int(float(v))]
    out = [int(float(v)) for v in raw]
    for k, i in enumerate(halves):
        out[i] = int(float(raw[i]) + 0.5) if k < len(halves) // 2 else int(float(raw[i]) - 0.5)
    return out


def replay_file(path: str | Path) -> dict[str, Any]:
    """Replay one file: the JSON-ready result line of ``python -m bot.poker replay``."""
    result: dict[str, Any] = {
        "path": str(path),
        "variant": None,
        "ok": False,
        "error": None,
        "finishing_stacks": None,
        "pots": [],
    }
    try:
        phh = load(path)
        result["variant"] = phh.variant
        hand = play(phh)
    except (PHHError, PokerError, tomllib.TOMLDecodeError, ValueError, KeyError) as exc:
        result["error"] = f"{type(exc).__name__}: {exc}"
        return result
    except Exception as exc:  # a replay must report, never crash the batch
        result["error"] = f"internal error: {type(exc).__name__}: {exc}"
        return result
    result["ok"] = True
    result["finishing_stacks"] = list(hand.stacks)
    result["pots"] = _pots(hand)
    if "finishing_stacks" in phh.data:
        expected = expected_stacks(phh.data["finishing_stacks"])
        result["expected_stacks"] = expected
        result["match"] = expected == list(hand.stacks)
    return result


# ---------------------------------------------------------------- export


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to PHH")


def export(
    rules: Rules,
    starting_stacks: Sequence[int],
    events: Sequence[Event],
    finishing_stacks: Sequence[int] | None = None,
    players: Sequence[str] | None = None,
    extra: dict[str, Any] | None = None,
) -> str:
    """Write one hand as PHH text, from its rules and its full event stream."""
    code = VARIANT_CODES.get((rules.variant, rules.limit))
    lines: list[str] = []
    for e in events:
        if isinstance(e, CardsDealt) and e.audience is not None:
            lines.append(f"d dh p{e.player + 1} {''.join(e.cards)}")
        elif isinstance(e, BoardDealt):
            lines.append(f"d db {''.join(e.cards)}")
        elif isinstance(e, ActionTaken):
            if e.kind == "fold":
                lines.append(f"p{e.player + 1} f")
            elif e.kind in ("check", "call"):
                lines.append(f"p{e.player + 1} cc")
            elif e.kind == "bring_in":
                lines.append(f"p{e.player + 1} pb")
            else:
                lines.append(f"p{e.player + 1} cbr {e.total}")
        elif isinstance(e, Drew) and e.audience is not None:
            lines.append(f"p{e.player + 1} sd {''.join(e.discarded)}".rstrip())
            if e.received:
                lines.append(f"d dh p{e.player + 1} {''.join(e.received)}")
        elif isinstance(e, HandShown):
            lines.append(f"p{e.player + 1} sm {''.join(e.cards)}")
        elif isinstance(e, HandMucked):
            lines.append(f"p{e.player + 1} sm")
    fields_: dict[str, Any] = {
        "variant": code or rules.variant,
        "antes": list(rules.antes) or [0] * len(starting_stacks),
        "blinds_or_straddles": list(rules.blinds_or_straddles),
        "starting_stacks": list(starting_stacks),
        "actions": lines,
    }
    if rules.limit is Limit.FIXED:
        fields_["small_bet"] = rules.small_bet
        fields_["big_bet"] = rules.big_bet
    else:
        fields_["min_bet"] = rules.small_bet
    if rules.bring_in:
        fields_["bring_in"] = rules.bring_in
    if finishing_stacks is not None:
        fields_["finishing_stacks"] = list(finishing_stacks)
    if players is not None:
        fields_["players"] = list(players)
    # House rules PHH has no field for, as one JSON string (docs/phh.md).
    fields_["_chipfist_rules"] = json.dumps(rules.to_dict(), sort_keys=True)
    for key, value in (extra or {}).items():
        fields_[key if key.startswith("_") else "_" + key] = value
    out = []
    for key, value in fields_.items():
        if key == "actions":
            out.append("actions = [\n" + "".join(f"  {_toml_value(a)},\n" for a in value) + "]")
        else:
            out.append(f"{key} = {_toml_value(value)}")
    return "\n".join(out) + "\n"


def export_hand(hand: Hand, players: Sequence[str] | None = None) -> str:
    """PHH text for a finished (or running) hand, with our underscore fields."""
    extra: dict[str, Any] = {}
    if hand.carried:
        extra["_carried_in"] = hand.carried
    if hand.result is not None and hand.result.carried:
        extra["_carried_out"] = hand.result.carried
    if hand.declared:
        extra["_declarations"] = [f"p{p + 1}={c}" for p, c in sorted(hand.declared.items())]
    if hand.guts_calls:
        extra["_guts_calls"] = [
            f"p{p + 1}={'in' if v else 'out'}" for p, v in sorted(hand.guts_calls.items())
        ]
    if hand.pot_state_in is not None:
        extra["_player_ids"] = list(hand.player_ids)
        extra["_pot_state_in"] = json.dumps(pot_state_to_dict(hand.pot_state_in), sort_keys=True)
    out = hand.pot_state_out
    if isinstance(out, TwoToWinState):
        extra["_markers"] = sorted(out.markers)
    elif isinstance(out, GutsState):
        extra["_legs"] = [f"{p}={n}" for p, n in sorted(out.legs.items())]
        extra["_reserve"] = out.reserve
    return export(
        hand.rules,
        hand.starting_stacks,
        hand.events,
        finishing_stacks=hand.stacks if hand.over else None,
        players=players,
        extra=extra,
    )


def iter_paths(paths: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.phh")))
        else:
            out.append(path)
    return out
