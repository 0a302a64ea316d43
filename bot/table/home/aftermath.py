"""What the table settled after a finished hand, folded from the log: the rabbit hunt
(R-20.14, once a hand) and the cards shown by choice (R-20.15). Kept by hand number
for the last hands (``TableState.after``, JSON-ready for snapshots), so once a hand
survives a restart and the hand's history shows what was shown; an older hand's are
read back from its own records in the log (:func:`folded`, R-20.61)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable
from typing import Any

from bot.poker.actions import ShowCards
from bot.poker.events import BountyPayment, Event
from bot.poker.events import RabbitHunted as RabbitEvent
from bot.poker.hand import Hand
from bot.table import log
from bot.table.home import sevendeuce
from bot.table.settings import TableSettings

KEEP = 20
"""How many finished hands keep their aftermath (as many as the state's recent hands)."""


def _entry(after: dict[str, Any], hand_no: int) -> dict[str, Any]:
    key = str(hand_no)  # JSON object keys: a snapshot keeps them as text
    entry: dict[str, Any] = after.setdefault(key, {})
    for old in [k for k in after if int(k) <= hand_no - KEEP]:
        del after[old]
    return entry


def fold_rabbit(after: dict[str, Any], p: log.RabbitHunted) -> None:
    entry = _entry(after, p.hand_no)
    entry["rabbit"] = list(p.cards)
    if p.second:
        entry["rabbit_second"] = list(p.second)


def fold_shown(after: dict[str, Any], p: log.ShownByChoice) -> None:
    _entry(after, p.hand_no).setdefault("shown", []).append([p.position, list(p.cards)])


KINDS = (log.RabbitHunted.KIND, log.ShownByChoice.KIND)
"""The log's kinds of what is settled after a hand, which :func:`folded` reads."""


def folded(records: Iterable[log.LogRecord]) -> dict[str, Any]:
    """The aftermath of the hands these records name, folded as the state folds them
    (a hand older than the state keeps is read this way from its rows in the log)."""
    after: dict[str, Any] = {}
    for record in records:
        if isinstance(record, log.RabbitHunted):
            fold_rabbit(after, record)
        elif isinstance(record, log.ShownByChoice):
            fold_shown(after, record)
    return after


def hunted(after: dict[str, Any], hand_no: int) -> bool:
    """Was hand ``hand_no`` already hunted (R-20.14: once a hand)?"""
    return "rabbit" in after.get(str(hand_no), {})


def rabbit_of(after: dict[str, Any], hand_no: int) -> RabbitEvent | None:
    """The rabbit hunt of hand ``hand_no`` as the engine's event, if there was one."""
    entry = after.get(str(hand_no), {})
    if "rabbit" not in entry:
        return None
    second = tuple(entry.get("rabbit_second", ()))
    return RabbitEvent(cards=tuple(entry["rabbit"]), second=second)


def shows_of(after: dict[str, Any], hand_no: int) -> list[ShowCards]:
    """The shows of hand ``hand_no`` in the order made, as engine actions to replay."""
    shown = after.get(str(hand_no), {}).get("shown", [])
    return [ShowCards(int(pos), tuple(cards)) for pos, cards in shown]


def kept(after: dict[str, Any], hand_no: int) -> dict[str, Any]:
    """A copy of hand ``hand_no``'s aftermath, for work in a worker thread while the
    table's loop may fold more into ``after``."""
    key = str(hand_no)
    return {key: copy.deepcopy(after[key])} if key in after else {}


def settled(
    hand: Hand,
    hand_no: int,
    paid: tuple[tuple[int, int, int], ...],
    after: dict[str, Any],
    dealt_under: TableSettings,
) -> list[Event]:
    """The finished ``hand`` replayed with its shows by choice (applied to it, so its
        events hold them as shown cards), and what was settled after it for the export
        (``phh.export_hand(after=)``): the 7-2 bounty as its end wrote it (``paid``:
    ``HandEnded.bounty``), the rabbit hunt."""
    out: list[Event] = []
    # The bounty was settled at the hand's end, before anyone showed by choice.
    bounty = sevendeuce.settle(hand, dealt_under)
    if bounty is not None:
        payments = tuple(BountyPayment(p, w, a) for p, w, a in paid)
        out.append(dataclasses.replace(bounty, payments=payments))
    for show in shows_of(after, hand_no):
        hand.apply(show)
    rabbit = rabbit_of(after, hand_no)
    if rabbit is not None:
        out.append(rabbit)
    return out
