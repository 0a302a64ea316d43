"""Game names as players write them: the one alias table.

Every place a game is named goes through :func:`split_game` — the terminal's ``--game``,
``choose`` and ``set variant=`` / ``set game=`` / ``set rotation=``, and on Discord the
``/table create`` game option, its autocomplete, ``/choose`` and ``/table settings``.
So ``plo``, ``PLO8``, ``hold'em``, ``NLHE``, ``7stud``, ``stud/8``, ``o8``, ``2-7`` and
``badugi`` mean the same game everywhere.

A name is compared without case, spaces, hyphens, underscores, apostrophes, slashes or
dots ("Hold'em" = "holdem", "stud/8" = "stud8", "2-7" = "27"). A structure may be named
in front ("nl", "pl", "limit", "fixed limit" …), behind ("omaha pot limit") or after a
colon ("omaha8:fixed"); the colon wins, then the name's own structure (``plo`` is
pot-limit Omaha), then the table's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from bot.poker.messages import Msg, msg
from bot.table.errors import SettingsError

HORSE = ("holdem:fixed", "omaha8:fixed", "razz:fixed", "stud:fixed", "stud8:fixed")
"""The HORSE rotation (R-16.2): ``horse`` in a rotation stands for these five."""

LIMITS: dict[str, str] = {
    "nolimit": "no_limit",
    "nl": "no_limit",
    "potlimit": "pot_limit",
    "pl": "pot_limit",
    "pot": "pot_limit",
    "halfpot": "half_pot",
    "halfpotlimit": "half_pot",
    "hpl": "half_pot",
    "fixed": "fixed",
    "fixedlimit": "fixed",
    "limit": "fixed",
    "fl": "fixed",
    "spread": "spread",
    "spreadlimit": "spread",
}
"""Structure names (compacted) -> the settings' structure code."""

_STRUCTURES = frozenset(LIMITS.values())

# Compacted name -> (variant code, the structure the name itself says, or None).
_GAMES: dict[str, tuple[str, str | None]] = {}


def _add(variant: str, *names: str, limit: str | None = None) -> None:
    for name in names if limit else (variant, *names):
        _GAMES[compact(name)] = (variant, limit)


def compact(text: str) -> str:
    """A name without case or separators: "Hold'em" -> "holdem", "stud/8" -> "stud8"."""
    return re.sub(r"[\s_\-'’./]+", "", text.casefold())


_add("holdem", "hold'em", "texas holdem", "texas", "he", "th")
_add("holdem", "nlhe", "nlh", limit="no_limit")
_add("holdem", "lhe", "flhe", limit="fixed")
_add("holdem", "plhe", limit="pot_limit")
_add("omaha", "o", "omaha high", "omaha hi", "o hi")
_add("omaha", "plo", limit="pot_limit")
_add("omaha8", "o8", "o8b", "omaha hi-lo", "omaha hilo8", "omaha high low", "omaha 8 or better")
_add("omaha8", "o hi-lo", "omaha hl", "oe")
_add("omaha8", "plo8", "plo hi-lo", limit="pot_limit")
_add("shortdeck", "short deck", "short deck holdem", "6+", "6+ holdem", "six plus", "6 plus")
_add("shortdeck_trips", "short deck trips", "6+ trips")
_add("stud", "7 stud", "7cs", "seven card stud", "7 card stud", "stud7", "stud high", "stud hi")
_add("stud8", "7 stud 8", "7stud8", "stud hi-lo", "stud high low", "stud 8 or better", "7cs8")
_add("stud8", "seven card stud hi-lo", "7 card stud hi-lo", "stud hl", "se", "s8")
_add("razz", "7 card razz", "seven card razz")
_add("stud5", "5 stud", "5cs", "five card stud", "5 card stud")
_add("draw5", "draw", "5 draw", "5cd", "five card draw", "5 card draw", "fcd")
_add("draw5hl", "draw hi-lo", "5 draw hi-lo", "draw5 hi-lo", "five card draw high low")
_add("draw5hl", "5 card draw hi-lo", "draw high low")
# "2-7" alone is the triple draw, the mixed games' staple; no-limit 2-7 is single draw.
_add("27triple", "2-7", "2-7 triple", "2-7 td", "2-7 triple draw", "deuce to seven", "27td")
_add("27triple", "deuce to seven triple draw", "2 to 7", "2 to 7 triple draw")
_add("27single", "2-7 single", "2-7 sd", "2-7 single draw", "27sd", "deuce to seven single draw")
_add("27single", "nl 2-7", "nl 27", "nl deuce to seven", "kansas city", limit="no_limit")
_add("a5triple", "a-5", "a-5 triple", "a-5 td", "a5td", "a-5 triple draw", "ace to five")
_add("a5triple", "ace to five triple draw")
_add("a5single", "a-5 single", "a5sd", "a-5 single draw", "lowball", "california lowball")
_add("badugi")
_add("guts")

