"""Acting at the table from a button, a modal or a slash command.

One path for every action: find the table, call the service with the interaction id as
the idempotency key and the turn the button was made for, then answer. A refusal (not
your turn, stale button, out of range) goes to the actor only, ephemerally. An accepted
click answers with UPDATE_MESSAGE: the table edit is the response.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import discord

from bot.poker.legal import Legal
from bot.poker.messages import Rule
from bot.poker.rules import community_game
from bot.poker.variants import get_variant
from bot.table.actor import Actor
from bot.table.table import Table
from bot.table.text_actions import (
    ActionRequest,
    ParseError,
    RequestKind,
    declare_choice,
    parse_stated,
)
from bot.table.text_actions import parse_raise as read_raise
from bot.table.view import cards_words
from bot.words import Locale, render
from cogs import errors, ops
from cogs.bot import ChipfistBot
from cogs.channel import TableChannel, window_left
from cogs.components import (
    bomb_buttons,
    declare_buttons,
    draw_menu,
    guts_buttons,
    raise_modal,
    run_twice_buttons,
    state_modal,
)
from cogs.ids import ButtonId, ModalId
from cogs.moderation import Moderation
from cogs.presenter import _render_cards
from cogs.words import error_text, of, outcome_text, say

SIT_HINT = "play.sit_hint"
"""Said to a user who is not seated at the table he acts on."""


Interaction = discord.Interaction[ChipfistBot]


def actor(interaction: Interaction) -> Actor:
    """Who issues a command: the user, and whether he may manage the table (Manage
    Channels where he runs it; never from a DM). It goes with each table command."""
    manage = interaction.guild_id is not None and interaction.permissions.manage_channels
    return Actor(str(interaction.user.id), may_manage=manage)


async def on_button(interaction: Interaction, bid: ButtonId) -> None:
    try:
        if bid.kind == "show":
            await show_cards(interaction, bid.table_id)
        elif bid.kind == "dec" and bid.arg in _SHOW_WHICH:
            which = _SHOW_WHICH[bid.arg]
            await show_choice(interaction, bid.table_id, which, bid.turn, bid.session)
        elif bid.kind == "dec" and bid.arg == "rabbit":
            await rabbit(interaction, bid.table_id, bid.turn, bid.session)
        elif bid.kind == "dec" and bid.arg in ("bomb", "bomb_yes", "bomb_no"):
            await bomb_vote(interaction, bid.table_id, bid.arg, bid.turn, bid.session)
        elif bid.kind == "dec" and bid.arg in ("twice", "once"):
            # the private run-it-twice answer, dated by its prompt's turn.
            req = ActionRequest("run_twice_yes" if bid.arg == "twice" else "run_twice_no")
            await act(
                interaction,
                bid.table_id,
                req,
                turn=None,
                declare=True,
                prompt=bid.turn,
                session=bid.session,
            )
        elif bid.kind == "dec" and bid.arg in ("in", "out"):
            req = ActionRequest("guts_in" if bid.arg == "in" else "guts_out")
            await act(
                interaction,
                bid.table_id,
                req,
                turn=None,
                declare=True,
                prompt=bid.turn,
                session=bid.session,
            )
        elif bid.kind == "dec":
            # a "dec" button's arg is low, high or both (cogs.components.declare_buttons)
            choice = declare_choice(bid.arg)
            if choice is None:
                await ops.reply(interaction, say("play.not_declaration", of(interaction)))
                return
            req = ActionRequest("declare", choice=choice)
            await act(
                interaction,
                bid.table_id,
                req,
                turn=None,
                declare=True,
                prompt=bid.turn,
                session=bid.session,
            )
        elif bid.kind == "bump":
            presenter = interaction.client.presenter
            wait = presenter.bump_wait(bid.table_id)
            if wait > 0:
                # A cooldown per table: anyone may bump, but not flood the channel.
                await ops.reply(interaction, say("play.bump_wait", of(interaction), n=wait))
                return
            # Answer first (ephemerally), then re-post: the clicked message goes away.
            await ops.reply(interaction, say("play.bumped", of(interaction)))
            await presenter.refresh(bid.table_id, repost=True)
        else:
            await _act_button(interaction, bid)
    except Exception as exc:
        await errors.report(interaction, exc)


async def _act_button(interaction: Interaction, bid: ButtonId) -> None:
    lang = of(interaction)
    table = interaction.client.table(bid.table_id)
    if table is None:
        await ops.reply(interaction, say("play.table_gone", lang))
        return
    user = str(interaction.user.id)
    if not interaction.client.tables.is_seated(table.table_id, user):
        await ops.reply(interaction, say(SIT_HINT, lang))
        return
    view = table.snapshot(user)
    legal = view.legal
    if bid.arg == "bet_raise":
        if legal is not None and legal.min_to is not None and legal.max_to is not None:
            rng = (
                f"{legal.min_to}–{legal.max_to}"
                if legal.min_to != legal.max_to
                else str(legal.min_to)
            )
            # A modal must be the first response: open it now, work after submit.
            completing = "complete" in legal.actions
            modal = raise_modal(
                bid.table_id, bid.turn, rng, legal.opening, completing, lang, bid.session
            )
            await ops.open_modal(interaction, modal)
            return
        if legal is not None:
            # Say why not (capped, not reopened, no openers...), then what is allowed.
            # Why not (R-5.7 capped...) in the clicker's language, from the view's message.
            said = view.no_raise_said
            why = render(said, lang) if said is not None else say("play.no_raise", lang)
            await ops.reply(interaction, say("play.why_may", lang, why=why, may=may(legal, lang)))
            return
        req = ActionRequest("raise_to", 0)  # the service answers "not your turn"/stale
    elif bid.arg == "check_call":
        # Which word the button means is read from the engine's legal actions.
        acts = legal.actions if legal is not None else frozenset()
        word: RequestKind = next((w for w in _CHECK_CALL if w in acts), "call")
        req = ActionRequest(word)
    elif bid.arg == "fold":
        req = ActionRequest("fold")
    elif bid.arg in ("show", "muck"):
        req = ActionRequest("show" if bid.arg == "show" else "muck")
    elif bid.arg == "state":
        if legal is None or "show" not in legal.actions:
            # Not his to show now: said privately, nothing opened (the table says whose).
            await ops.reply(interaction, _no_show(view.to_act, legal, lang))
            return
        # A modal must be the first response: open it now, act on its submission.
        modal = state_modal(bid.table_id, bid.turn, lang, bid.session)
        await ops.open_modal(interaction, modal)
        return
    else:
        req = ActionRequest("all_in")
    await act(interaction, bid.table_id, req, turn=bid.turn, edit=True, session=bid.session)


def may(legal: Legal, locale: Locale) -> str:
    """The player's options in his language (``Legal.options``)."""
    return render(legal.options(), locale)


