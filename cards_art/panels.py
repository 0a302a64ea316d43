"""The other pictures: hole cards, showdown, chip-fist reveal and the session chart.

Same theme and sprite cache as the table; sizes vary with the content (number of cards,
hands, fists, players), always a fixed width so Discord scales them consistently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.poker.messages import Count, Name, Number
from bot.words import DEFAULT, Locale
from cards_art import fonts, sprites
from cards_art.common import alt_name, cards_text, display_name, pill
from cards_art.encode import RenderedImage, encode
from cards_art.model import (
    NO_WILD,
    Award,
    DeckStyle,
    Declaration,
    LedgerView,
    Pot,
    PotKind,
    Reading,
    RevealView,
    ShowdownView,
    ShownHand,
    Wild,
    is_card,
)
from cards_art.table import stakes_text
from cards_art.words import Text, Words

PAD = 20
HOLE_CARD = (110, 154)
HOLE_GAP = 12


def _canvas(w: int, h: int) -> Image.Image:
    return Image.new("RGB", (w, h), sprites.BACKDROP)


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy, sprite)


# --- hole cards ---------------------------------------------------------------------


def draw_hole_cards(
    cards: Sequence[str],
    *,
    deck: DeckStyle = DeckStyle.TWO_COLOUR,
    wild: Wild = NO_WILD,
    down: Sequence[bool] = (),
    caption: Text = "",
    locale: Locale = DEFAULT,
) -> Image.Image:
    caption = Words(locale).text(caption)
    for c in cards:
        if not is_card(c):
            raise ValueError(f"not a card: {c!r}")
    n = max(1, len(cards))
    cw, ch = HOLE_CARD
    head = 40 if caption else 0
    w = max(2 * PAD + n * cw + (n - 1) * HOLE_GAP + sprites.SHADOW, 260 if caption else 0)
    h = 2 * PAD + ch + sprites.SHADOW + head
    img = Image.new("RGB", (w, h), (22, 92, 60))
    if caption:
        fonts.put_text(img, (PAD, PAD - 4), fonts.fit(caption, 22, w - 2 * PAD), 22, sprites.WHITE)
    x = (w - (n * cw + (n - 1) * HOLE_GAP)) // 2
    for i, card in enumerate(cards):
        owned_down = i < len(down) and down[i] and card != "??"
        sprite = sprites.card(card, HOLE_CARD, deck, wild=wild.is_wild(card), down_owned=owned_down)
        _paste(img, sprite, (x + i * (cw + HOLE_GAP), PAD + head))
    return img


def hole_alt(
    cards: Sequence[str], down: Sequence[bool], caption: Text, *, locale: Locale = DEFAULT
) -> str:
    w = Words(locale)
    shown = [
        w("art.alt.down", card=Name(cards_text((c,), w)))
        if i < len(down) and down[i]
        else cards_text((c,), w)
        for i, c in enumerate(cards)
    ]
    listed = Name(" ".join(shown) if shown else w("art.hole.none"))
    said = w.text(caption)
    if said:
        return w("art.hole.alt_caption", caption=Name(said), cards=listed)
    return w("art.hole.alt", cards=listed)


def render_hole_cards(
    cards: Sequence[str],
    *,
    deck: DeckStyle = DeckStyle.TWO_COLOUR,
    wild: Wild = NO_WILD,
    down: Sequence[bool] = (),
    caption: Text = "",
    locale: Locale = DEFAULT,
) -> RenderedImage:
    """The player's private cards, for a DM or an ephemeral message, in ``locale`` (the
    player's language). ``down`` flags (stud) mark cards the others cannot see."""
    img = draw_hole_cards(cards, deck=deck, wild=wild, down=down, caption=caption, locale=locale)
    return encode(img, "hole-cards", hole_alt(cards, down, caption, locale=locale))


# --- showdown -----------------------------------------------------------------------

SHOW_W = 1000
ROW_CARD = (50, 70)
ROW_STEP = 53
NAME_COL = 176


def _header(img: Image.Image, title: str, stakes: str) -> None:
    stakes = fonts.fit(stakes, 20, 360) if stakes else ""
    # The title takes whatever the stakes leave (a long game name is not cut short).
    room = img.width - 2 * PAD - (round(fonts.width(stakes, 20)) + 24 if stakes else 0)
    fonts.put_text(img, (PAD, 14), fonts.fit(title, 26, room), 26, sprites.WHITE)
    if stakes:
        fonts.put_text(img, (img.width - PAD, 20), stakes, 20, sprites.GOLD, anchor="ra")


