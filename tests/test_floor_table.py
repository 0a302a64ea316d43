"""Floor review (issue 12) at the table: the button and blinds when players come and go
(R-1.3, R-1.4, R-1.8, R-1.9), default structures (R-16.9), settings ranges (R-2.6),
clocks (R-1.10) and dealer's choice (R-16.2).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.poker.cards import stacked_deck
from bot.poker.messages import Chips, Count, Msg, Name, Rule, joined, msg
from tests.harness import HOST, Harness
from tests.said import keys_in, said_in


async def _five(h: Harness, **settings_: Any) -> Any:
    """Five players in seats 1-5, the first button on seat 1."""
    table = await h.table(**settings_)
    table.state.first_button = 1
    for n in ("p1", "p2", "p3", "p4", "p5"):
        assert (await table.sit(n, n, 100, key=h.key())).ok
    return table


def _positions(table: Any) -> tuple[int, int | None, int | None]:
    info = table.state.current
    return info.button, info.sb_seat, info.bb_seat


# ----------------------------------------------------------------------


async def test_r1_9_players_back_before_their_blinds_keep_the_rotation() -> None:
    """The issue's scenario: seats 2, 3 and 4 sit out during hand 1 and come back after
    it. They missed nothing (R-1.9), so the button keeps moving one seat per deal
    (R-1.3) and every blind is posted in turn: nobody skips or repeats one."""
    h = Harness()
    table = await _five(h)
    assert (await h.deal(table)).ok
    assert _positions(table) == (1, 2, 3)
    for user in ("p2", "p3", "p4"):
        assert (await table.sit_out(user, key=h.key())).ok
    await h.play_passively(table)
    for user in ("p2", "p3", "p4"):
        out = await table.sit_in(user, key=h.key())
        assert out.ok and out.msg == msg("table.back", who=Name(user)), out.msg
    seen = []
    for _ in range(4):
        assert (await h.deal(table)).ok
        assert len(table.state.current.order) == 5
        seen.append(_positions(table))
        await h.play_passively(table)
    assert seen == [(2, 3, 4), (3, 4, 5), (4, 5, 1), (5, 1, 2)]


async def test_r1_9_bust_and_rebuy_before_the_blinds_keeps_the_rotation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-1.9 for a rebuy: a player who busts and buys again before the big blind passes
    his seat is dealt in at once, in his place."""
    import bot.poker.hand as hand_module

    # Hand 1 (B1 S2 BB3, PHH order p2 p3 p4 p5 p1): p3 holds 7-2 and loses to p4's aces.
    deck = stacked_deck(["8c9d", "7h2d", "AsAh", "4c5d", "3h3s"], "KcKdQhJs6c")
    monkeypatch.setattr(hand_module, "shuffled_deck", lambda cards=None: deck)
    h = Harness()
    table = await _five(h)
    assert (await h.deal(table)).ok
    while table.state.hand is not None:
        user = h.to_act(table)
        word = {"p3": "all in", "p4": "call"}.get(user, "fold")
        assert (await h.do(table, user, word)).ok, user
    assert table.state.seats[3].stack == 0 and table.state.seats[3].state == "sitting_out"
    out = await table.top_up("p3", 100, key=h.key())
    assert out.ok, out.msg
    assert table.state.seats[3].state == "active"
    assert (await h.deal(table)).ok
    assert _positions(table) == (2, 3, 4)
    assert 3 in table.state.current.order


async def test_r1_9_a_player_who_missed_the_big_blind_still_waits() -> None:
    """R-1.6 "wait": once the big blind has passed his seat, the returning player waits
    for it (the 5b fix must not deal in a player who skipped his blinds)."""
    h = Harness()
    table = await _five(h)
    assert (await h.deal(table)).ok  # B1 S2 BB3
    await h.play_passively(table)
    assert (await table.sit_out("p4", key=h.key())).ok
    assert (await h.deal(table)).ok  # B2 S3 BB5: the big blind passed seat 4
    assert _positions(table) == (2, 3, 5)
    await h.play_passively(table)
    out = await table.sit_in("p4", key=h.key())
    assert out.ok and out.msg == msg("table.back_waiting", who=Name("p4"))
    assert (await h.deal(table)).ok
    assert 4 not in table.state.current.order


