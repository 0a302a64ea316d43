"""Hi-lo declaration (§13): the chip-fist bookkeeping and the resolution of each pot.

Pure functions and small pure classes; integers only. The hand state machine embeds a
:class:`Declarations` during the declare phase (R-13.2), orders public declarations with
:func:`in_turn_order` (R-13.3), and hands every pot to :func:`resolve_declare`
(R-13.4–R-13.9), which says who wins which half, who is eliminated and why, who has to
show, and what carries to the next deal.

Decisions where the rulebook is silent (each is documented where it is implemented):

* A hand value of ``None`` on a side can never win that side: a "low" declarer without
  a qualifying low, or a high hand that does not play (R-9.4).
* A half that nobody can win goes to the other half's winner; if neither half can be won,
  the pot carries to the next deal (like R-13.6). This covers "no second best" (R-13.7)
  and a walker who does not qualify (R-13.8).
* "Both may split" (R-13.7): a both-declarer is eliminated only when he is *beaten*
  high or low; a tie keeps him in, and each half is then shared among everyone tied best
  for it (both-declarers and the one-way declarers alike). A both-declarer strictly best
  both ways still scoops.
* "No second best": to win a side you must *beat* (strictly) every eliminated
  both-declarer on that side; ties among the remaining one-way declarers still split.
* A pot with a single eligible declarer is his without a showdown (R-8.3), whatever he
  declared. A pot with no eligible declarer carries forward.
* Showing: everyone who contested a side against at least one other declarer in some
  pot shows; a walker does not, unless the game has a qualifier and he wins the half.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, get_args

from bot.poker.errors import IllegalAction
from bot.poker.events import Pot, Share
from bot.poker.messages import (
    Chips,
    Msg,
    Name,
    Number,
    Player,
    Rule,
    Term,
    joined,
    msg,
    names,
)
from bot.poker.pots import halve, split

Choice = Literal["low", "high", "both"]
CHOICES: tuple[Choice, ...] = get_args(Choice)

P = TypeVar("P", bound=Hashable)
C = TypeVar("C")


# ---------------------------------------------------------------- errors


class AlreadyCommitted(IllegalAction):
    """R-13.2: a commitment is final once made."""

    code = "already_committed"


class NotDeclaring(IllegalAction):
    """The player has no hand in this declaration (folded, or never dealt in)."""

    code = "not_declaring"


class StillSecret(IllegalAction):
    """R-13.2: the fists open only when every player has committed."""

    code = "still_secret"


# ---------------------------------------------------------------- sealed choices


class SealedChoices(Generic[P, C]):
    """Closed fists: secret commitments revealed together once everyone has chosen.

    Used for the hi-lo declaration (R-13.2) and the Guts in/out call (R-15.2). Before the
    reveal the only thing any public method tells about the choices is how many have been
    made (:meth:`count`); :meth:`pending` says *who* still has to choose, which the dealer
    needs to run the clock and send reminders, and must only ever be shown to the pending
    player himself. Choices live in a name-mangled slot and ``repr`` shows only the count,
    so a log line or a debugger print cannot leak a fist.
    """

    __slots__ = ("__choices", "_allowed", "_players")

    def __init__(self, players: Iterable[P], allowed: Iterable[C]) -> None:
        self._players: list[P] = list(dict.fromkeys(players))
        self._allowed: tuple[C, ...] = tuple(allowed)
        self.__choices: dict[P, C] = {}

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone who has to choose (the table already knows who is in the hand)."""
        return tuple(self._players)

    def commit(self, player: P, choice: C) -> None:
        """Close ``player``'s fist on ``choice``. Final: a second commit is refused."""
        if player not in self._players:
            raise NotDeclaring(msg("refuse.no_hand_to_declare"))
        if player in self.__choices:
            raise AlreadyCommitted(msg("refuse.chosen_final", rule=Rule("R-13.2")))
        if choice not in self._allowed:
            allowed = Name(", ".join(str(a) for a in self._allowed))
            raise IllegalAction(msg("refuse.choose_one", choices=allowed))
        self.__choices[player] = choice

    def withdraw(self, player: P) -> None:
        """A pending player leaves the declaration (folded on the clock, R-13.2).

        Only a pending player can withdraw: a closed fist is final.
        """
        if player not in self._players:
            raise NotDeclaring(msg("refuse.no_hand_to_declare"))
        if player in self.__choices:
            raise AlreadyCommitted(msg("refuse.chosen_final", rule=Rule("R-13.2")))
        self._players.remove(player)

    def count(self) -> int:
        """How many fists are closed: the only public information before the reveal."""
        return len(self.__choices)

    def pending(self) -> tuple[P, ...]:
        """Players who still have to choose, in the order given (dealer-side only)."""
        return tuple(p for p in self._players if p not in self.__choices)

    @property
    def complete(self) -> bool:
        return len(self.__choices) == len(self._players)

    def reveal(self) -> dict[P, C]:
        """Every choice at once; refused until everyone has committed."""
        if not self.complete:
            raise StillSecret(
                msg(
                    "refuse.still_secret",
                    chosen=Number(self.count()),
                    total=Number(len(self._players)),
                )
            )
        return {p: self.__choices[p] for p in self._players}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.count()} of {len(self._players)} committed)"


