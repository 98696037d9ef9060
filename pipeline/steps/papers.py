"""The papers of a month: the statutory papers the Act asks officials to produce, from a built database."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.locks import DEFAULT_WAIT


@dataclass
class Papers:
    """What `papers` wrote: every paper's file by kind, the index, and the PDFs with `pdf`."""
    out: Path
    by_kind: dict[str, list[Path]] = field(default_factory=dict)
    pdfs: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)     # stderr

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.by_kind.values())

    @property
    def index(self) -> Path:
        return self.out / "index.html"

    def summary(self) -> str:
        """One line for the whole, not one per page (a district's month can be thousands of papers)."""
        kinds = ", ".join(f"{kind.replace('_', ' ')} {len(paths):,}" for kind, paths in sorted(self.by_kind.items()))
        return f"wrote {self.count:,} papers into {self.out}" + (f" ({kinds})" if kinds else "")


def papers(db: Path, out: Path, cases: tuple[str, ...] = (), pound: str | None = None,
           first: dt.date | None = None, last: dt.date | None = None, templates: Path | None = None,
           pdf: bool = False, wait: float = DEFAULT_WAIT, lang: str | None = None) -> Papers:
    """Write the papers (of `cases`, of `pound`, dated from `first` to `last`) into `out`, with an index,
    in `lang` (en, kn, both; None: the build's parameter papers_lang, else English)."""
    from pipeline.core.faults import point
    from pipeline.core.staged import Staged
    from pipeline.documents.i18n import check_lang
    from pipeline.documents.papers import Scope
    from pipeline.documents.render import write_papers
    from pipeline.read.database import as_of, check_cases, check_pound, connect, parameter

    if lang is not None:
        check_lang(lang)
    if first and last and first > last:
        raise PoundError(f"--from {first} is after --to {last}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    if pdf:
        from pipeline.documents.pdf import chromium

        chromium()                   # asked first: without it nothing is written
    done = Papers(out)
    # the papers, their index and their PDFs written as one set (core/staged.py): a failure or a
    # kill leaves OUT as it was
    with Staged(out) as st:
        con = connect(db, wait=wait)
        try:
            scope = Scope(check_cases(con, tuple(cases)), check_pound(con, pound), first, last)
            chosen = lang or check_lang(str(parameter(con, "papers_lang", "en")))
            written = write_papers(con, st.folder, scope, templates, as_of(con), pdf=pdf, lang=chosen,
                                   digits=bool(parameter(con, "kannada_digits", False)))
        finally:
            con.close()
        staged: dict[str, list[Path]] = {}
        for w in written:
            staged.setdefault(w.paper.kind.name, []).append(w.path)
        pdfs = []
        if pdf:
            from pipeline.documents.pdf import print_all

            pdfs = print_all(staged, st.folder)
        point("papers:written")
        st.commit()
    done.by_kind = {kind: [out / p.name for p in paths] for kind, paths in staged.items()}
    done.pdfs = [out / p.name for p in pdfs]
    from pipeline.read.database import stale_warning

    stale = stale_warning(db, wait)
    if stale:
        done.notes.append(stale)
    return done