async def test_r1_8_growing_from_heads_up_the_big_blind_keeps_moving() -> None:
    """R-1.8: a heads-up game that a waiting newcomer joins: the big blind moves on one
    player each deal (the last big blind posts the small blind next); nobody posts the
    same blind twice in a row."""
    h = Harness()
    table = await h.table()
    table.state.first_button = 1
    assert (await table.sit("a", "a", 100, 1, key=h.key())).ok
    assert (await table.sit("e", "e", 100, 5, key=h.key())).ok
    assert (await h.deal(table)).ok
    b, _, bb = _positions(table)
    await h.play_passively(table)
    assert (await table.sit("c", "c", 100, 3, key=h.key())).ok  # waits for the big blind
    history = [(b, bb)]
    for _ in range(4):
        assert (await h.deal(table)).ok
        _, sb, bb2 = _positions(table)
        history.append((sb, bb2))
        assert bb2 != history[-2][1], history  # the big blind never stays
        assert sb != history[-2][0], history  # nor does the small blind
        await h.play_passively(table)


# ---------------------------------------------------------------------- the property


@dataclass
class Deal:
    users: tuple[str, ...]
    seats: tuple[int, ...]
    button: int
    button_user: str | None
    sb: str | None
    bb: str | None
    owed_bb: frozenset[str] = field(default_factory=frozenset)
    """Players posting an owed big blind this deal (R-1.4 moving button, R-1.6)."""
    owing: frozenset[str] = field(default_factory=frozenset)
    """Players who owe a big blind once this deal has started."""
    active_before: int = 0
    """Players ready to be dealt in anywhere (not waiting for the big blind)."""


OPS = st.lists(
    st.tuples(
        st.sampled_from(["sit_out", "return", "leave", "join", "bust", "rebuy"]),
        st.integers(0, 6),
        st.booleans(),  # during the hand (True) or between deals
    ),
    max_size=3,
)


def _ready(table: Any) -> int:
    active, _, posting = table.state.plan_inputs()
    return len(active) + len(posting)


async def _run(rule: str, plan: list[list[tuple[str, int, bool]]], seed: int) -> list[Deal]:
    import bot.poker.hand as hand_module

    rng = random.Random(seed)
    original = hand_module.shuffled_deck
    hand_module.shuffled_deck = lambda cards=None: tuple(  # type: ignore[assignment]
        rng.sample(list(cards), len(cards))
    )
    try:
        h = Harness()
        table = await h.table(button_rule=rule)
        table.state.first_button = 1
        names = [f"p{i}" for i in range(7)]
        for n in names[:5]:
            assert (await table.sit(n, n, 40, key=h.key())).ok
        deals: list[Deal] = []
        for step in plan:
            shovers: set[str] = set()

            async def do(op: str, who: str, shovers: set[str] = shovers) -> None:
                if op == "sit_out":
                    await table.sit_out(who, key=h.key())
                elif op == "return":
                    await table.sit_in(who, key=h.key())
                elif op == "leave":
                    await table.stand(who, key=h.key())
                elif op == "join":
                    await table.sit(who, who, 40, key=h.key())
                elif op == "rebuy":
                    seat = table.state.seat_of(who)
                    if seat is not None and seat.stack == 0:
                        await table.top_up(who, 40, key=h.key())
                elif op == "bust":
                    shovers.add(who)

            for op, who, during in step:
                if not during:
                    await do(op, names[who])
            ready = _ready(table)
            out = await h.deal(table)
            if not out.ok:
                # Too few players: let everyone come back and rebuy, then go on.
                for n in names:
                    await table.sit_in(n, key=h.key())
                    seat = table.state.seat_of(n)
                    if seat is not None and seat.stack == 0:
                        await table.top_up(n, 40, key=h.key())
                ready = _ready(table)
                out = await h.deal(table)
                if not out.ok:
                    continue
            info = table.state.current
            rules = info.start.rules
            live = rules.blinds_or_straddles
            owed = frozenset(
                f"{info.users[p]}@{info.order[p]}"
                for p, amount in enumerate(live)
                if amount and info.order[p] not in (info.sb_seat, info.bb_seat)
            )
            # A player is "name@seat": one who leaves and sits down again elsewhere
            # is a new presence, not a continuous one.
            seat_user = {s: f"{u}@{s}" for s, u in zip(info.order, info.users, strict=True)}
            deals.append(
                Deal(
                    tuple(seat_user[s] for s in info.order),
                    info.order,
                    info.button,
                    seat_user.get(info.button),
                    seat_user.get(info.sb_seat) if info.sb_seat is not None else None,
                    seat_user.get(info.bb_seat) if info.bb_seat is not None else None,
                    owed,
                    frozenset(
                        f"{s.user_id}@{s.number}" for s in table.state.seats.values() if s.owes
                    ),
                    ready,
                )
            )
            for op, who, during in step:
                if during:
                    await do(op, names[who])
            while table.state.hand is not None:
                hand = table.state.hand
                user = h.to_act(table)
                legal = hand.legal()
                if user in shovers and legal.max_to is not None:
                    word = "all in"
                elif "check" in legal.actions:
                    word = "check"
                else:
                    word = "call"
                assert (await h.do(table, user, word)).ok
        return deals
    finally:
        hand_module.shuffled_deck = original


