"""Issue 12's words on Discord, end to end (the real discord.py client against the fake
Discord): game aliases in `/table create`, `/choose` and `/table settings`, ASCII-only
setting values, `/draw` with a count, and `/pot` during a declaration."""

from __future__ import annotations

from tests.test_discord_e2e import Harness, players


async def test_r16_2_aliases_in_table_create_and_settings(h: Harness) -> None:
    """R-16.2: `/table create variant:plo` opens pot-limit Omaha; `/table settings
    game stud/8` sets stud hi-lo (one alias table everywhere)."""
    alice = players(h.fake)[0]
    await h.slash(alice, "table create", variant="plo")
    assert "Pot-limit Omaha" in h.last_ephemeral(alice)
    table = h.table()
    assert (table.settings.variant, table.settings.limit) == ("omaha", "pot_limit")
    await h.slash(alice, "table settings", name="game", value="stud/8")
    assert h.table().settings.variant == "stud8", h.last_ephemeral(alice)
    assert "Settings changed: game from Omaha" in h.last_ephemeral(alice)
    assert "to Seven-card stud hi-lo" in h.last_ephemeral(alice)


async def test_r6_4_settings_values_in_other_digits_are_refused(h: Harness) -> None:
    """R-6.4: `/table settings big_blind ١٠` is not 10; the answer says what is allowed."""
    alice = players(h.fake)[0]
    await h.slash(alice, "table create")
    await h.slash(alice, "table settings", name="big_blind", value="١٠")
    answer = h.last_ephemeral(alice)
    assert "not a value for big blind: it is a whole number" in answer, answer
    assert h.table().settings.big_blind == 2


async def test_r16_4_draw_command_with_a_count_asks_which_cards(h: Harness) -> None:
    """R-16.4: `/draw discard:2` is answered with an example, and lower-case cards such
    as `ah` are read as the terminal reads them."""
    users = players(h.fake)
    await h.start_table(users, variant="draw5", structure="fixed")
    while h.table().snapshot(None).phase == "betting":
        actor = h.to_act()
        assert actor is not None
        await h.click(actor, "check_call")
    actor = h.to_act()
    assert actor is not None and h.table().snapshot(None).phase == "draw"
    mine = next(s for s in h.table().snapshot(str(actor.id)).seats if s.user_id == str(actor.id))
    await h.slash(actor, "draw", discard="2")
    answer = h.last_ephemeral(actor)
    # The example is his own two first cards, in his private answer.
    assert f"like `draw {mine.cards[0]} {mine.cards[1]}`" in answer, answer
    assert h.table().snapshot(None).phase == "draw" and h.to_act() == actor
    await h.slash(actor, "draw", discard=mine.cards[0].lower())
    assert "draws 1" in h.last_ephemeral(actor), h.last_ephemeral(actor)


def test_r16_2_create_and_choose_suggest_the_game_an_alias_names() -> None:
    """R-16.2: both game options (/table create, /choose) suggest from the alias table."""
    from cogs.table_cog import _game_choices

    first = _game_choices("plo8")[0]
    assert (first.name, first.value) == (
        "Pot-limit Omaha hi-lo eight-or-better",
        "omaha8:pot_limit",
    )
    # In the asker's language: the structure as that card room says it.
    german = _game_choices("plo8", "de")[0]
    assert german.value == "omaha8:pot_limit" and german.name.startswith("Pot-Limit Omaha")
    assert len(_game_choices("")) <= 25
