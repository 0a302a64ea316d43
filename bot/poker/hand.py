"""One hand of poker: the betting core, dealing, side pots and the showdown.

A :class:`Hand` is created from its rules, the players' stacks (PHH order: position 0 is
the first seat left of the button, the last position is the button) and a deck order, and
is advanced only by :meth:`Hand.apply`. Every accepted action returns the events it caused;
every refused action raises :class:`~bot.poker.errors.IllegalAction` and changes nothing,
because all checks run before the first mutation. The same start and the same actions
always give the same state, so a hand is stored as its start plus its actions.

The betting core reads the variant's data (:mod:`bot.poker.variants`) and never asks which
game it is playing. Rule ids in comments refer to docs/RULES.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from bot.poker import showdown as sd
from bot.poker.actions import (
    Action,
    AddChips,
    AllIn,
    Bet,
    BringIn,
    Call,
    Check,
    Declare,
    DeclareTimeout,
    Draw,
    Fold,
    GutsCall,
    Muck,
    RaiseBy,
    RaiseTo,
    RunItTwice,
    RunItTwiceTimeout,
    Show,
    ShowCards,
)
from bot.poker.cards import FULL_DECK, JOKER, SHORT_DECK, Card, shuffled_deck, validate_deck
from bot.poker.errors import BadAmount, ConfigError, HandOver, IllegalAction, NotYourTurn
from bot.poker.events import (
    ActionTaken,
    BetReturned,
    BoardDealt,
    BombPotStarted,
    CardBurned,
    CardsDealt,
    CardsShownByChoice,
    ChipsAdded,
    DeckReshuffled,
    DeclarationCommitted,
    DeclarationCount,
    DeclarationMade,
    DeclarationsRevealed,
    DeclareResolved,
    Drew,
    Event,
    ForcedBet,
    GutsCallCommitted,
    GutsCallMade,
    GutsCallsRevealed,
    HandEnded,
    HandMucked,
    HandShown,
    OpenersShown,
    Pot,
    PotAwarded,
    PotsFormed,
    PotSystemSettled,
    RakeTaken,
    RoundClosed,
    RunItTwiceAnswered,
    RunItTwiceCount,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    StreetStarted,
)
from bot.poker.legal import ActionName, Actor, Legal, Phase
from bot.poker.messages import (
    Cards,
    Chips,
    Count,
    Msg,
    Name,
    Number,
    Player,
    Rule,
    Term,
    msg,
)
from bot.poker.pots import build_pots, halve, split
from bot.poker.potsystems import GutsState, TwoToWinState, guts_stakes
from bot.poker.rules import Limit, Rules, community_game, guts_options
from bot.poker.showdown import has_openers, openers_to_show
from bot.poker.showing import best_showing, bring_in_player, card_key
from bot.poker.variants import Street, Variant, get_variant

if TYPE_CHECKING:
    from bot.poker.declare import Choice, Declarations
    from bot.poker.potsystems import GutsCalls

_ACTION_SETS: dict[tuple[bool, ...], frozenset[ActionName]] = {}
"""Interned action sets: a handful of combinations recur on every decision."""


def _action_set(key: tuple[bool, ...]) -> frozenset[ActionName]:
    facing, can_raise, opening, completing, all_in, checking_out = key
    acts: set[ActionName] = (
        {"fold", "call"} if facing else {"check", "fold"} if checking_out else {"check"}
    )
    if can_raise:
        acts.add("bet" if opening else "raise")
        if completing:
            acts.add("complete")
    if all_in:
        acts.add("all_in")
    return frozenset(acts)


_SHOW_OR_MUCK: frozenset[ActionName] = frozenset({"show", "muck"})
_DRAW: frozenset[ActionName] = frozenset({"draw", "fold"})
_DECLARE: frozenset[ActionName] = frozenset({"declare"})
_GUTS: frozenset[ActionName] = frozenset({"guts"})
_RUN_TWICE: frozenset[ActionName] = frozenset({"run_twice"})
_BRING_IN: frozenset[ActionName] = frozenset({"bring_in"})
_BRING_IN_ALL_IN: frozenset[ActionName] = frozenset({"bring_in", "all_in"})
_COMPLETE: frozenset[ActionName] = frozenset({"bring_in", "complete"})
_COMPLETE_ALL_IN: frozenset[ActionName] = frozenset({"bring_in", "complete", "all_in"})

_DEFAULT_IDS = {n: tuple(f"p{i + 1}" for i in range(n)) for n in range(2, 24)}
"""PHH-style ids (p1 = first seat left of the button) for hands dealt without ids."""

MAX_CHIPS = 10**15
"""No amount above this is ever a real number of chips; refusing it early keeps the
arithmetic honest when someone types ``1e30``."""


class Hand:
    """A hand in progress. Read its public attributes; change it only with :meth:`apply`."""

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        deck: Sequence[Card] | None = None,
        *,
        carried: int = 0,
        script: dict[int, list[Card]] | None = None,
        player_ids: Sequence[str] | None = None,
        pot_state: TwoToWinState | GutsState | None = None,
    ) -> None:
        variant = get_variant(rules.variant)
        n = len(stacks)
        if not 2 <= n <= variant.max_players:
            raise ConfigError(
                msg("config.players", game=variant.title, most=Number(variant.max_players))
            )
        for s in stacks:
            if type(s) is not int or s <= 0 or s > MAX_CHIPS:
                raise ConfigError(msg("config.stack"))
        if carried < 0:
            raise ConfigError(msg("config.carried"))
        # §15 pot systems carry their own state between deals; the chips it holds are
        # in the middle when the hand starts.
        # Chips carried beyond what the system's state counts (the table's antes of a
        # deal nobody won) are in its pot too: never left out of the middle (R-2.5).
        if rules.pot_system == "two_to_win":
            pot_state = pot_state if isinstance(pot_state, TwoToWinState) else TwoToWinState()
            if carried > pot_state.pot:
                pot_state = dataclasses.replace(pot_state, pot=carried)
            carried = pot_state.pot
        elif rules.pot_system == "guts":
            pot_state = pot_state if isinstance(pot_state, GutsState) else GutsState()
            if carried > pot_state.total:
                extra = carried - pot_state.total
                pot_state = dataclasses.replace(pot_state, pot=pot_state.pot + extra)
            carried = pot_state.total
        else:
            pot_state = None
        self.pot_state_in: TwoToWinState | GutsState | None = pot_state
        """The pot-system state given to the hand (records and exports use it)."""
        self.pot_state: TwoToWinState | GutsState | None = pot_state
        self.pot_state_out: TwoToWinState | GutsState | None = None
        self.player_ids: tuple[str, ...] = (
            tuple(player_ids) if player_ids is not None else _DEFAULT_IDS[n]
        )
        if len(self.player_ids) != n or len(set(self.player_ids)) != n:
            raise ConfigError(msg("config.ids"))
        full = SHORT_DECK if variant.deck == "short" else FULL_DECK
        if deck is None:
            deck = shuffled_deck((*full, JOKER) if rules.uses_joker else full)
        else:
            validate_deck(deck)
            if variant.deck == "short" and any(c[0] in "2345" for c in deck):
                raise ConfigError(msg("config.short_deck"))
        self.rules = rules
        self.variant: Variant = variant
        self._streets = variant.streets
        self.n = n
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        self.stacks: list[int] = list(stacks)
        self.bets: list[int] = [0] * n
        self.contrib: list[int] = [0] * n
        self.folded: list[bool] = [False] * n
        self._folds = 0
        self.hole: list[list[Card]] = [[] for _ in range(n)]
        self.face_up: list[list[bool]] = [[] for _ in range(n)]
        self.shown: list[bool] = [False] * n
        self._shown_len: list[int] = [0] * n
        self.mucked: list[bool] = [False] * n
        self.board: list[Card] = []
        self.board2: list[Card] | None = [] if rules.double_board else None
        """The second board: a double board's (R-20.5) or the second run's (R-20.1)."""
        self._bomb = rules.bomb_pot_ante > 0
        self.run_twice_answers: dict[int, bool] = {}
        """R-20.1 answers by position, filled as players answer; read them only after
        :class:`RunItTwiceDecided` (each answer is private until all are in)."""
        self._run_twice_players: tuple[int, ...] = ()
        self._run_twice_asked = False
        self.ran_twice = False
        self.shown_by_choice: dict[int, tuple[Card, ...]] = {}
        """R-20.8: cards each player showed by choice after the hand."""
        self.deck: tuple[Card, ...] = tuple(deck)
        self.deck_pos = 0
        # Replays of recorded hands deal what the record says each recipient got (key -1
        # is the board); live hands always deal from the fixed deck order (R-16.1).
        self._script = script
        self.dealt: list[Card] = []
        self.carried = carried
        self.added = 0
        self._added_by = [0] * n
        self.dead = 0
        self.middle = carried
        self.rake = 0
        self.street_index = -1
        self.phase: Phase = "betting"
        self.to_act: int | None = None
        self.events: list[Event] = []
        self.result: HandEnded | None = None
        self.pots: list[Pot] = []
        # Betting-round state (§4, §5, §7).
        self.current_bet = 0
        self.full_size = 0
        self.last_full_level = 0
        self.next_full_to = 0
        self.raises = 0
        self.acted_level: list[int | None] = [None] * n
        self.acted_seq: list[int] = [0] * n
        self.full_seq = 0
        self.passive: list[bool] = [False] * n
        self.last_aggressor: int | None = None
        self.round_opener = 0
        self.round_live_at_start = n
        self.completion_pending = False
        self.bring_in_due = False
        self.declarations: Declarations | None = None
        self.declared: dict[int, Choice] = {}
        self._declare_order: list[int] = []
        self.bring_in_player: int | None = None
        self.opener: int | None = None
        self.opener_cards: tuple[Card, ...] = ()
        self.first_round_bet = False
        self._reshuffled: list[Card] = []
        self._discards: list[Card] = []
        self._draw_order: list[int] = []
        self.draws: list[list[int]] = [[] for _ in range(n)]
        self.exposed = False
        self._showdown_order: list[int] = []
        self._showdown_pots: list[Pot] | None = None
        self._legal: Legal | None = None
        self._value_cache: dict[int, tuple[int | None, ...]] = {}
        self._value_cache2: dict[int, tuple[int | None, ...]] = {}
        self._guts_calls: GutsCalls | None = None
        self.guts_calls: dict[int, bool] = {}
        """Guts in/out by position, filled as players call; read it only after the reveal
        (the presenter must not show it earlier: R-15.2 simultaneous calls)."""
        self._two_to_win_winners: list[int] = []
        self._two_to_win_amount = 0
        self._scale_num, self._scale_den = rules.limit_scale
        self._cap = rules.deal_cap
        self._limited = rules.limited
        self._check_raise = rules.check_raise
        self._jacks = rules.jacks_to_open
        self._checking_out = rules.checking_out
        self._actor_list: list[int] = list(range(n))
        self._start()

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def street(self) -> Street:
        """The street being played; after the last one (the draw, the declaration, the
        showdown, the end) the last street, and before the first deal the first."""
        streets = self._streets
        return streets[min(max(self.street_index, 0), len(streets) - 1)]

    def total_chips(self) -> int:
        """Stacks + the middle + rake, less chips added under open stakes: constant
        through the hand (R-2.5)."""
        return sum(self.stacks) + self.middle + self.rake - self.added

    def pot_total(self) -> int:
        return self.middle

    def effective_stack(self, i: int) -> int:
        """Chips player ``i`` can still put in: his stack, or less under a deal cap (R-5.6)."""
        if self._cap:
            return max(0, min(self.stacks[i], self._cap - self.contrib[i]))
        return self.stacks[i]

    def _actors(self) -> list[int]:
        """Players still in the hand who can put more chips in (not folded, not all in).

        Kept up to date incrementally (a fold, an all-in, a returned bet) because the
        betting core asks for it several times per action. Callers must not mutate it.
        """
        return self._actor_list

    def _update_actor(self, i: int) -> None:
        can = not self.folded[i] and self.effective_stack(i) > 0
        actors = self._actor_list
        if can and i not in actors:
            actors.append(i)
            actors.sort()
        elif not can and i in actors:
            actors.remove(i)

    def legal(self) -> Legal:
        """The legal actions of the player to act, with exact ranges (R-6.6). While
        players act at once (sealed declarations or Guts calls) nobody is to act in
        turn: :meth:`actors` says what each of them may do."""
        if self.phase == "over":
            raise HandOver(msg("refuse.hand_over"))
        if self.to_act is None:
            raise NotYourTurn(msg("refuse.all_at_once"))
        if self._legal is None:
            self._legal = self._compute_legal(self.to_act)
        return self._legal

    def actors(self) -> tuple[Actor, ...]:
        """Who may act now and what each may do: the player to act (``in_turn``), or
        the players still to declare or call at once (``sealed``: R-13.2, R-15.2),
        plus, at a showdown, those who may show before their turn (``waiting``, R-8.4).
        Empty when the hand is over. The ``in_turn`` actor, if any, comes first."""
        if self.phase == "over":
            return ()
        if self.to_act is not None:
            out = [Actor(self.to_act, "in_turn", self.legal())]
            if self.phase == "showdown":
                out.extend(
                    Actor(i, "waiting", self._special_legal(i))
                    for i in self._showdown_order
                    if self._may_show_early(i)
                )
            return tuple(out)
        if self.phase == "declare":
            return tuple(Actor(i, "sealed", self.declare_legal(i)) for i in self.declare_pending())
        if self.phase == "guts":
            return tuple(Actor(i, "sealed", self.guts_legal(i)) for i in self.guts_pending())
        if self.phase == "run_twice":
            return tuple(
                Actor(i, "sealed", self.run_twice_legal(i)) for i in self.run_twice_pending()
            )
        return ()

    def actor(self, position: int) -> Actor | None:
        """The player at ``position`` as an :class:`Actor` if he may act now, else None."""
        return next((a for a in self.actors() if a.position == position), None)

    def can_act(self, position: int) -> bool:
        """Whether the player at ``position`` may act now (see :meth:`actors`)."""
        if self.phase == "over":
            return False
        if self.to_act is not None:
            return position == self.to_act or (
                self.phase == "showdown" and self._may_show_early(position)
            )
        if self.phase == "declare":
            return position in self.declare_pending()
        if self.phase == "guts":
            return position in self.guts_pending()
        if self.phase == "run_twice":
            return position in self.run_twice_pending()
        return False

    def visible_cards(self, viewer: int | None) -> list[tuple[Card, ...]]:
        """Each player's cards as ``viewer`` may see them (``None``: a spectator)."""
        out: list[tuple[Card, ...]] = []
        for i in range(self.n):
            if viewer == i or self.shown[i]:
                out.append(tuple(self.hole[i]))
            else:
                out.append(
                    tuple(
                        c if up else "??"
                        for c, up in zip(self.hole[i], self.face_up[i], strict=True)
                    )
                )
        return out

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; return the events it caused. Refusals change nothing."""
        if (
            self.phase == "betting"
            and action.player == self.to_act
            and type(action) is not AddChips
        ):
            # The usual case, decided at once: a betting action by the player to act.
            mark = len(self.events)
            self._apply_betting(action)
            return self.events[mark:]
        if self.phase == "over":
            if isinstance(action, ShowCards):
                return self._show_by_choice(action)
            raise HandOver(msg("refuse.hand_over_wait"))
        i = action.player
        if self.phase == "run_twice":
            mark = len(self.events)
            self._apply_run_twice(action)
            return self.events[mark:]
        if isinstance(action, AddChips):
            return self._add_chips(action)
        if self.phase == "guts" and self.rules.guts_mode != "sequential":
            mark = len(self.events)
            self._apply_guts(action)
            return self.events[mark:]
        if (
            self.phase == "declare"
            and self.declarations is not None
            and self.rules.declare == "simultaneous"
        ):
            mark = len(self.events)
            self._apply_declare(action)
            return self.events[mark:]
        if self.phase == "showdown" and self._may_show_early(i):
            mark = len(self.events)
            self._apply_showdown(action)
            return self.events[mark:]
        if i != self.to_act:
            if self.to_act is None:
                raise NotYourTurn(msg("refuse.nobody_to_act"))
            raise NotYourTurn(msg("refuse.not_your_turn", player=Player(self.to_act)))
        mark = len(self.events)
        if self.phase == "betting":
            self._apply_betting(action)
        elif self.phase == "draw":
            self._apply_draw(action)
        elif self.phase == "declare":
            self._apply_declare(action)
        elif self.phase == "guts":
            self._apply_guts(action)
        elif self.phase == "showdown":
            self._apply_showdown(action)
        return self.events[mark:]

    def _add_chips(self, action: AddChips) -> list[Event]:
        """R-2.4 open stakes: chips bought in the middle of a hand join the stack at once."""
        i = action.player
        if not self.rules.open_stakes:
            raise IllegalAction(msg("refuse.buy_between_deals", rule=Rule("R-2.1")))
        if not 0 <= i < self.n or self.folded[i]:
            raise IllegalAction(msg("refuse.add_not_in_hand"))
        if type(action.amount) is not int or not 0 < action.amount <= MAX_CHIPS:
            raise BadAmount(msg("refuse.add_whole"))
        self.stacks[i] += action.amount
        self.added += action.amount
        self._added_by[i] += action.amount
        self._update_actor(i)
        self._legal = None
        event = ChipsAdded(player=i, amount=action.amount)
        self.events.append(event)
        return [event]

    # ------------------------------------------------------------------ start

    def _start(self) -> None:
        r = self.rules
        n = self.n
        if isinstance(self.pot_state, GutsState):
            self._post_guts_stakes()
        if self._bomb:
            self._post_bomb_pot()
            self._next_street()
            return
        # Antes first (R-3.1); a short stack's chips go to the ante before the blind (R-3.7).
        # Antes everyone pays alike are contributions like any other (a player all in on
        # the ante contests only the antes). A big-blind or button ante is dead money for
        # the main pot: it buys nobody a different share.
        antes = [a for a in r.antes[:n] if a > 0]
        uniform = len(antes) == n and len(set(antes)) == 1
        for i, ante in enumerate(r.antes[:n]):
            if ante > 0:
                amt = min(ante, self.stacks[i])
                self._put(i, amt, bet=False)
                if not uniform:
                    self.contrib[i] -= amt
                    self.dead += amt
                self.events.append(
                    ForcedBet(player=i, kind="ante", amount=amt, all_in=self.stacks[i] == 0)
                )
        for i, dead in enumerate(r.dead_posts[:n]):
            if dead > 0:
                # R-1.6: a returning player's missed small blind is dead money.
                amt = min(dead, self.stacks[i])
                self._put(i, amt, bet=False)
                self.contrib[i] -= amt
                self.dead += amt
                self.events.append(
                    ForcedBet(player=i, kind="dead_blind", amount=amt, all_in=self.stacks[i] == 0)
                )
        blinds = self._blind_amounts()
        nominal = max(blinds, default=0)
        if self.variant.forced == "blinds" and nominal > 0:
            bb_pos = 0 if n == 2 else 1
            # Heads-up the button (position 1) posts the small blind first (R-1.5).
            posting_order = (1, 0) if n == 2 else range(n)
            for i in posting_order:
                amount = blinds[i]
                if amount <= 0:
                    continue
                amt = min(amount, self.stacks[i])
                self._put(i, amt, bet=True)
                kind: Literal["small_blind", "big_blind", "straddle", "blind"]
                if self._is_straddle(i, blinds):
                    kind = "straddle"
                elif i == bb_pos:
                    kind = "big_blind"
                elif (n == 2 and i == 1) or (n > 2 and i == 0):
                    kind = "small_blind"
                else:
                    # A live blind posted out of position: a missed big blind owed on
                    # return (R-1.6) or a post to enter (R-1.7).
                    kind = "blind"
                self.events.append(
                    ForcedBet(player=i, kind=kind, amount=amt, all_in=self.stacks[i] == 0)
                )
        self._next_street()

    def _post_bomb_pot(self) -> None:
        """R-20.4: everyone dealt in posts the agreed ante, and nothing else: no blinds,
        straddles, table antes or dead blinds. The antes are alike, so they are
        contributions: a player all in on his ante contests what he put in."""
        ante = self.rules.bomb_pot_ante
        self.events.append(BombPotStarted(ante=ante, double_board=self.rules.double_board))
        for i in range(self.n):
            amt = min(ante, self.stacks[i])
            self._put(i, amt, bet=False)
            self.events.append(
                ForcedBet(player=i, kind="ante", amount=amt, all_in=self.stacks[i] == 0)
            )

    def _blind_amounts(self) -> list[int]:
        blinds = list(self.rules.blinds_or_straddles[: self.n])
        blinds += [0] * (self.n - len(blinds))
        if self.n == 2:
            # Heads-up the button posts the small blind (R-1.5); PHH reverses the order.
            blinds = blinds[::-1]
        return blinds

    def _is_straddle(self, i: int, blinds: Sequence[int]) -> bool:
        if i < 2:
            return False
        # Positions 0 and 1 are the blinds; a later forced bet above the big blind is a
        # straddle (R-3.4) or a kill (R-3.6); one equal to it is a live posted blind.
        # With no blinds in positions 0 and 1 it is a button blind (short deck), not a straddle.
        first_two = max(blinds[0], blinds[1])
        return self.n > 2 and i >= 2 and first_two > 0 and blinds[i] > first_two

    def _put(self, i: int, amount: int, *, bet: bool) -> None:
        self.stacks[i] -= amount
        self.contrib[i] += amount
        self.middle += amount
        if bet:
            self.bets[i] += amount
        if self.stacks[i] == 0 or self._cap:
            self._update_actor(i)

    # ------------------------------------------------------------------ streets

    def _scaled(self, amount: int) -> int:
        return amount * self._scale_num // self._scale_den

    def _street_bet_size(self, street: Street) -> int:
        r = self.rules
        if r.limit is Limit.FIXED:
            return self._scaled(r.big_bet if street.big_bet else r.small_bet)
        return self._scaled(r.small_bet)

    def _spread_max(self, street: Street) -> int:
        r = self.rules
        if street.big_bet and r.spread_max_late > 0:
            return self._scaled(r.spread_max_late)
        return self._scaled(r.big_bet)

    def _cards_left(self) -> int:
        return len(self.deck) - self.deck_pos + len(self._reshuffled)

    def _deal_card(self, recipient: int = -1) -> Card:
        if self._script is not None:
            queue = self._script.get(recipient)
            if not queue:
                raise ConfigError(msg("config.script_short"))
            card = queue.pop(0)
        elif self.deck_pos < len(self.deck):
            card = self.deck[self.deck_pos]
            self.deck_pos += 1
        elif self._reshuffled:
            card = self._reshuffled.pop(0)
        else:
            raise ConfigError(msg("config.deck_out"))
        self.dealt.append(card)
        return card

    def _next_street(self) -> None:
        """Deal the next street and open its draw or betting, or go to the showdown."""
        while True:
            self.street_index += 1
            if self.street_index >= len(self.variant.streets):
                self._end_of_streets()
                return
            street = self.variant.streets[self.street_index]
            if self._runs_out():
                # R-4.8, R-12.4: all active hands are shown before the rest is dealt.
                self._expose_all()
                if self._offer_run_twice():
                    return
            self.events.append(StreetStarted(street=street.name, index=self.street_index))
            self._deal_street(street)
            if street.draw > 0:
                self._begin_draw(street)
                return
            if self._begin_betting(street):
                return

    def _runs_out(self) -> bool:
        return (
            self.street_index > 0
            and self._live_count() >= 2
            and len(self._actor_list) < 2
            and not any(s.draw for s in self.variant.streets[self.street_index :])
        )

    def _begin_betting(self, street: Street) -> bool:
        """Open the street's betting round; False when nobody needs to bet in it."""
        if self._bomb and self.street_index == 0:
            return False  # R-20.4: a bomb pot has no pre-flop betting
        can_act = len(self._actor_list)
        if can_act >= 2 or (can_act == 1 and self._first_round_forced_open()):
            return street.betting and self._open_round(street)
        if not any(s.draw for s in self.variant.streets[self.street_index + 1 :]):
            # R-4.8: at most one player can still bet, so expose hands and run it out.
            self._expose_all()
        return False

    def _first_round_forced_open(self) -> bool:
        # A lone player with chips still has to answer a forced bet he has not matched.
        if self.street_index != 0:
            return False
        cb = max(self.bets)
        return any(
            not self.folded[i] and self.effective_stack(i) > 0 and self.bets[i] < cb
            for i in range(self.n)
        )

    def _shared_last_card(self, players: list[int]) -> bool:
        """R-16.3: whether the last street is one shared card: the deck has fewer cards
        left than players; a replayed record says so with a board card where the
        players' own cards have run out."""
        if self._script is None:
            return self._cards_left() < len(players)
        return bool(self._script.get(-1)) and not any(self._script.get(i) for i in players)

    def _deal_street(self, street: Street) -> None:
        if self.rules.burn and self.street_index > 0 and self._script is None:
            self._deal_card()
            self.events.append(CardBurned())
        per_player = street.hole + street.up
        players = [i for i in range(self.n) if not self.folded[i]] if per_player else []
        if (
            per_player == 1
            and self.street_index == len(self.variant.streets) - 1
            and self._shared_last_card(players)
        ):
            # R-16.3: not enough cards for everyone: one shared card, face up, in the centre.
            card = self._deal_card()
            self.board.append(card)
            self.events.append(BoardDealt(cards=(card,), street=street.name))
            self._value_cache.clear()
            return
        # R-4.8, R-12.4, R-12.5: once the hands are exposed for a run-out, every card left is dealt
        # face up, seventh street's "down" card included: no pot is won with a card the
        # table never saw.
        down = self.exposed
        for count, up in ((street.hole, down), (street.up, True)) if per_player else ():
            if count <= 0:
                continue
            k = len(players)
            dealt: list[tuple[Card, ...]]
            if self._script is None and self._cards_left() >= count * k and not self._reshuffled:
                # Fast path: one card at a time round the table is a stride through the
                # fixed deck order (R-16.1), so slice it instead of dealing card by card.
                pos = self.deck_pos
                block = self.deck[pos : pos + count * k]
                self.deck_pos = pos + count * k
                self.dealt.extend(block)
                dealt = [block[m::k] for m in range(k)]
            else:
                by_player: dict[int, list[Card]] = {i: [] for i in players}
                for _ in range(count):
                    for i in players:
                        by_player[i].append(self._deal_card(i))
                dealt = [tuple(by_player[i]) for i in players]
            flags = (up,) * count
            events = self.events
            for i, cards in zip(players, dealt, strict=True):
                self.hole[i].extend(cards)
                self.face_up[i].extend(flags)
                events.append(CardsDealt(player=i, cards=cards, face_up=flags, audience=i))
                if up:
                    # Up cards are public (stud); a face-down deal has no public copy:
                    # "dealt two hidden cards" tells nobody anything.
                    events.append(CardsDealt(player=i, cards=cards, face_up=flags))
        if street.board > 0:
            b = street.board
            pos = self.deck_pos
            if self._script is None and pos + b <= len(self.deck):
                cards = self.deck[pos : pos + b]  # the next cards of the fixed order
                self.deck_pos = pos + b
                self.dealt.extend(cards)
            else:
                cards = tuple(self._deal_card() for _ in range(b))
            self.board.extend(cards)
            self.events.append(BoardDealt(cards=cards, street=street.name))
            if self.board2 is not None and self.rules.double_board:
                self._deal_second_board(street, "double_board")
        self._value_cache.clear()  # hand values change with every card dealt

    def _deal_second_board(self, street: Street, why: Literal["double_board", "run_twice"]) -> None:
        """R-20.2, R-20.5: the second board's cards for ``street``, from the same deck
        after every card dealt so far, with its own burn when burning (R-16.1)."""
        assert self.board2 is not None
        if self.rules.burn and self._script is None:
            self._deal_card()
            self.events.append(CardBurned())
        cards = tuple(self._deal_card() for _ in range(street.board))
        self.board2.extend(cards)
        self.events.append(SecondBoardDealt(cards=cards, street=street.name, why=why))
        self._value_cache2.clear()

    # ------------------------------------------------------------------ run it twice

    def _offer_run_twice(self) -> bool:
        """R-20.1: before dealing the rest of a community board to players all in (all
        but one at most, who has matched), ask them whether to run it twice. True when
        the hand now waits for their answers. ``street_index`` is the street not yet
        dealt. A deck too short for two runs of every street left deals this street
        once; the question comes before the next street if two runs fit then (R-20.3)."""
        if (
            not self.rules.run_it_twice
            or self.rules.double_board
            or self._run_twice_asked
            or not community_game(self.variant)
        ):
            return False
        rest = self.variant.streets[self.street_index :]
        burns = len(rest) if self.rules.burn else 0
        needed = 2 * (sum(s.board for s in rest) + burns)
        if self._script is None and self._cards_left() < needed:
            return False
        self._run_twice_asked = True
        self._run_twice_players = tuple(i for i in range(self.n) if not self.folded[i])
        self.street_index -= 1  # the street is dealt once the answers are in
        self.phase = "run_twice"
        self._set_to_act(None)
        self.events.append(RunItTwiceOffered(players=self._run_twice_players))
        self.events.append(RunItTwiceCount(answered=0, total=len(self._run_twice_players)))
        return True

    def run_twice_pending(self) -> list[int]:
        """R-20.1: players who have not answered yet (any order: answers are sealed)."""
        if self.phase != "run_twice":
            return []
        return [i for i in self._run_twice_players if i not in self.run_twice_answers]

    def run_twice_legal(self, player: int) -> Legal:
        return self._no_wager_legal(player, _RUN_TWICE, self.stacks[player])

    def _apply_run_twice(self, action: Action) -> None:
        i = action.player
        if isinstance(action, RunItTwiceTimeout):
            if not 0 <= i < self.n:
                raise NotYourTurn(msg("home.refuse.run_twice_none"))
            late = self.run_twice_pending()
        elif isinstance(action, RunItTwice):
            if i not in self.run_twice_pending():
                if i in self.run_twice_answers:
                    raise IllegalAction(msg("home.refuse.run_twice_final", rule=Rule("R-20.1")))
                raise NotYourTurn(msg("home.refuse.run_twice_none"))
            late = []
            self._answer_run_twice(i, action.agree)
        else:
            legal = self.run_twice_legal(i) if 0 <= i < self.n else None
            raise IllegalAction(msg("home.refuse.run_twice_time", rule=Rule("R-20.1")), legal)
        for p in late:
            self._answer_run_twice(p, False)  # R-20.1: no answer means once
        if self.run_twice_pending():
            return
        answers = tuple(sorted(self.run_twice_answers.items()))
        twice = all(agree for _, agree in answers)
        self.events.append(RunItTwiceDecided(answers=answers, twice=twice))
        self.phase = "betting"
        if twice:
            self._run_twice()
        else:
            self._next_street()

    def _answer_run_twice(self, i: int, agree: bool) -> None:
        self.run_twice_answers[i] = agree
        self.events.append(RunItTwiceAnswered(player=i, agree=agree, audience=i))
        self.events.append(
            RunItTwiceCount(
                answered=len(self.run_twice_answers), total=len(self._run_twice_players)
            )
        )

    def _run_twice(self) -> None:
        """R-20.1, R-20.2: the first run is dealt as the board always is; the second run
        starts from the board as it stood and takes its cards from the same deck after
        the first run's (each street with its own burn when burning)."""
        self.ran_twice = True
        start = self.street_index + 1
        rest = self.variant.streets[start:]
        self.board2 = list(self.board)
        for street in rest:
            self.street_index += 1
            self.events.append(StreetStarted(street=street.name, index=self.street_index))
            self._deal_street(street)
        for street in rest:
            self._deal_second_board(street, "run_twice")
        self._end_of_streets()

    # ------------------------------------------------------------------ show by choice

    def _show_by_choice(self, action: ShowCards) -> list[Event]:
        """R-20.8: after the hand, the winner of an uncontested pot, or a player whose
        hand was mucked, may show all his cards or one of them."""
        i = action.player
        result = self.result
        assert result is not None
        if not 0 <= i < self.n:
            raise IllegalAction(msg("home.refuse.show_who", rule=Rule("R-20.8")))
        won = result.reason == "uncontested" and not self.folded[i]
        if not (won or self.mucked[i]):
            raise IllegalAction(msg("home.refuse.show_who", rule=Rule("R-20.8")))
        cards = tuple(action.cards)
        hole = self.hole[i]
        if (
            not cards
            or len(set(cards)) != len(cards)
            or not set(cards) <= set(hole)
            or len(cards) not in (1, len(hole))
        ):
            raise IllegalAction(msg("home.refuse.show_cards", rule=Rule("R-20.8")))
        before = self.shown_by_choice.get(i, ())
        if set(cards) <= set(before):
            raise IllegalAction(msg("home.refuse.show_again", rule=Rule("R-20.8")))
        self.shown_by_choice[i] = tuple(c for c in hole if c in set(before) | set(cards))
        event = CardsShownByChoice(player=i, cards=cards, won=won)
        self.events.append(event)
        return [event]

    def _live_count(self) -> int:
        return self.n - self._folds

    def _fold(self, i: int) -> None:
        # The only way a hand is given up: keeps the fold count and actor list true.
        self.folded[i] = True
        self._folds += 1
        self._update_actor(i)

    def _open_round(self, street: Street) -> bool:
        """Set up a betting round; False if nobody needs to act in it."""
        r = self.rules
        first_round = self.street_index == 0
        size = self._street_bet_size(street)
        self.acted_level = [None] * self.n
        self.acted_seq = [0] * self.n
        self.full_seq = 0
        self.passive = [False] * self.n
        self.last_aggressor = None
        self.round_live_at_start = self._live_count()
        self.completion_pending = False
        if street.opener == "bring_in" and r.bring_in > 0:
            # R-3.5: the lowest (razz: highest) up-card must bring it in or complete.
            self.current_bet = 0
            self.full_size = size
            self.last_full_level = 0
            self.next_full_to = size
            self.raises = 0
            up = [
                [c for c, f in zip(h, fu, strict=True) if f]
                for h, fu in zip(self.hole, self.face_up, strict=True)
            ]
            live_up = [u if not self.folded[i] else [] for i, u in enumerate(up)]
            b = bring_in_player(live_up, low_game=self.variant.showing == "low")
            if self.effective_stack(b) <= 0:
                # The low card is all in on his ante: the bring-in falls to the next
                # player clockwise who has chips (pokerkit rules the same way).
                nxt = self._next_needing(b, inclusive=False)
                if nxt is None:
                    self._close_round()
                    return False
                b = nxt
            self.bring_in_player = b
            self.round_opener = b
            self.bring_in_due = True
            self._set_to_act(b)
            return True
        if first_round and self.variant.forced == "blinds" and max(self.bets) > 0:
            blinds = self._blind_amounts()
            nominal = max(blinds)
            # R-3.7: a short all-in blind does not lower what others must call.
            self.current_bet = max(nominal, max(self.bets))
            self.full_size = max(size, nominal) if not r.limited else size
            if r.limit is Limit.SPREAD:
                self.full_size = max(self._scaled(r.small_bet), nominal)
            self.last_full_level = self.current_bet
            self.next_full_to = self.current_bet + self.full_size
            straddles = 0
            if r.straddle_counts_as_raise and len(r.blinds_or_straddles) > 2:
                straddles = sum(1 for i in range(2, self.n) if self._is_straddle(i, blinds))
            self.raises = 1 + straddles
            if r.limit is Limit.FIXED and self.current_bet < self.full_size:
                # R-5.10: a big blind below the small bet is an incomplete bet: the first
                # raise completes it to the small bet and is the round's bet for the cap
                # (R-5.7); later raises go up by full bets.
                self.last_full_level = 0
                self.next_full_to = self.full_size
                self.completion_pending = True
                self.raises = straddles
            # R-3.3: the opening round starts left of the largest blind or straddle.
            # The blinds' positions decide, not their sizes alone (R-3.8): with equal
            # blinds (1/1) the big blind is still the big blind and acts last. A straddle
            # or kill above the big blind moves the start; a live blind equal to the big
            # blind posted later in the order does not (ties go to the earliest).
            bb_pos = 0 if self.n == 2 else 1
            largest = bb_pos if blinds[bb_pos] == nominal else blinds.index(nominal)
            start = (largest + 1) % self.n
        else:
            self.current_bet = 0
            self.full_size = size
            self.last_full_level = 0
            self.next_full_to = size
            self.raises = 0
            start = self._round_start(street)
        self.round_opener = start
        nxt = self._next_needing(start, inclusive=True)
        if nxt is None:
            self._close_round()
            return False
        self._set_to_act(nxt)
        return True

    def _round_start(self, street: Street) -> int:
        live = [i for i in range(self.n) if not self.folded[i]]
        if street.opener == "best_showing":
            # R-16.3: the best hand showing (the lowest in razz) opens later stud rounds.
            up = [
                [c for c, f in zip(h, fu, strict=True) if f]
                for h, fu in zip(self.hole, self.face_up, strict=True)
            ]
            joker: Literal["wild", "bug"] = "bug" if self.rules.wild == "joker_bug" else "wild"
            return best_showing(up, live, low_game=self.variant.showing == "low", joker=joker)
        if street.draw > 0 and self.opener is not None:
            # R-16.4, R-16.6: the round after a draw starts with the opener (the first
            # voluntary bet of the first round; under jacks to open, whoever opened the
            # pot), or the nearest active player to his left. With blinds and no opener
            # the blinds opened: the first active player left of the button starts.
            for k in range(self.n):
                j = (self.opener + k) % self.n
                if not self.folded[j]:
                    return j
        # Later rounds start with the first active player left of the button (R-4.1).
        return live[0] if live else 0

    def _needs(self, i: int) -> bool:
        if self.folded[i] or self.effective_stack(i) <= 0:
            return False
        return self.acted_level[i] is None or self.bets[i] < self.current_bet

    def _next_needing(self, start: int, *, inclusive: bool) -> int | None:
        actors = self._actors()
        if not actors:
            return None
        cb = self.current_bet
        bets = self.bets
        if len(actors) == 1:
            j = actors[0]
            # A lone player with chips only has to act if he faces a bet (R-4.8).
            return j if bets[j] < cb else None
        acted = self.acted_level
        begin = start if inclusive else start + 1
        # Actors are in seat order: first those at or after ``begin``, then wrap round.
        for j in actors:
            if j >= begin and (acted[j] is None or bets[j] < cb):
                return j
        for j in actors:
            if j >= begin:
                break
            if acted[j] is None or bets[j] < cb:
                return j
        return None

    def _set_to_act(self, i: int | None) -> None:
        self.to_act = i
        self._legal = None

    # ------------------------------------------------------------------ legal

    def _raise_reopened(self, i: int) -> bool:
        level = self.acted_level[i]
        if level is None or self.full_seq > self.acted_seq[i]:
            return True  # he has not acted, or a full bet/raise came after he did
        faced = self.current_bet - level
        if self.rules.incomplete_rule == "half_bet" and self.rules.limited:
            return faced * 2 >= self.full_size  # R-7.4: at least half a bet reopens
        return faced >= self.full_size  # R-7.3: a full bet/raise since he acted

    def _cap_reached(self) -> bool:
        r = self.rules
        if not r.limited or r.raise_cap is None or self.raises < r.raise_cap:
            return False
        # R-5.7: the cap is lifted when only two players are in the pot.
        if r.cap_lift == "any_time":
            return self._live_count() > 2
        if r.cap_lift == "round_start":
            return self.round_live_at_start > 2
        return True

    def _compute_legal(self, i: int) -> Legal:
        if self.phase != "betting" or self.bring_in_due:
            return self._special_legal(i)
        # The betting round proper: the hot path, kept to plain local arithmetic.
        r = self.rules
        eff = self.stacks[i] if not self._cap else self.effective_stack(i)
        bet = self.bets[i]
        cb = self.current_bet
        owe = cb - bet
        all_in_to = bet + eff
        opening = cb == 0
        min_to: int | None = None
        max_to: int | None = None
        # A raise needs someone who could put in more than the current bet (R-4.8):
        # against players who can at most call all in, it is only a call.
        bets = self.bets
        stacks = self.stacks
        others_can_call = False
        for j in self._actor_list:
            if j != i and bets[j] + (stacks[j] if not self._cap else self.effective_stack(j)) > cb:
                others_can_call = True
                break
        can_raise = (
            others_can_call
            and all_in_to > cb
            and (
                # Inline the usual answer (not acted yet, or a full raise since he did).
                self.acted_level[i] is None
                or self.full_seq > self.acted_seq[i]
                or self._raise_reopened(i)
            )
            and (not self._limited or not self._cap_reached())
            and (self._check_raise or not self.passive[i])
            and not (self._jacks and self._jacks_block(i))
        )
        if can_raise:
            street = self._streets[self.street_index if self.street_index > 0 else 0]
            min_to, max_to = self._raise_range(street, cb, owe, all_in_to, opening)
        key = (
            owe > 0,
            can_raise,
            opening,
            self.completion_pending,
            eff > 0 and (all_in_to <= cb or max_to == all_in_to),
            self._checking_out,
        )
        actions = _ACTION_SETS.get(key)
        if actions is None:
            actions = _ACTION_SETS[key] = _action_set(key)
        # Positional: this runs at every decision, and keywords cost twice as much here.
        # Order: player, actions, to_call, current_bet, bet_this_round, stack, pot,
        # min_to, max_to, unit, opening.
        return Legal(
            i,
            actions,
            (owe if owe < eff else eff) if owe > 0 else 0,
            cb,
            bet,
            eff,
            self.middle,
            min_to,
            max_to,
            r.unit,
            opening,
        )

    def _jacks_block(self, i: int) -> bool:
        """R-4.9: before the pot is opened on the first round, a player without jacks or
        better may not open it: not bet (antes only), not raise the blinds (blinds). Once
        it is open, anyone may raise."""
        return (
            self._jacks
            and self.street_index == 0
            and self.opener is None
            and not has_openers(self.hole[i], self.rules.wild)
        )

    def _jacks_refusal(self) -> Msg:
        blinds = self.variant.forced == "blinds" and any(self.rules.blinds_or_straddles)
        key = "refuse.jacks_raise_blinds" if blinds else "refuse.jacks_bet"
        return msg(key, rule=Rule("R-4.9"))

    def no_raise_why(self) -> Msg | None:
        """Why the player to act may not bet or raise now, as a message with the rule
        id; None when he may. Computed on demand (refusals and prompts only), in the
        order a floor person would give the reasons; the betting core's ``can_raise``
        tests the same conditions (``test_floor_engine`` checks they agree)."""
        if self.phase != "betting" or self.to_act is None:
            return None
        legal = self.legal()
        if legal.min_to is not None:
            return None
        if self.bring_in_due:
            # Only a bring-in of the full small bet has no completion (R-3.9).
            return msg("refuse.nothing_to_complete", rule=Rule("R-3.9"))
        i = self.to_act
        cb = self.current_bet
        if self.bets[i] + self.effective_stack(i) <= cb:
            return msg("refuse.short_to_raise", rule=Rule("R-7.1"))
        if not any(
            j != i and self.bets[j] + self.effective_stack(j) > cb for j in self._actor_list
        ):
            return msg("refuse.nobody_to_raise", rule=Rule("R-4.8"))
        if self._jacks_block(i):
            return self._jacks_refusal()
        if not self._check_raise and self.passive[i]:
            return msg("refuse.no_check_raise", rule=Rule("R-5.9"))
        if not (
            self.acted_level[i] is None
            or self.full_seq > self.acted_seq[i]
            or self._raise_reopened(i)
        ):
            if self.rules.incomplete_rule == "half_bet" and self.rules.limited:
                return msg("refuse.not_reopened_half", rule=Rule("R-7.4"))
            return msg("refuse.not_reopened", rule=Rule("R-7.3"))
        if self._limited and self._cap_reached():
            return msg("refuse.capped", rule=Rule("R-5.7"))
        return None

    def _special_legal(self, i: int) -> Legal:
        """Legal actions outside a plain betting turn: showdown, declare, Guts, draw, and
        the bring-in (R-3.5)."""
        r = self.rules
        if self.phase == "showdown":
            return self._no_wager_legal(i, _SHOW_OR_MUCK, self.stacks[i], self.current_bet)
        if self.phase == "declare":
            return self.declare_legal(i)
        if self.phase == "guts":
            return self.guts_legal(i)
        street = self._streets[self.street_index if self.street_index > 0 else 0]
        eff = self.stacks[i] if not self._cap else self.effective_stack(i)
        bet = self.bets[i]
        if self.phase == "draw":
            return self._no_wager_legal(i, _DRAW, eff, draw_max=min(street.draw, len(self.hole[i])))
        # The bring-in (R-3.5): bring it in, or complete to a full bet.
        assert self.bring_in_due, self.phase
        complete = min(self.full_size, bet + eff)
        if r.bring_in >= self.full_size:
            # R-3.9: the bring-in is already a full bet; there is nothing to complete.
            actions = _BRING_IN_ALL_IN if r.bring_in >= eff else _BRING_IN
            size: int | None = None
        else:
            actions = _COMPLETE_ALL_IN if complete == bet + eff else _COMPLETE
            size = complete
        return Legal(
            player=i,
            actions=actions,
            to_call=min(r.bring_in, eff),
            current_bet=0,
            bet_this_round=bet,
            stack=eff,
            pot=self.middle,
            min_to=size,
            max_to=size,
            unit=r.unit,
            opening=True,
        )

    def _raise_range(
        self, street: Street, cb: int, owe: int, all_in_to: int, opening: bool
    ) -> tuple[int, int]:
        """The legal raise-to range (R-5.1 to R-5.5, R-5.8, R-7.3 to R-7.5)."""
        r = self.rules
        limit = r.limit
        lo = self.next_full_to if not opening else self.full_size
        if limit is Limit.NO_LIMIT:
            if not r.min_raise_rule and not opening and not self.completion_pending:
                lo = cb + self._street_bet_size(street)
            hi = all_in_to
        elif limit is Limit.FIXED:
            hi = lo
        elif limit is Limit.SPREAD:
            hi = cb + self._spread_max(street) if not opening else self._spread_max(street)
            if not r.min_raise_rule and not opening:
                lo = cb + self._scaled(r.small_bet)
            lo = min(lo, hi)
        else:
            # R-5.3: raise by at most the pot after the call; R-5.4: half of that.
            pot_after_call = self.middle + owe
            by = pot_after_call if limit is Limit.POT_LIMIT else pot_after_call // 2
            by -= by % r.unit
            if not r.min_raise_rule and not opening and not self.completion_pending:
                lo = cb + self._street_bet_size(street)
            hi = max(cb + by, lo)
        if all_in_to <= lo:
            return all_in_to, all_in_to
        return lo, min(hi, all_in_to)

    # ------------------------------------------------------------------ betting

    def _apply_betting(self, action: Action) -> None:
        i = action.player
        legal = self._legal or self.legal()
        if self.bring_in_due:
            self._apply_bring_in(action, legal)
            self._after_action(i)
            return
        if isinstance(action, Fold):
            if "fold" not in legal.actions:
                raise IllegalAction(msg("refuse.no_fold_check", rule=Rule("R-4.4")), legal)
            self._fold(i)
            self.events.append(
                ActionTaken(player=i, kind="fold", added=0, total=self.bets[i], all_in=False)
            )
        elif isinstance(action, (Check, Call)):  # a tuple: faster than a union here
            if isinstance(action, Check) and legal.to_call > 0:
                raise IllegalAction(
                    msg("refuse.no_check", amount=Chips(legal.to_call), options=legal.options()),
                    legal,
                )
            self._call(i, legal)
        elif isinstance(action, (Bet, RaiseTo, RaiseBy, AllIn)):
            total = self._wager_total(action, legal)
            if total <= self.current_bet:
                self._call(i, legal)  # an all-in for no more than the call is a call (R-7.1)
            else:
                if (
                    self.street_index == 0
                    and self.opener is None
                    and (legal.opening or self._jacks)
                ):
                    # R-16.6: the first voluntary bet of the first round opens the pot
                    # (under jacks to open, the first raise of the blinds, R-4.9); the
                    # opener starts the betting after the draw (R-16.4).
                    self.opener = i
                    if self._jacks:
                        self.opener_cards = tuple(self.hole[i])  # R-12.2: his openers
                self._raise_to(i, total)
        else:
            raise IllegalAction(msg("refuse.not_betting", options=legal.options()), legal)
        self._after_action(i)

    def _wager_total(self, action: Bet | RaiseTo | RaiseBy | AllIn, legal: Legal) -> int:
        """The raise-to total a wager declares, checked against the legal range (R-6.4)."""
        if isinstance(action, AllIn):
            if legal.stack <= 0:
                raise IllegalAction(msg("refuse.no_chips"), legal)
            total = legal.all_in_to
            if total > legal.current_bet and (legal.max_to is None or total > legal.max_to):
                if legal.max_to is not None and self.rules.clamp_to_max:
                    return legal.max_to
                if legal.max_to is None:
                    raise IllegalAction(self._cannot_raise(legal), legal)
                raise BadAmount(
                    msg(
                        "refuse.all_in_above_max",
                        total=Chips(total),
                        most=Chips(legal.max_to),
                        options=legal.options(),
                    ),
                    legal,
                )
            return total
        raw = action.total if isinstance(action, RaiseTo) else action.amount
        if type(raw) is not int:
            raise BadAmount(
                msg("refuse.not_whole", said=Name(repr(raw)), options=legal.options()), legal
            )
        if raw <= 0 or raw > MAX_CHIPS:
            raise BadAmount(
                msg("refuse.impossible_amount", said=Name(str(raw)), options=legal.options()),
                legal,
            )
        if isinstance(action, Bet) and not legal.opening:
            raise IllegalAction(
                msg(
                    "refuse.already_a_bet",
                    amount=Chips(legal.current_bet),
                    options=legal.options(),
                ),
                legal,
            )
        total = legal.current_bet + raw if isinstance(action, RaiseBy) else raw
        if legal.min_to is None or legal.max_to is None:
            raise IllegalAction(self._cannot_raise(legal), legal)
        if total > legal.max_to and self.rules.clamp_to_max:
            total = legal.max_to
        if total < legal.min_to or total > legal.max_to:
            word = "refuse.word_bet" if legal.opening else "refuse.word_raise_to"
            said = msg("refuse.said", word=Term(word), amount=Chips(total))
            if isinstance(action, RaiseBy):
                said = msg("refuse.said_raise_by", amount=Chips(raw), total=Chips(total))
            if legal.min_to == legal.max_to:
                allowed = msg("refuse.only_amount", word=Term(word), amount=Chips(legal.min_to))
            else:
                allowed = msg(
                    "refuse.legal_range",
                    word=Term(word),
                    low=Chips(legal.min_to),
                    high=Chips(legal.max_to),
                )
            raise BadAmount(
                msg("refuse.out_of_range", said=said, allowed=allowed, options=legal.options()),
                legal,
            )
        if total != legal.all_in_to and (total - legal.current_bet) % self.rules.unit:
            raise BadAmount(
                msg("refuse.units", unit=Chips(self.rules.unit), options=legal.options()), legal
            )
        return total

    def _cannot_raise(self, legal: Legal) -> Msg:
        """The refusal of a bet or raise that is not allowed: why, then what is (R-6.6)."""
        reason = self.no_raise_why() or msg("refuse.cannot_raise_now")
        return msg("refuse.why_then_options", reason=reason, options=legal.options())

    def _call(self, i: int, legal: Legal) -> None:
        added = legal.to_call
        if added == 0:
            self.events.append(
                ActionTaken(player=i, kind="check", added=0, total=self.bets[i], all_in=False)
            )
        else:
            self._put(i, added, bet=True)
            self.events.append(
                ActionTaken(
                    player=i,
                    kind="call",
                    added=added,
                    total=self.bets[i],
                    all_in=self.effective_stack(i) == 0,
                )
            )
        self.acted_level[i] = self.current_bet
        self.acted_seq[i] = self.full_seq
        self.passive[i] = True

    def _raise_to(self, i: int, total: int) -> None:
        r = self.rules
        cb = self.current_bet
        opening = cb == 0
        added = total - self.bets[i]
        self._put(i, added, bet=True)
        all_in = self.effective_stack(i) == 0
        full = total >= (self.full_size if opening else self.next_full_to)
        completing = self.completion_pending
        if full:
            self.full_seq += 1
            self.raises += 1
            if r.limit is not Limit.FIXED:
                # R-5.8: later raises must be at least the largest bet or raise so far.
                self.full_size = max(self.full_size, total - max(cb, self.last_full_level))
            self.last_full_level = total
            self.next_full_to = total + self.full_size
            self.completion_pending = False
        elif r.incomplete_rule == "half_bet" and r.limited:
            since_full = total - self.last_full_level
            if since_full * 2 >= self.full_size:
                # R-7.4: half a bet or more counts as a full raise and reopens.
                self.full_seq += 1
                self.raises += 1
                if r.half_bet_raise == "on_top":  # R-7.5 (a)
                    self.last_full_level = total
                    self.next_full_to = total + self.full_size
                else:  # R-7.5 (b): complete the all-in raise, then a full raise
                    self.next_full_to = self.last_full_level + 2 * self.full_size
                    self.last_full_level = total
                self.completion_pending = False
            else:
                # Below half: the next player may complete it to a full bet (R-7.4).
                self.next_full_to = self.last_full_level + self.full_size
                self.completion_pending = True
        else:
            # R-7.3: an incomplete all-in does not reopen; a raise goes on top of it.
            self.next_full_to = total + self.full_size
        self.current_bet = total
        kind: Literal["bet", "raise", "complete"]
        if completing and full:
            kind = "complete"
        elif opening:
            kind = "bet"
        else:
            kind = "raise"
        self.events.append(
            ActionTaken(player=i, kind=kind, added=added, total=total, all_in=all_in)
        )
        self.acted_level[i] = total
        self.acted_seq[i] = self.full_seq
        self.passive[i] = False
        self.last_aggressor = i

    def _after_action(self, i: int) -> None:
        if self._live_count() == 1:
            self._close_round()
            self._award_uncontested()
            return
        nxt = self._next_needing(i, inclusive=False)
        if nxt is not None:
            self.to_act = nxt  # _set_to_act, inlined: this is every action's path
            self._legal = None
            return
        passed_out = (
            self.street_index == 0
            and self.variant.forced != "bring_in"
            and self.variant.streets[0].betting
            and (self.current_bet == 0 or (self._jacks and self.opener is None))
        )
        self._close_round()
        if passed_out:
            # R-4.6: everyone checked a first round with no blind or bring-in: the deal
            # is thrown in and the antes stay in the pot for the next deal. R-4.9: under
            # jacks to open, a round nobody opened is thrown in the same way, blinds and
            # calls staying in the pot; its reason says which rule threw it in.
            self._finish("not opened" if self._jacks else "passed out")
            return
        self._next_street()

    def _apply_bring_in(self, action: Action, legal: Legal) -> None:
        i = action.player
        full_bring_in = self.rules.bring_in >= self.full_size
        if full_bring_in and isinstance(action, RaiseTo | RaiseBy | Bet | AllIn):
            # A bring-in of a full bet has nothing to complete: "bet 2" is the bring-in.
            total = (
                action.total
                if isinstance(action, RaiseTo)
                else legal.all_in_to
                if isinstance(action, AllIn)
                else action.amount
            )
            if total == legal.bet_this_round + legal.to_call:
                action = BringIn(i)
        if isinstance(action, BringIn):
            amount = legal.to_call
            self._put(i, amount, bet=True)
            self.bring_in_due = False
            self.current_bet = self.rules.bring_in
            self.last_aggressor = i
            if full_bring_in:
                # R-3.9: a bring-in of the full small bet is a full bet: the next players
                # may call or raise by a full bet, it is the round's bet for the cap
                # (R-5.7), and, forced like a big blind, it keeps its option.
                self.full_seq += 1
                self.raises += 1
                self.last_full_level = self.current_bet
                self.next_full_to = self.current_bet + self.full_size
                self.completion_pending = False
                self.acted_level[i] = None
            else:
                self.completion_pending = True
                self.acted_level[i] = self.current_bet
                self.acted_seq[i] = self.full_seq
            self.events.append(
                ActionTaken(
                    player=i,
                    kind="bring_in",
                    added=amount,
                    total=self.bets[i],
                    all_in=self.effective_stack(i) == 0,
                )
            )
            return
        if isinstance(action, RaiseTo | RaiseBy | Bet | AllIn):
            total = (
                action.total
                if isinstance(action, RaiseTo)
                else legal.all_in_to
                if isinstance(action, AllIn)
                else action.amount
            )
            if legal.min_to is None:
                raise BadAmount(
                    msg("refuse.full_bring_in", rule=Rule("R-3.9"), amount=Chips(legal.to_call)),
                    legal,
                )
            if total != legal.min_to:
                raise BadAmount(
                    msg(
                        "refuse.bring_in_or_complete",
                        amount=Chips(legal.to_call),
                        complete=Chips(legal.min_to),
                    ),
                    legal,
                )
            self.bring_in_due = False
            self.completion_pending = True  # completing the bring-in, R-3.5
            self._raise_to(i, total)
            return
        key = "refuse.bring_in_highest" if self.variant.showing == "low" else "refuse.bring_in"
        if legal.min_to is None:
            options = msg("refuse.bring_in_for", amount=Chips(legal.to_call))
        else:
            options = msg(
                "refuse.bring_in_or_complete_to",
                amount=Chips(legal.to_call),
                complete=Chips(legal.min_to),
            )
        raise IllegalAction(msg(key, options=options, rule=Rule("R-3.5")), legal)

    def _close_round(self) -> None:
        self._set_to_act(None)
        self._return_uncalled()
        street = self.street
        self.events.append(RoundClosed(street=street.name, pot=self.middle))
        self.bets = [0] * self.n
        self.current_bet = 0

    def _return_uncalled(self) -> None:
        """R-4.7: the part of the last wager nobody matched goes back to its owner."""
        if self.n < 2:
            return
        # One pass for the largest wager (first such position) and the next largest.
        bets = self.bets
        top = 0
        first = second = -1
        for j, b in enumerate(bets):
            if b > first:
                first, second, top = b, first, j
            elif b > second:
                second = b
        excess = first - second
        if excess > 0:
            self.bets[top] -= excess
            self.contrib[top] -= excess
            self.stacks[top] += excess
            self._update_actor(top)
            self.middle -= excess
            self.events.append(BetReturned(player=top, amount=excess))

    # ------------------------------------------------------------------ draw

    def _begin_draw(self, street: Street) -> None:
        """R-16.4: each active player in turn from the button's left discards 0..N cards
        and is dealt replacements. All-in players draw too."""
        self._draw_order = [i for i in range(self.n) if not self.folded[i]]
        if len(self._draw_order) < 2:
            self._after_draws()
            return
        self.phase = "draw"
        self._set_to_act(self._draw_order[0])

    def _apply_draw(self, action: Action) -> None:
        i = action.player
        legal = self.legal()
        if isinstance(action, Fold):
            # A player may give up his hand in his turn to draw (R-4.4: folding is
            # always allowed in turn); the draw goes on with the next player.
            self._fold(i)
            self.events.append(
                ActionTaken(player=i, kind="fold", added=0, total=self.bets[i], all_in=False)
            )
            if self._live_count() == 1:
                self._award_uncontested()
                return
            self._next_drawer(i)
            return
        if not isinstance(action, Draw):
            raise IllegalAction(msg("refuse.draw_time", most=Number(legal.draw_max)), legal)
        discards = tuple(action.discards)
        hand = self.hole[i]
        if len(discards) > legal.draw_max:
            raise IllegalAction(msg("refuse.discard_most", most=Count(legal.draw_max)), legal)
        if len(set(discards)) != len(discards) or any(c not in hand for c in discards):
            raise IllegalAction(msg("refuse.discard_own", cards=Cards(tuple(hand))), legal)
        needed = len(discards)
        if self._script is None and self._cards_left() < needed:
            # R-16.4: the deck ran short: shuffle the earlier discards (never the
            # drawer's own) and keep dealing. The order comes from the hand's seed, so
            # a replay reshuffles identically.
            pool = list(self._discards)
            self._discards = []
            self._rng_shuffle(pool)
            self._reshuffled.extend(pool)
            self.events.append(DeckReshuffled(cards=len(pool)))
        received: list[Card] = []
        for card in discards:
            k = hand.index(card)
            new = self._deal_card(i)
            hand[k] = new
            self.face_up[i][k] = False
            received.append(new)
        self._discards.extend(discards)
        self._value_cache.pop(i, None)
        self.draws[i].append(needed)
        self.events.append(
            Drew(
                player=i,
                count=needed,
                discarded=discards,
                received=tuple(received),
                audience=i,
            )
        )
        self.events.append(Drew(player=i, count=needed))
        self._next_drawer(i)

    def _next_drawer(self, i: int) -> None:
        pos = self._draw_order.index(i)
        if pos + 1 < len(self._draw_order):
            self._set_to_act(self._draw_order[pos + 1])
            return
        self._after_draws()

    def _rng_shuffle(self, cards: list[Card]) -> None:
        # A small deterministic generator seeded from the deck order: the reshuffle is
        # fixed when the hand starts, like the deck (R-16.1), and needs no extra state.
        seed = sum((k + 1) * (ord(c[0]) * 7 + ord(c[1])) for k, c in enumerate(self.deck))
        seed ^= len(self.events) * 2654435761
        x = seed & 0xFFFFFFFF or 1
        for j in range(len(cards) - 1, 0, -1):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            k = x % (j + 1)
            cards[j], cards[k] = cards[k], cards[j]

    def _after_draws(self) -> None:
        self.phase = "betting"
        self._set_to_act(None)
        if self._begin_betting(self.street):
            return
        self._next_street()

    # ------------------------------------------------------------------ declare

    # ------------------------------------------------------------------ guts

    def _post_guts_stakes(self) -> None:
        """R-15.2: an empty pot is filled (from the reserve first, E-13), else everyone
        stakes. A short stack stakes what he has; the pot is that much smaller."""
        assert isinstance(self.pot_state, GutsState)
        stakes, state = guts_stakes(self.pot_state, self.player_ids, guts_options(self.rules))
        short = 0
        for i, pid in enumerate(self.player_ids):
            want = stakes.get(pid, 0)
            if want <= 0:
                continue
            amt = min(want, self.stacks[i])
            short += want - amt
            self._put(i, amt, bet=False)
            self.contrib[i] -= amt
            self.dead += amt
            self.events.append(
                ForcedBet(player=i, kind="ante", amount=amt, all_in=self.stacks[i] == 0)
            )
        self.pot_state = _shrink(state, short)

    def _begin_guts(self) -> None:
        from bot.poker.potsystems import GutsCalls, sequential_order

        self.phase = "guts"
        ids = [self.player_ids[i] for i in range(self.n) if not self.folded[i]]
        self._guts_calls = GutsCalls(ids, self.rules.guts_mode)
        if self.rules.guts_mode == "sequential":
            order = sequential_order(ids, self.player_ids[-1])
            self._set_to_act(self.player_ids.index(order[0]))
        else:
            self._set_to_act(None)
            self.events.append(DeclarationCount(committed=0, total=len(ids), what="guts"))

    def guts_legal(self, player: int) -> Legal:
        """What a player may do in the Guts in/out call: say in or out (R-15.2)."""
        return self._no_wager_legal(player, _GUTS, self.stacks[player])

    def guts_pending(self) -> list[int]:
        if self.phase != "guts" or self._guts_calls is None:
            return []
        return [self.player_ids.index(p) for p in self._guts_calls.pending()]

    def _apply_guts(self, action: Action) -> None:
        calls = self._guts_calls
        assert calls is not None
        i = action.player
        if not isinstance(action, GutsCall | DeclareTimeout):
            raise IllegalAction(msg("refuse.guts_time", rule=Rule("R-15.2")))
        if not 0 <= i < self.n or self.player_ids[i] not in calls.pending():
            if 0 <= i < self.n and i in self.guts_calls:
                raise IllegalAction(msg("refuse.guts_final", rule=Rule("R-15.2")))
            raise NotYourTurn(msg("refuse.guts_none"))
        stay = action.stay if isinstance(action, GutsCall) else False  # the clock: out
        if self.rules.guts_mode == "sequential" and calls.to_call() != self.player_ids[i]:
            raise NotYourTurn(msg("refuse.guts_not_your_turn"))
        calls.commit(self.player_ids[i], stay)
        self.guts_calls[i] = stay
        if self.rules.guts_mode == "sequential":
            self.events.append(GutsCallMade(player=i, stay=stay))
            nxt = calls.to_call()
            if nxt is not None:
                self._set_to_act(self.player_ids.index(nxt))
                return
        else:
            self.events.append(GutsCallCommitted(player=i, stay=stay, audience=i))
            self.events.append(
                DeclarationCount(committed=calls.count(), total=len(calls.players), what="guts")
            )
            if not calls.complete:
                return
            revealed = calls.reveal()
            self.events.append(
                GutsCallsRevealed(
                    calls=tuple((self.player_ids.index(p), v) for p, v in revealed.items())
                )
            )
        self._settle_guts()

    def _settle_guts(self) -> None:
        from bot.poker.potsystems import settle_guts

        assert isinstance(self.pot_state, GutsState) and self._guts_calls is not None
        self._set_to_act(None)
        stayers = self._guts_calls.stayers()
        positions = [self.player_ids.index(p) for p in stayers]
        if len(positions) > 1 or self.rules.guts_ghost:
            for i in positions:
                self._show(i)
        values = {self.player_ids[i]: self._values(i)[0] or 0 for i in positions}
        ghost: int | None = None
        if self.rules.guts_ghost and stayers:
            # The kitty's hand is dealt face up from the deck (R-15.3).
            kitty = tuple(self._deal_card() for _ in range(5))
            self.board.extend(kitty)
            self.events.append(BoardDealt(cards=kitty, street="ghost hand"))
            ghost = sd.evaluate_hand(self.variant, kitty, (), self.rules.wild)[0]
            self._value_cache.clear()
            values = {
                self.player_ids[i]: sd.evaluate_hand(
                    self.variant, self.hole[i], (), self.rules.wild
                )[0]
                or 0
                for i in positions
            }
        result = settle_guts(
            self.pot_state,
            stayers,
            values,
            ghost,
            self.player_ids,
            guts_options(self.rules),
            label=self._id_player,
            stacks=dict(zip(self.player_ids, self.stacks, strict=True)),  # table stakes
        )
        for pid, amount in result.pays.items():
            i = self.player_ids.index(pid)
            self.stacks[i] -= amount
            self.middle += amount
        for pid, amount in result.wins.items():
            i = self.player_ids.index(pid)
            self.stacks[i] += amount
            self.middle -= amount
        self.pot_state_out = result.state
        self.events.append(PotSystemSettled(carried=self.middle, messages=result.log))
        self._finish("guts")

    def _end_of_streets(self) -> None:
        for i in range(self.n):
            if self.shown[i] and not self.folded[i] and self._shown_len[i] < len(self.hole[i]):
                # Exposed before the run-out (R-12.4): the whole hand is shown again, with
                # the cards dealt face up since, before it is read.
                self._show(i)
        if self.rules.pot_system == "guts":
            self._begin_guts()
            return
        if self.rules.declare != "none" and self._live_count() >= 2:
            self._begin_declare()
            return
        self._showdown()

    def _begin_declare(self) -> None:
        """§13: after the final betting round every active player declares."""
        from bot.poker.declare import Declarations, in_turn_order

        self.phase = "declare"
        live = [i for i in range(self.n) if not self.folded[i]]
        self.declarations = Declarations(live)
        if self.rules.declare == "simultaneous":
            self._set_to_act(None)
            self.events.append(DeclarationCount(committed=0, total=len(live)))
            return
        order = in_turn_order(live, self.last_aggressor, self.round_opener, self.n)
        self._declare_order = order
        self._set_to_act(order[0])

    def declare_pending(self) -> list[int]:
        """Players who still have to declare (any order in the chip-fist mode)."""
        if self.phase != "declare" or self.declarations is None:
            return []
        return list(self.declarations.pending())

    def declare_legal(self, player: int) -> Legal:
        return self._no_wager_legal(player, _DECLARE, self.stacks[player])

    def _no_wager_legal(
        self,
        i: int,
        actions: frozenset[ActionName],
        stack: int,
        current_bet: int = 0,
        *,
        draw_max: int = 0,
    ) -> Legal:
        """A turn with no chips to put in: show or muck, draw, declare, Guts in/out."""
        return Legal(
            player=i,
            actions=actions,
            to_call=0,
            current_bet=current_bet,
            bet_this_round=0,
            stack=stack,
            pot=self.middle,
            min_to=None,
            max_to=None,
            unit=self.rules.unit,
            opening=False,
            draw_max=draw_max,
        )

    def _apply_declare(self, action: Action) -> None:
        assert self.declarations is not None
        i = action.player
        if i not in self.declarations.pending():
            if 0 <= i < self.n and not self.folded[i] and self.rules.declare == "simultaneous":
                raise IllegalAction(msg("refuse.declared_final", rule=Rule("R-13.2")))
            raise NotYourTurn(msg("refuse.nothing_to_declare"))
        if isinstance(action, DeclareTimeout):
            # R-13.2: the chip-fist clock is shared, so when it runs out every open fist
            # times out together (folded one by one, the last would win a pot he never
            # declared for). Declaring in turn has a clock per player.
            simultaneous = self.rules.declare == "simultaneous"
            late = sorted(self.declarations.pending()) if simultaneous else [i]
            for p in late:
                if self.rules.declare_default == "fold":
                    self._fold(p)
                    self.declarations.withdraw(p)
                    self.events.append(
                        ActionTaken(player=p, kind="fold", added=0, total=0, all_in=False)
                    )
                else:
                    self._commit(p, "high")
            if self._live_count() == 0:
                # Nobody declared: nobody wins, and the pot carries to the next deal (as
                # when every declarer is eliminated, R-13.6). No pot is formed, so none
                # is raked.
                self._finish("nobody declared")
                return
        elif isinstance(action, Declare):
            if action.choice not in ("low", "high", "both"):
                raise IllegalAction(msg("refuse.declare_choice"), self.declare_legal(i))
            self._commit(i, action.choice)
        else:
            raise IllegalAction(msg("refuse.declare_time"), self.declare_legal(i))
        if self._live_count() == 1:
            self._award_uncontested()
            return
        if self.rules.declare == "in_turn":
            rest = [j for j in self._declare_order if j in self.declarations.pending()]
            if rest:
                self._set_to_act(rest[0])
                return
        if not self.declarations.complete:
            return
        choices = self.declarations.reveal()
        self.declared = dict(choices)
        if self.rules.declare == "simultaneous":
            self.events.append(DeclarationsRevealed(choices=tuple(sorted(self.declared.items()))))
        self._resolve_declare()

    def _commit(self, i: int, choice: Choice) -> None:
        assert self.declarations is not None
        self.declarations.commit(i, choice)
        if self.rules.declare == "simultaneous":
            self.events.append(DeclarationCommitted(player=i, choice=choice, audience=i))
            self.events.append(
                DeclarationCount(
                    committed=self.declarations.count(), total=len(self.declarations.players)
                )
            )
        else:
            self.events.append(DeclarationMade(player=i, choice=choice))

    def _resolve_declare(self) -> None:
        from bot.poker.declare import DeclareOptions, resolve_declare

        self._set_to_act(None)
        pots = self._form_pots()
        values: dict[int, tuple[int | None, int | None]] = {}
        for i in self.declared:
            v = self._values(i)
            values[i] = (v[0], v[1] if len(v) > 1 else None)
        options = DeclareOptions(
            no_second_best=self.rules.no_second_best,
            both_may_split=self.rules.both_may_split,
            qualifier=self.variant.showdown[-1] in ("low_a5_8", "omaha_low_8"),
            timeout_default=self.rules.declare_default,
        )
        result = resolve_declare(pots, values, self.declared, list(range(self.n)), options)
        for i in sorted(result.shown, key=lambda p: self._order_for_showdown().index(p)):
            if not self.shown[i]:
                self._show(i)
        for k in range(len(pots)):
            for award in result.awards_for(k):
                self._pay(k, award.share, award.amount, award.winners, award.amounts, None)
        self.events.append(DeclareResolved(carried=result.carried, messages=result.messages))
        self._finish("showdown")

    # ------------------------------------------------------------------ showdown

    def _expose_all(self) -> None:
        if self.exposed:
            return
        self.exposed = True
        for i in self._order_for_showdown():
            if not self.folded[i] and not self.shown[i]:
                self._show(i)

    def _show(self, i: int) -> None:
        self.shown[i] = True
        self._shown_len[i] = len(self.hole[i])
        hands = sd.describe_hand_words(
            self.variant, self.hole[i], self.board, self.rules.wild, self._values(i)
        )
        self.events.append(
            HandShown(
                player=i,
                cards=tuple(self.hole[i]),
                hands=hands,
            )
        )

    def _order_for_showdown(self) -> list[int]:
        """R-9.1: the last bettor or raiser of the final round first, else the first
        active player left of the button; then clockwise."""
        start = self.last_aggressor if self.last_aggressor is not None else 0
        return [
            (start + k) % self.n for k in range(self.n) if not self.folded[(start + k) % self.n]
        ]

    def _may_show_early(self, i: int) -> bool:
        """R-8.4 lets a player in lower pots only *wait*: one whom R-9.1 alone would have
        asked before the player now asked may still show (or muck) at once, as real
        hand histories record it."""
        asked = self.to_act
        if asked is None or i == asked or self.shown[i] or self.mucked[i] or self.folded[i]:
            return False
        order = self._order_for_showdown()
        return i in order and order.index(i) < order.index(asked)

    def _settling_order(self, order: list[int]) -> list[int]:
        """R-8.4 with R-8.3 and R-9.1: players are asked to show pot by pot, from the
        highest side pot down to the main pot; a player involved only in lower pots waits
        until the pots above his are settled. Within a pot the R-9.1 order holds."""
        pots = build_pots(self.contrib, [not f for f in self.folded])
        top = {
            i: max((k for k, p in enumerate(pots) if i in p.eligible), default=-1) for i in order
        }
        return sorted(order, key=lambda i: -top[i])  # stable: R-9.1 order within a level

    def _take_rake(self, pots: list[Pot]) -> list[Pot]:
        rake = self.rules.rake
        if not (rake.percent_bp or rake.step_per):
            return pots  # no rake at this table
        total = sum(p.amount for p in pots)
        if rake.no_flop_no_drop and self._ended_on_first_street():
            return pots
        # Only this deal's chips are raked: a pot carried in (two to win, a declare
        # carry-over) was raked in the deal it came from and must not pay twice.
        amount = rake.amount(total - min(self.carried, total))
        if amount <= 0:
            return pots
        self.rake += amount
        self.middle -= amount
        self.events.append(RakeTaken(amount=amount))
        out: list[Pot] = []
        left = amount
        for p in pots:  # from the main pot first: every contestant shares in it
            cut = min(left, p.amount)
            left -= cut
            out.append(Pot(p.amount - cut, p.eligible))
        return out

    def _ended_on_first_street(self) -> bool:
        return self.street_index <= 0 and not self.board

    def _form_pots(self) -> list[Pot]:
        pots = build_pots(self.contrib, [not f for f in self.folded])
        extra = self.carried + self.dead
        if extra:
            live = tuple(i for i in range(self.n) if not self.folded[i])
            if pots:
                pots[0] = Pot(pots[0].amount + extra, pots[0].eligible)
            else:
                pots = [Pot(extra, live)]
        pots = self._take_rake(pots)
        self.pots = pots
        self.events.append(PotsFormed(pots=tuple(pots)))
        return pots

    def _award_uncontested(self) -> None:
        """R-12.1: the last player left wins every pot he is in, without showing."""
        pots = self._form_pots()
        survivor = next(i for i in range(self.n) if not self.folded[i])
        for k, pot in enumerate(pots):
            if pot.amount <= 0:
                continue
            self._pay(k, "whole", pot.amount, (survivor,), (pot.amount,), None)
        self._finish("uncontested")

    def _showdown(self) -> None:
        self._set_to_act(None)
        self._showdown_order = self._order_for_showdown()
        if (self.rules.showdown == "manual" or self.rules.declared_hands) and not self.exposed:
            self.phase = "showdown"
            self._showdown_order = self._settling_order(self._showdown_order)
            self._next_shower()
            return
        for i in self._showdown_order:
            if self.shown[i]:
                continue
            if self.exposed or self.rules.auto_show_all or self._could_win(i):
                self._show(i)
            else:
                self.mucked[i] = True
                self.events.append(HandMucked(player=i))
        self._award_showdown()

    def _next_shower(self) -> None:
        for i in self._showdown_order:
            if not self.shown[i] and not self.mucked[i]:
                contenders = [
                    j for j in self._showdown_order if not self.mucked[j] and not self.folded[j]
                ]
                if len(contenders) == 1:
                    break
                self._set_to_act(i)
                return
        self._award_showdown()

    def _apply_showdown(self, action: Action) -> None:
        i = action.player
        if isinstance(action, Show):
            if action.stated:
                self._state_hand(i, action.stated)
            self._show(i)
        elif isinstance(action, Muck):
            self.mucked[i] = True
            self.events.append(HandMucked(player=i))
        else:
            raise IllegalAction(msg("refuse.showdown_time"), self.legal())
        self._set_to_act(None)
        self._next_shower()

    def _state_hand(self, i: int, stated: tuple[str, ...]) -> None:
        """R-9.3: the hand counts as what the player states, provided his cards hold at
        least that: every stated card is one he holds (or on the board), or is stood in
        for by one of his wild cards. The statement is final once made."""
        if not self.rules.declared_hands:
            raise IllegalAction(msg("refuse.cards_speak", rule=Rule("R-9.3")))
        if len(stated) != 5 or len(set(stated)) != 5 or not set(stated) <= set(FULL_DECK):
            # Natural cards only: a wild card is stated as the card it stands for.
            raise IllegalAction(msg("refuse.state_five"), self.legal())
        wild = self.rules.wild
        available = [*self.hole[i], *self.board]
        wilds = sum(
            1
            for c in available
            if c == JOKER or (c[0] == "2" and wild in ("deuces", "deuces_joker"))
        )
        naturals = {c for c in available if c != JOKER}
        missing = [c for c in stated if c not in naturals]
        if len(missing) > wilds:
            raise IllegalAction(msg("refuse.state_not_held", rule=Rule("R-9.3")), self.legal())
        value = sd.evaluate_stated(self.variant, stated)
        actual = self._values(i)
        # Never more than the cards make; a statement below them binds (R-9.3).
        self._value_cache[i] = tuple(
            None if a is None else min(a, value) if k == 0 else a for k, a in enumerate(actual)
        )

    def _values(self, i: int) -> tuple[int | None, ...]:
        # Cached: hands are final once the showdown starts, and several pots ask again.
        cached = self._value_cache.get(i)
        if cached is None:
            cached = self._value_cache[i] = sd.evaluate_hand(
                self.variant, self.hole[i], self.board, self.rules.wild
            )
        return cached

    def could_win(self, position: int) -> bool:
        """At a showdown: whether the hand at ``position`` could still win or tie a pot
        against the hands already shown (R-9.2). The clock shows such a hand rather than
        mucking it (R-18.2)."""
        if self.phase != "showdown" or self.folded[position] or self.mucked[position]:
            return False
        return self._could_win(position)

    def _could_win(self, i: int) -> bool:
        """Auto showdown (R-9.2): a hand beaten in every pot by a hand already shown is
        mucked; any hand that could still win or tie something is shown."""
        if self._showdown_pots is None:  # contributions are final once the showdown starts
            self._showdown_pots = build_pots(self.contrib, [not f for f in self.folded])
        for b in self._board_indexes():
            mine = self._values_on(i, b)
            for pot in self._showdown_pots:
                if i not in pot.eligible:
                    continue
                shown = [j for j in pot.eligible if self.shown[j]]
                if not shown:
                    return True
                for k, value in enumerate(mine):
                    if value is None:
                        continue
                    best = max(
                        (v for j in shown if (v := self._values_on(j, b)[k]) is not None),
                        default=None,
                    )
                    if best is None or value >= best:
                        return True
        return False

    def _board_indexes(self) -> range:
        return range(2 if self.board2 is not None else 1)

    def _values_on(self, i: int, board: int) -> tuple[int | None, ...]:
        """The hand's values on the first board (0) or the second (1)."""
        if board == 0:
            return self._values(i)
        assert self.board2 is not None
        cached = self._value_cache2.get(i)
        if cached is None:
            cached = self._value_cache2[i] = sd.evaluate_hand(
                self.variant, self.hole[i], self.board2, self.rules.wild
            )
        return cached

    def _award_showdown(self) -> None:
        pots = self._form_pots()
        order = list(range(self.n))  # R-11.2: clockwise from the button's left
        boards = self._board_indexes()
        values = [
            {
                i: self._values_on(i, b)
                for i in range(self.n)
                if not self.folded[i] and not self.mucked[i]
            }
            for b in boards
        ]
        # R-8.3: from the last side pot down to the main pot.
        mark = len(self.events)
        for k in range(len(pots) - 1, -1, -1):
            pot = pots[k]
            if pot.amount <= 0:
                continue
            # R-20.2, R-20.5: with two boards (or runs) each wins half of every pot, the
            # odd chip to the first; each half is then split as a whole pot would be.
            # A pot only one player can win is his whole, on the first board.
            contested = sum(1 for i in pot.eligible if not self.folded[i]) > 1
            second = pot.amount // 2 if len(boards) == 2 and contested else 0
            for b, amount in zip(boards, (pot.amount - second, second), strict=False):
                if amount > 0:
                    self._award_on_board(k, amount, pot, values[b], order, b)
        # R-12.6: the awards are told main pot first, as a dealer announces them and as every
        # summary lists them; the order of settling (R-8.3) does not change any amount.
        awarded = self.events[mark:]
        if len(awarded) > 1:
            self.events[mark:] = sorted(
                awarded, key=lambda e: e.pot_index if isinstance(e, PotAwarded) else -1
            )
        self._finish("showdown")

    def _award_on_board(
        self,
        k: int,
        amount: int,
        pot: Pot,
        values: dict[int, tuple[int | None, ...]],
        order: list[int],
        board: int,
    ) -> None:
        contenders = [i for i in pot.eligible if i in values]
        pot_values = values
        if not contenders:
            # Everyone eligible mucked: the cards still speak among them for this
            # pot, and are shown (R-12.5: nothing is won with cards the table never
            # saw). Their values stay out of the other pots: a mucked hand never
            # wins a pot that a shown hand contests.
            contenders = [i for i in pot.eligible if not self.folded[i]] or list(pot.eligible)
            pot_values = dict(values)
            for i in contenders:
                pot_values[i] = self._values_on(i, board)
                if len(contenders) > 1 and not self.shown[i]:
                    self._show(i)
        if len(contenders) == 1:
            only = (contenders[0],)
            won = self._won_with(only, 0, board)
            self._pay(k, "whole", amount, only, (amount,), won, board)
            return
        self._award_pot(k, amount, contenders, pot_values, order, board)

    def _award_pot(
        self,
        k: int,
        amount: int,
        contenders: list[int],
        values: dict[int, tuple[int | None, ...]],
        order: list[int],
        board: int = 0,
    ) -> None:
        evaluators = self.variant.showdown
        high_order = low_order = order
        if self.rules.odd_chip == "suit":
            # R-11.4: the highest card by suit takes the high odd chip, the lowest card
            # by suit the low one, among all cards dealt to the tied players.
            def top(p: int) -> tuple[int, int]:
                return max(card_key(c, ace_low=False) for c in self.hole[p])

            def bottom(p: int) -> tuple[int, int]:
                return min(card_key(c, ace_low=True) for c in self.hole[p])

            high_order = sorted(order, key=top, reverse=True)
            low_order = sorted(order, key=bottom)
            if evaluators[0] in ("low_a5", "low_27", "badugi"):
                high_order = low_order

        def winners_for(idx: int) -> list[int]:
            scored = [(v, i) for i in contenders if (v := values[i][idx]) is not None]
            if not scored:
                return []
            best = max(v for v, _ in scored)
            return [i for v, i in scored if v == best]

        if len(evaluators) == 1:
            w = winners_for(0) or contenders  # R-9.4 leaves nobody: share it out
            amounts = tuple(split(amount, w, high_order))
            self._pay(k, "whole", amount, tuple(w), amounts, self._won_with(w, 0, board), board)
            return
        high = winners_for(0) or contenders
        low = winners_for(1)
        if not low:  # R-10.5: no qualifying low, high takes all
            amounts = tuple(split(amount, high, high_order))
            won = self._won_with(high, 0, board)
            self._pay(k, "whole", amount, tuple(high), amounts, won, board)
            return
        hi_amt, lo_amt = halve(amount)  # R-11.3
        hi_split = tuple(split(hi_amt, high, high_order))
        lo_split = tuple(split(lo_amt, low, low_order))
        self._pay(k, "high", hi_amt, tuple(high), hi_split, self._won_with(high, 0, board), board)
        self._pay(k, "low", lo_amt, tuple(low), lo_split, self._won_with(low, 1, board), board)

    def _won_with(self, winners: Sequence[int], idx: int, board: int = 0) -> Msg | None:
        """The name of the winning hand for one half of a pot ("Pair of kings"), or None
        when the winner never showed: a hand that was not shown is never described."""
        w = winners[0]
        if not self.shown[w]:
            return None
        cards = self.board if board == 0 or self.board2 is None else self.board2
        names = sd.describe_hand_words(
            self.variant, self.hole[w], cards, self.rules.wild, self._values_on(w, board)
        )
        return names[idx] if idx < len(names) else None

    def _pay(
        self,
        k: int,
        share: Literal["whole", "high", "low"],
        amount: int,
        winners: tuple[int, ...],
        amounts: tuple[int, ...],
        hand: Msg | None,
        board: int = 0,
    ) -> None:
        if k == 0 and isinstance(self.pot_state, TwoToWinState):
            # R-15.1: the main pot goes to the two-to-win system, not to the winner.
            self._two_to_win_winners.extend(w for w in winners if w not in self._two_to_win_winners)
            self._two_to_win_amount += amount
            return
        for w, a in zip(winners, amounts, strict=True):
            self.stacks[w] += a
        self.middle -= amount
        self.events.append(
            PotAwarded(
                pot_index=k,
                share=share,
                amount=amount,
                winners=winners,
                amounts=amounts,
                hand_words=hand,
                board=board,
            )
        )

    def _id_player(self, player_id: str) -> Player:
        return Player(self.player_ids.index(player_id))

    def _settle_two_to_win(self, uncontested: bool) -> None:
        from bot.poker.potsystems import settle_two_to_win

        assert isinstance(self.pot_state, TwoToWinState)
        state = self.pot_state
        this_hand = self._two_to_win_amount - state.pot
        if this_hand < 0:  # nothing reached a main pot (cannot happen with chips in)
            this_hand = 0
        winners = [self.player_ids[i] for i in self._two_to_win_winners]
        new, payouts, log = settle_two_to_win(
            TwoToWinState(self._two_to_win_amount - this_hand, state.markers),
            this_hand,
            winners,
            self.player_ids,
            uncontested=uncontested,
            label=self._id_player,
        )
        for pid, amount in payouts.items():
            i = self.player_ids.index(pid)
            self.stacks[i] += amount
            self.middle -= amount
        self.pot_state_out = new
        self.events.append(PotSystemSettled(carried=new.pot, messages=tuple(log)))

    def _finish(self, reason: str) -> None:
        self._set_to_act(None)
        if isinstance(self.pot_state, TwoToWinState) and self.pot_state_out is None:
            if reason in ("showdown", "uncontested"):
                self._settle_two_to_win(uncontested=reason == "uncontested")
            else:
                self.pot_state_out = TwoToWinState(self.middle, self.pot_state.markers)
        if self.opener is not None and self.opener_cards:
            # R-12.2: the opener shows openers, even if the pot was won uncontested;
            # discarded openers were kept for this.
            self.events.append(
                OpenersShown(player=self.opener, cards=openers_to_show(self.opener_cards))
            )
        self.phase = "over"
        self.result = HandEnded(
            stacks=tuple(self.stacks),
            net=tuple(
                [
                    s - s0 - a
                    for s, s0, a in zip(
                        self.stacks, self.starting_stacks, self._added_by, strict=True
                    )
                ]
            ),
            rake=self.rake,
            carried=self.middle,
            reason=reason,
        )
        self.events.append(self.result)


Evaluate = Callable[[Sequence[Card], Sequence[Card]], int | None]


def _shrink(state: GutsState, short: int) -> GutsState:
    """Chips a short stack could not put in never reached the pot: take them off the
    reserve first, then the pot, so the state matches the chips in the middle."""
    if short <= 0:
        return state
    from_reserve = min(short, state.reserve)
    return GutsState(
        pot=state.pot - (short - from_reserve),
        reserve=state.reserve - from_reserve,
        legs=state.legs,
    )
