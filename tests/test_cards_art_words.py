"""The pictures speak the table's language: every word drawn or said in alt
text comes from the ``art`` catalogue in the locale asked for, pots and stakes arrive as
data, the shipped fonts draw every catalogue word in every language, and names in
scripts the fonts lack fall back cleanly. Wording is the catalogue's (tests/test_words.py
checks it); these tests compare with the catalogue, not with English sentences."""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import pytest
from PIL import Image

import cards_art
from bot.poker.messages import Msg, Name, Number
from bot.words import SUPPORTED, Locale, render
from bot.words.catalog import read_catalog
from cards_art import (
    Award,
    Pot,
    Reading,
    SeatView,
    ShowdownView,
    ShownHand,
    Stakes,
    Structure,
    fonts,
    render_hole_cards,
    render_ledger,
    render_reveal,
    render_showdown,
    render_table,
    samples,
)
from cards_art.common import display_name
from cards_art.encode import RenderedImage, palette
from cards_art.table import stakes_text
from cards_art.words import Words

CJK_AND_CARD = "李小龍🂡"


def _art_texts(locale: Locale) -> list[str]:
    """Every text of the art catalogue in ``locale`` (all plural forms)."""
    out: list[str] = []
    for m in read_catalog(locale, "art"):
        if m.id:
            out += [str(s) for s in m.string] if isinstance(m.string, tuple) else [str(m.string)]
    return out


def _literal(text: str) -> str:
    """The text without its placeholders: what the catalogue itself puts on a picture."""
    return "".join(lit for lit, _, _, _ in string.Formatter().parse(text))


@cache
def _notdef(size: int, bold: bool) -> tuple[tuple[int, int], bytes]:
    """The mask FreeType draws for a code point the face lacks (its .notdef box)."""
    mask = fonts.font(size, bold=bold).getmask("\U0010fffd")
    return mask.size, bytes(mask)


def _drawn_as_notdef(ch: str, bold: bool) -> bool:
    with fonts.FREETYPE_LOCK:
        mask = fonts.font(20, bold=bold).getmask(ch)
    return (mask.size, bytes(mask)) == _notdef(20, bold)


@pytest.mark.parametrize("locale", SUPPORTED)
def test_shipped_fonts_draw_every_art_word_in_every_language(locale: Locale) -> None:
    """Fonts: every character of every art.po text (accents, ß, Cyrillic,
    №, «») has a real glyph in both shipped faces: the face's cmap says so, FreeType
    draws it as something other than the .notdef box, and cleaning keeps it."""
    chars = {ch for text in _art_texts(locale) for ch in _literal(text) if not ch.isspace()}
    assert chars, locale
    for ch in sorted(chars):
        assert fonts.has_glyph(ch), (locale, ch, hex(ord(ch)))
        for bold in (True, False):
            assert not _drawn_as_notdef(ch, bold), (locale, ch, hex(ord(ch)), bold)
        assert fonts.clean(ch) == ch, (locale, ch)


def test_the_notdef_check_tells_a_missing_glyph() -> None:
    """The check above can fail: a CJK character is drawn as the .notdef box, a Latin
    letter with an accent and a Cyrillic letter are not."""
    assert _drawn_as_notdef("李", True) and not fonts.has_glyph("李")
    assert not _drawn_as_notdef("ß", True) and not _drawn_as_notdef("ж", False)


@contextmanager
def _drawn_words() -> Iterator[list[str]]:
    """Every text a render puts on its picture (through the one text path)."""
    seen: list[str] = []
    real = fonts.put_text
    palette()  # built once from English reference pictures: not the picture's words

    def spy(img: Image.Image, xy: tuple[float, float], text: str, *a: Any, **kw: Any) -> None:
        seen.append(text)
        real(img, xy, text, *a, **kw)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fonts, "put_text", spy)
        yield seen


@cache
def _templates(locale: Locale) -> dict[str, str]:
    """Each key's text in ``locale`` with its placeholders (first plural form)."""
    out: dict[str, str] = {}
    for m in read_catalog(locale, "art"):
        if m.id:
            key = str(m.id[0] if isinstance(m.id, tuple) else m.id)
            out[key] = str(m.string[0] if isinstance(m.string, tuple) else m.string)
    return out


def _fragments(text: str) -> list[str]:
    """The words a catalogue text itself writes, between its placeholders (those of
    five letters or more: shorter ones such as "Pot" or "high" are shared slang)."""
    parts = (lit.strip(" .,:;()·#") for lit, _, _, _ in string.Formatter().parse(text))
    return [p for p in parts if len(p) >= 5]


