"""The raise modal reads the one vocabulary (bot/table/amounts.py): a French player's
"tapis" in the modal is all in, through the real client and the fake Discord."""

from __future__ import annotations

from tests.test_discord_e2e import Harness, players


async def test_the_raise_modal_takes_every_language_s_amount_words(h: Harness) -> None:
    fake = h.fake
    await h.start_table(players(fake))
    actor = h.to_act()
    assert actor is not None
    turn = h.table().state.turn
    rec = await fake.click(actor, h.table_message(), h.button("bet_raise"))
    assert rec.modal is not None
    await fake.submit_modal(actor, rec, {"to": "beaucoup"})  # not an amount: refused
    await h.settle()
    assert h.table().state.turn == turn
    assert "beaucoup" in h.last_ephemeral(actor)
    rec = await fake.click(actor, h.table_message(), h.button("bet_raise"))
    await fake.submit_modal(actor, rec, {"to": "Tapis"})
    await h.settle()
    assert h.table().state.turn > turn
    mine = next(s for s in h.table().snapshot(str(actor.id)).seats if s.user_id == str(actor.id))
    assert mine.stack == 0 and mine.state == "all_in"
