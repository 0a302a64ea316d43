"""The table drawn as text for the terminal, in the reader's language: the same picture
of the table for everyone at the keyboard, every word from the ``terminal`` catalogue or
rendered from the view's messages (stakes, street, last action, why it is halted)."""

from __future__ import annotations

from bot.local.words import Words
from bot.poker.cards import JOKER
from bot.poker.legal import Legal
from bot.poker.messages import Chips, Name, Number, msg
from bot.table.handlabel import hand_label
from bot.table.view import SeatView, TableView, seconds_left, stakes_said


def cards_text(words: Words, cards: tuple[str, ...] | list[str]) -> str:
    """Cards for people: "As Kd", the joker by its name (never its code "Xx")."""
    return " ".join(words("joker") if c == JOKER else c for c in cards)


def pots_line(words: Words, view: TableView) -> str:
    text = words("draw.pot", amount=Chips(view.pot_total - view.reserve))
    if len(view.pots) > 1:
        parts = [words("draw.main", amount=Chips(view.pots[0].amount))]
        parts += [
            words("draw.side", number=i, amount=Chips(p.amount))
            for i, p in enumerate(view.pots[1:], start=1)
        ]
        text += " (" + ", ".join(parts) + ")"
    if view.reserve:
        text += " | " + words("draw.reserve", amount=Chips(view.reserve))
    return text


def seat_notes(words: Words, view: TableView, seat: SeatView) -> list[str]:
    """Cards drawn in each draw (R-16.4), two-to-win markers and Guts legs (R-15.1,
    R-15.3) while they are live."""
    notes = []
    if seat.drew == (0,) and seat.state != "folded":
        notes.append(words("draw.stood_pat"))
    elif seat.drew and seat.state != "folded":
        drawn = ", ".join(str(n) if n else words("draw.pat") for n in seat.drew)
        notes.append(words("draw.drew", counts=drawn))
    if seat.marker:
        notes.append(words("draw.marker"))
    if seat.legs:
        if view.legs_needed:
            notes.append(words("draw.legs_of", legs=seat.legs, needed=view.legs_needed))
        else:
            notes.append(words("draw.legs", legs=seat.legs))
    return notes


def draw(
    words: Words, view: TableView, now: float | None = None, legal: Legal | None = None
) -> str:
    """The view as lines of text; ``legal``: the player to act's options when they are
    public (``view.options_said`` is given), said in the reader's language."""
    where = f" | {words.render(view.street_said)}" if view.street_said is not None else ""
    phase = words(f"phase.{view.phase}")
    stakes = words.render(stakes_said(view.stakes_data))
    head = {"table": view.table_id, "stakes": stakes, "phase": phase, "where": where}
    lines = [words("draw.header", hand=hand_label(view.session, view.hand_no), **head)]
    if view.board:
        lines.append(words("draw.board", cards=cards_text(words, view.board)))
    if view.board2:  # the second board of a double board
        second = Name(cards_text(words, view.board2))
        lines.append(words.render(msg("home.embed.board2_line", cards=second)))
    if view.pot_total or view.reserve:
        lines.append(pots_line(words, view))
    if view.pot_system == "two_to_win":
        lines.append(words("draw.two_to_win"))
    left = seconds_left(view, now)
    clock = words("draw.left", seconds=left) if left is not None else ""
    who = next((s for s in view.seats if s.seat == view.to_act), None)
    if who is not None:
        options = ""
        if view.options_said is not None:
            said = legal.options() if legal is not None else view.options_said
            options = words("draw.options", options=words.render(said))
        lines.append(
            words("draw.to_act", name=who.name, seat=who.seat, clock=clock, options=options)
        )
    elif view.acting == "sealed" and view.phase == "run_twice":
        count = Number(view.declare_pending)
        lines.append(words.render(msg("home.waiting.run_twice", count=count, clock=Name(clock))))
    elif view.acting == "sealed":
        key = "draw.waiting_declare" if view.phase == "declare" else "draw.waiting_guts"
        lines.append(words(key, count=view.declare_pending, clock=clock))
    for s in view.seats:
        marks = ("D " if s.is_button else "  ") + ("> " if s.is_turn else "  ")
        bet = " " + words("draw.bet", amount=Chips(s.bet)) if s.bet else ""
        notes = "".join(f" ({n})" for n in seat_notes(words, view, s))
        state = words(f"state.{s.state}")
        cards = cards_text(words, s.cards)
        lines.append(
            f"{marks}{s.seat:>2} {s.name:<12} {s.stack:>7}{bet} [{state}]{notes} {cards}".rstrip()
        )
    if view.last_said is not None:
        lines.append(words("draw.last", action=words.render(view.last_said)))
    if view.halted:
        lines.append(words("halted", reason=view.halted))
    return "\n".join(lines)


__all__ = ["cards_text", "draw", "pots_line", "seat_notes"]
