"""The catalogues (bot/words): complete in every language, placeholders that agree with
English's, plural forms as each language has them, and messages that render. The
wording itself is checked here once; behaviour tests assert keys and parameters."""

from __future__ import annotations

import string

import pytest
from babel.messages.catalog import Catalog, Message

from bot.poker.legal import Legal
from bot.poker.messages import Cards, Chips, Count, Listing, Msg, Name, Number, Player, Rule, msg
from bot.words import SUPPORTED, from_discord, render
from bot.words.catalog import DOMAINS, read_catalog

PLURAL_FORMS = {"en": 2, "de": 2, "fr": 2, "es": 2, "pt_BR": 2, "ru": 3}


def _messages(catalog: Catalog) -> dict[str, Message]:
    out: dict[str, Message] = {}
    for m in catalog:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        out[str(key)] = m
    return out


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _texts(m: Message) -> list[str]:
    return [str(s) for s in m.string] if isinstance(m.string, tuple) else [str(m.string)]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", SUPPORTED)
def test_every_catalogue_has_every_english_key_with_its_placeholders(
    locale: str, domain: str
) -> None:
    """A key English has is in every language, translated (not empty), with exactly
    English's placeholders in every plural form, and no key English lacks."""
    english = _messages(read_catalog("en", domain))
    theirs = _messages(read_catalog(locale, domain))  # type: ignore[arg-type]
    assert set(theirs) == set(english), set(english) ^ set(theirs)
    for key, en in english.items():
        want = set().union(*(_fields(t) for t in _texts(en)))
        texts = _texts(theirs[key])
        assert all(t.strip() for t in texts), (locale, key)
        for text in texts:
            assert _fields(text) == want, (locale, key, text)
        if isinstance(en.id, tuple):
            assert len(texts) == PLURAL_FORMS[locale], (locale, key)


@pytest.mark.parametrize("locale", SUPPORTED)
def test_plural_forms_header_matches_the_language(locale: str) -> None:
    for domain in DOMAINS:
        catalog = read_catalog(locale, domain)  # type: ignore[arg-type]
        assert catalog.num_plurals == PLURAL_FORMS[locale], (locale, domain)


def test_numbers_lists_and_plurals_follow_the_locale() -> None:
    """Number formatting and lists by locale (CLDR, through Babel)."""
    call = msg("legal.call", amount=Chips(12500))
    assert render(call, "en") == "call 12,500"
    assert render(call, "de") == "12.500 mitgehen"
    assert render(call, "fr").replace("\u202f", " ") == "suivre 12 500"
    assert render(call, "ru").replace("\xa0", " ") == "колл 12 500"
    options = msg("legal.options", options=Listing((msg("legal.check"), msg("legal.fold")), "or"))
    assert render(options, "en") == "check or fold"
    assert render(options, "de") == "checken oder aussteigen"


@pytest.mark.parametrize(
    ("legal", "english"),
    [
        # player, actions, to_call, current_bet, bet_this_round, stack, pot, min, max,
        # unit, opening
        (
            Legal(0, frozenset({"check", "bet", "fold"}), 0, 0, 0, 100, 3, 2, 100, 1, True),
            "check, bet 2–100 (all in), or fold",
        ),
        (
            Legal(1, frozenset({"call", "raise", "fold"}), 20, 20, 0, 180, 30, 40, 90, 1, False),
            "call 20, raise to 40–90, or fold",
        ),
        (
            Legal(0, frozenset({"call", "fold"}), 50, 50, 0, 50, 70, None, None, 1, False),
            "call 50 (all in) or fold",
        ),
        (
            Legal(2, frozenset({"bring_in", "complete", "fold"}), 1, 1, 0, 99, 3, 4, 4, 1, False),
            "bring in for 2, complete to 4, or fold",
        ),
        (
            Legal(0, frozenset({"draw"}), 0, 0, 0, 99, 0, None, None, 1, False, draw_max=3),
            "discard 0–3 cards",
        ),
        (
            Legal(0, frozenset({"show", "muck"}), 0, 0, 0, 99, 0, None, None, 1, False),
            "show or muck",
        ),
        (
            Legal(0, frozenset({"declare"}), 0, 0, 0, 99, 0, None, None, 1, False),
            "declare low, high or both",
        ),
    ],
)
def test_legal_options_in_english(legal: Legal, english: str) -> None:
    """The legal options as one message: in English, the line the table shows (a list of
    two says "a or b", as English does)."""
    assert render(legal.options(), "en") == english


def test_a_number_is_a_label_and_never_grouped() -> None:
    """Hand and seat numbers and seconds read as labels ("Hand #1024"), chips grouped."""
    assert render(msg("legal.amount", amount=Number(1024)), "en") == "1024"
    assert render(msg("legal.amount", amount=Number(1.5)), "de") == "1,5"
    assert render(msg("legal.amount", amount=Chips(1024)), "en") == "1,024"


def test_every_parameter_kind_renders() -> None:
    names = {0: "Ann"}
    assert render(Msg("legal.amount", (("amount", Chips(5)),)), "en") == "5"
    for value, shown in [
        (Count(3), "3"),
        (Number(7), "7"),
        (Player(0), "Ann"),
        (Name("<@1>"), "<@1>"),
        (Cards(("As", "Kd")), "As Kd"),
        (Rule("R-6.2"), "R-6.2"),
    ]:
        assert render(msg("legal.amount", amount=value), "en", names=names.get) == shown


def test_discord_locales_map_onto_ours() -> None:
    assert [from_discord(c) for c in ("en-US", "de", "fr", "es-ES", "es-419", "pt-BR", "ru")] == [
        "en",
        "de",
        "fr",
        "es",
        "es",
        "pt_BR",
        "ru",
    ]
    assert from_discord("ja") == "en" and from_discord(None) == "en"
