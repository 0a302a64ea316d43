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
from bot.poker.messages import Msg, Number, msg
from bot.poker.showdown import read_hand
from bot.poker.variants import get_variant
from bot.table.table import Table
from bot.table.view import stakes_said
from bot.words import render
from cards_art import ONLY_POT, RESERVE, Pot, render_showdown
from cards_art.panels import _marks
from cards_art.sprites import Mark
from cogs.art import showdown_art
from cogs.presenter import DiscordPresenter
from tests.harness import Harness
from tests.said import en, told


def _en(name: object) -> str:
    """A picture's word in English (a hand's name is a message the picture says)."""
    return en(name) if isinstance(name, Msg) else str(name)


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
        assert out.ok, (word, out.msg)


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
    return showdown_art(presenter.channel("t").hand.showdown, fists), table


async def test_r10_3_holdem_showdown_frames_the_five_cards_played() -> None:
    """R-10.3/R-9.3: the picture marks the best five (own and board) of each shown hand;
    the alt text is a sentence without empty brackets and names the game once."""
    view, _ = await showdown_of("holdem", ["Kh7s", "AhTh"], "Kc7hKs2h9h", ["alice", "bob"])
    (hand,) = view.hands  # the loser mucked
    (reading,) = hand.readings
    assert isinstance(reading.name, Msg) and reading.name.key == "hand.full_house"
    assert _en(reading.name) == "Kings full of sevens" and reading.kind == ""
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
    assert [(r.kind, _en(r.name)) for r in kings.readings] == [
        ("high", "Three kings"),
        ("low", _en(Msg("art.showdown.no_low"))),
    ]
    assert [(r.kind, _en(r.name)) for r in wheel.readings] == [
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
    names = {_en(r.name) for h in view.hands for r in h.readings}
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
    # A hand plays only for the half it declared: only that reading is framed.
    kinds = {h.name: [r.kind for r in h.readings] for h in view.hands}
    assert kinds == {"alice": ["high"], "bob": ["high", "low"]}, kinds
    alt = render_showdown(view).alt_text
    assert "alice, who declared high, shows" in alt
    # The game's name says so, in the picture's language.
    assert view.variant == msg("art.game.declare", game=msg("game.stud8"))


def test_r10_7_read_hand_plays_the_joker_it_is_given() -> None:
    """R-10.7: with a joker wild the reading counts it among the used cards."""
    (reading,) = read_hand(
        get_variant("holdem"), ["Kh", "Xx"], ["Kc", "7h", "Ks", "2h", "9h"], "joker"
    )
    assert reading.words is not None and en(reading.words) == "Four kings"
    assert "Xx" in reading.used


# ---------------------------------------------------------------- the table view (15-18)


def every_view(table: Table, now: float) -> tuple[Any, str, Any, Any]:
    """The spectator view, the terminal text, the Discord embed and the picture's model
    with its alt text: what each kind of player sees of the table."""
    from bot.local.drawing import draw
    from bot.local.words import Words
    from cards_art import render_table
    from cogs.art import to_art
    from cogs.embeds import table_embed

    view = table.snapshot(None)
    embed = table_embed(view)
    art = to_art(view)
    return view, draw(Words(), view, now), embed, (art, render_table(art).alt_text)


def embed_text(embed: Any) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_r15_1_two_to_win_markers_show_on_the_table_while_live() -> None:
    """R-15.1: a player holding a marker is marked at the terminal, in the embed and in
    the picture during the next deal, not only in the end-of-hand text."""
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], buy_in=200, limit="fixed", small_bet=2, big_bet=4, pot_system="two_to_win"
    )
    assert (await h.deal(table)).ok
    await h.play_passively(table)
    holders = set((table.state.pot_state or {}).get("markers", []))
    assert holders  # a showdown win (or tie) earns markers
    assert (await h.deal(table)).ok
    view, text, embed, (art, alt) = every_view(table, h.time.now())
    assert {s.user_id for s in view.seats if s.marker} == holders
    for seat in view.seats:
        line = next(line for line in text.splitlines() if f"{seat.seat:>2} {seat.name} " in line)
        assert ("(marker)" in line) == (seat.user_id in holders), line
    seats_field = next(f.value for f in embed.fields if f.name == "Seats")
    for line in seats_field.splitlines():
        name = line.split("` ", 1)[1].split(" — ")[0]
        assert ("marker" in line) == (name in holders), line
    assert {s.name for s in art.seats if Msg("art.tag.marker") in s.tags} == holders
    assert "marker" in alt
    assert "Two to win" in text and "Two to win" in embed_text(embed)


