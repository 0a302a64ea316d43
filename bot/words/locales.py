"""The languages Chipfist speaks, and how Discord's locale codes map onto them.

>>> from_discord("es-419"), from_discord("pt-BR"), from_discord("en-GB"), from_discord("ja")
('es', 'pt_BR', 'en', 'en')
>>> parse("PT-br"), parse("de_DE"), parse("xx")
('pt_BR', 'de', None)
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

Locale: TypeAlias = Literal["en", "de", "fr", "es", "pt_BR", "ru"]
SUPPORTED: Final[tuple[Locale, ...]] = ("en", "de", "fr", "es", "pt_BR", "ru")
DEFAULT: Final[Locale] = "en"

_BY_LANGUAGE: Final[dict[str, Locale]] = {
    "en": "en",
    "de": "de",
    "fr": "fr",
    "es": "es",
    "ru": "ru",
    "pt": "pt_BR",  # Discord offers Portuguese only as pt-BR
}

DISCORD_CODES: Final[dict[Locale, tuple[str, ...]]] = {
    "en": ("en-US", "en-GB"),
    "de": ("de",),
    "fr": ("fr",),
    "es": ("es-ES", "es-419"),
    "pt_BR": ("pt-BR",),
    "ru": ("ru",),
}
"""Discord's codes for each of ours (discord.Locale values), for the Translator."""


def parse(code: str | None) -> Locale | None:
    """Ours for a code such as ``de``, ``pt-BR``, ``es_419`` (None if we lack it)."""
    if not code:
        return None
    norm = code.strip().replace("-", "_")
    if norm.lower() == "pt_br":
        return "pt_BR"
    return _BY_LANGUAGE.get(norm.split("_")[0].lower())


def from_discord(code: str | None) -> Locale:
    """Ours for a Discord locale (``interaction.locale``, ``guild_locale``), English
    for a language we do not speak."""
    return parse(code) or DEFAULT
