"""The catalogues: gettext ``.po`` files read with Babel, one set per language.

Each domain (``engine``, ``table``, ...) is a file ``locales/<lang>/LC_MESSAGES/<domain>.po``
whose ids are message keys; English is a catalogue like the others (the keys are not
English). The files are compiled in memory at first use (Babel's ``write_mo`` into
gettext's reader), so the repository holds only the text translators edit.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.words.locales import SUPPORTED, Locale

ROOT: Final = Path(__file__).resolve().parent / "locales"
DOMAINS: Final[tuple[str, ...]] = (
    "engine",
    "table",
    "discord",
    "commands",
    "terminal",
    "art",
    "settings",
    "tournament",
    "tourney",
    "entries",
    "home",
    "input",
    "record",
    "deal",
    "host",
    "rotation",
    "results",
)
"""Every domain; a key lives in exactly one of them."""


def catalog_path(locale: Locale, domain: str) -> Path:
    return ROOT / locale / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(locale: Locale, domain: str) -> Catalog:
    """One ``.po`` file, as Babel reads it (for the tests and the tools)."""
    with catalog_path(locale, domain).open("rb") as fp:
        return read_po(fp, locale=locale, domain=domain)


@functools.cache
def translations(locale: Locale) -> Translations:
    """Every domain of one language, merged, ready for ``gettext``/``ngettext``."""
    merged: Translations | None = None
    for domain in DOMAINS:
        buffer = io.BytesIO()
        write_mo(buffer, read_catalog(locale, domain))
        buffer.seek(0)
        part = Translations(buffer, domain=domain)
        if merged is None:
            merged = part
        else:
            merged.merge(part)
    assert merged is not None
    return merged


def keys(locale: Locale = "en") -> set[str]:
    """Every message key the language's catalogues hold."""
    out: set[str] = set()
    for domain in DOMAINS:
        out.update(
            str(m.id[0] if isinstance(m.id, tuple) else m.id)
            for m in read_catalog(locale, domain)
            if m.id
        )
    return out


__all__ = ["DOMAINS", "ROOT", "SUPPORTED", "catalog_path", "keys", "read_catalog", "translations"]
