"""Other pot systems (§15): two to win (R-15.1) and the Guts match pot (R-15.2, R-15.3).

Pure functions over small frozen states that live *across* hands, so players are named
by their stable player ids (``str``), not by seat positions, which change between deals.
Integers only; every function asserts chip conservation between the state before, the
chips moved, and the state after.

Decisions where the rulebook is silent (documented where implemented):

* Two to win: a hand won uncontested (everyone else folded) counts as a win, exactly like
  a showdown win: the pot is the winner's marker or his to collect. A tie among three or
  more follows the two-player rule: if no tied winner holds a marker they all get one,
  otherwise the marker holders among them split the pot (one alone takes it).
* Guts, max pot: losers pay the pot in play (the capped pot); whatever a new pot holds
  above the maximum waits in the reserve. The reserve is brought into play only when the
  pot is empty (a lone stayer, or tied stayers with no loser, took it): the next pot is
  refilled from the reserve (up to the maximum) and nobody stakes until pot and reserve
  are both empty.
* Guts, ghost hand: stayers must *beat* the ghost; a tie with it is a ghost win, and
  then every stayer pays the pot and the pot stays where it is.
* Guts, only the worst pays: the worst hand among the losing stayers matches the pot
  (tied worst hands all pay); every other dealt-in player antes ``worst_pays_ante`` into
  the next pot, whenever somebody matches (a ghost win included). Nobody antes when
  nobody stays in or when the pot is taken without a loser.
* Guts, legs: a lone stayer gets a leg instead of the pot, and so does each of several
  stayers who all tie (nobody lost, so nobody won a contested showdown). Whoever reaches
  the required number of legs collects the pot; several reaching it at once split it.
  Collecting clears everyone's legs. A contested showdown with losers is settled as
  usual and does not touch the legs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from bot.poker.declare import SealedChoices
from bot.poker.errors import ConfigError, NotYourTurn
from bot.poker.messages import Chips, Msg, Name, Number, Param, joined, msg, names
from bot.poker.pots import split

Label = Callable[[str], Param]
"""How a pot system's log names a player id: a :class:`Player` by position at a table,
his id as a :class:`Name` by default."""


def split_by_id(amount: int, winners: Sequence[str], order: Sequence[str]) -> dict[str, int]:
    """R-11.1/R-11.2 for player ids: equal shares, odd chips one each to the winners first
    in ``order`` (clockwise from the button's left). Every winner must be in ``order``."""
    missing = [w for w in winners if w not in order]
    if missing:
        raise ValueError(f"winners not in the seating order: {missing}")
    index = {p: i for i, p in enumerate(order)}
    amounts = split(amount, [index[w] for w in winners], range(len(order)))
    return dict(zip(winners, amounts, strict=True))


# ---------------------------------------------------------------- two to win


@dataclass(frozen=True, slots=True)
class TwoToWinState:
    """The pot waiting for a second win, and who holds a marker."""

    pot: int = 0
    markers: frozenset[str] = frozenset()


def settle_two_to_win(
    state: TwoToWinState,
    pot_this_hand: int,
    winners: Sequence[str],
    order: Sequence[str],
    *,
    uncontested: bool = False,
    label: Label = Name,
) -> tuple[TwoToWinState, dict[str, int], list[Msg]]:
    """R-15.1: the hand's winner(s) get a marker, or collect the accumulated pot.

    ``pot_this_hand`` joins the accumulated pot first. ``winners`` are the tied best
    hands (one for an outright win); ``order`` is the odd-chip order (R-11.2).
    ``uncontested`` (everyone else folded) only changes the log: it still counts as a win
    (decision: otherwise a marker holder could never collect without a showdown). An
    empty ``winners`` (nobody could win) leaves the pot where it is.

    Returns the new state, the chips paid to each player, and the log as messages,
    which name players through ``label`` (the id itself by default).
    """
    if pot_this_hand < 0:
        raise ValueError("pot_this_hand must not be negative")
    if len(set(winners)) != len(winners):
        raise ValueError("a winner is listed twice")
    if any(w not in order for w in winners):
        raise ValueError("every winner must be in the seating order")
    pot = state.pot + pot_this_hand
    log: list[Msg] = []
    how = "_uncontested" if uncontested else ""
    payouts: dict[str, int] = {}
    holders = [w for w in winners if w in state.markers]
    if not winners:
        new = TwoToWinState(pot, state.markers)
        log.append(msg("two.nobody", pot=Chips(pot)))
    elif holders:
        # A second win collects; among tied winners only the marker holders share it.
        payouts = split_by_id(pot, holders, order)
        new = TwoToWinState(0, frozenset())
        if len(holders) == 1:
            log.append(msg(f"two.second_win{how}", player=label(holders[0]), pot=Chips(pot)))
        else:
            parts = joined(
                [
                    msg("engine.player_chips", player=label(p), amount=Chips(a))
                    for p, a in payouts.items()
                ]
            )
            log.append(msg("two.second_win_split", players=_join(holders, label), parts=parts))
        log.append(msg("two.markers_cleared"))
    else:
        new = TwoToWinState(pot, state.markers | frozenset(winners))
        key = "two.marker" if len(winners) == 1 else "two.markers"
        log.append(msg(key + how, players=_join(winners, label), pot=Chips(pot)))
    # Conservation: what was in the pot plus this hand's chips is paid out or stays.
    assert sum(payouts.values()) + new.pot == state.pot + pot_this_hand
    return new, payouts, log


def _join(players: Sequence[str], label: Label = Name) -> Msg:
    """Players said as a list (``Ann, Bob and Cy``)."""
    return msg("engine.list", items=names([label(p) for p in players]))


# ---------------------------------------------------------------- Guts

GutsMode = Literal["chip", "count_and_drop", "sequential"]
DEFAULT_LEGS = 3
"""R-15.3: legs needed to collect the pot when the legs option is on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GutsOptions:
    """The match-pot rules of a Guts game (R-15.2, R-15.3 options)."""

    stake: int
    mode: GutsMode = "chip"
    max_pot: int | None = None
    only_worst_pays: bool = False
    worst_pays_ante: int = 0
    ghost_hand: bool = False
    legs: int | None = None
    """Legs needed to collect (``DEFAULT_LEGS`` is the rulebook default); None = no legs."""

    def __post_init__(self) -> None:
        if self.stake <= 0:
            raise ConfigError(msg("config.guts_stake"))
        if self.max_pot is not None and self.max_pot <= 0:
            raise ConfigError(msg("config.guts_max_pot"))
        if self.worst_pays_ante < 0:
            raise ConfigError(msg("config.guts_ante"))
        if self.legs is not None and self.legs < 1:
            raise ConfigError(msg("config.guts_legs"))


@dataclass(frozen=True, slots=True, kw_only=True)
class GutsState:
    """The pot in play, the reserve above the maximum pot, and legs held (by player id)."""

    pot: int = 0
    reserve: int = 0
    legs: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Frozen all the way down: a read-only copy of the legs, without zero entries.
        legs = {p: n for p, n in self.legs.items() if n}
        object.__setattr__(self, "legs", MappingProxyType(legs))

    @property
    def total(self) -> int:
        return self.pot + self.reserve


def _cap(total: int, reserve: int, options: GutsOptions) -> tuple[int, int]:
    """R-15.3 maximum pot: (pot, reserve) with anything above the cap moved to reserve."""
    if options.max_pot is None or total <= options.max_pot:
        return total, reserve
    return options.max_pot, reserve + total - options.max_pot


def guts_stakes(
    state: GutsState, players: Sequence[str], options: GutsOptions
) -> tuple[dict[str, int], GutsState]:
    """R-15.2: before the deal, fill an empty pot.

    A pot with chips in it plays as it is. An empty pot is refilled from the reserve first
    (up to the maximum, E-13); only with pot and reserve both empty does every player put
    in the stake. Returns each player's stake and the new state.
    """
    if state.pot > 0:
        return {}, state
    if state.reserve > 0:
        take = state.reserve if options.max_pot is None else min(state.reserve, options.max_pot)
        return {}, GutsState(pot=take, reserve=state.reserve - take, legs=state.legs)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    stakes = {p: options.stake for p in players}
    pot, reserve = _cap(sum(stakes.values()), 0, options)
    new = GutsState(pot=pot, reserve=reserve, legs=state.legs)
    assert new.total == state.total + sum(stakes.values())
    return stakes, new


@dataclass(frozen=True, slots=True, kw_only=True)
class GutsResult:
    """What one Guts showdown moves: ``pays`` (chips each player puts in for the next pot)
    and ``wins`` (chips each player takes), the new state and the log."""

    pays: dict[str, int]
    wins: dict[str, int]
    state: GutsState
    log: tuple[Msg, ...]

    @property
    def net(self) -> dict[str, int]:
        """Each player's change in chips (wins minus pays)."""
        out: dict[str, int] = {}
        for p, a in self.wins.items():
            out[p] = out.get(p, 0) + a
        for p, a in self.pays.items():
            out[p] = out.get(p, 0) - a
        return out


def settle_guts(
    state: GutsState,
    stayers: Sequence[str],
    values: Mapping[str, int],
    ghost_value: int | None,
    order: Sequence[str],
    options: GutsOptions,
    *,
    label: Label = Name,
    stacks: Mapping[str, int] | None = None,
) -> GutsResult:
    """R-15.2/R-15.3: settle one deal of a match-pot game.

    ``stayers`` declared in; ``values`` holds their hand values (higher is better);
    ``ghost_value`` is the ghost/kitty hand's value (required with ``ghost_hand``);
    ``order`` is every player dealt in, clockwise from the button's left: the odd-chip
    order (R-11.2) and the players who ante under "only the worst pays". The log names
    players through ``label`` (the id itself by default). ``stacks``: table stakes (R-2.1),
    a player pays at most what he has, and the next pot holds only what was paid.
    """

    def owed(player: str, amount: int) -> int:
        return amount if stacks is None else min(amount, stacks[player])

    if len(set(stayers)) != len(stayers):
        raise ValueError("a stayer is listed twice")
    missing = [s for s in stayers if s not in order or s not in values]
    if missing:
        raise ValueError(f"stayers without a seat or a hand value: {missing}")
    if options.ghost_hand and ghost_value is None and stayers:
        raise ValueError("the ghost hand needs a value")
    pot = state.pot
    legs = dict(state.legs)
    pays: dict[str, int] = {}
    wins: dict[str, int] = {}
    log: list[Msg] = []
    new_pot = pot  # the pot for the next deal, before the cap
    if not stayers:
        log.append(msg("guts.nobody_stays", pot=Chips(pot)))
    else:
        best = max(values[s] for s in stayers)
        top = [s for s in stayers if values[s] == best]
        ghost_wins = options.ghost_hand and ghost_value is not None and ghost_value >= best
        if ghost_wins:
            # the kitty must be beaten (a tie does not beat it); everyone in pays.
            for s in stayers:
                pays[s] = owed(s, pot)
            log.append(msg("guts.ghost_wins", paying=_paying(list(stayers), pays, pot, label)))
            new_pot = pot + sum(pays.values())
            new_pot += _antes(pays, order, options, log, label, owed)
        elif len(top) == len(stayers):
            # Nobody lost: a lone stayer (or stayers all tied) takes the pot, or legs.
            if options.legs is None:
                wins = split_by_id(pot, top, order)
                log.append(_took(top, wins, pot, label))
                new_pot = 0
            else:
                for s in top:
                    legs[s] = legs.get(s, 0) + 1
                leg_msgs = [
                    msg(
                        "guts.leg",
                        player=label(s),
                        legs=Number(legs[s]),
                        needed=Number(options.legs),
                    )
                    for s in top
                ]
                log.append(msg("engine.sentence", text=joined(leg_msgs, "engine.semicolon")))
                done = [s for s in top if legs[s] >= options.legs]
                if done:
                    wins = split_by_id(pot, done, order)
                    log.append(_took(done, wins, pot, label))
                    log.append(msg("guts.legs_cleared"))
                    legs = {}
                    new_pot = 0
        else:
            wins = split_by_id(pot, top, order)
            log.append(_took(top, wins, pot, label))
            losers = [s for s in stayers if s not in top]
            if options.only_worst_pays:
                worst = min(values[s] for s in losers)
                losers = [s for s in losers if values[s] == worst]
            for s in losers:
                pays[s] = owed(s, pot)
            log.append(_paying(losers, pays, pot, label))
            new_pot = sum(pays.values())
            new_pot += _antes(pays, order, options, log, label, owed)
    reserve = state.reserve
    pot_after, reserve_after = _cap(new_pot, reserve, options)
    if reserve_after > reserve:
        log.append(
            msg(
                "guts.capped",
                pot=Chips(pot_after),
                reserve=Chips(reserve_after - reserve),
            )
        )
    new = GutsState(pot=pot_after, reserve=reserve_after, legs=legs)
    if new.pot:
        if new.reserve:
            log.append(msg("guts.next_pot_reserve", pot=Chips(new.pot), reserve=Chips(new.reserve)))
        else:
            log.append(msg("guts.next_pot", pot=Chips(new.pot)))
    elif new.reserve:
        log.append(msg("guts.next_from_reserve", reserve=Chips(new.reserve)))
    # Chip conservation: before + paid in == taken out + after.
    assert state.total + sum(pays.values()) == sum(wins.values()) + new.total
    return GutsResult(pays=pays, wins=wins, state=new, log=tuple(log))


def _took(winners: Sequence[str], wins: Mapping[str, int], pot: int, label: Label) -> Msg:
    if len(winners) == 1:
        return msg("guts.takes", player=label(winners[0]), pot=Chips(pot))
    parts = joined(
        [msg("engine.player_chips", player=label(p), amount=Chips(wins[p])) for p in winners]
    )
    return msg("guts.split", players=_join(winners, label), pot=Chips(pot), parts=parts)


def _paying(payers: Sequence[str], pays: Mapping[str, int], pot: int, label: Label) -> Msg:
    """ "b and c pay 60 each." — or, under table stakes, what each really paid."""
    if all(pays[p] == pot for p in payers):
        key = "guts.pays" if len(payers) == 1 else "guts.pay_each"
        return msg(key, players=_join(payers, label), amount=Chips(pot))
    parts = [
        msg(
            "guts.pays_one" if pays[p] == pot else "guts.pays_all_he_has",
            player=label(p),
            amount=Chips(pays[p]),
        )
        for p in payers
    ]
    return msg("engine.sentence", text=joined(parts, "engine.semicolon"))


def _antes(
    pays: dict[str, int],
    order: Sequence[str],
    options: GutsOptions,
    log: list[Msg],
    label: Label,
    owed: Callable[[str, int], int],
) -> int:
    """R-15.3 "only the worst pays": everyone else antes into the next pot. Mutates
    ``pays`` (adding the antes) and returns the chips added."""
    if not options.only_worst_pays or options.worst_pays_ante == 0:
        return 0
    others = [p for p in order if p not in pays]
    for p in others:
        pays[p] = owed(p, options.worst_pays_ante)
    if others:
        log.append(
            msg(
                "guts.ante_each",
                players=_join(others, label),
                amount=Chips(options.worst_pays_ante),
            )
        )
    return sum(pays[p] for p in others)


# ---------------------------------------------------------------- in or out


def sequential_order(players: Sequence[str], dealer: str) -> list[str]:
    """R-15.2 sequential declare: clockwise from the dealer's left, the dealer last.

    ``players`` are in clockwise seat order and include the dealer.
    """
    if dealer not in players:
        raise ValueError("the dealer must be one of the players")
    i = players.index(dealer) + 1
    return [*players[i:], *players[:i]]


class GutsCalls(SealedChoices[str, bool]):
    """The in/out declaration of a Guts deal (R-15.2); ``True`` means in.

    "chip" (default) and "count_and_drop" are simultaneous: sealed like the hi-lo fists
    until everyone has chosen, then revealed together. "sequential" is public, one by one
    in ``players`` order (give it :func:`sequential_order`); each call is visible at once
    through :meth:`called`.
    """

    __slots__ = ("_mode", "_public")

    def __init__(self, players: Iterable[str], mode: GutsMode) -> None:
        super().__init__(players, (True, False))
        self._mode: GutsMode = mode
        self._public: dict[str, bool] = {}

    @property
    def mode(self) -> GutsMode:
        return self._mode

    def to_call(self) -> str | None:
        """Sequential mode: whose call it is (None when done or simultaneous)."""
        if self._mode != "sequential":
            return None
        pending = self.pending()
        return pending[0] if pending else None

    def commit(self, player: str, choice: bool) -> None:
        if self._mode == "sequential" and player in self.pending() and player != self.to_call():
            raise NotYourTurn(msg("refuse.guts_whose_turn", player=Name(str(self.to_call()))))
        super().commit(player, choice)
        if self._mode == "sequential":
            # Sequential calls are made aloud, so they are public as soon as made.
            self._public[player] = choice

    def called(self) -> dict[str, bool]:
        """The calls so far: public in sequential mode; sealed (refused) otherwise until
        everyone has called."""
        if self._mode != "sequential":
            return self.reveal()
        return dict(self._public)

    def stayers(self) -> list[str]:
        """Who is in, in the order given; only after the reveal."""
        return [p for p, c in self.reveal().items() if c]
