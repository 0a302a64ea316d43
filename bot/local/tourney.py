"""``python -m bot --tournament sng|mtt``: a tournament at the terminal.

A sit-and-go (one table of ``--players``) or a multi-table freezeout (tables of nine),
run by :class:`~bot.tourney_run.runner.Runner` over the table service, levels rising by
hands (the ``--structure`` preset). The players named on the command line type their
actions as at a cash table (``alice: raise 40``, ``alice: cards``); robots fill the
other seats, or every seat with ``--robots``. The terminal prints what the director
says (eliminations, levels, moves, the final table), each hand's result lines (every
line of a hand at a table where someone types), then the final standings with prizes;
``export DIR`` (or ``--export DIR``) writes every hand in PHH, the results as CSV and
the standings picture (R-19.70, R-19.71). A start on a file whose last tournament
stopped before its end (a killed terminal) carries that one on.

Every table plays on until the player who types there must act; his clock
(``--clock``) runs meanwhile and acts for him when it runs out, and he stays dealt in
(R-19.72). A line out of turn says where and when he acts (R-19.73). ``--late-reg``,
``--reentry`` and ``--rebuys`` open the entries; ``NAME: rebuy`` and ``NAME: addon``
are made when his hand is over, kept in the tournament's journal meanwhile so a
restart loses none (R-19.67), and ``pause``/``resume`` are the host's (R-19.74). A
player who busts while a rebuy is sold to him is asked whether he rebuys (yes/no in
his words) until his wait runs out; robots answer by a seeded draw (R-19.48), and a
robot out while he may re-enter re-enters by one too (R-19.113).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import random
import unicodedata
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path
from typing import Final, TextIO

from bot.local.drawing import cards_text, draw
from bot.local.presenter import TerminalPresenter
from bot.local.robot import pick
from bot.local.words import Words, player_phrase
from bot.poker.messages import Chips, Count, Msg, msg
from bot.poker.variants import VARIANTS
from bot.table.clocks import SystemTime, TimeSource
from bot.table.errors import TableError
from bot.table.games import split_game, split_rotation
from bot.table.moves import ARRIVING, LEAVING
from bot.table.ports import Notice, StorePort
from bot.table.service import TableService
from bot.table.settings import NEVER_SIT_OUT
from bot.table.table import Table
from bot.table.text_actions import ParseError, check_name
from bot.table.view import TableView
from bot.tournament import director
from bot.tournament.director import Decision
from bot.tournament.log import Created, Waiting
from bot.tournament.rotation import ROTATE
from bot.tournament.structure import PRESETS, REBUY_WAIT, Config
from bot.tourney_run import options as tourney_options
from bot.tourney_run import queue
from bot.tourney_run.buying import ANSWER_NO, ANSWER_YES, rebuy_question
from bot.tourney_run.journal import journal_id
from bot.tourney_run.options import WAIT
from bot.tourney_run.results import hand_files, place_words, results, results_csv
from bot.tourney_run.robots import answer_waits
from bot.tourney_run.runner import Runner
from bot.words import render
from cards_art import Finisher, StandingsView, render_standings

FORMATS: Final = {"sng": "sit_and_go", "mtt": "scheduled"}
DEFAULTS: Final = {"sng": 6, "mtt": 18}
STACK: Final = 1500
BUY_IN: Final = 100
TOURNEY_ID: Final = "local-tourney"
CLOCK: Final = 60
"""A player's time to act by default (seconds); the terminal gives no time bank."""
MAX_CLOCK: Final = 3600
REBUY_LEVELS: Final = 3
"""The rebuy period without --late-reg: through this level; the add-on follows it."""
SLICE: Final = 0.25
"""The longest wait for a line before the clock is looked at again (seconds)."""
ROBOT_REENTRY: Final = 0.5
"""The chance a robot out while he may re-enter does (R-19.113), as robots rebuy."""
GRACE: Final = 0.05
"""The shortest: a line on its way from the keyboard is read before a clock acts."""

RESULT_KEYS: Final = (
    "table.story.head",
    "notice.award",
    "notice.award_with",
    "notice.end.",
    "notice.shows",
    "notice.shows_hand",
    "notice.returned",
    "notice.pots",
)
"""The lines of a hand told at a table where only robots play: its head, what was
shown, who won what (the rest of the hand is told where someone types)."""

