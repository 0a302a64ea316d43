"""The rules of one hand: betting structure, forced bets and every house option.

:class:`Rules` is frozen and JSON-serialisable (``to_dict``/``from_dict``) because a hand
is stored as its rules, its start and its actions, and must replay exactly (invariant 4).
Defaults follow the rulebook's marked defaults.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, Literal

from bot.poker.errors import ConfigError
from bot.poker.messages import Chips, Name, Rule, Term, msg
from bot.poker.potsystems import GutsOptions
from bot.poker.variants import VARIANTS, Variant, get_variant


class Limit(StrEnum):
    """Betting structures, R-5.1 to R-5.5."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    HALF_POT = "half_pot"
    FIXED = "fixed"
    SPREAD = "spread"


@dataclass(frozen=True, slots=True)
class Rake:
    """R-14.1: a percentage (in basis points) up to a cap, or x chips per y in the pot."""

    percent_bp: int = 0
    cap: int = 0
    step_chips: int = 0
    step_per: int = 0
    no_flop_no_drop: bool = True
    step_mode: Literal["full", "begun"] = "full"
    """R-14.3: a step rake counts the full steps in the pot (default: x from a pot of y),
    or every step begun, the first from the first chip (the reference page's example:
    25 cents per $5 takes 25 cents from a $4 pot and 50 cents from a $5 pot)."""

    def __post_init__(self) -> None:
        if self.step_mode not in ("full", "begun"):
            raise ConfigError(msg("config.step_mode", rule=Rule("R-14.3")))
        if min(self.percent_bp, self.cap, self.step_chips, self.step_per) < 0:
            raise ConfigError(msg("config.rake_negative", rule=Rule("R-14.1")))

    def amount(self, pot: int) -> int:
        if self.step_per > 0:
            steps = pot // self.step_per
            if self.step_mode == "begun" and pot > 0:
                steps += 1  # the step the pot has reached counts too
            taken = steps * self.step_chips
        else:
            taken = pot * self.percent_bp // 10_000
        if self.cap > 0:
            taken = min(taken, self.cap)
        return max(0, min(taken, pot))


