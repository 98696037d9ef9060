"""Filling the templates: one A4 HTML page per paper, and index.html linking them all.

The templates (templates/<kind>.html.j2, sharing base.html.j2) are files a district may
change, or replace by a folder of its own (`--templates DIR`; a template it lacks is taken
from the package). Register text is escaped (autoescape): a name is printed, never run.
Amounts are written by pipeline.core.money (Rs 1,20,000.00) and dates day first (05-10-2026).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape

from pipeline.core.errors import PoundError
from pipeline.core.money import rs
from pipeline.core.months import day_text
from pipeline.documents.papers import KINDS, Paper, Scope, check_models, papers

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _money(paise) -> str:
    return "" if paise is None else rs(int(paise))


def _day(d) -> str:
    return "" if d is None else day_text(d)


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
    return env


@dataclass(frozen=True)
class Written:
    paper: Paper
    path: Path


def write_papers(con, out: Path, scope: Scope, templates: Path | None = None, as_of=None) -> list[Written]:
    """Every paper in scope as out/<name>.html, then out/index.html; returns what was written."""
    check_models(con)
    env = environment(templates)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Written] = []
    for kind in KINDS:
        template = env.get_template(f"{kind.name}.html.j2")
        for paper in papers(con, kind, scope):
            html = template.render(paper=paper, row=paper.first, rows=paper.rows, as_of=as_of,
                                   selection=json.dumps(paper.selection, sort_keys=True))
            path = out / f"{paper.name}.html"
            path.write_text(html, encoding="utf-8")
            written.append(Written(paper, path))
    index = env.get_template("index.html.j2").render(
        kinds=[(k, [w for w in written if w.paper.kind is k]) for k in KINDS], as_of=as_of)
    (out / "index.html").write_text(index, encoding="utf-8")
    return written