def _no_show(to_act: int | None, legal: Legal | None, locale: Locale) -> str:
    if legal is not None:
        return say("play.cannot_show", locale, may=may(legal, locale))
    if to_act is not None:
        return say("play.not_your_show", locale)
    return say("play.no_hand_to_show", locale)


async def on_state_submit(interaction: Interaction, mid: ModalId, text: str) -> None:
    """The stated hand (R-9.3): shown with the statement; refused privately, with what
    to type, when it is not five cards or his cards do not hold it."""
    try:
        try:
            cards = parse_stated(text)
        except ParseError as exc:
            await ops.reply(interaction, error_text(exc, of(interaction)))
            return
        req = ActionRequest("show", cards=cards)
        await act(interaction, mid.table_id, req, turn=mid.turn, edit=True, session=mid.session)
    except Exception as exc:
        await errors.report(interaction, exc)


_CHECK_CALL: tuple[RequestKind, ...] = ("check", "call", "bring_in")
"""What the Check/Call button means, in the order the engine's actions are read."""


def parse_raise(
    to_text: str, by_text: str, opening: bool, locale: Locale = "en"
) -> ActionRequest | str:
    """The modal's fields as a request (read by :func:`text_actions.parse_raise`, the
    words and rules of typed actions), or a sentence in ``locale`` saying what to type.
    ``min``, ``max``, ``pot``... stay named: the table sizes them from the player's legal
    range, as for typed actions (R-5: ``max`` is all in only in no limit or for a short
    stack; capped, it says why not); a number is never adjusted (R-6.4)."""
    try:
        return read_raise(to_text, by_text, opening)
    except ParseError as exc:
        return error_text(exc, locale)


async def on_raise_submit(
    interaction: Interaction, mid: ModalId, to_text: str, by_text: str
) -> None:
    """The bet/raise modal's amount, for the turn and table it was opened at (R-20.95)."""
    table_id = mid.table_id
    try:
        lang = of(interaction)
        table = interaction.client.table(table_id)
        if table is None:
            await ops.reply(interaction, say("play.table_gone", lang))
            return
        view = table.snapshot(str(interaction.user.id))
        legal = view.legal
        req = parse_raise(to_text, by_text, legal is not None and legal.opening, lang)
        if isinstance(req, str):
            extra = say("play.legal", lang, may=may(legal, lang)) if legal is not None else ""
            await ops.reply(interaction, req + extra)
            return
        await act(interaction, table_id, req, turn=mid.turn, edit=True, session=mid.session)
    except Exception as exc:
        await errors.report(interaction, exc)