@dataclass(frozen=True, slots=True)
class Rules:
    variant: str = "holdem"
    limit: Limit = Limit.NO_LIMIT
    blinds_or_straddles: tuple[int, ...] = (1, 2)
    """Per PHH position (0 = first seat left of the button); straddles and kills follow."""
    antes: tuple[int, ...] = ()
    """Per PHH position; build with :func:`ante_list` for the three ante modes (R-3.1)."""
    dead_posts: tuple[int, ...] = ()
    """Per PHH position: dead chips posted (a missed small blind, R-1.4, R-1.6). A missed
    big blind is posted live through ``blinds_or_straddles``."""
    bring_in: int = 0
    small_bet: int = 2
    """No/pot limit: the minimum bet. Fixed: the small bet. Spread: the minimum."""
    big_bet: int = 4
    """Fixed: the big bet. Spread: the maximum bet or raise."""
    spread_max_late: int = 0
    """Spread limit: the maximum on big-bet streets (R-5.2 option); 0 = same as big_bet."""
    unit: int = 1
    raise_cap: int | None = 4
    """Fixed/spread: bets plus raises allowed in a round (R-5.7); None = unlimited."""
    cap_lift: Literal["any_time", "round_start", "never"] = "any_time"
    straddle_counts_as_raise: bool = True
    limit_scale: tuple[int, int] = (1, 1)
    """Straddle or kill scaling of fixed limits (R-3.4, R-3.6), as numerator/denominator."""
    deal_cap: int = 0
    """R-5.6: the most one player may put in this deal (0 = no cap)."""
    min_raise_rule: bool = True
    check_raise: bool = True
    incomplete_rule: Literal["full_bet", "half_bet"] = "full_bet"
    half_bet_raise: Literal["on_top", "complete_first"] = "on_top"
    checking_out: bool = True
    clamp_to_max: bool = False
    burn: bool = False
    rake: Rake = field(default_factory=Rake)
    odd_chip: Literal["button", "suit"] = "button"
    showdown: Literal["auto", "manual"] = "auto"
    auto_show_all: bool = False
    jacks_to_open: bool = False
    """Draw: a pair of jacks or better to open the first round (R-12.2, R-16.2)."""
    declare: Literal["none", "simultaneous", "in_turn"] = "none"
    """Hi-lo declare games (§13): chip-fist (R-13.2) or in turn (R-13.3)."""
    declare_default: Literal["fold", "high"] = "fold"
    no_second_best: bool = False
    both_may_split: bool = False
    open_stakes: bool = False
    """R-2.4 (fixed and spread limit): players may add chips at any time in the hand."""
    pot_system: Literal["normal", "two_to_win", "guts"] = "normal"
    """§15: two to win (R-15.1) or the Guts match pot (R-15.2, R-15.3)."""
    guts_stake: int = 0
    guts_mode: Literal["chip", "count_and_drop", "sequential"] = "chip"
    guts_max_pot: int = 0
    """0 = no maximum; above it the excess waits in the reserve (R-15.3)."""
    guts_only_worst_pays: bool = False
    guts_worst_pays_ante: int = 0
    guts_ghost: bool = False
    guts_legs: int = 0
    """0 = no legs; otherwise legs needed to collect (rulebook default 3)."""
    wild: Literal["none", "deuces", "joker", "joker_bug", "deuces_joker"] = "none"
    """R-10.7: deuces wild, a joker as a full wild card or as a bug, or both."""
    declared_hands: bool = False
    """R-9.3 option for wild-card games: a hand counts as what the player states, if it
    holds at least that."""
    run_it_twice: bool = False
    """R-20.1: when everyone left is all in before the river, the players may agree to
    deal the rest of the board twice, each run winning half of each pot."""
    bomb_pot_ante: int = 0
    """R-20.4: a bomb pot: everyone posts this ante, no blinds, no pre-flop betting
    (0 = a normal hand)."""
    double_board: bool = False
    """R-20.5: two boards, each winning half of each pot."""

    @property
    def uses_joker(self) -> bool:
        return self.wild in ("joker", "joker_bug", "deuces_joker")

    def __post_init__(self) -> None:
        try:
            variant = get_variant(self.variant)
        except KeyError:
            known = Name(", ".join(sorted(VARIANTS)))
            raise ConfigError(
                msg("config.unknown_game", game=Name(repr(self.variant)), known=known)
            ) from None
        if self.unit < 1:
            raise ConfigError(msg("config.unit"))
        if any(x < 0 for x in (*self.blinds_or_straddles, *self.antes, *self.dead_posts)):
            raise ConfigError(msg("config.blinds_negative"))
        if self.small_bet < 1:
            raise ConfigError(msg("config.min_bet"))
        if self.limit is Limit.FIXED and self.big_bet < self.small_bet:
            raise ConfigError(msg("config.fixed_big_bet"))
        if self.limit is Limit.SPREAD and self.big_bet < self.small_bet:
            raise ConfigError(msg("config.spread_max"))
        if variant.forced == "bring_in" and self.bring_in < 1:
            raise ConfigError(msg("config.bring_in_needed", game=variant.title))
        if variant.forced == "bring_in" and self.bring_in > self.small_bet:
            # the bring-in may be completed to the small bet; one above it would
            # make "completing" a cut. At the small bet it is itself a full bet.
            raise ConfigError(
                msg(
                    "config.bring_in_above",
                    rule=Rule("R-3.5"),
                    bring_in=Chips(self.bring_in),
                    small_bet=Chips(self.small_bet),
                )
            )
        if self.declare != "none" and not variant.hi_lo:
            raise ConfigError(msg("config.not_hi_lo", game=variant.title))
        if self.open_stakes and self.limit not in (Limit.FIXED, Limit.SPREAD):
            raise ConfigError(msg("config.open_stakes", rule=Rule("R-2.4")))
        if self.pot_system == "two_to_win" and self.limit is not Limit.FIXED:
            raise ConfigError(msg("config.two_to_win", rule=Rule("R-15.1")))
        if (self.pot_system == "guts") != (variant.code == "guts"):
            raise ConfigError(msg("config.guts_system"))
        if self.pot_system == "guts" and self.guts_stake < 1:
            raise ConfigError(msg("config.guts_needs_stake"))
        if self.wild != "none" and not wild_apply(variant.code):
            # Deuces are not in a short deck, and its ranking, deuce-to-seven and badugi
            # have no wild-card rules: refused, not dealt with a joker nobody can read.
            raise ConfigError(msg("config.no_wild", game=variant.title))
        if self.jacks_to_open and not jacks_apply(variant.code):
            # openers are a high hand dealt whole before a draw; in other games the
            # option could never apply, so it is refused rather than silently ignored.
            raise ConfigError(msg("config.jacks_game", game=variant.title))
        if self.raise_cap is not None and self.raise_cap < 1:
            raise ConfigError(msg("config.raise_cap"))
        self._check_home_options(variant)

    def _check_home_options(self, variant: Variant) -> None:
        """§20: run it twice, bomb pots and the double board exist in community-card
        games with one pot system and no declaration; elsewhere they are refused, not
        silently ignored."""
        if self.bomb_pot_ante < 0:
            raise ConfigError(msg("home.config.bomb_ante", rule=Rule("R-20.4")))
        options = (
            ("run_it_twice", self.run_it_twice, "R-20.1"),
            ("bomb_pot", self.bomb_pot_ante > 0, "R-20.4"),
            ("double_board", self.double_board, "R-20.5"),
        )
        for term, on, rule in options:
            if on and not (
                community_game(variant) and self.declare == "none" and self.pot_system == "normal"
            ):
                raise ConfigError(
                    msg(
                        "home.config.board_games",
                        option=Term(f"home.option.{term}"),
                        game=variant.title,
                        rule=Rule(rule),
                    )
                )

    @property
    def limited(self) -> bool:
        return self.limit in (Limit.FIXED, Limit.SPREAD)

    def to_dict(self) -> dict[str, Any]:
        """The rules as a record holds them. The home-game options (§20) are written
        only when set, so a hand dealt without them is recorded exactly as before they
        existed, and older records read and write back the same."""
        out = asdict(self)
        out["limit"] = self.limit.value
        for name, default in WRITTEN_WHEN_SET.items():
            if out.get(name) == default:
                del out[name]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, checked: bool = True) -> Rules:
        """The rules of a record. ``checked=False`` reads a record whose options this
        engine now refuses (written under earlier rules, R-16.8) without refusing it, so
        that its table can be read and the hand cancelled: such rules must never deal
        or replay a hand."""
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in names}
        for key in ("blinds_or_straddles", "antes", "dead_posts", "limit_scale"):
            if key in kw:
                kw[key] = tuple(kw[key])
        if "limit" in kw:
            kw["limit"] = Limit(kw["limit"])
        if isinstance(kw.get("rake"), dict):
            kw["rake"] = Rake(**kw["rake"])
        # Records written before were enforced: jacks to open outside a
        # high draw game, and deuces wild where no ranking read them, never applied, so
        # they are dropped and the hand replays exactly as it was played.
        variant = str(kw.get("variant", "holdem"))
        if variant in VARIANTS:
            if kw.get("jacks_to_open") and not jacks_apply(variant):
                kw["jacks_to_open"] = False
            if kw.get("wild") == "deuces" and not wild_apply(variant):
                kw["wild"] = "none"
        if not checked:
            try:
                return cls(**kw)
            except ConfigError:
                unchecked = cls()
                for key, value in kw.items():
                    object.__setattr__(unchecked, key, value)  # frozen: set past __post_init__
                return unchecked
        return cls(**kw)


