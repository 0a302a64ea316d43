"""Buttons dated by a turn carry the table they were posted at (R-20.95, R-20.96),
through the fake Discord (the real discord.py client and cogs): turns start again with
each table of a channel, so an earlier table's action button or bet modal whose turn
number matches the new table's turn is refused privately and changes nothing."""

from __future__ import annotations

from bot.poker.messages import msg
from bot.words import render
from cogs.ids import ButtonId, ModalId, decode, decode_modal
from tests.fakediscord.state import FakeInteraction, FakeMessage, FakeUser
from tests.test_discord_e2e import Harness as DiscordHarness
from tests.test_discord_e2e import h, players

__all__ = ["h"]  # the end-to-end fixture, shared

EARLIER = render(msg("table.stale.earlier_table"), "en")
UNSAID = render(msg("table.stale.table_unsaid"), "en")


def _legacy(custom_id: str) -> str:
    """The same button as an older version posted it: no table before the turn."""
    bid = decode(custom_id)
    assert bid is not None and bid.session >= 1, custom_id
    return ButtonId(bid.kind, bid.table_id, bid.turn, bid.arg).encode()


def _left_on(h: DiscordHarness, post: FakeMessage, custom_ids: list[str]) -> None:
    """Give ``post`` these buttons, as a message an older version left carries them."""
    buttons = [{"type": 2, "style": 2, "label": c, "custom_id": c} for c in custom_ids]
    h.fake.messages[post.id].components = [{"type": 1, "components": buttons}]


async def _open(h: DiscordHarness, users: list[FakeUser], host: FakeUser) -> None:
    await h.slash(host, "table create")
    assert not h.table().state.closed, h.last_ephemeral(host)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(host, "deal")
    assert h.table().state.in_hand


def _state(h: DiscordHarness) -> tuple[int, int, int]:
    st = h.table().state
    return st.seq, st.turn, st.hand_no


async def test_R_20_95_an_earlier_tables_button_and_modal_are_refused_at_the_next(
    h: DiscordHarness,
) -> None:
    fake = h.fake
    users = players(fake)
    await _open(h, users, users[0])
    assert h.table().state.incarnation == 1
    old_post = h.table_message()
    old_turn = h.table().state.turn
    old_fold, old_raise = h.button("fold"), h.button("bet_raise")
    assert decode(old_fold) == ButtonId("act", h.tid, old_turn, "fold", 1)
    first_actor = h.to_act()
    assert first_actor is not None
    # The bet modal opened at the first table (left open, submitted later).
    opened: FakeInteraction = await fake.click(first_actor, old_post, old_raise)
    await h.settle()
    assert opened.modal is not None
    assert decode_modal(opened.modal.custom_id) == ModalId("cfm", h.tid, old_turn, 1)
    await h.fold_to_one()
    await h.slash(users[0], "table close")
    assert h.table().state.closed
    await _open(h, users, users[1])  # another host: table create is paced per user
    table = h.table()
    assert table.state.incarnation == 2
    assert table.state.turn == old_turn  # the same number: only the table tells them apart
    actor = h.to_act()
    assert actor is not None
    legal = table.snapshot(str(actor.id)).legal
    assert legal is not None and legal.min_to is not None
    chips_before = table.conservation_error()
    assert chips_before is None
    before = _state(h)
    # The earlier table's Fold, pressed on its own (old) message by whoever acts now (a
    # message whose last edit failed still carries it).
    _left_on(h, old_post, [old_fold])
    await fake.click(actor, old_post, old_fold)
    await h.settle()
    assert h.last_ephemeral(actor) == EARLIER
    assert _state(h) == before
    # The earlier table's modal, submitted by whoever acts now, with a legal amount.
    assert opened.modal is not None
    await fake.submit_modal(actor, opened, {"to": str(legal.min_to)})
    await h.settle()
    assert h.last_ephemeral(actor) == EARLIER
    assert _state(h) == before
    # This table's own buttons carry its session and act.
    fold = h.button("fold")
    assert decode(fold) == ButtonId("act", h.tid, old_turn, "fold", 2)
    raise_ = h.button("bet_raise")
    rec = await fake.click(actor, h.table_message(), raise_)
    await h.settle()
    assert rec.modal is not None
    assert decode_modal(rec.modal.custom_id) == ModalId("cfm", h.tid, old_turn, 2)
    await fake.submit_modal(actor, rec, {"to": str(legal.min_to)})
    await h.settle()
    assert h.table().state.turn == old_turn + 1
    assert h.table().conservation_error() is None


