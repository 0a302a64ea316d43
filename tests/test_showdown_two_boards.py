"""The showdown picture of a hand played on two boards (R-20.63): run it twice (both
runs, the second starting from the board as it stood) and a bomb pot's double board.
Hands are played through the real table service from a stacked deck; the Discord
presenter's own collector (public events only) builds the picture's view, which is then
drawn and described. Every hand conserves chips (R-2.5)."""

from __future__ import annotations

from typing import Any

from bot.poker.cards import stacked_deck
from bot.poker.events import PotAwarded
from bot.poker.hand import Hand
from bot.table.table import Table
from cards_art import Second, ShowdownView, render_showdown
from cards_art.panels import showdown_alt
from cards_art.sprites import Mark
from cogs.art import showdown_art
from cogs.presenter import DiscordPresenter
from tests.harness import Harness
from tests.test_floor_show import dealt


def _picture(h: Harness) -> ShowdownView:
    presenter = DiscordPresenter(None)  # type: ignore[arg-type]
    presenter.service = h.service
    for table_id, notice in h.presenter.public_notices:
        presenter._note_showdown(table_id, notice)
    notes = presenter.channel("t").hand.showdown
    assert notes is not None
    return showdown_art(notes)


def _last_hand(table: Table) -> Hand:
    info = table.state.recent[table.state.hand_no]
    hand = info.ensure_hand()
    assert hand.over
    return hand


def _awarded(table: Table) -> dict[int, int]:
    """Chips awarded per board, from the engine's own events."""
    out = {0: 0, 1: 0}
    for e in table.state.recent[table.state.hand_no].events:
        if isinstance(e, PotAwarded):
            out[e.board] += e.amount
    return out


def _check_view(view: ShowdownView, hand: Hand, table: Table) -> None:
    """Both boards as the engine dealt them, every shown hand read on each, and the
    awards of each board as the engine paid them."""
    assert view.board == tuple(hand.board) and len(view.second) == 5
    assert hand.board2 is not None and view.second == tuple(hand.board2)
    assert view.hands and all(h.readings and h.second_readings for h in view.hands)
    for shown in view.hands:
        for board, readings in ((view.board, shown.readings), (view.second, shown.second_readings)):
            for r in readings:  # a reading's cards are the hand's and that board's
                assert set(r.used) <= set(shown.cards) | set(board), (r, board)
    paid = {b: sum(a.amount for a in view.awards if a.board == b) for b in (0, 1)}
    assert paid == _awarded(table)
    assert paid[0] and paid[1] and paid[0] - paid[1] in (0, 1)  # odd chip to the first


async def _play_passively(h: Harness, table: Table) -> None:
    while (hand := table.state.hand) is not None:
        if hand.phase == "run_twice":
            info = table.state.current
            assert info is not None
            for pos in hand.run_twice_pending():
                assert (await h.do(table, info.users[pos], "run twice yes")).ok
            continue
        acts = hand.legal().actions
        word = "check" if "check" in acts else "call"
        assert (await h.do(table, h.to_act(table), word)).ok


async def test_R_20_63_run_twice_picture_draws_both_runs() -> None:
    """R-20.63: all in on the flop, all agree: the picture draws the first run and the second
    (the flop shared), each hand read on each run, each run's award beside it; the pot
    is odd (3 x 199), its odd chip the first run's."""
    h = Harness()
    deck = stacked_deck(["AsAh", "KdQd", "JcTc"], "Kc7h2d5s9hQc3s")
    with dealt(deck):
        table = await h.seated(["a", "b", "c"], buy_in=199, run_it_twice=True, declare_clock=30)
        chips = sum(s.stack for s in table.state.seats.values())
        assert (await h.deal(table)).ok
        while (hand := table.state.hand) is not None and hand.street_index == 0:
            acts = hand.legal().actions
            assert (await h.do(table, h.to_act(table), "call" if "call" in acts else "check")).ok
        assert (await h.do(table, h.to_act(table), "all in")).ok
        await _play_passively(h, table)
    hand = _last_hand(table)
    assert hand.ran_twice
    view = _picture(h)
    assert view.second_kind is Second.RUN
    assert view.second[:3] == view.board[:3]  # the flop was dealt once, shared
    _check_view(view, hand, table)
    alt = showdown_alt(view)
    assert "First run" in alt and "Second run" in alt
    image = render_showdown(view)
    assert image.height > render_showdown(_one_board(view)).height  # two lines a hand
    assert "Second run" in image.alt_text
    assert sum(s.stack for s in table.state.seats.values()) == chips
    h.check(table)


def _one_board(view: ShowdownView) -> ShowdownView:
    from dataclasses import replace

    return replace(
        view,
        second=(),
        hands=tuple(replace(s, second_readings=()) for s in view.hands),
        awards=tuple(a for a in view.awards if a.board == 0),
    )


async def test_R_20_63_double_board_picture_draws_both_boards() -> None:
    """R-20.63: a bomb pot on two boards checked down: the picture draws both boards with each
    hand's reading and framed cards on each, and the alt text names both."""
    h = Harness()
    settings: dict[str, Any] = {"bomb_pot_every": 1, "bomb_pot_ante": 5, "double_board": True}
    with dealt(stacked_deck(["ThTc", "7s5s", "AdKd"], "AhTd6c9s8s3d6sKh2h4s")):
        table = await h.seated(["a", "b", "c"], **settings)
        chips = sum(s.stack for s in table.state.seats.values())
        assert (await h.deal(table)).ok
        await _play_passively(h, table)
    hand = _last_hand(table)
    view = _picture(h)
    assert view.second_kind is Second.BOARD
    _check_view(view, hand, table)
    # Each line frames its own board's cards: a card of the second board is never
    # marked as played on the first board's line.
    from cards_art.panels import _marks

    for shown in view.hands:
        for card in set(view.second) - set(view.board):
            assert _marks(shown, card) in (Mark.DIM, Mark.PLAIN)
            assert _marks(shown, card, 1) is not Mark.PLAIN
    alt = showdown_alt(view)
    assert "First board" in alt and "Second board" in alt
    for card_list in (view.board, view.second):
        assert all(c[0] in "23456789TJQKA" for c in card_list)
    assert sum(s.stack for s in table.state.seats.values()) == chips
    h.check(table)


def test_R_20_63_alt_text_in_the_tables_language() -> None:
    """R-20.63: the runs and boards are named in the picture's language (catalogue words)."""
    from cards_art import samples

    de = showdown_alt(samples.showdown_run_twice(), locale="de")
    assert "Erster Durchgang" in de and "Zweiter Durchgang" in de
    ru = showdown_alt(samples.showdown_double_board(), locale="ru")
    assert "Первый борд" in ru and "Второй борд" in ru


def test_R_20_63_awards_of_unshown_winners_name_their_board() -> None:
    """R-20.63: with nobody's hand shown, both boards are still drawn and each award
    line (picture and alt text) names the board it was won on."""
    from cards_art import ONLY_POT, Award

    view = ShowdownView(
        variant="Texas Hold'em",
        stakes="",
        hands=(),
        board=("Ah", "Td", "6c", "6s", "2h"),
        second=("9s", "8s", "3d", "Kh", "4s"),
        awards=(Award(ONLY_POT, 2, 38), Award(ONLY_POT, 3, 37, board=1)),
        names=((2, "Carol"), (3, "Dan")),
    )
    alt = showdown_alt(view)
    assert "First board: Carol wins 38 (pot)." in alt
    assert "Second board: Dan wins 37 (pot)." in alt
    one = _one_board(view)
    assert render_showdown(view).height > render_showdown(one).height  # both boards drawn
