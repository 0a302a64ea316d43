"""A re-entry's registration notice names the entry by its number among its player's
entries, as every other notice does (R-19.59, R-19.104)."""

from __future__ import annotations

import random

from bot.poker.messages import Count, Name, Number, msg
from bot.tournament import director
from bot.tournament.structure import Entries
from tests.test_tournament import _shape, _started


def test_R_19_104_the_reentered_notice_names_the_entry_by_its_number() -> None:
    d = _started(4, stack=1000, entries=Entries(late_until=2, reentries=2))
    a, b, *_ = d.seated(1)
    name = next(e.name for e in d.state.entries if e.entry == a)
    d.hand(1, {a: 0, b: 2000})
    back = d.do(director.register(d.state, a, name, tables=[_shape(d, 1)], rng=random.Random(1)))
    said = back.notices[0]
    assert said == msg(
        "tournament.reentered",
        player=msg("results.entry", name=Name(name), number=Number(2)),
        count=Count(5),
    )
    # The seat notice names the same entry the same way.
    assert dict(back.notices[1].params)["player"] == dict(said.params)["player"]
    d.hand(1, {f"{a}#2": 0, b: 3000})
    third = d.do(director.register(d.state, a, name, tables=[_shape(d, 1)], rng=random.Random(2)))
    player = dict(third.notices[0].params)["player"]
    assert player == msg("results.entry", name=Name(name), number=Number(3))
    assert sum(d.state.stacks.values()) == d.state.chips
