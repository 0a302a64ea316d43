"""Custom ids of Chipfist's buttons: ``cf:<kind>:<table_id>:[<session>.]<turn>:<arg>``.

The table and the turn live in the custom_id so a button works after a restart (no
view state to lose) and a click on a button of a past turn is recognised as stale by
the table service. Discord limits custom_ids to 100 characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

IdKind = Literal["act", "dec", "show", "bump", "draw"]
MAX_LEN = 100
TABLE = r"\d+|tn(?::[A-Za-z0-9_.-]+)+"
"""A table id in a custom id: a channel's (digits), or a tournament's table, not named
after a channel (``tn:<tournament>:<n>``, R-19.3). Its colons are not ambiguous: the
turn and the argument after it hold none."""
PATTERN = re.compile(
    rf"cf:(?P<kind>act|dec|show|bump|draw):(?P<table>{TABLE}):"
    r"(?:(?P<session>[1-9]\d*)\.)?(?P<turn>\d+):(?P<arg>[a-z_]*)"
)
"""``<session>.`` before the turn: which of the channel's tables the button was posted
at (R-20.77), on buttons dated by a hand (``cf:dec:<table>:2.1:rabbit``), by the deal
a bomb-pot vote is for (``cf:dec:<table>:2.3:bomb_yes``) or by a turn (the action
buttons, the fists, the discard menu: ``cf:act:<table>:2.14:fold``, R-20.95); absent on
the undated ones (``show``, ``bump``) and on buttons an older version posted (refused at
a channel's later tables, R-20.83, R-20.96)."""
ACT_ARGS = ("check_call", "bet_raise", "fold", "all_in", "show", "muck", "state")
DECLARE_ARGS = ("low", "high", "both")


@dataclass(frozen=True, slots=True)
class ButtonId:
    kind: IdKind
    table_id: str
    turn: int
    arg: str = ""
    session: int = 0
    """The table's session at its channel (``HandFacts.session``); 0: not said."""

    def encode(self) -> str:
        dated = f"{self.session}.{self.turn}" if self.session else str(self.turn)
        text = f"cf:{self.kind}:{self.table_id}:{dated}:{self.arg}"
        if len(text) > MAX_LEN or PATTERN.fullmatch(text) is None:
            raise ValueError(f"not a valid Chipfist custom_id: {text!r}")
        return text


MODAL = re.compile(
    rf"(?P<kind>cfm|cfs):(?P<table>{TABLE}):(?:(?P<session>[1-9]\d*)\.)?(?P<turn>\d+)"
)
"""A modal's custom_id: ``cfm`` (bet/raise) or ``cfs`` (stated hand), the table, and the
turn it was opened at, with the table's session before it as on buttons (R-20.95)."""


@dataclass(frozen=True, slots=True)
class ModalId:
    kind: Literal["cfm", "cfs"]
    table_id: str
    turn: int
    session: int = 0
    """The table's session at its channel; 0: not said (an older version's modal)."""

    def encode(self) -> str:
        dated = f"{self.session}.{self.turn}" if self.session else str(self.turn)
        text = f"{self.kind}:{self.table_id}:{dated}"
        if len(text) > MAX_LEN or MODAL.fullmatch(text) is None:
            raise ValueError(f"not a valid Chipfist modal custom_id: {text!r}")
        return text


def decode_modal(custom_id: str) -> ModalId | None:
    """The modal id, or None for a custom_id that is not one of ours."""
    m = MODAL.fullmatch(custom_id)
    if m is None:
        return None
    kind: Literal["cfm", "cfs"] = m["kind"]  # type: ignore[assignment]  # MODAL matches only these
    return ModalId(kind, m["table"], int(m["turn"]), int(m["session"] or 0))


TOURNEY = re.compile(r"cft:(?P<kind>reg|unreg):(?P<tournament>[A-Za-z0-9_.-]+)")
"""A tournament announcement's buttons: ``cft:reg|unreg:<tournament>``. The tournament is
in the custom_id, so the buttons work after a restart (R-19.61)."""


def tourney_button(kind: Literal["reg", "unreg"], tournament: str) -> str:
    text = f"cft:{kind}:{tournament}"
    if len(text) > MAX_LEN or TOURNEY.fullmatch(text) is None:
        raise ValueError(f"not a valid tournament custom_id: {text!r}")
    return text


def decode_tourney(custom_id: str) -> tuple[str, str] | None:
    """(kind, tournament) of an announcement's button, or None for any other id."""
    m = TOURNEY.fullmatch(custom_id)
    return None if m is None else (m["kind"], m["tournament"])


def decode(custom_id: str) -> ButtonId | None:
    """The button id, or None for a custom_id that is not ours."""
    m = PATTERN.fullmatch(custom_id)
    if m is None:
        return None
    kind: IdKind = m["kind"]  # type: ignore[assignment]  # PATTERN matches only IdKind words
    return ButtonId(kind, m["table"], int(m["turn"]), m["arg"], int(m["session"] or 0))