def _awards(view: ShowdownView) -> list[Award]:
    """Main pot first (the engine awards the last side pot first, R-8.3); the halves of
    one pot keep their order; the first board's (or run's) before the second's."""
    return sorted(view.awards, key=lambda a: (a.board, a.pot.order))


def _pot_phrase(pot: Pot, w: Words) -> str:
    """A pot as a sentence names it: "main pot", "side pot 2"."""
    if pot.kind is PotKind.SIDE:
        return w("art.award.side", n=Number(pot.number))
    return w(f"art.award.{pot.kind.value}")


def _award_line(a: Award, w: Words, who: str | None = None) -> str:
    """ "Wins 300 (main pot, high)", or with ``who``: "Bob wins 220 (side pot 1)"
    (the amount first: a long line is cut at its end)."""
    key = "art.award.wins" if who is None else "art.award.player_wins"
    key += f"_{a.half}" if a.half else ""
    params = {"pot": Name(_pot_phrase(a.pot, w)), "amount": Name(w.amount(a.amount))}
    if who is not None:
        params["name"] = Name(who)
    return w(key, **params)


def _award_lines(view: ShowdownView, seat: int, w: Words, board: int = 0) -> list[str]:
    return [_award_line(a, w) for a in _awards(view) if a.seat == seat and a.board == board]


def _which(view: ShowdownView, board: int, w: Words) -> str:
    """ "First run", "Second board": which board a line of a two-board showdown is."""
    return w(f"art.showdown.{view.second_kind.value}_{board + 1}")


def _boards(view: ShowdownView) -> list[tuple[str, ...]]:
    """The boards the showdown was played on: one, or two (R-20.2, R-20.5)."""
    return [view.board, view.second] if view.second else [view.board]


def _readings(hand: ShownHand, board: int) -> tuple[Reading, ...]:
    return hand.second_readings if board else hand.readings


def _marks(hand: ShownHand, card: str, board: int = 0) -> sprites.Mark:
    """How ``card`` is framed on the hand's line for ``board`` (0 the first)."""
    readings = _readings(hand, board)
    high = any(card in r.used and r.kind != "low" for r in readings)
    low = any(card in r.used and r.kind == "low" for r in readings)
    if high and low:
        return sprites.Mark.BOTH
    if high:
        return sprites.Mark.HIGH
    if low:
        return sprites.Mark.LOW
    return sprites.Mark.DIM if readings else sprites.Mark.PLAIN


def _line_height(view: ShowdownView, hand: ShownHand, w: Words, board: int) -> int:
    """One board's line of a hand's row: its cards, then its readings and awards (with
    two boards, under the board's name)."""
    lines = len(_readings(hand, board)) + len(_award_lines(view, hand.seat, w, board))
    lines += 1 if view.second else 0
    return max(ROW_CARD[1] + 30, 24 + 26 * lines)


def _row_height(view: ShowdownView, hand: ShownHand, w: Words) -> int:
    return sum(_line_height(view, hand, w, b) for b in range(len(_boards(view))))


