"""A tournament's messages on Discord: the announcement with its Register/Unregister
buttons and live count, the status board kept edited, the final standings, and the
threads its tables play in (R-19.3, R-19.61, R-19.63). It is the driver's
:class:`~bot.tourney_run.driver.Hooks` for Discord.

What must survive a restart (which message is the announcement, the board, whether the
standings were posted) is kept in a reserved log, :data:`BOARD_LOG`; the tables' threads
are the presenter's table places (``presenter.record_place``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import functools
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import discord

from bot.poker.messages import Chips, Count, Msg, Name, Number, msg
from bot.table.ownership import RESERVED_PREFIX
from bot.table.ports import StorePort
from bot.tournament import director
from bot.tournament.director import State
from bot.tournament.rotation import games_said
from bot.tourney_run import queue
from bot.tourney_run.buying import seconds_left
from bot.tourney_run.driver import Driver
from bot.tourney_run.entrants import player_of
from bot.tourney_run.results import results
from bot.tourney_run.titles import event_of
from bot.words import Locale, render
from cards_art import Finisher, RenderedImage, StandingsView, render_standings
from cogs import names, ops
from cogs.components import sealed
from cogs.ids import tourney_button
from cogs.presenter import DiscordPresenter
from cogs.tourney_entries import buy_view, current_wait, out_dm, tell_queued, wait_dm

log = logging.getLogger(__name__)

BOARD_LOG = f"{RESERVED_PREFIX}tourney_board"
"""Reserved log: ``board`` records (tournament, what, channel, message)."""
BOARD = "board"
GAP = 2.0
"""Seconds between two redraws of a tournament's messages (the channel's rate limit is
shared with its tables' threads' parent)."""
LATEST = 6
"""Lines of the director's latest words on the status board."""

Picture = Callable[[StandingsView, Locale], RenderedImage | None]
"""Draws the final standings (None: text only). Blocking: run in a worker thread."""


def standings_view(name: str, state: State, now: float) -> StandingsView:
    """What the standings picture shows (R-19.70): every finisher best first."""
    rows = results(state)
    finishers = tuple(
        Finisher(r.first, r.last, r.name, r.prize, r.bounties, r.number) for r in rows
    )
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    return StandingsView(name, day, len(state.entries), state.pool, finishers)


def draw_standings(view: StandingsView, locale: Locale) -> RenderedImage | None:
    return render_standings(view, locale=locale)


@dataclass
class Board:
    """One tournament's messages: its channel, announcement, status board, standings."""

    channel: int
    announcement: int = 0
    status: int = 0
    standings: int = 0
    latest: deque[Msg] = field(default_factory=lambda: deque(maxlen=LATEST))


def summary(state: State, starts_at: float = 0.0) -> list[Msg]:
    """The announcement's lines: game, stack, levels, format, seats, buy-in, payouts."""
    cfg = state.config
    sched = cfg.schedule
    first = sched.level(0)
    unit = "minutes" if sched.unit == "minutes" else "hands"
    lines = [
        msg("tourney.line.game", game=games_said(cfg.game, cfg.rotate)),
        msg("tourney.line.stack", stack=Chips(cfg.stack)),
        msg(f"tourney.line.levels_{unit}", count=Count(first.length)),
        # the structure's first level, whatever level is played now (the
        # status board says that one).
        dataclasses.replace(state, level=0).level_words(),
    ]
    if cfg.format == "sit_and_go":
        lines.append(msg("tourney.line.sit_and_go", count=Count(cfg.max_players)))
    else:
        lines.append(msg("tourney.line.scheduled"))
        if starts_at:
            lines.append(msg("tourney.line.starts", time=Name(f"<t:{int(starts_at)}:R>")))
    lines.append(msg("tourney.line.seats", count=Count(cfg.seats)))
    lines.append(msg("tourney.line.buy_in", buy_in=Chips(cfg.buy_in)))
    if cfg.entries.bounty:
        lines.append(msg("tourney.line.bounty", bounty=Chips(cfg.entries.bounty)))
    if cfg.entries.late_until:
        lines.append(msg("tourney.line.late", level=Number(cfg.entries.late_until)))
    if cfg.payouts:
        shares = " / ".join(f"{p // 100}%" for p in cfg.payouts)
        lines.append(msg("tourney.line.payouts", shares=Name(shares)))
    else:
        lines.append(msg("tourney.line.payouts_default"))
    return lines