def _english_fragments(locale: Locale) -> set[str]:
    """English fragments of the art catalogue that ``locale`` writes otherwise and
    nowhere uses itself (poker slang such as "stack" is shared by some languages)."""
    theirs = "\n".join(_templates(locale).values())
    out: set[str] = set()
    for key, english in _templates("en").items():
        if english != _templates(locale)[key]:
            out.update(f for f in _fragments(english) if f not in theirs)
    return out


PICTURES: dict[str, Callable[[Locale], RenderedImage]] = {
    "table": lambda loc: render_table(samples.holdem_words("Texas Hold'em", "Flop"), locale=loc),
    "draw": lambda loc: render_table(samples.draw5(), locale=loc),
    "guts": lambda loc: render_table(samples.guts_legs(), locale=loc),
    "showdown": lambda loc: render_showdown(samples.showdown_split(), locale=loc),
    "declare": lambda loc: render_showdown(samples.showdown_declare(), locale=loc),
    "reveal": lambda loc: render_reveal(samples.reveal(), locale=loc),
    "ledger": lambda loc: render_ledger(samples.ledger(), locale=loc),
    "hole": lambda loc: render_hole_cards(("As", "Kh"), down=(True, False), locale=loc),
}


@pytest.mark.parametrize("locale", [loc for loc in SUPPORTED if loc != "en"])
@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_pictures_speak_the_tables_language(picture: str, locale: Locale) -> None:
    """Who reads what: drawn in ``locale``, a picture shows no English
    words of the catalogue, neither drawn nor in its alt text. (The samples' game and
    hand names are the caller's words, not the catalogue's.)"""
    with _drawn_words() as drawn:
        image = PICTURES[picture](locale)
    assert drawn or picture == "hole"  # hole cards without a caption draw no word
    english = _english_fragments(locale)
    assert english  # the check has something to find
    drawn, alt = [_unnamed(t) for t in drawn], _unnamed(image.alt_text)
    for fragment in english:
        assert not any(fragment in text for text in drawn), (picture, locale, fragment, drawn)
        assert fragment not in alt, (picture, locale, fragment, alt)


def _unnamed(text: str) -> str:
    """``text`` without the samples' player names ("JokerFan" is a name, not a word)."""
    for name in (*samples.LONG_AND_ODD_NAMES, *samples.WORLD_NAMES):
        text = text.replace(name, "").replace(fonts.clean(name), "")
    return text


def test_the_leak_check_finds_english() -> None:
    """The check above can fail: the English picture holds English fragments."""
    image = PICTURES["table"]("en")
    assert any(f in image.alt_text for f in _english_fragments("de"))


def test_badges_and_labels_come_from_the_catalogue_in_the_locale() -> None:
    """The table picture in German and Russian draws the catalogue's badge, pot, seat
    and corner words (keys with their parameters), and amounts grouped by locale."""
    view = samples.holdem_words("Texas Hold'em", "Flop")
    for locale in ("de", "ru"):
        w = Words(locale)
        with _drawn_words() as drawn:
            render_table(view, locale=locale)
        said = set(drawn)
        for key in ("art.badge.folded", "art.badge.all_in", "art.badge.away"):
            assert render(Msg(key), locale) in said, (locale, key)
        main = render(Msg("art.pot.main"), locale)
        pot = render(
            Msg("art.pot.label", (("pot", Name(main)), ("amount", Name(w.amount(12_480))))),
            locale,
        )
        assert pot in said, (locale, pot, said)
        empty = render(Msg("art.seat.empty", (("seat", Number(6)),)), locale)
        assert empty in said, (locale, said)
        assert render(Msg("art.corner.hand", (("number", Name("1024")),)), locale) in said
        assert w.amount(12_500) in said
    assert Words("de").amount(12_480) == "12.480"
    assert Words("ru").amount(12_480).replace("\xa0", " ") == "12 480"
    assert Words("en").amount(12_480) == "12,480" and Words("en").amount(12_500_000) == "12.5M"
    big = Words("de").amount(12_500_000)
    assert big == render(Msg("art.amount.millions", (("n", Name("12,5")),)), "de")


def test_stakes_are_written_from_data_in_the_locale() -> None:
    """Nothing reads the stakes sentence back: the picture gets the structure and the
    amounts and writes the line from the catalogue, in the locale."""
    stakes = Stakes(Structure.FIXED, blinds=(1, 2), bets=(2, 4), ante=1)
    for locale in SUPPORTED:
        w = Words(locale)
        want = w("art.list.comma").join(
            [
                w("art.structure.fixed"),
                w("art.stakes.blinds", small=Name("1"), big=Name("2")),
                w("art.stakes.bets", small=Name("2"), big=Name("4")),
                w("art.stakes.ante", amount=Name("1")),
            ]
        )
        assert stakes_text(stakes, w) == want
    guts = Stakes(stake=5, max_pot=1_500)
    w = Words("de")
    assert stakes_text(guts, w) == ", ".join(
        [w("art.stakes.stake", amount=Name("5")), w("art.stakes.max_pot", amount=Name("1.500"))]
    )


