"""Why the table refused a command, in a sentence the player can read.

Every refusal from the table service is a :class:`TableError`; the presenter shows its
``message`` to the actor only. ``code`` lets a presenter pick an icon or a retry policy.
"""

from __future__ import annotations


class TableError(Exception):
    """A command the table refused. Nothing changed."""

    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


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