def _between(a: int, b: int, s: int) -> bool:
    """Is seat ``s`` strictly inside the clockwise walk from seat ``a`` to seat ``b``?"""
    if a < b:
        return a < s < b
    return s > a or s < b


def _check(rule: str, deals: list[Deal]) -> None:
    for k in range(1, len(deals)):
        before, now = deals[k - 1], deals[k]
        fitted = now.active_before == 2  # two in, a waiting player on the big blind
        if rule == "simplified" and min(len(before.users), len(now.users)) > 2 and not fitted:
            # one dealt-in seat left per deal, never backwards: no player dealt
            # in both deals sits between the old button and the new one. (To and from
            # heads-up, and when two players are dealt in with a newcomer on his big
            # blind, the button is placed to fit the big blind: .)
            both = set(before.users) & set(now.users)
            seat_of = dict(zip(now.users, now.seats, strict=True))
            skipped = [u for u in both if _between(before.button, now.button, seat_of[u])]
            assert not skipped, (k, before, now)
    # Each orbit: between two big blinds of a player P, every player dealt in to every
    # deal of that stretch posts the big blind exactly once (a blind owed for a skip,
    # moving button, counts) and the small blind at most once.
    for p in {d.bb for d in deals if d.bb}:
        mine = [k for k, d in enumerate(deals) if d.bb == p]
        for i, j in itertools.pairwise(mine):
            stretch = deals[i : j + 1]
            present = set.intersection(*(set(d.users) for d in stretch))
            if p not in present:
                continue  # he left and came back: that is not one orbit of his
            present.discard(p)
            departures = any(set(a.users) - set(b.users) for a, b in itertools.pairwise(stretch))
            if rule != "dead" and departures:
                # The simplified and moving button let a departure skip a blind
                # (moving: the skipped player owes it) and so lengthen one player's orbit;
                # the dead button never does, and nothing but a departure ever does.
                continue
            for q in present:
                # A big blind skipped under the moving button is owed from that deal on
                # and paid later: becoming owing counts as the post.
                bbs = sum(1 for k in range(i + 1, j) if deals[k].bb == q) + sum(
                    1
                    for k in range(i + 1, j + 1)
                    if q in deals[k].owing and q not in deals[k - 1].owing
                )
                sbs = sum(1 for d in deals[i + 1 : j + 1] if d.sb == q)
                assert bbs == 1, (p, q, i, j, stretch)
                if all(len(d.users) > 2 for d in stretch):
                    # Heads-up the button posts the small blind, so shrinking to
                    # two may give the same player the small blind twice running.
                    assert sbs <= 1, (p, q, i, j, stretch)


@pytest.mark.parametrize("rule", ["simplified", "moving", "dead"])
def test_r1_4_property_every_present_player_posts_each_blind_once_per_orbit(rule: str) -> None:
    """R-1.3, R-1.4, R-1.8, R-1.9 over random sit-out / return / bust / rebuy / join /
    leave sequences, between deals and during them."""

    @settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        derandomize=True,
    )
    @given(plan=st.lists(OPS, min_size=4, max_size=16), seed=st.integers(0, 2**16))
    def prop(plan: list[list[tuple[str, int, bool]]], seed: int) -> None:
        deals = asyncio.run(_run(rule, plan, seed))
        _check(rule, deals)

    prop()
    assert HOST