async def test_r15_3_guts_legs_and_reserve_show_on_the_table() -> None:
    """R-15.3: legs held (of those needed) and the reserve above the maximum pot are on
    the table; the reserve is not counted as the pot in play."""
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"], buy_in=200, variant="guts", guts_stake=5, guts_legs=3, guts_max_pot=10
    )
    assert (await h.deal(table)).ok
    hand, info = table.state.hand, table.state.current
    assert hand is not None and info is not None
    stayer = info.users[hand.guts_pending()[0]]
    for i, pos in enumerate(hand.guts_pending()):
        assert (await h.do(table, info.users[pos], "in" if i == 0 else "out")).ok
    held = table.state.pot_state or {}
    assert held.get("legs") == {stayer: 1} and held.get("reserve") == 5 and held["pot"] == 10
    assert (await h.deal(table)).ok  # the next deal: legs and reserve are live
    view, text, embed, (art, alt) = every_view(table, h.time.now())
    legs = {s.user_id: s.legs for s in view.seats if s.legs}
    assert legs == {stayer: 1} and view.legs_needed == 3 and view.reserve == 5
    assert "Pot: 10 | reserve 5" in text, text
    legs_line = next(line for line in text.splitlines() if "(legs 1/3)" in line)
    assert legs_line[4:].split()[1] == stayer, legs_line
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Pot"] == "10" and fields["Reserve"].startswith("5")
    assert f"{stayer} — " in next(
        line for line in fields["Seats"].splitlines() if "legs 1/3" in line
    )
    assert [(p.pot, p.amount) for p in art.pots] == [(ONLY_POT, 10), (RESERVE, 5)]
    assert "legs 1/3" in alt


async def test_r13_1_declare_game_is_named_in_every_header() -> None:
    """R-13.1: a hi-lo declare game says so in the table header (terminal, embed,
    picture)."""
    h = Harness()
    table = await h.seated(
        ["a", "b", "c"],
        buy_in=200,
        variant="stud8",
        limit="fixed",
        small_bet=2,
        declare="simultaneous",
    )
    assert (await h.deal(table)).ok
    view, text, embed, (art, alt) = every_view(table, h.time.now())
    assert view.declare and en(view.title_said).endswith("hi-lo eight-or-better declare")
    assert view.title_said == msg("table.stakes.declare", game=msg("game.stud8"))
    assert "declare" in text.splitlines()[0]
    assert "declare" in (embed.title or "")
    assert art.declare and "declare" in alt
    assert art.variant == msg("art.game.declare", game=msg("game.stud8"))
    started = [told(n) for _, n in h.presenter.public_notices if n.kind == "hand_started"]
    assert started and "hi-lo eight-or-better declare" in started[-1], started
    assert en(view.title_said).count("declare") == 1
    assert en(stakes_said(view.stakes_data)).count("declare") == 1
    # Not a declare game: not said.
    plain = await Harness().seated(["a", "b"], buy_in=200, variant="stud8", limit="fixed")
    assert "declare" not in en(stakes_said(plain.snapshot(None).stakes_data))
    assert not plain.snapshot(None).stakes_data.declare


