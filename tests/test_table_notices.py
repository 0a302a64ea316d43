"""The one-line texts the table service posts for engine events (bot/table/notices.py),
as the table's messages rendered in English with the players named."""

from __future__ import annotations

import pytest

from bot.poker import evaluate as ev
from bot.poker.events import Event, HandShown, PotAwarded, StreetStarted
from bot.poker.messages import Chips, Player, Term, joined, msg
from bot.table.notices import said
from bot.words import render
from tests.said import told

NAMES = {0: "alice", 1: "bob"}.__getitem__
THREE_KINGS = ev.describe("high", ["Ks", "Kd", "Kc", "2h", "5d"]).words


def describe(event: Event) -> str | None:
    m = said(event)
    return None if m is None else render(m, "en", names=NAMES)


def test_r12_4_hand_exposed_before_the_board_has_no_empty_name() -> None:
    """An all-in run-out exposes hands before the board is out: no "()" for the name."""
    text = describe(HandShown(player=0, cards=("Jc", "7d"), hands=(None,)))
    assert text == "alice shows Jc 7d"


def test_r9_2_shown_hand_and_pot_award_are_named() -> None:
    shown = HandShown(player=1, cards=("Ks", "Kd"), hands=(THREE_KINGS,))
    assert describe(shown) == "bob shows Ks Kd (Three kings)"
    award = PotAwarded(
        pot_index=0, share="whole", amount=40, winners=(1,), amounts=(40,), hand_words=THREE_KINGS
    )
    assert describe(award) == "main pot: bob 40 with Three kings"


def test_r11_3_hi_lo_halves_are_labelled() -> None:
    eight = ev.describe("low_a5", ["8c", "5d", "4h", "2s", "Ac"]).words
    low = PotAwarded(
        pot_index=1, share="low", amount=7, winners=(0,), amounts=(7,), hand_words=eight
    )
    assert describe(low) == "side pot 1 (low half): alice 7 with 8-5-4-2-A low"


def test_r16_3_later_stud_streets_get_a_header_board_streets_do_not() -> None:
    """Seventh street is dealt face down: the header is all the public log says of it."""
    assert describe(StreetStarted(street="seventh street", index=4)) == "Seventh street"
    assert describe(StreetStarted(street="third street", index=0)) is None
    assert describe(StreetStarted(street="flop", index=1)) is None


async def test_r16_3_stud_deal_names_a_dealer_not_a_button() -> None:
    from tests.harness import Harness

    h = Harness()
    stud = await h.seated(["a", "b", "c"], variant="stud", limit="fixed", small_bet=2, big_bet=4)
    await h.deal(stud)
    holdem = await h.seated(["d", "e", "f"], table_id="t2")
    await h.deal(holdem)
    starts = [told(n) for _, n in h.presenter.public_notices if n.kind == "hand_started"]
    assert "Dealer: seat" in starts[0] and "Button" not in starts[0]
    assert "Button: seat" in starts[1]


def test_r13_4_declare_resolution_names_players_not_positions() -> None:
    from bot.poker.events import DeclareResolved

    said_each = joined(
        [
            msg("declare.said", player=Player(0), choice=Term("declare.choice.high")),
            msg("declare.said", player=Player(1), choice=Term("declare.choice.low")),
        ]
    )
    pot = msg("declare.main_pot", amount=Chips(8))
    step = msg("declare.pot_said", pot=pot, said=said_each)
    text = describe(DeclareResolved(carried=0, messages=(step,)))
    assert text == "Main pot (8): alice high, bob low."


def test_r15_2_guts_log_and_count_name_players_and_keep_calls_sealed() -> None:
    from bot.poker.events import DeclarationCount, PotSystemSettled

    log = (
        msg("guts.takes", player=Player(1), pot=Chips(6)),
        msg("guts.pays", players=msg("engine.who", who=Player(0)), amount=Chips(6)),
        msg("guts.next_pot", pot=Chips(6)),
    )
    text = describe(PotSystemSettled(carried=6, messages=log))
    assert text == "bob takes the pot of 6. alice pays 6. Next pot 6."
    count = describe(DeclarationCount(committed=1, total=3, what="guts"))
    assert count is not None and "1 of 3" in count
    assert " in" not in count and " out" not in count  # says how many, never who or which


def test_invariant_2_every_notice_kind_is_declared_and_each_engine_event_has_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Invariant 2 (private information reaches only its owner): presenters decide what
    goes where by a notice's kind (cards to their owner, prompts to the actor), so the
    kinds are one declared Literal (``NoticeKind``) that mypy holds every comparison
    to. Each engine event is one (its class name), and no other name is made a kind."""
    import typing

    from bot.poker import events
    from bot.table.ports import EventNoticeKind, event_kind

    engine = {
        name
        for name, cls in vars(events).items()
        if isinstance(cls, type) and issubclass(cls, events.Event) and cls is not events.Event
    }
    assert set(typing.get_args(EventNoticeKind)) == engine
    assert event_kind(StreetStarted(street="flop", index=1)) == "StreetStarted"
    with caplog.at_level("ERROR", logger="bot.table.ports"):
        assert event_kind(object()) == "object"  # told under its name, and logged
    assert "object is not in EventNoticeKind" in caplog.text
