"""Players' names on Discord: what a display name may do in the bot's messages (nothing).

A display name is chosen by its member and reaches every player: the table message, the
lines and summaries, the DMs. Discord renders the bot's text, so a name such as
``<@&123>``, ``@everyone``, ``**big**`` or ``[free chips](https://…)`` would show as a
role mention, bold or a link (and, where mentions are allowed, ping). Where it enters from
Discord (``/sit``, ``/table create``) a name is only cleaned (:func:`kept`: no control or
invisible characters, one line, at most :data:`MAX_NAME` characters): the table keeps it
as written, as the terminal and the pictures show it. It is made inert where it is
rendered into Discord's markdown: :func:`escape` backslash-escapes every character
markdown, mentions and links use, so it renders exactly as written; :func:`escaped` does
that to the names in a message (its :class:`~bot.poker.messages.Name` parameters) and
:func:`escaping` to the names a namer gives players by position. :func:`escape` is
idempotent, so a name an older version kept escaped is not escaped twice. Pictures are
not markdown: :func:`plain` gives the name as written (an old escaped one unescaped).

Pings are a separate guard: the client's default ``allowed_mentions`` is none
(``cogs.bot``), and each message that means to ping names exactly whom.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from bot.poker.messages import RAW, Listing, Msg, Name, Param

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


def kept(name: str) -> str:
    """A member's display name as the table keeps it: cleaned (:func:`clean`), as
    written; escaped only where it is rendered into Discord's markdown."""
    return clean(name)


def display(name: str) -> str:
    """A member's display name as Discord's markdown shows it: cleaned and escaped."""
    return escape(clean(name))


def escape_names(text: str, names: Iterable[str]) -> str:
    """``text`` (words composed with the names, an English line of the view or an older
    record) with each of ``names`` escaped where it appears as written. Where it
    appears escaped already it is left as it is, so a line is never escaped twice."""
    for name in sorted({n for n in names if escape(n) != n}, key=len, reverse=True):
        done = escape(name)
        text = done.join(part.replace(name, done) for part in text.split(done))
    return text


def escaped(m: Msg) -> Msg:
    """``m`` with every name in it (its :class:`Name` parameters: what someone chose or
    typed) escaped for Discord's markdown, in nested messages and lists too. An older
    record's English (``engine.raw``) is words, not a name: :func:`escape_names` is for
    those."""
    if m.key == RAW:
        return m

    def param(value: Param) -> Param:
        if isinstance(value, Name):
            return Name(escape(value.text))
        if isinstance(value, Msg):
            return escaped(value)
        if isinstance(value, Listing):
            return Listing(tuple(escaped(i) for i in value.items), value.conjunction)
        return value

    return Msg(m.key, tuple((k, param(v)) for k, v in m.params))


def escaping(namer: Callable[[int], str]) -> Callable[[int], str]:
    """A namer of players by position whose names are escaped for Discord's markdown."""
    return lambda position: escape(namer(position))


def plain(name: str, limit: int = MAX_NAME) -> str:
    """A kept name as written, for pictures: escapes undone, cleaned and capped."""
    return clean(_ESCAPED.sub(_unescape, name), limit)


def _unescape(match: re.Match[str]) -> str:
    char = match.group(1)
    return char if char in SPECIAL else match.group(0)


__all__ = [
    "FALLBACK",
    "MAX_NAME",
    "SPECIAL",
    "clean",
    "display",
    "escape",
    "escape_names",
    "escaped",
    "escaping",
    "kept",
    "plain",
]
