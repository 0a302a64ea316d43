"""Floor review (issue 12) through Discord: the real client and cogs against the fake
Discord. A raise refused because the betting is capped (R-5.7) says why on the raise
button and in the raise modal, not "You cannot bet or raise now"."""

from __future__ import annotations

from tests.test_discord_e2e import Harness, players


async def _capped(h: Harness) -> object:
    users = players(h.fake)
    await h.start_table(users, structure="fixed", small_bet=2, big_bet=4)
    table = h.table()
    for k in range(3):
        actor = h.to_act()
        assert actor is not None
        out = await table.act(str(actor.id), "raise", key=f"floor-{k}")
        assert out.ok, out.message
        await h.settle()
    actor = h.to_act()
    assert actor is not None
    return actor


async def test_r5_7_capped_raise_button_says_the_betting_is_capped(h: Harness) -> None:
    actor = await _capped(h)
    turn = h.table().state.turn
    await h.click(actor, "bet_raise")  # type: ignore[arg-type]
    text = h.last_ephemeral(actor)  # type: ignore[arg-type]
    assert "The betting is capped (R-5.7)" in text, text
    assert "call 4" in text
    assert h.table().state.turn == turn


async def test_r5_7_capped_raise_by_slash_command_says_why(h: Harness) -> None:
    actor = await _capped(h)
    await h.slash(actor, "raise", amount=2)  # type: ignore[arg-type]
    text = h.last_ephemeral(actor)  # type: ignore[arg-type]
    assert "The betting is capped (R-5.7)" in text, text


def test_r5_7_raise_modal_max_when_capped_says_why() -> None:
    from bot.poker.legal import Legal
    from cogs.play import parse_raise

    legal = Legal(0, frozenset({"call", "fold"}), 4, 8, 4, 100, 20, None, None, 1, False)
    out = parse_raise("max", "", legal, "The betting is capped (R-5.7).")
    assert isinstance(out, str) and out.startswith("The betting is capped (R-5.7).")
    assert "call 4" in out
