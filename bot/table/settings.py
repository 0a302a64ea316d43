"""Table settings: game, stakes, buy-ins, seats, clocks and every house option.

:class:`TableSettings` is frozen, has the rulebook's defaults, and validates itself with
errors written as sentences. It is stored in the event log as a dict, and turned into the
engine's :class:`~bot.poker.rules.Rules` for each deal by :meth:`TableSettings.rules_for`
(the engine owns every betting rule; this module only passes the options through).
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from bot.poker.errors import ConfigError
from bot.poker.rules import Limit, Rake, Rules, ante_list, jacks_apply, wild_apply
from bot.poker.variants import VARIANTS, get_variant
from bot.table.errors import SettingsError
from bot.table.games import normalize_changes, split_game
from bot.table.text_actions import clip

ButtonRule = Literal["simplified", "moving", "dead"]
LIMIT_NAMES = {
    "no_limit": "No-limit",
    "pot_limit": "Pot-limit",
    "half_pot": "Half-pot-limit",
    "fixed": "Fixed-limit",
    "spread": "Spread-limit",
}
MAX_STAKE = 1_000_000_000
"""R-2.6: the largest blind, ante, bet, stake or charge."""
MAX_CHIPS = 1_000_000_000_000
"""R-2.6: the largest buy-in or pot-sized amount. Ten seats of such stacks, and every
count the table keeps, stay far inside the store's signed 64-bit integers."""
RANGES: dict[str, tuple[int, int, str]] = {
    # name: (lowest, highest, unit). Zero often means "derive it" (see the fields).
    "small_blind": (0, MAX_STAKE, "chips"),
    "big_blind": (0, MAX_STAKE, "chips"),
    "ante": (0, MAX_STAKE, "chips"),
    "bring_in": (0, MAX_STAKE, "chips"),
    "small_bet": (0, MAX_STAKE, "chips"),
    "big_bet": (0, MAX_STAKE, "chips"),
    "min_buy_in": (0, MAX_CHIPS, "chips"),
    "max_buy_in": (0, MAX_CHIPS, "chips"),
    "seats": (2, 10, "seats"),
    "return_minutes": (0, 1440, "minutes"),
    "min_players": (2, 10, "players"),
    "hand_pause": (0, 600, "seconds"),
    "action_clock": (1, 3600, "seconds"),
    "time_bank": (0, 3600, "seconds"),
    "timeouts_to_sit_out": (1, 100, "timeouts"),
    "declare_clock": (1, 3600, "seconds"),
    "raise_cap": (1, 100, "bets and raises (or none)"),
    "deal_cap": (0, MAX_CHIPS, "chips"),
    "rake_percent_bp": (0, 2000, "hundredths of a percent"),
    "rake_cap": (0, MAX_CHIPS, "chips"),
    "rake_step_chips": (0, MAX_STAKE, "chips"),
    "rake_step_per": (0, MAX_CHIPS, "chips"),
    "thread_id": (0, 2**63 - 1, ""),
    "time_charge": (0, MAX_STAKE, "chips"),
    "time_period": (60, 86400, "seconds"),
    "guts_stake": (0, MAX_STAKE, "chips"),
    "guts_max_pot": (0, MAX_CHIPS, "chips"),
    "guts_worst_pays_ante": (0, MAX_STAKE, "chips"),
    "guts_legs": (0, 100, "legs"),
}


def _number(value: Any) -> str:
    """A refused value, shortened: a thousand-digit number is not echoed whole."""
    text = str(value)
    return text if len(text) <= 30 else text[:27] + "..."


HORSE = ("holdem:fixed", "omaha8:fixed", "razz:fixed", "stud:fixed", "stud8:fixed")
CONVENTIONAL_LIMIT: dict[str, str] = {
    # the structure each game is played in by convention when none is named.
    "holdem": "no_limit",
    "shortdeck": "no_limit",
    "shortdeck_trips": "no_limit",
    "omaha": "pot_limit",
    "omaha8": "pot_limit",
    "stud": "fixed",
    "stud8": "fixed",
    "razz": "fixed",
    "stud5": "fixed",
    "draw5": "fixed",
    "draw5hl": "fixed",
    "27single": "no_limit",
    "27triple": "fixed",
    "a5single": "fixed",
    "a5triple": "fixed",
    "badugi": "fixed",
    "guts": "no_limit",  # no betting rounds: the structure is never used
}