async def test_r1_4_dead_button_goes_to_the_dead_small_blinds_seat() -> None:
    """R-1.4 dead button: after a dead small blind the button moves onto its (empty)
    seat, not back onto the last button."""
    h = Harness()
    table = await _five(h, button_rule="dead")
    assert (await h.deal(table)).ok
    assert _positions(table) == (1, 2, 3)
    await h.play_passively(table)
    assert (await table.stand("p3", key=h.key())).ok
    assert (await h.deal(table)).ok
    assert _positions(table) == (2, None, 4)  # the small blind is dead on seat 3
    await h.play_passively(table)
    assert (await h.deal(table)).ok
    assert _positions(table) == (3, 4, 5)  # the button on the empty seat 3


# ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "limit"),
    [
        ("holdem", "no_limit"),
        ("omaha", "pot_limit"),
        ("omaha8", "pot_limit"),
        ("stud", "fixed"),
        ("stud8", "fixed"),
        ("razz", "fixed"),
        ("27triple", "fixed"),
        ("a5triple", "fixed"),
    ],
)
def test_r16_9_a_game_named_without_a_structure_gets_its_conventional_one(
    game: str, limit: str
) -> None:
    from bot.local.terminal import parse_args, settings_from_args
    from bot.table.settings import TableSettings

    assert TableSettings(variant=game).games() == ((game, limit),)
    args = parse_args(["--local", "--game", game, "a", "b"])
    settings_ = settings_from_args(args)
    assert settings_.games() == ((game, limit),)
    said = settings_.stakes_said()
    assert said.get("head") == msg(f"table.stakes.game.{limit}", game=msg(f"game.{game}")), said


def test_r16_9_an_explicit_structure_wins() -> None:
    from bot.table.settings import TableSettings

    assert TableSettings(variant="stud8", limit="no_limit").games() == (("stud8", "no_limit"),)
    rot = TableSettings(rotation=("holdem", "omaha8", "razz", "stud:pot_limit"))
    assert rot.games() == (
        ("holdem", "no_limit"),
        ("omaha8", "pot_limit"),
        ("razz", "fixed"),
        ("stud", "pot_limit"),
    )


def test_r16_9_stud_stakes_derive_from_the_tables() -> None:
    """Small bet = the big blind, big bet twice that, bring-in half the small bet, ante a
    fifth of the small bet (none under 5); the table's own ante wins."""
    from bot.table.settings import TableSettings

    s = TableSettings(variant="holdem", small_blind=5, big_blind=10)
    said = s.stakes_said("stud", "fixed")
    bets = msg("table.stakes.bets", small=Chips(10), big=Chips(20))
    bring_in = msg("table.stakes.bring_in", amount=Chips(5))
    ante = msg("table.stakes.ante", amount=Chips(2))
    assert said == joined(
        [msg("table.stakes.game.fixed", game=msg("game.stud")), bets, bring_in, ante]
    ), said
    rules = s.rules_for("stud", "fixed", 3, (None, None))
    assert (rules.small_bet, rules.big_bet, rules.bring_in, rules.antes) == (10, 20, 5, (2, 2, 2))
    assert "table.stakes.ante" not in keys_in(TableSettings(variant="stud").stakes_said())
    assert TableSettings(variant="stud", ante=1, big_blind=10, small_blind=5).ante_for("stud") == 1
    assert "table.stakes.ante" not in keys_in(s.stakes_said())  # hold'em keeps no ante


async def test_r16_9_choose_a_bare_game_at_a_no_limit_table() -> None:
    """R-16.2 + R-16.9: ``choose razz`` at a no-limit dealer's-choice table deals
    fixed-limit razz; ``choose razz:no_limit`` no-limit razz."""
    h = Harness()
    table = await h.table(dealers_choice=True, limit="no_limit")
    table.state.first_button = 1
    for n in ("p1", "p2", "p3"):
        assert (await table.sit(n, n, 100, key=h.key())).ok
    dealer = table.state.seats[table._plan().button].user_id
    out = await table.choose(dealer, "razz", key=h.key())
    assert out.ok and out.msg is not None and out.msg.key == "table.chosen", out.msg
    assert out.msg.get("who") == Name(dealer)
    assert said_in(out.msg, msg("table.stakes.game.fixed", game=msg("game.razz")))
    assert table.state.chosen == ("razz", "fixed")
    out = await table.choose(dealer, "razz:no_limit", key=h.key())
    assert out.ok and table.state.chosen == ("razz", "no_limit")
    out = await h.deal(table)
    assert out.ok and said_in(out.msg, msg("table.stakes.game.no_limit", game=msg("game.razz")))


