"""The engine's typed errors: why an action was refused, in words a player understands.

Every refusal raises :class:`IllegalAction` (or a subclass) and leaves the hand untouched.
The error carries the refusal as a message (``msg``, the presenter's to put in words) and,
where there is one, the legal options
(:class:`bot.poker.legal.Legal`) so the presenter can show what *is* allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.poker.messages import Msg, debug, raw

if TYPE_CHECKING:
    from bot.poker.legal import Legal


class PokerError(Exception):
    """Base class for everything the engine refuses: why, as a message (``msg``), and
    the legal options where there are some."""

    code = "poker_error"

    def __init__(self, message: Msg | str, legal: Legal | None = None) -> None:
        self.msg = message if isinstance(message, Msg) else raw(message)
        self.legal = legal
        super().__init__(self.msg.key)

    def __str__(self) -> str:
        # For developers and operators' logs; a player reads ``msg`` rendered.
        return debug(self.msg)


class IllegalAction(PokerError):
    """The action is not allowed now (wrong type, wrong amount, or not allowed by a rule)."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """R-6.5: an action out of turn is refused privately and changes nothing."""

    code = "not_your_turn"


class BadAmount(IllegalAction):
    """The amount is not a whole number of chips, or is outside the legal range (R-6.4)."""

    code = "bad_amount"


class HandOver(IllegalAction):
    """The hand has ended; nothing more can be done in it."""

    code = "hand_over"


class OptionRefused(IllegalAction):
    """A home-game option asked for when it does not apply (the 7-2 bounty before the
    hand is over, a rabbit hunt after a showdown, §20)."""

    code = "option_refused"


class ConfigError(PokerError):
    """The rules or the start of a hand are inconsistent (a table-setup problem)."""

    code = "config_error"