def standing_lines(state: State) -> list[Msg]:
    """The final standings, first place first (shared places once per entry), each
    line with the bounties its entry won when the event has bounties (R-19.70)."""
    called = state.entry_names()
    won: dict[str, int] = {}
    for b in state.bounties:
        won[b.entry] = won.get(b.entry, 0) + b.amount
    out = []
    for f in sorted(state.finishes, key=lambda f: (f.first, f.entry)):
        who = called.get(f.entry, Name(f.entry))
        place = {"first": Number(f.first), "last": Number(f.last)}
        shared = "shared" if f.last != f.first else "place"
        if f.prize:
            line = msg(f"tourney.standings.{shared}", player=who, prize=Chips(f.prize), **place)
        else:
            line = msg(f"tourney.standings.{shared}_unpaid", player=who, **place)
        if state.config.entries.bounty:
            line = msg("tourney.standings.bounties", line=line, bounties=Chips(won.get(f.entry, 0)))
        out.append(line)
    return out


EMBED_TEXT = 4096
"""Discord's most characters in an embed's description."""


def standings_text(state: State, lang: Locale) -> str:
    """The standings post's text (R-19.84): every entry, best first, as far as an
    embed holds them, then how many more (the picture's alt text and the CSV export
    list them all, R-19.70). Names escaped for Discord's markdown (R-1.12)."""
    lines = [render(names.escaped(m), lang) for m in standing_lines(state)]
    text = "\n".join(lines)
    if len(text) <= EMBED_TEXT:
        return text

    def more(n: int) -> str:
        return render(msg("results.more", more=Count(n)), lang)

    room = EMBED_TEXT - len(more(len(lines))) - 1
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > room:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join([*kept, more(len(lines) - len(kept))])


def board_lines(state: State, now: float) -> list[Msg]:
    """The status board: the tournament's state, then the director's status."""
    lines = [msg(f"tourney.state.{state.status}")]
    if state.status == "registering":
        lines.append(msg("tourney.count", count=Count(len(state.entries))))
    elif state.status == "running":
        lines += director.status(state, now)
    return lines


