"""What players could not see (issue 12, items 14b-18): the showdown picture frames the
cards each hand plays (high and low), its alt text reads as sentences, the table view
shows two-to-win markers, Guts legs and the reserve, the clock and the game's full name.

Hands are dealt from a stacked deck through the real table service; the Discord
presenter's own collector (public events only) builds the showdown picture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import bot.poker.hand as hand_module
from bot.poker.cards import stacked_deck
from bot.poker.showdown import read_hand
from bot.poker.variants import get_variant
from bot.table.table import Table
from bot.table.testing import Harness
from cards_art import render_showdown
from cards_art.panels import _marks
from cards_art.sprites import Mark
from cogs.art import showdown_art
from cogs.presenter import DiscordPresenter


@contextmanager
def dealt(deck: tuple[str, ...]) -> Iterator[None]:
    """Every deal in the block comes from ``deck`` (the table shuffles otherwise)."""
    original = getattr(hand_module, "shuffled_deck")  # noqa: B009 (not re-exported)
    setattr(hand_module, "shuffled_deck", lambda cards=None: deck)  # noqa: B010
    try:
        yield
    finally:
        setattr(hand_module, "shuffled_deck", original)  # noqa: B010


async def play_out(h: Harness, table: Table, declare: dict[str, str] | None = None) -> None:
    """Check, call or bring in (and declare as told) until the hand is over."""
    while table.state.hand is not None:
        hand = table.state.hand
        info = table.state.current
        assert info is not None
        if hand.phase == "declare" and hand.to_act is None:
            for pos in hand.declare_pending():
                user = info.users[pos]
                choice = (declare or {}).get(user, "high")
                assert (await h.do(table, user, f"declare {choice}")).ok
            continue
        acts = hand.legal().actions
        word = next(w for a, w in _PASSIVE if a in acts)
        out = await h.do(table, h.to_act(table), word)
        assert out.ok, (word, out.message)


_PASSIVE = (("check", "check"), ("call", "call"), ("bring_in", "bring in"), ("draw", "draw 0"))


async def showdown_of(
    game: str,
    holes: list[str],
    board: str,
    names: list[str],
    calls: dict[str, str] | None = None,
    **settings: Any,
) -> tuple[Any, Table]:
    """Play one hand and build the showdown picture's view as the presenter does."""
    h = Harness()
    with dealt(stacked_deck(holes, board)):
        table = await h.seated(names, buy_in=200, variant=game, **settings)
        assert (await h.deal(table)).ok
        await play_out(h, table, calls)
    presenter = DiscordPresenter(None)  # type: ignore[arg-type]
    presenter.service = h.service
    fists = None
    for table_id, notice in h.presenter.public_notices:
        presenter._note_showdown(table_id, notice)
        if notice.kind == "DeclarationsRevealed":
            fists = presenter._fists(table_id, notice)
    return showdown_art(presenter.showdowns["t"], fists), table


async def test_r10_3_holdem_showdown_frames_the_five_cards_played() -> None:
    """R-10.3/R-9.3: the picture marks the best five (own and board) of each shown hand;
    the alt text is a sentence without empty brackets and names the game once."""
    view, _ = await showdown_of("holdem", ["Kh7s", "AhTh"], "Kc7hKs2h9h", ["alice", "bob"])
    (hand,) = view.hands  # the loser mucked
    (reading,) = hand.readings
    assert reading.name == "Kings full of sevens" and reading.kind == ""
    assert sorted(reading.used) == sorted(["Kh", "7s", "Kc", "7h", "Ks"])
    assert _marks(hand, "Kc") is Mark.HIGH and _marks(hand, "9h") is Mark.DIM
    alt = render_showdown(view).alt_text
    assert "()" not in alt
    assert alt.count("Texas hold'em") == 1, alt
    assert "shows K♥ 7♠: Kings full of sevens with K♠ K♥ K♣ 7♠ 7♥." in alt, alt


async def test_r11_5_omaha_hi_lo_readings_keep_their_high_and_low_labels() -> None:
    """R-11.5/R-10.5: each hand's high and low readings are labelled and framed (gold,
    blue, both); a hand without a qualifying low says so and frames no low card."""
    view, _ = await showdown_of(
        "omaha8",
        ["KdKhQsJc", "2s3c9d9h", "2h7dQhJh"],
        "Ah5d8cKs4h",
        ["alice", "bob", "carol"],
        limit="pot_limit",
    )
    by_cards = {h.cards: h for h in view.hands}
    kings = by_cards[("Kd", "Kh", "Qs", "Jc")]
    wheel = by_cards[("2s", "3c", "9d", "9h")]
    assert [(r.kind, r.name) for r in kings.readings] == [
        ("high", "Three kings"),
        ("low", "no qualifying low"),
    ]
    assert [(r.kind, r.name) for r in wheel.readings] == [
        ("high", "Five-high straight"),
        ("low", "5-4-3-2-A low"),
    ]
    # Omaha: exactly two own cards and three of the board in each half.
    for r in wheel.readings:
        assert len([c for c in r.used if c in wheel.cards]) == 2 and len(r.used) == 5
    assert _marks(wheel, "2s") is Mark.BOTH and _marks(wheel, "9d") is Mark.DIM
    assert _marks(kings, "Kd") is Mark.HIGH and not kings.readings[1].used
    alt = render_showdown(view).alt_text
    assert "high, Five-high straight with" in alt and "; low, 5-4-3-2-A low with" in alt
    assert "low, no qualifying low." in alt and "()" not in alt


async def test_r9_3_stud_showdown_reads_all_seven_cards() -> None:
    """R-9.3/R-10.3: a stud hand is read from all seven of its shown cards."""
    view, _ = await showdown_of(
        "stud",
        ["Kh7sQd9c2s5h3h", "AhTh4c4d8s6s7c"],
        "",
        ["alice", "bob"],
        limit="fixed",
        small_bet=2,
    )
    for hand in view.hands:
        assert len(hand.cards) == 7
        (reading,) = hand.readings
        assert len(reading.used) == 5 and set(reading.used) <= set(hand.cards)
    names = {r.name for h in view.hands for r in h.readings}
    assert names == {"King high", "Pair of fours"}


async def test_r13_2_declare_showdown_shows_each_declaration() -> None:
    """R-13.2: in a declare game the showdown picture says what each hand declared."""
    view, _ = await showdown_of(
        "stud8",
        ["Kh7sKdKc2s5h3h", "Ah2h4c3d8s6s7c"],
        "",
        ["alice", "bob"],
        calls={"alice": "high", "bob": "both"},
        limit="fixed",
        small_bet=2,
        declare="simultaneous",
    )
    declared = {h.name: h.declared.value if h.declared else None for h in view.hands}
    assert declared == {"alice": "high", "bob": "both"}, declared
    alt = render_showdown(view).alt_text
    assert "alice, who declared high, shows" in alt


def test_r10_7_read_hand_plays_the_joker_it_is_given() -> None:
    """R-10.7: with a joker wild the reading counts it among the used cards."""
    (reading,) = read_hand(
        get_variant("holdem"), ["Kh", "Xx"], ["Kc", "7h", "Ks", "2h", "9h"], "joker"
    )
    assert reading.name == "Four kings" and "Xx" in reading.used