class Declarations(SealedChoices[int, Choice]):
    """R-13.2 chip-fist declaration among the active players (by position)."""

    __slots__ = ()

    def __init__(self, players: Iterable[int]) -> None:
        super().__init__(players, CHOICES)


def in_turn_order(
    active: Sequence[int], last_aggressor: int | None, round_opener: int, n: int
) -> list[int]:
    """R-13.3: clockwise from the last bettor/raiser of the final round, or from the player
    who began that round if everyone checked. ``n`` is the number of positions.

    If the starting player is no longer active (he cannot be, but be safe) the next active
    player clockwise from him starts.
    """
    start = last_aggressor if last_aggressor is not None else round_opener
    return sorted(dict.fromkeys(active), key=lambda p: (p - start) % n)


# ---------------------------------------------------------------- resolution


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareOptions:
    """House options for resolving declarations (R-13.2, R-13.7, R-13.8)."""

    no_second_best: bool = False
    both_may_split: bool = False
    qualifier: bool = False
    """The game has a qualifier (R-10.5 eight-or-better, R-12.2): walkers must show."""
    timeout_default: Literal["fold", "high"] = "fold"
    """What an eligible player with no declaration counts as (R-13.2 clock)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Award:
    """One share of one pot: the whole pot, or its high or low half."""

    share: Share
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    walked: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Elimination:
    player: int
    why: Msg
    """Why he is out of the pot (players by position)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PotResolution:
    """How one pot was resolved (R-13.9: with its own eligible players' declarations)."""

    index: int
    amount: int
    declarations: tuple[tuple[int, Choice], ...]
    eliminated: tuple[Elimination, ...]
    awards: tuple[Award, ...]
    carried: int
    shown: frozenset[int]
    messages: tuple[Msg, ...]
    """The steps as messages (players by position)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareResult:
    pots: tuple[PotResolution, ...]
    payouts: dict[int, int]
    carried: int
    shown: frozenset[int]

    @property
    def messages(self) -> tuple[Msg, ...]:
        """Every pot's steps in order, as messages (players by position)."""
        return tuple(m for p in self.pots for m in p.messages)

    def awards_for(self, index: int) -> tuple[Award, ...]:
        return self.pots[index].awards


Side = Literal["high", "low"]


def _who(players: Sequence[int]) -> Msg:
    """Players said as a list (``Ann, Bob and Cy``)."""
    return msg("engine.list", items=names([Player(p) for p in players]))


def _side(side: str) -> Term:
    return Term(f"declare.side.{side}")


