"""Players' names on Discord: what a display name may do in the bot's messages (nothing).

A display name is chosen by its member and reaches every player: the table message, the
lines and summaries, the DMs. Discord renders the bot's text, so a name such as
``<@&123>``, ``@everyone``, ``**big**`` or ``[free chips](https://…)`` would show as a
role mention, bold or a link (and, where mentions are allowed, ping). So a name is made
inert once, where it enters from Discord (``/sit``, ``/table create``): :func:`display`
cleans it (no control or invisible characters, one line, at most :data:`MAX_NAME`
characters) and backslash-escapes every character Discord's markdown, mentions and links
use, so it renders exactly as written. The table keeps that form and composes it into its
notices; :func:`escape` is idempotent, so text that shows a stored name can escape it again
(names from an older database) without doubling. Pictures are not markdown:
:func:`plain` gives the name as written.

Pings are a separate guard: the client's default ``allowed_mentions`` is none
(``cogs.bot``), and each message that means to ping names exactly whom.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

MAX_NAME = 32
"""Characters of a name shown (Discord's own limit for a display name)."""
FALLBACK = "player"
"""The name of a member whose display name is nothing visible."""

SPECIAL = frozenset("\\*_~`|<>#-[]()@:")
"""Characters a backslash makes literal in Discord's markdown: emphasis, code, spoilers,
quotes, headings, lists, masked links (``[]()``), mentions, channels, custom emoji and
timestamps (``<>``, ``@``), auto-links (``https://`` needs its colon)."""

_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories dropped: controls, format characters (zero-width space and joiner,
bidirectional overrides), surrogates, private use, unassigned, line and paragraph
separators."""

_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def clean(name: str, limit: int = MAX_NAME) -> str:
    """The name without control or invisible characters, on one line with single spaces,
    at most ``limit`` characters (cut with an ellipsis); :data:`FALLBACK` if nothing
    visible is left. Enough for the terminal and pictures, which render no markdown."""
    kept = []
    for char in unicodedata.normalize("NFC", name):
        category = unicodedata.category(char)
        if category in _INVISIBLE:
            if char in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
                kept.append(" ")  # a line break or tab still separates words
            continue
        kept.append(" " if category == "Zs" else char)
    text = " ".join("".join(kept).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text or FALLBACK


def escape(text: str) -> str:
    """``text`` with every :data:`SPECIAL` character backslash-escaped, so Discord shows it
    as written: no markdown, no mention, no link. Idempotent: a special character already
    escaped is left as it is (``escape(escape(s)) == escape(s)``)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and text[i + 1] in SPECIAL:
            out.append(text[i : i + 2])  # already escaped
            i += 2
            continue
        out.append("\\" + char if char in SPECIAL else char)
        i += 1
    return "".join(out)


def display(name: str) -> str:
    """A member's display name as the table keeps and shows it on Discord: cleaned
    (:func:`clean`) and escaped (:func:`escape`)."""
    return escape(clean(name))


def escape_names(text: str, kept: Iterable[str]) -> str:
    """``text`` (a notice the table composed) with each name of ``kept`` (names as the
    table keeps them) escaped where it appears raw: a name an older version kept
    unescaped. Every name kept since is escaped already and left as it is."""
    for name in sorted({n for n in kept if escape(n) != n}, key=len, reverse=True):
        text = text.replace(name, escape(name))
    return text


def plain(name: str, limit: int = MAX_NAME) -> str:
    """A kept name as written, for pictures: escapes undone, cleaned and capped."""
    return clean(_ESCAPED.sub(_unescape, name), limit)


def _unescape(match: re.Match[str]) -> str:
    char = match.group(1)
    return char if char in SPECIAL else match.group(0)


__all__ = ["FALLBACK", "MAX_NAME", "SPECIAL", "clean", "display", "escape", "escape_names", "plain"]
