"""The table's components as data: buttons, the discard select and the bet/raise modal.

Pure builders: each returns a ``discord.ui.View`` (or ``Modal``) whose items carry a
custom_id and no callback, and which is *sealed* (stopped) so discord.py neither keeps
nor dispatches it. Every click and submission is read from its payload by the one
inbound router (:mod:`cogs.router`): a button's custom_id carries the table and the turn
(:mod:`cogs.ids`), so clicks still work after a restart, and the table service refuses
one from a past turn as stale.
"""

from __future__ import annotations

from typing import TypeVar

import discord

from bot.poker.legal import ActionName
from bot.table.view import ViewPhase, cards_words
from cogs.ids import ButtonId

V = TypeVar("V", bound=discord.ui.view.BaseView)


def sealed(view: V) -> V:
    """Stop ``view`` before it is sent: discord.py stores only unfinished views, so this
    one is only data (the router answers its clicks)."""
    view.stop()
    return view


def button(
    bid: ButtonId,
    label: str = "",
    style: discord.ButtonStyle | None = None,
    emoji: str | None = None,
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(
        label=label or bid.arg or bid.kind,
        custom_id=bid.encode(),
        style=style or discord.ButtonStyle.secondary,
        emoji=emoji,
    )


_LABELS = {"bet_raise": "Bet / Raise", "fold": "Fold", "all_in": "All in"}
_STYLES = {
    "check_call": discord.ButtonStyle.success,
    "bet_raise": discord.ButtonStyle.primary,
    "fold": discord.ButtonStyle.danger,
    "all_in": discord.ButtonStyle.secondary,
}


def action_buttons(
    table_id: str,
    turn: int,
    to_call: int,
    phase: ViewPhase,
    *,
    in_turn: bool = False,
    actions: frozenset[ActionName] = frozenset(),
    declared_hands: bool = False,
) -> discord.ui.View:
    """The table message's buttons. ``actions``: the player to act's legal actions, when
    known, so the buttons say what they do (Bring in 1) and an impossible one is left
    off (no Fold for a bring-in, R-3.5). ``declared_hands``: the showdown's Show may
    state the hand (R-9.3)."""
    view = discord.ui.View(timeout=None)
    if phase == "showdown" and in_turn:
        # the player asked shows (stating his hand, where hands are
        # declared) or mucks; public, like the showdown itself.
        view.add_item(button(ButtonId("act", table_id, turn, "show"), "Show", _SHOW))
        if declared_hands:
            label = "State my hand"
            view.add_item(button(ButtonId("act", table_id, turn, "state"), label, _STATE))
        view.add_item(button(ButtonId("act", table_id, turn, "muck"), "Muck", _MUCK))
    if phase == "declare" and in_turn:
        # declaring in turn is public; the same three fists, on the table.
        for item in _fists(table_id, turn, _DECLARE):
            view.add_item(item)
    if phase == "guts" and in_turn:
        # sequential calls are public: the in/out buttons sit on the table.
        for item in _fists(table_id, turn, _GUTS):
            view.add_item(item)
    if phase == "betting":
        label = f"Call {to_call}" if to_call else "Check"
        if "bring_in" in actions:
            label = f"Bring in {to_call}"
        for arg in ("check_call", "bet_raise", "fold", "all_in"):
            if actions and arg in ("fold", "all_in") and arg not in actions:
                continue
            text = label if arg == "check_call" else _LABELS[arg]
            view.add_item(button(ButtonId("act", table_id, turn, arg), text, _STYLES[arg]))
    view.add_item(button(ButtonId("show", table_id, 0, "cards"), "Show my cards", None, "🂠"))
    # When chat has scrolled the table away: re-post it at the bottom.
    view.add_item(button(ButtonId("bump", table_id, 0, "bump"), "Bump", None, "⏬"))
    return sealed(view)


_SHOW = discord.ButtonStyle.success
_STATE = discord.ButtonStyle.primary
_MUCK = discord.ButtonStyle.danger
_DECLARE = (("low", "Low (no chip)"), ("high", "High (one chip)"), ("both", "Both (two chips)"))
_GUTS = (("in", "In (stay)"), ("out", "Out (drop)"))


def _fists(
    table_id: str, turn: int, choices: tuple[tuple[str, str], ...]
) -> list[discord.ui.Button[discord.ui.View]]:
    style = discord.ButtonStyle.primary
    return [button(ButtonId("dec", table_id, turn, a), label, style, "✊") for a, label in choices]


def declare_buttons(table_id: str, turn: int) -> discord.ui.View:
    """R-13.2: three closed fists. The turn dates the prompt: it stays good while others
    commit, and is refused in a later deal (see play.on_button)."""
    view = discord.ui.View(timeout=None)
    for item in _fists(table_id, turn, _DECLARE):
        view.add_item(item)
    return sealed(view)


def guts_buttons(table_id: str, turn: int) -> discord.ui.View:
    """R-15.2: in or out, the same sealed components as the chip-fist declaration."""
    view = discord.ui.View(timeout=None)
    for item in _fists(table_id, turn, _GUTS):
        view.add_item(item)
    return sealed(view)


def draw_menu(table_id: str, turn: int, cards: tuple[str, ...], draw_max: int) -> discord.ui.View:
    """R-16.4: pick the cards to discard (none: stand pat). Only ever sent ephemerally
    or by DM, because its options are the player's own cards."""
    options = [discord.SelectOption(label=cards_words((c,)), value=c) for c in cards] or [
        discord.SelectOption(label="(no cards)", value="none")
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=ButtonId("draw", table_id, turn, "").encode(),
            placeholder="Cards to discard (pick none to stand pat)",
            min_values=0,
            max_values=max(1, min(draw_max, len(options))),
            options=options,
        )
    )
    return sealed(view)


def raise_modal(
    table_id: str, turn: int, range_text: str, opening: bool, completing: bool = False
) -> discord.ui.Modal:
    """R-6.3: "raise to" or "raise by", with the legal range shown; quick words too. Its
    custom_id (``cfm:<table>:<turn>``) is all the router needs to read a submission, so a
    modal opened before a restart still works after it."""
    # A stud bring-in is completed, not raised: the modal says which.
    title = "Complete" if completing else "Bet" if opening else "Raise"
    modal = discord.ui.Modal(title=title, custom_id=f"cfm:{table_id}:{turn}", timeout=None)
    word = "Complete to" if completing else "Bet" if opening else "Raise to"
    modal.add_item(
        discord.ui.TextInput(
            label=f"{word} (legal: {range_text})"[:45],
            placeholder="a total, or: min, max, half, pot, all in",
            custom_id="to",
            required=False,
            max_length=20,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            label="…or raise BY (on top of the call)",
            placeholder="leave empty to use the total above",
            custom_id="by",
            required=False,
            max_length=20,
        )
    )
    return sealed(modal)


def state_modal(table_id: str, turn: int) -> discord.ui.Modal:
    """R-9.3 declared hands: the five cards the player's hand stands for; his hand is
    shown with it. Its custom_id (``cfs:<table>:<turn>``) is all the router needs, so a
    modal opened before a restart still works after it."""
    modal = discord.ui.Modal(
        title="State your hand", custom_id=f"cfs:{table_id}:{turn}", timeout=None
    )
    modal.add_item(
        discord.ui.TextInput(
            label="Five cards (a wild card as its card)",
            placeholder="As Ad Ac Kd Kh",
            custom_id="cards",
            required=True,
            max_length=40,
        )
    )
    return sealed(modal)
