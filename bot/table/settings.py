"""Table settings: game, stakes, buy-ins, seats, clocks and every house option.

:class:`TableSettings` is frozen, has the rulebook's defaults, and validates itself with
errors written as sentences. It is stored in the event log as a dict, and turned into the
engine's :class:`~bot.poker.rules.Rules` for each deal by :meth:`TableSettings.rules_for`
(the engine owns every betting rule; this module only passes the options through).

Every setting is declared once (:func:`declared`): the table's own are the fields of
:class:`TableSettings`; the engine's are read from the fields of ``Rules`` itself, less
:data:`ENGINE_INTERNAL`, with words, units, ranges and the games each applies to in
:data:`META`. Parsing, validation, the words of a change, each deal's ``Rules`` and
docs/settings.md all come from that declaration, so a new engine option is one edit.
"""

from __future__ import annotations

import functools
import logging
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from types import MappingProxyType
from typing import Any, Literal

from bot.poker.errors import ConfigError
from bot.poker.rules import Limit, Rules, ante_list, jacks_apply, wild_apply
from bot.poker.variants import VARIANTS, get_variant
from bot.table.errors import SettingsError
from bot.table.games import normalize_changes, split_game
from bot.table.text_actions import clip

_log = logging.getLogger(__name__)

RETIRED = frozenset({"thread_id"})
"""Names older versions stored among the settings that are no longer settings (the
Discord thread is the Discord side's record): kept in ``extra`` without a warning."""

ButtonRule = Literal["simplified", "moving", "dead"]
LIMIT_NAMES = {
    "no_limit": "No-limit",
    "pot_limit": "Pot-limit",
    "half_pot": "Half-pot-limit",
    "fixed": "Fixed-limit",
    "spread": "Spread-limit",
}
MAX_RAKE_BP = 2000
"""The most any rake takes of a pot (R-14.6): 20%, in hundredths of a percent."""
MAX_STAKE = 1_000_000_000
"""R-2.6: the largest blind, ante, bet, stake or charge."""
MAX_CHIPS = 1_000_000_000_000
"""R-2.6: the largest buy-in or pot-sized amount. Ten seats of such stacks, and every
count the table keeps, stay far inside the store's signed 64-bit integers."""

# ---------------------------------------------------------------------- the declaration
# One declaration of every setting. The engine-backed ones are not written out here:
# they are the fields of the engine's ``Rules`` (and of its nested ``Rake``), less the
# ones the table fills in per deal (ENGINE_INTERNAL). A new ``Rules`` field is therefore
# a table setting at once: parsed, type-checked, range-checked, shown in words, passed
# to each deal's rules and listed in docs/settings.md. META only adds words (a label, a
# unit, a range, the games it applies to); without an entry a setting gets its name in
# words and, for a number, the stake range.

EngineValue = int | float | bool | str | None
"""What one setting holds (tuples only for ``rotation``, a table-only setting)."""

RULES: type[Rules] = Rules
"""The engine's options class the declaration is read from (a test may swap in a
subclass with a new option and see it flow through with no other edit)."""

ENGINE_INTERNAL: dict[str, str] = {
    # Rules field: why it is not a table setting of its own (the table fills it in).
    "variant": "the deal's game: variant, rotation or the dealer's choice (R-16.2)",
    "limit": "the deal's structure: the limit setting or the game's convention (R-16.9)",
    "blinds_or_straddles": "small_blind and big_blind at the deal's blind positions",
    "antes": "ante and ante_mode, per player dealt in (R-3.1)",
    "dead_posts": "missed blinds posted dead this deal (R-1.4, R-1.6)",
    "bring_in": "the table's bring_in setting (0: half the small bet, R-3.5)",
    "small_bet": "the table's small_bet setting (0: the big blind)",
    "big_bet": "the table's big_bet setting (0: twice the small bet)",
    "spread_max_late": "not offered at tables: spread limit uses big_bet on every street",
    "unit": "not offered at tables: bets and raises go in single chips",
    "limit_scale": "not offered at tables: a straddle or kill does not scale fixed limits",
    "showdown": "not offered at tables: the table always shows down automatically",
    "run_it_twice": "not offered at tables yet: the table must first ask the players (R-20.1)",
    "bomb_pot_ante": "the table decides which deal is a bomb pot (R-20.4); not offered yet",
    "double_board": "set with a bomb pot by the table (R-20.5); not offered yet",
}