def test_r16_9_the_tables_own_structure_for_its_own_game() -> None:
    from bot.table.settings import TableSettings

    s = TableSettings(variant="holdem", limit="fixed", dealers_choice=True)
    assert s.game("holdem") == ("holdem", "fixed")
    assert s.game("razz") == ("razz", "fixed")
    assert s.game("omaha") == ("omaha", "pot_limit")
    assert s.game("omaha:no_limit") == ("omaha", "no_limit")


# ----------------------------------------------------------------------

_CONTEXT: dict[str, dict[str, Any]] = {
    # Other settings a bound needs so that only the setting under test is at issue.
    "small_blind": {"big_blind": 1_000_000_000},
    "bring_in": {"variant": "stud", "big_blind": 1_000_000_000},
    # Options of some games only: set where they apply (elsewhere they are refused).
    "raise_cap": {"limit": "fixed"},
    "guts_stake": {"variant": "guts"},
    "guts_max_pot": {"variant": "guts"},
    "guts_worst_pays_ante": {"variant": "guts"},
    "guts_legs": {"variant": "guts"},
    "big_blind": {"small_blind": 0},
    "min_buy_in": {"max_buy_in": 1_000_000_000_000},
    "min_players": {"seats": 10},
    # the charge is bounded by the stakes too.
    "time_charge": {"big_blind": 1_000_000_000},
}


def _numeric_settings() -> list[str]:
    from bot.table.settings import RANGES

    return sorted(RANGES)


@pytest.mark.parametrize("name", _numeric_settings())
def test_r2_6_every_numeric_setting_at_its_bounds(name: str) -> None:
    """R-2.6: each number is accepted at both ends of its range and refused one past
    either end, with the range in the refusal."""
    from bot.poker.messages import Chips, Count, Name, Number
    from bot.table.errors import SettingsError
    from bot.table.settings import RANGES, TableSettings, declared

    low, high, unit = RANGES[name]
    base = TableSettings().changed(_CONTEXT.get(name, {}))
    for value in (low, high):
        assert getattr(base.changed({name: value}), name) == value
    for value in (low - 1, high + 1):
        with pytest.raises(SettingsError) as refused:
            base.changed({name: value})
        told = refused.value.msg
        if name == "seats":
            assert told.key == "settings.seats_range", told  # says seats its way
        else:
            assert told.key == "settings.out_of_range", told
            assert told.get("setting") == declared()[name].label
        least = Number(low) if name == "seats" else Chips(low)  # a count of seats
        assert told.get("low") == least and told.get("value") == Name(str(value))
        assert told.get("high") == msg("settings.unit." + unit, count=Count(high))


def test_r2_6_settings_respect_each_other() -> None:
    from bot.poker.messages import Chips, Count, Number
    from bot.table.errors import SettingsError
    from bot.table.settings import TableSettings

    def chips(n: int) -> Msg:
        return msg("settings.unit.chips", count=Count(n))

    s = TableSettings()
    for change, key, name, value in (
        ({"small_blind": 3}, "settings.small_blind_above", "big", chips(2)),
        ({"min_buy_in": 500}, "settings.buy_in_order", "high", chips(200)),
        ({"max_buy_in": 10}, "settings.buy_in_order", "low", Chips(40)),
        ({"bring_in": 3}, "settings.bring_in_above", "small", chips(2)),
        ({"big_bet": 1}, "settings.big_bet_below", "small", chips(2)),
        ({"min_players": 10}, "settings.min_players_above", "seats", Number(9)),
    ):
        with pytest.raises(SettingsError) as refused:
            s.changed(change)
        assert refused.value.msg.key == key, refused.value.msg
        assert refused.value.msg.get(name) == value, refused.value.msg
    with pytest.raises(SettingsError) as refused:
        TableSettings(variant="stud").changed({"seats": 10})
    assert refused.value.msg.key == "settings.seats_for_game"
    assert refused.value.msg.get("high") == msg("settings.unit.seats", count=Count(8))
    assert refused.value.msg.get("game") == msg("game.stud")
    assert TableSettings(variant="stud").changed({"seats": 8}).seats == 8


