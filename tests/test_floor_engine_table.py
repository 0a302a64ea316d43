"""Floor review (issue 12) at the table: the engine's rulings reach the players through
the table service (what the terminal and Discord both use). Each checks R-2.5 through the
harness."""

from __future__ import annotations

from bot.poker.messages import Chips, Rule, msg
from tests.harness import Harness
from tests.said import keys_in, parts, said_in


async def test_r3_2_equal_blinds_at_the_table_left_of_the_big_blind_first() -> None:
    """Blinds 1/1 with four players: the player left of the big blind acts first and the
    big blind last, with his option."""
    h = Harness()
    table = await h.seated(["alice", "bob", "carol", "dave"], small_blind=1, big_blind=1)
    await h.deal(table)
    info = table.state.current
    assert info is not None
    names = [info.users[p] for p in range(4)]  # PHH order: SB, BB, UTG, button
    big_blind = names[1]
    assert h.to_act(table) == names[2]
    out = await h.do(table, big_blind, "call")
    assert not out.ok  # not the big blind's turn
    for name in (names[2], names[3], names[0]):
        assert h.to_act(table) == name
        assert (await h.do(table, name, "call")).ok
    assert h.to_act(table) == big_blind
    legal = table.snapshot(big_blind).legal
    assert legal is not None and {"check", "raise"} <= legal.actions
    h.check(table)


async def test_r5_7_raise_when_capped_says_why_at_the_table() -> None:
    h = Harness()
    table = await h.seated(["a", "b", "c"], limit="fixed", small_bet=2, big_bet=4)
    await h.deal(table)
    for _ in range(3):
        assert (await h.do(table, h.to_act(table), "raise")).ok
    actor = h.to_act(table)
    turn = table.state.turn
    for word in ("raise", "raise to 10", "bet", "pot", "all in"):
        out = await h.do(table, actor, word)
        assert not out.ok, word
        assert said_in(out.msg, msg("refuse.capped", rule=Rule("R-5.7"))), (word, out.msg)
        assert "table.say_how_much" not in keys_in(out.msg)
        assert "legal.call" in keys_in(out.msg)
    why = table.snapshot(actor).no_raise_said
    assert why is not None and why.key == "refuse.capped"
    assert table.state.turn == turn
    h.check(table)


async def test_r7_3_raise_not_reopened_says_why_at_the_table() -> None:
    """E-5 at the table: after D's all-in short of a full raise, B (who bet) may only call
    or fold, and "raise" says why."""
    h = Harness()
    table = await h.table()
    for name in ("a", "b", "c", "d", "e"):
        out = await table.sit(name, name, 40 if name == "d" else 200, key=h.key())
        assert out.ok, out.msg
    await h.deal(table)
    info = table.state.current
    hand = table.state.hand
    assert info is not None and hand is not None
    names = [info.users[p] for p in range(5)]
    short = names.index("d") if hand.stacks[names.index("d")] < 100 else None
    assert short is not None
    for p in (2, 3, 4, 0):
        assert (await h.do(table, names[p], "call")).ok
    assert (await h.do(table, names[1], "check")).ok
    # The flop: everyone checks to the player before d, who bets 20; d goes all in for
    # 38 (a raise of 18, short of a full 20); the rest call round to the bettor.
    bettor = (short - 1) % 5
    p = 0
    while p != bettor:
        assert (await h.do(table, names[p], "check")).ok
        p += 1
    assert (await h.do(table, names[bettor], "bet 20")).ok
    assert (await h.do(table, names[short], "all in")).ok
    p = (short + 1) % 5
    while p != bettor:
        assert (await h.do(table, names[p], "call")).ok
        p = (p + 1) % 5
    assert h.to_act(table) == names[bettor]
    turn = table.state.turn
    for word in ("raise", "raise to 100", "pot"):
        out = await h.do(table, names[bettor], word)
        assert not out.ok
        assert said_in(out.msg, msg("refuse.not_reopened", rule=Rule("R-7.3"))), out.msg
        assert said_in(out.msg, msg("legal.call", amount=Chips(18)))
    assert table.state.turn == turn
    h.check(table)


