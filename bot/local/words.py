"""The terminal's words: every line it prints for players is a key of the ``terminal``
catalogue (bot/words/locales/*/LC_MESSAGES/terminal.po), said in the language chosen with
``--lang`` (or ``CHIPFIST_LANG``; English by default)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.poker.messages import Msg, Name, Number, Param, msg
from bot.words import DEFAULT, SUPPORTED, Locale, parse, render

Names = Callable[[int], str]


def choose(code: str | None) -> Locale:
    """The language a ``--lang`` code names; ValueError (saying which are spoken) for
    one we do not speak."""
    if not code:
        return DEFAULT
    lang = parse(code)
    if lang is None:
        raise ValueError(f"--lang {code!r}: one of {', '.join(SUPPORTED)}")
    return lang


@dataclass(frozen=True, slots=True)
class Words:
    lang: Locale = DEFAULT

    def __call__(self, key: str, **params: Param | str | int) -> str:
        """The terminal's message ``terminal.<key>`` in this language; a ``str``
        parameter is shown as it is, an ``int`` as a number of the language."""
        return self.render(msg("terminal." + key, **{k: _typed(v) for k, v in params.items()}))

    def render(self, m: Msg, names: Names | None = None) -> str:
        return render(m, self.lang, names=names)

    def refusal(self, exc: Exception) -> str:
        """A refusal (``TableError``, ``PokerError``, ``CardError``) in this language:
        its message where it carries one, else the exception as it says itself."""
        m = getattr(exc, "msg", None)
        return self.render(m) if isinstance(m, Msg) else str(exc)


def _typed(value: Param | str | int) -> Param:
    if isinstance(value, bool):
        raise TypeError("a flag is not a parameter")
    if isinstance(value, str):
        return Name(value)
    if isinstance(value, int):
        return Number(value)
    return value


# The terminal's own player words (sitting, leaving, cards...) as players of each
# language say them, read as the English phrase the terminal knows. Actions (check,
# mitgehen, рейз до 40...) are the table's one vocabulary, bot/table/amounts.py.
PLAYER_WORDS: dict[str, str] = {
    # German
    "hinsetzen": "sit",
    "platz nehmen": "sit",
    "karten": "cards",
    "meine karten": "cards",
    "aufstehen": "leave",
    "tisch verlassen": "leave",
    "pause": "sit out",
    "bin zurück": "back",
    "zurück": "back",
    "nachkaufen": "top up",
    # French
    "s'asseoir": "sit",
    "m'asseoir": "sit",
    "cartes": "cards",
    "mes cartes": "cards",
    "partir": "leave",
    "quitter la table": "leave",
    "absent": "sit out",
    "de retour": "back",
    "recaver": "top up",
    "recave": "top up",
    # Spanish
    "sentarse": "sit",
    "me siento": "sit",
    "cartas": "cards",
    "mis cartas": "cards",
    "levantarse": "leave",
    "me voy": "leave",
    "ausente": "sit out",
    "vuelvo": "back",
    "recargar": "top up",
    "recompra": "top up",
    # Brazilian Portuguese
    "sentar": "sit",
    "minhas cartas": "cards",
    "sair": "leave",
    "levantar": "leave",
    "pausa": "sit out",
    "voltei": "back",
    "recarregar": "top up",
    "recompra de": "top up",
    # Russian
    "сесть": "sit",
    "сажусь": "sit",
    "карты": "cards",
    "мои карты": "cards",
    "уйти": "leave",
    "встать": "leave",
    "отойти": "sit out",
    "отошёл": "sit out",
    "вернулся": "back",
    "докупить": "top up",
    "докупка": "top up",
}
_LEADING = re.compile(
    r"^(?:"
    + "|".join(re.escape(w) for w in sorted(PLAYER_WORDS, key=len, reverse=True))
    + r")(?=$|\s)"
)


def player_phrase(phrase: str) -> str:
    """``phrase`` (lower case) with a leading player word of another language said in
    English (``hinsetzen 3 200`` is ``sit 3 200``); anything else unchanged."""
    m = _LEADING.match(phrase)
    return phrase if m is None else PLAYER_WORDS[m.group(0)] + phrase[m.end() :]


__all__ = ["PLAYER_WORDS", "Names", "Words", "choose", "player_phrase"]
