"""The table picture: felt, seats around it, cards, bets, pots, button, clock.

Layout: a 1000x600 canvas (Discord shrinks it to ~400 px wide on a phone, so every
label is at least 17 px and bold). Seats sit on an ellipse clockwise from the bottom
centre; each seat's cards lie on the table side of its name plate, its bet further in,
and the board and pots in the middle. Only cached sprites are pasted and text written
here, so one render takes a few milliseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.poker.messages import Msg, Name, Number
from bot.words import DEFAULT, Locale
from cards_art import fonts, sprites
from cards_art.common import alt_name, card_text, cards_text, display_name, pill
from cards_art.encode import RenderedImage, encode
from cards_art.model import BACK, Pot, PotKind, SeatView, Stakes, TableView
from cards_art.words import Text, Words

W, H = 1000, 600
TABLE_BOX = (60, 62, 940, 538)
CENTRE = (W // 2, H // 2)
RING = (410, 240)  # ellipse radii of the seat plate centres
BET_RING = 0.57  # bets sit this far from the centre towards their seat
BET_RING_SIDE = 0.47  # ... or this far when the seat's cards lie beside its plate
PLATE = (168, 62)
BOARD_CARD = (66, 92)
BOARD_STEP = 72
STUD_CARD = (46, 64)
STUD_STEP = 25
BACK_CARD = (36, 50)
BACK_STEP = 17
NAME_SIZE = 21
STACK_SIZE = 20
SMALL_SIZE = 16
STAKES_WIDTH = 255  # the stakes and wild cards' lines, top left, where no plate is near
CORNER_WIDTH = 220  # hand number, street and declare mark, top right


@dataclass(frozen=True)
class _Spot:
    """Where one seat's parts go (all integer pixels)."""

    plate: tuple[int, int]  # top-left of the plate
    lower_half: bool  # cards above the plate (seat in the lower half of the table)
    right_half: bool
    side: bool  # at the left or right end: backs go beside the plate, not above/below
    bet: tuple[int, int]
    bet_side: tuple[int, int]


def _spots(n: int) -> list[_Spot]:
    out = []
    for i in range(n):
        a = math.pi / 2 + 2 * math.pi * i / n
        dx, dy = math.cos(a), math.sin(a)
        cx, cy = CENTRE[0] + RING[0] * dx, CENTRE[1] + RING[1] * dy
        lower = dy >= -1e-9
        bx = CENTRE[0] + RING[0] * BET_RING * dx
        by = CENTRE[1] + RING[1] * BET_RING * dy
        sx = CENTRE[0] + RING[0] * BET_RING_SIDE * dx
        sy = CENTRE[1] + RING[1] * BET_RING_SIDE * dy
        out.append(
            _Spot(
                plate=(round(cx - PLATE[0] / 2), round(cy - PLATE[1] / 2)),
                lower_half=lower,
                right_half=dx > 1e-9,
                side=abs(dy) < 0.4 and abs(dx) > 0.5,
                bet=(round(bx), round(by)),
                bet_side=(round(sx), round(sy)),
            )
        )
    return out


_SPOTS = {n: _spots(n) for n in range(2, 11)}


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy, sprite)


def _seat_cards(view: TableView, seat: SeatView) -> list[Image.Image]:
    if seat.empty or seat.folded:
        return []
    if seat.up_cards:
        return [
            sprites.card(
                c.card,
                STUD_CARD,
                view.deck,
                wild=view.wild.is_wild(c.card),
                down_owned=c.down and c.card != BACK,
            )
            for c in seat.up_cards
        ]
    return [sprites.card(BACK, BACK_CARD)] * seat.hidden_cards


