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
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final, TextIO

from bot.local.drawing import cards_text, draw
from bot.local.presenter import TerminalPresenter
from bot.local.robot import pick
from bot.local.words import Words, player_phrase
from bot.poker.messages import Chips, Count, Msg
from bot.poker.variants import VARIANTS
from bot.table.clocks import SystemTime
from bot.table.errors import TableError
from bot.table.games import split_game, split_rotation
from bot.table.ports import Notice, StorePort
from bot.table.service import TableService
from bot.table.table import Table
from bot.table.text_actions import ParseError, check_name
from bot.table.view import TableView
from bot.tournament import director
from bot.tournament.log import Created
from bot.tournament.structure import PRESETS, Config, Entries, Forced, preset
from bot.tourney_run import games as tourney_games
from bot.tourney_run.journal import journal_id
from bot.tourney_run.results import hand_files, place_words, results, results_csv
from bot.tourney_run.runner import Runner
from cards_art import Finisher, StandingsView, render_standings

FORMATS: Final = {"sng": "sit_and_go", "mtt": "scheduled"}
MTT_SEATS: Final = 9
DEFAULTS: Final = {"sng": 6, "mtt": 18}
STACK: Final = 1500
BUY_IN: Final = 100
TOURNEY_ID: Final = "local-tourney"

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

COMMANDS: Final = frozenset({"help", "?", "table", "status", "export", "quit", "exit"})
"""What the terminal takes in a tournament besides players' lines."""


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
        return say("tourney.players", low=low, high=high, named=humans)
    dealt = split_rotation(str(args.game or "holdem")) or ("holdem",)
    kinds = [VARIANTS.get(split_game(g)[0]) for g in dealt]
    if any(k is None or k.forced not in ("blinds", "bring_in") for k in kinds):
        return say("tourney.game", game=str(args.game))
    buy_in = BUY_IN if args.buy_in is None else int(args.buy_in)
    if args.stack < 1 or args.bounty < 0 or args.bounty > buy_in:
        return say("tourney.money", buy_in=buy_in)
    # A stud deal or a mixed rotation's levels are written in the limit form.
    forced: Forced = "bring_in" if any(k and k.forced == "bring_in" for k in kinds) else "blinds"
    event = Config(game=dealt)
    seats = players if fmt == "sng" else min(MTT_SEATS, tourney_games.most_players(event))
    config = Config(
        game=dealt,
        format="sit_and_go" if fmt == "sng" else "scheduled",
        buy_in=buy_in,
        stack=args.stack,
        schedule=preset(args.structure, args.stack, unit="hands", forced=forced),
        seats=seats,
        max_players=players if fmt == "sng" else 0,
        entries=Entries(bounty=args.bounty),
    )
    why = tourney_games.refusal(config)
    return config if why is None else say.render(why)


class Shown(TerminalPresenter):
    """The terminal presenter for the tables where someone types (``watched``); the
    robots' tables are told by their hands' result lines."""

    def __init__(
        self, out: TextIO, words: Words, watched: Callable[[str], bool], quiet: bool = False
    ) -> None:
        super().__init__(out, words=words, quiet=quiet)
        self.watched = watched

    async def public(self, table_id: str, notice: Notice) -> None:
        if self.watched(table_id):
            await super().public(table_id, notice)

    async def private(self, table_id: str, user_id: str, notice: Notice) -> None:
        if self.watched(user_id):
            await super().private(table_id, user_id, notice)


