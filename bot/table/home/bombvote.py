"""R-20.12: a bomb pot by vote. A player in the game proposes one for the next deal; the
players in the game when it was proposed vote yes or no (the proposer is a yes); a
majority of them passes it, within the table's ``action_clock`` seconds. A proposal is
for the next deal only: the deal spends it, passed or not.

The state (``TableState.bomb``) is folded from the log's ``bomb_proposed``,
``bomb_voted`` and ``bomb_lapsed`` records by the functions here, so recovery replays it
exactly; the command's checks and words are :mod:`bot.table.home.bombask`'s, the clock's
lapse :mod:`bot.table.home.bomblapse`'s."""

from __future__ import annotations

from typing import Any

from bot.table import log


def needed(voters: int) -> int:
    """Yes votes that pass a proposal among ``voters``: more than half."""
    return voters // 2 + 1


def _settle(bomb: dict[str, Any]) -> None:
    vote = bomb.get("vote")
    if vote is None:
        return
    voters = len(vote["voters"])
    if len(vote["yes"]) >= needed(voters):
        bomb["passed"] = True
        if vote.get("ante"):
            # what the players agreed to is what the deal plays.
            bomb["ante"], bomb["double_board"] = vote["ante"], vote["double_board"]
        del bomb["vote"]
    elif voters - len(vote["no"]) < needed(voters):
        del bomb["vote"]  # a majority can no longer say yes


def fold_proposed(bomb: dict[str, Any], p: log.BombProposed) -> None:
    bomb["vote"] = {
        "seat": p.seat,
        "at": p.at or 0.0,
        "voters": list(p.voters),
        "yes": [p.seat],
        "no": [],
    }
    if p.ante:
        bomb["vote"] |= {"ante": p.ante, "double_board": p.double_board}
    _settle(bomb)


def fold_voted(bomb: dict[str, Any], p: log.BombVoted) -> None:
    vote = bomb.get("vote")
    if vote is None:
        return
    vote["yes" if p.agree else "no"].append(p.seat)
    _settle(bomb)


def fold_lapsed(bomb: dict[str, Any]) -> None:
    """R-20.82: the open proposal's time ran out: it lapsed (said by the clock)."""
    bomb.pop("vote", None)


def ends_at(bomb: dict[str, Any], clock: float) -> float | None:
    """When the open proposal's time runs out (``clock``: the table's action clock);
    None when none is open."""
    vote = bomb.get("vote")
    return None if vote is None else float(vote["at"]) + clock


def fold_dealt(bomb: dict[str, Any]) -> None:
    """A deal spends the proposal: passed (this deal is its bomb pot) or not."""
    bomb.clear()


def passed(bomb: dict[str, Any]) -> bool:
    """A proposal passed for the next deal."""
    return bool(bomb.get("passed"))


def agreed(bomb: dict[str, Any]) -> tuple[int, bool] | None:
    """R-20.75: the ante and the double board a passed proposal agreed to; None when
    none passed, or its record (an older version's) kept none."""
    if not passed(bomb) or not bomb.get("ante"):
        return None
    return int(bomb["ante"]), bool(bomb["double_board"])
