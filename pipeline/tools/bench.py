"""`make bench`: every speed figure as a ratio to a floor measured in the same run.

Nothing here asserts a time; the figures are printed and written to bench-out/bench.json, and
docs/benchmarks.md keeps the table. Each command runs as its own process (its peak resident
memory is its own, from wait4). Two floors, each measured beside what it is compared with:
  import   `python -c "import duckdb, pandas"`: the least any command of the tool can take
  read     DuckDB reading every CSV file of the state bundle (read_csv of each register's
           files, all as text, count(*)): the least any load of those files can take
  write    (given beside the read floor, after the state run) DuckDB writing what that run
           wrote, as it stands: every finished table copied into a new database file and each
           CSV export's table written by COPY, no rupee text, no order. Nothing is read from
           the bundle or computed: the least any run that keeps these outputs can take
The figures:
  district run       pound run data/sample, and a run whose file is rejected   / import floor
  state run          pound run of the synthetic state bundle                   / read floor
  one month added    pound ingest of one month's files + pound build            / state run
  whole at scale     that pound build again on a copy, killed with SIGKILL half-way: every table
                     of the copy is then as before or as after, by a hash of its rows (no time)
  month report       pound report of one month on the state database           (seconds)
  one authority      pound workbook for one local authority's financial year   (seconds)
  month review       pound report --month of a synthetic district (pound synth --district Mysuru
                     --pounds 20 --months 24 --seed 7), in CPU seconds of the command and every
                     process it starts / `python -c "import pandas, plotly, duckdb"` (CPU)
  papers             pound documents --pdf of the busiest pound's month of that district (CPU) /
                     one Chromium printing the same papers as one document (CPU)
  xlsx.py            the district's audit_workbook.xlsx written by outputs/xlsx.py / the same
                     workbook written through openpyxl's write-only mode (each process with its
                     imports); what xlsx.py saves is then given as a share of the district run:
                     it stays while that is at least a tenth (docs/benchmarks.md), else it goes
Short commands run RUNS times in turn with their floor (floor, command, floor, ...) and the
median of the pairwise ratios is given. BENCH_SCALE=small rehearses at a tenth of the size.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pipeline.tools.bench_timing import RUNS, cpu_timed, once, paired, paired_cpu, timed

OUT = Path(os.environ.get("BENCH_OUT", "bench-out")).resolve()
SMALL = os.environ.get("BENCH_SCALE") == "small"
POUNDS, MONTHS, PER_MONTH = (20, 60, 80) if SMALL else (200, 60, 80)
ONLY = os.environ.get("BENCH_ONLY", "")      # "pages" or "state": that part alone
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
LAST_MONTH = "2025-12"


def pound(*args: str) -> list[str]:
    return [sys.executable, "-m", "pipeline", *args]


IMPORT_FLOOR = [sys.executable, "-c", "import duckdb, pandas"]
PAGES_FLOOR = [sys.executable, "-c", "import pandas, plotly, duckdb"]
DISTRICT = ("--district", "Mysuru", "--pounds", "20", "--months", "24", "--seed", "7", "--start", "2024-12")
DISTRICT_MONTH = "2026-10"


def busiest_pound(db: Path, month: str) -> str:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT pound_id FROM case_accounts WHERE strftime(impounded_on, '%Y-%m') = ? "
                           "GROUP BY ALL ORDER BY count(*) DESC, pound_id LIMIT 1", [month]).fetchone()[0]
    finally:
        con.close()


def month_pages(results: list[dict]) -> None:
    """The month's review of a district, and one pound's month of papers, each against its floor."""
    bundle, out = OUT / "district", OUT / "district-out"
    print("-- making the district bundle (" + " ".join(DISTRICT) + ")", flush=True)
    timed(pound("synth", "--out", str(bundle), *DISTRICT))
    timed(pound("run", str(bundle), "--out", str(out)))
    db = out / "pound.duckdb"
    reports = OUT / "district-reports"
    paired_cpu(f"pound report --month {DISTRICT_MONTH}, a district (9,656 cases)",
               pound("report", "--db", str(db), "--month", DISTRICT_MONTH, "--out", str(reports)), PAGES_FLOOR,
               results, "at most 6x", before=lambda: shutil.rmtree(reports, ignore_errors=True))
    papers = OUT / "district-papers"
    the_pound = busiest_pound(db, DISTRICT_MONTH)
    first, last = f"{DISTRICT_MONTH}-01", f"{DISTRICT_MONTH}-{_last_day(DISTRICT_MONTH):02d}"
    documents = pound("documents", "--db", str(db), "--out", str(papers), "--pound", the_pound, "--from", first,
                      "--to", last, "--pdf")
    cpu_timed(documents)          # the papers' HTML, for the floor to print
    count = sum(1 for p in papers.glob("*.html") if p.name != "index.html")
    floor = [sys.executable, "-m", "pipeline.tools.bench", "print-one", str(papers), str(OUT / "papers-as-one.pdf")]
    paired_cpu(f"pound documents --pdf, pound {the_pound}'s month ({count} papers)", documents, floor, results,
               "at most 3x")


def _last_day(month: str) -> int:
    import calendar

    year, mon = (int(x) for x in month.split("-"))
    return calendar.monthrange(year, mon)[1]


def read_floor(bundle: Path) -> list[str]:
    return [sys.executable, "-m", "pipeline.tools.bench", "read", str(bundle)]


def write_floor(db: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "pipeline.tools.bench", "write", str(db), str(out)]


def workbook_writer(db: Path, out: Path, writer: str) -> list[str]:
    return [sys.executable, "-m", "pipeline.tools.bench", f"workbook-{writer}", str(db), str(out)]


def rejected_sample(target: Path) -> Path:
    """data/sample with one amount that is not an amount: a run that stops at its check."""
    shutil.copytree(SAMPLE, target)
    path = target / "registers" / "releases.csv"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    cells = lines[1].rstrip("\n").split(",")
    cells[header.index("fines_paid")] = "six hundred"
    lines[1] = ",".join(cells) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    return target


def split_month(bundle: Path, before: Path, month_dir: Path, month: str = LAST_MONTH) -> int:
    """The bundle without the rows of `month` (`before`) and those rows as files of their own
    (`month_dir`): the files a pound sends at the end of a month. The number of rows moved."""
    import duckdb

    from pipeline.core.registers import REGISTERS
    from pipeline.core.whole import written_whole

    shutil.copytree(bundle, before)
    con = duckdb.connect()
    moved = 0
    for folder in ("registers", "ledgers"):
        for path in sorted((before / folder).glob("*.csv")):
            reg = next((r for r in REGISTERS if r.folder == folder and path.stem.startswith(r.name)), None)
            if reg is None or not reg.event_date:
                continue
            day = "coalesce(" + ", ".join(f"nullif({c}, '')" for c in reg.event_date) + ")"
            src = str(path).replace("'", "''")
            rows = f"read_csv('{src}', all_varchar = true, header = true)"
            n = con.execute(f"SELECT count(*) FROM {rows} WHERE starts_with({day}, '{month}')").fetchone()[0]
            if not n:
                continue
            (month_dir / folder).mkdir(parents=True, exist_ok=True)
            out = str(month_dir / folder / f"{path.stem}_{month}.csv").replace("'", "''")
            con.execute(f"COPY (SELECT * FROM {rows} WHERE starts_with({day}, '{month}')) TO '{out}' (HEADER)")
            with written_whole(path) as partial:              # the rows of the other months, in its place
                rest = str(partial).replace("'", "''")
                con.execute(f"COPY (SELECT * FROM {rows} WHERE {day} IS NULL OR NOT starts_with({day}, '{month}')) "
                            f"TO '{rest}' (HEADER, FORMAT csv)")
            moved += n
    if (bundle / "bundle.toml").exists():
        shutil.copy(bundle / "bundle.toml", month_dir / "bundle.toml")
    return moved


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    results: list[dict] = []
    if ONLY == "pages":             # the month's review and papers alone (BENCH_ONLY=pages)
        month_pages(results)
        return _report(results)
    if ONLY == "state":             # the state run, its floors and its peak alone (BENCH_ONLY=state)
        _state_run(results)
        return _report(results)

    paired("pound run data/sample", pound("run", str(SAMPLE), "--out", str(OUT / "sample")), IMPORT_FLOOR,
           results, "3x")
    district = results[-1]["seconds"]
    mine = paired("audit workbook by xlsx.py (floor: by openpyxl)",
                  workbook_writer(OUT / "sample" / "pound.duckdb", OUT / "xlsx.xlsx", "xlsx"),
                  workbook_writer(OUT / "sample" / "pound.duckdb", OUT / "openpyxl.xlsx", "openpyxl"), results, "-")
    saved = mine["floor"] - mine["seconds"]
    results.append({"figure": "what xlsx.py saves, share of the district run", "seconds": round(saved, 2),
                    "floor": district, "ratio": round(saved / district, 2), "peak_mb": mine["peak_mb"],
                    "target": ">= 0.1x or xlsx.py goes"})
    bad = rejected_sample(OUT / "sample-rejected")
    paired("pound run, one file rejected", pound("run", str(bad), "--out", str(OUT / "sample-rejected-out")),
           IMPORT_FLOOR, results, "3x", quiet_fail=True)

    month_pages(results)
    run = _state_run(results)
    bundle = OUT / "synth"

    before, month = OUT / "before", OUT / "month"
    moved = split_month(bundle, before, month)
    db = OUT / "incremental.duckdb"
    timed(pound("ingest", str(before), "--db", str(db)))
    timed(pound("build", "--db", str(db), "--out", str(OUT / "before-out")))
    once(f"pound ingest of one month ({moved:,} rows)", pound("ingest", str(month), "--db", str(db)), results,
         "with the build: < 0.2 of the state run", floor=run["seconds"])
    killed = OUT / "killed.duckdb"
    shutil.copyfile(db, killed)
    built = once("pound build after it", pound("build", "--db", str(db), "--out", str(OUT / "month-out")), results,
                 "with the ingest: < 0.2 of the state run", floor=run["seconds"])
    results.append(killed_half_way(killed, db, built["seconds"] / 2))

    state_db = str(OUT / "run" / "pound.duckdb")
    once("pound report, one month, state database",
         pound("report", "--db", state_db, "--month", "2025-08", "--out", str(OUT / "reports")), results, "< 20 s")
    once("pound workbook, one authority's year",
         pound("workbook", "--db", state_db, "--local-authority", busiest_authority(state_db),
               "--financial-year", "2025-26", "--out", str(OUT / "authority.xlsx")), results, "< 5 s")
    _report(results)


def _state_run(results: list[dict]) -> dict:
    """The state bundle made, the read floor, the state run (default exports) and the write floor."""
    bundle = OUT / "synth"
    print(f"-- making the state bundle ({POUNDS} pounds x {MONTHS} months x {PER_MONTH} cases)", flush=True)
    timed(pound("synth", "--out", str(bundle), "--pounds", str(POUNDS), "--months", str(MONTHS),
                "--cases-per-month", str(PER_MONTH), "--seed", "7", "--start", "2021-01"))
    floor = paired("DuckDB reads the state bundle's CSV files", read_floor(bundle), IMPORT_FLOOR, [], "-", runs=3)
    read_s = floor["seconds"]
    results.append({"figure": "floor: DuckDB reads the state bundle's CSV files", "seconds": read_s,
                    "floor": None, "ratio": None, "peak_mb": floor["peak_mb"], "target": "-"})
    run = once("pound run of the state bundle", pound("run", str(bundle), "--out", str(OUT / "run")), results,
               "< 60x, peak < 3,000 MB", floor=read_s)
    once("floor: writing that run's outputs as they stand", write_floor(OUT / "run" / "pound.duckdb", OUT / "written"),
         results, "-", floor=read_s)
    return run


def _report(results: list[dict]) -> None:
    print()
    print(f"{'figure':<52} {'seconds':>8} {'floor':>7} {'ratio':>7} {'peak MB':>8}  target")
    for r in results:
        floor_s = "" if r["floor"] is None else r["floor"]
        ratio = "" if r["ratio"] is None else f"{r['ratio']}x"
        print(f"{r['figure']:<52} {r['seconds']:>8} {floor_s:>7} {ratio:>7} {r['peak_mb']:>8}  {r['target']}")
    meta = {"only": ONLY or "all", "scale": "small" if SMALL else "full", "pounds": POUNDS, "months": MONTHS, "cases_per_month": PER_MONTH,
            "runs": RUNS, "cpus": os.cpu_count(), "load_average": os.getloadavg(), "results": results}
    (OUT / "bench.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"\nfigures written to {OUT / 'bench.json'}")


def table_hashes(path: Path) -> dict[str, tuple]:
    """Every table of the database: its rows counted and a hash of every row added up (order aside)."""
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        names = [n for (n,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'").fetchall()]
        return {n: con.execute(f'SELECT count(*), sum(hash(t)) FROM "{n}" t').fetchone() for n in names}
    finally:
        con.close()


def killed_half_way(copy: Path, after: Path, seconds: float) -> dict:
    """`pound build` on `copy` (the database before the build that made `after`), killed with
    SIGKILL after `seconds`: every table must then be wholly as before or wholly as after."""
    print("-- pound build on a copy, killed half-way", flush=True)
    before = table_hashes(copy)
    proc = subprocess.Popen(pound("build", "--db", str(copy), "--out", str(OUT / "killed-out")),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "POUND_QUIET": "1"})
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
    proc.wait()
    got, done = table_hashes(copy), table_hashes(after)
    changed = sum(1 for t in done if before.get(t) != done[t])
    state = "as before" if got == before else "as after" if got == done else "MIXED"
    print(f"   killed after {seconds:.0f} s (exit {proc.returncode}): the database is {state} "
          f"({changed} tables differ between before and after)", flush=True)
    if state == "MIXED":
        raise SystemExit("bench: a killed build left a mixed database")
    return {"figure": f"pound build killed half-way: {state}", "seconds": round(seconds, 1), "floor": None,
            "ratio": None, "peak_mb": 0, "target": "as before or as after"}


def busiest_authority(path: str) -> str:
    import duckdb

    con = duckdb.connect(path, read_only=True)
    try:
        return con.execute("SELECT local_authority_id FROM case_accounts GROUP BY ALL "
                           "ORDER BY count(*) DESC, local_authority_id LIMIT 1").fetchone()[0]
    finally:
        con.close()


USAGE = """usage: python -m pipeline.tools.bench      (what `make bench` runs; no options)

