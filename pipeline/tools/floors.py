"""What make bench's floors and its workbook comparison do, each run by `python -m
pipeline.tools.bench <what>` as a process of its own (so its time and peak memory are its own):
  read_files            the read floor: DuckDB reads every CSV file of a bundle
  write_outputs         the write floor: a run's finished tables and exports written as they stand
  write_audit_workbook  the district's audit workbook by outputs/xlsx.py, or by openpyxl in its place
  print_as_one          the papers' floor: one Chromium printing a folder's papers as one document
"""

from __future__ import annotations

import shutil
from pathlib import Path


def read_files(bundle: str) -> None:
    """The read floor: DuckDB reads every CSV file of the bundle, each register's files at once."""
    import duckdb

    groups: dict[str, list[str]] = {}
    for path in sorted(Path(bundle).rglob("*.csv")):
        stem = path.stem
        name = stem.rsplit("_", 1)[0] if stem[-4:].isdigit() else stem
        groups.setdefault(f"{path.parent.name}/{name}", []).append(str(path))
    con = duckdb.connect()
    for files in groups.values():
        con.execute("SELECT count(*) FROM read_csv(?, all_varchar = true)", [files]).fetchone()


def write_outputs(db: str, out: str) -> None:
    """The write floor: the finished tables of the database at `db` copied as they stand into a
    new database under `out`, and the table of each CSV export of `pound run` written there by
    DuckDB's COPY (no rupee text, no order)."""
    import duckdb

    from pipeline.outputs.exports import EXPORTS
    from pipeline.outputs.tables import finished_tables

    target = Path(out)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    con = duckdb.connect()
    con.execute("ATTACH ? AS src (READ_ONLY)", [db])
    con.execute("ATTACH ? AS dst", [str(target / "pound.duckdb")])
    have = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables WHERE table_catalog = 'src' "
                                      "AND table_schema = 'main'").fetchall()}     # a finished view's rows too
    for table in finished_tables():
        if table in have:
            con.execute(f'CREATE TABLE dst."{table}" AS SELECT * FROM src."{table}"')
    con.execute("CHECKPOINT dst")
    for spec in EXPORTS:
        path = str(target / f"{spec.name}.csv").replace("'", "''")
        con.execute(f"COPY src.\"{spec.table}\" TO '{path}' (HEADER)")


def write_audit_workbook(db: str, out: str, writer: str) -> None:
    """The district's audit_workbook.xlsx as `pound run` writes it (outputs/workbook.py), by xlsx.py
    or (writer "openpyxl") with openpyxl's write-only workbook in its place: the same sheets, cells,
    widths, styles and frozen header, for the 10 % rule of docs/benchmarks.md."""
    import types

    import duckdb

    from pipeline.outputs import workbook, xlsx

    if writer == "openpyxl":
        workbook.xlsx = types.SimpleNamespace(**{**vars(xlsx), "Workbook": _ThroughOpenpyxl})
    con = duckdb.connect(db, read_only=True)
    workbook.write_workbook(con, Path(out))


class _ThroughOpenpyxl:
    """outputs/xlsx.py's Workbook, made with openpyxl (for the bench alone)."""

    from pipeline.outputs.xlsx import BOLD, DATE, HEADER, RUPEES, WRAPPED, Cell, Number, money  # noqa: F401

    def __init__(self, path: Path):
        from openpyxl import Workbook

        self.path, self.book, self.open = Path(path), Workbook(write_only=True), None

    def sheet(self, title: str, widths=(), frozen: bool = True, first: bool = False):
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Alignment, Font
        from openpyxl.utils import get_column_letter

        ws = self.book.create_sheet(title, 0 if first else None)
        for i, w in enumerate(widths, 1):
            ws.column_dimensions[get_column_letter(i)].width = w
        if frozen:
            ws.freeze_panes = "A2"
        bold, wrap = Font(bold=True), Alignment(vertical="top", wrap_text=True)
        formats = {self.RUPEES: "#,##0.00", self.DATE: "dd-mm-yyyy"}

        def cell(v):
            if not isinstance(v, self.Cell):
                return v
            value = v.value
            if isinstance(value, self.Number):
                from decimal import Decimal
                value = Decimal(value)
            c = WriteOnlyCell(ws, value)
            if v.style in (self.HEADER, self.BOLD):
                c.font = bold
            if v.style in formats:
                c.number_format = formats[v.style]
            if v.style == self.WRAPPED:
                c.alignment = wrap
            return c

        class Sheet:
            rows = 0

            def append(self, row, height=None):
                if height:
                    ws.row_dimensions[self.rows + 1].height = height
                self.rows += 1
                ws.append([cell(v) for v in row])

            def filter(self, columns: int, rows: int):
                ws.auto_filter.ref = f"A1:{get_column_letter(columns)}{rows}"

        return Sheet()

    def save(self) -> Path:
        self.book.save(self.path)
        return self.path

    def __enter__(self):
        return self

    def __exit__(self, *_):
        pass


def print_as_one(folder: str, pdf: str) -> None:
    """The papers' floor: the papers of `folder` (each paper's HTML; not index.html) joined into one
    document, their styles in its head and a page break between them, printed by one headless
    Chromium started once from the command line: the least one browser can take for those pages."""
    import re
    import subprocess

    from pipeline.documents.pdf import CHROMIUM_ARGS, chromium

    styles, bodies = [], []
    for path in sorted(Path(folder).glob("*.html")):
        if path.name == "index.html":
            continue
        page = path.read_text(encoding="utf-8")
        styles += [s for s in re.findall(r"<style\b[^>]*>.*?</style>", page, re.S | re.I) if s not in styles]
        body = re.search(r"<body\b[^>]*>(.*)</body>", page, re.S | re.I)
        bodies.append(body.group(1) if body else page)
    joined = Path(pdf).with_suffix(".html")
    breaks = '<div style="break-after: page"></div>'
    joined.write_text("<!doctype html><html><head><meta charset='utf-8'>" + "".join(styles) + "</head><body>"
                      + breaks.join(bodies) + "</body></html>", encoding="utf-8")
    subprocess.run([chromium(), *CHROMIUM_ARGS, f"--print-to-pdf={pdf}", joined.resolve().as_uri()],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