# Structure words that may stand before or after a game's name, longest first.
_AFFIXES = sorted(LIMITS, key=len, reverse=True)


def resolve_limit(text: str) -> str:
    """A structure name as the settings' code ("pl" -> "pot_limit"); an unknown name comes
    back as typed, for the settings' own refusal with the list."""
    key = compact(text)
    return LIMITS.get(key, text.strip().lower())


def split_game(text: str) -> tuple[str, str]:
    """``(variant, limit)`` for a game as written; ``limit`` is "" when neither the text
    nor the name says one. An unknown game comes back as typed (lowercased), so that
    the caller's refusal lists the games."""
    name, colon, limit_text = text.strip().partition(":")
    explicit = resolve_limit(limit_text) if colon and limit_text.strip() else ""
    key = compact(name)
    found = _GAMES.get(key)
    if found is None:
        for affix in _AFFIXES:
            if key.startswith(affix) and key[len(affix) :] in _GAMES:
                found = (_GAMES[key[len(affix) :]][0], LIMITS[affix])
                break
            if key.endswith(affix) and key[: -len(affix)] in _GAMES:
                found = (_GAMES[key[: -len(affix)]][0], LIMITS[affix])
                break
    if found is None:
        return name.strip().lower(), explicit
    variant, implied = found
    return variant, explicit or implied or ""


def canonical_game(text: str) -> str:
    """A game as ``variant`` or ``variant:limit``, the form a rotation is stored in."""
    variant, limit = split_game(text)
    return f"{variant}:{limit}" if limit else variant


def split_rotation(value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A rotation as stored: each game canonical; ``horse`` is the five HORSE games."""
    items = value.split(",") if isinstance(value, str) else list(value)
    out: list[str] = []
    for item in items:
        if not str(item).strip():
            continue
        if compact(str(item)) == "horse":
            out.extend(HORSE)
        else:
            out.append(canonical_game(str(item)))
    return tuple(out)


OFF = frozenset({"", "none", "off", "no"})
"""The words that turn a rotation off."""


def normalize_changes(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Settings changes with game names resolved: ``game`` (or ``variant``) ``=plo`` sets
    the variant and, where the name says one, the structure; ``limit=pl`` is
    ``pot_limit``; a rotation's games are canonical. A structure named explicitly in the
    same change wins over the one a game name implies."""
    out = dict(changes)
    if "game" in out and "variant" in out:
        raise SettingsError(msg("settings.game_twice"))
    if "game" in out:
        out["variant"] = out.pop("game")
    if "structure" in out and "limit" not in out:
        out["limit"] = out.pop("structure")
    if isinstance(out.get("limit"), str):
        out["limit"] = resolve_limit(out["limit"])
    if isinstance(out.get("variant"), str):
        variant, limit = split_game(out["variant"])
        out["variant"] = variant
        if limit and "limit" not in out:
            out["limit"] = limit
    if "rotation" in out:
        rotation = out["rotation"]
        if rotation is None or rotation is False or str(rotation).strip().lower() in OFF:
            out["rotation"] = ()  # "rotation=none", "rotation=off" or empty: no rotation
        elif isinstance(rotation, str | tuple | list):
            out["rotation"] = split_rotation(rotation)
    return out


def game_suggestions(
    current: str, name: Callable[[Msg], str] | None = None
) -> list[tuple[Msg, str]]:
    """``(label, value)`` pairs for a game typed so far (Discord's autocomplete): the games
    whose code or name (as the asker reads it: ``name`` renders a game's title) contains
    it, and the game an alias names; each label a message (the game's name, with the
    structure an alias says: "Pot-limit Omaha")."""
    from bot.poker.variants import VARIANTS

    cur = current.strip().casefold()
    out: list[tuple[Msg, str]] = []
    if cur:
        variant, limit = split_game(current)
        if variant in VARIANTS:
            title = VARIANTS[variant].title
            label = msg("table.stakes.game." + limit, game=title) if limit in _STRUCTURES else title
            out.append((label, canonical_game(current)))
    for code, info in VARIANTS.items():
        named = name(info.title).casefold() if name is not None and cur else ""
        if (not cur or cur in named or cur in code) and code not in {
            v.partition(":")[0] for _, v in out
        }:
            out.append((info.title, code))
    return out[:25]
