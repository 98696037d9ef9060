"""Kannada shaped as it is read: words with conjuncts drawn by Chromium with Noto Sans Kannada,
compared with reference images (tests/documents/reference/, made by this test with
POUND_UPDATE_REFERENCE=1 and looked at before they were committed). A word drawn with its conjuncts
broken (a zero-width non-joiner after each virama) must not pass for the reference."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pngs import differing, inked

REFERENCE = Path(__file__).resolve().parent / "reference"
WORDS = {"rashtra": "ರಾಷ್ಟ್ರ", "shastra": "ಶಾಸ್ತ್ರ", "kondavade": "ಕೊಂಡವಾಡೆ"}
ZWNJ = "\u200c"


def _page(tmp_path: Path, word: str) -> Path:
    page = tmp_path / "word.html"
    page.write_text(
        '<!DOCTYPE html><html lang="kn"><head><meta charset="utf-8"><title>ಪದ</title><style>'
        "html, body { margin: 0; background: #fff; color: #000; }"
        "#w { display: inline-block; padding: 8px; font: 48px/1.4 'Noto Sans Kannada'; }"
        f'</style></head><body><main><p id="w">{word}</p></main></body></html>', encoding="utf-8")
    return page


def _shot(browser, tmp_path: Path, word: str) -> bytes:
    page, _, _ = browser.open(_page(tmp_path, word), charts=False,
                              context_args={"viewport": {"width": 400, "height": 200}, "device_scale_factor": 1})
    try:
        page.evaluate("document.fonts.ready")
        return page.locator("#w").screenshot()
    finally:
        page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(WORDS))
def test_conjuncts_are_drawn_as_the_reference(browser, tmp_path, name):
    word = WORDS[name]
    shot = _shot(browser, tmp_path, word)
    reference = REFERENCE / f"{name}.png"
    if os.environ.get("POUND_UPDATE_REFERENCE") == "1":
        REFERENCE.mkdir(exist_ok=True)
        reference.write_bytes(shot)
    assert inked(shot) > 300, "nothing drawn"
    assert differing(shot, reference.read_bytes()) < 0.02, f"{name} is drawn differently from {reference}"
    if "\u0ccd" in word:
        broken = _shot(browser, tmp_path, word.replace("\u0ccd", "\u0ccd" + ZWNJ))
        assert differing(broken, reference.read_bytes()) >= 0.02, "the comparison cannot tell broken conjuncts"