WRITTEN_WHEN_SET: dict[str, object] = {
    "run_it_twice": False,
    "bomb_pot_ante": 0,
    "double_board": False,
}
"""Rules fields added after records were first written, with their defaults: a record
holds them only when they differ (see :meth:`Rules.to_dict`)."""


def community_game(variant: Variant) -> bool:
    """Hold'em and Omaha shapes: hole cards first, then only board cards, no draw."""
    first, *rest = variant.streets
    return (
        first.hole > 0
        and not (first.up or first.board or first.draw)
        and bool(rest)
        and all(s.board > 0 and not (s.hole or s.up or s.draw) for s in rest)
    )


def wild_apply(variant: str) -> bool:
    """R-10.7: wild cards exist in games read for high or ace-to-five low (hold'em,
    Omaha, stud, razz, draw high and A-5 lowball), not in short deck, deuce-to-seven or
    badugi."""
    from bot.poker.showdown import WILD_EVALUATORS

    v = get_variant(variant)
    return v.deck == "full" and all(k in WILD_EVALUATORS for k in v.showdown)


def jacks_apply(variant: str) -> bool:
    """R-4.9: jacks or better to open exists in draw games read for high (five-card draw,
    and its high-low form): a lowball or stud hand has no "openers"."""
    v = get_variant(variant)
    return any(s.draw for s in v.streets) and v.showdown[0] == "high"


def ante_list(
    players: int, ante: int, mode: Literal["each", "button", "big_blind"] = "each"
) -> tuple[int, ...]:
    """Per-position antes for the three modes of R-3.1 (position 0 = left of the button)."""
    if ante <= 0:
        return ()
    if mode == "each":
        return (ante,) * players
    out = [0] * players
    if mode == "button":
        out[players - 1] = ante * players
    else:  # big-blind ante: ``ante`` is what the big blind pays for the table
        out[0 if players == 2 else 1] = ante
    return tuple(out)


def guts_options(rules: Rules) -> GutsOptions:
    """The Guts options of a table's rules, for :mod:`bot.poker.potsystems`."""
    return GutsOptions(
        stake=rules.guts_stake,
        mode=rules.guts_mode,
        max_pot=rules.guts_max_pot or None,
        only_worst_pays=rules.guts_only_worst_pays,
        worst_pays_ante=rules.guts_worst_pays_ante,
        ghost_hand=rules.guts_ghost,
        legs=rules.guts_legs or None,
    )