def draw_showdown(view: ShowdownView, *, locale: Locale = DEFAULT) -> Image.Image:
    w = Words(locale)
    rows = [_row_height(view, h, w) for h in view.hands]
    orphans = [a for a in _awards(view) if a.seat not in {h.seat for h in view.hands}]
    h = 64 + sum(r + 10 for r in rows) + 30 * len(orphans) + PAD
    if view.second and not view.hands:
        h += 2 * (ROW_CARD[1] + 20)  # nobody shown: the two boards alone
    img = _canvas(SHOW_W, max(h, 140))
    draw = ImageDraw.Draw(img)
    variant = w.text(view.variant)
    stakes = stakes_text(view.stakes, w)
    title = w("art.showdown.title_game", game=Name(variant)) if variant else w("art.showdown.title")
    stakes_w = fonts.width(fonts.fit(stakes, 20, 360), 20) if stakes else 0
    if fonts.width(title, 26) > SHOW_W - 2 * PAD - stakes_w - 24 and variant:
        title = variant  # a long game name whole rather than cut short
    _header(img, title, stakes)
    if any(r.kind == "low" for hand in view.hands for b in (0, 1) for r in _readings(hand, b)):
        # The key to the frames: gold plays for high, blue for low (both: gold and blue).
        right = SHOW_W - PAD
        key_low, key_high = w("art.showdown.key_low"), w("art.showdown.key_high")
        fonts.put_text(img, (right, 46), key_low, 16, sprites.LOW_BLUE, anchor="ra")
        left = right - round(fonts.width(key_low, 16)) - 8
        fonts.put_text(img, (left, 46), key_high, 16, sprites.GOLD, anchor="ra")
    y = 64
    winners = {a.seat for a in view.awards}
    for hand, rh in zip(view.hands, rows, strict=True):
        won = hand.seat in winners
        fill = (34, 44, 38, 255) if won else (*sprites.PLATE, 255)
        edge = (*sprites.GOLD, 255) if won else (*sprites.PLATE_EDGE, 255)
        box = sprites.rounded_box((SHOW_W - 2 * PAD, rh), fill, edge, 2)
        _paste(img, box, (PAD, y))
        name = fonts.fit(display_name(hand.name, hand.seat, w), 22, NAME_COL - 24)
        fonts.put_text(img, (PAD + 14, y + 14), name, 22, sprites.WHITE)
        seat = fonts.fit(w("art.seat", seat=Number(hand.seat)), 17, NAME_COL - 24, bold=False)
        fonts.put_text(img, (PAD + 14, y + 44), seat, 17, sprites.MUTED, bold=False)
        if hand.declared is not None:
            # Its own line: beside the seat it would run under the cards.
            ink = DECL_COLOURS[hand.declared][:3]
            said = w(f"art.showdown.declared_{hand.declared.value}")
            text = fonts.fit(said, 17, NAME_COL - 24)
            fonts.put_text(img, (PAD + 14, y + 68), text, 17, ink)
        ly = y
        for b, board in enumerate(_boards(view)):
            lh = _line_height(view, hand, w, b)
            if b:  # the second board's line, under a hairline
                draw.line((PAD + NAME_COL, ly, SHOW_W - PAD - 12, ly), fill=(70, 80, 92), width=1)
            _draw_line(img, draw, view, hand, b, board, (ly, lh), w)
            ly += lh
        y += rh + 10
    if view.second and not view.hands:
        for b, board in enumerate(_boards(view)):
            fonts.put_text(img, (PAD + 14, y + 24), _which(view, b, w), 19, sprites.MUTED)
            x = PAD + NAME_COL
            for card in board:
                sprite = sprites.card(card, ROW_CARD, view.deck, wild=view.wild.is_wild(card))
                _paste(img, sprite, (x, y))
                x += ROW_STEP
            y += ROW_CARD[1] + 20
    names = dict(view.names)
    for a in orphans:
        who = display_name(names.get(a.seat, ""), a.seat, w)
        line = _award_line(a, w, who)
        if view.second:
            line = w("art.on_board", which=Name(_which(view, a.board, w)), said=Name(line))
        fonts.put_text(img, (PAD, y + 4), line, 18, sprites.WHITE)
        y += 30
    return img


def _draw_line(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: ShowdownView,
    hand: ShownHand,
    b: int,
    board: tuple[str, ...],
    at: tuple[int, int],
    w: Words,
) -> None:
    """One board's line of a hand's row: the hand and the board (the used cards framed),
    then how it plays there and what it won there."""
    y, lh = at
    readings = _readings(hand, b)
    x = PAD + NAME_COL
    cy = y + (lh - ROW_CARD[1]) // 2
    groups = [hand.cards, board] if board else [hand.cards]
    for g, group in enumerate(groups):
        if g:
            x += 14
            draw.line((x - 8, cy + 6, x - 8, cy + ROW_CARD[1] - 6), fill=(70, 80, 92), width=2)
        for card in group:
            sprite = sprites.card(
                card,
                ROW_CARD,
                view.deck,
                wild=view.wild.is_wild(card),
                mark=_marks(hand, card, b),
            )
            _paste(img, sprite, (x, cy))
            x += ROW_STEP
    tx = max(x + 12, 640)
    text_w = SHOW_W - PAD - 12 - tx
    ty = y + 12
    if view.second:
        which = fonts.fit(_which(view, b, w), 17, text_w)
        fonts.put_text(img, (tx, ty + 2), which, 17, sprites.MUTED)
        ty += 26
    for reading in readings:
        line = w.text(reading.name)
        if reading.kind:
            line = w(f"art.showdown.{reading.kind}", hand=Name(line))
        ink = sprites.LOW_BLUE if reading.kind == "low" else sprites.GOLD
        size = fonts.size_to_fit(line, 19, text_w)
        fonts.put_text(img, (tx, ty), fonts.fit(line, size, text_w), size, ink)
        ty += 26
    for line in _award_lines(view, hand.seat, w, b):
        size = fonts.size_to_fit(line, 18, text_w)
        said = fonts.fit(line, size, text_w)
        fonts.put_text(img, (tx, ty), said, size, sprites.GREEN_TEXT)
        ty += 26


