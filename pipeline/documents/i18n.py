"""The languages of the papers: their sentences through gettext catalogues, their figures as the reader expects.

The templates' sentences are marked for translation ({% trans %} and _() of Jinja's i18n
extension); the Kannada catalogue is locale/kn/LC_MESSAGES/papers.po, a text file a translator
edits, read and compiled in memory each time papers are written (Babel), so no binary .mo is
kept. English is the text of the templates themselves. `python -m pipeline.tools.papers_catalogue
--check` says whether the catalogue holds every sentence of the templates.

A paper is written in one language (en, kn) or in both: Kannada first, English below it
(render.write_papers). Amounts keep Indian digit groups in both (1,20,000.00), dates day first;
each amount a person pays or receives has its words under it (core/words.py). Kannada digits
(೧,೨೦,೦೦೦.೦೦) are a setting, off by default.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from pipeline.core.errors import PoundError

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "papers"
LANGS = ("en", "kn", "both")
# CLDR's plural rule for Kannada: "one" for i = 0 or n = 1, "other" for the rest
KN_PLURAL_FORMS = "nplurals=2; plural=(n==0 || n==1) ? 0 : 1;"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise PoundError(f"the papers' language must be one of {', '.join(LANGS)}, not {lang!r}")
    return lang


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of `lang` compiled in memory; English is the templates' own text."""
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    path = po_path(lang)
    if not path.exists():
        raise PoundError(f"no catalogue of the papers for {lang!r} ({path})")
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)
