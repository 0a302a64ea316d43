"""Golden images: the representative states and the command that regenerates them.

Run from the repository root (test support: it writes into tests/, so it is not part of
the shipped ``cards_art`` package)::

    python -m tests.golden_make            # rewrite tests/golden/*.png
    python -m tests.golden_make OUTDIR     # write them elsewhere (to look at them)

``tests/test_cards_art_golden.py`` renders the same states and compares them with the
stored PNGs, pixel by pixel, with a small tolerance (font rasterizing may differ by a
shade between FreeType versions). Regenerate after an intended visual change, look at
the new pictures, and commit them with the change.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from cards_art import (
    DeckStyle,
    RenderedImage,
    Wild,
    render_hole_cards,
    render_ledger,
    render_reveal,
    render_showdown,
    render_standings,
    render_table,
    samples,
)

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

CASES: dict[str, Callable[[], RenderedImage]] = {
    "holdem_2": lambda: render_table(samples.holdem(2)),
    "holdem_6": lambda: render_table(samples.holdem(6)),
    "holdem_10": lambda: render_table(samples.holdem(10)),
    "holdem_10_odd_names": lambda: render_table(samples.holdem_odd_names()),
    # The table's language: every word from the catalogue; the game and the street as a
    # presenter would pass them.
    "holdem_6_de": lambda: render_table(samples.holdem_words("Texas Hold'em", "Flop"), locale="de"),
    "holdem_6_ru": lambda: render_table(
        samples.holdem_words("Техасский холдем", "Флоп"), locale="ru"
    ),
    "stud_7": lambda: render_table(samples.stud7()),
    "draw_5": lambda: render_table(samples.draw5()),
    "showdown_split": lambda: render_showdown(samples.showdown_split()),
    "showdown_split_ru": lambda: render_showdown(samples.showdown_split(), locale="ru"),
    "showdown_holdem": lambda: render_showdown(samples.showdown_holdem()),
    "showdown_declare": lambda: render_showdown(samples.showdown_declare()),
    # both runs, both boards, each with its readings and awards.
    "showdown_run_twice": lambda: render_showdown(samples.showdown_run_twice()),
    "showdown_double_board": lambda: render_showdown(samples.showdown_double_board()),
    "guts_legs": lambda: render_table(samples.guts_legs()),
    "reveal": lambda: render_reveal(samples.reveal()),
    "ledger": lambda: render_ledger(samples.ledger()),
    # A tournament's final standings: Cyrillic, accents, a name the fonts lack, a
    # shared place; in the reader's language.
    "standings": lambda: render_standings(samples.standings()),
    "standings_ru": lambda: render_standings(samples.standings(), locale="ru"),
    "hole_holdem": lambda: render_hole_cards(samples.HOLE_HOLDEM, caption="Your hand · Hold'em"),
    "hole_stud_wild": lambda: render_hole_cards(
        ("Qs", "4h", "Qd", "2c", "Xx"),
        deck=DeckStyle.FOUR_COLOUR,
        wild=Wild(ranks=("2",)),
        down=(True, True),
    ),
}


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else GOLDEN_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, make in CASES.items():
        image = make()
        (out / f"{name}.png").write_bytes(image.data)
        print(f"{out / name}.png  {image.width}x{image.height}  {len(image.data) // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