def test_r4_9_jacks_to_open_setting_is_refused_where_it_cannot_apply() -> None:
    import pytest

    from bot.table.errors import SettingsError
    from bot.table.settings import TableSettings

    with pytest.raises(SettingsError) as refused:
        TableSettings.of(variant="holdem", jacks_to_open=True)
    assert refused.value.msg == msg("settings.jacks_unplayed", game=msg("game.holdem"))
    # A draw table, a rotation with a draw game, and dealer's choice accept it; it
    # reaches the engine only for the draw games.
    draw = TableSettings.of(variant="draw5", limit="fixed", jacks_to_open=True)
    assert draw.rules_for("draw5", "fixed", 4, (0, 1)).jacks_to_open
    mixed = TableSettings.of(rotation=("holdem:fixed", "draw5:fixed"), jacks_to_open=True)
    assert not mixed.rules_for("holdem", "fixed", 4, (0, 1)).jacks_to_open
    assert mixed.rules_for("draw5", "fixed", 4, (0, 1)).jacks_to_open
    TableSettings.of(dealers_choice=True, jacks_to_open=True)


async def test_r4_9_jacks_with_blinds_at_the_table() -> None:
    """A draw table with blinds and jacks to open: a raise without openers is refused
    with the reason; if nobody opens, the pot carries to the next deal."""
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"],
        variant="draw5",
        limit="fixed",
        small_bet=2,
        big_bet=4,
        jacks_to_open=True,
    )
    from bot.poker.showdown import has_openers

    carried_seen = False
    for _ in range(40):  # nobody holds openers in about half the deals
        await h.deal(table)
        hand = table.state.hand
        assert hand is not None
        while table.state.hand is not None and table.state.hand.street_index == 0:
            hand = table.state.hand
            actor = h.to_act(table)
            pos = hand.to_act
            assert pos is not None
            if not has_openers(hand.hole[pos]) and hand.opener is None:
                out = await h.do(table, actor, "raise")
                assert not out.ok and out.msg is not None, out.msg
                assert any(p.get("rule") == Rule("R-4.9") for p in parts(out.msg)), out.msg
            word = "check" if "check" in hand.legal().actions else "call"
            assert (await h.do(table, actor, word)).ok
        if table.state.hand is None and table.state.carried:
            carried_seen = True
            break
        await h.play_passively(table)
    assert carried_seen
    h.check(table)


def test_r10_7_wild_setting_refused_where_no_game_reads_it() -> None:
    import pytest

    from bot.table.errors import SettingsError
    from bot.table.settings import TableSettings

    with pytest.raises(SettingsError) as refused:
        TableSettings.of(variant="27triple", limit="fixed", wild="joker")
    assert refused.value.msg.key == "settings.wild_unplayed"
    assert refused.value.msg.get("game") == msg("game.27triple")
    assert any(p.get("rule") == Rule("R-10.7") for p in parts(refused.value.msg))
    mixed = TableSettings.of(rotation=("27triple:fixed", "holdem:fixed"), wild="joker")
    assert mixed.rules_for("27triple", "fixed", 3, (0, 1)).wild == "none"
    assert mixed.rules_for("holdem", "fixed", 3, (0, 1)).wild == "joker"


def test_r4_9_r10_7_old_logs_with_options_that_never_applied_still_load() -> None:
    """A table stored before the refusals (jacks to open at a hold'em table, wild cards
    at a deuce-to-seven table) loads with the option off, as it played; an engine record
    of such a hand replays."""
    from bot.poker.rules import Rules
    from bot.table.settings import TableSettings

    old = TableSettings().to_dict() | {"jacks_to_open": True}
    assert TableSettings.from_dict(old).jacks_to_open is False
    old = TableSettings(variant="27triple", limit="fixed").to_dict() | {"wild": "deuces"}
    assert TableSettings.from_dict(old).wild == "none"
    record = Rules().to_dict() | {"jacks_to_open": True}
    assert Rules.from_dict(record).jacks_to_open is False
    record = Rules(variant="27single").to_dict() | {"wild": "deuces"}
    assert Rules.from_dict(record).wild == "none"