async def test_r2_6_a_huge_big_blind_is_refused_and_changes_nothing() -> None:
    """The issue: ``set big_blind=99999999999999999999`` was accepted and seating then
    failed in SQLite. It is refused with the range; the table plays on."""
    h = Harness()
    table = await h.table()
    before = table.settings
    out = await table.change_settings(HOST, {"big_blind": 99999999999999999999}, key=h.key())
    assert not out.ok and out.msg is not None and out.msg.key == "settings.out_of_range"
    assert out.msg.get("value") == Name("99999999999999999999")
    assert out.msg.get("high") == msg("settings.unit.chips", count=Count(1_000_000_000))
    assert table.settings == before
    assert (await table.sit("a", "a", 100, key=h.key())).ok


# ---------------------------------------------------------------------- clocks


async def test_r1_10_clock_settings_reach_seated_players_from_the_next_deal() -> None:
    """The issue: with action_clock=2 and time_bank=0 set after the players sat down, a
    timeout came after 32 s (each kept the 30 s bank he sat down with). From the next
    deal everyone plays on the new clock, and the view carries the deadline."""
    h = Harness()
    table = await h.seated(["a", "b", "c"])  # action clock 60, time bank 30
    assert (await h.deal(table)).ok
    assert table.deadline() == h.time.now() + 90
    await h.play_passively(table)
    out = await table.change_settings(HOST, {"action_clock": 2, "time_bank": 0}, key=h.key())
    assert out.ok, out.msg
    assert (await h.deal(table)).ok
    first = h.to_act(table)
    now = h.time.now()
    assert table.deadline() == now + 2
    view = table.snapshot(None)
    assert view.deadline == now + 2  # for the presenters' clocks
    assert all(s.time_bank == 0 for s in view.seats)
    h.time.advance(2)
    assert await h.service.tick() == 1
    info = table.state.current
    assert table.state.hand.folded[info.users.index(first)]
    # A bigger bank reaches everyone too, again from the next deal.
    await h.play_passively(table)
    assert (await table.change_settings(HOST, {"time_bank": 20}, key=h.key())).ok
    assert (await h.deal(table)).ok
    assert table.deadline() == h.time.now() + 22
    h.check(table)


async def test_r1_10_banks_survive_a_restart_the_same() -> None:
    """The refill is folded from the log: a recovered table has the same banks."""
    from bot.table.recovery import load

    h = Harness()
    table = await h.seated(["a", "b", "c"])
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    assert (await table.change_settings(HOST, {"time_bank": 5}, key=h.key())).ok
    assert (await h.deal(table)).ok
    again = await load(h.store, table.table_id)
    assert {n: s.bank for n, s in again.seats.items()} == {
        n: s.bank for n, s in table.state.seats.items()
    }
    assert all(s.bank == 5 for s in again.seats.values())


# ----------------------------------------------------------------------


async def test_r16_10_a_waiting_guts_pot_is_dealt_without_a_choice() -> None:
    """The issue: with a Guts pot waiting, ``choose holdem`` was refused yet ``deal``
    said the dealer must choose first. The next deal is Guts: nothing to choose."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], dealers_choice=True, guts_stake=2)
    dealer = table.state.seats[table._plan().button].user_id
    assert (await table.choose(dealer, "guts", key=h.key())).ok
    assert (await h.deal(table)).ok
    for user in ("a", "b", "c"):  # everyone out: the pot of 6 carries over
        assert (await h.do(table, user, "out")).ok
    assert table.state.carried == 6
    dealer = table.state.seats[table._plan().button].user_id
    out = await table.choose(dealer, "holdem", key=h.key())
    assert not out.ok
    assert out.msg == msg("deal.guts_waiting", amount=Chips(6), rule=Rule("R-16.10"))
    out = await h.deal(table)
    assert out.ok, out.msg
    assert table.state.current.variant == "guts"


async def test_r16_10_the_chooser_is_told_what_he_may_pick() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], dealers_choice=True)
    out = await h.deal(table)
    dealer = table.state.seats[table._plan().button].user_id
    assert not out.ok and out.msg is not None and out.msg.key == "deal.must_choose"
    assert out.msg.get("who") == Name(dealer)
    for game in ("holdem", "omaha8", "razz", "27triple"):
        assert said_in(out.msg, msg("engine.who", who=Name(game))), game
    # three players: a five-card draw fits
    assert said_in(out.msg, msg("engine.who", who=Name("draw5")))
    assert (await table.choose(dealer, "omaha", key=h.key())).ok
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    said = [n.msg for _, n in h.presenter.public_notices if n.kind == "choose"]
    nxt = table.state.seats[table._plan().button].name
    assert said and said[-1] is not None and said[-1].key == "deal.chooser"
    assert said[-1].get("who") == Name(nxt)
    assert said_in(said[-1], msg("engine.who", who=Name("razz")))


async def test_r16_10_a_choice_that_times_out_is_announced() -> None:
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], dealers_choice=True, auto_deal=True, hand_pause=2, action_clock=20
    )
    view = table.snapshot(None)
    assert view.deadline == h.time.now() + 22  # the dealer's clock to choose
    chooser = table.state.seats[table._plan().button].name
    h.time.advance(22)
    assert await h.service.tick() == 1
    said = [n.msg for _, n in h.presenter.public_notices if n.kind == "choice_timeout"]
    assert len(said) == 1 and said[0] is not None and said[0].key == "deal.choice_timeout"
    assert said[0].get("who") == Name(chooser) and said[0].get("rule") == Rule("R-16.10")
    assert said_in(said[0], msg("table.stakes.game.no_limit", game=msg("game.holdem")))
    h.check(table)


# ---------------------------------------------------------------------- siblings


async def test_r1_6_a_player_sat_out_by_the_clock_is_told() -> None:
    """Like the dealer's choice timeout (R-16.10), the clock sitting a player out is said
    at the table, not done silently."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], action_clock=10, time_bank=0, timeouts_to_sit_out=1)
    assert (await h.deal(table)).ok
    sleeper = h.to_act(table)
    h.time.advance(10)
    assert await h.service.tick() == 1
    said = [n.msg for _, n in h.presenter.public_notices if n.kind == "sat_out"]
    assert said == [msg("table.clock.sat_out_once", who=Name(sleeper))], said


