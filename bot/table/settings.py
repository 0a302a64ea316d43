"""Table settings: game, stakes, buy-ins, seats, clocks and every house option.

:class:`TableSettings` is frozen, has the rulebook's defaults, and validates itself with
refusals as messages (keys of the ``settings`` catalogue with typed parameters: the legal
range, the rule). It is stored in the event log as a dict, and turned into the
engine's :class:`~bot.poker.rules.Rules` for each deal by :meth:`TableSettings.rules_for`
(the engine owns every betting rule; this module only passes the options through).

Every setting is declared once (:func:`declared`): the table's own are the fields of
:class:`TableSettings`; the engine's are read from the fields of ``Rules`` itself, less
:data:`ENGINE_INTERNAL`, with units, ranges and the games each applies to in :data:`META`
(its words are the catalogue's ``settings.label.<name>``). Parsing, validation, the words
of a change (bot/table/settings_said.py), each deal's ``Rules`` and docs/settings.md
(bot/words/settings_doc.py) all come from that declaration, so a new engine option is one
edit.
"""

from __future__ import annotations

import functools
import logging
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from bot.poker.errors import ConfigError
from bot.poker.messages import (
    Chips,
    Count,
    Msg,
    Name,
    Number,
    Param,
    Rule,
    Term,
    joined,
    msg,
)
from bot.poker.rules import Limit, Rules, ante_list, community_game, jacks_apply, wild_apply
from bot.poker.variants import VARIANTS, get_variant
from bot.table.errors import SettingsError
from bot.table.games import normalize_changes, split_game
from bot.table.stakes import stakes_of, stakes_said
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
NEVER_SIT_OUT: Final = 0
"""``timeouts_to_sit_out`` that never sits a player out for timeouts (R-19.72)."""
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
# to each deal's rules and listed in docs/settings.md. META describes it (a unit, a
# range, the games it applies to; its label is the settings catalogue's); without an
# entry a setting is named by its name and, for a number, gets the stake range.

EngineValue = int | float | bool | str | None
"""What one setting holds (tuples only for ``rotation``, a table-only setting)."""

RULES: type[Rules] = Rules
"""The engine's options class the declaration is read from (a test may swap in a
subclass with a new option and see it flow through with no other edit)."""

ENGINE_INTERNAL: frozenset[str] = frozenset(
    {
        # Rules fields the table fills in per deal (why each is: bot/words/settings_doc.py).
        "variant",
        "limit",
        "blinds_or_straddles",
        "antes",
        "dead_posts",
        "bring_in",
        "small_bet",
        "big_bet",
        "spread_max_late",
        "unit",
        "limit_scale",
        "showdown",
        "bomb_pot_ante",
        "double_board",
    }
)

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


def _board(variant: str, limit: Limit) -> bool:
    return community_game(get_variant(variant))


def _blinds(variant: str, limit: Limit) -> bool:
    return get_variant(variant).forced == "blinds"


def _bring_in(variant: str, limit: Limit) -> bool:
    return get_variant(variant).forced == "bring_in"


ADDED_LATER: dict[str, Any] = {
    "language": "",
    "straddles": 1,
    "straddle_button": False,
    "run_it_twice": False,
    "bomb_pot_every": 0,
    "bomb_pot_ante": 0,
    "double_board": False,
    "seven_deuce_bounty": 0,
    "seven_deuce_suited": False,
    "rabbit_hunt": False,
}
"""Table settings newer than the logs' full set of names, with their defaults: stored
only when set, so that every row written before them reads and writes back the same."""