COMMANDS: Final = frozenset(
    {"help", "?", "table", "status", "export", "quit", "exit", "pause", "resume"}
)
"""What the terminal takes in a tournament besides players' lines."""
HOST: Final = "host"
"""Who gives the host's commands (pause, resume) at the terminal."""
ENTRY_WORDS: Final = {
    "rebuy": "rebuy",
    "re buy": "rebuy",
    "reentry": "rebuy",
    "re-entry": "rebuy",
    "reenter": "rebuy",
    "re-enter": "rebuy",
    "addon": "addon",
    "add on": "addon",
    "add-on": "addon",
    "top up": "rebuy",  # what player_phrase makes of nachkaufen, recave, докупить ...
    "ребай": "rebuy",
    "аддон": "addon",
}
"""A player's words for buying chips: a rebuy (or, once out, a re-entry) and the add-on."""
CASH_ONLY: Final = (
    *("leave", "stand up", "standup", "cash out", "cashout", "get up", "quit table"),
    *("sit", "sitout", "sitin", "away", "back", "i'm back", "im back", "return"),
    *("top up", "topup", "buy in", "buyin", "straddle", "rabbit", "bomb", "post", "choose"),
)
"""A cash table's player lines (as :func:`player_phrase` gives them, so in any language):
a tournament player plays every hand dealt to him until he is out."""


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--tournament",
        choices=sorted(FORMATS),
        default=None,
        help="play a tournament: sng (a sit-and-go, one table) or mtt (tables of nine); "
        "the players named type their actions, robots take the other seats",
    )
    ap.add_argument(
        "--players",
        dest="entrants",
        type=int,
        default=None,
        help="entrants of the tournament (default 6 for sng, 18 for mtt)",
    )
    ap.add_argument(
        "--structure",
        choices=PRESETS,
        default="turbo",
        help="the tournament's blind structure, levels by hands (default %(default)s)",
    )
    ap.add_argument("--title", default=None, help="the tournament's name (for the standings)")
    ap.add_argument("--stack", type=int, default=STACK, help="starting stack (%(default)s)")
    ap.add_argument("--bounty", type=int, default=0, help="bounty per entry (default none)")
    ap.add_argument(
        "--clock",
        type=int,
        default=None,
        metavar="SECONDS",
        help=f"a player's time to act in a tournament (default {CLOCK}; 0: no clock); when "
        "it runs out the clock checks or folds for him and he stays dealt in",
    )
    ap.add_argument(
        "--late-reg",
        dest="late_reg",
        type=int,
        default=0,
        metavar="LEVEL",
        help="registration (and re-entry) stays open through level LEVEL (default: closed)",
    )
    ap.add_argument(
        "--reentry",
        type=int,
        default=0,
        metavar="N",
        help="entries a busted player may buy again while registration is open (`NAME: rebuy`)",
    )
    ap.add_argument(
        "--rebuys",
        type=int,
        default=0,
        metavar="N",
        help="rebuys per entry at or below the starting stack through the late-registration "
        f"level (or level {REBUY_LEVELS}), then one add-on of a starting stack "
        "(`NAME: rebuy`, `NAME: addon`)",
    )
    ap.add_argument(
        "--rebuy-wait",
        dest="rebuy_wait",
        type=int,
        default=REBUY_WAIT,
        metavar="SECONDS",
        help=f"how long a busted player may wait to rebuy, {WAIT[0]} to {WAIT[1]} seconds "
        "(default %(default)s)",
    )
    ap.add_argument(
        "--rotate",
        choices=ROTATE,
        default=ROTATE[0],
        help="a rotation (--game horse) changes game each level (default, as WSOP), "
        "each orbit (as online) or each deal",
    )
    ap.add_argument(
        "--export",
        default=None,
        metavar="DIR",
        help="after the tournament, write its hands (PHH), results (CSV) and standings "
        "(PNG) into DIR",
    )


def config_from_args(args: argparse.Namespace, humans: int, say: Words) -> Config | str:
    """The tournament's settings, or what is wrong with the options (in words)."""
    fmt = str(args.tournament)
    players = DEFAULTS[fmt] if args.entrants is None else int(args.entrants)
    low, high = (2, 10) if fmt == "sng" else (2, 1000)
    if not low <= players <= high or players < humans:
        if not humans:  # nobody named: no "at least the 0 named"
            return say("tourney.players_none", low=low, high=high)
        return say("tourney.players", low=low, high=high, named=Count(humans))
    dealt = split_rotation(str(args.game or "holdem")) or ("holdem",)
    kinds = [VARIANTS.get(split_game(g)[0]) for g in dealt]
    if any(k is None or k.forced not in ("blinds", "bring_in") for k in kinds):
        return say("tourney.game", game=str(args.game))
    buy_in = BUY_IN if args.buy_in is None else int(args.buy_in)
    if args.stack < 1 or args.bounty < 0 or args.bounty > buy_in:
        return say("tourney.money", buy_in=buy_in)
    clock = CLOCK if args.clock is None else int(args.clock)
    late, again, rebuys = int(args.late_reg), int(args.reentry), int(args.rebuys)
    if min(late, again, rebuys) < 0 or not 0 <= clock <= MAX_CLOCK or (again and not late):
        return say("tourney.entries", most=MAX_CLOCK)
    # The rest is what /tournament create builds (one place for the rules of a
    # config: the games' forced bets, a full table of the game, R-19.50, R-19.53).
    made = tourney_options.config(
        tourney_options.Options(
            game=",".join(dealt),
            stack=int(args.stack),
            structure=str(args.structure),
            unit="hands",
            format="sit_and_go" if fmt == "sng" else "scheduled",
            players=players if fmt == "sng" else 0,
            seats=players if fmt == "sng" else 0,
            buy_in=buy_in,
            bounty=int(args.bounty),
            late_until=late,
            reentries=again,
            rebuys=rebuys,
            rebuy_until=(late or REBUY_LEVELS) if rebuys else 0,
            addon=int(args.stack) if rebuys else 0,
            addon_price=buy_in if rebuys else 0,
            rotate=str(getattr(args, "rotate", ROTATE[0])),
            rebuy_wait=int(getattr(args, "rebuy_wait", REBUY_WAIT)),
        )
    )
    return say.render(made) if isinstance(made, Msg) else made


