"""The components dated by a turn carry the table's session (R-20.95), within Discord's
100 characters, and an older version's ids still decode, without one (R-20.96)."""

from __future__ import annotations

import discord
import pytest

from cogs.components import (
    action_buttons,
    declare_buttons,
    draw_menu,
    guts_buttons,
    raise_modal,
    run_twice_buttons,
    state_modal,
)
from cogs.ids import MAX_LEN, ButtonId, ModalId, decode, decode_modal

LONGEST_TOURNAMENT_TABLE = "tn:t" + "z" * 13 + ":999"
"""A tournament's table id as long as one can be (a 64-bit snowflake in base 36)."""
CHANNEL = "1" * 20
TURN, SESSION = 987654321, 9999


def _ids(view: discord.ui.View) -> list[str]:
    return [str(getattr(item, "custom_id", "")) for item in view.children]


@pytest.mark.parametrize("table", [CHANNEL, LONGEST_TOURNAMENT_TABLE])
def test_R_20_95_turn_dated_components_carry_the_session(table: str) -> None:
    views = [
        action_buttons(table, TURN, 5, "betting", session=SESSION),
        action_buttons(
            table, TURN, 0, "showdown", in_turn=True, declared_hands=True, session=SESSION
        ),
        action_buttons(table, TURN, 0, "declare", in_turn=True, session=SESSION),
        declare_buttons(table, TURN, "en", SESSION),
        guts_buttons(table, TURN, "en", SESSION),
        run_twice_buttons(table, TURN, "en", SESSION),
        draw_menu(table, TURN, ("As", "Kd"), 2, "en", SESSION),
    ]
    dated = 0
    for view in views:
        for cid in _ids(view):
            assert len(cid) <= MAX_LEN, cid
            bid = decode(cid)
            assert bid is not None and bid.table_id == table, cid
            if bid.kind in ("show", "bump"):
                assert (bid.turn, bid.session) == (0, 0), cid  # undated: any table's own
                continue
            assert (bid.turn, bid.session) == (TURN, SESSION), cid
            dated += 1
    assert dated == 4 + 3 + 3 + 3 + 2 + 2 + 1  # every dated one was seen
    for modal in (
        raise_modal(table, TURN, "2–10", True, session=SESSION),
        state_modal(table, TURN, "en", SESSION),
    ):
        assert len(modal.custom_id) <= MAX_LEN
        mid = decode_modal(modal.custom_id)
        assert mid is not None and (mid.table_id, mid.turn, mid.session) == (table, TURN, SESSION)


def test_R_20_96_an_older_versions_ids_decode_without_a_session() -> None:
    assert decode(f"cf:act:{CHANNEL}:14:fold") == ButtonId("act", CHANNEL, 14, "fold", 0)
    assert decode_modal(f"cfm:{CHANNEL}:14") == ModalId("cfm", CHANNEL, 14, 0)
    assert decode_modal(f"cfs:{LONGEST_TOURNAMENT_TABLE}:3.14") == ModalId(
        "cfs", LONGEST_TOURNAMENT_TABLE, 14, 3
    )
    assert decode_modal("cfm:abc:1") is None and decode_modal("cfx:1:1") is None


def test_R_20_95_a_modal_id_over_discords_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        ModalId("cfm", "tn:" + "a" * 95 + ":1", 1, 2).encode()
