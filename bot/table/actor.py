"""Who issues a table command: the user and whether the platform lets him run the table.

A presenter builds an :class:`Actor` from what its platform knows (on Discord: the
member's Manage Channels permission in the table's channel) and passes it with the
command; the service judges host-or-moderator commands (deal, pause, close, settings)
from it alone. A bare user id is a player
without moderator rights, unless the presenter's ``is_moderator`` says otherwise (the
terminal and the test presenters, which have no per-command permissions).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: str
    may_manage: bool = False
    """The platform lets him manage this table's channel (a moderator)."""
    name: str = ""
    """His name as the platform shows it, where a command names who did it (the host's
    tools); empty: the table names him by his seat, if he has one."""


def user_of(who: str | Actor) -> str:
    return who.user_id if isinstance(who, Actor) else who
