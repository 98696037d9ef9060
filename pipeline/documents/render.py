"""Filling the templates: one A4 HTML page per paper, and index.html linking them all.

The templates (templates/<kind>.html.j2, sharing base.html.j2) are files a district may
change, or replace by a folder of its own (`--templates DIR`; a template it lacks is taken
from the package). Register text is escaped (autoescape): a name is printed, never run.
Amounts are written by pipeline.core.money (Rs 1,20,000.00) and dates day first (05-10-2026).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from pipeline.core.errors import PoundError
from pipeline.core.money import paise_text
from pipeline.core.months import day_text
from pipeline.core.script import has_kannada, marked
from pipeline.core.words import amount_words, kannada_digits
from pipeline.documents.i18n import check_lang, translations
from pipeline.documents.papers import KINDS, Paper, Scope, check_models, papers

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _day(d) -> str:
    return "" if d is None else day_text(d)


# The noun of each animal class of the registers (core/registers.py ANIMAL_CLASSES), one and more,
# through the catalogue (Kannada plural: CLDR's "one" for 0 and 1); "cattle" is counted in heads, as
# English counts it: "1 head of cattle", "3 head of cattle".
_NOUNS = {
    "cattle": lambda t, n: t.ngettext("head of cattle", "head of cattle", n),
    "calf": lambda t, n: t.ngettext("calf", "calves", n),
    "buffalo": lambda t, n: t.ngettext("buffalo", "buffaloes", n),
    "horse": lambda t, n: t.ngettext("horse", "horses", n),
    "mule": lambda t, n: t.ngettext("mule", "mules", n),
    "ass": lambda t, n: t.ngettext("ass", "asses", n),
    "pig": lambda t, n: t.ngettext("pig", "pigs", n),
    "sheep": lambda t, n: t.ngettext("sheep", "sheep", n),
    "goat": lambda t, n: t.ngettext("goat", "goats", n),
    "camel": lambda t, n: t.ngettext("camel", "camels", n),
    "elephant": lambda t, n: t.ngettext("elephant", "elephants", n),
}
_PLURALS = {"calf": "calves", "buffalo": "buffaloes", "ass": "asses", "sheep": "sheep"}


def animals(n, animal_class: str, lang: str = "en") -> str:
    """The noun for `n` animals of a class: 1 head of cattle, 2 sheep, 1 goat, 3 goats."""
    cls = str(animal_class or "").strip()
    if cls in _NOUNS:
        return _NOUNS[cls](translations(lang), 2 if n is None else int(n))
    if n is not None and int(n) == 1:
        return cls
    return _PLURALS.get(cls, f"{cls}s" if cls else cls)


def counted(n, animal_class: str, lang: str = "en") -> str:
    """`n` animals of a class in words: '1 head of cattle', '2 sheep', '4 buffaloes'."""
    return f"{'' if n is None else n} {animals(n, animal_class, lang)}".strip()


# the ground of a release as doc_release_receipts writes it (basis_text), through the catalogue
_BASIS = {
    "on payment of the fines and charges": lambda t: t.gettext("on payment of the fines and charges"),
    "on deposit of the fines and charges, the seizure being disputed":
        lambda t: t.gettext("on deposit of the fines and charges, the seizure being disputed"),
    "the cattle remaining after the sale": lambda t: t.gettext("the cattle remaining after the sale"),
    "by order of the court": lambda t: t.gettext("by order of the court"),
}


def basis(text, lang: str = "en") -> str:
    """A release's ground in the paper's language (as the model writes it when the catalogue lacks it)."""
    said = _BASIS.get(str(text or ""))
    return said(translations(lang)) if said else str(text or "")


_ROLE = re.compile(r"^(?P<name>[^()]*?)\s*\((?P<role>[^()]*)\)\s*$")


def signer(released_to, owner_name=None, lang: str = "en") -> str:
    """Who signs a release receipt, as the release records it (released_to): 'Puttaswamy (owner)'
    is 'Puttaswamy, the owner of the cattle'; 'Ravi (agent of Puttaswamy)' is 'Ravi, agent of
    Puttaswamy'; a name alone is the owner when it is the owner's name, else the register does not
    say which, and the receipt says 'owner of the cattle or his agent'. Blank when none is recorded."""
    t = translations(lang)
    text = str(released_to or "").strip()
    if not text:
        return ""
    m = _ROLE.match(text)
    name, role = (m["name"].strip(), m["role"].strip().lower()) if m else (text, "")
    if role == "owner" or (not role and owner_name and name.casefold() == str(owner_name).strip().casefold()):
        return t.gettext("%(name)s, the owner of the cattle") % {"name": name}
    if role.startswith("agent"):
        return f"{name}, {m['role'].strip()}" if role != "agent" else t.gettext("%(name)s, agent of the owner") % {"name": name}
    if role:
        return f"{name} ({m['role'].strip()})"
    return t.gettext("%(name)s, owner of the cattle or his agent") % {"name": name}


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _english_in_kannada(text) -> str:
    """Register text on a Kannada paper: as marked() writes it, in <span lang="en"> when it has words in
    English letters and no Kannada (a name written in English is read as English)."""
    html = marked(text)
    if text is None or not _LATIN_WORD.search(str(text)) or has_kannada(text):
        return html
    return f'<span lang="en">{html}</span>'


def environment(templates: Path | None = None, lang: str = "en", digits: bool = False) -> Environment:
    """The templates' environment for papers in one language (en or kn), its sentences from the
    catalogue (i18n.py); `digits` writes the figures in Kannada digits."""
    loaders = [FileSystemLoader(str(TEMPLATES))]
    if templates is not None:
        if not Path(templates).is_dir():
            raise PoundError(f"--templates {templates} is not a folder of templates")
        loaders.insert(0, FileSystemLoader(str(templates)))
    env = Environment(loader=ChoiceLoader(loaders), autoescape=select_autoescape(default=True,
                      default_for_string=True), undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      extensions=["jinja2.ext.i18n"])
    env.policies["ext.i18n.trimmed"] = True      # a sentence's line breaks in a template are not in its msgid
    env.install_gettext_translations(translations(lang), newstyle=True)
    figure = kannada_digits if digits else str
    currency = "ರೂ. " if lang == "kn" else "Rs "
    env.filters["money"] = lambda p: "" if p is None else figure(currency + paise_text(int(p), grouping=True))
    env.filters["words"] = lambda p: amount_words(p, "kn" if lang == "kn" else "en")
    env.filters["day"] = lambda d: figure(_day(d))
    env.filters["num"] = lambda v: "" if v is None else figure(str(v))
    env.filters["animals"] = lambda n, c: animals(n, c, lang)
    env.filters["counted"] = lambda n, c: figure(counted(n, c, lang))
    env.filters["signer"] = lambda who, owner=None: signer(who, owner, lang)
    env.filters["basis"] = lambda text: basis(text, lang)
    env.filters["mark"] = lambda text: Markup(marked(text))     # Kannada as lang="kn", ids and dates whole (core/script.py)
    if lang == "kn":      # on a Kannada paper, register text in English letters (a name, a place) is English
        env.filters["mark"] = lambda text: Markup(_english_in_kannada(text))
    env.globals["lang"] = lang
    return env


def _stale_banner(con) -> str:
    """A line on the face of every paper when files were loaded after the figures were built."""
    from html import escape

    from pipeline.build import record

    notice = record.stale_notice(con)
    if not notice:
        return ""
    return ('<p class="pound-stale" role="alert" style="border:2px solid #000;padding:4px;font-weight:bold">'
            f"{escape(notice)}</p>")


def _marked(page: str, banner: str) -> str:
    """The page with `banner` first in its body."""
    if not banner:
        return page
    at = re.search(r"<body[^>]*>", page)
    return page[:at.end()] + banner + page[at.end():] if at else banner + page


@dataclass(frozen=True)
class Written:
    paper: Paper
    path: Path


# the papers the public reads, written in the language asked for; the police report, the findings
# memo and the index are the officials' own, and stay in English
PUBLIC = ("notice", "release_receipt", "owner_account", "security_receipt")
_MAIN = re.compile(r"(<main[^>]*>)(.*)(</main>)", re.S)
_PAGE_NUMBER = re.compile(r'content: "([^"]*) " counter\(page\) " [^"]* " counter\(pages\);')


def _both(kn: str, en: str) -> str:
    """One page of a paper in Kannada first and English below: the Kannada page (lang="kn"), its
    <main> followed by the English one's, that one marked lang="en"."""
    english = _MAIN.search(en)
    at = _MAIN.search(kn)
    if not english or not at:
        return kn
    both = (kn[:at.end(2)] + '\n<hr class="lang-break">\n<div lang="en" class="in-english">' + english.group(2)
            + "</div>\n" + kn[at.end(2):])
    # the page number, printed on the English sheets too, in both languages ("ಪುಟ / page 2 / 2")
    k, e = _PAGE_NUMBER.search(both), _PAGE_NUMBER.search(en)
    if k and e and k.group(1) != e.group(1):
        both = (both[:k.start()] + f'content: "{k.group(1)} / {e.group(1)} " counter(page) " / " counter(pages);'
                + both[k.end():])
    return both


