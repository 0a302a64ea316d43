"""Regression tests for what an exploratory QA pass found in the Discord layer, end to
end with the real discord.py client against the fake Discord (each failed before its
fix). The per-hand leak guard of ``test_discord_e2e`` runs after every test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.poker.messages import Chips
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import run_bot
from tests.fakediscord.state import iter_components, unescaped
from tests.test_discord_e2e import Harness, LeakGuard, make_bot, play_out, players


async def _declare_phase(h: Harness) -> None:
    while h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")


def _prompts(h: Harness, user: Any) -> list[Any]:
    return [m for m in h.fake.dm_messages(user) if m.custom_ids()]


async def test_r13_2_fist_button_from_an_earlier_hand_is_refused(h: Harness) -> None:
    """A DM prompt left over from hand 1 must not commit a binding choice in hand 2."""
    users = players(h.fake)
    opts = {"variant": "omaha8", "structure": "fixed", "small_bet": 2, "big_bet": 4}
    await h.start_table(users, declare="simultaneous", **opts)
    await _declare_phase(h)
    alice = users[0]
    old = _prompts(h, alice)[-1]
    await h.slash(alice, "declare", choice="low")  # by command: the DM keeps its buttons
    await play_out(h)
    await h.slash(alice, "deal")
    await _declare_phase(h)
    assert h.table().state.hand_no == 2 and h.table().snapshot(None).phase == "declare"
    stale = next(c for c in old.custom_ids() if c.endswith(":both"))
    await h.fake.click(alice, old, stale)
    await h.settle()
    table = h.table()
    pending = [table.state.current.users[p] for p in table.state.hand.declare_pending()]
    assert str(alice.id) in pending  # nothing was declared for her
    assert "earlier hand" in h.last_ephemeral(alice)


async def test_r13_2_one_prompt_per_player_per_declaration(h: Harness) -> None:
    users = players(h.fake)
    opts = {"variant": "omaha8", "structure": "fixed", "small_bet": 2, "big_bet": 4}
    await h.start_table(users, declare="simultaneous", **opts)
    await _declare_phase(h)
    for u in users[:2]:
        dm = _prompts(h, u)[-1]
        await h.fake.click(u, dm, next(c for c in dm.custom_ids() if c.endswith(":high")))
        await h.settle()
    assert len(_prompts(h, users[2])) == 1


async def test_r15_2_guts_in_or_out_from_show_my_cards_when_dms_are_closed(h: Harness) -> None:
    users = players(h.fake)
    h.fake.close_dms(users[1])
    await h.start_table(users, variant="guts", structure="no_limit")
    assert h.table().snapshot(None).phase == "guts"
    await h.click(users[1], "cards")
    eph = h.fake.ephemerals(users[1])[-1]
    assert any(c.endswith(":in") for c in eph.custom_ids()), eph.custom_ids()
    await h.fake.click(users[1], eph, next(c for c in eph.custom_ids() if c.endswith(":out")))
    await h.settle()
    info = h.table().state.current
    pending = [info.users[p] for p in h.table().state.hand.guts_pending()]
    assert str(users[1].id) not in pending, h.last_ephemeral(users[1])


async def test_r15_2_guts_confirmation_names_the_call(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users, variant="guts", structure="no_limit")
    dm = _prompts(h, users[0])[-1]
    await h.fake.click(users[0], dm, next(c for c in dm.custom_ids() if c.endswith(":in")))
    await h.settle()
    text = h.fake.message(dm.id).content
    assert "**in**" in text and "None" not in text


async def test_moderator_may_deal_and_loses_the_right_with_the_permission(h: Harness) -> None:
    a, b, c = players(h.fake)  # the fake gives bob every permission, Manage Channels too
    await h.slash(a, "table create")
    for u in (a, b, c):
        await h.slash(u, "sit", buy_in=200)
    b.permissions = str(1 << 11)  # Send Messages only: no longer a moderator
    await h.slash(b, "deal")
    assert not h.table().state.in_hand
    b.permissions = str((1 << 4) | (1 << 11))  # Manage Channels again
    await h.slash(b, "deal")
    assert h.table().state.in_hand


async def test_r5_3_max_in_the_raise_modal_is_the_pot_limit_maximum(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users, variant="omaha", structure="pot_limit")
    actor = h.to_act()
    assert actor is not None
    legal = h.table().snapshot(str(actor.id)).legal
    modal = await h.fake.click(actor, h.table_message(), h.button("bet_raise"))
    await h.fake.submit_modal(actor, modal, {"to": "max"})
    await h.settle()
    last = h.table().snapshot(None).last_said
    assert last is not None and last.key == "notice.action.raise"
    assert last.get("amount") == Chips(legal.max_to)


async def test_restart_keeps_one_table_message(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite3"
    users = players(fake_discord)
    guard = LeakGuard()
    bot = make_bot(db)
    guard.wrap(bot.presenter, fake_discord)
    async with run_bot(fake_discord, bot, sync=True):
        await Harness(fake_discord, bot).start_table(users)
    bot2 = make_bot(db)
    guard.wrap(bot2.presenter)
    async with run_bot(fake_discord, bot2, sync=True):
        h2 = Harness(fake_discord, bot2)
        actor = h2.to_act()
        assert actor is not None
        await h2.slash(actor, "call")
        tables = [m for m in fake_discord.channel_messages() if m.embeds]
        assert len(tables) == 1
    guard.check(fake_discord)


async def test_ledger_and_settle_name_a_player_who_stood_up(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users)
    while h.table().state.in_hand:
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "fold")
    loser = next(u for u in users if h.table().state.seat_of(str(u.id)).stack < 200)
    await h.slash(loser, "stand")
    await h.slash(users[1], "ledger")
    ledger = h.last_ephemeral(users[1])
    await h.slash(users[1], "settle")
    settle = h.last_ephemeral(users[1])
    assert str(loser.id) not in ledger + settle
    assert loser.name in ledger


async def test_table_open_names_the_host(h: Harness) -> None:
    alice = h.fake.user("alice")
    await h.slash(alice, "table create")
    text = h.table_message().embeds[0]["description"]
    assert str(alice.id) not in text and "alice" in text


async def test_notify_dm_falls_back_to_a_mention_when_dms_are_closed(h: Harness) -> None:
    users = players(h.fake)
    h.bot.presenter.ping_delay = 0.0
    h.fake.close_dms(users[0])
    await h.slash(users[0], "notify", mode="dm")
    await h.start_table(users)
    while h.to_act() is not users[0]:
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    await h.settle()
    pings = [m for m in h.fake.channel_messages() if "your turn" in m.content]
    assert any(users[0].mention in m.content for m in pings)


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("variant", "nosuch", "no game called"),
        ("limit", "xyz", "no betting structure"),
        ("odd_chip", "foo", "one of: button, suit"),
        ("declare", "maybe", "one of: none, simultaneous, in_turn"),
        ("seats", "abc", "whole number"),
    ],
)
async def test_settings_refuse_bad_values_in_words(
    h: Harness, name: str, value: str, says: str
) -> None:
    alice = h.fake.user("alice")
    await h.slash(alice, "table create")
    await h.slash(alice, "table settings", name=name, value=value)
    answer = unescaped(h.last_ephemeral(alice))  # as shown: in\_turn reads in_turn
    assert says in answer and "could not record" not in answer, answer
    assert getattr(h.table().settings, name) != value


async def test_create_with_a_mistyped_game_says_which_games_exist(h: Harness) -> None:
    alice = h.fake.user("alice")
    # ("texas" is an alias of hold'em now: bot/table/games.py.)
    await h.slash(alice, "table create", variant="texsa")
    answer = h.last_ephemeral(alice)
    assert "no game called 'texsa'" in answer and "error id" not in answer


async def test_r6_6_refusal_says_you_may_once(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users)
    actor = h.to_act()
    assert actor is not None
    await h.slash(actor, "bet", amount=10)
    assert h.last_ephemeral(actor).lower().count("you may") == 1


async def test_r1_6_back_during_the_hand_cancels_the_sit_out(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users)
    bob = users[1]
    await h.slash(bob, "sitout")
    await h.slash(bob, "back")
    assert "keep playing" in h.last_ephemeral(bob)
    await play_out(h)
    await h.slash(users[0], "deal")
    assert bob.name in h.table().state.current.names


async def test_embed_ends_with_the_end_of_the_hand(h: Harness) -> None:
    await h.start_table(players(h.fake))
    await play_out(h)
    lines = h.table_message().embeds[0]["description"].splitlines()
    assert lines[-1].startswith("Hand #") and lines[-1].endswith("is over."), lines


async def test_r3_5_bring_in_buttons_say_bring_in_and_offer_no_fold(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users, variant="stud", structure="fixed", small_bet=2, big_bet=4, ante=1)
    labels = [c.get("label") for c in iter_components(h.table_message().components)]
    assert any(str(lab).startswith("Bring in") for lab in labels), labels
    assert "Fold" not in labels
    actor = h.to_act()
    assert actor is not None
    await h.click(actor, "check_call")
    last = h.table().snapshot(None).last_said
    assert last is not None and last.key == "notice.action.bring_in"


async def test_r3_4_straddle_by_slash_command(h: Harness) -> None:
    users = [h.fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    await h.slash(users[0], "table create")
    await h.slash(users[0], "table settings", name="straddle", value="on")
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    plan = h.table()._plan()
    utg = h.table().state.seats[plan.order[2]].user_id
    straddler = next(u for u in users if str(u.id) == utg)
    await h.slash(straddler, "straddle")
    assert "straddles 4" in h.last_ephemeral(straddler)
    await h.slash(users[0], "deal")
    assert h.table().state.hand.current_bet == 4


async def test_bump_has_a_cooldown(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users)
    await h.click(users[0], "bump")
    first = h.table_message()
    await h.click(users[1], "bump")  # at once again: refused privately, nothing moves
    assert "try again in" in h.last_ephemeral(users[1])
    assert h.table_message().id == first.id


async def test_declare_note_for_closed_dms_is_not_hidden_by_the_cards_note(h: Harness) -> None:
    users = players(h.fake)
    h.fake.close_dms(users[0])
    opts = {"variant": "omaha8", "structure": "fixed", "small_bet": 2, "big_bet": 4}
    await h.start_table(users, declare="simultaneous", **opts)
    await _declare_phase(h)
    await h.settle()
    notes = [m.content for m in h.fake.channel_messages() if "cannot DM you" in m.content]
    assert any("your cards" in n for n in notes) and any("declar" in n for n in notes), notes


async def test_r3_5_the_bring_in_modal_says_complete(h: Harness) -> None:
    users = players(h.fake)
    await h.start_table(users, variant="stud", structure="fixed", small_bet=2, big_bet=4, ante=1)
    actor = h.to_act()
    assert actor is not None
    rec = await h.fake.click(actor, h.table_message(), h.button("bet_raise"))
    modal = h.fake.modal_for(actor)
    assert modal is not None and modal.title == "Complete", modal
    await h.fake.submit_modal(actor, rec, {"to": "2"})
    await h.settle()
    last = h.table().snapshot(None).last_said
    assert last is not None and last.key == "notice.action.complete"
    assert last.get("amount") == Chips(2)
