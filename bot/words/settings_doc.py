"""docs/settings.md, written from the one declaration of settings (bot/table/settings.py)
in English, through the English catalogue: each setting's label, its allowed values and
the games it applies to are the words players read (``settings.po``).

Regenerate with ``python -m bot.words.settings_doc > docs/settings.md``;
``tests/test_settings_declaration.py`` fails when the file is stale.
"""

from __future__ import annotations

from typing import Final

from bot.poker.messages import Msg, msg
from bot.table.settings import ENGINE_INTERNAL, Setting, allowed_said, declared
from bot.words.render import render

INTERNAL_WHY: Final[dict[str, str]] = {
    # Rules field: why it is not a table setting of its own (the table fills it in).
    "variant": "the deal's game: variant, rotation or the dealer's choice (R-16.2)",
    "limit": "the deal's structure: the limit setting or the game's convention (R-16.9)",
    "blinds_or_straddles": "small_blind and big_blind at the deal's blind positions",
    "antes": "ante and ante_mode, per player dealt in (R-3.1)",
    "dead_posts": "missed blinds posted dead this deal (R-1.4, R-1.6)",
    "bring_in": "the table's bring_in setting (0: half the small bet, R-3.5)",
    "small_bet": "the table's small_bet setting (0: the big blind)",
    "big_bet": "the table's big_bet setting (0: twice the small bet)",
    "spread_max_late": "not offered at tables: spread limit uses big_bet on every street",
    "unit": "not offered at tables: bets and raises go in single chips",
    "limit_scale": "not offered at tables: a straddle or kill does not scale fixed limits",
    "showdown": "not offered at tables: the table always shows down automatically",
    "bomb_pot_ante": "set on the deals the table makes bomb pots (bomb_pot_every, R-20.11)",
    "double_board": "set on a bomb pot from the table's double_board setting (R-20.5)",
}
"""For the docs, why each of :data:`ENGINE_INTERNAL` is no setting (the same names)."""


def _en(m: Msg) -> str:
    return render(m, "en")


def _default(setting: Setting) -> str:
    default = setting.default
    if default is None:
        return "none"
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, tuple):
        return ", ".join(default) or "none"
    return f"{default}" if default != "" else "(derived)"


def settings_markdown() -> str:
    """docs/settings.md, written from the declaration (a test keeps the file equal)."""
    lines = [
        "# Table settings",
        "",
        "Generated from the one declaration in `bot/table/settings.py` (the table's own",
        "settings, then every option of the engine's `Rules` the table does not fill in",
        "itself), in the words of the English catalogue (`bot/words/locales/*/settings.po`);",
        "`tests/test_settings_declaration.py` fails when this file is stale.",
        "Regenerate with `python -m bot.words.settings_doc > docs/settings.md`.",
        "",
        "Change one with `set NAME=VALUE` at the terminal or `/table settings` on Discord.",
        "",
        "| setting | in words | default | allowed | engine option | applies to |",
        "|---|---|---|---|---|---|",
    ]
    for name, s in declared().items():
        engine = f"`{'.'.join(s.path)}`" if s.engine else ""
        games = "" if s.games_said is None else _en(s.games_said)
        said = allowed_said(s.hint, s.range)
        if s.zero_said is not None:
            said = msg("settings.allowed.zero", allowed=said, zero=s.zero_said)
        allowed = _en(said)
        lines.append(
            f"| `{name}` | {_en(s.label)} | {_default(s)} | {allowed} | {engine} | {games} |"
        )
    lines += [
        "",
        "## Engine options the table fills in per deal",
        "",
        "These `Rules` fields are not settings of their own:",
        "",
    ]
    assert set(INTERNAL_WHY) == ENGINE_INTERNAL, "say why each internal field is no setting"
    lines += [f"- `{name}`: {why}" for name, why in INTERNAL_WHY.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(settings_markdown(), end="")