@dataclass(frozen=True, slots=True)
class Meta:
    """How people see one setting, and where it applies. Its words are the catalogue's:
    ``settings.label.<name>``, ``settings.unit.<unit>``, ``settings.games.<games>``."""

    unit: str = ""
    """For a number, its unit's code: chips, seconds, minutes, seats, players, timeouts,
    raises, bp (hundredths of a percent) or legs."""
    range: tuple[int, int] | None = None
    """R-2.6: lowest and highest (numbers without one get 0 to MAX_STAKE)."""
    applies: Callable[[str, Limit], bool] | None = None
    """Engine options: the games it applies to; elsewhere the deal gets the engine's
    default (a table of several games keeps one value for all)."""
    games: str = ""
    """The same, as the code of the catalogue's words for them (``blinds``)."""
    rule: str = ""
    """The rule those games come from (``R-3.4``)."""
    catalogued: bool = True
    """The catalogue has its label; an engine option added without one is named by its
    name with spaces."""
    zero: str = ""
    """What 0 means where it is no number of its unit (``never``: the catalogue's
    ``settings.zero.never``); said for the value 0 and beside the allowed range."""


UNNAMED = Meta(catalogued=False)
"""A setting no META entry describes (a new engine option): named by its name."""

CHIPS = (0, MAX_STAKE)
POT_CHIPS = (0, MAX_CHIPS)

