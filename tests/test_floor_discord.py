"""Floor review (issue 12) through Discord: the real client and cogs against the fake
Discord. A raise refused because the betting is capped (R-5.7) says why on the raise
button and in the raise modal, not "You cannot bet or raise now"."""

from __future__ import annotations

from bot.poker.messages import Chips, Rule, msg
from tests.said import keys_in, said_in
from tests.test_discord_e2e import Harness, players


async def _capped(h: Harness) -> object:
    users = players(h.fake)
    await h.start_table(users, structure="fixed", small_bet=2, big_bet=4)
    table = h.table()
    for k in range(3):
        actor = h.to_act()
        assert actor is not None
        out = await table.act(str(actor.id), "raise", key=f"floor-{k}")
        assert out.ok, out.msg
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


async def test_r5_7_capped_raise_button_says_why_in_the_clickers_language(h: Harness) -> None:
    actor = await _capped(h)
    actor.locale = "de"  # type: ignore[attr-defined]
    turn = h.table().state.turn
    await h.click(actor, "bet_raise")  # type: ignore[arg-type]
    text = h.last_ephemeral(actor)  # type: ignore[arg-type]
    assert "Die Erhöhungen sind ausgeschöpft (R-5.7)" in text, text
    assert "capped" not in text and h.table().state.turn == turn


async def test_r5_7_capped_raise_by_slash_command_says_why(h: Harness) -> None:
    actor = await _capped(h)
    await h.slash(actor, "raise", amount=2)  # type: ignore[arg-type]
    text = h.last_ephemeral(actor)  # type: ignore[arg-type]
    assert "The betting is capped (R-5.7)" in text, text


async def test_r5_7_raise_modal_max_when_capped_says_why(h: Harness) -> None:
    """The modal's ``max`` (or ``min``) is sized by the table from the legal range; capped,
    the table says why, with what the player may do, and nothing changes."""
    from bot.table.text_actions import ActionRequest
    from cogs.play import parse_raise

    actor = await _capped(h)
    req = parse_raise("max", "", False)
    assert req == ActionRequest("max")
    turn = h.table().state.turn
    out = await h.table().act(str(actor.id), req, key="capped-max")  # type: ignore[attr-defined]
    assert not out.ok and h.table().state.turn == turn
    assert "refuse.capped" in keys_in(out.msg), out.msg
    assert said_in(out.msg, msg("refuse.capped", rule=Rule("R-5.7")))
    assert said_in(out.msg, msg("legal.call", amount=Chips(4)))