def _draw_seat(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: TableView,
    seat: SeatView,
    spot: _Spot,
    w: Words,
) -> None:
    px, py = spot.plate
    pw, ph = PLATE
    cards = _seat_cards(view, seat)
    step = STUD_STEP if seat.up_cards else BACK_STEP
    strip_w = 0
    card_y = 0
    if cards:
        cw, ch = cards[0].size
        strip_w = cw + step * (len(cards) - 1)
        card_y = py - ch + 12 + sprites.SHADOW if spot.lower_half else py + ph - 10
    # Centred on the plate, but a wide stud strip at an end seat stays on the canvas.
    card_x = min(max(px + (pw - strip_w) // 2, 4), W - strip_w - 4 - sprites.SHADOW)
    # Hole-card backs of seats at the ends of the table go beside the plate: above or
    # below it they would touch the neighbouring seat's cards. Stud strips are too wide.
    beside = spot.side and bool(cards) and not seat.up_cards
    if beside:
        ch = cards[0].height
        card_y = py + (ph - ch) // 2
        card_x = px - strip_w - 6 - sprites.SHADOW if spot.right_half else px + pw + 6

    # Cards of lower seats tuck behind the plate; upper seats' cards lie over it, so the
    # index (top-left of each card) is never covered.
    if cards and spot.lower_half and not beside:
        for i, sprite in enumerate(cards):
            _paste(img, sprite, (card_x + i * step, card_y))

    if seat.is_to_act:
        halo = sprites.glow(PLATE, sprites.GOLD, 14)
        _paste(img, halo, (px - 14, py - 14))
    dim = seat.folded or seat.sitting_out or seat.empty
    if seat.empty:
        plate = sprites.rounded_box(PLATE, (20, 26, 34, 150), (70, 80, 92, 160))
    elif seat.is_to_act:
        plate = sprites.rounded_box(PLATE, (40, 36, 22, 245), (*sprites.GOLD, 255), 3)
    elif dim:
        plate = sprites.rounded_box(PLATE, (24, 28, 35, 220), (50, 58, 68, 255))
    else:
        plate = sprites.rounded_box(PLATE, (*sprites.PLATE, 240), (*sprites.PLATE_EDGE, 255), 2)
    _paste(img, plate, (px, py))

    if cards and (beside or not spot.lower_half):
        for i, sprite in enumerate(cards):
            _paste(img, sprite, (card_x + i * step, card_y))

    if seat.empty:
        fonts.put_text(
            img,
            (px + pw / 2, py + ph / 2),
            fonts.fit(w("art.seat.empty", seat=Number(seat.seat)), SMALL_SIZE + 1, pw - 12, False),
            SMALL_SIZE + 1,
            sprites.MUTED,
            bold=False,
            anchor="mm",
        )
        return
    name = fonts.fit(display_name(seat.name, seat.seat, w), NAME_SIZE, pw - 16)
    name_ink = sprites.MUTED if dim else sprites.WHITE
    fonts.put_text(img, (px + pw / 2, py + 18), name, NAME_SIZE, name_ink, anchor="mm")

    stack_ink = sprites.MUTED if dim else sprites.GOLD
    stack = w.amount(seat.stack)
    if seat.tags:
        # Pot-system marks (two-to-win marker, Guts legs, §15) beside the stack: they
        # matter more than the last action, which the table message also tells.
        fonts.put_text(img, (px + 10, py + 44), stack, STACK_SIZE, stack_ink, anchor="lm")
        room = pw - 20 - round(fonts.width(stack, STACK_SIZE)) - 8
        x_right = px + pw - 8
        for tag in reversed(seat.tags):
            text = fonts.fit(w.text(tag).upper(), 13, max(room - 16, 10))
            pill_w = (round(fonts.width(text, 13)) + 13 + 7) // 8 * 8  # the pill's own width
            pill(
                img,
                draw,
                (x_right - pill_w // 2, py + 44),
                text,
                size=13,
                fill=(*sprites.LOW_BLUE, 255),
                ink=sprites.WHITE,
            )
            x_right -= pill_w + 4
            room -= pill_w + 4
    elif seat.action and not seat.folded:
        action_w = pw - 20 - round(fonts.width(stack, STACK_SIZE)) - 10
        action = fonts.fit(w.text(seat.action), SMALL_SIZE, max(action_w, 10), bold=False)
        fonts.put_text(img, (px + 10, py + 44), stack, STACK_SIZE, stack_ink, anchor="lm")
        fonts.put_text(
            img,
            (px + pw - 10, py + 45),
            action,
            SMALL_SIZE,
            (200, 208, 216),
            bold=False,
            anchor="rm",
        )
    else:
        fonts.put_text(img, (px + pw / 2, py + 44), stack, STACK_SIZE, stack_ink, anchor="mm")

    # Status badge over the plate's top edge, where nothing else is drawn.
    badge_y = py - 2 if spot.lower_half else py + ph + 2
    badge_centre = (px + pw // 2, badge_y)
    if cards and not beside:
        # The cards occupy the inner edge; move the badge to the outer edge.
        badge_y = py + ph + 2 if spot.lower_half else py - 2
        badge_centre = (px + pw // 2, badge_y)
    if seat.folded:
        folded = _badge(w("art.badge.folded"), 15)
        pill(img, draw, badge_centre, folded, size=15, fill=(70, 76, 86, 255), ink=sprites.WHITE)
    elif seat.sitting_out:
        away = _badge(w("art.badge.away"), 15)
        pill(img, draw, badge_centre, away, size=15, fill=(70, 76, 86, 255), ink=sprites.WHITE)
    elif seat.all_in:
        all_in = _badge(w("art.badge.all_in"), 16)
        pill(img, draw, badge_centre, all_in, size=16, fill=(196, 38, 50, 255), ink=sprites.WHITE)
    elif seat.is_to_act and seat.clock is not None:
        urgent = seat.clock <= 10
        ink = sprites.WHITE if urgent else sprites.INK
        box = pill(
            img,
            draw,
            (badge_centre[0] + 9, badge_centre[1]),
            w("art.badge.clock", seconds=Number(seat.clock)),
            size=17,
            fill=(200, 40, 40, 255) if urgent else (*sprites.GOLD, 255),
            ink=ink,
        )
        icon = sprites.clock_icon(18, ink)
        _paste(img, icon, (box[0] - 20, (box[1] + box[3]) // 2 - 9))

    if seat.drawn is not None and not seat.folded:
        text = w("art.draw.pat") if seat.drawn == 0 else w("art.draw.drew", n=Number(seat.drawn))
        if beside:
            cx, cy = card_x + strip_w // 2, card_y + cards[0].height + 14
        elif cards:
            # Beside the cards, on the side facing the middle of the picture.
            cx = card_x - 34 if spot.right_half else card_x + strip_w + 34
            cy = card_y + cards[0].height // 2
        else:
            cx, cy = px + pw // 2, (py - 12 if spot.lower_half else py + ph + 12)
        pill(img, draw, (cx, cy), text, size=15, fill=(235, 235, 228, 240), ink=sprites.INK)

    if seat.is_button:
        button = sprites.dealer_button(28)
        if beside:
            bx = px + pw - 16 if not spot.right_half else px - 14
            _paste(img, button, (bx, py - 18))
        else:
            bx = px + pw + 6 if not spot.right_half else px - 36
            _paste(img, button, (bx, py + ph // 2 - 15))

    if seat.bet > 0:
        bx, by = spot.bet_side if beside else spot.bet
        text = w.amount(seat.bet)
        chip = sprites.chip(22)
        tw = fonts.width(text, 19)
        left = round(bx - (tw + 26) / 2)
        _paste(img, chip, (left, by - 11))
        fonts.put_text(
            img,
            (left + 26, by),
            text,
            19,
            sprites.WHITE,
            anchor="lm",
            stroke=3,
            stroke_fill=(10, 40, 26),
        )


def _badge(text: str, size: int) -> str:
    """A status badge fits over its plate (a long word in some languages is cut)."""
    return fonts.fit(text, size, PLATE[0] - size - 8)


def pot_name(pot: Pot, w: Words) -> str:
    """The short label of a pot on the felt: "Main", "Side 1", "Pot", "Reserve"."""
    if pot.kind is PotKind.SIDE:
        return w("art.pot.side", n=Number(pot.number))
    return w(f"art.pot.{pot.kind.value}")


def pot_label(pot: Pot, chips: int, w: Words) -> str:
    return w("art.pot.label", pot=Name(pot_name(pot, w)), amount=Name(w.amount(chips)))


_ANTE_KEYS = {"big_blind": "art.stakes.ante.big_blind", "button": "art.stakes.ante.button"}
"""One ante for the table is said as the hand's head says it (R-19.93): "big blind ante
300", not an ante each player pays."""


def stakes_text(stakes: Stakes | Text, w: Words) -> str:
    """The stakes line in the picture's language: "No-limit, blinds 10/20, ante 2"."""
    if not isinstance(stakes, Stakes):
        return w.text(stakes)
    parts: list[str] = []
    if stakes.structure is not None:
        parts.append(w(f"art.structure.{stakes.structure.value}"))
    pairs = (("art.stakes.blinds", stakes.blinds), ("art.stakes.bets", stakes.bets))
    for key, pair in pairs:
        if pair is not None:
            parts.append(w(key, small=Name(w.amount(pair[0])), big=Name(w.amount(pair[1]))))
    singles = (
        ("art.stakes.bring_in", stakes.bring_in),
        (_ANTE_KEYS.get(stakes.ante_mode, "art.stakes.ante"), stakes.ante),
        ("art.stakes.stake", stakes.stake),
        ("art.stakes.max_pot", stakes.max_pot),
    )
    for key, chips in singles:
        if chips:
            parts.append(w(key, amount=Name(w.amount(chips))))
    return w("art.list.comma").join(parts)


def _draw_middle(img: Image.Image, draw: ImageDraw.ImageDraw, view: TableView, w: Words) -> None:
    cx, cy = CENTRE
    pot_y = cy
    if view.board:
        n = len(view.board)
        cw, ch = BOARD_CARD
        # Board slots are always laid out for five cards so the flop does not jump
        # when the turn comes.
        left = cx - (cw + BOARD_STEP * 4) // 2
        top = cy - 30 - ch // 2
        for i in range(n):
            card = view.board[i]
            sprite = sprites.card(card, BOARD_CARD, view.deck, wild=view.wild.is_wild(card))
            _paste(img, sprite, (left + i * BOARD_STEP, top))
        pot_y = top + ch + 26
    if view.pots:
        labels = [pot_label(p.pot, p.amount, w) for p in view.pots]
        widths = [fonts.width(t, 18) + 44 for t in labels]
        total = sum(widths) + 10 * (len(widths) - 1)
        x = cx - total / 2
        for text, box_w in zip(labels, widths, strict=True):
            box = pill(
                img,
                draw,
                (round(x + box_w / 2 + 10), pot_y),
                text,
                size=18,
                fill=(8, 40, 26, 220),
                ink=sprites.WHITE,
                outline=(60, 150, 105, 255),
            )
            _paste(img, sprites.chip(20), (box[0] - 14, pot_y - 10))
            x += box_w + 10


def _room(n: int, y0: int, y1: int, most: int, *, right: bool = False) -> int:
    """How wide a corner line between heights ``y0`` and ``y1`` may be (at most
    ``most``) without running into a seat's plate (its halo and badge included) of an
    ``n``-seat table: the words of some languages are longer than others'."""
    rows = [x for x, y in (s.plate for s in _SPOTS[n]) if y - 8 < y1 and y + PLATE[1] + 8 > y0]
    if right:
        return min([most, *(W - 16 - (x + PLATE[0] + 12) for x in rows)])
    return min([most, *(x - 17 - 12 for x in rows)])


def _draw_corner(img: Image.Image, view: TableView, w: Words) -> None:
    n = len(view.seats)
    title = fonts.fit(w.text(view.variant), 26, 390)
    fonts.put_text(img, (16, 12), title, 26, sprites.WHITE)
    # Left of the top seats' plates: a long stakes line takes two lines.
    y = 44
    widths = [_room(n, y + 24 * i, y + 24 * i + 22, STAKES_WIDTH) for i in range(2)]
    stakes = stakes_text(view.stakes, w)
    # A little smaller rather than cut (down to 16 px): some languages need more room.
    for size in range(20, 15, -1):
        lines = _wrap(stakes, size, widths)
        if not lines or not lines[-1].endswith(fonts.ELLIPSIS):
            break
    for line in lines:
        fonts.put_text(img, (17, y), line, size, sprites.GOLD)
        y += 24
    wild = _wild_text(view, w)
    if wild:
        room = _room(n, y, y + 22, STAKES_WIDTH)
        size = fonts.size_to_fit(wild, 18, room, smallest=14)
        fonts.put_text(img, (17, y + 2), fonts.fit(wild, size, room), size, sprites.GOLD)
    # (text, is the declare mark), top to bottom at the right: the first line small.
    right: list[tuple[str, bool]] = []
    if view.hand_number is not None:
        right.append((w("art.corner.hand", number=_hand(view.hand_number)), False))
    street = w.text(view.street)
    if street:
        right.append((street, False))
    if view.declare:
        right.append((w("art.corner.declare"), True))
    for i, (text, declare) in enumerate(right):
        top = 14 + 26 * i
        room = _room(n, top, top + 22, CORNER_WIDTH, right=True)
        size = fonts.size_to_fit(text, 20 if i else 18, room)
        fonts.put_text(
            img,
            (W - 16, top),
            fonts.fit(text, size, room),
            size,
            sprites.GOLD if declare else sprites.WHITE if i else sprites.MUTED,
            bold=i > 0,
            anchor="ra",
        )


def _hand(label: int | Number | Msg) -> Name | Number | Msg:
    """The hand's label as a parameter: the caller's (R-20.90), a bare ``int`` as is."""
    return Name(str(label)) if isinstance(label, int) else label


def _wrap(text: str, size: int, widths: list[int]) -> list[str]:
    """``text`` in at most ``len(widths)`` lines, line ``i`` at most ``widths[i]`` px,
    broken after commas or spaces; the last line is cut with an ellipsis if it is still
    too long."""
    out: list[str] = []
    rest = text
    while rest and len(out) < len(widths) - 1 and fonts.width(rest, size) > widths[len(out)]:
        width = widths[len(out)]
        words = rest.split(" ")
        k = len(words) - 1
        while k > 1 and fonts.width(" ".join(words[:k]), size) > width:
            k -= 1
        out.append(" ".join(words[:k]))
        rest = " ".join(words[k:])
    if rest:
        out.append(fonts.fit(rest, size, widths[len(out)]))
    return out


def _wild_text(view: TableView, w: Words) -> str:
    parts = [w("art.wild.rank", rank=Name("10" if r == "T" else r)) for r in view.wild.ranks]
    parts += [card_text(c, w) for c in view.wild.cards]
    return w("art.wild", cards=Name(w("art.list.comma").join(parts))) if parts else ""


def alt_text(view: TableView, *, locale: Locale = DEFAULT) -> str:
    """A screen-reader summary: game, board, pots, then every seat in order."""
    w = Words(locale)
    comma = w("art.list.comma")
    head = [w.text(view.variant), stakes_text(view.stakes, w)]
    if view.hand_number is not None:
        head.append(w("art.alt.hand", number=_hand(view.hand_number)))
    if w.text(view.street):
        head.append(w.text(view.street))
    parts = [comma.join(h for h in head if h) + "."]
    wild = _wild_text(view, w)
    if wild:
        parts.append(wild + ".")
    if view.board:
        parts.append(w("art.alt.board", cards=Name(cards_text(view.board, w))))
    if view.pots:
        pots = comma.join(pot_label(p.pot, p.amount, w) for p in view.pots)
        parts.append(w("art.alt.pots", pots=Name(pots)))
    to_act = ""
    for seat in view.seats:
        if seat.empty:
            continue
        name = alt_name(seat.name, seat.seat, w)
        bits = [w("art.alt.stack", amount=Name(w.amount(seat.stack)))]
        if seat.is_button:
            bits.insert(0, w("art.alt.button"))
        if seat.bet:
            bits.append(w("art.alt.bet", amount=Name(w.amount(seat.bet))))
        if seat.folded:
            bits.append(w("art.alt.folded"))
        if seat.all_in:
            bits.append(w("art.alt.all_in"))
        if seat.sitting_out:
            bits.append(w("art.alt.sitting_out"))
        if seat.up_cards:
            shown = [
                w("art.alt.face_down")
                if c.card == BACK
                else w("art.alt.down", card=Name(card_text(c.card, w)))
                if c.down
                else card_text(c.card, w)
                for c in seat.up_cards
            ]
            bits.append(w("art.alt.cards", cards=Name(comma.join(shown))))
        if seat.drawn is not None:
            bits.append(
                w("art.alt.pat") if seat.drawn == 0 else w("art.alt.drew", n=Number(seat.drawn))
            )
        if w.text(seat.action):
            bits.append(w("art.alt.last", action=Name(w.text(seat.action))))
        bits += [w.text(t) for t in seat.tags]
        parts.append(
            w("art.alt.seat", seat=Number(seat.seat), name=Name(name), what=Name(comma.join(bits)))
        )
        if seat.is_to_act:
            if seat.clock is not None:
                to_act = w("art.alt.to_act_clock", name=Name(name), seconds=Number(seat.clock))
            else:
                to_act = w("art.alt.to_act", name=Name(name))
    if to_act:
        parts.insert(1, to_act)
    return " ".join(parts)


def draw_table(view: TableView, *, locale: Locale = DEFAULT) -> Image.Image:
    """The table as an RGB image (not encoded); used by `render_table` and tests."""
    w = Words(locale)
    img = sprites.felt((W, H), TABLE_BOX).copy()
    draw = ImageDraw.Draw(img)  # one per render: ImageDraw objects are not shared
    _draw_corner(img, view, w)
    _draw_middle(img, draw, view, w)
    spots = _SPOTS[len(view.seats)]
    # Upper seats first: lower seats' cards and badges may overlap them, not the reverse.
    order = sorted(range(len(view.seats)), key=lambda i: spots[i].plate[1])
    for i in order:
        _draw_seat(img, draw, view, view.seats[i], spots[i], w)
    return img


def render_table(view: TableView, *, locale: Locale = DEFAULT) -> RenderedImage:
    """The public table picture (PNG) with its alt text, in ``locale`` (the table's
    language)."""
    img = draw_table(view, locale=locale)
    return encode(img, "table", alt_text(view, locale=locale))