async def test_r6_6_turn_call_and_clock_are_shown_at_the_terminal_and_in_the_embed() -> None:
    """R-6.6: whose turn it is, what he may do (the amount to call) and the time left:
    seconds at the terminal, a relative timestamp on Discord."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=200, action_clock=45, time_bank=0)
    assert (await h.deal(table)).ok
    h.time.advance(5)
    view, text, embed, _ = every_view(table, h.time.now())
    who = next(s for s in view.seats if s.is_turn)
    assert view.deadline is not None and view.to_call == 2
    assert f"To act: {who.name} (seat {who.seat}), 40 s left. Options: call 2, raise to" in text
    fields = {f.name: f.value for f in embed.fields}
    assert f"<t:{int(view.deadline)}:R>" in fields["To act"]
    assert "call 2, raise to" in fields["To act"] and fields["To call"] == "2"
    # The game is named once in the embed's title and in the picture's corner.
    assert embed.title == "No-limit Texas hold'em — blinds 1/2", embed.title


async def test_r16_4_draws_to_come_are_shown() -> None:
    """R-16.4: in a triple draw the table says which draw it is and how many are left."""
    h = Harness()
    table = await h.seated(["a", "b", "c"], buy_in=200, variant="27triple", limit="fixed")
    assert (await h.deal(table)).ok
    assert en(table.snapshot(None).street_said) == "Before the draw (3 draws)"
    while table.state.hand is not None and table.state.hand.phase != "draw":
        word = "check" if "check" in table.state.hand.legal().actions else "call"
        assert (await h.do(table, h.to_act(table), word)).ok
    _, text, embed, _ = every_view(table, h.time.now())
    assert "| draw | Draw 1 of 3 ==" in text and "Draw 1 of 3" in (embed.footer.text or "")
    while table.state.hand is not None and table.state.hand.phase == "draw":
        assert (await h.do(table, h.to_act(table), "draw 0")).ok
    view, text, embed, (art, alt) = every_view(table, h.time.now())
    assert en(view.street_said) == "After draw 1 of 3" and art.street == view.street_said
    assert art.street == msg("table.street.after_draw_n", number=Number(1), total=Number(3))
    assert view.street_said == msg("table.street.after_draw_n", number=Number(1), total=Number(3))
    # Each player's draw is public: how many cards (or pat), in every view.
    counts = {s.name: s.drew for s in view.seats}
    assert sorted(counts.values()) == [(0,), (0,), (0,)]
    assert text.count("(stood pat)") == 3 and "stood pat" in alt
    assert all(s.drawn == 0 for s in art.seats if not s.empty)


async def test_r8_1_side_pots_are_labelled_main_first() -> None:
    """R-8.1: with a side pot the terminal and the embed label main and side pots."""
    h = Harness()
    table = await h.table(big_blind=2, small_blind=1, min_buy_in=10)
    for name, chips in (("a", 40), ("b", 200), ("c", 200)):
        assert (await table.sit(name, name, chips, key=h.key())).ok
    assert (await h.deal(table)).ok
    while table.state.hand is not None and table.state.hand.street_index == 0:
        user = h.to_act(table)
        word = "all in" if user == "a" else "call"
        out = await h.do(table, user, word)
        assert out.ok, out.msg
    # On the flop the two with chips bet and call: their extra chips make a side pot.
    for word in ("bet 20", "call"):
        assert (await h.do(table, h.to_act(table), word)).ok
    view, text, embed, _ = every_view(table, h.time.now())
    assert len(view.pots) == 2, view.pots
    main, side = view.pots
    assert f"(main {main.amount}, side 1 {side.amount})" in text, text
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Pot"].endswith(f"(main {main.amount}, side 1 {side.amount})")
    await h.play_passively(table)  # the pots are formed at the showdown
    formed = [told(n) for _, n in h.presenter.public_notices if n.kind == "PotsFormed"]
    assert formed and formed[-1] == f"Pots: main {main.amount}, side 1 {side.amount}", formed


def test_r10_7_the_joker_is_printed_as_joker() -> None:
    """R-10.7: the joker reads "Joker" (never its code "Xx") in text and alt text."""
    from bot.table.view import cards_words
    from cards_art.common import card_text

    assert cards_words(("Xx", "As")) == "Joker As"
    assert card_text("Xx") == "Joker"
    from bot.poker.evaluate import describe as hand_of
    from bot.poker.events import CardsDealt, HandShown
    from bot.table.notices import said

    def describe(event: CardsDealt | HandShown) -> str:
        m = said(event)
        assert m is not None
        return render(m, "en", names=lambda p: "alice")

    dealt_up = CardsDealt(player=0, cards=("Xx", "As"), face_up=(True, True))
    assert describe(dealt_up) == "alice: Joker As"
    kings = hand_of("high", ["Ks", "Kd", "9c", "5h", "2d"]).words
    shown = HandShown(player=0, cards=("Xx", "Kd"), hands=(kings,))
    assert describe(shown) == "alice shows Joker Kd (Pair of kings)"


async def test_r6_6_terminal_prints_whose_turn_after_a_deal_but_never_cards() -> None:
    """R-6.6 at the shared terminal: the prompt to act (options, pot, time left) is
    printed as soon as the turn comes, a deal or a timeout included; hole cards stay in
    the private log until the owner asks (invariant 2)."""
    import io

    from bot.local.presenter import TerminalPresenter

    out = io.StringIO()
    h = Harness()
    presenter = TerminalPresenter(out, now=h.time.now)
    h.service.presenter = presenter
    table = await h.seated(["a", "b", "c"], buy_in=200, action_clock=30, time_bank=0)
    table.presenter = presenter
    assert (await h.deal(table)).ok
    printed = out.getvalue()
    to_act = h.to_act(table)
    assert f"-> {to_act}, your turn (30 s left)." in printed
    hand = table.state.hand
    assert hand is not None
    for cards in hand.hole:
        assert " ".join(cards) not in printed
    assert all(presenter.private_log.get(u) for u in ("a", "b", "c"))  # cards kept back


async def test_r8_3_end_of_hand_summary_and_picture_list_the_main_pot_first() -> None:
    """R-8.3 pays the last side pot first; the summary and the picture read main first."""
    from cogs.presenter import _SUMMARY, main_pot_first, pot_order

    h = Harness()
    deck = stacked_deck(["2c3d", "AsAd", "KsKd"], "AhKh7c8d9s")  # a showdown for both pots
    with dealt(deck):
        table = await h.table(big_blind=2, small_blind=1, min_buy_in=10)
        for name, chips in (("a", 40), ("b", 200), ("c", 200)):
            assert (await table.sit(name, name, chips, key=h.key())).ok
        assert (await h.deal(table)).ok
        info = table.state.current
        assert info is not None
        while table.state.hand is not None:
            user = h.to_act(table)
            acts = table.state.hand.legal().actions
            if user == "a" and "raise" in acts:
                word = "all in"  # a's 40 is the main pot's level
            elif table.state.hand.street_index == 1 and "bet" in acts:
                word = "bet 20"  # the two deep stacks make a side pot on the flop
            else:
                word = "call" if "call" in acts else "check"
            assert (await h.do(table, user, word)).ok
    lines = [told(n) for _, n in h.presenter.public_notices if n.kind in _SUMMARY]
    awards = [line for line in lines if "pot" in line.split(":")[0]]
    # The engine tells the awards main pot first though it settles side pots first.
    assert awards[0].startswith("main pot") and awards[1].startswith("side pot 1"), awards
    said = [(pot_order(n), told(n)) for _, n in h.presenter.public_notices if n.kind in _SUMMARY]
    ordered = [x for x in main_pot_first(said[::-1]) if x in awards]  # side pots told first
    assert ordered[0].startswith("main pot") and ordered[1].startswith("side pot 1")
    presenter = DiscordPresenter(None)  # type: ignore[arg-type]
    presenter.service = h.service
    for table_id, notice in h.presenter.public_notices:
        presenter._note_showdown(table_id, notice)
    view = showdown_art(presenter.channel("t").hand.showdown)
    assert [a.pot for a in view.awards][:2] == [Pot.main(), Pot.side(1)]


async def test_r12_2_jacks_to_open_options_never_show_who_holds_openers() -> None:
    """R-12.2 with invariant 2: before the pot is opened, whether the player to act may
    bet depends on his cards; the public views (terminal line, embed, buttons) must read
    the same whether he holds jacks or not."""
    from cogs.embeds import table_view, to_call_of

    seen: list[tuple[Any, ...]] = []
    for holes in (
        ["JcJd4h5s7c", "2c3d9h8s6c", "2h3h9d8c6d"],
        ["2c3d9h8s6c", "JcJd4h5s7c", "2h3h9d8c6d"],
    ):
        h = Harness()
        with dealt(stacked_deck(holes, "")):
            table = await h.seated(
                ["a", "b", "c"],
                buy_in=200,
                table_id="123",  # a channel id: the buttons' custom ids carry it
                variant="draw5",
                limit="fixed",
                small_bet=2,
                small_blind=0,
                big_blind=0,
                ante=1,
                jacks_to_open=True,
            )
            assert (await h.deal(table)).ok
        hand = table.state.hand
        assert hand is not None and hand.to_act == 0
        view, text, embed, _ = every_view(table, h.time.now())
        to_call, actions = to_call_of(table, view)
        buttons = table_view(view, to_call, actions)
        assert buttons is not None
        labels = [getattr(c, "label", "") for c in buttons.children]
        # Who is to act differs (the first button is random): compare what follows.
        to_act_line = next(line for line in text.splitlines() if line.startswith("To act"))
        to_act_field = next(f.value for f in embed.fields if f.name == "To act")
        seen.append(
            (
                hand.legal().actions,
                view.options_said,
                view.actions,
                labels,
                to_act_line.split(" left", 1)[1],
                to_act_field.split(":R>", 1)[1],
                {f.name for f in embed.fields},
            )
        )
    (legal_a, *public_a), (legal_b, *public_b) = seen
    assert legal_a != legal_b  # the engine's answer does depend on the cards...
    assert public_a == public_b  # ...and nothing public shows it


async def test_r10_7_the_draw_menu_names_the_joker() -> None:
    """R-10.7: the discard menu lists the joker as "Joker" (its value stays the code)."""
    from cogs.components import draw_menu

    menu = draw_menu("123", 4, ("Xx", "As", "Kd"), 3)
    selects = [getattr(item, "item", item) for item in menu.children]  # DynamicItem wraps
    options = [o for select in selects for o in getattr(select, "options", [])]
    assert [(o.label, o.value) for o in options] == [("Joker", "Xx"), ("As", "As"), ("Kd", "Kd")]
