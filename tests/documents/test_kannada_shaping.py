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


def _page(folder: Path, name: str, word: str) -> Path:
    page = folder / f"{name}.html"
    page.write_text(
        '<!DOCTYPE html><html lang="kn"><head><meta charset="utf-8"><title>ಪದ</title><style>'
        "html, body { margin: 0; background: #fff; color: #000; }"
        "#w { display: inline-block; padding: 8px; font: 48px/1.4 'Noto Sans Kannada'; }"
        f'</style></head><body><main><p id="w">{word}</p></main></body></html>', encoding="utf-8")
    return page


@pytest.fixture(scope="module")
def tab(browser):
    """One tab of an offline context 400 x 200 px at one device pixel a pixel, for the module: each word's page
    is taken to in it in turn (a context and a tab of its own for each word drew the same pixels)."""
    page = browser.tab(context_args={"viewport": {"width": 400, "height": 200}, "device_scale_factor": 1})
    yield page
    page.context.close()


def _shot(tab, tmp_path: Path, name: str, word: str) -> bytes:
    tab.goto(_page(tmp_path, name, word).as_uri(), wait_until="load")
    tab.evaluate("document.fonts.ready")
    return tab.locator("#w").screenshot()


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(WORDS))
def test_conjuncts_are_drawn_as_the_reference(tab, tmp_path, name):
    word = WORDS[name]
    shot = _shot(tab, tmp_path, name, word)
    reference = REFERENCE / f"{name}.png"
    if os.environ.get("POUND_UPDATE_REFERENCE") == "1":
        REFERENCE.mkdir(exist_ok=True)
        reference.write_bytes(shot)
    assert inked(shot) > 300, "nothing drawn"
    assert differing(shot, reference.read_bytes()) < 0.02, f"{name} is drawn differently from {reference}"
    if "\u0ccd" in word:
        broken = _shot(tab, tmp_path, f"{name}-broken", word.replace("\u0ccd", "\u0ccd" + ZWNJ))
        assert differing(broken, reference.read_bytes()) >= 0.02, "the comparison cannot tell broken conjuncts"
