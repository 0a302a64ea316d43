"""Behaviour of the picture renderers: API shape, alt text, text handling, determinism,
thread safety, and a property test over random valid view-models."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import cards_art
from cards_art import (
    Award,
    DeckStyle,
    Fist,
    LedgerLine,
    LedgerView,
    Pot,
    PotView,
    Reading,
    RevealView,
    SeatView,
    ShowdownView,
    ShownHand,
    StudCard,
    TableView,
    Wild,
    fonts,
    render_hole_cards,
    render_ledger,
    render_reveal,
    render_showdown,
    render_table,
    samples,
)
from cards_art.model import RANKS, SUITS


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_table_image_is_a_png_with_alt_text() -> None:
    out = render_table(samples.holdem(6))
    assert out.filename.endswith(".png")
    assert out.data.startswith(b"\x89PNG")
    img = _decode(out.data)
    assert img.size == (out.width, out.height)
    assert "Texas Hold'em" in out.alt_text
    assert "A♥ K♦ 7♣" in out.alt_text
    assert "To act: Farah" not in out.alt_text  # Farah sits out
    assert "To act: Farah" not in out.alt_text
    assert "Main 660" in out.alt_text and "Side 1 180" in out.alt_text
    assert "folded" in out.alt_text and "all in" in out.alt_text


def test_alt_text_names_player_to_act_and_clock() -> None:
    out = render_table(samples.holdem(9))
    assert "To act: Ivo, 23 s left." in out.alt_text


def test_render_is_deterministic() -> None:
    assert render_table(samples.stud7()).data == render_table(samples.stud7()).data
    assert render_showdown(samples.showdown_split()).data == (
        render_showdown(samples.showdown_split()).data
    )


def test_different_states_give_different_pictures() -> None:
    a = render_table(samples.holdem(6))
    b = render_table(
        TableView(
            variant=samples.holdem(6).variant,
            stakes=samples.holdem(6).stakes,
            seats=samples.holdem(6).seats,
            board=("Ah", "Kd", "7c", "2s"),
            pots=samples.holdem(6).pots,
        )
    )
    assert a.data != b.data


def test_four_colour_deck_changes_diamonds() -> None:
    two = render_hole_cards(["Ad"], deck=DeckStyle.TWO_COLOUR)
    four = render_hole_cards(["Ad"], deck=DeckStyle.FOUR_COLOUR)
    assert two.data != four.data
    # The four-colour diamond is blue: more blue than red in the card's pip area.
    img = _decode(four.data).convert("RGB")
    r, _g, b = (
        sum(ch) for ch in zip(*img.crop((60, 90, 120, 160)).get_flattened_data(), strict=True)
    )
    assert b > r


def test_wild_and_down_marks_are_drawn() -> None:
    plain = render_hole_cards(["2c", "9h"])
    wild = render_hole_cards(["2c", "9h"], wild=Wild(ranks=("2",)))
    down = render_hole_cards(["2c", "9h"], down=(True, False))
    assert len({plain.data, wild.data, down.data}) == 3
    assert "(down)" in down.alt_text


def test_fonts_drop_missing_glyphs_and_keep_rtl() -> None:
    assert fonts.clean("🔥Ana🔥") == "Ana"
    assert fonts.clean("محمد") == "محمد"
    assert fonts.clean("שרה") == "שרה"
    assert fonts.clean("a\n\tb") == "a b"
    assert fonts.clean("🔥🔥") == ""


def test_long_names_are_truncated_to_fit() -> None:
    name = fonts.fit("Bartholomew Fitzgerald-Smythe III", 21, 150)
    assert name.endswith("…")
    assert fonts.width(name, 21) <= 150
    assert fonts.fit("Ana", 21, 150) == "Ana"


def test_emoji_only_name_falls_back_to_seat_number() -> None:
    view = TableView(
        variant="Razz",
        stakes="2/4",
        seats=(SeatView(seat=1, name="🔥🔥"), SeatView(seat=2, name="Bob")),
    )
    # The picture falls back to "Seat 1"; the alt text keeps the name as typed.
    assert "Seat 1 🔥🔥:" in render_table(view).alt_text
    img = _decode(render_table(view).data)
    assert img.size == (1000, 600)


def test_showdown_alt_text_and_awards() -> None:
    out = render_showdown(samples.showdown_split())
    assert "Dmitri wins 300 (main pot, high half)." in out.alt_text
    assert "5-4-3-2-A low" in out.alt_text
    assert out.filename == "showdown.png"


def test_reveal_and_ledger() -> None:
    reveal = render_reveal(samples.reveal())
    assert "Alice: no chips, low" in reveal.alt_text
    assert "Carol: 2 chips, both" in reveal.alt_text
    ledger = render_ledger(samples.ledger())
    assert ledger.alt_text.index("Alice +1,840") < ledger.alt_text.index("Bob -620")


def test_alt_text_is_capped() -> None:
    seats = tuple(SeatView(seat=i + 1, name="N" * 200, stack=10**9) for i in range(10))
    out = render_table(TableView(variant="V" * 300, stakes="S", seats=seats))
    assert len(out.alt_text) <= 1024


def test_bad_views_are_rejected() -> None:
    with pytest.raises(ValueError):
        TableView(variant="x", stakes="y", seats=(SeatView(seat=1),))
    with pytest.raises(ValueError):
        TableView(variant="x", stakes="y", seats=(SeatView(1), SeatView(2)), board=("1s",))
    with pytest.raises(ValueError):
        Fist(1, "a", 3)
    with pytest.raises(ValueError):
        render_hole_cards(["Zz"])


def test_renders_in_threads_match_serial() -> None:
    views = [samples.holdem(n) for n in range(2, 11)] + [samples.stud7(), samples.draw5()]
    serial = [render_table(v).data for v in views]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(lambda v: render_table(v).data, views * 3))
    assert threaded == serial * 3


# --- property test ------------------------------------------------------------------

cards = st.sampled_from([r + s for r in RANKS for s in SUITS] + ["??", "Xx"])
# Any Unicode: emoji, RTL, combining marks, controls (hypothesis excludes lone surrogates).
names = st.text(max_size=40)
amounts = st.integers(min_value=0, max_value=10**12)


@st.composite
def seats(draw: st.DrawFn, number: int) -> SeatView:
    return SeatView(
        seat=number,
        name=draw(names),
        stack=draw(amounts),
        bet=draw(amounts),
        folded=draw(st.booleans()),
        all_in=draw(st.booleans()),
        sitting_out=draw(st.booleans()),
        empty=draw(st.booleans()),
        is_button=draw(st.booleans()),
        clock=draw(st.none() | st.integers(0, 10**6)),
        up_cards=tuple(
            StudCard(c, d) for c, d in draw(st.lists(st.tuples(cards, st.booleans()), max_size=8))
        ),
        hidden_cards=draw(st.integers(0, 7)),
        drawn=draw(st.none() | st.integers(0, 7)),
        action=draw(names),
    )


@st.composite
def tables(draw: st.DrawFn) -> TableView:
    n = draw(st.integers(2, 10))
    seat_list = [draw(seats(i + 1)) for i in range(n)]
    to_act = draw(st.none() | st.integers(0, n - 1))
    if to_act is not None:
        s = seat_list[to_act]
        seat_list[to_act] = SeatView(**{**s.__dict__, "is_to_act": True})
    return TableView(
        variant=draw(names),
        stakes=draw(names),
        seats=tuple(seat_list),
        board=tuple(draw(st.lists(cards, max_size=5))),
        pots=tuple(
            PotView(Pot.index(i), a) for i, a in enumerate(draw(st.lists(amounts, max_size=6)))
        ),
        deck=draw(st.sampled_from(DeckStyle)),
        wild=Wild(ranks=tuple(draw(st.sets(st.sampled_from(RANKS), max_size=2)))),
        hand_number=draw(st.none() | st.integers(0, 10**9)),
        street=draw(names),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_any_table_renders_within_bounds(view: TableView) -> None:
    out = render_table(view)
    img = _decode(out.data)
    assert img.size == (out.width, out.height) == (1000, 600)
    assert out.alt_text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hands=st.lists(
        st.tuples(names, st.lists(cards, max_size=8), st.lists(cards, max_size=5), names),
        max_size=10,
    ),
    board=st.lists(cards, max_size=5),
    awards=st.lists(st.tuples(st.integers(1, 10), amounts, st.sampled_from(["", "high", "low"]))),
)
def test_any_showdown_renders(
    hands: list[tuple[str, list[str], list[str], str]],
    board: list[str],
    awards: list[tuple[int, int, str]],
) -> None:
    view = ShowdownView(
        variant="Omaha",
        stakes="1/2",
        board=tuple(board),
        hands=tuple(
            ShownHand(i + 1, n, tuple(c), (Reading(r, tuple(u), "high"),))
            for i, (n, c, u, r) in enumerate(hands)
        ),
        awards=tuple(Award(Pot.main(), s, a, h) for s, a, h in awards),
    )
    out = render_showdown(view)
    assert _decode(out.data).size == (out.width, out.height)


@settings(max_examples=25, deadline=None)
@given(
    fists=st.lists(st.tuples(names, st.integers(0, 2), st.booleans()), min_size=1, max_size=10),
    lines=st.lists(st.tuples(names, st.integers(-(10**9), 10**9)), max_size=20),
)
def test_any_reveal_and_ledger_render(
    fists: list[tuple[str, int, bool]], lines: list[tuple[str, int]]
) -> None:
    reveal = RevealView(tuple(Fist(i + 1, n, c, t) for i, (n, c, t) in enumerate(fists)))
    assert _decode(render_reveal(reveal).data).size[0] > 0
    ledger = LedgerView(tuple(LedgerLine(n, v) for n, v in lines))
    assert _decode(render_ledger(ledger).data).size[0] > 0


def test_public_api() -> None:
    for name in ("render_table", "render_hole_cards", "render_showdown", "render_reveal"):
        assert callable(getattr(cards_art, name))


def test_does_not_import_discord_the_table_or_the_engine() -> None:
    """The pictures take words from the catalogue (bot.words, the message type) and
    nothing else of the bot: no discord, no presenter, no table service, no engine rules
    (bot.poker's package init brings only its message and legal-options types)."""
    import subprocess
    import sys

    allowed = "('bot', 'bot.poker', 'bot.poker.messages', 'bot.poker.legal')"
    code = (
        "import sys, cards_art, cards_art.samples as s; cards_art.render_table(s.holdem(3)); "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('discord', 'bot', 'cogs') "
        f"and m not in {allowed} and not m.startswith('bot.words')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("n", range(2, 11))
def test_seat_layout_stays_on_the_canvas(n: int) -> None:
    from cards_art import table

    spots = table._SPOTS[n]
    boxes = []
    for spot in spots:
        x, y = spot.plate
        box = (x, y, x + table.PLATE[0], y + table.PLATE[1])
        assert box[0] >= 0 and box[2] <= table.W and box[1] >= 0 and box[3] <= table.H
        boxes.append(box)
    # Plates never overlap each other.
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