def test_r16_9_set_variant_names_a_game_without_a_structure() -> None:
    from bot.table.settings import TableSettings

    old = TableSettings(limit="no_limit")  # an older table: its limit was written out
    assert old.changed({"variant": "stud8"}).games() == (("stud8", "fixed"),)
    assert old.changed({"variant": "stud8:no_limit"}).games() == (("stud8", "no_limit"),)
    both = old.changed({"variant": "razz", "limit": "pot_limit"})
    assert both.games() == (("razz", "pot_limit"),)


async def test_r16_2_a_choice_lapses_when_dealers_choice_is_turned_off() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], dealers_choice=True)
    dealer = table.state.seats[table._plan().button].user_id
    assert (await table.choose(dealer, "razz", key=h.key())).ok
    assert table.snapshot(None).variant == "razz"
    assert (await table.change_settings(HOST, {"dealers_choice": False}, key=h.key())).ok
    assert table.snapshot(None).variant == "holdem"
    assert (await h.deal(table)).ok
    assert table.state.current.variant == "holdem"


async def test_r3_4_a_straddle_lapses_when_the_table_stops_offering_it() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], straddle=True)
    plan = table._plan()
    utg = table.state.seats[plan.order[2]].user_id
    assert (await table.straddle(utg, key=h.key())).ok
    assert (await table.change_settings(HOST, {"straddle": False}, key=h.key())).ok
    assert (await h.deal(table)).ok
    assert table.state.current.start.rules.blinds_or_straddles == (1, 2)


async def test_r1_4_moving_button_a_skipped_small_blind_is_owed_dead() -> None:
    """R-1.4 moving button: the small blind leaves; the button lands on the last big
    blind, who so skips the small blind: he owes it and posts it dead (the player who
    skips the big blind owes that, live)."""
    h = Harness()
    table = await _five(h, button_rule="moving")
    assert (await h.deal(table)).ok
    assert _positions(table) == (1, 2, 3)
    await h.play_passively(table)
    assert (await table.stand("p2", key=h.key())).ok
    assert (await h.deal(table)).ok
    assert _positions(table) == (3, 4, 5)
    assert table.state.seats[3].owes == 1  # skipped the small blind
    assert table.state.seats[4].owes == 2  # skipped the big blind
    await h.play_passively(table)
    assert (await h.deal(table)).ok
    assert _positions(table) == (4, 5, 1)
    info = table.state.current
    rules = info.start.rules
    pos3, pos4 = info.order.index(3), info.order.index(4)
    assert rules.dead_posts[pos3] == 1 and rules.blinds_or_straddles[pos3] == 0
    assert rules.blinds_or_straddles[pos4] == 2
    assert table.state.seats[3].owes == 0 and table.state.seats[4].owes == 0
    await h.play_passively(table)
    h.check(table)