def conventional_limit(variant: str) -> str:
    """R-16.9: the structure a game is played in when none is named."""
    return CONVENTIONAL_LIMIT.get(variant, "no_limit")


def parse_game(text: str, default_limit: str = "") -> tuple[str, str]:
    """``"omaha8:fixed"`` -> ("omaha8", "fixed"). A bare game takes the structure its
    name implies ("plo" is pot limit), else ``default_limit`` if one is given, else its
    conventional structure (R-16.9): ``"razz"`` is fixed limit. Aliases ("plo",
    "hold'em", "stud/8") are read by the one table in bot/table/games.py."""
    variant, limit = split_game(text)
    if variant not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise SettingsError(
            f"There is no game called {clip(variant)}; choose one of: {known} "
            "(or a usual name such as plo, nlhe, 7stud, o8, 2-7)."
        )
    limit = limit or default_limit or conventional_limit(variant)
    if limit not in LIMIT_NAMES:
        known = ", ".join(LIMIT_NAMES)
        raise SettingsError(f"There is no betting structure {clip(limit)}; choose one of: {known}.")
    return variant, limit


@dataclass(frozen=True, slots=True)
class TableSettings:
    # The game and its structure (§5).
    variant: str = "holdem"
    limit: str = ""
    """The structure of ``variant``; empty: its conventional one (R-16.9)."""
    dealers_choice: bool = False
    """R-16.2: the dealer names the game for his deal (the ``choose`` command)."""
    rotation: tuple[str, ...] = ()
    """R-16.2 option: a fixed rotation such as HORSE, one game per deal (``variant:limit``)."""
    # Stakes (§3, §5). Zero means "derive the usual value".
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    ante_mode: Literal["each", "button", "big_blind"] = "each"
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    # Buy-ins and seats.
    min_buy_in: int = 0
    max_buy_in: int = 0
    seats: int = 9
    return_minutes: int = 0
    """R-2.3 option: leaving and coming back within N minutes requires the old stack."""
    # Button and blinds.
    button_rule: ButtonRule = "simplified"
    missed_blinds: Literal["wait", "post"] = "wait"
    post_to_enter: bool = False
    straddle: bool = False
    """R-3.4 option: the player left of the big blind may post a live straddle of twice
    the big blind before the deal (the ``straddle`` command)."""
    # The hand loop.
    auto_deal: bool = False
    min_players: int = 2
    hand_pause: float = 3.0
    # Clocks (seconds; for the declaration clock).
    action_clock: float = 60.0
    time_bank: float = 30.0
    timeouts_to_sit_out: int = 2
    declare_clock: float = 60.0
    # House options passed to the engine (see RULES.md for each).
    raise_cap: int | None = 4
    cap_lift: Literal["any_time", "round_start", "never"] = "any_time"
    straddle_counts_as_raise: bool = True
    deal_cap: int = 0
    min_raise_rule: bool = True
    check_raise: bool = True
    incomplete_rule: Literal["full_bet", "half_bet"] = "full_bet"
    half_bet_raise: Literal["on_top", "complete_first"] = "on_top"
    checking_out: bool = True
    clamp_to_max: bool = False
    burn: bool = False
    rake_percent_bp: int = 0
    rake_cap: int = 0
    rake_step_chips: int = 0
    rake_step_per: int = 0
    rake_step_mode: Literal["full", "begun"] = "full"
    """R-14.3: count full steps (default) or every step begun (the reference's stepping)."""
    no_flop_no_drop: bool = True
    odd_chip: Literal["button", "suit"] = "button"
    auto_show_all: bool = False
    jacks_to_open: bool = False
    declare: Literal["none", "simultaneous", "in_turn"] = "none"
    declare_default: Literal["fold", "high"] = "fold"
    no_second_best: bool = False
    both_may_split: bool = False
    wild: Literal["none", "deuces", "joker", "joker_bug", "deuces_joker"] = "none"
    declared_hands: bool = False
    thread_id: int = 0
    """Discord: the thread the table runs in (0: the channel itself). The presenter sets
    it when the table is created with its own thread."""
    time_charge: int = 0
    """R-14.2 time collection: chips charged to each player dealt in, once per period."""
    time_period: float = 1800.0
    open_stakes: bool = False
    """R-2.4 (fixed and spread limit): top-ups allowed at any time, even during betting."""
    pot_system: Literal["normal", "two_to_win", "guts"] = "normal"
    """§15: two to win (fixed limit) or the Guts match pot (the "guts" game)."""
    guts_stake: int = 0
    guts_mode: Literal["chip", "count_and_drop", "sequential"] = "chip"
    guts_max_pot: int = 0
    guts_only_worst_pays: bool = False
    guts_worst_pays_ante: int = 0
    guts_ghost: bool = False
    guts_legs: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    """Room for options a newer version added; ignored by this one."""

    def __post_init__(self) -> None:
        self.validate()

    # ------------------------------------------------------------------ derived stakes

    @property
    def min_bet(self) -> int:
        return self.small_bet or self.big_blind or 2

    @property
    def big_bet_size(self) -> int:
        return self.big_bet or 2 * self.min_bet

    @property
    def bring_in_amount(self) -> int:
        return self.bring_in or max(1, self.min_bet // 2)

    def ante_for(self, variant: str) -> int:
        """The ante: the table's, or for a stud game at a table without one a fifth of
        the small bet (none below a small bet of 5), as stud is played (R-16.9)."""
        if self.ante or get_variant(variant).forced != "bring_in":
            return self.ante
        return self.min_bet // 5

    @property
    def buy_in_range(self) -> tuple[int, int]:
        """R-2.2: defaults 20x and 100x the big blind (or minimum bet)."""
        unit = self.big_blind or self.min_bet
        low = self.min_buy_in or 20 * unit
        high = self.max_buy_in or 100 * unit
        return low, high

    def games(self) -> tuple[tuple[str, str], ...]:
        if self.rotation:
            # Each game names its structure or takes its conventional one.
            return tuple(parse_game(g) for g in self.rotation)
        return (parse_game(self.variant, self.limit),)

    def game(self, text: str) -> tuple[str, str]:
        """A game as named at this table (``choose``): a bare name takes the table's
        structure for the table's own game, else its conventional one (R-16.9)."""
        variant, _, limit = text.strip().lower().partition(":")
        return parse_game(
            text, "" if limit.strip() or variant not in VARIANTS else self.limit_for(variant)
        )

    def limit_for(self, variant: str) -> str:
        """The structure ``variant`` is dealt in at this table (R-16.9)."""
        if variant == self.variant and self.limit:
            return self.limit
        return conventional_limit(variant)

    def max_seats_for(self, variant: str) -> int:
        return min(self.seats, get_variant(variant).max_players)

    # ------------------------------------------------------------------ validation

    def validate(self) -> None:
        _check_types(self)
        parse_game(self.variant, self.limit)  # a clear refusal for an unknown game
        for name, (low, high, unit) in RANGES.items():
            # every number has a range, said in the refusal.
            value = getattr(self, name)
            if value is None:
                continue  # "none" (no raise cap) is its own value
            if not low <= value <= high:
                words = name.replace("_", " ")
                if name == "seats":
                    words = "A table has between 2 and 10 seats (R-1.1): seats"
                raise SettingsError(
                    f"{words[0].upper()}{words[1:]} is {low} to {high} {unit} (R-2.6); "
                    f"{_number(value)} is outside that."
                )
        if self.small_blind > self.big_blind:
            raise SettingsError(
                "The small blind cannot be bigger than the big blind: it is 0 to "
                f"{self.big_blind} chips (R-2.6)."
            )
        if self.big_bet and self.big_bet < self.min_bet:
            raise SettingsError(
                f"The big bet is at least the small bet, {self.min_bet} chips, up to "
                f"{MAX_STAKE} (R-2.6)."
            )
        if self.bring_in > self.min_bet:
            raise SettingsError(
                f"The bring-in is 0 to the small bet, {self.min_bet} chips (R-3.5, R-2.6)."
            )
        low, high = self.buy_in_range
        if low < 1 or high < low:
            raise SettingsError(
                "The maximum buy-in must be at least the minimum buy-in (R-2.2): the "
                f"minimum is 1 to {high} chips (the maximum), the maximum {low} to "
                f"{MAX_CHIPS} (R-2.6)."
            )
        if self.min_players > self.seats:
            raise SettingsError(f"Min players is 2 to the number of seats, {self.seats} (R-2.6).")
        if self.button_rule not in ("simplified", "moving", "dead"):
            raise SettingsError("The button rule is one of: simplified, moving, dead (R-1.4).")
        if self.dealers_choice and self.rotation:
            raise SettingsError("Choose dealer's choice or a fixed rotation, not both (R-16.2).")
        games = self.games()
        if len(games) > 1 and any(v == "guts" for v, _ in games):
            # A Guts pot carries from deal to deal; in a rotation it would fall
            # into the next game's pot.
            raise SettingsError("Guts keeps its pot between deals: it cannot be in a rotation.")
        if (
            self.jacks_to_open
            and not self.dealers_choice
            and not any(jacks_apply(v) for v, _ in games)
        ):
            # refused rather than accepted and never applied. In a rotation or
            # under dealer's choice it applies to the draw games only.
            raise SettingsError(
                "Jacks or better to open is played in high draw games (five-card "
                f"draw); this table plays {get_variant(games[0][0]).name}."
            )
        if (
            self.wild != "none"
            and not self.dealers_choice
            and not any(wild_apply(v) for v, _ in games)
        ):
            # refused where no game of the table has a wild-card ranking.
            raise SettingsError(f"{get_variant(games[0][0]).name} is played without wild cards.")
        for variant, limit in games:
            try:
                self.rules_for(variant, limit, 2, (0, 1))
            except ConfigError as exc:
                raise SettingsError(exc.message) from None

    # ------------------------------------------------------------------ engine rules

    def rules_for(
        self,
        variant: str,
        limit: str,
        players: int,
        blind_positions: tuple[int | None, int | None],
        dead_posts: tuple[int, ...] = (),
        live_posts: tuple[int, ...] = (),
    ) -> Rules:
        """The engine rules for one deal with ``players`` dealt in.

        ``blind_positions`` are the PHH positions of the small and big blind (None: the
        blind is dead or the game has none, R-1.4 dead button)."""
        info = get_variant(variant)
        lim = Limit(limit)
        blinds: tuple[int, ...] = ()
        if info.forced == "blinds" and (self.small_blind or self.big_blind):
            row = [0] * players
            sb_pos, bb_pos = blind_positions
            if sb_pos is not None:
                row[sb_pos] = self.small_blind
            if bb_pos is not None:
                row[bb_pos] = self.big_blind
            for pos, amount in enumerate(live_posts[:players]):
                # A live blind posted out of position: the engine treats a
                # forced bet equal to the big blind as a live blind, not a straddle.
                row[pos] = max(row[pos], amount)
            while row and row[-1] == 0:
                row.pop()
            blinds = tuple(row)
        ante = self.ante_for(variant)
        antes = ante_list(players, ante, self.ante_mode) if ante else ()
        limited = lim in (Limit.FIXED, Limit.SPREAD)
        small = self.min_bet
        return Rules(
            variant=variant,
            limit=lim,
            blinds_or_straddles=blinds,
            antes=antes,
            dead_posts=dead_posts,
            bring_in=self.bring_in_amount if info.forced == "bring_in" else 0,
            small_bet=small,
            big_bet=self.big_bet_size if limited else max(self.big_bet_size, small),
            raise_cap=self.raise_cap,
            cap_lift=self.cap_lift,
            straddle_counts_as_raise=self.straddle_counts_as_raise,
            deal_cap=self.deal_cap,
            min_raise_rule=self.min_raise_rule,
            check_raise=self.check_raise,
            incomplete_rule=self.incomplete_rule,
            half_bet_raise=self.half_bet_raise,
            checking_out=self.checking_out,
            clamp_to_max=self.clamp_to_max,
            burn=self.burn,
            rake=Rake(
                percent_bp=self.rake_percent_bp,
                cap=self.rake_cap,
                step_chips=self.rake_step_chips,
                step_per=self.rake_step_per,
                step_mode=self.rake_step_mode,
                no_flop_no_drop=self.no_flop_no_drop,
            ),
            odd_chip=self.odd_chip,
            auto_show_all=self.auto_show_all,
            jacks_to_open=self.jacks_to_open and jacks_apply(variant),
            declare=self.declare if info.hi_lo else "none",
            declare_default=self.declare_default,
            no_second_best=self.no_second_best,
            both_may_split=self.both_may_split,
            wild=self.wild if wild_apply(variant) else "none",
            declared_hands=self.declared_hands,
            open_stakes=self.open_stakes and lim in (Limit.FIXED, Limit.SPREAD),
            pot_system="guts" if variant == "guts" else self.pot_system_for(variant),
            guts_stake=self.guts_stake or self.big_blind or self.min_bet,
            guts_mode=self.guts_mode,
            guts_max_pot=self.guts_max_pot,
            guts_only_worst_pays=self.guts_only_worst_pays,
            guts_worst_pays_ante=self.guts_worst_pays_ante,
            guts_ghost=self.guts_ghost,
            guts_legs=self.guts_legs,
        )

    def pot_system_for(self, variant: str) -> Literal["normal", "two_to_win", "guts"]:
        """Guts is its own game; two to win applies to the table's other games."""
        if variant == "guts":
            return "guts"
        return "two_to_win" if self.pot_system == "two_to_win" else "normal"

    def stakes_text(self, variant: str | None = None, limit: str | None = None) -> str:
        variant = variant or self.variant
        limit = limit or self.limit_for(variant)
        info = get_variant(variant)
        if not any(s.betting for s in info.streets):
            # Guts has no betting rounds: a structure name would only confuse.
            parts = [info.name]
            if self.guts_stake:
                parts.append(f"stake {self.guts_stake}")
            return ", ".join(parts)
        declare = " declare" if self.declare != "none" and info.hi_lo else ""
        parts = [f"{LIMIT_NAMES.get(limit, limit)} {info.name}{declare}"]
        if info.forced == "blinds" and self.big_blind:
            parts.append(f"blinds {self.small_blind}/{self.big_blind}")
        if limit in ("fixed", "spread"):
            parts.append(f"bets {self.min_bet}/{self.big_bet_size}")
        if info.forced == "bring_in":
            parts.append(f"bring-in {self.bring_in_amount}")
        if ante := self.ante_for(variant):
            parts.append(f"ante {ante}")
        return ", ".join(parts)

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["rotation"] = list(self.rotation)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in names}
        extra = {k: v for k, v in data.items() if k not in names}
        if "rotation" in kw:
            kw["rotation"] = tuple(kw["rotation"])
        if extra:
            kw["extra"] = {**kw.get("extra", {}), **extra}
        try:
            return cls(**kw)
        except SettingsError:
            # A log written before were enforced may hold jacks to open
            # or wild cards at a table none of whose games could use them: they never
            # applied there, so they are switched off and the table loads as it played.
            games = [
                parse_game(g, str(kw.get("limit", "no_limit")))[0]
                for g in (kw.get("rotation") or (kw.get("variant", "holdem"),))
            ]
            if kw.get("jacks_to_open") and not any(jacks_apply(v) for v in games):
                kw["jacks_to_open"] = False
            if kw.get("wild", "none") != "none" and not any(wild_apply(v) for v in games):
                kw["wild"] = "none"
            return cls(**kw)

    def changed(self, changes: dict[str, Any]) -> TableSettings:
        """A copy with ``changes`` applied; unknown names are refused by name."""
        changes = normalize_changes(changes)  # game names and aliases (bot/table/games.py)
        names = {f.name for f in fields(self)} - {"extra"}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise SettingsError(
                f"Unknown setting {clip(unknown[0])}; settings are: {', '.join(sorted(names))}."
            )
        kw = dict(changes)
        for name, value in kw.items():
            hint = _field_types()[name]
            optional = typing.get_origin(hint) in (typing.Union, types.UnionType) and type(
                None
            ) in typing.get_args(hint)
            if optional and (value is False or str(value).lower() in ("none", "off", "no")):
                kw[name] = None  # "raise_cap=none": no cap
        if isinstance(kw.get("variant"), str):
            # "variant=stud8" names a game without a structure: it gets its
            # conventional one unless the same change sets the limit;
            # "variant=stud8:no_limit" names both.
            variant, _, limit = kw["variant"].strip().lower().partition(":")
            kw["variant"] = variant
            if limit:
                kw["limit"] = limit
            elif "limit" not in kw:
                kw["limit"] = ""
        if "rotation" in kw:
            rot = kw["rotation"]
            kw["rotation"] = tuple(rot.split(",")) if isinstance(rot, str) else tuple(rot)
        new = replace(self, **kw)
        if "seats" in kw:
            # a game may seat fewer than ten (an asked-for number above it would
            # be quietly lowered at every sit): refuse it with the range.
            most = min(get_variant(v).max_players for v, _ in new.games())
            if new.seats > most:
                game = min(new.games(), key=lambda g: get_variant(g[0]).max_players)[0]
                raise SettingsError(
                    f"Seats is 2 to {most} for {get_variant(game).name} (R-1.1, R-2.6); "
                    f"{_number(new.seats)} is outside that."
                )
        return new