NESTED_NAMES: dict[tuple[str, str], str] = {
    # A nested option's setting name, where it is not "<field>_<option>" (old logs).
    ("rake", "no_flop_no_drop"): "no_flop_no_drop",
}


def _hi_lo(variant: str, limit: Limit) -> bool:
    return get_variant(variant).hi_lo


def _limited(variant: str, limit: Limit) -> bool:
    return limit in (Limit.FIXED, Limit.SPREAD)


def _jacks(variant: str, limit: Limit) -> bool:
    return jacks_apply(variant)


def _wild(variant: str, limit: Limit) -> bool:
    return wild_apply(variant)


def _guts(variant: str, limit: Limit) -> bool:
    return variant == "guts"


def _blinds(variant: str, limit: Limit) -> bool:
    return get_variant(variant).forced == "blinds"


def _bring_in(variant: str, limit: Limit) -> bool:
    return get_variant(variant).forced == "bring_in"


ADDED_LATER: dict[str, Any] = {"language": ""}
"""Table settings newer than the logs' full set of names, with their defaults: stored
only when set, so that every row written before them reads and writes back the same."""


@dataclass(frozen=True, slots=True)
class Meta:
    """How people see one setting, and where it applies."""

    label: str = ""
    """In words (default: the name with spaces)."""
    unit: str = ""
    """For a number: "chips", "seconds", ... (seconds and minutes are shown with it)."""
    range: tuple[int, int] | None = None
    """R-2.6: lowest and highest (numbers without one get 0 to MAX_STAKE)."""
    applies: Callable[[str, Limit], bool] | None = None
    """Engine options: the games it applies to; elsewhere the deal gets the engine's
    default (a table of several games keeps one value for all)."""
    games: str = ""
    """The same, in words, for the docs."""


META: dict[str, Meta] = {
    # Table-only settings.
    "variant": Meta(label="game"),
    "limit": Meta(label="structure"),
    "small_blind": Meta(unit="chips", range=(0, MAX_STAKE)),
    "big_blind": Meta(unit="chips", range=(0, MAX_STAKE)),
    "ante": Meta(unit="chips", range=(0, MAX_STAKE)),
    "bring_in": Meta(
        unit="chips", range=(0, MAX_STAKE), applies=_bring_in, games="stud games (R-3.5)"
    ),
    "small_bet": Meta(unit="chips", range=(0, MAX_STAKE)),
    "big_bet": Meta(unit="chips", range=(0, MAX_STAKE)),
    "min_buy_in": Meta(unit="chips", range=(0, MAX_CHIPS)),
    "max_buy_in": Meta(unit="chips", range=(0, MAX_CHIPS)),
    "seats": Meta(unit="seats", range=(2, 10)),
    "return_minutes": Meta(label="return within", unit="minutes", range=(0, 1440)),
    "min_players": Meta(label="players needed to deal", unit="players", range=(2, 10)),
    "hand_pause": Meta(unit="seconds", range=(0, 600)),
    "action_clock": Meta(unit="seconds", range=(1, 3600)),
    "time_bank": Meta(unit="seconds", range=(0, 3600)),
    "straddle": Meta(applies=_blinds, games="games with blinds (R-3.4)"),
    "missed_blinds": Meta(applies=_blinds, games="games with blinds (R-1.6)"),
    "post_to_enter": Meta(applies=_blinds, games="games with blinds (R-1.7)"),
    "timeouts_to_sit_out": Meta(
        label="timeouts before sitting out", unit="timeouts", range=(1, 100)
    ),
    "declare_clock": Meta(unit="seconds", range=(1, 3600)),
    "time_charge": Meta(unit="chips", range=(0, MAX_STAKE)),
    "time_period": Meta(unit="seconds", range=(60, 86400)),
    "language": Meta(label="language of the table (empty: the server's)"),
    # Engine options (Rules fields).
    "raise_cap": Meta(
        unit="bets and raises (or none)",
        range=(1, 100),
        applies=_limited,
        games="fixed and spread limit",
    ),
    "deal_cap": Meta(unit="chips", range=(0, MAX_CHIPS)),
    "rake_percent_bp": Meta(label="rake", unit="hundredths of a percent", range=(0, MAX_RAKE_BP)),
    "rake_cap": Meta(unit="chips", range=(0, MAX_CHIPS)),
    "rake_step_chips": Meta(unit="chips", range=(0, MAX_STAKE)),
    "rake_step_per": Meta(unit="chips", range=(0, MAX_CHIPS)),
    "jacks_to_open": Meta(applies=_jacks, games="high draw games (R-4.9)"),
    "declare": Meta(applies=_hi_lo, games="high-low games (R-13.1)"),
    "declare_default": Meta(applies=_hi_lo, games="high-low games (R-13.2)"),
    "no_second_best": Meta(applies=_hi_lo, games="high-low games (R-13.5)"),
    "both_may_split": Meta(applies=_hi_lo, games="high-low games (R-13.5)"),
    "wild": Meta(applies=_wild, games="games read for high or ace-to-five low (R-10.7)"),
    "open_stakes": Meta(applies=_limited, games="fixed and spread limit"),
    "pot_system": Meta(games="two to win: fixed limit; guts: the Guts game"),
    "guts_stake": Meta(unit="chips", range=(0, MAX_STAKE), applies=_guts, games="Guts"),
    "guts_mode": Meta(applies=_guts, games="Guts"),
    "guts_max_pot": Meta(unit="chips", range=(0, MAX_CHIPS), applies=_guts, games="Guts"),
    "guts_only_worst_pays": Meta(applies=_guts, games="Guts"),
    "guts_worst_pays_ante": Meta(unit="chips", range=(0, MAX_STAKE), applies=_guts, games="Guts"),
    "guts_ghost": Meta(applies=_guts, games="Guts"),
    "guts_legs": Meta(unit="legs", range=(0, 100), applies=_guts, games="Guts"),
}