async def test_r1_9_sitting_out_through_the_blinds_of_the_first_deal_is_a_miss() -> None:
    """Found by the property test: a player out for the table's first deal, seated
    between its button and big blind, missed a blind (there was no earlier big blind to
    pass him). Back at once, he would take the button and the blinds would stand still."""
    h = Harness()
    table = await _five(h)
    assert (await table.sit_out("p2", key=h.key())).ok
    assert (await h.deal(table)).ok
    assert _positions(table) == (1, 3, 4)
    await h.play_passively(table)
    out = await table.sit_in("p2", key=h.key())
    assert out.ok and out.msg == msg("table.back_waiting", who=Name("p2"))
    assert (await h.deal(table)).ok
    assert _positions(table) == (3, 4, 5)


async def test_r1_6_a_player_posting_in_is_not_dealt_between_button_and_small_blind() -> None:
    """Found by the property test: a player coming back to post (R-1.6 option) took the
    button the moment he returned, and the blinds stood still (the same players posted
    them twice running). He is dealt in where he sits, but not between the button and the
    small blind (he would act after the blinds without paying them): there he waits for
    the button to pass, as card rooms rule."""
    h = Harness()
    table = await h.seated(["a", "b", "c", "d"], missed_blinds="post")
    table.state.first_button = 1
    positions = []
    assert (await h.deal(table)).ok  # B1 S2 BB3
    await h.play_passively(table)
    assert (await table.sit_out("d", key=h.key())).ok
    for _ in range(4):  # B2 S3 BB1, B3 S1 BB2, B1 S2 BB3, B2 S3 BB1: he owes
        assert (await h.deal(table)).ok
        await h.play_passively(table)
    assert table.state.seats[4].owes == 3
    assert (await table.sit_in("d", key=h.key())).ok
    for _ in range(2):
        assert (await h.deal(table)).ok
        positions.append((*_positions(table), 4 in table.state.current.order))
        await h.play_passively(table)
    # Seat 4 lies between the button (3) and the small blind (1): he waits one deal;
    # then he is behind the big blind and posts.
    assert positions == [(3, 1, 2, False), (1, 2, 3, True)]
    assert table.state.seats[4].owes == 0
    h.check(table)


async def test_r1_9_sitting_out_for_a_moment_does_not_wipe_an_owed_blind() -> None:
    """Sibling of R-1.9: coming straight back keeps a blind owed from before (R-1.4
    moving button); before, a quick sit out and back erased the debt."""
    h = Harness()
    table = await _five(h, button_rule="moving")
    assert (await h.deal(table)).ok  # B1 S2 BB3
    await h.play_passively(table)
    assert (await table.stand("p2", key=h.key())).ok
    assert (await h.deal(table)).ok  # B3 S4 BB5: seat 4 skipped the big blind
    await h.play_passively(table)
    assert table.state.seats[4].owes == 2
    assert (await table.sit_out("p4", key=h.key())).ok
    out = await table.sit_in("p4", key=h.key())
    assert out.ok and table.state.seats[4].state == "active"
    assert table.state.seats[4].owes == 2
    assert (await h.deal(table)).ok  # B4 S5 BB1: he posts it at the button
    info = table.state.current
    assert info.start.rules.blinds_or_straddles[info.order.index(4)] == 2
    h.check(table)


async def test_r1_9_a_busted_player_is_told_he_sits_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sibling of R-16.10's silent timeout: busting sits a player out; the table says so
    and how to come back."""
    import bot.poker.hand as hand_module

    deck = stacked_deck(["8c9d", "7h2d", "AsAh", "4c5d", "3h3s"], "KcKdQhJs6c")
    monkeypatch.setattr(hand_module, "shuffled_deck", lambda cards=None: deck)
    h = Harness()
    table = await _five(h)
    assert (await h.deal(table)).ok
    while table.state.hand is not None:
        user = h.to_act(table)
        word = {"p3": "all in", "p4": "call"}.get(user, "fold")
        assert (await h.do(table, user, word)).ok
    said = [n.msg for _, n in h.presenter.public_notices if n.kind == "sat_out"]
    assert said == [msg("table.broke_sits_out", who=Name("p3"), rule=Rule("R-1.9"))], said
