"""The papers' sentences in gettext catalogues: the Kannada one whole, its plural rule CLDR's, compiled in memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipeline.documents import i18n
from pipeline.documents.render import animals, counted, signer

ROOT = Path(__file__).resolve().parents[2]


def test_the_kannada_catalogue_holds_every_sentence_of_the_papers():
    done = subprocess.run([sys.executable, "-m", "pipeline.tools.papers_catalogue", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "complete" in done.stdout


def test_the_check_fails_on_a_sentence_left_out(monkeypatch):
    from pipeline.tools import papers_catalogue as pc

    cat = pc.read("kn")
    wanted = pc.extracted()
    wanted.add("A sentence no one has translated")
    assert pc.problems(cat, wanted) == ["missing: 'A sentence no one has translated'"]
    cat.add("A sentence no one has translated", "")
    assert pc.problems(cat, wanted) == ["not translated: 'A sentence no one has translated'"]


def test_no_binary_catalogue_is_kept():
    assert not list((ROOT / "pipeline" / "documents" / "locale").rglob("*.mo"))


def test_kannada_plural_is_cldrs_one_for_zero_and_one():
    t = i18n.translations("kn")
    assert t.ngettext("calf", "calves", 0) == "ಕರು"
    assert t.ngettext("calf", "calves", 1) == "ಕರು"
    assert t.ngettext("calf", "calves", 2) == "ಕರುಗಳು"
    assert i18n.po_path("kn").read_text(encoding="utf-8").count(i18n.KN_PLURAL_FORMS) == 1


def test_nouns_and_signers_in_both_languages():
    assert counted(1, "cattle") == "1 head of cattle" and counted(3, "buffalo") == "3 buffaloes"
    assert animals(2, "sheep") == "sheep" and animals(1, "goat") == "goat"
    assert counted(3, "cattle", "kn") == "3 ದನಗಳು" and counted(1, "goat", "kn") == "1 ಮೇಕೆ"
    assert signer("Puttaswamy (owner)") == "Puttaswamy, the owner of the cattle"
    assert signer("Puttaswamy (owner)", lang="kn") == "Puttaswamy, ದನಗಳ ಮಾಲೀಕರು"
