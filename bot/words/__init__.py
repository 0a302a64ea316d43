"""Words at the edge: the catalogue that turns the engine's and the table's messages
(:class:`bot.poker.messages.Msg`) into sentences in the reader's language.

Only presenters (the Discord cogs, the terminal, the pictures) import this package. The
catalogues are gettext ``.po`` files under ``locales/<language>/LC_MESSAGES/``, one per
domain, read with Babel (plural forms, number formatting and lists by locale);
:func:`render` is the one way from a message to words.
"""

from bot.words.catalog import DOMAINS, catalog_path, translations
from bot.words.locales import DEFAULT, SUPPORTED, Locale, from_discord, parse
from bot.words.render import render

__all__ = [
    "DEFAULT",
    "DOMAINS",
    "SUPPORTED",
    "Locale",
    "catalog_path",
    "from_discord",
    "parse",
    "render",
    "translations",
]