def folded(text: str) -> str:
    """``text`` compared as typed answers are (R-19.121): trimmed, case folded and its
    accents dropped, so ``si`` answers ``sí`` and ``nao`` answers ``não``."""
    parts = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in parts if not unicodedata.combining(c))


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: a wide (East Asian) character two, a
    combining mark none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def columns(rows: list[tuple[str, str, str]]) -> list[str]:
    """Standings rows (place, name, money) as lines whose columns line up: the place
    right-aligned to the widest place, the name padded to the widest name."""
    place_w = max((cells(p) for p, _, _ in rows), default=0)
    name_w = max((cells(n) for _, n, _ in rows), default=0)
    return [
        f"  {' ' * (place_w - cells(p))}{p}  {n}{' ' * (name_w - cells(n))} {m}" for p, n, m in rows
    ]


TOLD_BY_THE_TOURNAMENT: Final = frozenset({*LEAVING.values(), *ARRIVING.values()})
"""A table's words for a player arriving or leaving, which the tournament says itself."""


class Shown(TerminalPresenter):
    """The terminal presenter for the tables where someone types (``watched``); the
    robots' tables are told by their hands' result lines. Without a clock (``--clock
    0``) a prompt says no time left; the offer to show by choice is not made."""

    def __init__(
        self,
        out: TextIO,
        words: Words,
        watched: Callable[[str], bool],
        quiet: bool = False,
        *,
        now: Callable[[], float],
        clocked: bool = True,
    ) -> None:
        super().__init__(out, words=words, quiet=quiet, now=now)
        self.watched = watched
        self.clocked = clocked
        self.named: Callable[[str], str] = lambda user: user

    async def public(self, table_id: str, notice: Notice) -> None:
        # the director says where each player sits or moves to, who is out
        # or waits to rebuy, and the end, in its order; the table's own words of a
        # player arriving or leaving would say it again, before the news.
        if self.watched(table_id) and notice.msg.key not in TOLD_BY_THE_TOURNAMENT:
            await super().public(table_id, notice)

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if notice.kind == "show_choice":
            return  # the next hand is dealt at once: no line could answer it
        if self.watched(user_id):
            if not self.clocked:
                notice = dataclasses.replace(notice, deadline=None)
            # Said to him by the name he wrote (ids are names in lower case).
            await super().private(table_id, self.named(user_id), notice)


Lines = Callable[[], Awaitable[str | None]]
TIMED_OUT: Final = "\x00clock"
"""What :meth:`Tourney.next_line` gives when a player's time ran out before a line came."""