class Tourney:
    """One tournament at the terminal: set up, played, told, exported."""

    def __init__(self, args: argparse.Namespace, out: TextIO, words: Words) -> None:
        self.args = args
        self.out = out
        self.words = words
        self.names = [check_name(n) for n in args.players]
        self.humans: dict[str, str] = {} if args.robots else {n.casefold(): n for n in self.names}
        self.presenter = Shown(out, words, self.watched, bool(args.quiet))
        self.store: StorePort | None = None
        self.service: TableService | None = None
        self.runner: Runner | None = None
        self.rng = random.Random(args.seed)
        self.title = args.title or words("tourney.title." + str(args.tournament))
        self.day = datetime.date.today()
        self.prompted: tuple[int, int] | None = None
        self.n = 0

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
        self.service = TableService(store, self.presenter, SystemTime(), seed=self.args.seed)
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
        st = runner.st
        left, entries = Count(len(st.seats)), len(st.entries)
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

    async def play(self, lines: Callable[[], Awaitable[str | None]]) -> bool:
        """Until the tournament is over (True), or the input ends or says quit while a
        player must act (False)."""
        run = self.run
        while run.st.status == "running":
            await run.tick()
            waiting = self.human_to_act()
            if waiting is not None:
                table, _ = waiting
                view = table.snapshot(None)
                if self.prompted != (id(table), view.turn):
                    self.prompted = (id(table), view.turn)
                    self.emit(self.drawing(table))
                raw = await lines()
                if raw is None or not await self.line(raw):
                    return False
                continue
            await self.step()
        return True

    def human_to_act(self) -> tuple[Table, str] | None:
        for table in self.tables():
            view = table.snapshot(None)
            if view.in_hand:
                mover = self.to_move(table, view)
                if mover is not None and mover[0] in self.humans:
                    return table, mover[0]
        return None

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

    async def step(self) -> None:
        """One robot action at a table mid-hand, or a deal where one may deal."""
        run = self.run
        playing = [(n, p.table) for n, p in sorted(run.ports.items()) if not p.between_hands()]
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
        return draw(self.words, view, table.time.now(), legal)

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
            self.emit(self.words("help"))
        elif cmd == "table":
            for table in self.tables():
                if self.human_at(table):
                    self.emit(self.drawing(table))
        elif cmd == "status":
            for m in director.status(self.run.st):
                self.emit(self.words.render(m))
        elif cmd == "export":
            await self.export(Path(rest or "."))
        return True

    def table_of(self, user: str) -> Table | None:
        return next(
            (t for t in self.tables() if any(s.user_id == user for s in t.snapshot(None).seats)),
            None,
        )

    async def player(self, user: str, action: str) -> None:
        table = self.table_of(user)
        name = self.humans[user]
        if table is None:
            self.emit("! " + self.words("tourney.not_seated", name=name))
            return
        phrase = player_phrase(" ".join(action.lower().split()))
        if phrase in ("cards", "my cards", "hand", "my hand", "hole cards"):
            view = table.snapshot(user)
            mine = next((s for s in view.seats if s.user_id == user), None)
            shown = cards_text(self.words, mine.cards) if mine and mine.cards else ""
            self.emit(f"{name}: {shown or self.words('cards.none')}")
            return
        if not phrase:
            self.emit("! " + self.words("player.empty", name=name))
            return
        number = next(n for n, p in self.run.ports.items() if p.table is table)
        self.presenter.answering = True  # the refusal is printed here, once
        try:
            out = await table.act(user, action, key=self.key("act"))
        finally:
            self.presenter.answering = False
        if not out.ok:
            if out.msg is not None:  # a refusal always says why, as a message
                self.emit(f"! {name}: {self.words.render(out.msg)}")
            return
        if not table.snapshot(None).in_hand:
            await self.hand_over(number)

    # ------------------------------------------------------------ the end

    def standings_lines(self) -> list[str]:
        lang = self.words.lang
        out = [self.words("tourney.standings", title=self.title)]
        for r in results(self.run.st):
            place = place_words(r.first, r.last, lang)
            out.append(
                "  "
                + self.words(
                    "tourney.place",
                    place=place,
                    name=r.name,
                    prize=Chips(r.prize),
                    bounties=Chips(r.bounties),
                )
            )
        return out

    def standings_view(self) -> StandingsView:
        st = self.run.st
        rows = tuple(Finisher(r.first, r.last, r.name, r.prize, r.bounties) for r in results(st))
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
    config = config_from_args(args, humans, words)
    if isinstance(config, str):
        print(f"chipfist: {config}", file=out, flush=True)
        return 2
    try:
        await tourney.open(store, config)
        if humans and interactive:
            tourney.emit(words("help"))
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