async def act(
    interaction: Interaction,
    table_id: str,
    req: ActionRequest,
    *,
    turn: int | None,
    edit: bool = False,
    declare: bool = False,
    prompt: int | None = None,
    session: int | None = None,
) -> None:
    """``turn``/``prompt``: the turn a button was made for; ``session``: which of the
    channel's tables it was posted at (0: a button that does not say, R-20.96; None: no
    button, a typed command acts at the table as it is, R-20.95)."""
    bot = interaction.client
    lang = of(interaction)
    table = bot.table(table_id)
    if table is None:
        await ops.reply(interaction, say("play.no_table", lang))
        return
    user = str(interaction.user.id)
    if not interaction.client.tables.is_seated(table.table_id, user):
        await ops.reply(interaction, say(SIT_HINT, lang))
        return
    channel = bot.presenter.channel(table_id)
    started = time.perf_counter()
    # Acted on in time, or acknowledged before Discord's window closes (issue 15).
    watch = Watch.start(interaction)
    try:
        async with channel.answering():
            try:
                outcome = await table.act(
                    user,
                    req,
                    key=f"i{interaction.id}",
                    turn=turn,
                    prompt_turn=prompt,
                    session=session,
                )
            finally:
                acknowledged = await watch.stop()
            if not outcome.ok:
                await ops.reply(interaction, outcome_text(outcome.msg, lang))
                return
            bot.presenter.acted(table_id, user)  # watching the table: nudged later
            if acknowledged and edit:
                channel.schedule_refresh()  # the table message shows it, by its refresh
                return
            if declare:
                # Confirmed privately; final. The DM's buttons go away.
                if req.kind in ("run_twice_yes", "run_twice_no"):
                    # his own answer, to him alone; final.
                    yes = req.kind == "run_twice_yes"
                    text = say("home.rit.you_agree" if yes else "home.rit.you_decline", lang)
                elif req.kind in ("guts_in", "guts_out"):
                    said = say("play.guts." + req.kind, lang)
                    text = "✊ " + say("play.guts_final", lang, said=said, rule=Rule("R-15.2"))
                else:
                    choice = say(f"play.choice.{req.choice}", lang)
                    text = "✊ " + say("play.fist_final", lang, choice=choice)
                if (
                    interaction.message is not None
                    and interaction.guild_id is None
                    and not acknowledged
                ):
                    await interaction.response.edit_message(content=text, view=None)
                else:
                    await ops.reply(interaction, text)
                return
            # A click on the table message answers with the table message itself.
            if edit and await channel.show(table.snapshot(None), via=interaction):
                if channel.no_send:
                    # Nothing can be posted there: the clicker hears why, once.
                    moderation = bot.get_cog("Moderation")
                    if isinstance(moderation, Moderation):
                        await moderation.ephemeral_word(interaction)
                return
            await ops.reply(interaction, outcome_text(outcome.msg, lang))
    finally:
        bot.observe_action(time.perf_counter() - started)  # the metrics' action latency


class Watch:
    """Acknowledges an interaction (``ops.acknowledge``) if the table has not acted on it
    within ``after`` seconds (the store slow, the table busy), so the player is never
    told "This interaction failed" while the action is still being made."""

    @classmethod
    def start(cls, interaction: Interaction) -> Watch:
        """A watch up to ``TableChannel.answer_within`` after the interaction was made."""
        return cls(interaction, window_left(interaction, TableChannel.answer_within))

    def __init__(self, interaction: Interaction, after: float) -> None:
        self.interaction = interaction
        self.acknowledged = False
        # Never at once: an id's time is Discord's clock, ours may run ahead of it.
        self._task = asyncio.create_task(self._run(max(after, 0.25)))

    async def _run(self, after: float) -> None:
        await asyncio.sleep(after)
        self.acknowledged = True  # before the request: the answer must not race it
        await ops.acknowledge(self.interaction)

    async def stop(self) -> bool:
        """No acknowledgement from now on; True if it was sent (waited for, so that the
        answer that follows sees the interaction answered and goes as a follow-up)."""
        if not self.acknowledged:
            self._task.cancel()
            return False
        with contextlib.suppress(Exception):
            await asyncio.shield(self._task)
        return True


async def _table_or_say(interaction: Interaction, table_id: str, lang: Locale) -> Table | None:
    """The button's table, or None after telling the clicker it is gone."""
    table = interaction.client.table(table_id)
    if table is None:
        await ops.reply(interaction, say("play.no_table", lang))
    return table


_SHOW_WHICH = {"show_all": "all", "show_one": "1", "show_two": "2"}
"""R-20.15: the show-by-choice buttons' args, as the table's choices."""


