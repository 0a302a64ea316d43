"""R-20.12: the bomb-pot vote's command checks (the record to write, or a refusal in
words) and its public words; the folds of the records are :mod:`bot.table.home.bombvote`."""

from __future__ import annotations

from typing import Any

from bot.poker.messages import Chips, Msg, Name, Number, Rule, msg
from bot.poker.rules import community_game
from bot.poker.variants import get_variant
from bot.table import log
from bot.table.errors import TableError
from bot.table.home.bombvote import needed, passed
from bot.table.seating import Seat
from bot.table.state import TableState

RULE = Rule("R-20.12")


def _open(state: TableState, now: float) -> dict[str, Any] | None:
    vote: dict[str, Any] | None = state.bomb.get("vote")
    if vote is None or now > vote["at"] + state.settings.action_clock:
        return None  # none, or its time ran out (it lapsed)
    return vote


def check_propose(state: TableState, seat: Seat, now: float) -> log.BombProposed:
    """The ``bomb`` command's checks: the record to write, or a refusal."""
    if state.closed:
        raise TableError(msg("table.closed"))
    if passed(state.bomb):
        raise TableError(msg("home.vote.already_passed", rule=RULE))
    if _open(state, now) is not None:
        raise TableError(msg("home.vote.open"))
    variant = state.next_game()[0]
    if not community_game(get_variant(variant)):
        raise TableError(msg("home.vote.game", game=get_variant(variant).title, rule=RULE))
    voters = tuple(sorted(n for n, s in state.seats.items() if s.state != "sitting_out"))
    if seat.number not in voters:
        raise TableError(msg("home.vote.not_in_game", rule=RULE))
    if len(voters) < 2:
        raise TableError(msg("home.vote.too_few", rule=RULE))
    return log.BombProposed(seat.number, voters)


def check_vote(state: TableState, seat: Seat, agree: bool, now: float) -> log.BombVoted:
    """A vote's checks: the record to write, or a refusal."""
    vote = _open(state, now)
    if vote is None:
        raise TableError(msg("home.vote.none"))
    if seat.number not in vote["voters"]:
        raise TableError(msg("home.vote.not_voter", rule=RULE))
    if seat.number in vote["yes"] or seat.number in vote["no"]:
        raise TableError(msg("home.vote.final"))
    return log.BombVoted(seat.number, agree)


def lapsed_said(state: TableState) -> Msg | None:
    """R-20.73: what the deal about to start says of a proposal still open (not passed,
    not voted down): it lapses, and the hand is dealt as usual. None when there is none."""
    if state.bomb.get("vote") is None or passed(state.bomb):
        return None
    return msg("home.vote.lapsed", rule=RULE)


def straddle_lapsed_said(state: TableState, bomb_pot: bool) -> Msg | None:
    """R-20.74: a straddle asked for a deal that is a bomb pot lapses (R-20.4: no
    straddles), said to the table. None when no straddle was asked or it is no bomb pot."""
    seat = state.seats.get(state.straddler) if state.straddler is not None else None
    if not bomb_pot or seat is None:
        return None
    return msg("home.bomb.no_straddle", who=Name(seat.name), rule=Rule("R-20.4"))


def proposed_said(state: TableState, seat: Seat, record: log.BombProposed, ante: int) -> Msg:
    return msg(
        "home.vote.proposed",
        who=Name(seat.name),
        ante=Chips(ante),
        seconds=Number(int(state.settings.action_clock)),
        needed=Number(needed(len(record.voters))),
        rule=RULE,
    )


def voted_said(state: TableState, seat: Seat, agree: bool) -> Msg:
    """The vote (public: votes are not sealed) and, when it settles, the result."""
    said = msg("home.vote.yes" if agree else "home.vote.no", who=Name(seat.name))
    if passed(state.bomb):
        return msg("home.vote.then", said=said, then=msg("home.vote.passed", rule=RULE))
    if state.bomb.get("vote") is None:
        return msg("home.vote.then", said=said, then=msg("home.vote.failed", rule=RULE))
    return said
