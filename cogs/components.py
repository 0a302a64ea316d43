"""Restart-proof buttons (``DynamicItem``) and the bet/raise modal.

A button's custom_id carries the table and the turn (:mod:`cogs.ids`), so after a
restart discord.py still routes the click here, and the table service refuses a click
from a past turn as stale. This module builds views and imports nothing that acts: a
click is handed on as a bot event (:data:`BUTTON_EVENT`, :data:`DRAW_EVENT`), which the
entry point (:mod:`cogs.app`) routes to :mod:`cogs.play`, so the imports point one way
(play -> components, never back).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.table.view import cards_words
from cogs.ids import ButtonId, decode

BUTTON_EVENT = "chipfist_button"
"""Dispatched with ``(interaction, ButtonId)`` for every Chipfist button click."""
DRAW_EVENT = "chipfist_draw"
"""Dispatched with ``(interaction, ButtonId, cards)`` for a discard-menu choice."""

_LABELS = {"bet_raise": "Bet / Raise", "fold": "Fold", "all_in": "All in"}
_STYLES = {
    "check_call": discord.ButtonStyle.success,
    "bet_raise": discord.ButtonStyle.primary,
    "fold": discord.ButtonStyle.danger,
    "all_in": discord.ButtonStyle.secondary,
}


class CfButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"cf:(act|dec|show|bump):.*"
):
    """Every Chipfist button; what it does is read from its custom_id."""

    def __init__(self, bid: ButtonId, label: str = "", style: Any = None, emoji: str | None = None):
        super().__init__(
            discord.ui.Button(
                label=label or bid.arg or bid.kind,
                custom_id=bid.encode(),
                style=style or discord.ButtonStyle.secondary,
                emoji=emoji,
            )
        )
        self.bid = bid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CfButton:
        bid = decode(item.custom_id or "")  # type: ignore[attr-defined]  # a Button or Select
        if bid is None:
            raise ValueError("not a Chipfist button")
        return cls(bid)

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.dispatch(BUTTON_EVENT, interaction, self.bid)


def action_buttons(
    table_id: str,
    turn: int,
    to_call: int,
    phase: str,
    *,
    in_turn: bool = False,
    actions: frozenset[str] = frozenset(),
) -> discord.ui.View:
    """The table message's buttons. ``actions``: the player to act's legal actions, when
    known, so the buttons say what they do (Bring in 1) and an impossible one is left
    off (no Fold for a bring-in, R-3.5)."""
    view = discord.ui.View(timeout=None)
    if phase == "declare" and in_turn:
        # declaring in turn is public; the same three fists, on the table.
        for item in declare_buttons(table_id, turn).children:
            view.add_item(item)
    if phase == "guts" and in_turn:
        # sequential calls are public: the in/out buttons sit on the table.
        for item in guts_buttons(table_id, turn).children:
            view.add_item(item)
    if phase == "betting":
        label = f"Call {to_call}" if to_call else "Check"
        if "bring_in" in actions:
            label = f"Bring in {to_call}"
        for arg in ("check_call", "bet_raise", "fold", "all_in"):
            if actions and arg in ("fold", "all_in") and arg not in actions:
                continue
            text = label if arg == "check_call" else _LABELS[arg]
            view.add_item(CfButton(ButtonId("act", table_id, turn, arg), text, _STYLES[arg]))
    view.add_item(CfButton(ButtonId("show", table_id, 0, "cards"), "Show my cards", None, "🂠"))
    # When chat has scrolled the table away: re-post it at the bottom.
    view.add_item(CfButton(ButtonId("bump", table_id, 0, "bump"), "Bump", None, "⏬"))
    return view


def declare_buttons(table_id: str, turn: int) -> discord.ui.View:
    """R-13.2: three closed fists. The turn dates the prompt: it stays good while others
    commit, and is refused in a later deal (see play.on_button)."""
    view = discord.ui.View(timeout=None)
    for arg, label in (
        ("low", "Low (no chip)"),
        ("high", "High (one chip)"),
        ("both", "Both (two chips)"),
    ):
        view.add_item(
            CfButton(ButtonId("dec", table_id, turn, arg), label, discord.ButtonStyle.primary, "✊")
        )
    return view


def guts_buttons(table_id: str, turn: int) -> discord.ui.View:
    """R-15.2: in or out, the same sealed components as the chip-fist declaration."""
    view = discord.ui.View(timeout=None)
    for arg, label in (("in", "In (stay)"), ("out", "Out (drop)")):
        view.add_item(
            CfButton(ButtonId("dec", table_id, turn, arg), label, discord.ButtonStyle.primary, "✊")
        )
    return view


class DrawSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"cf:draw:(?P<t>\d+):(?P<n>\d+):"
):
    """R-16.4: pick the cards to discard (none: stand pat). Only ever sent ephemerally
    or by DM, because its options are the player's own cards."""

    def __init__(self, bid: ButtonId, cards: tuple[str, ...] = (), draw_max: int = 0) -> None:
        options = [discord.SelectOption(label=cards_words((c,)), value=c) for c in cards] or [
            discord.SelectOption(label="(no cards)", value="none")
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=bid.encode(),
                placeholder="Cards to discard (pick none to stand pat)",
                min_values=0,
                max_values=max(1, min(draw_max, len(options))),
                options=options,
            )
        )
        self.bid = bid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DrawSelect:
        bid = decode(item.custom_id or "")  # type: ignore[attr-defined]  # a Button or Select
        if bid is None:
            raise ValueError("not a Chipfist select")
        return cls(bid)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        cards = tuple(v for v in data.get("values", ()) if v != "none")
        interaction.client.dispatch(DRAW_EVENT, interaction, self.bid, cards)


def draw_menu(table_id: str, turn: int, cards: tuple[str, ...], draw_max: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DrawSelect(ButtonId("draw", table_id, turn, ""), cards, draw_max))
    return view


class RaiseModal(discord.ui.Modal):
    """R-6.3: "raise to" or "raise by", with the legal range shown; quick words too."""

    def __init__(
        self, table_id: str, turn: int, range_text: str, opening: bool, completing: bool = False
    ) -> None:
        # A stud bring-in is completed, not raised: the modal says which.
        title = "Complete" if completing else "Bet" if opening else "Raise"
        super().__init__(title=title, custom_id=f"cfm:{table_id}:{turn}", timeout=900)
        self.table_id, self.turn, self.opening = table_id, turn, opening
        word = "Complete to" if completing else "Bet" if opening else "Raise to"
        self.to: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=f"{word} (legal: {range_text})"[:45],
            placeholder="a total, or: min, max, half, pot, all in",
            custom_id="to",
            required=False,
            max_length=20,
        )
        self.by: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="…or raise BY (on top of the call)",
            placeholder="leave empty to use the total above",
            custom_id="by",
            required=False,
            max_length=20,
        )
        self.add_item(self.to)
        self.add_item(self.by)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        # Handled by ``play.on_modal_interaction`` from the raw payload instead, so a
        # modal opened before a restart still works after it.
        return None
