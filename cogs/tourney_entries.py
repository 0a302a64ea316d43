"""Rebuys and the add-on on Discord (R-19.91): ``/tournament rebuy`` and ``/tournament
addon``, and the Rebuy / Add-on buttons of a tournament's status board while they are
sold. Each purchase is the director's to grant (:meth:`Runner.rebuy`); a refusal is
answered privately with his reason and changes nothing. One asked during the buyer's
hand is queued (:mod:`bot.tourney_run.queue`) and made when the hand is over; he is
told then by DM (R-19.66). A player busted while a rebuy is sold to him (R-19.47) is
asked by DM, with Rebuy and I'm out buttons that answer that wait only (R-19.48).

A command counts once per interaction (a retried delivery buys nothing more); a button
counts once per player (:func:`bot.tourney_run.buying.click_key`): a double click buys
once. The buttons carry the purchases made when they were drawn, so those drawn anew
after a purchase make a new request.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

import discord

from bot.poker.messages import Chips, Count, Msg, Name, msg
from bot.tournament.director import Decision, State
from bot.tournament.log import Waiting
from bot.tourney_run import queue
from bot.tourney_run.buying import (
    addon_open,
    click_key,
    offer,
    rebuys_open,
    reentry_open,
    seconds_left,
)
from bot.tourney_run.driver import Driver
from bot.tourney_run.entrants import player_of
from bot.tourney_run.runner import Runner
from bot.tourney_run.titles import event_of
from bot.words import Locale, render
from cogs import names, ops
from cogs.components import sealed
from cogs.ids import tourney_button
from cogs.presenter import DiscordPresenter

Kind = Literal["rebuy", "addon"]
Answer = Literal["rebuy", "out"]
WAIT = re.compile(r"cfw:(?P<kind>rebuy|out):(?P<tournament>[A-Za-z0-9_.-]+):(?P<index>\d+)")
"""A busted player's DM buttons: ``cfw:rebuy|out:<tournament>:<n>``, ``n`` the wait's
place among the tournament's waits (the runner's ``waits``), so a click answers that
wait only: once it is over (answered, run out, or a later bust's) the click is stale."""
ENTRY = re.compile(r"cfe:(?P<kind>rebuy|addon):(?P<tournament>[A-Za-z0-9_.-]+):(?P<offer>\d+)")
"""A status board's purchase buttons: ``cfe:rebuy|addon:<tournament>:<offer>`` (the
tournament in the custom_id, so the buttons work after a restart; the offer, the
purchases made when it was drawn, so the clicks of one button count once)."""
MAX_LEN = 100


def entry_button(kind: Kind, tournament: str, offered: int) -> str:
    text = f"cfe:{kind}:{tournament}:{offered}"
    if len(text) > MAX_LEN or ENTRY.fullmatch(text) is None:
        raise ValueError(f"not a valid purchase custom_id: {text!r}")
    return text


def decode_entry(custom_id: str) -> tuple[Kind, str, int] | None:
    """(kind, tournament, offer) of a purchase button, or None for any other id."""
    m = ENTRY.fullmatch(custom_id)
    if m is None:
        return None
    kind: Kind = "addon" if m["kind"] == "addon" else "rebuy"
    return kind, m["tournament"], int(m["offer"])


def wait_button(kind: Answer, tournament: str, index: int) -> str:
    text = f"cfw:{kind}:{tournament}:{index}"
    if len(text) > MAX_LEN or WAIT.fullmatch(text) is None:
        raise ValueError(f"not a valid rebuy answer custom_id: {text!r}")
    return text


def decode_wait(custom_id: str) -> tuple[Answer, str, int] | None:
    """(answer, tournament, wait index) of a busted player's DM button, or None."""
    m = WAIT.fullmatch(custom_id)
    if m is None:
        return None
    kind: Answer = "out" if m["kind"] == "out" else "rebuy"
    return kind, m["tournament"], int(m["index"])


def wait_dm(
    state: State,
    tournament: str,
    wait: Waiting,
    index: int,
    lang: Locale,
    now: float,
    *,
    event: Name | Msg,
) -> tuple[str, discord.ui.View]:
    """The DM asking a busted player whether he rebuys (R-19.48): the chips, the
    price, the seconds left, and the Rebuy and I'm out buttons of this wait; the
    tournament named by ``event`` (R-19.105)."""
    text = render(
        msg(
            "entries.rebuy_offer",
            event=_inert(event),
            amount=Chips(state.config.stack),
            price=Chips(state.config.prize_part),
            count=Count(seconds_left(wait, now)),
        ),
        lang,
    )
    view = discord.ui.View(timeout=None)
    answers: tuple[tuple[Answer, str, discord.ButtonStyle], ...] = (
        ("rebuy", "entries.button.rebuy", discord.ButtonStyle.success),
        ("out", "entries.button.decline", discord.ButtonStyle.secondary),
    )
    for kind, key, style in answers:
        view.add_item(
            discord.ui.Button(
                label=render(msg(key), lang),
                custom_id=wait_button(kind, tournament, index),
                style=style,
            )
        )
    return text, sealed(view)


def buy_view(state: State, tournament: str, lang: Locale) -> discord.ui.View | None:
    """The board's buttons: Rebuy while rebuys are sold, Add-on while it is."""
    shown: list[tuple[Kind, str]] = []
    if rebuys_open(state):
        shown.append(("rebuy", "entries.button.rebuy"))
    if addon_open(state):
        shown.append(("addon", "entries.button.addon"))
    if not shown:
        return None
    view = discord.ui.View(timeout=None)
    for kind, key in shown:
        view.add_item(
            discord.ui.Button(
                label=render(msg(key), lang),
                custom_id=entry_button(kind, tournament, offer(state)),
                style=discord.ButtonStyle.primary,
            )
        )
    return sealed(view)


def _inert(event: Name | Msg) -> Name | Msg:
    """The tournament's name as Discord's markdown shows it as written (R-1.12)."""
    return Name(names.escape(event.text)) if isinstance(event, Name) else event


def out_dm(
    state: State, tournament: str, player: str, lang: Locale, *, event: Name | Msg
) -> tuple[str, discord.ui.View | None]:
    """The DM telling ``player`` his entry is out: with a Re-enter button (the
    announcement's Register, R-19.61) while he may re-enter; the tournament named by
    ``event`` (R-19.105)."""
    if not reentry_open(state, player):
        return render(msg("entries.out", event=_inert(event)), lang), None
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=render(msg("entries.button.reenter"), lang),
            custom_id=tourney_button("reg", tournament),
            style=discord.ButtonStyle.success,
        )
    )
    return render(msg("entries.out_reenter", event=_inert(event)), lang), sealed(view)


