"""A settings change as a message: what the table says after ``change_settings``.

Each changed setting is said with its label, its old and its new value in words
(``action clock from 60 s to 45 s``; a structure and a game by name, a switch on or off,
a choice in the catalogue's words), then what the table deals now. Presenters render it
in the reader's language (the public notice in the table's).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, Literal

from bot.poker.messages import Count, Msg, Name, Number, joined, msg
from bot.poker.variants import VARIANTS
from bot.table.settings import LIMIT_NAMES, UNNAMED, Setting, TableSettings, declared, limit_said

_UNITS_SHOWN: dict[str, str] = {
    # Units a value is said with (others: the number alone, as typed after ``set``).
    "seconds": "settings.value.seconds",
    "bp": "settings.value.percent",
}


def _game(entry: str) -> Msg:
    """A rotation entry: ``omaha:pot_limit`` -> ``Pot-limit Omaha``; a game without a
    structure is just its name (it is dealt in its usual one, R-16.9)."""
    variant, _, limit = entry.partition(":")
    if variant not in VARIANTS:
        return msg("settings.value.text", text=Name(entry))
    game = VARIANTS[variant].title
    return msg("table.stakes.game." + limit, game=game) if limit in LIMIT_NAMES else game


def _choice(setting: Setting, value: str) -> Msg:
    """One of a setting's choices (``declare=simultaneous``): the catalogue's words for
    a declared setting; for a new engine option, its code as typed."""
    hint = typing.get_origin(setting.hint)
    if setting.meta.catalogued and hint is Literal and value in typing.get_args(setting.hint):
        return msg(f"settings.choice.{setting.name}.{value or 'default'}")
    return msg("settings.value.text", text=Name(value.replace("_", " ")))


def value_said(name: str, value: object) -> Msg:
    """A setting's value in words: ``45 s``, ``on``, ``Pot-limit``, ``Razz``."""
    setting = declared().get(name) or Setting(name, Any, None, UNNAMED)
    unit = setting.meta.unit
    if isinstance(value, bool):
        return msg("settings.value.on" if value else "settings.value.off")
    if value is None:
        return msg("settings.value.none")
    if name == "variant" and isinstance(value, str) and value in VARIANTS:
        return VARIANTS[value].title
    if name == "limit" and isinstance(value, str):
        return limit_said(value) if value in LIMIT_NAMES else msg("settings.value.usual")
    if name == "rotation" and isinstance(value, tuple | list):
        if not value:
            return msg("settings.value.none")
        return joined([_game(str(v)) for v in value])
    if isinstance(value, int | float):
        if value == 0 and setting.zero_said is not None:
            return setting.zero_said
        if unit == "minutes" and isinstance(value, int):
            return msg("settings.value.minutes", count=Count(value))
        if unit == "bp":
            return msg("settings.value.percent", n=Number(value / 100))
        if unit == "seconds":
            return msg("settings.value.seconds", n=Number(value))
        return msg("settings.value.number", n=Number(value))
    if isinstance(value, str):
        return _choice(setting, value)
    return msg("settings.value.text", text=Name(str(value)))


def setting_said(name: str, value: object) -> Msg:
    """One setting and its value: ``action clock 45 s``, ``straddle on``."""
    setting = declared().get(name) or Setting(name, Any, None, UNNAMED)
    return msg("settings.setting", setting=setting.label, value=value_said(name, value))


def change_said(name: str, old: object, new: object) -> Msg:
    """One change: ``action clock from 60 s to 45 s``."""
    setting = declared().get(name) or Setting(name, Any, None, UNNAMED)
    return msg(
        "settings.change",
        setting=setting.label,
        old=value_said(name, old),
        new=value_said(name, new),
    )


def changed_said(old: TableSettings, new: TableSettings) -> Msg:
    """What a table says after a change: each setting that changed, from what to what
    (as stored: aliases resolved), and what it deals now."""
    was, now = old.to_dict(), new.to_dict()
    names = [n for n in dict.fromkeys([*now, *was]) if n != "extra"]
    parts = [
        change_said(name, _value(old, name, was), _value(new, name, now))
        for name in names
        if now.get(name) != was.get(name)
    ]
    if not parts:
        return msg("settings.changed_nothing", now=new.now_said())
    return msg("settings.changed", changes=joined(parts, "engine.semicolon"), now=new.now_said())


def _value(settings: TableSettings, name: str, stored: Mapping[str, Any]) -> object:
    """A setting's value as the settings hold it (a rotation as a tuple), or as stored."""
    if name in declared():
        return settings.value(name)
    return stored.get(name)


__all__ = ["change_said", "changed_said", "setting_said", "value_said"]