async def show_choice(
    interaction: Interaction, table_id: str, which: str, hand: int = 0, session: int = 0
) -> None:
    """R-20.15: show the last hand (``all``) or one card (``1``, ``2``) to the table;
    ``hand``, ``session``: the hand and table of the end message pressed (0: not said)."""
    lang = of(interaction)
    table = await _table_or_say(interaction, table_id, lang)
    if table is None:
        return
    user = str(interaction.user.id)
    key = f"i{interaction.id}"
    outcome = await table.show_by_choice(user, which, key=key, for_hand=hand, session=session)
    await ops.reply(interaction, outcome_text(outcome.msg, lang))


async def rabbit(interaction: Interaction, table_id: str, hand: int = 0, session: int = 0) -> None:
    """R-20.14: the rabbit hunt, shown to the table; a refusal is answered privately.
    ``hand``, ``session``: the hand and table of the end message pressed (0: not said)."""
    lang = of(interaction)
    table = await _table_or_say(interaction, table_id, lang)
    if table is None:
        return
    user, key = str(interaction.user.id), f"i{interaction.id}"
    outcome = await table.rabbit(user, key=key, for_hand=hand, session=session)
    await ops.reply(interaction, outcome_text(outcome.msg, lang))


async def bomb_vote(
    interaction: Interaction, table_id: str, arg: str, deal: int = 0, session: int = 0
) -> None:
    """R-20.12: propose a bomb pot (``bomb``) or vote on the open one; answered
    privately, the table says it in public. ``deal``, ``session``: the deal and the
    table the pressed vote is for (0: not said)."""
    lang = of(interaction)
    table = await _table_or_say(interaction, table_id, lang)
    if table is None:
        return
    user = str(interaction.user.id)
    if not interaction.client.tables.is_seated(table.table_id, user):
        await ops.reply(interaction, say(SIT_HINT, lang))
        return
    agree = None if arg == "bomb" else arg == "bomb_yes"
    key = f"i{interaction.id}"
    outcome = await table.bomb_vote(user, agree, key=key, deal=deal, session=session)
    await ops.reply(interaction, outcome_text(outcome.msg, lang))


async def show_cards(interaction: Interaction, table_id: str) -> None:
    """A fresh ephemeral every press (an ephemeral can be edited only for 15 minutes)."""
    lang = of(interaction)
    table = interaction.client.table(table_id)
    if table is None:
        await ops.reply(interaction, say("play.no_table_here", lang))
        return
    user = str(interaction.user.id)
    view = table.snapshot(user)
    seat = next((s for s in view.seats if s.user_id == user), None)
    if seat is None:
        await ops.reply(interaction, say(SIT_HINT, lang))
        return
    cards = tuple(c for c in seat.cards if c != "??")
    if not cards:
        # between hands too, a board game's player may propose the next
        # deal's bomb pot (the table refuses, privately, whoever may not).
        text, offer = say("play.no_cards", lang), None
        if view.phase not in ("closed", "halted") and community_game(get_variant(view.variant)):
            text += "\n" + say("home.vote.offer", lang, rule=Rule("R-20.12"))
            offer = bomb_buttons(table_id, lang, propose=True)
        await ops.reply(interaction, text, view=offer)
        return
    image = None
    try:
        caption = say("play.your_cards.caption", lang)
        image = await asyncio.wait_for(_render_cards(cards, caption, lang), 1.5)
    except TimeoutError:
        image = None
    buttons = None
    if view.legal is not None and "declare" in view.legal.actions:
        buttons = declare_buttons(table_id, view.turn, lang, view.session)
    elif view.legal is not None and "guts" in view.legal.actions:
        buttons = guts_buttons(table_id, view.turn, lang, view.session)
    elif view.legal is not None and "run_twice" in view.legal.actions:
        buttons = run_twice_buttons(table_id, view.turn, lang, view.session)
    elif community_game(get_variant(view.variant)):
        buttons = bomb_buttons(table_id, lang, propose=True)  # a board game
    elif view.legal is not None and "draw" in view.legal.actions:
        draw_max = view.legal.draw_max
        buttons = draw_menu(table_id, view.turn, cards, draw_max, lang, view.session)
    extra = "\n" + say("play.you_may", lang, may=may(view.legal, lang)) if view.legal else ""
    # the joker reads Joker
    text = say("play.your_cards", lang, cards=cards_words(cards)) + extra
    await ops.reply(interaction, text, image=image, view=buttons)


async def on_draw(interaction: Interaction, bid: ButtonId, cards: tuple[str, ...]) -> None:
    """The discard menu (ephemeral): the draw is one action with its cards (R-16.4)."""
    try:
        req = ActionRequest("draw", cards=cards)
        await act(interaction, bid.table_id, req, turn=bid.turn, session=bid.session)
    except Exception as exc:
        await errors.report(interaction, exc)
