"""Random legal play through the service (scripted players, the kill test, the bench).

A robot reads only what a player could know: the ``Legal`` the engine offers him and his
own cards. It never computes a bet itself; it picks one of the offered actions and an
amount inside the offered range, and in draw games discards a random few of its cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.poker.legal import Legal
from bot.table.text_actions import ActionRequest


def pick(legal: Legal, rng: random.Random, my_cards: Sequence[str] = ()) -> ActionRequest:
    acts = legal.actions
    if "declare" in acts:
        return ActionRequest("declare", choice=rng.choice(("low", "high", "both")))
    if "guts" in acts:
        return ActionRequest(rng.choice(("guts_in", "guts_out")))
    if "run_twice" in acts:
        return ActionRequest(rng.choice(("run_twice_yes", "run_twice_no")))
    if "draw" in acts:
        # Stand pat now and then; otherwise throw away 1..draw_max of its own cards.
        k = rng.randint(0, min(legal.draw_max, len(my_cards)))
        return ActionRequest("draw", cards=tuple(rng.sample(list(my_cards), k)))
    if "show" in acts:
        return ActionRequest("show")
    options: list[ActionRequest] = []
    if "check" in acts:
        options += [ActionRequest("check")] * 4
    if "call" in acts:
        options += [ActionRequest("call")] * 4
    if "bring_in" in acts:
        options.append(ActionRequest("bring_in"))
    if legal.min_to is not None and legal.max_to is not None and rng.random() < 0.5:
        hi = min(legal.max_to, legal.min_to * 3)
        options.append(ActionRequest("raise_to", rng.randint(legal.min_to, max(legal.min_to, hi))))
    if "fold" in acts and "check" not in acts:
        options += [ActionRequest("fold")] * 2
    if rng.random() < 0.03 and "all_in" in acts:
        options.append(ActionRequest("all_in"))
    return rng.choice(options) if options else ActionRequest("fold")
