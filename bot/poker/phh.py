"""Hand histories in PHH (github.com/uoftcprg/phh-std, a TOML dialect): import, replay
and export.

Players are numbered in PHH order: ``p1`` is the first seat left of the button, which
is the engine's position 0. House rules that PHH has no field for are written as
underscore-prefixed fields, as the spec allows (documented in docs/phh.md).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

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
    RunItTwice,
    Show,
    ShowCards,
)
from bot.poker.cards import FULL_DECK, SHORT_DECK, UNKNOWN, Card, parse_cards
from bot.poker.errors import PokerError
from bot.poker.events import (
    ActionTaken,
    BoardDealt,
    CardsDealt,
    CardsShownByChoice,
    Drew,
    Event,
    HandMucked,
    HandShown,
    OpenersShown,
    PotAwarded,
    RabbitHunted,
    RunItTwiceDecided,
    SecondBoardDealt,
    SevenDeuceBounty,
)
from bot.poker.hand import Hand
from bot.poker.potsystems import GutsState, TwoToWinState
from bot.poker.record import pot_state_from_dict, pot_state_to_dict
from bot.poker.redact import declarations, guts_calls, redact
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


@dataclass
class _Cards:
    """The cards of a record with its unknown cards (``??``) filled in: each recipient's
    cards in dealing order (-1 is the board), and the discards of each draw line (by its
    index in the actions) with unknown discards resolved."""

    script: dict[int, list[Card]]
    discards: dict[int, tuple[Card, ...]]
    guessed: bool
    """Some unknown card was filled with a card nobody saw: the record cannot tell how
    an automatic showdown would have gone, so the replay follows its ``sm`` lines."""


def _player(token: str) -> int:
    """The engine position of a PHH player token (``p1`` is position 0)."""
    text = token.strip()
    if len(text) < 2 or text[0] != "p" or not text[1:].isascii() or not text[1:].isdigit():
        raise PHHError(f"{token!r} is not a player (p1, p2, ...)")
    if int(text[1:]) < 1:
        raise PHHError(f"{token!r} is not a player: players are numbered from p1")
    return int(text[1:]) - 1


def _resolve_cards(phh: PHHHand, full: Sequence[Card] = FULL_DECK) -> _Cards:
    """Fill the ``??`` cards of a record (a redacted export, docs/phh.md) so that it plays
    as the table saw it: every shown hand is what the player ends with, every opener shown
    (``_openers_shown``) was among the opener's first cards, and unknown discards are taken
    first from cards he must have thrown (known, but not in the hand he showed), then from
    unknown ones. What is still unknown never mattered and is filled from unused cards."""
    parsed = [line.split("#")[0].split() for line in phh.actions]
    queue: dict[int, list[Card]] = {}  # each recipient's cards in dealing order
    initial: dict[int, int] = {}  # how many cards each player got before his first draw
    shown: dict[int, list[Card]] = {}
    drew: set[int] = set()
    for parts in parsed:
        if len(parts) >= 4 and parts[0] == "d" and parts[1] == "dh":
            p = _player(parts[2])
            queue.setdefault(p, []).extend(parse_cards(parts[3]))
            if p not in drew:
                initial[p] = len(queue[p])
        elif len(parts) >= 3 and parts[0] == "d" and parts[1] == "db":
            queue.setdefault(-1, []).extend(parse_cards(parts[2]))
        elif len(parts) >= 2 and parts[1] == "sd":
            drew.add(_player(parts[0]))
        elif len(parts) >= 3 and parts[1] == "sm" and "?" not in parts[2]:
            shown.setdefault(_player(parts[0]), list(parse_cards(parts[2])))
    for item in phh.data.get("_openers_shown", []):
        who, _, text = str(item).partition("=")
        p = _player(who)
        q = queue.get(p, [])
        first = range(initial.get(p, 0))
        for card in parse_cards(text.strip()):
            spot = next((j for j in first if q[j] == UNKNOWN), None)
            if card not in q and spot is not None:
                q[spot] = card
    for item in phh.data.get("_shown_by_choice", []):
        # cards shown after the hand were among the player's cards.
        who, _, text = str(item).partition("=")
        q = queue.get(_player(who), [])
        for card in parse_cards(text.strip()):
            spot = next((j for j in range(len(q)) if q[j] == UNKNOWN), None)
            if card not in q and spot is not None:
                q[spot] = card
    # Walk the draws: which of his cards each draw line threw away (queue indices).
    slots: dict[int, list[int]] = {}
    taken: dict[int, int] = {}
    replace: dict[int, list[int]] = {}
    chosen: dict[int, tuple[int, list[int]]] = {}
    for k, parts in enumerate(parsed):
        if len(parts) >= 4 and parts[0] == "d" and parts[1] == "dh":
            p = _player(parts[2])
            start = taken.get(p, 0)
            taken[p] = start + len(parse_cards(parts[3]))
            new = list(range(start, taken[p]))
            hole = slots.setdefault(p, [])
            at = replace.pop(p, [])
            for pos, idx in zip(at, new, strict=False):
                hole[pos] = idx
            hole.extend(new[len(at) :])
        elif len(parts) >= 2 and parts[1] == "sd":
            p = _player(parts[0])
            q = queue.setdefault(p, [])
            hole = slots.setdefault(p, [])
            want = list(parse_cards(parts[2])) if len(parts) > 2 else []
            picked: list[int] = []
            for card in (c for c in want if c != UNKNOWN):
                found = next((j for j in range(len(hole)) if q[hole[j]] == card), None)
                if found is not None:
                    pos = found
                else:  # named only here: it was one of his unknown cards
                    unknown = next(
                        (j for j in range(len(hole)) if q[hole[j]] == UNKNOWN and j not in picked),
                        None,
                    )
                    if unknown is None:
                        raise PHHError(f"p{p + 1} discards {card}, which he does not hold")
                    pos = unknown
                    q[hole[pos]] = card
                picked.append(pos)
            keep = set(shown.get(p, ()))

            def order(
                j: int, q: list[Card] = q, hole: list[int] = hole, keep: set[Card] = keep
            ) -> int:
                card = q[hole[j]]
                if card == UNKNOWN:
                    return 1
                return 0 if keep and card not in keep else 2

            free = sorted((j for j in range(len(hole)) if j not in picked), key=order)
            picked.extend(free[: want.count(UNKNOWN)])
            chosen[k] = (p, [hole[j] for j in picked])
            replace[p] = picked
    # A shown hand is what the player held at the end.
    for p, cards in shown.items():
        q = queue.get(p, [])
        hole = slots.get(p, [])
        missing = [c for c in cards if c not in {q[j] for j in hole}]
        for pos, idx in enumerate(hole):
            if q[idx] != UNKNOWN or not missing:
                continue
            card = cards[pos] if pos < len(cards) and cards[pos] in missing else missing[0]
            missing.remove(card)
            q[idx] = card
    used = {c for q in queue.values() for c in q}
    spare = [c for c in full if c not in used]
    guessed = False
    for p, q in queue.items():
        for k, card in enumerate(q):
            if card == UNKNOWN:
                if not spare:
                    # More unknown cards than unused ones (draws dealt from reshuffled
                    # discards, R-16.4): reuse cards, only never one this player holds
                    # or the board shows.
                    mine = set(q) | set(queue.get(-1, ()))
                    spare = [c for c in full if c not in mine]
                q[k] = spare.pop()
                guessed = guessed or p >= 0
    discards = {k: tuple(queue[p][j] for j in idx) for k, (p, idx) in chosen.items()}
    return _Cards(queue, discards, guessed)


def _to_action(hand: Hand, parts: Sequence[str]) -> Action | None:
    player = _player(parts[0])
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
        if hand.phase != "showdown" or not hand.can_act(player):
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


def _recorded_no_op_check(hand: Hand, parts: Sequence[str]) -> bool:
    """pokerkit (D-7 in docs/pokerkit-differences.md) records a check for the one player
    with chips left when every opponent is all in for no more than he has put in (the big
    blind's "option"). R-4.8 gives him no decision: the betting is over and the cards run
    out. The check moves no chip, so the replay accepts it as a no-op (docs/phh.md)."""
    if len(parts) != 2 or parts[1] != "cc":
        return False
    p = _player(parts[0])
    if not 0 <= p < hand.n or hand.folded[p]:
        return False
    if not hand.over and hand.phase == "betting" and hand.to_act == p:
        return False  # a real decision: apply it
    others = [j for j in range(hand.n) if j != p and not hand.folded[j]]
    # All in: everything he started with is in the pot (stacks may already be paid out).
    return bool(others) and all(
        hand.contrib[j] >= hand.starting_stacks[j] and hand.contrib[j] <= hand.contrib[p]
        for j in others
    )


def _declarations(phh: PHHHand) -> dict[int, str]:
    out: dict[int, str] = {}
    for item in phh.data.get("_declarations", []):
        who, _, choice = str(item).partition("=")
        out[_player(who)] = choice.strip()
    return out


def _guts_calls(phh: PHHHand) -> dict[int, bool]:
    out: dict[int, bool] = {}
    for item in phh.data.get("_guts_calls", []):
        who, _, call = str(item).partition("=")
        out[_player(who)] = call.strip() == "in"
    return out


def _run_twice_answers(phh: PHHHand) -> dict[int, bool]:
    out: dict[int, bool] = {}
    for item in phh.data.get("_run_it_twice", []):
        who, _, answer = str(item).partition("=")
        out[_player(who)] = answer.strip() == "yes"
    return out


def _declare_pending(
    hand: Hand,
    declared: dict[int, str],
    calls: dict[int, bool],
    run_twice: dict[int, bool] | None = None,
) -> None:
    """Declarations, Guts calls and run-it-twice answers are not PHH actions; they come
    from ``_declarations``, ``_guts_calls`` and ``_run_it_twice`` when the hand reaches
    that phase (docs/phh.md)."""
    run_twice = run_twice or {}
    while hand.phase == "guts":
        pending = hand.guts_pending()
        if not pending:
            return
        p = hand.to_act if hand.to_act is not None else pending[0]
        if p not in calls:
            raise PHHError(f"p{p + 1} reached the Guts call but _guts_calls has no call")
        hand.apply(GutsCall(p, calls[p]))
    while hand.phase == "run_twice":
        # the answers come from ``_run_it_twice``; a record without them ran once.
        pending = hand.run_twice_pending()
        if not pending:
            return
        hand.apply(RunItTwice(pending[0], run_twice.get(pending[0], False)))
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
    cards = _resolve_cards(
        phh, SHORT_DECK if get_variant(rules.variant).deck == "short" else FULL_DECK
    )
    if cards.guessed and rules.showdown == "auto":
        # Cards nobody saw were filled in: who showed and who mucked is the record's
        # (its sm lines), not what the filled-in cards would do at an automatic showdown.
        rules = dataclasses.replace(rules, showdown="manual")
    hand = Hand(
        rules,
        stacks,
        script=cards.script,
        carried=carried,
        player_ids=[str(p) for p in ids] if isinstance(ids, list) else None,
        pot_state=pot_state_from_dict(json.loads(state_in)) if isinstance(state_in, str) else None,
    )
    declared = _declarations(phh)
    calls = _guts_calls(phh)
    answers = _run_twice_answers(phh)
    for k, line in enumerate(phh.actions):
        _declare_pending(hand, declared, calls, answers)
        parts = line.split("#")[0].split()
        if not parts or parts[0] == "d":
            continue
        if _recorded_no_op_check(hand, parts):
            continue
        action = _to_action(hand, parts)
        if action is None:
            continue
        if hand.over:
            raise PHHError(f"action {line!r} after the hand ended")
        if isinstance(action, RaiseTo) and hand.to_act == action.player and hand.phase == "betting":
            action = _limit_raise_covering_all_in(hand, action)
        elif isinstance(action, Draw) and k in cards.discards:
            action = Draw(action.player, cards.discards[k])
        hand.apply(action)
    _declare_pending(hand, declared, calls, answers)
    if not hand.over:
        raise PHHError("the hand history ends before the hand is over")
    for item in phh.data.get("_shown_by_choice", []):
        who, _, text = str(item).partition("=")
        hand.apply(ShowCards(_player(who), parse_cards(text.strip())))
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
        elif isinstance(e, SecondBoardDealt):
            # Dealt from the same deck in this order: a replay deals it the same way.
            lines.append(f"d db {''.join(e.cards)} # second board")
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


DEALER = "dealer"
"""``export_hand(..., viewer=DEALER)``: the dealer's own book, every card the engine dealt
(tests, tools, the PHH round trip). Never given to a user: users get :func:`export_hand`
with their own position or ``None`` (docs/phh.md)."""


def export_hand(
    hand: Hand,
    players: Sequence[str] | None = None,
    *,
    viewer: int | Literal["dealer"] | None,
    after: Sequence[Event] = (),
) -> str:
    """PHH text for a finished (or running) hand, with our underscore fields, as
    ``viewer`` may see it: a position (that player's own copy: his cards too), ``None``
    (a spectator's copy: only what the whole table saw) or :data:`DEALER` (every card).
    Cards the viewer never saw are ``??`` (bot/poker/redact.py). ``after``: what was
    settled after the hand (the 7-2 bounty, a rabbit hunt: bot/poker/home.py)."""
    events = list(hand.events) if viewer == DEALER else redact(hand.events, _position(viewer))
    extra: dict[str, Any] = {}
    if hand.carried:
        extra["_carried_in"] = hand.carried
    if hand.result is not None and hand.result.carried:
        extra["_carried_out"] = hand.result.carried
    declared = declarations(events)
    if declared:
        extra["_declarations"] = [f"p{p + 1}={c}" for p, c in sorted(declared.items())]
    calls = guts_calls(events)
    if calls:
        extra["_guts_calls"] = [
            f"p{p + 1}={'in' if v else 'out'}" for p, v in sorted(calls.items())
        ]
    openers = [e for e in events if isinstance(e, OpenersShown)]
    if openers:
        extra["_openers_shown"] = [f"p{e.player + 1}={''.join(e.cards)}" for e in openers]
    extra.update(_home_fields(events, after))
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
        events,
        finishing_stacks=hand.stacks if hand.over else None,
        players=players,
        extra=extra,
    )


def _home_fields(events: Sequence[Event], after: Sequence[Event]) -> dict[str, Any]:
    """The home-game options' fields (§20, docs/phh.md), from public events only."""
    out: dict[str, Any] = {}
    second = [e for e in events if isinstance(e, SecondBoardDealt)]
    if second:
        out["_second_board"] = "".join(c for e in second for c in e.cards)
        out["_second_board_kind"] = second[0].why
    for e in events:
        if isinstance(e, RunItTwiceDecided):
            out["_run_it_twice"] = [f"p{p + 1}={'yes' if a else 'no'}" for p, a in e.answers]
    shows = [e for e in events if isinstance(e, CardsShownByChoice)]
    if shows:
        out["_shown_by_choice"] = [f"p{e.player + 1}={''.join(e.cards)}" for e in shows]
    boards = {e.board for e in events if isinstance(e, PotAwarded)}
    if 1 in boards:
        out["_awards_by_board"] = [
            f"{e.pot_index}:{e.share}:{e.board}:"
            + ",".join(f"p{w + 1}={a}" for w, a in zip(e.winners, e.amounts, strict=True))
            for e in events
            if isinstance(e, PotAwarded)
        ]
    for e in after:
        if isinstance(e, SevenDeuceBounty):
            out["_seven_deuce"] = [
                f"p{p.payer + 1}>p{p.winner + 1}={p.amount}" for p in e.payments
            ] or ["none"]
            out["_seven_deuce_bounty"] = e.bounty
        elif isinstance(e, RabbitHunted):
            out["_rabbit_hunt"] = "".join(e.cards)
            if e.second:
                out["_rabbit_hunt_second"] = "".join(e.second)
    return out


def _position(viewer: int | Literal["dealer"] | None) -> int | None:
    return viewer if isinstance(viewer, int) else None


def iter_paths(paths: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.phh")))
        else:
            out.append(path)
    return out
