"""When a mixed event's tables change game (R-19.54 to R-19.58): by level (the
default), by orbit, or by deal (R-19.50), played by robots through the table service,
said on the status board and the level's notice, chosen at ``/tournament create`` and
the terminal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.local.terminal import parse_args
from bot.local.tourney import config_from_args
from bot.local.words import Words
from bot.poker.messages import Chips, Msg, msg
from bot.table import games as table_games
from bot.table.ports import NullPresenter, StorePort, open_store
from bot.table.service import TableService
from bot.tournament import director, rotation
from bot.tournament.director import State
from bot.tournament.log import Out
from bot.tournament.structure import STUD_GAMES, Config, Level, preset
from bot.tourney_run import games
from bot.tourney_run.options import Options, config
from bot.tourney_run.robots import play, step
from bot.tourney_run.runner import Runner
from bot.words import render
from bot.words.locales import SUPPORTED

STACK = 1000


def _horse(rotate: str, *, seats: int = 8, length: int = 3, players: int = 0) -> Config:
    made = config(
        Options(
            game="horse",
            stack=STACK,
            structure="turbo",
            unit="hands",
            length=length,
            format="sit_and_go" if players else "scheduled",
            players=players,
            seats=seats,
            rotate=rotate,
        )
    )
    assert isinstance(made, Config), made
    return made


async def _started(path: str, made: Config, players: int, seed: int) -> tuple[StorePort, Runner]:
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed=f"rotate{seed}")
    runner = Runner(service, "rot", rng=random.Random(seed))
    assert (await runner.create(made)).ok
    for n in range(players):
        await runner.register(f"p{n}", f"Player {n}")
    if runner.st.status != "running":
        assert (await runner.start()).ok
    runner.check_chips()
    return store, runner


def _over(runner: Runner, players: int) -> None:
    st = runner.st
    assert st.status == "finished" and st.winner is not None
    runner.check_chips()
    assert runner.taken_at_end == players * STACK == st.chips


async def test_R_19_55_horse_by_level_every_table_deals_the_levels_game(tmp_path: Path) -> None:
    """R-19.55, R-19.50, R-19.28, R-2.5: a HORSE freezeout of three tables by level,
    robots to one winner: every deal at every table is the game of the level it was
    dealt in (hold'em at level 1, Omaha hi-lo at 2, ...), at that game's stakes (the
    stud games' ante and bring-in, the others' blinds of half the small bet); the game
    changes when the level does, for all tables alike; the hold'em button and blinds
    stay frozen through a stud level and the big blind moves on from where it was;
    chips constant after every hand."""
    players = 20
    store, runner = await _started(str(tmp_path / "lvl.sqlite3"), _horse("level"), players, 3)
    assert runner.st.config.rotate == "level" and len(runner.ports) == 3
    dealt_games = games.games_of(runner.st.config)
    by_level: dict[int, set[str]] = {}
    frozen: dict[int, tuple[int | None, int | None, int | None]] = {}
    stud_deals = moved_on = 0

    async def dealt(number: int) -> None:
        nonlocal stud_deals, moved_on
        st = runner.table(number).state
        info = st.current or st.recent[st.hand_no]
        n = runner.st.config.schedule.level_number(runner.st.level)
        assert (info.variant, info.limit) == dealt_games[(n - 1) % len(dealt_games)]
        by_level.setdefault(n, set()).add(info.variant)
        item = runner.st.config.schedule.level(runner.st.level)
        level, rules = dict(info.level), info.start.rules
        if games.is_stud(info.variant):
            stud_deals += 1
            assert rules.antes == (item.ante,) * len(info.order) and item.ante > 0
            assert level["small_blind"] == 0 and rules.bring_in == item.bring_in
            if number in frozen:  # nothing moved by a stud deal
                assert (st.prev_button, st.prev_sb, st.prev_bb) == frozen[number]
        else:
            assert not any(rules.antes)
            assert (level["small_blind"], level["big_blind"]) == (item.small // 2, item.small)
            last_bb = frozen.get(number, (None, None, None))[2]
            if last_bb is not None:
                seats = sorted(info.order)
                later = [s for s in seats if s > last_bb] + [s for s in seats if s <= last_bb]
                assert info.bb_seat == later[0], (number, info.hand_no, last_bb)
                moved_on += 1
            frozen[number] = (st.prev_button, st.prev_sb, st.prev_bb)

    async def after(number: int, outs: list[Out]) -> None:
        runner.check_chips()

    await play(runner, random.Random(3), after, dealt)
    _over(runner, players)
    # All tables alike: one game per level, and the game changed with the level.
    assert all(len(seen) == 1 for seen in by_level.values()), by_level
    assert len(by_level) >= 3 and stud_deals > 0 and moved_on > 0
    order = [next(iter(by_level[n])) for n in sorted(by_level)]
    assert order[:3] == ["holdem", "omaha8", "razz"]
    await store.close()


async def test_R_19_56_horse_by_orbit_deals_a_game_per_orbit(tmp_path: Path) -> None:
    """R-19.56, R-2.5: by orbit, a table deals each game for as many deals as it has
    seats, whatever the level, then the next game; chips constant."""
    seats = players = 6
    made = _horse("orbit", seats=seats, players=players)
    store, runner = await _started(str(tmp_path / "orbit.sqlite3"), made, players, 4)
    rotation_games = games.games_of(runner.st.config)
    seen: list[str] = []

    async def dealt(number: int) -> None:
        st = runner.table(number).state
        info = st.current or st.recent[st.hand_no]
        expected = rotation_games[((info.hand_no - 1) // seats) % len(rotation_games)]
        assert (info.variant, info.limit) == expected, info.hand_no
        seen.append(info.variant)

    await play(runner, random.Random(4), dealt=dealt)
    _over(runner, players)
    assert seen[:seats] == ["holdem"] * seats
    assert len(seen) > seats and seen[seats] == "omaha8"
    await store.close()


async def test_R_19_58_a_tables_game_by_level_comes_back_after_a_restart(tmp_path: Path) -> None:
    """R-19.58: the game of the level is the tournament's record: after the service is
    dropped and recovered, every table's next game is the level's again."""
    path = str(tmp_path / "restart.sqlite3")
    store, runner = await _started(path, _horse("level", length=2), 12, 5)
    rng = random.Random(5)
    while runner.st.config.schedule.level_number(runner.st.level) < 3:
        await step(runner, rng)
    before = {p.table.table_id: p.table.state.next_game() for p in runner.ports.values()}
    level = runner.st.level
    await store.close()
    store = await open_store(path)
    service = TableService(store, NullPresenter(), seed="rotate5")
    await service.recover()
    again = Runner(service, "rot", rng=random.Random(5))
    assert await again.load() and again.st.level == level
    after = {p.table.table_id: p.table.state.next_game() for p in again.ports.values()}
    assert after == before and set(after.values()) == {("razz", "fixed")}
    await store.close()


def _state(rotate: str, level: int) -> State:
    made = Config(
        game=("horse",),
        stack=STACK,
        schedule=preset("regular", STACK, unit="hands", forced="bring_in"),
        seats=8,
        rotate="level" if rotate == "level" else "deal",
    )
    return State(made, status="running", level=level)


def _chips(m: Msg, name: str) -> int:
    value = dict(m.params)[name]
    assert isinstance(value, Chips)
    return value.n


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4, 5, 8])
def test_R_19_55_a_levels_words_name_its_game_and_that_games_stakes(level: int) -> None:
    """R-19.55: by level, the status board and the level's notice say the game the
    tables deal and only that game's forced bets, the very ones its tables deal."""
    state = _state("level", level)
    sched = state.config.schedule
    n = sched.level_number(level)
    game = table_games.HORSE[(n - 1) % 5]
    variant = game.split(":")[0]
    said = state.level_words()
    assert director.status(state)[0] == said
    assert dict(said.params)["game"] == msg(f"game.{variant}")
    item = sched.level(level)
    assert isinstance(item, Level)
    dealt = games.game_level(item, "bring_in", variant, True)
    if games.is_stud(variant):
        assert said.key == "rotation.level.stud"
        assert (_chips(said, "ante"), _chips(said, "bring_in")) == (dealt.ante, dealt.bring_in)
    else:
        assert said.key == "rotation.level.limit"
        assert (_chips(said, "blind_small"), _chips(said, "blind_big")) == (
            dealt.small_blind,
            dealt.big_blind,
        )
    assert (_chips(said, "small"), _chips(said, "big")) == (dealt.small_bet, dealt.big_bet)
    for locale in SUPPORTED:
        text = render(said, locale)
        assert text and "{" not in text and str(dealt.small_bet) in text, (locale, text)
    # By deal, the level names no game: every game is dealt in it.
    assert _state("deal", level).level_words().key == "tournament.level_mixed"


@pytest.mark.parametrize(
    ("game", "forced", "keys"),
    [
        (("holdem", "omaha"), "blinds", {"rotation.level.blinds_no_ante"}),
        (("holdem", "stud"), "blinds", {"rotation.level.blinds_no_ante", "rotation.level.limits"}),
    ],
)
def test_R_19_55_a_blinds_schedules_level_names_its_game(
    game: tuple[str, ...], forced: str, keys: set[str]
) -> None:
    """R-19.55: a rotation dealt with a blinds schedule says its level's game with its
    blinds (a stud game its limits, the table deriving its ante and bring-in)."""
    made = Config(game=game, stack=STACK, schedule=preset("turbo", STACK, forced="blinds"))
    said = {State(made, level=i).level_words().key for i in range(2)}
    assert said == keys
    for i in range(2):
        m = State(made, level=i).level_words()
        assert dict(m.params)["game"] == msg(f"game.{game[i]}")
        for locale in SUPPORTED:
            assert "{" not in render(m, locale)


def test_R_19_54_level_is_the_default_and_a_bad_choice_is_refused() -> None:
    """R-19.54, R-19.57: a new tournament changes game by level unless told orbit or
    deal; any other choice is refused saying the three, and nothing is made."""
    made = config(Options(game="horse"))
    assert isinstance(made, Config) and made.rotate == "level"
    for choice in rotation.ROTATE:
        made = config(Options(game="horse", rotate=choice.upper()))
        assert isinstance(made, Config) and made.rotate == choice
    for bad in ("", "hand", "sometimes", "levels"):
        refused = config(Options(game="horse", rotate=bad))
        assert isinstance(refused, Msg) and refused.key == "rotation.refuse.rotate"
        for locale in SUPPORTED:
            text = render(refused, locale)
            assert all(c in text for c in rotation.ROTATE), (locale, text)
    with pytest.raises(ValueError):
        Config(rotate="often")  # type: ignore[arg-type]


def test_R_19_58_the_choice_is_recorded_and_an_old_record_deals_by_deal() -> None:
    """R-19.58: the choice is kept with the tournament's record; a record made before
    the choice existed keeps its meaning, one game per deal (R-19.50)."""
    for choice in rotation.ROTATE:
        made = Config(game=("horse",), rotate=choice)
        assert Config.from_payload(made.to_payload()) == made
    old = Config(game=("horse",), rotate="deal").to_payload()
    assert "rotate" not in old
    assert Config.from_payload(old).rotate == "deal"


def test_R_19_56_a_pick_follows_the_choice() -> None:
    """R-19.55, R-19.56: the pick a table deals by: the level's game for every deal,
    a game per orbit of the table's seats, none (the table's own rotation) by deal or
    for one game."""
    horse = ("horse",)
    assert rotation.pick(horse, "level", 1, 8) == (0, 0)
    assert rotation.pick(horse, "level", 7, 8) == (1, 0)  # a sixth level: Omaha again
    assert rotation.pick(horse, "orbit", 4, 6) == (0, 6)
    assert rotation.pick(horse, "deal", 4, 6) is None
    assert rotation.pick(("holdem",), "level", 3, 9) is None
    assert rotation.dealt(horse) == table_games.HORSE
    assert rotation.STUD == STUD_GAMES


def test_R_19_57_the_terminal_takes_rotate() -> None:
    """R-19.57: ``--rotate level|orbit|deal`` at the terminal, level by default."""
    words = Words()
    base = ["--tournament", "mtt", "--players", "12", "--robots", "--game", "horse"]
    made = config_from_args(parse_args(base), 0, words)
    assert isinstance(made, Config) and made.rotate == "level"
    for choice in rotation.ROTATE:
        made = config_from_args(parse_args([*base, "--rotate", choice]), 0, words)
        assert isinstance(made, Config) and made.rotate == choice
    with pytest.raises(SystemExit):
        parse_args([*base, "--rotate", "often"])


def test_R_19_54_the_announcement_names_the_games_and_when_they_change() -> None:
    """R-19.54: an event's game as its announcement says it: one game by its name (and
    structure where it names one), a rotation its games and when they change."""
    assert rotation.games_said(("holdem",), "level") == msg("game.holdem")
    fixed = rotation.games_said(("razz:fixed",), "level")
    assert fixed == msg("table.stakes.game.fixed", game=msg("game.razz"))
    for choice in rotation.ROTATE:
        said = rotation.games_said(("horse",), choice)
        assert said.key == f"rotation.games.{choice}"
        for locale in SUPPORTED:
            text = render(said, locale)
            assert "{" not in text and render(msg("game.razz"), locale) in text, (locale, text)
    assert "each level" in render(rotation.games_said(("horse",), "level"), "en")