class DiscordBoards:
    """The driver's hooks on Discord (see the module docstring)."""

    def __init__(self, client: discord.Client, presenter: DiscordPresenter) -> None:
        self.client = client
        self.presenter = presenter
        self.driver: Driver | None = None
        self.boards: dict[str, Board] = {}
        self.picture: Picture = draw_standings
        """Draws the standings picture (cards_art's; a test may set another)."""
        self._dirty: set[str] = set()
        self._painting: dict[str, asyncio.Task[None]] = {}
        self._placing = asyncio.Lock()
        self._shown: dict[int, object] = {}
        """Message -> what it was last edited to show."""
        self._outs_told: dict[str, int] = {}
        """Per tournament: the outs of its runner already told by DM."""
        self._waits_told: dict[str, int] = {}
        """Per tournament: the rebuy waits of its runner already asked by DM."""
        self.answered: dict[str, set[str]] = {}
        """Per tournament: entries whose player clicked I'm out, answered privately
        then, so the out DM is not sent as well."""
        self.gap = GAP

    # ------------------------------------------------------------ records

    @property
    def store(self) -> StorePort:
        service = self.presenter.service
        assert service is not None, "the presenter is attached to a service"
        return service.store

    async def load(self) -> None:
        """The boards as recorded (at start)."""
        for row in await self.store.events(BOARD_LOG):
            if row.kind != BOARD:
                continue
            p = row.payload
            board = self.boards.setdefault(str(p["tournament"]), Board(int(p["channel"])))
            what = str(p["what"])
            if what in ("announcement", "status", "standings"):
                setattr(board, what, int(p["message"]))

    async def _save(self, tournament: str, what: str, message: int) -> None:
        board = self.boards[tournament]
        setattr(board, what, message)
        payload = {
            "tournament": tournament,
            "what": what,
            "channel": board.channel,
            "message": message,
        }
        await self.store.append(BOARD_LOG, BOARD, payload)

    def event(self, tournament: str) -> Name | Msg:
        """The tournament's name (R-19.105): its host's title, or its own readable one."""
        if self.driver is None:
            return Name(tournament)
        return event_of(self.driver, tournament)

    def locale(self, tournament: str) -> Locale:
        """The tournament's public language: its channel's server's."""
        board = self.boards.get(tournament)
        return self.presenter.locales.table(str(board.channel)) if board else "en"

    def _now(self, tournament: str) -> State | None:
        """The tournament as the director has it now."""
        return self.driver.standing(tournament) if self.driver is not None else None

    # ------------------------------------------------------------ the messages

    def announcement(self, tournament: str) -> tuple[discord.Embed, discord.ui.View | None]:
        """The announcement as it is now: what the tournament is, the live count, and
        the buttons while registration is open."""
        state = self._now(tournament)
        assert state is not None
        lang = self.locale(tournament)
        opened = self.driver.opened.get(tournament) if self.driver is not None else None
        lines = summary(state, opened.starts_at if opened else 0.0)
        lines.append(msg("tourney.count", count=Count(len(state.entries))))
        lines.append(msg(f"tourney.state.{state.status}"))
        lines += self._waiting(tournament)
        embed = discord.Embed(
            title=render(names.escaped(msg("tourney.title", event=self.event(tournament))), lang),
            description="\n".join(render(m, lang) for m in lines),
        )
        if not state.registration_open or state.status not in ("registering", "running"):
            return embed, None
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=render(msg("tourney.button.register"), lang),
                custom_id=tourney_button("reg", tournament),
                style=discord.ButtonStyle.success,
            )
        )
        if state.status == "registering":
            view.add_item(
                discord.ui.Button(
                    label=render(msg("tourney.button.unregister"), lang),
                    custom_id=tourney_button("unreg", tournament),
                    style=discord.ButtonStyle.secondary,
                )
            )
        return embed, sealed(view)

    def _waiting(self, tournament: str) -> list[Msg]:
        """The line saying a scheduled start found too few players (R-19.68)."""
        if self.driver is not None and self.driver.waiting_for_host(tournament):
            return [msg("tourney.state.waiting_host")]
        return []

    def queued(self, tournament: str, player: str) -> list[Msg]:
        """``player``'s purchases queued until his hand ends, in the order asked
        (R-19.108): for his own status board only."""
        runner = self.driver.get(tournament) if self.driver is not None else None
        if runner is None:
            return []
        return [
            msg("tourney.status.queued_addon" if a.addon else "tourney.status.queued_rebuy")
            for a in queue.pending(runner, player)
        ]

    def status_text(
        self, tournament: str, lang: Locale, *, latest: bool = True, player: str | None = None
    ) -> str:
        state = self._now(tournament)
        assert state is not None
        now = self.presenter.service.time.now() if self.presenter.service else 0.0
        lines = board_lines(state, now)
        lines[1:1] = self._waiting(tournament)
        if player is not None:
            lines += self.queued(tournament, player)
        said = [render(m, lang) for m in lines]
        board = self.boards.get(tournament)
        if latest and board is not None and board.latest:
            said.append("")
            said.append(render(msg("tourney.status.latest"), lang))
            said += [f"- {render(m, lang)}" for m in board.latest]
        return "\n".join(said)

    def status_embed(
        self, tournament: str, lang: Locale, *, latest: bool = True, player: str | None = None
    ) -> discord.Embed:
        """The status board; ``player``: his own copy, with his queued purchases."""
        return discord.Embed(
            title=render(
                names.escaped(msg("tourney.status.title", event=self.event(tournament))), lang
            ),
            description=self.status_text(tournament, lang, latest=latest, player=player),
        )

    async def post_announcement(self, tournament: str, channel: int) -> bool:
        """The announcement, posted once in ``channel`` and recorded."""
        board = self.boards.setdefault(tournament, Board(channel))
        if board.announcement:
            return True
        embed, view = self.announcement(tournament)
        where = self.client.get_partial_messageable(channel)
        sent = await ops.send(where, embed=embed, view=view)
        if sent is None:
            return False
        await self._save(tournament, "announcement", sent.id)
        return True

    def repaint(self, tournament: str) -> None:
        """Redraw the announcement and the board soon (coalesced: one edit of each at
        a time, the latest state)."""
        self._dirty.add(tournament)
        task = self._painting.get(tournament)
        if task is None or task.done():
            self._painting[tournament] = asyncio.create_task(
                self._paint_loop(tournament), name=f"tourney-board:{tournament}"
            )

    async def _paint_loop(self, tournament: str) -> None:
        while tournament in self._dirty:
            self._dirty.discard(tournament)
            try:
                await self._paint(tournament)
            except Exception:  # a message is no chip: the next change redraws it
                log.exception("tournament %s: could not redraw its messages", tournament)
            if tournament in self._dirty and self.gap:
                await asyncio.sleep(self.gap)  # changes meanwhile: one edit for them all

    async def _edit(
        self,
        where: discord.PartialMessageable,
        message: int,
        embed: discord.Embed,
        view: discord.ui.View | None,
    ) -> None:
        """Edit ``message`` unless it already shows exactly this (no request spent)."""
        shown = (embed.to_dict(), None if view is None else view.to_components())
        if self._shown.get(message) == shown:
            return
        if await ops.edit(where.get_partial_message(message), embed=embed, view=view):
            self._shown[message] = shown

    async def _paint(self, tournament: str) -> None:
        if tournament not in self._waits_told:  # first paint since start: waits left
            await self._ask_rebuys(tournament)
        board = self.boards.get(tournament)
        state = self._now(tournament)
        if board is None or state is None:
            return
        where = self.client.get_partial_messageable(board.channel)
        if board.announcement:
            embed, view = self.announcement(tournament)
            await self._edit(where, board.announcement, embed, view)
        if state.status == "registering":
            return
        lang = self.locale(tournament)
        embed = self.status_embed(tournament, lang)
        view = buy_view(state, tournament, lang)  # rebuys and the add-on
        if board.status:
            await self._edit(where, board.status, embed, view)
        else:
            sent = await ops.send(where, embed=embed, view=view)
            if sent is not None:
                await self._save(tournament, "status", sent.id)

    async def settle(self) -> None:
        """Wait for the redraws under way (tests, shutdown)."""
        while pending := [t for t in self._painting.values() if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        for task in self._painting.values():
            task.cancel()
        for task in self._painting.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------ the driver's hooks

    async def place(self, tournament: str, table: str) -> None:
        """The table's own thread under the announcement's channel, recorded as its
        place (R-19.3); a refusal raises, so the table waits and it is tried again."""
        async with self._placing:
            if self.presenter.placed(table):
                return
            board = self.boards[tournament]
            channel = self.client.get_channel(board.channel)
            if channel is None:
                channel = await self.client.fetch_channel(board.channel)
            if not isinstance(channel, discord.TextChannel):
                raise RuntimeError(f"tournament {tournament}: no text channel {board.channel}")
            number = table.rsplit(":", 1)[1]
            name = render(  # a thread's name is no markdown: the title as written
                msg("tourney.thread", event=self.event(tournament), table=Number(int(number))),
                self.locale(tournament),
            )
            thread = await ops.create_thread(channel, name)
            if thread is None:
                raise RuntimeError(f"tournament {tournament}: no thread for table {number}")
            await self.presenter.record_place(table, board.channel, thread.id)

    async def said(self, tournament: str, message: Msg) -> None:
        board = self.boards.get(tournament)
        if board is not None:
            board.latest.append(message)
        self.repaint(tournament)

    async def changed(self, tournament: str) -> None:
        self.repaint(tournament)
        await self._tell_outs(tournament)
        runner = self.driver.runners.get(tournament) if self.driver is not None else None
        if runner is not None and runner.exists:
            await tell_queued(self.client, self.presenter, runner)

    async def _tell_outs(self, tournament: str) -> None:
        """Each player whose entry went out is told by DM, once (the Re-enter button
        while he may re-enter, R-19.90); outs from before a restart are not told again."""
        runner = self.driver.runners.get(tournament) if self.driver is not None else None
        if runner is None or not runner.exists:
            return
        told = self._outs_told.setdefault(tournament, len(runner.outs))
        new = runner.outs[told:]
        self._outs_told[tournament] = told + len(new)
        answered = self.answered.setdefault(tournament, set())
        for out in new:
            player = player_of(runner.st, out.entry)
            if out.entry in answered:  # he clicked I'm out: that answer told him
                answered.discard(out.entry)
                continue
            if not player.isdigit():
                continue
            said = functools.partial(
                out_dm, runner.st, tournament, player, event=self.event(tournament)
            )
            await self._dm_or_channel(tournament, player, said)
        await self._ask_rebuys(tournament)

    async def _dm_or_channel(
        self,
        tournament: str,
        player: str,
        said: Callable[[Locale], tuple[str, discord.ui.View | None]],
    ) -> None:
        """``said`` to ``player`` by DM, in his language; when his DMs are closed and it
        has buttons (re-enter, rebuy), in the announcement's channel instead, in its
        language, pinging him alone (R-19.89)."""
        text, view = said(self.presenter.user_locale(player))
        if await ops.dm(self.client, int(player), text, view=view, known=self.presenter.dms):
            return
        board = self.boards.get(tournament)
        if view is None or board is None:
            return  # nothing to answer: the board says who is out
        text, view = said(self.locale(tournament))
        where = self.client.get_partial_messageable(board.channel)
        await ops.send(where, f"<@{player}> {text}", view=view, mention=int(player))

    async def _ask_rebuys(self, tournament: str) -> None:
        """Each player busted while a rebuy is sold to him is asked by DM, once, with
        Rebuy and I'm out buttons (R-19.48). After a restart the first pass asks again
        those still waiting, once, with the time they have left (R-19.107)."""
        runner = self.driver.runners.get(tournament) if self.driver is not None else None
        if runner is None or not runner.exists:
            return
        told = self._waits_told.setdefault(tournament, 0)
        new = list(enumerate(runner.waits))[told:]
        self._waits_told[tournament] = told + len(new)
        now = runner.service.time.now()
        for index, recorded in new:
            player = player_of(runner.st, recorded.entry)
            # Matched by entry, not deadline: a pause moves the deadline.
            if not player.isdigit() or current_wait(runner, index) is None:
                continue
            wait = runner.st.waiting[recorded.entry]
            if seconds_left(wait, now) <= 0:
                continue  # over: the driver puts him out
            asked = functools.partial(
                wait_dm, runner.st, tournament, wait, index, now=now, event=self.event(tournament)
            )
            await self._dm_or_channel(tournament, player, asked)

    async def moved(self, tournament: str, entry: str, table: str) -> None:
        """Tell the moved player by DM where his new table is (its thread, R-19.63); a
        re-entry's player too (R-19.90)."""
        state = self._now(tournament)
        entry = entry if state is None else player_of(state, entry)
        if not entry.isdigit():
            return  # not a Discord user
        thread = self.presenter.places.get(table, (0, 0))[1]
        number = int(table.rsplit(":", 1)[1])
        where = f"<#{thread}>" if thread else ""
        said = msg("tourney.moved", table=Number(number), thread=Name(where))
        text = render(said, self.presenter.user_locale(entry))
        if await ops.dm(self.client, int(entry), text, known=self.presenter.dms) or not thread:
            return
        # his DMs are closed: his new table's thread tells him, pinging him alone.
        here = render(said, self.presenter.table_locale(table))
        where_now = self.client.get_partial_messageable(thread)
        await ops.send(where_now, f"<@{entry}> {here}", mention=int(entry))

    async def finished(self, tournament: str) -> None:
        """The final standings, posted once in the announcement's channel, with the
        standings picture when one is drawn."""
        board = self.boards.get(tournament)
        state = self._now(tournament)
        if board is None or state is None or board.standings:
            return
        lang = self.locale(tournament)
        event = self.event(tournament)
        embed = discord.Embed(
            title=render(names.escaped(msg("tourney.standings.title", event=event)), lang),
            description=standings_text(state, lang),
        )
        service = self.presenter.service
        now = service.time.now() if service is not None else 0.0
        name = event.text if isinstance(event, Name) else render(event, lang)
        view = standings_view(name, state, now)
        try:
            image = await asyncio.to_thread(self.picture, view, lang)
        except Exception:  # the standings still go, as text
            log.exception("tournament %s: the standings picture failed", tournament)
            image = None
        where = self.client.get_partial_messageable(board.channel)
        sent = await ops.send(where, embed=embed, image=image)
        if sent is not None:
            await self._save(tournament, "standings", sent.id)


__all__ = [
    "BOARD_LOG",
    "Board",
    "DiscordBoards",
    "board_lines",
    "standing_lines",
    "standings_text",
    "summary",
]