async def test_R_20_96_an_older_versions_button_acts_at_the_first_table_only(
    h: DiscordHarness,
) -> None:
    fake = h.fake
    users = players(fake)
    await _open(h, users, users[0])
    post = h.table_message()
    actor = h.to_act()
    assert actor is not None
    turn = h.table().state.turn
    legacy = _legacy(h.button("fold"))
    assert decode(legacy) == ButtonId("act", h.tid, turn, "fold", 0)
    _left_on(h, post, [legacy])
    await fake.click(actor, post, legacy)
    await h.settle()
    assert h.table().state.turn == turn + 1  # the first table: judged by its turn alone
    await h.fold_to_one()
    await h.slash(users[0], "table close")
    await _open(h, users, users[1])
    assert h.table().state.incarnation == 2
    post = h.table_message()
    actor = h.to_act()
    assert actor is not None
    legacy = _legacy(h.button("fold"))
    _left_on(h, post, [legacy])
    before = _state(h)
    await fake.click(actor, post, legacy)
    await h.settle()
    assert h.last_ephemeral(actor) == UNSAID
    assert _state(h) == before
    assert h.table().conservation_error() is None


async def _to_the_draw(h: DiscordHarness) -> FakeUser:
    while h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    assert h.table().snapshot(None).phase == "draw"
    drawer = h.to_act()
    assert drawer is not None
    return drawer


def _hand_of(h: DiscordHarness, user: FakeUser) -> list[str]:
    view = h.table().snapshot(str(user.id))
    return next(list(s.cards) for s in view.seats if s.user_id == str(user.id))


async def test_R_20_95_an_earlier_tables_private_draw_menu_is_refused(
    h: DiscordHarness,
) -> None:
    """The discard menu under "Show my cards" (private) is dated by the turn and the
    table: one kept from the first table's draw, picked at the second table's draw of
    the same turn, discards nothing."""
    from tests.test_discord_e2e import play_out

    fake = h.fake
    users = players(fake)
    await h.start_table(users, variant="draw5")
    drawer = await _to_the_draw(h)
    turn = h.table().state.turn
    await h.click(drawer, "cards")
    old_menu = fake.ephemerals(drawer)[-1]
    old_select = next(c for c in old_menu.custom_ids() if c.startswith("cf:draw:"))
    assert decode(old_select) == ButtonId("draw", h.tid, turn, "", 1)
    await play_out(h)
    await h.slash(users[0], "table close")
    assert h.table().state.closed
    await h.slash(users[1], "table create", variant="draw5")  # another host (paced per user)
    for u in users:
        await h.slash(u, "sit", buy_in=200)
    await h.slash(users[1], "deal")
    now = await _to_the_draw(h)
    assert h.table().state.turn == turn and h.table().state.incarnation == 2
    before, state = _hand_of(h, now), _state(h)
    # The old menu is on the old private message; whoever draws now picks from it.
    old_menu.ephemeral_for = now.id
    await fake.click(now, old_menu, old_select, values=before[:2])
    await h.settle()
    assert h.last_ephemeral(now) == EARLIER
    assert _state(h) == state and _hand_of(h, now) == before
    # This table's own menu: dated by its table, and it draws.
    await h.click(now, "cards")
    menu = fake.ephemerals(now)[-1]
    select = next(c for c in menu.custom_ids() if c.startswith("cf:draw:"))
    assert decode(select) == ButtonId("draw", h.tid, turn, "", 2)
    await fake.click(now, menu, select, values=before[:2])
    await h.settle()
    assert not set(before[:2]) & set(_hand_of(h, now))
    assert h.table().conservation_error() is None