META: dict[str, Meta] = {
    # Table-only settings.
    "variant": Meta(),
    "limit": Meta(),
    "dealers_choice": Meta(),
    "rotation": Meta(),
    "small_blind": Meta(unit="chips", range=CHIPS),
    "big_blind": Meta(unit="chips", range=CHIPS),
    "ante": Meta(unit="chips", range=CHIPS),
    "ante_mode": Meta(),
    "bring_in": Meta(unit="chips", range=CHIPS, applies=_bring_in, games="stud", rule="R-3.5"),
    "small_bet": Meta(unit="chips", range=CHIPS),
    "big_bet": Meta(unit="chips", range=CHIPS),
    "min_buy_in": Meta(unit="chips", range=POT_CHIPS),
    "max_buy_in": Meta(unit="chips", range=POT_CHIPS),
    "seats": Meta(unit="seats", range=(2, 10)),
    "return_minutes": Meta(unit="minutes", range=(0, 1440)),
    "button_rule": Meta(),
    "missed_blinds": Meta(applies=_blinds, games="blinds", rule="R-1.6"),
    "post_to_enter": Meta(applies=_blinds, games="blinds", rule="R-1.7"),
    "straddle": Meta(applies=_blinds, games="blinds", rule="R-3.4"),
    "straddles": Meta(
        unit="straddles", range=(1, 8), applies=_blinds, games="blinds", rule="R-20.57"
    ),
    "straddle_button": Meta(applies=_blinds, games="blinds", rule="R-20.57"),
    "auto_deal": Meta(),
    "min_players": Meta(unit="players", range=(2, 10)),
    "hand_pause": Meta(unit="seconds", range=(0, 600)),
    "action_clock": Meta(unit="seconds", range=(1, 3600)),
    "time_bank": Meta(unit="seconds", range=(0, 3600)),
    "timeouts_to_sit_out": Meta(unit="timeouts", range=(0, 100), zero="never"),
    "declare_clock": Meta(unit="seconds", range=(1, 3600)),
    "time_charge": Meta(unit="chips", range=CHIPS),
    "time_period": Meta(unit="seconds", range=(60, 86400)),
    "language": Meta(),
    "bomb_pot_every": Meta(unit="hands", range=(0, 1000), games="board", rule="R-20.4"),
    "bomb_pot_ante": Meta(unit="chips", range=CHIPS, games="board", rule="R-20.4"),
    "double_board": Meta(games="board", rule="R-20.5"),
    "seven_deuce_bounty": Meta(unit="chips", range=CHIPS, rule="R-20.6"),
    "seven_deuce_suited": Meta(rule="R-20.6"),
    "rabbit_hunt": Meta(games="board", rule="R-20.9"),
    # Engine options (Rules fields).
    "raise_cap": Meta(unit="raises", range=(1, 100), applies=_limited, games="limited"),
    "cap_lift": Meta(),
    "straddle_counts_as_raise": Meta(),
    "deal_cap": Meta(unit="chips", range=POT_CHIPS),
    "min_raise_rule": Meta(),
    "check_raise": Meta(),
    "incomplete_rule": Meta(),
    "half_bet_raise": Meta(),
    "checking_out": Meta(),
    "clamp_to_max": Meta(),
    "burn": Meta(),
    "rake_percent_bp": Meta(unit="bp", range=(0, MAX_RAKE_BP)),
    "rake_cap": Meta(unit="chips", range=POT_CHIPS),
    "rake_step_chips": Meta(unit="chips", range=CHIPS),
    "rake_step_per": Meta(unit="chips", range=POT_CHIPS),
    "no_flop_no_drop": Meta(),
    "rake_step_mode": Meta(),
    "odd_chip": Meta(),
    "auto_show_all": Meta(),
    "jacks_to_open": Meta(applies=_jacks, games="draw_high", rule="R-4.9"),
    "declare": Meta(applies=_hi_lo, games="hi_lo", rule="R-13.1"),
    "declare_default": Meta(applies=_hi_lo, games="hi_lo", rule="R-13.2"),
    "no_second_best": Meta(applies=_hi_lo, games="hi_lo", rule="R-13.5"),
    "both_may_split": Meta(applies=_hi_lo, games="hi_lo", rule="R-13.5"),
    "open_stakes": Meta(applies=_limited, games="limited"),
    "pot_system": Meta(games="pot_system"),
    "guts_stake": Meta(unit="chips", range=CHIPS, applies=_guts, games="guts"),
    "guts_mode": Meta(applies=_guts, games="guts"),
    "guts_max_pot": Meta(unit="chips", range=POT_CHIPS, applies=_guts, games="guts"),
    "guts_only_worst_pays": Meta(applies=_guts, games="guts"),
    "guts_worst_pays_ante": Meta(unit="chips", range=CHIPS, applies=_guts, games="guts"),
    "guts_ghost": Meta(applies=_guts, games="guts"),
    "guts_legs": Meta(unit="legs", range=(0, 100), applies=_guts, games="guts"),
    "wild": Meta(applies=_wild, games="wild", rule="R-10.7"),
    "declared_hands": Meta(),
    "run_it_twice": Meta(applies=_board, games="board", rule="R-20.1"),
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
    def label(self) -> Msg:
        """Its name in words: the catalogue's, or its name with spaces."""
        if self.meta.catalogued:
            return msg("settings.label." + self.name)
        return msg("settings.label.unnamed", name=Name(self.name.replace("_", " ")))

    @property
    def games_said(self) -> Msg | None:
        """The games it applies to, in words (None: every game)."""
        if not self.meta.games:
            return None
        games = msg("settings.games." + self.meta.games)
        return (
            msg("settings.games.ruled", games=games, rule=Rule(self.meta.rule))
            if self.meta.rule
            else games
        )

    @property
    def zero_said(self) -> Msg | None:
        """What 0 means for it in words, where it is no number of its unit."""
        return msg("settings.zero." + self.meta.zero) if self.meta.zero else None

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
                meta = META.get(name, UNNAMED)
                path = (f.name, g.name)
                out[name] = Setting(name, inner[g.name], _default(g), meta, path, hint)
            continue
        out[f.name] = Setting(f.name, hint, _default(f), META.get(f.name, UNNAMED), (f.name,))
    _ENGINE_CACHE[rules] = out
    return out


def engine_settings() -> dict[str, Setting]:
    """Every engine-backed setting, read from :data:`RULES`' fields."""
    return _engine_settings(RULES)


@functools.cache
def _table_settings() -> dict[str, Setting]:
    hints = typing.get_type_hints(TableSettings)
    return {
        f.name: Setting(f.name, hints[f.name], _default(f), META.get(f.name, UNNAMED))
        for f in fields(TableSettings)
        if f.name not in ("options", "extra")
    }


def declared() -> dict[str, Setting]:
    """Every setting a table has: its own, then the engine's (one name space)."""
    return {**_table_settings(), **engine_settings()}


def ranges() -> dict[str, tuple[int, int, str]]:
    """R-2.6: every number's (lowest, highest, unit)."""
    return {n: r for n, s in declared().items() if (r := s.range) is not None}


def _number(value: Any) -> Name:
    """A refused value, shortened: a thousand-digit number is not echoed whole."""
    text = str(value)
    return Name(text if len(text) <= 30 else text[:27] + "...")


def amount(count: int, unit: str) -> Msg:
    """``count`` with its unit in words (``3,600 seconds``); a bare number without one."""
    if unit:
        return msg("settings.unit." + unit, count=Count(count))
    return msg("settings.value.chips", amount=Chips(count))


def limit_said(limit: str) -> Msg:
    """A betting structure in words (``Pot-limit``)."""
    return msg("settings.limit." + limit)


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
        known = Name(", ".join(sorted(VARIANTS)))
        raise SettingsError(msg("settings.unknown_game", game=Name(clip(variant)), known=known))
    limit = limit or default_limit or conventional_limit(variant)
    if limit not in LIMIT_NAMES:
        known = Name(", ".join(LIMIT_NAMES))
        raise SettingsError(msg("settings.unknown_limit", limit=Name(clip(limit)), known=known))
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
    straddles: int = 1
    """R-3.4, R-20.57: how many straddles a deal may have: the first, then re-straddles of
    twice the previous, each by the player left of the last (1: no re-straddle)."""
    straddle_button: bool = False
    """R-20.57 option: the button may post the straddle instead (Mississippi straddle)."""
    # The hand loop.
    auto_deal: bool = False
    min_players: int = 2
    hand_pause: float = 3.0
    # Clocks (seconds; for the declaration clock).
    action_clock: float = 60.0
    time_bank: float = 30.0
    timeouts_to_sit_out: int = 2
    """Timeouts in a row that sit a player out (R-18.1); ``NEVER_SIT_OUT`` (0): never,
    as at a tournament's tables (R-19.72)."""
    declare_clock: float = 60.0
    time_charge: int = 0
    """R-14.2 time collection: chips charged to each player dealt in, once per period."""
    time_period: float = 1800.0
    # Words (bot/words): the language of the table's public messages and pictures;
    # empty: the server's.
    language: Literal["", "en", "de", "fr", "es", "pt_BR", "ru"] = ""
    # Bomb pots: every N hands (0: off), the ante (0: the big blind),
    # and whether they are dealt on two boards.
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    double_board: bool = False
    # The 7-2 game: the bounty (0: off), and whether a suited 7-2 counts.
    seven_deuce_bounty: int = 0
    seven_deuce_suited: bool = False
    # Rabbit hunt: a player may ask to see the cards that would have come.
    rabbit_hunt: bool = False
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
            raise AttributeError(name) from None

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
                span: dict[str, Param] = {
                    "low": Chips(low),
                    "high": amount(high, unit),
                    "value": _number(value),
                }
                if name == "seats":  # a count of seats, not of chips
                    raise SettingsError(
                        msg("settings.seats_range", **(span | {"low": Number(low)}))
                    )
                told = msg("settings.out_of_range", setting=declared()[name].label, **span)
                raise SettingsError(told)
        step_chips, step_per = self.value("rake_step_chips"), self.value("rake_step_per")
        if step_per and step_chips * 10_000 > step_per * MAX_RAKE_BP:
            raise SettingsError(
                msg(
                    "settings.step_rake_above",
                    percent=Number(MAX_RAKE_BP // 100),
                    most=Chips(step_per * MAX_RAKE_BP // 10_000),
                    per=Chips(step_per),
                )
            )
        if self.time_charge > self.chip_charge_limit:
            raise SettingsError(
                msg(
                    "settings.time_charge_above",
                    most=amount(self.chip_charge_limit, "chips"),
                    value=_number(self.time_charge),
                )
            )
        if self.small_blind > self.big_blind:
            raise SettingsError(
                msg("settings.small_blind_above", big=amount(self.big_blind, "chips"))
            )
        if self.big_bet and self.big_bet < self.min_bet:
            raise SettingsError(
                msg(
                    "settings.big_bet_below",
                    small=amount(self.min_bet, "chips"),
                    most=Chips(MAX_STAKE),
                )
            )
        if self.bring_in > self.min_bet:
            raise SettingsError(msg("settings.bring_in_above", small=amount(self.min_bet, "chips")))
        low, high = self.buy_in_range
        if low < 1 or high < low:
            raise SettingsError(
                msg(
                    "settings.buy_in_order",
                    high=amount(high, "chips"),
                    low=Chips(low),
                    most=Chips(MAX_CHIPS),
                )
            )
        if self.min_players > self.seats:
            raise SettingsError(msg("settings.min_players_above", seats=Number(self.seats)))
        if self.button_rule not in ("simplified", "moving", "dead"):
            raise SettingsError(msg("settings.button_rule"))
        if self.dealers_choice and self.rotation:
            raise SettingsError(msg("settings.choice_and_rotation"))
        games = self.games()
        if len(games) > 1 and any(v == "guts" for v, _ in games):
            # A Guts pot carries from deal to deal; in a rotation it would fall
            # into the next game's pot.
            raise SettingsError(msg("settings.guts_in_rotation"))
        if (
            self.jacks_to_open
            and not self.dealers_choice
            and not any(jacks_apply(v) for v, _ in games)
        ):
            # refused rather than accepted and never applied. In a rotation or
            # under dealer's choice it applies to the draw games only.
            raise SettingsError(msg("settings.jacks_unplayed", game=get_variant(games[0][0]).title))
        if (
            self.wild != "none"
            and not self.dealers_choice
            and not any(wild_apply(v) for v, _ in games)
        ):
            # refused where no game of the table has a wild-card ranking.
            raise SettingsError(
                msg(
                    "settings.wild_unplayed",
                    game=get_variant(games[0][0]).title,
                    games=declared()["wild"].games_said or msg("settings.games.wild"),
                )
            )
        for variant, limit in games:
            try:
                self.rules_for(variant, limit, 2, (0, 1))
            except ConfigError as exc:
                raise SettingsError(exc.msg) from None

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

    def stakes_said(self, variant: str | None = None, limit: str | None = None) -> Msg:
        """What the table deals of ``variant`` (default: its game) as a message: "No-limit
        Hold'em, blinds 1/2, ante 1" in the reader's language."""
        variant = variant or self.variant
        limit = limit or self.limit_for(variant)
        declare = self.declare != "none" and get_variant(variant).hi_lo
        return stakes_said(stakes_of(self, variant, limit, declare))

    def now_said(self) -> Msg:
        """What the table deals, for a change's "Now: ...": its game, or each game of
        its rotation in turn (R-16.2)."""
        if not self.rotation:
            return self.stakes_said()
        games = joined([self.stakes_said(v, lim) for v, lim in self.games()], "engine.semicolon")
        return msg("settings.now.rotation", games=games)

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        # Flat, as the log has always held them: {"raise_cap": 4, "rotation": [...]}.
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "options"}
        out.update(self.options)
        for name, default in ADDED_LATER.items():
            if out.get(name, default) == default:
                out.pop(name, None)  # as a log written before the setting existed holds it
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
                msg(
                    "settings.unknown",
                    name=Name(clip(unknown[0])),
                    names=Name(", ".join(sorted(names))),
                )
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
                raise SettingsError(msg("settings.game_and_rotation"))
            kw["rotation"] = ()
        rotation = kw.get("rotation", self.rotation)
        if "limit" in kw and "variant" not in kw and rotation:
            # A rotation's games carry their own structures: the table's would be kept
            # and never dealt.
            raise SettingsError(msg("settings.rotation_structure"))
        new = self._with(kw)
        _refuse_unplayed(self, new, set(kw))
        if "seats" in kw:
            # a game may seat fewer than ten (an asked-for number above it would
            # be quietly lowered at every sit): refuse it with the range.
            most = min(get_variant(v).max_players for v, _ in new.games())
            if new.seats > most:
                game = min(new.games(), key=lambda g: get_variant(g[0]).max_players)[0]
                raise SettingsError(
                    msg(
                        "settings.seats_for_game",
                        high=amount(most, "seats"),
                        game=get_variant(game).title,
                        value=_number(new.seats),
                    )
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
    dealt = joined(
        [
            msg("table.stakes.game." + lim, game=get_variant(v).title)
            for v, lim in dict.fromkeys(games)
        ],
        "engine.semicolon",
    )
    for name, setting in declared().items():
        applies = setting.meta.applies
        value = new.value(name)
        if applies is None or value == setting.default or _played(new, applies):
            continue
        if name not in changed and not _played(old, applies):
            continue
        games_said = setting.games_said
        assert games_said is not None  # a setting with ``applies`` says its games
        told: dict[str, Param] = {
            "setting": setting.label,
            "games": games_said,
            "dealt": dealt,
            "name": Name(name),
            "default": Name(_value_word(setting.default)),
        }
        if name in changed:
            raise SettingsError(msg("settings.unplayed", **told))
        raise SettingsError(msg("settings.unplayed_kept", value=Name(_value_word(value)), **told))
    if new.pot_system == "guts" and all(v != "guts" for v, _ in games):
        raise SettingsError(msg("settings.guts_pot_system"))


def _value_word(value: Any) -> str:
    """A value as typed after ``set NAME=``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


# ---------------------------------------------------------------------- value checks
# Every field is checked against its declared type, so a typo never reaches the engine
# or the log ("declare=maybe", "seats=abc") and the refusal says what is allowed.


def _allowed(hint: Any, value: Any) -> Msg | None:
    """None if ``value`` fits ``hint``; otherwise what the setting accepts, in words."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        options = typing.get_args(hint)
        return None if value in options else allowed_said(hint)
    if hint is bool:
        return None if type(value) is bool else allowed_said(hint)
    if hint is int:
        return None if type(value) is int else allowed_said(hint)
    if hint is float:
        ok = type(value) in (int, float) and value == value and abs(value) < 1e9
        return None if ok else allowed_said(hint)
    if hint is str:
        return None if isinstance(value, str) else allowed_said(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        problem = _allowed(args[0], value) if len(args) == 1 else None
        return None if problem is None else msg("settings.allowed.or_none", allowed=problem)
    if origin is tuple:
        ok = isinstance(value, tuple) and all(isinstance(v, str) for v in value)
        return None if ok else allowed_said(hint)
    return None  # dict fields (extra) hold whatever a newer version wrote


def allowed_said(hint: Any, span: tuple[int, int, str] | None = None) -> Msg:
    """What a setting of type ``hint`` accepts, in words (``span``: its range, said
    instead of "a whole number" where the docs list it)."""
    base = _base(hint)
    if base is not hint:
        return msg("settings.allowed.or_none", allowed=allowed_said(base, span))
    if typing.get_origin(hint) is Literal:
        options = ", ".join(str(a) for a in typing.get_args(hint))
        return msg("settings.allowed.one_of", options=Name(options))
    if hint is bool:
        return msg("settings.allowed.switch")
    if span is not None:
        low, high, unit = span
        return msg("settings.allowed.range", low=Chips(low), high=amount(high, unit))
    if hint is int:
        return msg("settings.allowed.whole")
    if hint is float:
        return msg("settings.allowed.number")
    if typing.get_origin(hint) is tuple:
        return msg("settings.allowed.games")
    return msg("settings.allowed.name")


def _check_types(settings: TableSettings) -> None:
    for name, setting in declared().items():
        value = settings.value(name)
        problem = _allowed(setting.hint, value)
        if problem is not None:
            said: Name | Term
            if isinstance(value, bool):  # typed as on/off: said back in the reader's words
                said = Term("settings.value.on" if value else "settings.value.off")
            else:
                said = Name(clip(value) if isinstance(value, str) else clip(repr(value))[1:-1])
            raise SettingsError(
                msg("settings.bad_value", value=said, setting=setting.label, allowed=problem)
            )


def _field_types() -> dict[str, Any]:
    """Each setting's type (the declaration's, resolved once per engine class)."""
    return {name: s.hint for name, s in declared().items()}


RANGES: dict[str, tuple[int, int, str]] = ranges()
"""R-2.6: every number's (lowest, highest, unit) -- the engine's options included."""