@dataclass(frozen=True, slots=True)
class Setting:
    """One declared setting: its name, type, default, words, and where the engine
    reads it (``path``: ("raise_cap",) or ("rake", "cap"); empty for a table-only one)."""

    name: str
    hint: Any
    default: Any
    meta: Meta
    path: tuple[str, ...] = ()
    record: Any = None
    """For a nested option (``path`` of two): the record it goes into (``Rake``)."""

    @property
    def engine(self) -> bool:
        return bool(self.path)

    @property
    def label(self) -> str:
        return self.meta.label or self.name.replace("_", " ")

    @property
    def range(self) -> tuple[int, int, str] | None:
        """R-2.6: (lowest, highest, unit) for a number, else None."""
        if self.meta.range is not None:
            return (*self.meta.range, self.meta.unit)
        if _base(self.hint) is int:
            return (0, MAX_STAKE, self.meta.unit)
        return None


def _base(hint: Any) -> Any:
    """``int | None`` -> int; any other hint as it is."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return args[0] if len(args) == 1 else hint
    return hint


def _default(f: Any) -> Any:
    if f.default is not MISSING:
        return f.default
    return f.default_factory()


_ENGINE_CACHE: dict[type[Rules], dict[str, Setting]] = {}


def _engine_settings(rules: type[Rules]) -> dict[str, Setting]:
    if rules in _ENGINE_CACHE:
        return _ENGINE_CACHE[rules]
    hints = typing.get_type_hints(rules)
    out: dict[str, Setting] = {}
    for f in fields(rules):
        if f.name in ENGINE_INTERNAL:
            continue
        hint = hints[f.name]
        if is_dataclass(hint):
            # A nested option record (the rake, R-14.1): one setting per option.
            inner = typing.get_type_hints(hint)
            for g in fields(hint):
                name = NESTED_NAMES.get((f.name, g.name), f"{f.name}_{g.name}")
                meta = META.get(name, Meta())
                path = (f.name, g.name)
                out[name] = Setting(name, inner[g.name], _default(g), meta, path, hint)
            continue
        out[f.name] = Setting(f.name, hint, _default(f), META.get(f.name, Meta()), (f.name,))
    _ENGINE_CACHE[rules] = out
    return out


def engine_settings() -> dict[str, Setting]:
    """Every engine-backed setting, read from :data:`RULES`' fields."""
    return _engine_settings(RULES)


@functools.cache
def _table_settings() -> dict[str, Setting]:
    hints = typing.get_type_hints(TableSettings)
    return {
        f.name: Setting(f.name, hints[f.name], _default(f), META.get(f.name, Meta()))
        for f in fields(TableSettings)
        if f.name not in ("options", "extra")
    }


def declared() -> dict[str, Setting]:
    """Every setting a table has: its own, then the engine's (one name space)."""
    return {**_table_settings(), **engine_settings()}


def ranges() -> dict[str, tuple[int, int, str]]:
    """R-2.6: every number's (lowest, highest, unit)."""
    return {n: r for n, s in declared().items() if (r := s.range) is not None}


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