class _PotResolver:
    """Resolves one pot. A class only to share the lookups; it never outlives the call."""

    def __init__(
        self,
        index: int,
        pot: Pot,
        values: Mapping[int, tuple[int | None, int | None]],
        decl: dict[int, Choice],
        order: Sequence[int],
        options: DeclareOptions,
    ) -> None:
        self.index = index
        self.pot = pot
        self.values = values
        self.decl = decl
        self.order = order
        self.options = options
        self.steps: list[Msg] = []
        self.awards: list[Award] = []
        self.eliminated: dict[int, Msg] = {}
        self.shown: set[int] = set()
        self.carried = 0
        if index == 0:
            self.label = msg("declare.main_pot", amount=Chips(pot.amount))
        else:
            self.label = msg("declare.side_pot", number=Number(index), amount=Chips(pot.amount))

    def value(self, p: int, side: Side) -> int | None:
        v = self.values.get(p, (None, None))
        return v[0] if side == "high" else v[1]

    def claimants(self, side: Side) -> list[int]:
        return [p for p in self.decl if self.decl[p] in (side, "both")]

    def best(self, players: Iterable[int], side: Side) -> list[int]:
        """The players tied for the best value on ``side``; ``None`` never wins."""
        scored = [(p, self.value(p, side)) for p in players]
        real = [(p, v) for p, v in scored if v is not None]
        if not real:
            return []
        top = max(v for _, v in real)
        return [p for p, v in real if v == top]

    def award(self, share: Share, amount: int, winners: list[int], walked: bool) -> None:
        amounts = split(amount, winners, self.order)
        self.awards.append(
            Award(
                share=share,
                amount=amount,
                winners=tuple(winners),
                amounts=tuple(amounts),
                walked=walked,
            )
        )
        if len(winners) == 1:
            walk = walked and winners[0] not in self.shown
            key = f"declare.wins_{share}" + ("_walked" if walk else "")
            self.steps.append(msg(key, player=Player(winners[0]), amount=Chips(amount)))
        else:
            parts = joined(
                [
                    msg("engine.player_chips", player=Player(p), amount=Chips(a))
                    for p, a in zip(winners, amounts, strict=True)
                ]
            )
            self.steps.append(msg(f"declare.split_{share}", amount=Chips(amount), parts=parts))

    def run(self) -> PotResolution:
        pot = self.pot
        if self.decl:
            said = joined(
                [
                    msg("declare.said", player=Player(p), choice=Term(f"declare.choice.{c}"))
                    for p, c in self.decl.items()
                ]
            )
            self.steps.append(msg("declare.pot_said", pot=self.label, said=said))
        if pot.amount == 0:
            pass
        elif not self.decl:
            # Nobody eligible declared (cannot happen after a normal declaration): like
            # nobody wins, so the chips stay in play for the next deal.
            self.steps.append(msg("declare.pot_nobody", pot=self.label))
            self.carried = pot.amount
        elif len(self.decl) == 1:
            # a pot with one eligible player goes to him without a showdown.
            (p,) = self.decl
            self.award("whole", pot.amount, [p], walked=True)
        else:
            self.contest()
        if self.carried:
            self.steps.append(
                msg("declare.carried", rule=Rule("R-13.6"), amount=Chips(self.carried))
            )
        return PotResolution(
            index=self.index,
            amount=pot.amount,
            declarations=tuple(self.decl.items()),
            eliminated=tuple(Elimination(player=p, why=r) for p, r in self.eliminated.items()),
            awards=tuple(self.awards),
            carried=self.carried,
            shown=frozenset(self.shown),
            messages=tuple(self.steps),
        )

    def check_both(self, b: int, side: Side) -> Msg | None:
        """Why both-declarer ``b`` fails on ``side`` (R-13.4), or None if he holds up."""
        mine = self.value(b, side)
        if mine is None:
            return msg(f"declare.both_no_{side}", player=Player(b))
        others = [p for p in self.claimants(side) if p != b]
        better = [p for p in others if (v := self.value(p, side)) is not None and v > mine]
        if better:
            return msg("declare.both_lost", player=Player(b), side=_side(side), others=_who(better))
        tied = [p for p in others if self.value(p, side) == mine]
        if tied and not self.options.both_may_split:
            return msg("declare.both_tied", player=Player(b), side=_side(side), others=_who(tied))
        return None

    def contest(self) -> None:
        hi_claim, lo_claim = self.claimants("high"), self.claimants("low")
        # Everyone compared against somebody on a side must show; a lone claimant walks.
        for claim in (hi_claim, lo_claim):
            if len(claim) > 1:
                self.shown.update(claim)
        boths = [p for p in self.decl if self.decl[p] == "both"]
        for b in boths:
            reason = self.check_both(b, "high") or self.check_both(b, "low")
            if reason is not None:
                self.eliminated[b] = reason
                # Say the consequence, not only the cause: a failed "both" wins nothing
                # of this pot, not even the half he would have won alone.
                self.steps.append(msg("declare.both_out", rule=Rule("R-13.4"), reason=reason))
        survivors = [b for b in boths if b not in self.eliminated]
        amount = self.pot.amount
        if survivors:
            # strictly best both ways scoops. With "both may split" survivors may
            # be tied on a side; then each half is shared among those tied best for it.
            remaining = [p for p in self.decl if p not in self.eliminated]
            hw = self.best([p for p in remaining if p in hi_claim], "high")
            lw = self.best([p for p in remaining if p in lo_claim], "low")
            if hw == lw and len(hw) == 1:
                self.award("whole", amount, hw, walked=False)
                return
            high, low = halve(amount)
            self.award("high", high, hw, walked=False)
            self.award("low", low, lw, walked=False)
            return
        # all both-declarers are out; one-way declarers compete for their half.
        highs = [p for p in self.decl if self.decl[p] == "high"]
        lows = [p for p in self.decl if self.decl[p] == "low"]
        hw, h_walk = self.half_winners(highs, "high", boths)
        lw, l_walk = self.half_winners(lows, "low", boths)
        if highs and lows:
            high, low = halve(amount)
            if hw and lw:
                self.award("high", high, hw, walked=h_walk)
                self.award("low", low, lw, walked=l_walk)
            elif hw or lw:
                # Decision: a half nobody can win goes to the other half's winner.
                winners, walked = (hw, h_walk) if hw else (lw, l_walk)
                other = "low" if hw else "high"
                self.steps.append(msg(f"declare.half_unwon_{other}"))
                self.award("whole", amount, winners, walked=walked)
            else:
                self.carried = amount
        elif highs or lows:
            # everyone left declared the same way: the best takes it all.
            winners, walked = (hw, h_walk) if highs else (lw, l_walk)
            if winners:
                self.award("whole", amount, winners, walked=walked)
            else:
                self.carried = amount
        else:
            # every declarer was eliminated.
            self.carried = amount

    def half_winners(
        self, players: list[int], side: Side, boths: list[int]
    ) -> tuple[list[int], bool]:
        """Winners of ``side`` among the one-way declarers ``players``, and whether it walked."""
        if not players:
            return [], False
        walked = len(self.claimants(side)) == 1
        winners = self.best(players, side)
        if not winners:
            self.steps.append(msg(f"declare.cannot_win_{side}", players=_who(players)))
            return [], walked
        if self.options.no_second_best:
            # the winner must beat every eliminated both-declarer too.
            mine = self.value(winners[0], side)
            assert mine is not None
            blockers = [b for b in boths if (v := self.value(b, side)) is not None and v >= mine]
            if blockers:
                self.steps.append(
                    msg(
                        "declare.no_second_best",
                        winners=_who(winners),
                        blockers=_who(blockers),
                        side=_side(side),
                    )
                )
                return [], walked
        if walked and self.options.qualifier:
            # with a qualifier a walker must show that his hand qualifies.
            self.shown.update(winners)
        return winners, walked


