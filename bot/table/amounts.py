"""The words players type for amounts and actions, in every language Chipfist speaks.

One vocabulary for every way in: typed actions (:mod:`bot.table.text_actions`, the
terminal, Discord's ``/draw``) and the raise modal's amount field (``half``, ``½``,
``all``, ``minimum``...): the English action words (:data:`ACTION_WORDS`), the amount
words (:data:`AMOUNT_WORDS`) and every other language's words (:data:`SPOKEN`). A
German player types ``erhöhen auf 40``, a French one ``relancer à 40``, a Russian one
``рейз до 40``: each is read as the English phrase it stands for (``raise to 40``) and
parsed once, by the same rules (R-6.2 string raises, R-6.3 "raise" means "by"). Every
language's words are accepted at every table: a word means one thing in all of them
(``test_no_word_means_two_things``).

>>> in_english("erhöhen auf 40"), in_english("se coucher"), in_english("рейз на 20")
('raise to 40', 'fold', 'raise by 20')
>>> amount_word("Hälfte"), amount_word("½"), amount_word("tapis"), amount_word("40")
('half_pot', 'half_pot', 'all_in', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

RequestKind = Literal[
    "check",
    "call",
    "fold",
    "bet",
    "raise_by",
    "raise_to",
    "all_in",
    "pot",
    "half_pot",
    "min",
    "max",
    "bring_in",
    "complete",
    "draw",
    "declare",
    "guts_in",
    "guts_out",
    "show",
    "muck",
    "run_twice_yes",
    "run_twice_no",
]
"""What a typed action asks for (``text_actions.ActionRequest.kind``)."""

AmountKind: TypeAlias = Literal["min", "max", "half_pot", "pot", "all_in"]
"""The requests an amount word names (each one a :data:`RequestKind`)."""

AMOUNT_WORDS: Final[Mapping[str, AmountKind]] = MappingProxyType(
    {
        "min": "min",
        "minimum": "min",
        "max": "max",
        "maximum": "max",
        "half": "half_pot",
        "½": "half_pot",
        "half pot": "half_pot",
        "half-pot": "half_pot",
        "½ pot": "half_pot",
        "pot": "pot",
        "all": "all_in",
        "all in": "all_in",
        "all-in": "all_in",
        "allin": "all_in",
    }
)
"""The amount words in English (the raise modal's field, and typed actions): the other
languages' words are read as these."""

# Per language: what a player types -> the English phrase it means. A phrase is matched
# at the start of the line, as whole words (so "mitgehen und erhöhen auf 80" starts as a
# call: ), and the rest of the line (an amount, cards) follows it unchanged.
SPOKEN: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {
        "de": {
            # the run-it-twice answer.
            "zweimal": "twice",
            "einmal": "once",
            "checken": "check",
            "checke": "check",
            "schieben": "check",
            "schiebe": "check",
            "klopfen": "check",
            "mitgehen": "call",
            "gehe mit": "call",
            "ich gehe mit": "call",
            "callen": "call",
            "aussteigen": "fold",
            "steige aus": "fold",
            "ich steige aus": "fold",
            "folden": "fold",
            "passen": "fold",
            "setzen": "bet",
            "setze": "bet",
            "erhöhen auf": "raise to",
            "erhöhe auf": "raise to",
            "erhöhen um": "raise by",
            "erhöhe um": "raise by",
            "erhöhen": "raise",
            "erhöhe": "raise",
            "alles": "all in",
            "halber pot": "half pot",
            "hälfte": "half",
            "die hälfte": "half",
            "ziehen": "draw",
            "tauschen": "draw",
            "bringen": "bring in",
            "zeigen": "show",
            "verdecken": "muck",
            "komplettieren": "complete",
            "komplettiere": "complete",
            "ansagen": "declare",
            "drin": "in",
            "raus": "out",
        },
        "fr": {
            # the run-it-twice answer.
            "deux fois": "twice",
            "une fois": "once",
            "parole": "check",
            "checker": "check",
            "je passe": "check",
            "suivre": "call",
            "je suis": "call",
            "suis": "call",
            "payer": "call",
            "se coucher": "fold",
            "je me couche": "fold",
            "coucher": "fold",
            "miser": "bet",
            "mise": "bet",
            "je mise": "bet",
            "relancer à": "raise to",
            "relance à": "raise to",
            "relancer de": "raise by",
            "relance de": "raise by",
            "relancer": "raise",
            "relance": "raise",
            "tapis": "all in",
            "faire tapis": "all in",
            "je fais tapis": "all in",
            "demi-pot": "half pot",
            "demi pot": "half pot",
            "moitié": "half",
            "la moitié": "half",
            "tirer": "draw",
            "changer": "draw",
            "montrer": "show",
            "jeter": "muck",
            "compléter": "complete",
            "completer": "complete",
            "annoncer": "declare",
            "dedans": "in",
            "dehors": "out",
        },
        "es": {
            # the run-it-twice answer.
            "dos veces": "twice",
            "una vez": "once",
            "pasar": "check",
            "paso": "check",
            "igualar": "call",
            "igualo": "call",
            "ver": "call",
            "veo": "call",
            "retirarse": "fold",
            "me retiro": "fold",
            "retirar": "fold",
            "tirar": "fold",
            "apostar": "bet",
            "apuesto": "bet",
            "subir a": "raise to",
            "subo a": "raise to",
            "subir en": "raise by",
            "subo en": "raise by",
            "subir": "raise",
            "subo": "raise",
            "resto": "all in",
            "voy all in": "all in",
            "medio bote": "half pot",
            "medio pote": "half pot",
            "mitad": "half",
            "la mitad": "half",
            "bote": "pot",
            "pote": "pot",
            "mínimo": "min",
            "máximo": "max",
            "descartar": "draw",
            "mostrar": "show",
            "completar": "complete",
            "declarar": "declare",
            "dentro": "in",
            "fuera": "out",
        },
        "pt_BR": {
            # the run-it-twice answer.
            "duas vezes": "twice",
            "uma vez": "once",
            "passar": "check",
            "passo": "check",
            "mesa": "check",
            "pagar": "call",
            "pago": "call",
            "desistir": "fold",
            "desisto": "fold",
            "correr": "fold",
            "corro": "fold",
            "apostar": "bet",
            "aposto": "bet",
            "aumentar para": "raise to",
            "aumento para": "raise to",
            "aumentar em": "raise by",
            "aumento em": "raise by",
            "aumentar": "raise",
            "aumento": "raise",
            "tudo": "all in",
            "meio pote": "half pot",
            "metade": "half",
            "pote": "pot",
            "mínimo": "min",
            "máximo": "max",
            "trocar": "draw",
            "descartar": "draw",
            "mostrar": "show",
            "completar": "complete",
            "declarar": "declare",
            "dentro": "in",
            "fora": "out",
            "muckar": "muck",
        },
        "ru": {
            # the run-it-twice answer.
            "дважды": "twice",
            "один раз": "once",
            "чек": "check",
            "чекаю": "check",
            "колл": "call",
            "коллирую": "call",
            "уравнять": "call",
            "уравниваю": "call",
            "фолд": "fold",
            "пас": "fold",
            "сбросить": "fold",
            "сбрасываю": "fold",
            "бет": "bet",
            "ставка": "bet",
            "ставлю": "bet",
            "рейз до": "raise to",
            "рейз на": "raise by",
            "рейз": "raise",
            "повысить до": "raise to",
            "повышаю до": "raise to",
            "повысить на": "raise by",
            "повышаю на": "raise by",
            "олл-ин": "all in",
            "олл ин": "all in",
            "олин": "all in",
            "ва-банк": "all in",
            "ва банк": "all in",
            "пол банка": "half pot",
            "полбанка": "half pot",
            "пол пота": "half pot",
            "полпота": "half pot",
            "половина": "half",
            "банк": "pot",
            "пот": "pot",
            "минимум": "min",
            "мин": "min",
            "максимум": "max",
            "макс": "max",
            "обмен": "draw",
            "поменять": "draw",
            "показать": "show",
            "бринг-ин": "bring in",
            "комплит": "complete",
            "объявить": "declare",
            "играю": "in",
            "выхожу": "out",
            "не показывать": "muck",
        },
    }
)


