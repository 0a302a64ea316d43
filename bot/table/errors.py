"""Why the table refused a command, as a message the presenter puts in words.

Every refusal from the table service is a :class:`TableError`; the presenter shows its
``msg`` to the actor only, in his language. ``code`` lets a presenter pick an icon or a
retry policy.
"""

from __future__ import annotations

from bot.poker.messages import Msg, debug, raw


class TableError(Exception):
    """A command the table refused. Nothing changed."""

    code = "refused"

    def __init__(self, message: Msg | str) -> None:
        self.msg = message if isinstance(message, Msg) else raw(message)
        super().__init__(self.msg.key)

    def __str__(self) -> str:
        # For developers and operators' logs; a player reads ``msg`` rendered.
        return debug(self.msg)


class SettingsError(TableError):
    """A setting that cannot be used (its message says which and why)."""

    code = "bad_settings"


class StaleCommand(TableError):
    """The command names a turn that has already passed (a button from an old message)."""

    code = "stale"


class NotAllowed(TableError):
    """The user may not do this here (not host/moderator, not seated, ...)."""

    code = "not_allowed"


class TableHalted(TableError):
    """The table stopped because an invariant failed (chip conservation, R-2.5)."""

    code = "halted"