def resolve_declare(
    pots: Sequence[Pot],
    values: Mapping[int, tuple[int | None, int | None]],
    declarations: Mapping[int, Choice],
    order: Sequence[int],
    options: DeclareOptions,
) -> DeclareResult:
    """Resolve every pot of a declare game (R-13.4–R-13.9).

    ``values[p]`` is ``(high, low)`` (higher is better; ``None`` where the hand has no
    qualifying value on that side). ``order`` is the odd-chip order of §11 (clockwise
    from the button's left). The steps are messages, players by position. An eligible
    player with no declaration counts per
    ``options.timeout_default``: "high", or out of the pot ("fold").
    """

    resolved: list[PotResolution] = []
    for k, pot in enumerate(pots):
        decl: dict[int, Choice] = {}
        for p in pot.eligible:
            choice = declarations.get(p)
            if choice is None and options.timeout_default == "high":
                choice = "high"
            if choice is not None:
                decl[p] = choice
        resolved.append(_PotResolver(k, pot, values, decl, order, options).run())
    payouts: dict[int, int] = {}
    for r in resolved:
        for a in r.awards:
            for p, amt in zip(a.winners, a.amounts, strict=True):
                payouts[p] = payouts.get(p, 0) + amt
    carried = sum(r.carried for r in resolved)
    # Chip conservation: every chip of every pot is paid out or carried.
    assert sum(payouts.values()) + carried == sum(p.amount for p in pots)
    shown = frozenset(p for r in resolved for p in r.shown)
    return DeclareResult(pots=tuple(resolved), payouts=payouts, carried=carried, shown=shown)