class Tourney:
    """One tournament at the terminal: set up, played, told, exported."""

    def __init__(
        self,
        args: argparse.Namespace,
        out: TextIO,
        words: Words,
        time: TimeSource | None = None,
    ) -> None:
        self.args = args
        self.out = out
        self.words = words
        self.time: TimeSource = time or SystemTime()
        self.clock = CLOCK if args.clock is None else int(args.clock)
        self.names = [check_name(n) for n in args.players]
        self.humans: dict[str, str] = {} if args.robots else {n.casefold(): n for n in self.names}
        self.presenter = Shown(
            out, words, self.watched, bool(args.quiet), now=self.time.now, clocked=self.clock > 0
        )
        self.presenter.named = lambda user: self.humans.get(user, user)
        self.store: StorePort | None = None
        self.service: TableService | None = None
        self.runner: Runner | None = None
        self.rng = random.Random(args.seed)
        self.title = args.title or words("tourney.title." + str(args.tournament))
        self.day = datetime.date.today()
        self.prompted: dict[int, int] = {}
        """Table -> the turn its drawing was last printed for."""
        self.n = 0
        self.pending: asyncio.Future[str | None] | None = None
        """The line being read, kept while the tournament goes on without it."""
        self.started = self.time.now()
        self.carried: dict[int, int] = {}
        """Table -> the turn in progress when a stopped tournament was carried on."""
        self.asked: dict[str, Waiting] = {}
        """Player -> the wait he was last asked to rebuy in (R-19.48)."""
        self.robot_wants: dict[str, tuple[int, bool]] = {}
        """Robot -> his entries when he drew whether to re-enter, and the draw (R-19.113)."""

    # ------------------------------------------------------------ output

    def emit(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    async def tell(self, m: Msg) -> None:
        self.emit(self.words.render(m))

    def watched(self, who: str) -> bool:
        """A table id with someone typing at it, or a player who types."""
        if who in self.humans:
            return True
        return any(self.human_at(t) for t in self.tables() if t.table_id == who)

    def human_at(self, table: Table) -> bool:
        return any(s.user_id in self.humans for s in table.snapshot(None).seats)

    # ------------------------------------------------------------ the tournament

    @property
    def run(self) -> Runner:
        assert self.runner is not None
        return self.runner

    def tables(self) -> list[Table]:
        if self.runner is None:
            return []
        return [p.table for _, p in sorted(self.runner.ports.items())]

    async def open(self, store: StorePort, config: Config) -> None:
        self.store = store
        self.service = TableService(store, self.presenter, self.time, seed=self.args.seed)
        await self.service.recover()
        number = 1
        while await store.events(journal_id(f"{TOURNEY_ID}-{number}")):
            number += 1
        if number > 1 and await self.resume(f"{TOURNEY_ID}-{number - 1}"):
            return
        tid = f"{TOURNEY_ID}-{number}"
        self.runner = Runner(self.service, tid, rng=self.rng, tell=self.tell)
        await self.run.create(config)
        await self.dated()
        fmt = str(self.args.tournament)
        total = DEFAULTS[fmt] if self.args.entrants is None else int(self.args.entrants)
        names = list(self.names)
        robot = 0
        while len(names) < total:
            robot += 1
            name = self.words("tourney.robot", number=robot)
            if name.casefold() not in {n.casefold() for n in names}:
                names.append(name)
        for name in names:
            await self.run.register(name.casefold(), name)
        if self.run.st.status == "registering":
            await self.run.start()

    async def resume(self, tournament: str) -> bool:
        """Carry on the file's last tournament if it was stopped before its end (a
        killed terminal): the journal and the tables are in the file (R-19.40)."""
        runner = Runner(self.service_, tournament, rng=self.rng, tell=self.tell)
        if not await runner.load() or runner.st.status != "running":
            return False
        self.runner = runner
        await self.dated()
        self.started = self.time.now()
        for number, port in runner.ports.items():
            view = port.table.snapshot(None)
            if view.in_hand:
                self.carried[number] = view.turn
        st = runner.st
        left, entries = Count(st.left()), len(st.entries)
        self.emit(self.words("tourney.resumed", title=self.title, left=left, entries=entries))
        return True

    async def dated(self) -> None:
        """The standings' day: the day the tournament was created (in the file)."""
        first = (await self.run.journal.records())[:1]
        if first and isinstance(first[0], Created) and first[0].at > 0:
            self.day = datetime.date.fromtimestamp(first[0].at)

    @property
    def service_(self) -> TableService:
        assert self.service is not None
        return self.service

    async def play(self, lines: Lines) -> bool:
        """Until the tournament is over (True), or the input ends or says quit (False).

        Every table moves on by itself (robots act, tables deal) until each waits for
        someone typing; then a line is read, from whichever of them types (R-19.73),
        while the clock of each player to act runs (R-19.72)."""
        run = self.run
        try:
            while run.st.status == "running":
                await run.tick()
                if run.st.waiting:  # robots answer their rebuy at once
                    await answer_waits(run, self.rng, skip=self.humans)
                await self.robots_reenter()
                await self.set_clocks()
                if not await self.entries(lines):
                    return False
                if run.st.status != "running":  # a wait's answer ended it
                    break
                waiting = self.humans_to_act()
                for number, table, _ in waiting:
                    turn = table.snapshot(None).turn
                    if self.prompted.get(number) != turn:
                        self.prompted[number] = turn
                        self.emit(self.drawing(table))
                if self.robots_may_move({n for n, _, _ in waiting}):
                    await self.step({n for n, _, _ in waiting})
                    continue
                if not waiting and not run.st.paused:
                    raise TableError(self.words("robots.stuck"))
                if not waiting:
                    self.emit(self.words("tourney.paused"))
                raw = await self.next_line(lines, waiting)
                if raw == TIMED_OUT:
                    continue
                if raw is None or not await self.line(raw):
                    return False
            return True
        finally:
            if self.pending is not None:
                self.pending.cancel()
                self.pending = None

    def humans_to_act(self) -> list[tuple[int, Table, str]]:
        """Each table where a player who types is to act: its number, the table, him."""
        out = []
        for number, port in sorted(self.run.ports.items()):
            view = port.table.snapshot(None)
            if view.in_hand:
                mover = self.to_move(port.table, view)
                if mover is not None and mover[0] in self.humans:
                    out.append((number, port.table, mover[0]))
        return out

    def robots_may_move(self, waiting: set[int]) -> bool:
        """A robot to act at a table that waits for nobody typing, or a table to deal."""
        busy = [p for n, p in self.run.ports.items() if not p.between_hands() and n not in waiting]
        return bool(busy or self.run.ready())

    async def set_clocks(self) -> None:
        """The terminal's clock at each table, set between its hands: ``--clock``
        seconds to act and no time bank; nobody is sat out by the clock, a player away
        is dealt in and blinded off (R-19.72)."""
        if self.clock <= 0:
            return
        want = {
            "action_clock": float(self.clock),
            "time_bank": 0.0,
            "timeouts_to_sit_out": NEVER_SIT_OUT,
        }
        for number, port in sorted(self.run.ports.items()):
            table = port.table
            s = table.settings
            have = {"action_clock": s.action_clock, "time_bank": s.time_bank}
            have["timeouts_to_sit_out"] = s.timeouts_to_sit_out
            if have == want or not port.between_hands():
                continue
            quiet, self.presenter.quiet = self.presenter.quiet, True  # not a table's news
            try:
                await table.change_settings(
                    self.run.director, want, key=f"tourney-clock:{number}:{self.clock}"
                )
            finally:
                self.presenter.quiet = quiet

    async def next_line(self, lines: Lines, waiting: list[tuple[int, Table, str]]) -> str | None:
        """The next typed line (None at the end of the input), or ``TIMED_OUT`` once a
        waiting player's time ran out and the clock acted for him (R-18.1)."""
        if self.pending is None:
            self.pending = asyncio.ensure_future(lines())
        while True:
            due = [(d, n, t) for n, t, _ in waiting if (d := self.deadline(n, t)) is not None]
            left = min((d for d, _, _ in due), default=None)
            # A line typed already is taken before the clock is looked at.
            wait = None if left is None else max(GRACE, min(SLICE, left - self.time.now()))
            done, _ = await asyncio.wait({self.pending}, timeout=wait)
            if done:
                raw, self.pending = self.pending.result(), None
                return raw
            if left is not None and left <= self.time.now():
                for d, number, table in due:
                    if d <= self.time.now():
                        await table.on_clock()
                        if not table.snapshot(None).in_hand:
                            await self.hand_over(number)
                return TIMED_OUT

    def deadline(self, number: int, table: Table) -> float | None:
        """When the turn at table ``number`` runs out (None: no clock). A turn carried
        over a restart has a whole clock from the restart: nobody could type while the
        terminal was stopped (R-19.72)."""
        due = table.deadline() if self.clock > 0 else None
        if due is not None and self.carried.get(number) == table.snapshot(None).turn:
            due = max(due, self.started + self.clock)
        return due

    async def entries(self, lines: Lines) -> bool:
        """The rebuys, add-ons and re-entries asked for, made at tables between hands;
        a player who busted and may enter again is asked once, even across a restart
        (R-19.74, R-19.69). False: quit."""
        await self.wishes()
        for user, name in self.humans.items():
            wait = self.run.waiting_entry(user)
            if wait is not None and self.asked.get(user) != wait:
                self.asked[user] = wait
                if not await self.ask_rebuy(user, name, wait, lines):
                    return False
        for user, name in self.humans.items():
            mine = [e for e in self.run.st.entries if e.player == user]
            if not mine or any(e.entry in self.run.st.seats for e in mine):
                continue
            if self.run.waiting_entry(user) is not None:
                continue  # asked to rebuy first
            if self.run.queue.waiting(user) or not self.may_reenter(len(mine)):
                continue
            if not await self.run.queue.offer(user, len(mine)):
                continue
            self.emit(self.words("tourney.reentry", name=name))
            raw = await self.next_line(lines, [])
            if raw is None or not await self.line(raw):
                return False
        return True

    def answers(self) -> tuple[set[str], set[str]]:
        """The words that answer a rebuy question yes and no: in the terminal's
        language and in English, and their first letters."""
        said = []
        for key in (ANSWER_YES, ANSWER_NO):
            words = {folded(self.words.render(msg(key))), folded(render(msg(key), "en"))}
            said.append(words | {w[:1] for w in words if w})
        return said[0], said[1]

    def ask_again(self, user: str, wait: Waiting) -> None:
        """``user``, waiting to rebuy, typed something else: the question stands, put
        again with the seconds he has left (R-19.121)."""
        question = self.words.render(rebuy_question(self.run.st, wait, self.time.now()))
        self.emit(f"! {self.humans[user]}: {question}")

    async def ask_rebuy(self, user: str, name: str, wait: Waiting, lines: Lines) -> bool:
        """R-19.48: ``user`` busted while a rebuy is sold to him: asked whether he
        rebuys; ``yes`` rebuys (a drawn seat), ``no`` puts him out; any other line is
        taken as usual. The question stands until his wait runs out (then he is out).
        False: the input ended or said quit."""
        run = self.run
        self.emit(f"{name}: {self.words.render(rebuy_question(run.st, wait, self.time.now()))}")
        yes, no = self.answers()
        while run.waiting_entry(user) == wait:
            left = wait.until - self.time.now()
            if left <= 0:
                await run.tick()  # his time ran out: he is out now
                break
            if self.pending is None:
                self.pending = asyncio.ensure_future(lines())
            done, _ = await asyncio.wait({self.pending}, timeout=max(GRACE, min(SLICE, left)))
            if not done:
                continue
            raw, self.pending = self.pending.result(), None
            if raw is None:
                return False
            said, colon, rest = raw.partition(":")
            mine = colon and said.strip().casefold() == user
            typed = folded(rest if mine else raw)
            if typed in yes or typed in no:
                key = self.key("wait")
                decision = (
                    await run.rebuy(user, key=key)
                    if typed in yes
                    else await run.decline(user, key=key)
                )
                if decision.refusal is not None:
                    self.emit(f"! {name}: {self.words.render(decision.refusal)}")
                break
            if not await self.line(raw):
                return False
        return True

    async def robots_reenter(self) -> None:
        """R-19.113: each robot out while he may re-enter draws once per entry whether
        he does (seeded); one who does is entered when a table between hands seats him."""
        st = self.run.st
        if not st.registration_open or not st.config.entries.reentries:
            return
        for player in sorted({e.player for e in st.entries} - set(self.humans)):
            mine = [e for e in st.entries if e.player == player]
            if any(e.entry in st.seats for e in mine) or self.run.waiting_entry(player):
                continue
            if not self.may_reenter(len(mine)):
                continue
            drawn = self.robot_wants.get(player)
            if drawn is None or drawn[0] != len(mine):
                drawn = (len(mine), self.rng.random() < ROBOT_REENTRY)
                self.robot_wants[player] = drawn
            if drawn[1]:
                await self.run.register(player, mine[-1].name)  # no seat now: later

    def may_reenter(self, entries: int) -> bool:
        st = self.run.st
        return st.registration_open and entries <= st.config.entries.reentries

    async def ask(self, user: str, what: str) -> None:
        """A rebuy or the add-on (or, once he is out, a re-entry) asked by ``user``:
        made now between his hands, else kept in the tournament's journal and made
        when his hand is over (R-19.74); a refusal says why."""
        st = self.run.st
        mine = [e for e in st.entries if e.player == user]
        addon = what == "addon"
        key = self.key(what)
        if (
            addon
            or not mine
            or any(e.entry in st.seats for e in mine)
            or self.run.waiting_entry(user) is not None
        ):
            decision = await queue.ask(self.run, user, addon=addon, key=key)
            if decision.notices and decision.notices[0] == queue.queued_words(addon):
                self.emit(self.words("tourney.after_hand", name=self.humans[user]))
            if decision.refusal is not None:
                self.emit(f"! {self.humans[user]}: {self.words.render(decision.refusal)}")
        else:
            asked = queue.Asked(key, user, entries=len(mine), reentry=True)
            await self.run.queue.add(asked)
            if await self.reenter(asked) is None:  # no table between hands: at the next
                self.emit(self.words("tourney.after_hand", name=self.humans[user]))
        await self.wishes()

    async def reenter(self, asked: queue.Asked) -> Decision | None:
        """A re-entry asked, made once (settled in the journal): None while no table
        is between hands to seat him."""
        st = self.run.st
        if sum(1 for e in st.entries if e.player == asked.player) > asked.entries:
            decision = Decision()  # entered before a restart cut its settling short
        else:
            decision = await self.run.register(asked.player, self.humans[asked.player])
            if decision.refusal is not None and decision.refusal.key.endswith(".no_seat"):
                return None
        await queue.record(self.run.queue, asked, decision)
        return decision

    async def wishes(self) -> None:
        """Queued purchases made where the buyer is between hands, in the order asked
        (re-entries here, the rest by the runner), and each refusal said once."""
        for asked in self.run.queue.waiting():
            if asked.reentry and asked.player in self.humans:
                await self.reenter(asked)
        await queue.settle(self.run)
        for outcome in self.run.queue.untold():
            player = outcome.asked.player
            if not outcome.made and player in self.humans:
                self.emit(f"! {self.humans[player]}: {self.words.render(outcome.said)}")
            await self.run.queue.mark_told(outcome.asked.key)

    def to_move(self, table: Table, view: TableView) -> tuple[str, TableView] | None:
        """Who acts next and his own view: the player in turn, or the first in the
        hand's order of those acting together (sealed declarations, Guts calls)."""
        dealt = sorted(
            (s for s in view.seats if s.position is not None),
            key=lambda s: (s.seat != view.to_act, s.position),
        )
        for seat in dealt:
            own = table.snapshot(seat.user_id)
            if own.legal is not None:
                return seat.user_id, own
        return None

    async def step(self, waiting: Collection[int] = ()) -> None:
        """One robot action at a table mid-hand that waits for nobody typing
        (``waiting``: the tables that do), or a deal where one may deal."""
        run = self.run
        playing = [
            (n, p.table)
            for n, p in sorted(run.ports.items())
            if not p.between_hands() and n not in waiting
        ]
        ready = run.ready()
        if playing and (not ready or self.rng.random() < 0.5):
            number, table = self.rng.choice(playing)
            view = table.snapshot(None)
            mover = self.to_move(table, view)
            if mover is None:
                raise TableError(self.words("robots.stuck"))
            user, own = mover
            assert own.legal is not None
            mine = next(s for s in own.seats if s.user_id == user)
            await table.act(
                user, pick(own.legal, self.rng, mine.cards), key=f"r:{view.turn}", turn=view.turn
            )
            if not table.snapshot(None).in_hand:
                await self.hand_over(number)
            return
        if not ready:
            raise TableError(self.words("robots.stuck"))
        number = self.rng.choice(ready)
        table = run.table(number)
        before = table.snapshot(None).hand_no
        if not await run.deal(number):
            raise TableError(self.words("robots.stuck"))
        view = table.snapshot(None)
        if view.hand_no > before and not view.in_hand:  # over at the deal
            await self.told(number, view.hand_no)

    async def hand_over(self, number: int) -> None:
        table = self.run.table(number)
        await self.told(number, table.snapshot(None).hand_no)
        await self.run.after_hand(number)

    async def told(self, number: int, hand: int) -> None:
        """A finished hand's lines: all of them where someone types (the presenter told
        them as they came, so only the result), its result where robots play."""
        table = self.run.table(number)
        if self.args.quiet or self.human_at(table):
            return  # told line by line as it was played
        lines = await table.hand_told(hand)
        keep = [m for m in lines if m.key.startswith(RESULT_KEYS)]
        prefix = self.words("tourney.table", table=number)
        for m in keep:
            self.emit(f"{prefix} {self.words.render(m)}")

    def drawing(self, table: Table) -> str:
        view = table.snapshot(None)
        legal = None
        if view.options_said is not None:
            mover = next((s for s in view.seats if s.seat == view.to_act), None)
            legal = table.snapshot(mover.user_id).legal if mover else None
        number = next((n for n, p in self.run.ports.items() if p.table is table), None)
        if number is not None:  # the table as players know it: by its number
            view = dataclasses.replace(
                view,
                table_id=self.words("tourney.table_head", table=number),
                deadline=self.deadline(number, table),
            )
        return draw(self.words, view, self.time.now() if self.clock > 0 else None, legal)

    # ------------------------------------------------------------ typed lines

    def key(self, label: str) -> str:
        self.n += 1
        return f"tourney:{label}:{self.n}:{random.getrandbits(32)}"

    async def line(self, raw: str) -> bool:
        """One typed line; False to stop. A line not understood changes nothing."""
        text = raw.strip()
        if not text or text.startswith("#"):
            return True
        first, _, rest = text.partition(" ")
        if first.lower() in COMMANDS and ":" not in first:
            return await self.command(first.lower(), rest.strip())
        name, colon, action = text.partition(":")
        try:
            user = check_name(name).casefold() if colon else ""
        except ParseError as exc:
            self.emit(f"! {self.words.refusal(exc)}")
            return True
        if user not in self.humans:
            self.emit("! " + self.words("tourney.who", names=", ".join(self.humans.values())))
            return True
        await self.player(user, action.strip())
        return True

    async def command(self, cmd: str, rest: str) -> bool:
        if cmd in ("quit", "exit"):
            return False
        if cmd in ("help", "?"):
            self.emit(self.words("tourney.help"))
        elif cmd == "table":
            for table in self.tables():
                if self.human_at(table):
                    self.emit(self.drawing(table))
        elif cmd == "status":
            for m in director.status(self.run.st):
                self.emit(self.words.render(m))
        elif cmd == "export":
            await self.export(Path(rest or "."))
        elif cmd in ("pause", "resume"):
            control = self.run.pause if cmd == "pause" else self.run.resume
            decision = await control(HOST, key=self.key(cmd))
            if decision.refusal is not None:
                self.emit("! " + self.words.render(decision.refusal))
        return True

    def table_of(self, user: str) -> tuple[int, Table] | None:
        return next(
            (
                (n, p.table)
                for n, p in sorted(self.run.ports.items())
                if any(s.user_id == user for s in p.table.snapshot(None).seats)
            ),
            None,
        )

    async def player(self, user: str, action: str) -> None:
        name = self.humans[user]
        phrase = player_phrase(" ".join(action.lower().split()))
        if phrase in ENTRY_WORDS:
            await self.ask(user, ENTRY_WORDS[phrase])
            return
        if any(phrase == w or phrase.startswith(w + " ") for w in CASH_ONLY):
            typed = " ".join(action.split())[:40]
            self.emit("! " + self.words("tourney.cash_only", name=name, what=typed))
            return
        found = self.table_of(user)
        wait = self.run.waiting_entry(user)
        if found is None and wait is not None:
            self.ask_again(user, wait)  # he waits to rebuy: not out, the question stands
            return
        if found is None:
            self.emit("! " + self.words("tourney.not_seated", name=name))
            return
        number, table = found
        if phrase in ("cards", "my cards", "hand", "my hand", "hole cards"):
            view = table.snapshot(user)
            mine = next((s for s in view.seats if s.user_id == user), None)
            shown = cards_text(self.words, mine.cards) if mine and mine.cards else ""
            shown = shown or self.words("cards.none")
            if view.legal is not None:  # what his turn prompt promises
                options = self.words(
                    "cards.options", options=self.words.render(view.legal.options())
                )
                shown = f"{shown} | {options}"
            self.emit(f"{name}: {shown}")
            return
        if not phrase:
            self.emit("! " + self.words("player.empty", name=name))
            return
        self.presenter.answering = True  # the refusal is printed here, once
        try:
            out = await table.act(user, action, key=self.key("act"))
        finally:
            self.presenter.answering = False
        if not out.ok:
            if table.snapshot(user).legal is None:  # not his turn: where and when
                self.emit(f"! {self.not_now(number, table, user)}")
            elif out.msg is not None:  # a refusal always says why, as a message
                self.emit(f"! {name}: {self.words.render(out.msg)}")
            return
        if not table.snapshot(None).in_hand:
            await self.hand_over(number)

    def not_now(self, number: int, table: Table, user: str) -> str:
        """Where ``user`` plays and when he may act there (R-19.73)."""
        name = self.humans[user]
        view = table.snapshot(None)
        seat = next((s for s in view.seats if s.user_id == user), None)
        if not view.in_hand:
            return self.words("tourney.wait.deal", name=name, table=number)
        if seat is None or seat.position is None or seat.state in ("folded", "all_in"):
            return self.words("tourney.wait.hand", name=name, table=number)
        mover = self.to_move(table, view)
        who = self.run.st.names().get(mover[0], mover[0]) if mover else "?"
        return self.words("tourney.wait.turn", name=name, table=number, who=who)

    # ------------------------------------------------------------ the end

    def standings_lines(self) -> list[str]:
        """The final standings as columns: places right-aligned, names left-aligned,
        each as wide as its widest entry in the terminal's language (R-19.110)."""
        lang = self.words.lang
        rows = [
            (
                place_words(r.first, r.last, lang),
                self.words("tourney.place.who", name=r.named(lang)),
                self.words("tourney.place.money", prize=Chips(r.prize), bounties=Chips(r.bounties)),
            )
            for r in results(self.run.st)
        ]
        return [self.words("tourney.standings", title=self.title), *columns(rows)]

    def standings_view(self) -> StandingsView:
        st = self.run.st
        rows = tuple(
            Finisher(r.first, r.last, r.name, r.prize, r.bounties, r.number) for r in results(st)
        )
        return StandingsView(self.title, self.day, len(st.entries), st.pool, rows)

    def failed(self, folder: Path, exc: OSError) -> None:
        self.emit("! " + self.words("tourney.export_failed", folder=str(folder), error=str(exc)))

    async def export(self, folder: Path) -> None:
        """The hands so far (PHH, the spectator's copy), and once it is over the results
        (CSV) and the standings picture, into ``folder``."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.emit(
                "! " + self.words("tourney.export_failed", folder=str(folder), error=str(exc))
            )
            return
        files = await hand_files(self.run, self.title)
        over = self.run.st.status == "finished"
        view = self.standings_view() if over else None
        lang = self.words.lang

        def write() -> None:
            hands = folder / "hands"
            hands.mkdir(exist_ok=True)
            for name, text in files:
                (hands / name).write_text(text, encoding="utf-8")
            if view is not None:
                csv_text = results_csv(results(self.run.st), lang)
                (folder / "results.csv").write_text(csv_text, encoding="utf-8")
                picture = render_standings(view, locale=lang)
                (folder / picture.filename).write_bytes(picture.data)

        try:
            await asyncio.to_thread(write)  # files and Pillow: off the event loop
        except OSError as exc:
            self.emit(
                "! " + self.words("tourney.export_failed", folder=str(folder), error=str(exc))
            )
            return
        key = "tourney.exported" if over else "tourney.exported_hands"
        self.emit(self.words(key, hands=Count(len(files)), folder=str(folder)))


async def main(
    args: argparse.Namespace,
    store: StorePort,
    lines: Callable[[], Awaitable[str | None]],
    out: TextIO,
    words: Words,
    interactive: bool = False,
) -> int:
    """Set up, play and tell one tournament in ``store``; ``lines`` gives the typed
    lines (None at the end of the input). 0 when it was played to a winner."""
    try:
        tourney = Tourney(args, out, words)
    except ParseError as exc:  # a name that cannot be a player's
        print(f"chipfist: {words.refusal(exc)}", file=out, flush=True)
        return 2
    humans = len(tourney.humans)
    if humans < len(tourney.names) and not args.robots:  # names ignore case
        folded = [n.casefold() for n in tourney.names]
        twice = next(n for i, n in enumerate(folded) if n in folded[:i])
        print(f"chipfist: {words('tourney.same_name', name=twice)}", file=out, flush=True)
        return 2
    config = config_from_args(args, humans, words)
    if isinstance(config, str):
        print(f"chipfist: {config}", file=out, flush=True)
        return 2
    try:
        await tourney.open(store, config)
        if humans and interactive:
            tourney.emit(words("tourney.help"))
        if not await tourney.play(lines):
            tourney.emit(words("tourney.stopped"))
            return 1
        for line in tourney.standings_lines():
            tourney.emit(line)
        if args.export:
            await tourney.export(Path(args.export))
    finally:
        if tourney.service is not None:
            await tourney.service.stop()
    return 0