# ---------------------------------------------------------------------- value checks
# Every field is checked against its declared type, so a typo never reaches the engine
# or the log ("declare=maybe", "seats=abc") and the refusal says what is allowed.


def _allowed(name: str, hint: Any, value: Any) -> str | None:
    """None if ``value`` fits ``hint``; otherwise what the setting accepts, in words."""
    words = name.replace("_", " ")
    origin = typing.get_origin(hint)
    if origin is Literal:
        options = typing.get_args(hint)
        return None if value in options else f"{words} is one of: {', '.join(options)}"
    if hint is bool:
        return None if type(value) is bool else f"{words} is on or off (true or false)"
    if hint is int:
        return None if type(value) is int else f"{words} is a whole number"
    if hint is float:
        ok = type(value) in (int, float) and value == value and abs(value) < 1e9
        return None if ok else f"{words} is a number (seconds or chips)"
    if hint is str:
        return None if isinstance(value, str) else f"{words} is a name"
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        problem = _allowed(name, args[0], value) if len(args) == 1 else None
        return None if problem is None else f"{problem}, or none"
    if origin is tuple:
        ok = isinstance(value, tuple) and all(isinstance(v, str) for v in value)
        return None if ok else f"{words} is a list of games, like holdem:fixed,stud:fixed"
    return None  # dict fields (extra) hold whatever a newer version wrote


def _check_types(settings: TableSettings) -> None:
    types_ = _field_types()
    for f in fields(settings):
        problem = _allowed(f.name, types_[f.name], getattr(settings, f.name))
        if problem is not None:
            value = getattr(settings, f.name)
            shown = clip(value) if isinstance(value, str) else clip(repr(value))[1:-1]
            raise SettingsError(
                f"{shown} is not a value for {f.name.replace('_', ' ')}: {problem}."
            )


@functools.cache
def _field_types() -> dict[str, Any]:
    """Each field's type, resolved once (the annotations are strings in this module)."""
    return typing.get_type_hints(TableSettings)
