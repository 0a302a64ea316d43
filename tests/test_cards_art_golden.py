"""Golden-image tests: representative pictures compared with tests/golden/*.png.

Regenerate (after an intended visual change, then look at them):
    python -m tests.golden_make
or  CHIPFIST_REGEN_GOLDEN=1 python -m pytest tests/test_cards_art_golden.py
"""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image, ImageChops

from tests.golden_make import CASES, GOLDEN_DIR

# A shade of difference on glyph edges is tolerated (FreeType versions rasterize a
# little differently); a moved or missing element changes far more pixels than this.
PIXEL_THRESHOLD = 40  # per-channel difference that counts a pixel as changed
MAX_CHANGED_FRACTION = 0.002


def _changed_fraction(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    changed = diff.point(lambda v: 255 if v > PIXEL_THRESHOLD else 0).histogram()[255]
    return changed / (a.width * a.height)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    rendered = CASES[name]()
    path = GOLDEN_DIR / f"{name}.png"
    if os.environ.get("CHIPFIST_REGEN_GOLDEN") == "1":
        path.write_bytes(rendered.data)
        pytest.skip("golden regenerated")
    assert path.exists(), f"missing golden {path}; run python -m tests.golden_make"
    got = Image.open(io.BytesIO(rendered.data))
    want = Image.open(path)
    assert got.size == want.size, f"{name}: size {got.size} != golden {want.size}"
    fraction = _changed_fraction(got, want)
    if fraction > MAX_CHANGED_FRACTION:
        got.save(path.with_suffix(".actual.png"))
    assert fraction <= MAX_CHANGED_FRACTION, (
        f"{name}: {fraction:.2%} of pixels differ; see {path.with_suffix('.actual.png')}"
    )


def test_golden_comparison_detects_a_change() -> None:
    """The tolerance is tight enough that one moved card fails the comparison."""
    base = Image.open(io.BytesIO(CASES["holdem_6"]().data)).convert("RGB")
    changed = base.copy()
    changed.paste((255, 255, 255), (400, 200, 466, 292))
    assert _changed_fraction(base, base) == 0
    assert _changed_fraction(base, changed) > MAX_CHANGED_FRACTION
