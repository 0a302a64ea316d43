"""Purchases asked for during the player's hand, queued and made once it is over
(R-19.74, R-19.66, R-19.67).

A rebuy or the add-on asked for while the buyer's table is in a hand is kept in the
tournament's journal log (a ``queued`` row under the purchase's key: a double click or
a delivery repeated queues once) and made when a hand ends at a table, in the order
asked, with the same key the purchase would have had at once (``rebuy:<key>``), so
the director's decision and its journal key are the mark that it was made: a restart
between the ask and the end of the hand makes it once. A purchase that is refused then
is settled with its reason (a ``queue_settled`` row); the buyer is told each outcome
(a ``queue_told`` row after the telling: told at least once, even across a crash).

The terminal's offer of a re-entry (R-19.74: asked once) is kept here too (an
``offered`` row), so a restarted terminal does not ask again.

Everything is data and messages; the platforms say the outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.poker.messages import Chips, Count, Msg, Name, Number, Param, Rule, Term, msg
from bot.table.ports import DuplicateKey
from bot.tournament.director import Decision, State
from bot.tourney_run.journal import Journal

QUEUED = "queued"
SETTLED = "queue_settled"
TOLD = "queue_told"
OFFERED = "offered"
IN_HAND = "tournament.refuse.in_hand"
NOT_RUNNING = "tournament.refuse.not_running"


@dataclass(frozen=True, slots=True)
class Asked:
    """A purchase asked for during the player's hand: its key (the one it is decided
    under), the player, the add-on or a rebuy, his entries when he asked, and whether
    it is a re-entry (asked at the terminal once he is out, made by his platform: it
    was made once his entries are more than when he asked)."""

    key: str
    player: str
    addon: bool = False
    entries: int = 0
    reentry: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """A queued purchase settled: made or refused, and what the buyer is told."""

    asked: Asked
    made: bool
    said: Msg


# ---------------------------------------------------------------- a message as data

_SIMPLE: dict[str, type[Chips] | type[Count] | type[Number]] = {
    "chips": Chips,
    "count": Count,
    "number": Number,
}


def _param_data(value: Param) -> list[Any]:
    if isinstance(value, Msg):
        return ["msg", msg_data(value)]
    if isinstance(value, Chips | Count | Number):
        return [type(value).__name__.lower(), value.n]
    if isinstance(value, Name):
        return ["name", value.text]
    if isinstance(value, Rule):
        return ["rule", value.id]
    if isinstance(value, Term):
        return ["term", value.key]
    raise TypeError(f"a {type(value).__name__} is not kept in a queued purchase's outcome")


def msg_data(m: Msg) -> dict[str, Any]:
    """``m`` as JSON data (the parameters a purchase's notice or refusal carries)."""
    return {"key": m.key, "params": [[name, *_param_data(v)] for name, v in m.params]}


def msg_of(data: Mapping[str, Any]) -> Msg:
    params: list[tuple[str, Param]] = []
    for name, kind, value in data["params"]:
        if kind == "msg":
            params.append((str(name), msg_of(value)))
        elif kind in _SIMPLE:
            params.append((str(name), _SIMPLE[kind](value)))
        elif kind == "name":
            params.append((str(name), Name(str(value))))
        elif kind == "rule":
            params.append((str(name), Rule(str(value))))
        elif kind == "term":
            params.append((str(name), Term(str(value))))
        else:
            raise ValueError(f"unknown parameter kind {kind!r}")
    return msg(str(data["key"]), **dict(params))


# ---------------------------------------------------------------- the queue


class Queue:
    """A tournament's queued purchases, mirrored from its journal log."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.asked: list[Asked] = []
        self.settled: dict[str, Outcome] = {}
        self.told: set[str] = set()
        self.offered: set[tuple[str, int]] = set()

    async def load(self) -> None:
        """Read the queue back from the journal log (at a restart)."""
        self.asked, self.settled, self.told, self.offered = [], {}, set(), set()
        by_key: dict[str, Asked] = {}
        for row in await self.journal.store.events(self.journal.log_id):
            data = row.payload
            if row.kind == QUEUED:
                asked = Asked(
                    str(data["key"]), str(data["player"]), bool(data["addon"]),
                    int(data.get("entries", 0)), bool(data.get("reentry", False)),
                )  # fmt: skip
                by_key[asked.key] = asked
                self.asked.append(asked)
            elif row.kind == SETTLED and data["key"] in by_key:
                asked = by_key[data["key"]]
                self.settled[asked.key] = Outcome(asked, bool(data["made"]), msg_of(data["said"]))
            elif row.kind == TOLD:
                self.told.add(str(data["key"]))
            elif row.kind == OFFERED:
                self.offered.add((str(data["player"]), int(data["entries"])))

    def has(self, key: str) -> bool:
        return any(a.key == key for a in self.asked)

    def waiting(self, player: str | None = None) -> list[Asked]:
        """The purchases queued and not yet settled, in the order asked."""
        return [
            a
            for a in self.asked
            if a.key not in self.settled and (player is None or a.player == player)
        ]

    def untold(self) -> list[Outcome]:
        """The outcomes whose buyer has not yet been told, in the order settled."""
        return [o for k, o in self.settled.items() if k not in self.told]

    async def _append(self, kind: str, payload: dict[str, Any], key: str) -> bool:
        try:
            await self.journal.store.append(self.journal.log_id, kind, payload, idem_key=key)
        except DuplicateKey:
            return False
        return True

    async def add(self, asked: Asked) -> bool:
        """Queue ``asked`` once by its key; False when it was queued already."""
        if self.has(asked.key):
            return False
        payload = {
            "key": asked.key,
            "player": asked.player,
            "addon": asked.addon,
            "entries": asked.entries,
            "reentry": asked.reentry,
        }
        if not await self._append(QUEUED, payload, f"queued:{asked.key}"):
            return False
        self.asked.append(asked)
        return True

    async def settle(self, asked: Asked, *, made: bool, said: Msg) -> Outcome:
        """``asked`` made or refused (once: a second settling keeps the first)."""
        if asked.key in self.settled:
            return self.settled[asked.key]
        outcome = Outcome(asked, made, said)
        payload = {"key": asked.key, "made": made, "said": msg_data(said)}
        await self._append(SETTLED, payload, f"settled:{asked.key}")
        self.settled[asked.key] = outcome
        return outcome

    async def mark_told(self, key: str) -> None:
        """The buyer of ``key`` has been told its outcome."""
        self.told.add(key)
        await self._append(TOLD, {"key": key}, f"told:{key}")

    async def offer(self, player: str, entries: int) -> bool:
        """Whether ``player``, out with ``entries`` entries, is to be asked now if he
        enters again: True the first time only (a restart does not ask again)."""
        if (player, entries) in self.offered:
            return False
        self.offered.add((player, entries))
        payload = {"player": player, "entries": entries}
        await self._append(OFFERED, payload, f"offered:{player}:{entries}")
        return True


# ---------------------------------------------------------------- over the runner


class Runner(Protocol):
    """What the queue needs of :class:`bot.tourney_run.runner.Runner`."""

    queue: Queue
    keys: set[str]

    @property
    def st(self) -> State: ...

    async def rebuy(self, player: str, *, addon: bool = False, key: str) -> Decision: ...

    def lasting_refusal(self, player: str, *, addon: bool = False) -> Decision | None: ...


def queued_words(addon: bool) -> Msg:
    """The buyer's answer when his purchase waits for the end of his hand."""
    return msg("tourney.queue.addon" if addon else "tourney.queue.rebuy")


async def ask(runner: Runner, player: str, *, addon: bool = False, key: str) -> Decision:
    """A rebuy or the add-on for ``player``, once by ``key``: made now between his
    hands (after what he queued before), queued during his hand when only the hand
    stands in its way (the answer says so), refused at once with the director's reason
    otherwise (R-19.120)."""
    if runner.queue.has(key):  # asked again: a double click, a repeated delivery
        if key in runner.queue.settled:
            return Decision()  # counted already (made or refused and told)
        return Decision(notices=(queued_words(addon),))
    if runner.st.status != "running":
        return Decision(refusal=msg(NOT_RUNNING))  # nothing is sold before or after
    await settle(runner)
    if runner.queue.waiting(player):  # still in his hand: only a lasting refusal now
        decision = runner.lasting_refusal(player, addon=addon) or Decision(refusal=msg(IN_HAND))
    else:
        decision = await runner.rebuy(player, addon=addon, key=key)
    if decision.refusal is None or decision.refusal.key != IN_HAND:
        return decision
    await runner.queue.add(Asked(key, player, addon, _entries(runner.st, player)))
    return Decision(notices=(queued_words(addon),))


def _entries(state: State, player: str) -> int:
    return sum(1 for e in state.entries if e.player == player)


def _made(runner: Runner, asked: Asked) -> bool:
    return f"rebuy:{asked.key}" in runner.keys


def pending(runner: Runner, player: str) -> list[Asked]:
    """``player``'s purchases still to make, in the order asked: queued, not settled,
    and not made meanwhile (a purchase is made, then its settling written)."""
    return [a for a in runner.queue.waiting(player) if not _made(runner, a)]


async def settle(runner: Runner) -> list[Outcome]:
    """Every queued purchase whose buyer is between hands now, in the order asked
    (one still in his hand waits, and so do his later ones): made, or refused with the
    reason it is refused for now; once the tournament is cancelled or over, every one
    refused. A purchase made before a crash cut its settling short is settled as made,
    not made again."""
    out: list[Outcome] = []
    blocked: set[str] = set()
    if runner.st.status != "running":  # cancelled or over: none is made, each is told
        refused = Decision(refusal=msg(NOT_RUNNING))
        for asked in runner.queue.waiting():
            if not _made(runner, asked):
                out.append(await record(runner.queue, asked, refused))
    for asked in runner.queue.waiting():
        if asked.reentry:
            blocked.add(asked.player)  # his platform enters him again; the rest waits
        if asked.player in blocked:
            continue
        if _made(runner, asked):
            said = queued_done(asked)
            out.append(await runner.queue.settle(asked, made=True, said=said))
            continue
        decision = await runner.rebuy(asked.player, addon=asked.addon, key=asked.key)
        if decision.refusal is not None and decision.refusal.key == IN_HAND:
            blocked.add(asked.player)
            continue
        out.append(await record(runner.queue, asked, decision))
    return out


def queued_done(asked: Asked) -> Msg:
    """What the buyer of a purchase made before a restart is told (its notice is not
    kept in the journal)."""
    return msg("tourney.queue.made_addon" if asked.addon else "tourney.queue.made_rebuy")


async def record(queue: Queue, asked: Asked, decision: Decision) -> Outcome:
    """``asked`` settled by ``decision``: refused with its reason, or made (said by
    the director's notice, or the plain words when it applied nothing new)."""
    if decision.refusal is not None:
        return await queue.settle(asked, made=False, said=decision.refusal)
    said = decision.notices[0] if decision.notices else queued_done(asked)
    return await queue.settle(asked, made=True, said=said)


def outcome_words(outcome: Outcome) -> Msg:
    """The buyer's DM: his queued purchase made (the director's words) or refused
    (the reason)."""
    key = "tourney.queue.done" if outcome.made else "tourney.queue.refused"
    return msg(key, said=outcome.said)


__all__ = [
    "Asked",
    "Outcome",
    "Queue",
    "Runner",
    "ask",
    "msg_data",
    "msg_of",
    "outcome_words",
    "pending",
    "queued_done",
    "queued_words",
    "record",
    "settle",
]