def answer(decision: Decision, lang: Locale) -> str:
    """The buyer's private answer: the director's refusal, what he bought, or that this
    click was already counted."""
    if decision.refusal is not None:
        return render(decision.refusal, lang)
    if not decision.notices:
        return render(msg("entries.counted"), lang)
    return "\n".join(render(m, lang) for m in decision.notices[:2])


async def buy(
    driver: Driver,
    interaction: discord.Interaction[discord.Client],
    tournament: str,
    lang: Locale,
    *,
    kind: Kind,
    offered: int | None = None,
) -> None:
    """A rebuy or the add-on for the clicking member, once by its key: a command's
    interaction, or the button's offer (``offered``: a click of a purchase button).
    Asked during his hand, it is queued and made when the hand is over (R-19.74)."""
    await ops.defer(interaction)
    player = str(interaction.user.id)
    addon = kind == "addon"
    key = (
        f"i{interaction.id}" if offered is None else click_key(player, addon=addon, offered=offered)
    )

    async def command(runner: Runner) -> Decision:
        return await queue.ask(runner, player, addon=addon, key=key)

    decision = await driver.run(tournament, command)
    await ops.reply(interaction, answer(decision, lang))


async def answer_wait(
    driver: Driver,
    interaction: discord.Interaction[discord.Client],
    tournament: str,
    lang: Locale,
    *,
    kind: Answer,
    index: int,
    answered: set[str] | None = None,
) -> None:
    """A click of a busted player's DM button (R-19.48): rebuy or decline that wait,
    once; a click on a wait that is over, or not his, is answered privately and
    changes nothing. A decline is told by this answer alone (with the Re-enter button
    while he may re-enter): its entry is put in ``answered`` before it goes out, so
    the boards send no out DM for it as well (R-19.107)."""
    await ops.defer(interaction)
    player = str(interaction.user.id)
    out: list[str] = []

    async def command(runner: Runner) -> Decision:
        # A cancel ends every wait: then the tournament is what is over.
        if runner.st.status == "cancelled":
            return Decision(refusal=msg(queue.NOT_RUNNING))
        wait = current_wait(runner, index)
        if wait is None or player_of(runner.st, wait.entry) != player:
            return Decision(refusal=msg("entries.rebuy_stale"))
        if runner.st.status != "running":  # over otherwise: nothing is sold
            return Decision(refusal=msg(queue.NOT_RUNNING))
        if kind == "rebuy":
            return await runner.rebuy(player, key=f"wait:{index}")
        if answered is not None:
            answered.add(wait.entry)
        decided = await runner.decline(player, key=f"wait:{index}")
        if decided.ok and decided.notices:
            out.append(wait.entry)
        elif answered is not None:
            answered.discard(wait.entry)
        return decided

    decision = await driver.run(tournament, command)
    view: discord.ui.View | None = None
    runner = driver.get(tournament)
    if out and runner is not None:
        event = event_of(driver, tournament)
        text = render(msg("entries.declined", event=_inert(event)), lang)
        view = out_dm(runner.st, tournament, player, lang, event=event)[1]
    else:
        text = answer(decision, lang)
    await ops.reply(interaction, text, view=view)


def current_wait(runner: Runner, index: int) -> Waiting | None:
    """The wait recorded ``index``-th if it still stands: its entry waits now and has
    not busted again since. A pause moves the wait's end (R-19.47), so the wait in
    force is matched by its entry, not by its deadline."""
    if not 0 <= index < len(runner.waits):
        return None
    wait = runner.waits[index]
    later = any(w.entry == wait.entry for w in runner.waits[index + 1 :])
    now = runner.st.waiting.get(wait.entry)
    return None if later or now is None or replace(now, until=wait.until) != wait else wait


async def tell_queued(client: discord.Client, presenter: DiscordPresenter, runner: Runner) -> None:
    """Each buyer of a queued purchase told by DM that it was made or why it was
    refused (R-19.66), then marked told: a crash between the two tells him again
    rather than never."""
    for outcome in runner.queue.untold():
        player, key = outcome.asked.player, outcome.asked.key
        if key in runner.queue.told:
            continue  # told meanwhile by another pass
        runner.queue.told.add(key)
        if player.isdigit():
            text = render(queue.outcome_words(outcome), presenter.user_locale(player))
            await ops.dm(client, int(player), text, known=presenter.dms)
        await runner.queue.mark_told(key)


__all__ = [
    "ENTRY",
    "WAIT",
    "Answer",
    "Kind",
    "answer",
    "answer_wait",
    "buy",
    "buy_view",
    "current_wait",
    "decode_entry",
    "decode_wait",
    "entry_button",
    "out_dm",
    "tell_queued",
    "wait_button",
    "wait_dm",
]
