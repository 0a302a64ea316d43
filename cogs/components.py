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
from bot.poker.messages import msg
from bot.table.text_actions import amount_words
from bot.table.view import ViewPhase, cards_words
from bot.words import Locale, render
from cogs.ids import ButtonId, ModalId
from cogs.words import say

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
    locale: Locale = "en",
    session: int = 0,
) -> discord.ui.View:
    """The table message's buttons. ``actions``: the player to act's legal actions, when
    known, so the buttons say what they do (Bring in 1) and an impossible one is left
    off (no Fold for a bring-in, R-3.5). ``declared_hands``: the showdown's Show may
    state the hand (R-9.3). ``session``: which of the channel's tables this is
    (``TableView.session``): the buttons dated by the turn carry it, so one of an
    earlier table acts on no later table's turn of the same number (R-20.95)."""
    view = discord.ui.View(timeout=None)

    def w(key: str, **params: str | int) -> str:
        return say(key, locale, **params)

    if phase == "showdown" and in_turn:
        # the player asked shows (stating his hand, where hands are
        # declared) or mucks; public, like the showdown itself.
        show = ButtonId("act", table_id, turn, "show", session)
        view.add_item(button(show, w("button.show"), _SHOW))
        if declared_hands:
            label = w("button.state")
            view.add_item(button(ButtonId("act", table_id, turn, "state", session), label, _STATE))
        muck = ButtonId("act", table_id, turn, "muck", session)
        view.add_item(button(muck, w("button.muck"), _MUCK))
    if phase == "declare" and in_turn:
        # declaring in turn is public; the same three fists, on the table.
        for item in _fists(table_id, turn, _DECLARE, locale, session):
            view.add_item(item)
    if phase == "guts" and in_turn:
        # sequential calls are public: the in/out buttons sit on the table.
        for item in _fists(table_id, turn, _GUTS, locale, session):
            view.add_item(item)
    if phase == "betting":
        label = w("button.call", n=to_call) if to_call else w("button.check")
        if "bring_in" in actions:
            label = w("button.bring_in", n=to_call)
        for arg in ("check_call", "bet_raise", "fold", "all_in"):
            if actions and arg in ("fold", "all_in") and arg not in actions:
                continue
            text = label if arg == "check_call" else w("button." + arg)
            bid = ButtonId("act", table_id, turn, arg, session)
            view.add_item(button(bid, text, _STYLES[arg]))
    cards = w("button.my_cards")
    view.add_item(button(ButtonId("show", table_id, 0, "cards"), cards, None, "🂠"))
    # When chat has scrolled the table away: re-post it at the bottom.
    view.add_item(button(ButtonId("bump", table_id, 0, "bump"), w("button.bump"), None, "⏬"))
    return sealed(view)


_SHOW = discord.ButtonStyle.success
_STATE = discord.ButtonStyle.primary
_MUCK = discord.ButtonStyle.danger
_DECLARE = ("low", "high", "both")
_GUTS = ("in", "out")


def _fists(
    table_id: str, turn: int, choices: tuple[str, ...], locale: Locale, session: int = 0
) -> list[discord.ui.Button[discord.ui.View]]:
    style = discord.ButtonStyle.primary
    return [
        button(
            ButtonId("dec", table_id, turn, a, session),
            say("button.fist." + a, locale),
            style,
            "✊",
        )
        for a in choices
    ]


def declare_buttons(
    table_id: str, turn: int, locale: Locale = "en", session: int = 0
) -> discord.ui.View:
    """R-13.2: three closed fists. The turn dates the prompt: it stays good while others
    commit, and is refused in a later deal (see play.on_button); ``session``, the table
    it was posted at, so it is refused at a later table of the channel (R-20.95)."""
    view = discord.ui.View(timeout=None)
    for item in _fists(table_id, turn, _DECLARE, locale, session):
        view.add_item(item)
    return sealed(view)


def guts_buttons(
    table_id: str, turn: int, locale: Locale = "en", session: int = 0
) -> discord.ui.View:
    """R-15.2: in or out, the same sealed components as the chip-fist declaration."""
    view = discord.ui.View(timeout=None)
    for item in _fists(table_id, turn, _GUTS, locale, session):
        view.add_item(item)
    return sealed(view)


def run_twice_buttons(
    table_id: str, turn: int, locale: Locale = "en", session: int = 0
) -> discord.ui.View:
    """R-20.1: yes (run the rest twice) or no (once), sent privately; dated by the turn
    and the table like the fists, so a click after the question is over is refused as
    stale."""
    view = discord.ui.View(timeout=None)
    styles = {"twice": discord.ButtonStyle.success, "once": discord.ButtonStyle.secondary}
    for arg, style in styles.items():
        label = say(f"home.button.{arg}", locale)
        view.add_item(button(ButtonId("dec", table_id, turn, arg, session), label, style))
    return sealed(view)