ACTION_WORDS: Final[Mapping[str, RequestKind]] = MappingProxyType(
    {
        "check": "check",
        "x": "check",
        "pass": "check",
        "call": "call",
        "c": "call",
        "fold": "fold",
        "f": "fold",
        "all in": "all_in",
        "allin": "all_in",
        "all-in": "all_in",
        "shove": "all_in",
        "pot": "pot",
        "half pot": "half_pot",
        "half-pot": "half_pot",
        "bring in": "bring_in",
        "bring-in": "bring_in",
        "bringin": "bring_in",
        "complete": "complete",
        "jam": "all_in",
        "push": "all_in",
        "bet pot": "pot",
        "raise pot": "pot",
        "pot bet": "pot",
        "bet half pot": "half_pot",
        "raise half pot": "half_pot",
        "min": "min",
        "min raise": "min",
        "minraise": "min",
        "min bet": "min",
        "raise min": "min",
        "bet min": "min",
        "max": "max",
        "max raise": "max",
        "max bet": "max",
        "raise max": "max",
        "bet max": "max",
        "stand pat": "draw",
        "standpat": "draw",
        "stand-pat": "draw",
        "pat": "draw",
        "stay pat": "draw",
        "keep all": "draw",
        "show": "show",
        "muck": "muck",
        # the answer to running the rest of the board twice.
        "run twice yes": "run_twice_yes",
        "run twice no": "run_twice_no",
        "run it twice": "run_twice_yes",
        "run it once": "run_twice_no",
        "run once": "run_twice_no",
        "twice": "run_twice_yes",
        "once": "run_twice_no",
        # The amount words the raise modal takes ("half", "½", "all", "minimum"...): one
        # vocabulary for every way in.
        **AMOUNT_WORDS,
    }
)
"""The English action words of typed actions (every language's words arrive as these
through :func:`in_english`), the amount words among them."""


