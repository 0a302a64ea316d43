"""Discord's checks on a synced application command (``PUT .../commands``), enforced
like the real API: HTTP 400, code 50035 ("Invalid Form Body"), an ``errors`` tree
naming each bad field, and nothing of the sync kept.

What is checked: names (1-32 characters, lower case for slash commands), descriptions
(1-100), at most 25 options and 25 choices, choice names (1-100) and string values
(at most 100), the localizations (``name_localizations``, ``description_localizations``,
a choice's ``name_localizations``): keys only from Discord's locales, values under the
same limits as the field they translate; and a command's total size (4,000 characters
of names, descriptions and choice values, counting only the longest text of each field
among its default and its localizations, as Discord documents).
"""

from __future__ import annotations

import re
from typing import Any, Final

JSON = dict[str, Any]

LOCALES: Final = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt",
        "hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el",
        "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip
"""Discord's locales (developer docs, Reference: Locales)."""

MAX_NAME: Final = 32
MAX_DESCRIPTION: Final = 100
MAX_OPTIONS: Final = 25
MAX_CHOICES: Final = 25
MAX_CHOICE_NAME: Final = 100
MAX_CHOICE_VALUE: Final = 100
MAX_COMMAND_SIZE: Final = 4000
_NAME = re.compile(r"^[-_'\w]{1,32}$")
_SUBCOMMAND, _GROUP = 1, 2
_CHAT_INPUT = 1


Error = tuple[str, str, str]
"""A field's path, Discord's error code, the message."""


def _length(where: str, text: object, low: int, high: int) -> list[Error]:
    if not isinstance(text, str) or not low <= len(text) <= high:
        return [(where, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")]
    return []


def _localizations(where: str, value: object, low: int, high: int) -> list[Error]:
    if value is None:
        return []
    if not isinstance(value, dict):
        return [(where, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")]
    errors: list[Error] = []
    for locale, text in value.items():
        if locale not in LOCALES:
            errors.append((f"{where}.{locale}", "BASE_TYPE_CHOICES", "Not a valid locale."))
            continue
        errors += _length(f"{where}.{locale}", text, low, high)
    return errors


def _longest(field: str, data: JSON) -> int:
    texts = [data.get(field) or ""]
    texts += list((data.get(f"{field}_localizations") or {}).values())
    return max(len(str(t)) for t in texts)


def _name_errors(where: str, data: JSON, *, lower: bool) -> list[Error]:
    name = data.get("name")
    errors = _length(f"{where}.name", name, 1, MAX_NAME)
    if not errors and not _NAME.match(str(name)):
        errors.append((f"{where}.name", "APPLICATION_COMMAND_INVALID_NAME", "Invalid name"))
    if not errors and lower and str(name) != str(name).lower():
        errors.append((f"{where}.name", "APPLICATION_COMMAND_INVALID_NAME", "Must be lower case"))
    return errors + _localizations(
        f"{where}.name_localizations", data.get("name_localizations"), 1, MAX_NAME
    )


def _option_errors(where: str, option: JSON) -> tuple[list[Error], int]:
    errors = _name_errors(where, option, lower=True)
    errors += _length(f"{where}.description", option.get("description"), 1, MAX_DESCRIPTION)
    errors += _localizations(
        f"{where}.description_localizations",
        option.get("description_localizations"),
        1,
        MAX_DESCRIPTION,
    )
    size = _longest("name", option) + _longest("description", option)
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        errors.append(
            (f"{where}.choices", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer.")
        )
    for j, choice in enumerate(choices):
        here = f"{where}.choices.{j}"
        errors += _length(f"{here}.name", choice.get("name"), 1, MAX_CHOICE_NAME)
        errors += _localizations(
            f"{here}.name_localizations", choice.get("name_localizations"), 1, MAX_CHOICE_NAME
        )
        value = choice.get("value")
        if isinstance(value, str):
            errors += _length(f"{here}.value", value, 1, MAX_CHOICE_VALUE)
        size += _longest("name", choice) + len(str(value))
    children = option.get("options") or []
    if option.get("type") in (_SUBCOMMAND, _GROUP):
        more, inner = _options_errors(f"{where}.options", children)
        errors += more
        size += inner
    return errors, size


def _options_errors(where: str, options: list[JSON]) -> tuple[list[Error], int]:
    errors: list[Error] = []
    size = 0
    if len(options) > MAX_OPTIONS:
        errors.append((where, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer."))
    for i, option in enumerate(options):
        more, inner = _option_errors(f"{where}.{i}", option)
        errors += more
        size += inner
    return errors, size


def command_errors(commands: list[JSON]) -> list[Error]:
    """Everything Discord would refuse in a bulk overwrite of commands (empty if valid)."""
    errors: list[Error] = []
    for i, command in enumerate(commands):
        where = str(i)
        slash = command.get("type", _CHAT_INPUT) == _CHAT_INPUT
        errors += _name_errors(where, command, lower=slash)
        if slash:
            errors += _length(
                f"{where}.description", command.get("description"), 1, MAX_DESCRIPTION
            )
            errors += _localizations(
                f"{where}.description_localizations",
                command.get("description_localizations"),
                1,
                MAX_DESCRIPTION,
            )
        more, size = _options_errors(f"{where}.options", command.get("options") or [])
        errors += more
        size += _longest("name", command) + _longest("description", command)
        if size > MAX_COMMAND_SIZE:
            errors.append(
                (where, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({size})")
            )
    return errors


def invalid_form_body(errors: list[Error]) -> JSON:
    """Discord's 50035 error body, keyed by field path as discord.py flattens it."""
    tree: JSON = {}
    for path, code, message in errors:
        entry = tree.setdefault(path, {"_errors": []})
        entry["_errors"].append({"code": code, "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}