def bomb_buttons(
    table_id: str, locale: Locale = "en", *, propose: bool, deal: int = 0, session: int = 0
) -> discord.ui.View:
    """R-20.12: "Bomb pot?" (propose one for the next deal, undated), or the public
    vote's Yes and No under the proposal, dated by the deal it is for (``deal``) and the
    table's ``session`` at the channel, so a press on a settled proposal's post votes on
    no later one, nor on a later table's (R-20.83)."""
    view = discord.ui.View(timeout=None)
    args = ("bomb",) if propose else ("bomb_yes", "bomb_no")
    styles = {"bomb": None, "bomb_yes": discord.ButtonStyle.success, "bomb_no": None}
    words = {"bomb": "propose", "bomb_yes": "yes", "bomb_no": "no"}
    for arg in args:
        label = say("home.vote.button." + words[arg], locale)
        dated = 0 if propose else deal
        bid = ButtonId("dec", table_id, dated, arg, 0 if propose else session)
        view.add_item(button(bid, label, styles[arg], "💣"))
    return sealed(view)


def after_buttons(
    table_id: str, locale: Locale, after: list[str], hand: int = 0, session: int = 0
) -> discord.ui.View | None:
    """The buttons under a hand's end message: show the hand or one card of it (R-20.15:
    the table refuses, privately, whoever may not), the rabbit hunt (R-20.14) and the
    proposal of the next deal's bomb pot (R-20.62). Showing and hunting are dated by the
    ``hand`` the message ends and the table's ``session`` at the channel, so a press on
    an older end message acts on no later hand, nor on a later table's (R-20.77)."""
    if not after:
        return None
    view = discord.ui.View(timeout=None)
    if "show" in after:
        for arg, word in (("show_all", "all"), ("show_one", "one"), ("show_two", "two")):
            label = say("home.show_ask." + word, locale)
            bid = ButtonId("dec", table_id, hand, arg, session)
            view.add_item(button(bid, label, None, "👀"))
    if "rabbit" in after:
        label = say("home.rabbit_ask.button", locale)
        bid = ButtonId("dec", table_id, hand, "rabbit", session)
        view.add_item(button(bid, label, None, "🐇"))
    if "bomb" in after:
        label = say("home.vote.button.propose", locale)
        view.add_item(button(ButtonId("dec", table_id, 0, "bomb"), label, None, "💣"))
    return sealed(view)


def draw_menu(
    table_id: str,
    turn: int,
    cards: tuple[str, ...],
    draw_max: int,
    locale: Locale = "en",
    session: int = 0,
) -> discord.ui.View:
    """R-16.4: pick the cards to discard (none: stand pat). Only ever sent ephemerally
    or by DM, because its options are the player's own cards. Dated by the turn and the
    table's ``session`` (R-20.95)."""
    options = [discord.SelectOption(label=cards_words((c,)), value=c) for c in cards] or [
        discord.SelectOption(label=say("draw.no_cards", locale), value="none")
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=ButtonId("draw", table_id, turn, "", session).encode(),
            placeholder=say("draw.placeholder", locale),
            min_values=0,
            max_values=max(1, min(draw_max, len(options))),
            options=options,
        )
    )
    return sealed(view)


PLACEHOLDER_MAX = 100
"""Discord's limit on a text input's placeholder."""


def amount_placeholder(locale: Locale) -> str:
    """The raise modal's hint: a total, or the amount words of the player's language
    (each one a word the modal reads, ``bot.table.amounts``)."""
    said = render(msg("input.modal.placeholder", words=amount_words()), locale)
    return said[:PLACEHOLDER_MAX]


def raise_modal(
    table_id: str,
    turn: int,
    range_text: str,
    opening: bool,
    completing: bool = False,
    locale: Locale = "en",
    session: int = 0,
) -> discord.ui.Modal:
    """R-6.3: "raise to" or "raise by", with the legal range shown; quick words too. Its
    custom_id (``cfm:<table>:<session>.<turn>``, :class:`cogs.ids.ModalId`) is all the
    router needs to read a submission, so a modal opened before a restart still works
    after it, and one opened at an earlier table of the channel acts on no later one's
    turn (R-20.95)."""
    # A stud bring-in is completed, not raised: the modal says which.
    kind = "complete" if completing else "bet" if opening else "raise"
    title = say(f"modal.{kind}.title", locale)
    mid = ModalId("cfm", table_id, turn, session).encode()
    modal = discord.ui.Modal(title=title, custom_id=mid, timeout=None)
    modal.add_item(
        discord.ui.TextInput(
            label=say(f"modal.{kind}.to", locale, range=range_text)[:45],
            placeholder=amount_placeholder(locale),
            custom_id="to",
            required=False,
            max_length=20,
        )
    )
    modal.add_item(
        discord.ui.TextInput(
            label=say("modal.by.label", locale)[:45],
            placeholder=say("modal.by.placeholder", locale),
            custom_id="by",
            required=False,
            max_length=20,
        )
    )
    return sealed(modal)


def state_modal(
    table_id: str, turn: int, locale: Locale = "en", session: int = 0
) -> discord.ui.Modal:
    """R-9.3 declared hands: the five cards the player's hand stands for; his hand is
    shown with it. Its custom_id (``cfs:<table>:<session>.<turn>``) is all the router
    needs, so a modal opened before a restart still works after it (R-20.95)."""
    mid = ModalId("cfs", table_id, turn, session).encode()
    modal = discord.ui.Modal(title=say("modal.state.title", locale), custom_id=mid, timeout=None)
    modal.add_item(
        discord.ui.TextInput(
            label=say("modal.state.label", locale)[:45],
            placeholder="As Ad Ac Kd Kh",
            custom_id="cards",
            required=True,
            max_length=40,
        )
    )
    return sealed(modal)