def _reading_alt(reading: Reading, w: Words) -> str:
    """ "high, a flush with A♥ 10♥ 9♥ 7♥ 2♥": never empty brackets or a dangling "with"."""
    name = w.text(reading.name) or w("art.showdown.no_hand")
    if reading.used:
        name = w("art.alt.reading", hand=Name(name), cards=Name(cards_text(reading.used, w)))
    return w(f"art.alt.reading_{reading.kind}", reading=Name(name)) if reading.kind else name


def showdown_alt(view: ShowdownView, *, locale: Locale = DEFAULT) -> str:
    w = Words(locale)
    game = w("art.list.comma").join(
        t for t in (w.text(view.variant), stakes_text(view.stakes, w)) if t
    )
    parts = [w("art.alt.showdown_game", game=Name(game)) if game else w("art.alt.showdown")]

    def on(board: int, said: str) -> str:
        """With two boards, a line names its board (R-20.2, R-20.5)."""
        if not view.second:
            return said
        return w("art.on_board", which=Name(_which(view, board, w)), said=Name(said))

    if view.second:
        for b, board in enumerate(_boards(view)):
            parts.append(on(b, cards_text(board, w)) + ".")
    elif view.board:
        parts.append(w("art.alt.board", cards=Name(cards_text(view.board, w))))
    if any(r.kind == "low" for h in view.hands for b in (0, 1) for r in _readings(h, b)):
        parts.append(w("art.alt.frames"))
    names = dict(view.names)
    for hand in view.hands:
        name = alt_name(hand.name, hand.seat, w)
        names[hand.seat] = hand.name
        if hand.declared:
            who = w(f"art.alt.declared_{hand.declared.value}", name=Name(name))
        else:
            who = name
        cards = Name(cards_text(hand.cards, w))
        readings = [_reading_alt(r, w) for r in hand.readings]
        if view.second:
            readings = [
                on(b, w("art.list.semicolon").join(_reading_alt(r, w) for r in _readings(hand, b)))
                for b in range(2)
                if _readings(hand, b)
            ]
        if readings:
            listed = Name(w("art.list.semicolon").join(readings))
            parts.append(w("art.alt.shows_reading", name=Name(who), cards=cards, readings=listed))
        else:
            parts.append(w("art.alt.shows", name=Name(who), cards=cards))
    for a in _awards(view):
        who = alt_name(names.get(a.seat, ""), a.seat, w)
        parts.append(on(a.board, _award_line(a, w, who)) + ".")
    return " ".join(parts)


def render_showdown(view: ShowdownView, *, locale: Locale = DEFAULT) -> RenderedImage:
    """Every shown hand with its used cards framed (gold high, blue low), the hand
    names and who won which pot (and which half), in ``locale`` (the table's language)."""
    return encode(draw_showdown(view, locale=locale), "showdown", showdown_alt(view, locale=locale))


# --- chip-fist reveal ---------------------------------------------------------------

CELL = (188, 230)
SKIN = (238, 190, 140)
SKIN_EDGE = (176, 124, 84)
DECL_COLOURS: dict[Declaration, tuple[int, int, int, int]] = {
    Declaration.LOW: (40, 110, 210, 255),
    Declaration.HIGH: (214, 150, 20, 255),
    Declaration.BOTH: (150, 60, 190, 255),
}