@dataclass(frozen=True, slots=True, kw_only=True)
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
    time_charge: int = 0
    """R-14.2 time collection: chips charged to each player dealt in, once per period."""
    time_period: float = 1800.0
    # Words (bot/words): the language of the table's public messages and pictures;
    # empty: the server's.
    language: Literal["", "en", "de", "fr", "es", "pt_BR", "ru"] = ""
    # The engine's options (raise cap, rake, declare, wild cards, Guts, ...): not
    # restated here but read from the engine's Rules (see the declaration above). Each
    # is read as an attribute (``settings.raise_cap``) and stored flat in to_dict, as
    # the log has always held them.
    options: Mapping[str, EngineValue] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    """Room for options a newer version added; ignored by this one."""

    def __post_init__(self) -> None:
        """The constructor is the dataclass's, keyword-only, so ``mypy`` checks the name
        of every table setting (``TableSettings(big_blnd=2)`` is a type error). Engine
        options come in ``options`` by name and are checked here: an unknown name is
        refused, naming the options there are; omitted ones take the engine's default."""
        engine = engine_settings()
        given = dict(self.options)
        unknown = sorted(set(given) - set(engine))
        if unknown:
            raise TypeError(
                f"TableSettings has no engine option {unknown[0]!r}; "
                f"the options are: {', '.join(sorted(engine))}"
            )
        full = {name: given.get(name, s.default) for name, s in engine.items()}
        object.__setattr__(self, "options", MappingProxyType(full))
        self.validate()

    @classmethod
    def of(cls, **values: Any) -> TableSettings:
        """Settings by name in one flat set, table settings and engine options alike
        (``TableSettings.of(variant="stud8", declare="simultaneous")``), as the log and
        ``/table settings`` name them. An unknown name raises ``TypeError`` naming it
        and what there is: a misspelt option is never taken for a newer one (stored
        values with names this version does not know go through :meth:`from_dict`)."""
        engine = engine_settings()
        options = dict(values.pop("options", None) or {})
        for name in list(values):
            if name in engine:
                options[name] = values.pop(name)
        own = {f.name for f in fields(cls)} - {"options"}
        unknown = sorted(set(values) - own)
        if unknown:
            raise TypeError(
                f"TableSettings has no setting {unknown[0]!r}; "
                f"settings are: {', '.join(sorted(declared()))}"
            )
        return cls(options=options, **values)

    def __getattr__(self, name: str) -> EngineValue:
        # Only reached when no field has the name: an engine option, by its name.
        if name.startswith("_") or name == "options":
            raise AttributeError(name)
        try:
            return self.options[name]
        except KeyError:
            raise AttributeError(f"TableSettings has no setting {name!r}") from None

    def value(self, name: str) -> Any:
        """Any setting by name (table-only or engine option)."""
        return getattr(self, name)

    def _with(self, changes: Mapping[str, Any]) -> TableSettings:
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "options"}
        return TableSettings.of(**{**values, **self.options, **changes})

    # ------------------------------------------------------------------ derived stakes

    @property
    def min_bet(self) -> int:
        return self.small_bet or self.big_blind or 2

    @property
    def chip_charge_limit(self) -> int:
        """The most a time charge may take from a player at once (R-14.6)."""
        return max(self.big_blind, self.small_bet)

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
        for name, (low, high, unit) in ranges().items():
            # every number has a range, said in the refusal.
            value = self.value(name)
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
        step_chips, step_per = self.value("rake_step_chips"), self.value("rake_step_per")
        if step_per and step_chips * 10_000 > step_per * MAX_RAKE_BP:
            raise SettingsError(
                f"A step rake takes at most {MAX_RAKE_BP // 100}% of the pot, as the rake "
                f"percentage does: at most {step_per * MAX_RAKE_BP // 10_000} chips per "
                f"{step_per} (R-14.6)."
            )
        if self.time_charge > self.chip_charge_limit:
            raise SettingsError(
                "The time charge is 0 to the big blind (the small bet when larger), "
                f"{self.chip_charge_limit} chips (R-14.6); {self.time_charge} is outside that."
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
                "Jacks or better to open is played in high draw games (R-4.9): five-card "
                f"draw; this table plays {get_variant(games[0][0]).name}."
            )
        if (
            self.wild != "none"
            and not self.dealers_choice
            and not any(wild_apply(v) for v, _ in games)
        ):
            # refused where no game of the table has a wild-card ranking.
            raise SettingsError(
                f"{get_variant(games[0][0]).name} is played without wild cards: they are "
                f"for {META['wild'].games}."
            )
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
        kw: dict[str, Any] = {}
        nested: dict[str, dict[str, Any]] = {}
        records: dict[str, Any] = {}
        for setting in engine_settings().values():
            # Every engine option passes through as set, except in games it does not
            # apply to, which get the engine's default.
            applies = setting.meta.applies
            value = self.options[setting.name]
            if applies is not None and not applies(variant, lim):
                value = setting.default
            if len(setting.path) == 2:
                nested.setdefault(setting.path[0], {})[setting.path[1]] = value
                records[setting.path[0]] = setting.record
            else:
                kw[setting.path[0]] = value
        for name, sub in nested.items():
            kw[name] = records[name](**sub)
        # The table's own derivations: the pot system follows the game, and
        # an unset Guts stake is the big blind (or the minimum bet).
        kw["pot_system"] = self.pot_system_for(variant)
        kw["guts_stake"] = self.guts_stake or self.big_blind or self.min_bet
        return RULES(
            **kw,
            variant=variant,
            limit=lim,
            blinds_or_straddles=blinds,
            antes=antes,
            dead_posts=dead_posts,
            bring_in=self.bring_in_amount if info.forced == "bring_in" else 0,
            small_bet=small,
            big_bet=self.big_bet_size if limited else max(self.big_bet_size, small),
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

    def now_text(self) -> str:
        """What the table deals, for a change's "Now: ...": its game, or each game of
        its rotation in turn (R-16.2)."""
        if not self.rotation:
            return self.stakes_text()
        return "rotation of " + "; ".join(self.stakes_text(v, lim) for v, lim in self.games())

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        # Flat, as the log has always held them: {"raise_cap": 4, "rotation": [...]}.
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "options"}
        for name, default in ADDED_LATER.items():
            if out[name] == default:
                del out[name]  # as a log written before the setting existed holds it
        out.update(self.options)
        out["rotation"] = list(self.rotation)
        out["extra"] = dict(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSettings:
        """Settings as the log stores them (:meth:`to_dict`), every value checked against
        its declared type (a :class:`SettingsError` in words). A stored name this
        version does not know is not taken for a setting: it is kept unread in ``extra``
        (a newer version's option survives a round trip) and logged, so a misspelling
        written by a bug is seen, never silently applied."""
        names = set(declared()) | {"extra"}
        kw = {k: v for k, v in data.items() if k in names}
        extra = {k: v for k, v in data.items() if k not in names}
        if "rotation" in kw:
            kw["rotation"] = tuple(kw["rotation"])
        if set(extra) - RETIRED:
            _log.warning(
                "stored table settings hold names this version does not know, kept "
                "unread: %s (a newer version's options, or a misspelling)",
                ", ".join(sorted(set(extra) - RETIRED)),
            )
        if extra:
            kw["extra"] = {**kw.get("extra", {}), **extra}
        try:
            return cls.of(**kw)
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
            return cls.of(**kw)

    def changed(self, changes: dict[str, Any]) -> TableSettings:
        """A copy with ``changes`` applied; unknown names are refused by name."""
        changes = normalize_changes(changes)  # game names and aliases (bot/table/games.py)
        names = set(declared())
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
        if "variant" in kw and self.rotation:
            # A game named while a rotation is on is the game the table is to play: the
            # rotation ends (and the change says "rotation none"). Naming both at once
            # is refused: which one would the next deal be? (docs/rules-notes.md)
            if kw.get("rotation"):
                raise SettingsError(
                    "Name a game or a rotation, not both: `set game=nlhe` plays one game "
                    "(and ends the rotation), `set rotation=horse` deals its games in turn."
                )
            kw["rotation"] = ()
        rotation = kw.get("rotation", self.rotation)
        if "limit" in kw and "variant" not in kw and rotation:
            # A rotation's games carry their own structures: the table's would be kept
            # and never dealt.
            raise SettingsError(
                "In a rotation each game has its own structure, like "
                "`set rotation=holdem:no_limit,omaha:pot_limit`; or name one game "
                "with it, like `set game=holdem limit=pot_limit`, which ends the rotation."
            )
        new = self._with(kw)
        _refuse_unplayed(self, new, set(kw))
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


def _played(settings: TableSettings, applies: Callable[[str, Limit], bool]) -> bool:
    """Whether a game the table deals plays a setting (under dealer's choice any game
    may be named)."""
    if settings.dealers_choice:
        return True
    return any(applies(variant, Limit(limit)) for variant, limit in settings.games())


def _refuse_unplayed(old: TableSettings, new: TableSettings, changed: set[str]) -> None:
    """A setting is played or refused with the reason, never kept and ignored: each
    setting with the games it applies to (``Meta.applies``) that is off its default must
    apply to a game the table deals. An option set for a game it does not apply to
    (``declare`` in plain stud) is refused; so is a change of game that would leave one
    it played unplayed, saying what to set. A value an older version accepted where it
    never applied does not block other changes."""
    games = new.games()
    names = "; ".join(dict.fromkeys(new.stakes_text(v, lim).split(",")[0] for v, lim in games))
    for name, setting in declared().items():
        applies = setting.meta.applies
        value = new.value(name)
        if applies is None or value == setting.default or _played(new, applies):
            continue
        if name not in changed and not _played(old, applies):
            continue
        label = setting.label[0].upper() + setting.label[1:]
        default = _value_word(setting.default)
        said = f"{label} is played in {setting.meta.games}; this table would deal {names}"
        if name in changed:
            raise SettingsError(
                f"{said}, where it never applies. Nothing was changed: choose such a game "
                f"with it, or leave {name}={default}."
            )
        raise SettingsError(
            f"{said}, and {name} is {_value_word(value)}. Nothing was changed: set "
            f"{name}={default} with the game."
        )
    if new.pot_system == "guts" and all(v != "guts" for v, _ in games):
        raise SettingsError("The Guts pot system comes with the game Guts (R-15.2): set game=guts.")


def _value_word(value: Any) -> str:
    """A value as typed after ``set NAME=``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


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
    for name, setting in declared().items():
        value = settings.value(name)
        problem = _allowed(name, setting.hint, value)
        if problem is not None:
            shown = clip(value) if isinstance(value, str) else clip(repr(value))[1:-1]
            raise SettingsError(f"{shown} is not a value for {name.replace('_', ' ')}: {problem}.")


def _field_types() -> dict[str, Any]:
    """Each setting's type (the declaration's, resolved once per engine class)."""
    return {name: s.hint for name, s in declared().items()}


RANGES: dict[str, tuple[int, int, str]] = ranges()
"""R-2.6: every number's (lowest, highest, unit) -- the engine's options included."""


# ---------------------------------------------------------------------- the docs


def _allowed_words(setting: Setting) -> str:
    hint = _base(setting.hint)
    optional = hint is not setting.hint
    if typing.get_origin(hint) is Literal:
        text = ", ".join(str(a) for a in typing.get_args(hint))
    elif hint is bool:
        text = "on, off"
    elif (r := setting.range) is not None:
        low, high, unit = r
        text = f"{low:,} to {high:,} {unit}".strip()
    elif hint is float:
        text = f"a number ({setting.meta.unit or 'seconds'})"
    elif typing.get_origin(hint) is tuple:
        text = "games, like holdem:fixed,stud:fixed"
    else:
        text = "a name"
    return f"{text}, or none" if optional and "or none" not in text else text


def settings_markdown() -> str:
    """docs/settings.md, written from the declaration (a test keeps the file equal)."""
    lines = [
        "# Table settings",
        "",
        "Generated from the one declaration in `bot/table/settings.py` (the table's own",
        "settings, then every option of the engine's `Rules` the table does not fill in",
        "itself); `tests/test_settings_declaration.py` fails when this file is stale.",
        "Regenerate with `python -c 'from bot.table.settings import settings_markdown;",
        'print(settings_markdown(), end="")\' > docs/settings.md`.',
        "",
        "Change one with `set NAME=VALUE` at the terminal or `/table settings` on Discord.",
        "",
        "| setting | in words | default | allowed | engine option | applies to |",
        "|---|---|---|---|---|---|",
    ]
    for name, s in declared().items():
        default = s.default
        shown = (
            "none"
            if default is None
            else ("on" if default else "off")
            if isinstance(default, bool)
            else (", ".join(default) or "none")
            if isinstance(default, tuple)
            else f"{default}"
            if default != ""
            else "(derived)"
        )
        engine = f"`{'.'.join(s.path)}`" if s.engine else ""
        lines.append(
            f"| `{name}` | {s.label} | {shown} | {_allowed_words(s)} | {engine} | {s.meta.games} |"
        )
    lines += [
        "",
        "## Engine options the table fills in per deal",
        "",
        "These `Rules` fields are not settings of their own:",
        "",
    ]
    lines += [f"- `{name}`: {why}" for name, why in ENGINE_INTERNAL.items()]
    return "\n".join(lines) + "\n"
