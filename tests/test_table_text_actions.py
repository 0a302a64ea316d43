"""The typed-action parser (R-6.2, R-6.3): accepted forms and clear refusals."""

from __future__ import annotations

import pytest

from bot.poker.messages import Rule
from bot.table.text_actions import ACCEPTED, ActionRequest, ParseError, parse_action
from tests.said import params_in, raises_saying


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("check", ActionRequest("check")),
        ("Call", ActionRequest("call")),
        ("fold", ActionRequest("fold")),
        ("bet 40", ActionRequest("bet", 40)),
        ("raise 100", ActionRequest("raise_by", 100)),
        ("raise to 300", ActionRequest("raise_to", 300)),
        ("  RAISE   TO  1,000 ", ActionRequest("raise_to", 1000)),
        ("all in", ActionRequest("all_in")),
        ("pot", ActionRequest("pot")),
        ("half pot", ActionRequest("half_pot")),
        ("stand pat", ActionRequest("draw")),
        ("draw As 10d", ActionRequest("draw", cards=("As", "Td"))),
        ("declare high", ActionRequest("declare", choice="high")),
    ],
)
def test_accepted_forms(text: str, expected: ActionRequest) -> None:
    assert parse_action(text) == expected


def test_r6_3_raise_means_by_and_raise_to_names_the_total() -> None:
    assert parse_action("raise 200").kind == "raise_by"
    assert parse_action("raise to 200").kind == "raise_to"


@pytest.mark.parametrize("text", ["call... raise 200", "call and raise 200", "call, raise to 80"])
def test_r6_2_string_raise_is_a_call(text: str) -> None:
    req = parse_action(text)
    assert req.kind == "call" and req.amount is None
    assert Rule("R-6.2") in params_in(req.why)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("bet -5", "negative"),
        ("bet 1e9", "not an amount"),
        ("raise abc", "not an amount"),
        ("bet 2.5", "whole number"),
        ("bet 0", "at least one chip"),
        ("bet 99999999999999999999", "more chips"),
        ("bet 1,5", "not an amount"),  # a decimal comma is never read as 15
    ],
)
def test_bad_amounts_are_refused_clearly(text: str, words: str) -> None:
    with raises_saying(ParseError, words):
        parse_action(text)


@pytest.mark.parametrize("text", ["dance", "", "check please now", "bet forty"])
def test_anything_else_lists_what_is_accepted(text: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_action(text)
    if text and text != "bet forty":
        assert info.value.msg.key == "input.action.unknown"
        assert info.value.msg.get("accepted") == ACCEPTED
    elif not text:
        assert info.value.msg.key == "input.action.empty"
        assert info.value.msg.get("accepted") == ACCEPTED


def test_r6_4_bet_or_raise_without_an_amount_is_left_to_the_table() -> None:
    """The parser keeps "no amount"; the table takes the one legal amount in fixed limit
    and otherwise says which amounts are allowed (tests/test_table_qa.py)."""
    assert parse_action("bet") == ActionRequest("bet")
    assert parse_action("raise") == ActionRequest("raise_to")


def test_r6_4_thousands_separators_are_read() -> None:
    assert parse_action("raise to 1,000") == ActionRequest("raise_to", 1000)


def test_r13_1_declaration_words_read_as_one_of_the_three_choices() -> None:
    """R-13.1 (declare high, low or both): every word for a declaration, typed or from a
    button or a command's choice, reads as one of the three (``declare_choice``, one
    table of aliases); anything else is None, never passed on as a choice."""
    from bot.table.text_actions import declare_choice

    words = {"low": "low", "lo": "low", "HIGH": "high", "hi": "high", "both": "both"}
    words |= {"pig": "both", "swing": "both", "hi-lo": "both", "high low": "both"}
    for word, choice in words.items():
        assert declare_choice(word) == choice
        assert parse_action(f"declare {word}") == ActionRequest("declare", choice=choice)
    assert declare_choice("medium") is None and declare_choice("") is None


def test_r9_3_show_with_five_cards_states_the_hand() -> None:
    """R-9.3 declared hands: ``show As Ad Ac Kd Kh`` shows and states the hand (either
    case, commas allowed); not five cards is refused with what to type."""
    stated = ("As", "Ad", "Ac", "Kd", "Kh")
    assert parse_action("show As Ad Ac Kd Kh") == ActionRequest("show", cards=stated)
    assert parse_action("state as, ad, ac, kd, kh") == ActionRequest("show", cards=stated)
    assert parse_action("show") == ActionRequest("show")
    with raises_saying(ParseError, "five cards"):
        parse_action("show As Ad")
    with raises_saying(ParseError, "not a card"):
        parse_action("show As Ad Ac Kd Zz")