def open_hand(size: int) -> Image.Image:
    """An open palm seen from above: palm disc, four fingers and a thumb."""

    def build() -> Image.Image:
        s = size * sprites.SS
        img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        u = s / 100

        def finger(cx: float, top: float, w: float, bottom: float, angle: float) -> None:
            layer = Image.new("RGBA", (s, s), (0, 0, 0, 0))
            ld = ImageDraw.Draw(layer)
            ld.rounded_rectangle(
                (cx - w / 2, top, cx + w / 2, bottom),
                radius=w / 2,
                fill=(*SKIN, 255),
                outline=(*SKIN_EDGE, 255),
                width=int(2 * u),
            )
            layer = layer.rotate(angle, center=(cx, bottom), resample=Image.Resampling.BICUBIC)
            img.alpha_composite(layer)

        finger(32 * u, 8 * u, 14 * u, 60 * u, 8)
        finger(46 * u, 2 * u, 14 * u, 60 * u, 2)
        finger(60 * u, 5 * u, 14 * u, 60 * u, -4)
        finger(73 * u, 16 * u, 12 * u, 62 * u, -10)
        finger(26 * u, 50 * u, 15 * u, 84 * u, 42)
        d.ellipse(
            (22 * u, 38 * u, 84 * u, 96 * u),
            fill=(*SKIN, 255),
            outline=(*SKIN_EDGE, 255),
            width=int(2 * u),
        )
        return img.resize((size, size), Image.Resampling.LANCZOS)

    return sprites._cached(("hand", size), build)