def _languages(lang: str) -> tuple[str, ...]:
    """The languages a paper is rendered in, the first the page's own."""
    return {"en": ("en",), "kn": ("kn",), "both": ("kn", "en")}[check_lang(lang)]


def write_papers(con, out: Path, scope: Scope, templates: Path | None = None, as_of=None,
                 pdf: bool = False, lang: str = "en", digits: bool = False) -> list[Written]:
    """Every paper in scope as out/<name>.html, then out/index.html, a table of them (kind, case,
    pound, owner, date) linking each; with `pdf` (they are to be printed), each one's PDF and the
    combined <kind>_all.pdf too. `lang` is en, kn or both (Kannada first, English below); `digits`
    writes the Kannada papers' figures in Kannada digits. Returns what was written."""
    check_models(con)
    langs = _languages(lang)
    envs = {code: environment(templates, code, digits and code == "kn") for code in langs}
    env = environment(templates)        # the index, in English
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Written] = []
    stale = _stale_banner(con)
    for kind in KINDS:
        codes = langs if kind.name in PUBLIC else ("en",)
        for paper in papers(con, kind, scope):
            pages = [(envs.get(code) or env).get_template(f"{kind.name}.html.j2").render(
                paper=paper, row=paper.first, rows=paper.rows, as_of=as_of,
                selection=json.dumps(paper.selection, sort_keys=True)) for code in codes]
            html = pages[0] if len(pages) == 1 else _both(*pages)
            path = out / f"{paper.name}.html"
            path.write_text(_marked(html, stale), encoding="utf-8")
            written.append(Written(paper, path))
    index = env.get_template("index.html.j2").render(
        kinds=[(k, [w for w in written if w.paper.kind is k]) for k in KINDS], as_of=as_of, pdf=pdf)
    (out / "index.html").write_text(_marked(index, stale), encoding="utf-8")
    return written