def test_r8_3_the_showdown_picture_lists_the_main_pot_first_from_pot_data() -> None:
    """R-8.3: the engine awards the last side pot first; the picture orders the awards
    by pot (main, side 1, side 2), from the pots' data, never from their labels."""
    view = ShowdownView(
        variant="Texas Hold'em",
        stakes=Stakes(Structure.NO_LIMIT, blinds=(1, 2)),
        hands=(ShownHand(1, "Ann", ("As", "Ah"), (Reading("Two aces"),)),),
        awards=(
            Award(Pot.side(2), 1, 30),
            Award(Pot.side(1), 1, 20),
            Award(Pot.main(), 1, 10),
        ),
    )
    for locale in ("en", "ru"):
        alt = render_showdown(view, locale=locale).alt_text
        w = Words(locale)
        phrases = [
            w("art.award.main"),
            w("art.award.side", n=Number(1)),
            w("art.award.side", n=Number(2)),
        ]
        where = [alt.index(p) for p in phrases]
        assert where == sorted(where), (locale, alt)
    assert Pot.main().order < Pot.side(1).order < Pot.side(2).order < cards_art.RESERVE.order
    with pytest.raises(ValueError):
        Pot(cards_art.PotKind.SIDE)  # a side pot has its number


def test_names_in_scripts_the_fonts_lack_fall_back_cleanly() -> None:
    """Fonts: a name in a script the fonts do not draw (CJK) never becomes
    tofu boxes or a crash: its letters are dropped per character; a name left with no
    letter reads "Seat N" in the table's language; the alt text keeps the name."""
    assert fonts.clean(CJK_AND_CARD) == "🂡"  # the card symbol is in DejaVu, CJK is not
    assert fonts.clean("Zoë李") == "Zoë"
    for locale in SUPPORTED:
        w = Words(locale)
        assert display_name(CJK_AND_CARD, 4, w) == w("art.seat", seat=Number(4))
        assert display_name("Zoë李", 4, w) == "Zoë"
    assert display_name("🂡", 2) == "🂡"  # no letters to lose: drawn as it is
    view = samples.holdem_words("Техасский холдем", "Флоп")
    with _drawn_words() as drawn:
        image = render_table(view, locale="ru")
    assert CJK_AND_CARD in image.alt_text
    for text in drawn:
        for ch in fonts.clean(text):
            if not ch.isspace():
                assert not _drawn_as_notdef(ch, True), (text, ch)
    assert not any("李" in fonts.clean(t) for t in drawn)


def test_two_pot_system_tags_are_drawn_in_the_locale() -> None:
    """Two marks beside a stack (§15: a marker and Guts legs) both drawn; a tag given
    as a message is said in the table's language."""
    seat = SeatView(seat=1, name="Ann", stack=40, hidden_cards=3, tags=("legs 1/3", "marker"))
    view = samples.guts_legs()
    view = type(view)(**{**view.__dict__, "seats": (seat, *view.seats[1:])})
    said = {
        "en": ("LEGS 1/3", "MARKER"),
        "de": ("RUNDEN 1/3", "MARKE"),
        "ru": ("ЭТАПЫ 1/3", "МЕТКА"),
    }
    for locale, (legs, marker) in said.items():
        with _drawn_words() as drawn:
            render_table(view, locale=locale)
        # The other seats' tags are messages (art.tag.*), said in the table's language;
        # a tag given as text is drawn as it is.
        assert legs in drawn and marker in drawn, (locale, drawn)
        assert "MARKER" in drawn
    tagged = SeatView(seat=1, name="Ann", stack=40, tags=(Msg("art.pot.reserve"),))
    view = type(view)(**{**view.__dict__, "seats": (tagged, *view.seats[1:])})
    with _drawn_words() as drawn:
        render_table(view, locale="ru")
    assert render(Msg("art.pot.reserve"), "ru").upper() in drawn


def test_english_stays_the_default_for_every_entry_point() -> None:
    """The cogs and the terminal call the renderers without a locale: English, the
    same picture and alt text as ``locale="en"``."""
    view = samples.holdem_words("Texas Hold'em", "Flop")
    pairs = [
        (render_table(view), render_table(view, locale="en")),
        (
            render_showdown(samples.showdown_split()),
            render_showdown(samples.showdown_split(), locale="en"),
        ),
        (render_reveal(samples.reveal()), render_reveal(samples.reveal(), locale="en")),
        (render_ledger(samples.ledger()), render_ledger(samples.ledger(), locale="en")),
        (render_hole_cards(("As",)), render_hole_cards(("As",), locale="en")),
    ]
    for default, english in pairs:
        assert default == english
    assert render_table(view, locale="de").alt_text != pairs[0][0].alt_text