def draw_reveal(view: RevealView, *, locale: Locale = DEFAULT) -> Image.Image:
    w = Words(locale)
    n = len(view.fists)
    per_row = min(n, 5)
    rows = math.ceil(n / per_row)
    width = max(2 * PAD + per_row * CELL[0], 560)
    h = 70 + rows * (CELL[1] + 10) + PAD
    img = _canvas(width, h)
    variant = w.text(view.variant)
    title = w("art.reveal.title_game", game=Name(variant)) if variant else w("art.reveal.title")
    pot = w("art.reveal.pot", amount=Name(w.amount(view.pot))) if view.pot is not None else ""
    _header(img, title, pot)
    left0 = (width - per_row * CELL[0]) // 2
    for i, fist in enumerate(view.fists):
        col, row = i % per_row, i // per_row
        # Centre a short last row.
        in_row = min(per_row, n - row * per_row)
        left = left0 + (per_row - in_row) * CELL[0] // 2 + col * CELL[0]
        top = 64 + row * (CELL[1] + 10)
        cell = sprites.rounded_box((CELL[0] - 10, CELL[1]), (*sprites.PLATE, 255))
        _paste(img, cell, (left + 5, top))
        hand = open_hand(120)
        hx = left + (CELL[0] - 120) // 2
        _paste(img, hand, (hx, top + 6))
        chip = sprites.chip(34)
        palm = (hx + 64, top + 6 + 80)
        spots = {0: [], 1: [(0, 0)], 2: [(-14, -6), (14, 6)]}[fist.chips]
        for dx, dy in spots:
            _paste(img, chip, (palm[0] + dx - 17, palm[1] + dy - 17))
        name = fonts.fit(display_name(fist.name, fist.seat, w), 20, CELL[0] - 24)
        fonts.put_text(img, (left + CELL[0] / 2, top + 150), name, 20, sprites.WHITE, anchor="mm")
        decl = fist.declaration
        pill(
            img,
            ImageDraw.Draw(img),
            (left + CELL[0] // 2, top + 186),
            fonts.fit(w(f"art.reveal.{decl.value}"), 20, CELL[0] - 44),
            size=20,
            fill=DECL_COLOURS[decl],
            ink=sprites.WHITE,
        )
        if fist.timed_out:
            fonts.put_text(
                img,
                (left + CELL[0] / 2, top + 214),
                fonts.fit(w("art.reveal.timed_out"), 15, CELL[0] - 24, bold=False),
                15,
                sprites.MUTED,
                bold=False,
                anchor="mm",
            )
    return img


def reveal_alt(view: RevealView, *, locale: Locale = DEFAULT) -> str:
    w = Words(locale)
    bits = []
    for f in view.fists:
        chips = w("art.alt.no_chips") if not f.chips else w("art.alt.chips", n=Count(f.chips))
        key = "art.alt.fist_late" if f.timed_out else "art.alt.fist"
        said = w(f"art.alt.decl_{f.declaration.value}")
        bits.append(
            w(key, name=Name(alt_name(f.name, f.seat, w)), chips=Name(chips), declared=Name(said))
        )
    parts = [w("art.alt.revealed")]
    if view.pot is not None:
        parts.append(w("art.alt.reveal_pot", amount=Name(w.amount(view.pot))))
    parts.append(w("art.list.semicolon").join(bits) + ".")
    return " ".join(parts)


def render_reveal(view: RevealView, *, locale: Locale = DEFAULT) -> RenderedImage:
    """Every fist opened at once: 0 chips low, 1 high, 2 both (R-13.2), in ``locale``."""
    return encode(draw_reveal(view, locale=locale), "declarations", reveal_alt(view, locale=locale))


# --- session chart ------------------------------------------------------------------

LEDGER_W = 900
BAR_ROW = 44


def draw_ledger(view: LedgerView, *, locale: Locale = DEFAULT) -> Image.Image:
    w = Words(locale)
    lines = sorted(view.lines, key=lambda line: (-line.net, line.name))
    head = 84 if view.subtitle else 60
    h = head + max(1, len(lines)) * BAR_ROW + 24 * len(view.extra) + PAD
    img = _canvas(LEDGER_W, h)
    draw = ImageDraw.Draw(img)
    title = fonts.fit(w.text(view.title), 26, LEDGER_W - 2 * PAD)
    fonts.put_text(img, (PAD, 14), title, 26, sprites.WHITE)
    if view.subtitle:
        sub = fonts.fit(w.text(view.subtitle), 18, LEDGER_W - 2 * PAD)
        fonts.put_text(img, (PAD, 50), sub, 18, sprites.MUTED, bold=False)
    name_w = 210
    chart_l, chart_r = PAD + name_w, LEDGER_W - PAD
    biggest = max((abs(line.net) for line in lines), default=0) or 1
    has_neg = any(line.net < 0 for line in lines)
    has_pos = any(line.net > 0 for line in lines)
    # Zero axis: centred when both signs occur, otherwise at the edge with room for
    # the amount label.
    if has_neg and has_pos:
        zero = (chart_l + chart_r) // 2
    elif has_neg:
        zero = chart_r - 10
    else:
        zero = chart_l + 10
    half = max(zero - chart_l, chart_r - zero) - 90
    scale = half / biggest
    y = head
    for line in lines:
        name = fonts.fit(display_name(line.name, 0, w), 20, name_w - 16)
        fonts.put_text(img, (PAD, y + BAR_ROW / 2), name, 20, sprites.WHITE, anchor="lm")
        length = round(abs(line.net) * scale)
        colour = (46, 170, 96) if line.net >= 0 else (206, 64, 64)
        if length:
            x0, x1 = (zero, zero + length) if line.net > 0 else (zero - length, zero)
            draw.rounded_rectangle((x0, y + 8, x1, y + BAR_ROW - 8), radius=5, fill=colour)
        text = ("+" if line.net > 0 else "") + w.amount(line.net)
        ink = (
            sprites.GREEN_TEXT
            if line.net > 0
            else (sprites.RED_TEXT if line.net else sprites.MUTED)
        )
        if line.net >= 0:
            fonts.put_text(img, (zero + length + 8, y + BAR_ROW / 2), text, 19, ink, anchor="lm")
        else:
            fonts.put_text(img, (zero - length - 8, y + BAR_ROW / 2), text, 19, ink, anchor="rm")
        y += BAR_ROW
    draw.line((zero, head - 4, zero, y + 4), fill=(120, 130, 140), width=2)
    for note in view.extra:
        said = fonts.fit(w.text(note), 17, LEDGER_W - 40)
        fonts.put_text(img, (PAD, y + 8), said, 17, sprites.MUTED)
        y += 24
    return img


def ledger_alt(view: LedgerView, *, locale: Locale = DEFAULT) -> str:
    w = Words(locale)
    lines = sorted(view.lines, key=lambda line: (-line.net, line.name))
    body = w("art.list.semicolon").join(
        f"{alt_name(line.name, 0, w)} {'+' if line.net > 0 else ''}{w.amount(line.net)}"
        for line in lines
    )
    title, sub = Name(w.text(view.title)), w.text(view.subtitle)
    results = Name(body or w("art.ledger.none"))
    if sub:
        return w("art.alt.ledger_sub", title=title, subtitle=Name(sub), results=results)
    return w("art.alt.ledger", title=title, results=results)


def render_ledger(view: LedgerView, *, locale: Locale = DEFAULT) -> RenderedImage:
    """The `/ledger` bar chart of each player's net result, in ``locale``."""
    return encode(draw_ledger(view, locale=locale), "ledger", ledger_alt(view, locale=locale))
