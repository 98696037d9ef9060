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
from pipeline.core.money import rs
from pipeline.core.months import day_text
from pipeline.core.script import marked
from pipeline.documents.papers import KINDS, Paper, Scope, check_models, papers

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _money(paise) -> str:
    return "" if paise is None else rs(int(paise))


def _day(d) -> str:
    return "" if d is None else day_text(d)


# The plural of each animal class of the registers (core/registers.py ANIMAL_CLASSES); "cattle"
# is counted in heads, as English counts it: "1 head of cattle", "3 head of cattle".
_PLURALS = {"calf": "calves", "buffalo": "buffaloes", "ass": "asses", "sheep": "sheep"}


def animals(n, animal_class: str) -> str:
    """The noun for `n` animals of a class: 1 head of cattle, 2 sheep, 1 goat, 3 goats."""
    cls = str(animal_class or "").strip()
    if cls == "cattle":
        return "head of cattle"
    if n is not None and int(n) == 1:
        return cls
    return _PLURALS.get(cls, f"{cls}s" if cls else cls)


def counted(n, animal_class: str) -> str:
    """`n` animals of a class in words: '1 head of cattle', '2 sheep', '4 buffaloes'."""
    return f"{'' if n is None else n} {animals(n, animal_class)}".strip()


_ROLE = re.compile(r"^(?P<name>[^()]*?)\s*\((?P<role>[^()]*)\)\s*$")


def signer(released_to, owner_name=None) -> str:
    """Who signs a release receipt, as the release records it (released_to): 'Puttaswamy (owner)'
    is 'Puttaswamy, the owner of the cattle'; 'Ravi (agent of Puttaswamy)' is 'Ravi, agent of
    Puttaswamy'; a name alone is the owner when it is the owner's name, else the register does not
    say which, and the receipt says 'owner of the cattle or his agent'. Blank when none is recorded."""
    text = str(released_to or "").strip()
    if not text:
        return ""
    m = _ROLE.match(text)
    name, role = (m["name"].strip(), m["role"].strip().lower()) if m else (text, "")
    if role == "owner" or (not role and owner_name and name.casefold() == str(owner_name).strip().casefold()):
        return f"{name}, the owner of the cattle"
    if role.startswith("agent"):
        return f"{name}, {m['role'].strip()}" if role != "agent" else f"{name}, agent of the owner"
    if role:
        return f"{name} ({m['role'].strip()})"
    return f"{name}, owner of the cattle or his agent"


def environment(templates: Path | None = None) -> Environment:
    loaders = [FileSystemLoader(str(TEMPLATES))]
    if templates is not None:
        if not Path(templates).is_dir():
            raise PoundError(f"--templates {templates} is not a folder of templates")
        loaders.insert(0, FileSystemLoader(str(templates)))
    env = Environment(loader=ChoiceLoader(loaders), autoescape=select_autoescape(default=True,
                      default_for_string=True), undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["money"] = _money
    env.filters["day"] = _day
    env.filters["animals"] = animals
    env.filters["counted"] = counted
    env.filters["signer"] = signer
    env.filters["mark"] = lambda text: Markup(marked(text))     # Kannada as lang="kn", ids and dates whole (core/script.py)
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


def write_papers(con, out: Path, scope: Scope, templates: Path | None = None, as_of=None,
                 pdf: bool = False) -> list[Written]:
    """Every paper in scope as out/<name>.html, then out/index.html, a table of them (kind, case,
    pound, owner, date) linking each; with `pdf` (they are to be printed), each one's PDF and the
    combined <kind>_all.pdf too. Returns what was written."""
    check_models(con)
    env = environment(templates)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Written] = []
    stale = _stale_banner(con)
    for kind in KINDS:
        template = env.get_template(f"{kind.name}.html.j2")
        for paper in papers(con, kind, scope):
            html = template.render(paper=paper, row=paper.first, rows=paper.rows, as_of=as_of,
                                   selection=json.dumps(paper.selection, sort_keys=True))
            path = out / f"{paper.name}.html"
            path.write_text(_marked(html, stale), encoding="utf-8")
            written.append(Written(paper, path))
    index = env.get_template("index.html.j2").render(
        kinds=[(k, [w for w in written if w.paper.kind is k]) for k in KINDS], as_of=as_of, pdf=pdf)
    (out / "index.html").write_text(_marked(index, stale), encoding="utf-8")
    return written
