"""A refusal with what the player may do instead, as one message.

The engine's refusals either say the options themselves (a ``legal.options`` parameter,
or a sentence such as "Declare low, high or both.") or leave them to the table, which
adds them (``table.refusal``: "{reason} You may: {options}."). Which is which is read
from the message's key and parameters, never from its words.
"""

from __future__ import annotations

from bot.poker.legal import Legal
from bot.poker.messages import Listing, Msg, joined, msg

OPTIONS_KEY = "legal.options"

SAY_THEIR_OPTIONS = frozenset(
    {
        # Each names what is allowed in its own words.
        "refuse.jacks_bet",
        "refuse.jacks_raise_blinds",
        "refuse.no_check_raise",
        "refuse.bring_in_or_complete",
        "refuse.discard_most",
        "refuse.declare_choice",
        "refuse.declare_time",
        "table.refusal",
    }
)


def says_options(m: Msg) -> bool:
    """Whether ``m`` already says what the player may do (so it is not said twice)."""
    if m.key == OPTIONS_KEY or m.key in SAY_THEIR_OPTIONS:
        return True
    for _, value in m.params:
        if isinstance(value, Msg) and says_options(value):
            return True
        if isinstance(value, Listing) and any(says_options(item) for item in value.items):
            return True
    return False


def options_said(legal: Legal) -> Msg:
    """The legal options as one message: ``call 20, raise to 40–200, or fold`` (the
    serial list the table has always written, from the engine's own option words)."""
    listing = legal.options().get("options")
    parts = listing.items if isinstance(listing, Listing) else ()
    if not parts:
        return legal.options()
    if len(parts) == 1:
        return parts[0]
    return msg("legal.serial_or", head=joined(parts[:-1]), last=parts[-1])


def refusal(reason: Msg, legal: Legal) -> Msg:
    """``reason`` followed by what the player may do."""
    return msg("table.refusal", reason=reason, options=options_said(legal))


__all__ = ["SAY_THEIR_OPTIONS", "options_said", "refusal", "says_options"]
