"""The host's tools and the waiting list in the terminal (R-20.50 to R-20.56), typed by
the host (the terminal's user) with no name in front:

* ``kick NAME``, ``seat NAME N``, ``adjust NAME +N|-N REASON``, ``sitout NAME``,
  ``cohost NAME [off]``, ``end`` (the session: every stack cashed out, the table closed);
* ``wait NAME [off]``: NAME joins (or leaves) the waiting list of the full table.

A line that does not read is answered with the commands (``host.usage``) and changes
nothing; the table's refusals are printed in the terminal's language."""

from __future__ import annotations

import re
from typing import Final, Protocol

from bot.local.words import Words
from bot.poker.messages import msg
from bot.table.table import Outcome, Table
from bot.table.text_actions import ParseError, check_name

HOST_COMMANDS: Final = frozenset({"kick", "seat", "adjust", "sitout", "cohost", "end", "wait"})

_AMOUNT = re.compile(r"[+-]?[0-9]{1,13}")


class LocalHost(Protocol):
    """What these commands use of the terminal's table (``bot.local.terminal``)."""

    words: Words

    @property
    def table(self) -> Table: ...

    def key(self, label: str) -> str: ...

    def emit(self, text: str) -> None: ...

    def user_id(self, name: str) -> str: ...

    def answer(self, user: str, out: Outcome) -> Outcome: ...


async def host_line(local: LocalHost, host: str, cmd: str, words: list[str]) -> None:
    """One host command line (``cmd`` is one of :data:`HOST_COMMANDS`)."""
    out = await _run(local, host, cmd, words)
    if out is None:
        local.emit("! " + local.words.render(msg("host.usage")))
    else:
        local.answer(host, out)


async def _run(local: LocalHost, host: str, cmd: str, words: list[str]) -> Outcome | None:
    table = local.table
    key = local.key(cmd)
    if cmd == "end":
        return None if words else await table.close(host, key=key)
    if not words:
        return None
    try:
        name = check_name(words[0])
    except ParseError:
        return None
    user = local.user_id(name)
    rest = words[1:]
    off = rest == ["off"]
    if cmd == "wait" and (not rest or off):
        return await table.wait_list(user, name, not off, key=key)
    if cmd in ("kick", "sitout") and not rest:
        return await table.host_tool(host, cmd, user, key=key)
    if cmd == "cohost" and (not rest or off):
        tool = "uncohost" if off else "cohost"
        return await table.host_tool(host, tool, user, name=name, key=key)
    if cmd == "seat" and len(rest) == 1 and re.fullmatch(r"[0-9]{1,2}", rest[0]):
        return await table.host_tool(host, "seat", user, to=int(rest[0]), key=key)
    if cmd == "adjust" and len(rest) >= 2 and _AMOUNT.fullmatch(rest[0]):
        reason = " ".join(rest[1:])
        return await table.host_tool(
            host, "adjust", user, amount=int(rest[0]), reason=reason, key=key
        )
    return None