AMOUNT_KINDS: Final[tuple[AmountKind, ...]] = ("min", "max", "half_pot", "pot", "all_in")
"""The amount words in the order the raise modal lists them; each language says them
with its ``input.word.<kind>`` catalogue entry, a word :func:`amount_word` reads."""

# The English phrases typed actions are read as (every language's words arrive here
# through :func:`in_english`), besides the action and amount words of ``text_actions``.
PRONOUN: Final = re.compile(r"^(i|i'll|ill|i will)\s+(?=\S)")
"""A pronoun before the action ("I fold", "I'll call") changes nothing."""
BARE_RAISE: Final = frozenset({"raise", "r", "raise to"})
"""A raise with no amount (the table asks how much, or takes the one fixed amount)."""
GUTS: Final[Mapping[str, Literal["guts_in", "guts_out"]]] = MappingProxyType(
    {
        "in": "guts_in",
        "stay": "guts_in",
        "stay in": "guts_in",
        "i'm in": "guts_in",
        "out": "guts_out",
        "drop": "guts_out",
        "i'm out": "guts_out",
    }
)
"""Guts (R-15.2): in or out."""
DECLARE: Final[Mapping[str, Literal["low", "high", "both"]]] = MappingProxyType(
    {
        "low": "low",
        "high": "high",
        "both": "both",
        "hi": "high",
        "lo": "low",
        "pig": "both",
        "swing": "both",
        "hi-lo": "both",
        "high low": "both",
    }
)
"""Hi-lo declarations (R-13.1), with or without ``declare`` / ``go`` before them."""
DECLARE_LINE: Final = re.compile(
    r"(?:declare\s+|go\s+)?("
    + "|".join(re.escape(w) for w in sorted(DECLARE, key=len, reverse=True))
    + ")"
)


def _merged() -> dict[str, str]:
    out: dict[str, str] = {}
    for words in SPOKEN.values():
        for said, meant in words.items():
            if out.get(said, meant) != meant:  # pragma: no cover - the test holds it
                raise ValueError(f"{said!r} means both {out[said]!r} and {meant!r}")
            out[said] = meant
    return out


_ENGLISH: Final[dict[str, str]] = _merged()
_LEADING: Final = re.compile(
    r"^(?:"
    + "|".join(re.escape(w) for w in sorted(_ENGLISH, key=len, reverse=True))
    + r")(?=$|[\s,.…;!?])"
)


def _normal(text: str) -> str:
    return " ".join(text.strip().lower().split())


def in_english(text: str) -> str:
    """``text`` (lower case, spaces squeezed) with the phrase it starts with in another
    language said in English; text in English, or not understood, is left as it is."""
    t = _normal(text)
    m = _LEADING.match(t)
    if m is None:
        return t
    return _ENGLISH[m.group(0)] + t[m.end() :]


def amount_word(text: str) -> AmountKind | None:
    """The request an amount word names (``half``, ``½``, ``all``, ``minimum``, and
    their equivalents in every language), or None for anything else."""
    return AMOUNT_WORDS.get(in_english(text).rstrip(".!"))


__all__ = [
    "ACTION_WORDS",
    "AMOUNT_KINDS",
    "AMOUNT_WORDS",
    "BARE_RAISE",
    "DECLARE",
    "DECLARE_LINE",
    "GUTS",
    "PRONOUN",
    "SPOKEN",
    "AmountKind",
    "RequestKind",
    "amount_word",
    "in_english",
]
