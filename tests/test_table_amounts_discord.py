"""The raise modal reads the one vocabulary (bot/table/amounts.py): a French player's
"tapis" in the modal is all in, through the real client and the fake Discord."""

from __future__ import annotations

from tests.fakediscord.state import iter_components
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


async def test_R_6_4_a_german_player_s_modal_shows_and_reads_german_words(h: Harness) -> None:
    """The modal's placeholder lists the amount words in the clicker's language (from the
    ``input`` catalogue); a bad amount is refused privately in his language, with what
    he may type (the same words), and nothing changes; a shown word is read."""
    fake = h.fake
    await h.start_table(players(fake))
    actor = h.to_act()
    assert actor is not None
    actor.locale = "de"
    turn = h.table().state.turn
    rec = await fake.click(actor, h.table_message(), h.button("bet_raise"))
    assert rec.modal is not None
    fields = {c["custom_id"]: c for c in iter_components(rec.modal.components) if "custom_id" in c}
    hint = fields["to"]["placeholder"]
    assert all(w in hint for w in ("Minimum", "Maximum", "Hälfte", "Pot", "alles")), hint
    assert "half" not in hint and "all in" not in hint
    await fake.submit_modal(actor, rec, {"to": "-5"})
    await h.settle()
    assert h.table().state.turn == turn  # refused: nothing changed
    said = h.last_ephemeral(actor)
    assert "ist negativ" in said and "Hälfte" in said, said
    rec = await fake.click(actor, h.table_message(), h.button("bet_raise"))
    await fake.submit_modal(actor, rec, {"to": "Minimum"})
    await h.settle()
    assert h.table().state.turn > turn
