"""What the host tools and the waiting list keep at a table (§20, R-20.50 to R-20.56),
folded from the log's ``host_acted`` and ``waitlisted`` records (bot/table/log.py) like
the rest of :class:`bot.table.state.TableState`; the commands are bot/table/host.py and
bot/table/waitlist.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.table.fields import Malformed, as_dict, as_list, as_str

Role = Literal["host", "cohost", "moderator"]
ROLES: tuple[Role, ...] = ("host", "cohost", "moderator")


def role(host: str, cohosts: set[str], user: str) -> Role:
    """Which of the managers (R-20.50) ``user`` acts as: the host, a co-host, or else a
    moderator (the table has let him manage it already)."""
    if user == host:
        return "host"
    return "cohost" if user in cohosts else "moderator"


@dataclass(slots=True)
class Offer:
    """A free seat offered to the first of the waiting list (R-20.55)."""

    user: str
    name: str
    until: float
    """The table clock's moment the offer runs out."""


@dataclass(slots=True)
class Hosting:
    cohosts: set[str] = field(default_factory=set)
    """Players the host named co-hosts (R-20.50): they may use the host's tools."""
    kicked: set[str] = field(default_factory=set)
    """Players kicked during a hand (R-20.51): the clock folds them at once, in turn."""
    waiting: list[tuple[str, str]] = field(default_factory=list)
    """The waiting list in order: (user, name) (R-20.55)."""
    offer: Offer | None = None
    restraddles: list[int] = field(default_factory=list)
    """Seats that re-straddle the next deal, in order, after ``TableState.straddler``
    (R-20.57)."""
    kicked_by: dict[str, tuple[Role, str]] = field(default_factory=dict)
    """Per kicked player, who kicked him: the role he acted as (``host``, ``cohost``,
    ``moderator``) and his name ("" when not known), for the kicked player's refusals
    (R-20.81)."""

    @property
    def empty(self) -> bool:
        return not (self.cohosts or self.kicked or self.waiting or self.offer or self.restraddles)

    def waits(self, user: str) -> bool:
        return any(u == user for u, _ in self.waiting) or (
            self.offer is not None and self.offer.user == user
        )

    def drop(self, user: str) -> None:
        """``user`` is no longer waiting: he left the list or took a seat."""
        self.waiting = [(u, n) for u, n in self.waiting if u != user]
        if self.offer is not None and self.offer.user == user:
            self.offer = None

    def to_payload(self) -> dict[str, Any]:
        offer = self.offer
        kicked_by = {u: list(b) for u, b in sorted(self.kicked_by.items())}
        return {
            "cohosts": sorted(self.cohosts),
            "kicked": sorted(self.kicked),
            "waiting": [list(w) for w in self.waiting],
            "offer": None if offer is None else [offer.user, offer.name, offer.until],
            "restraddles": list(self.restraddles),
        } | ({"kicked_by": kicked_by} if kicked_by else {})

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Hosting:
        offer_raw = p.get("offer")
        offer = None
        if offer_raw:
            user, name, until = as_list(offer_raw, "offer")
            offer = Offer(as_str(user, "offer"), as_str(name, "offer"), float(until))
        return cls(
            {as_str(u, "cohosts") for u in as_list(p.get("cohosts", []), "cohosts")},
            {as_str(u, "kicked") for u in as_list(p.get("kicked", []), "kicked")},
            [
                (as_str(w[0], "waiting"), as_str(w[1], "waiting"))
                for w in (as_list(x, "waiting") for x in as_list(p.get("waiting", []), "waiting"))
            ],
            offer,
            [int(n) for n in as_list(p.get("restraddles", []), "restraddles")],
            _kicked_by(p.get("kicked_by", {})),
        )


def _kicked_by(raw: object) -> dict[str, tuple[Role, str]]:
    out: dict[str, tuple[Role, str]] = {}
    for user, by in as_dict(raw, "kicked_by").items():
        role, name = as_list(by, "kicked_by")
        if role not in ROLES:
            raise Malformed(f"'kicked_by' role is {role!r}")
        out[as_str(user, "kicked_by")] = (role, as_str(name, "kicked_by"))
    return out


def read(p: object) -> Hosting:
    """A snapshot's ``hosting`` field (absent in older snapshots: nothing kept)."""
    return Hosting() if p is None else Hosting.from_payload(as_dict(p, "hosting"))