Makes a synthetic state bundle under bench-out/ (replacing what is there), times every figure
against its floor and writes bench-out/bench.json. At full scale it takes several minutes.
Settings, as environment variables:
  BENCH_SCALE=small   rehearse at a tenth of the state bundle
  BENCH_RUNS=N        pairs of runs for each short command (default 5)
  BENCH_OUT=DIR       another folder than bench-out/
  BENCH_ONLY=pages    the month's review and papers of a district alone; BENCH_ONLY=state the state run
"""


def cli(argv: list[str]) -> int:
    """`--help` prints what the bench does before it clears bench-out/; any other argument is refused."""
    from pipeline.tools.floors import print_as_one, read_files, write_audit_workbook, write_outputs

    if argv[:1] == ["read"] and len(argv) == 2:        # the read floor's own process (read_floor)
        read_files(argv[1])
        return 0
    if argv[:1] == ["write"] and len(argv) == 3:       # the write floor's own process (write_floor)
        write_outputs(argv[1], argv[2])
        return 0
    if argv[:1] == ["print-one"] and len(argv) == 3:   # the papers' floor (month_pages)
        print_as_one(argv[1], argv[2])
        return 0
    if argv[:1] in (["workbook-xlsx"], ["workbook-openpyxl"]) and len(argv) == 3:   # workbook_writer's
        write_audit_workbook(argv[1], argv[2], argv[0].split("-", 1)[1])
        return 0
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip() + "\n\n" + USAGE, end="")
        return 0
    if argv:
        print(f"bench: no option {argv[0]!r}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    main()
    return 0


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
