"""What players type, read once: the parser's refusals are ``input`` messages whose
parameters say what was typed and what is allowed, and the raise modal shows the amount
words of the reader's language, each one a word the parser reads."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.local.terminal import run
from bot.poker.messages import Cards, Chips, Count, Listing, Name, Number, Rule, msg
from bot.table.amounts import AMOUNT_KINDS, amount_word
from bot.table.text_actions import (
    ACCEPTED,
    MAX_NAME,
    ActionRequest,
    DrawCountError,
    ParseError,
    amount_words,
    check_name,
    draw_count_message,
    parse_action,
    parse_amount,
    parse_raise,
    parse_stated,
)
from bot.words import SUPPORTED, render
from cogs.components import PLACEHOLDER_MAX, amount_placeholder
from cogs.words import error_text


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("1e9", "input.amount.bad"),
        ("abc", "input.amount.bad"),
        ("1,5", "input.amount.bad"),
        ("-5", "input.amount.negative"),
        ("2.5", "input.amount.fraction"),
        ("9" * 20, "input.amount.too_many"),
    ],
)
def test_R_6_4_a_bad_amount_is_an_input_message_quoting_what_was_typed(
    typed: str, key: str
) -> None:
    with pytest.raises(ParseError) as info:
        parse_amount(typed)
    said = info.value.msg
    assert said.key == key
    assert said.get("text") == Name(repr(typed))
    if key == "input.amount.bad":
        assert said.get("example") == Chips(40)  # what is allowed: a whole number


def test_R_6_4_zero_and_nothing_say_what_is_allowed() -> None:
    with pytest.raises(ParseError) as info:
        parse_amount("0")
    assert info.value.msg == msg("input.amount.zero")
    with pytest.raises(ParseError) as info:
        parse_amount("  ")
    assert info.value.msg == msg("input.amount.missing", accepted=ACCEPTED)


def test_R_6_4_an_unknown_action_lists_what_is_accepted_in_the_reader_s_words() -> None:
    with pytest.raises(ParseError) as info:
        parse_action("dance")
    assert info.value.msg == msg("input.action.unknown", text=Name("'dance'"), accepted=ACCEPTED)
    german = render(info.value.msg, "de")
    assert "mitgehen" in german and "'dance'" in german and "call," not in german


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_6_4_every_simple_word_the_accepted_list_shows_parses(locale: str) -> None:
    """The list of what a player may type, in his language, holds only words the parser
    reads (the one-word entries; the others show a shape such as ``bet 40``)."""
    entries = [e.strip() for e in render(ACCEPTED, locale).split(",")]
    simple = [e for e in entries if " " not in e and "<" not in e and "/" not in e]
    assert len(simple) >= 8, simple
    for word in simple:
        assert isinstance(parse_action(word), ActionRequest), (locale, word)
    for shape in ("40", "100", "300"):
        assert any(shape in e for e in entries)


def test_R_6_2_the_string_raise_note_is_a_message_with_its_rule() -> None:
    req = parse_action("call 20 and raise 100")
    assert req.kind == "call"
    assert req.why == msg("input.string_raise", rule=Rule("R-6.2"))
    assert req.why is not None and "R-6.2" in render(req.why, "en")
    assert "R-6.2" in render(req.why, "ru")


def test_names_too_long_or_with_control_characters_are_refused_with_params() -> None:
    with pytest.raises(ParseError) as info:
        check_name("x" * (MAX_NAME + 3))
    said = info.value.msg
    assert said.key == "input.name.too_long"
    assert said.get("most") == Count(MAX_NAME) and said.get("length") == Number(MAX_NAME + 3)
    with pytest.raises(ParseError) as info:
        check_name("a\x07b")
    assert info.value.msg.key == "input.name.control"
    with pytest.raises(ParseError) as info:
        check_name("   ")
    assert info.value.msg == msg("input.name.missing")


def test_R_16_4_draw_and_stated_hands_say_which_cards_with_an_example() -> None:
    with pytest.raises(DrawCountError) as info:
        parse_action("draw 2")
    example = Cards(("7c", "2d"))
    assert info.value.msg == msg("input.draw.count", typed=Name("draw 2"), cards=example)
    own = draw_count_message("draw", 1, ("Ah", "Kd"))
    assert own.get("cards") == Cards(("Ah",))
    assert draw_count_message("draw", 2, ()).key == "input.draw.count_bare"
    with pytest.raises(ParseError) as info:
        parse_action("draw")
    assert info.value.msg.key == "input.draw.which"
    with pytest.raises(ParseError) as info:
        parse_stated("As Ad")
    assert info.value.msg.key == "input.stated.five"
    with pytest.raises(ParseError) as info:
        parse_action("draw 7c zz")
    assert info.value.msg.key == "input.card.bad" and info.value.msg.get("text") == Name("'zz'")


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("raise all", ActionRequest("all_in")),
        ("bet half", ActionRequest("half_pot")),
        ("erhöhen auf Minimum", ActionRequest("min")),
    ],
)
def test_R_6_3_an_amount_word_after_bet_or_raise_names_its_request(
    typed: str, meant: ActionRequest
) -> None:
    assert parse_action(typed) == meant


def test_R_6_4_the_modal_reads_through_the_parser_and_refuses_as_messages() -> None:
    assert parse_raise("Hälfte", "", opening=False) == ActionRequest("half_pot")
    assert parse_raise("", "30", opening=False) == ActionRequest("raise_by", 30)
    assert parse_raise("40", "", opening=True) == ActionRequest("bet", 40)
    assert parse_raise("Maximum", "", opening=False) == ActionRequest("max")
    with pytest.raises(ParseError) as info:
        parse_raise("lots", "", opening=False)
    said = info.value.msg
    assert said.key == "input.modal.or_words" and said.get("words") == amount_words()
    why = said.get("why")
    assert why is not None and getattr(why, "key", None) == "input.amount.bad"
    with pytest.raises(ParseError) as info:
        parse_raise(" ", "", opening=False)
    assert info.value.msg == msg("input.modal.empty", words=amount_words())


@pytest.mark.parametrize("locale", SUPPORTED)
def test_R_6_4_every_word_the_raise_modal_shows_parses_in_each_language(locale: str) -> None:
    """The placeholder lists the amount words in the reader's language, each one read by
    the parser as the amount it names (the modal and typed actions share the words)."""
    words = amount_words()
    assert isinstance(words, Listing)
    placeholder = amount_placeholder(locale)
    assert len(placeholder) <= PLACEHOLDER_MAX
    for kind, item in zip(AMOUNT_KINDS, words.items, strict=True):
        word = render(item, locale)
        assert word in placeholder, (locale, word)
        assert amount_word(word) == kind, (locale, word)
        assert parse_raise(word, "", opening=False) == ActionRequest(kind)


def test_the_german_placeholder_is_german() -> None:
    de = amount_placeholder("de")
    assert all(w in de for w in ("Hälfte", "Pot", "Minimum", "alles")), de
    assert "half" not in de and "all in" not in de
    assert "половина" in amount_placeholder("ru")


def test_R_1_12_an_echo_of_what_was_typed_is_inert_on_discord() -> None:
    """A refusal that quotes the player's text shows it as typed on Discord: no
    formatting, link or mention (it is escaped where rendered), and unescaped elsewhere."""
    with pytest.raises(ParseError) as info:
        parse_amount("**[x](https://e.vil)**")
    on_discord = error_text(info.value, "en")
    assert "\\*\\*\\[x\\]\\(https\\://e.vil\\)\\*\\*" in on_discord, on_discord
    assert "**[x](https://e.vil)**" in render(info.value.msg, "en")  # the terminal's


async def test_R_6_4_the_terminal_refuses_bad_input_in_its_language(tmp_path: Path) -> None:
    """The terminal renders the parser's refusals in ``--lang``: a German player's
    ``setzen -5`` and ``tanzen`` are answered in German, with what he may type, and
    change nothing."""
    out = io.StringIO()
    lines = ["deal", "bob: setzen -5", "bob: tanzen", "bob: erhöhen auf 1,5", "quit"]
    inp = io.StringIO("\n".join(lines) + "\n")
    argv = ["--db", str(tmp_path / "t.sqlite3"), "--lang", "de", "--seed", "7", "alice", "bob"]
    assert await run(argv, inp=inp, out=out) == 0
    said = out.getvalue()
    assert "'-5' ist negativ" in said, said
    # bob faces the big blind, so he is told his own options, not every game's.
    assert "'tanzen' habe ich nicht verstanden. Möglich: mitgehen, aussteigen" in said, said
    assert "'1,5' ist kein Betrag" in said, said
    assert "is not an amount" not in said and "did not understand" not in said


@pytest.mark.parametrize("locale", [loc for loc in SUPPORTED if loc != "en"])
def test_R_6_4_the_accepted_list_says_complete_declare_and_guts_in_the_readers_words(
    locale: str,
) -> None:
    """R-6.4, R-13.1, R-15.2: completing, declaring and Guts' in/out are shown in the
    reader's language, and what is shown parses: ``ansagen low``, ``raus (Guts)``."""
    entries = [e.strip() for e in render(ACCEPTED, locale).split(",")]
    assert not {"complete", "in"} & set(entries), entries
    assert not any(e.startswith("declare ") or e.startswith("out ") for e in entries), entries
    declare = next(e for e in entries if e.endswith(" low/high/both"))
    assert parse_action(declare.replace("/high/both", "")) == parse_action("declare low")
    guts = next(e for e in entries if e.endswith(" (Guts)")).removesuffix(" (Guts)")
    assert parse_action(guts) == parse_action("out")
