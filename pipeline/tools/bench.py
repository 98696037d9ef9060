"""`make bench`: wall time and peak memory of each heavy step, measured, not asserted.

Each step runs as its own process so that its peak resident memory (ru_maxrss from
wait4) is its own. The steps:
  synth   pound synth at 200 pounds x 60 months x 80 cases per pound-month
  ingest  pound ingest of one 1,000,000-row impoundments CSV (reference loaded before)
  build   the SQL models alone, then pound build (models, CSV exports, workbook), on ~1M cases
  run     pound run of the whole synthetic bundle, from files to every export
  report  pound report of one month's three HTML reports on that database
Figures go to stdout as a table and to bench-out/bench.json.
Set BENCH_SCALE=small for a quick rehearsal at a tenth of the size.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(os.environ.get("BENCH_OUT", "bench-out")).resolve()
SMALL = os.environ.get("BENCH_SCALE") == "small"
POUNDS, MONTHS, PER_MONTH = (20, 60, 80) if SMALL else (200, 60, 80)
INGEST_ROWS = 100_000 if SMALL else 1_000_000
START = "2021-01"
AS_OF = "2025-12-31"


def measure(name: str, args: list[str], results: list[dict]) -> dict:
    print(f"-- {name}: {' '.join(args)}", flush=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "POUND_QUIET": "1"})
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    output = proc.stdout.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        print(output)
        raise SystemExit(f"bench step {name} failed with exit status {code}")
    row = {"step": name, "seconds": round(seconds, 1), "peak_mb": round(usage.ru_maxrss / 1024)}
    results.append(row)
    print(f"   {row['seconds']} s, peak {row['peak_mb']} MB", flush=True)
    return row


def pound(*args: str) -> list[str]:
    return [sys.executable, "-m", "pipeline", *args]


def one_csv_of_impoundments(bundle: Path, target: Path, rows: int) -> int:
    """`rows` impoundments of the synthetic bundle as one CSV file; if the bundle has fewer,
    its cases are used again under new case ids (C0000001-2, ...)."""
    target.mkdir(parents=True, exist_ok=True)
    written, round_ = 0, 1
    with (target / "impoundments.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        while written < rows:
            for path in sorted((bundle / "registers").glob("impoundments_*.csv")):
                with path.open(encoding="utf-8") as fh:
                    reader = csv.reader(fh)
                    header = next(reader)
                    if written == 0:
                        writer.writerow(header)
                    for row in reader:
                        if written == rows:
                            return written
                        if round_ > 1:
                            row[0] = f"{row[0]}-{round_}"
                        writer.writerow(row)
                        written += 1
            round_ += 1
    return written


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    results: list[dict] = []
    bundle = OUT / "synth"
    measure("synth", pound("synth", "--out", str(bundle), "--pounds", str(POUNDS), "--months", str(MONTHS),
                           "--cases-per-month", str(PER_MONTH), "--seed", "1", "--start", START), results)
    cases = sum(1 for p in (bundle / "registers").glob("impoundments_*.csv") for _ in p.open()) - len(
        list((bundle / "registers").glob("impoundments_*.csv")))
    rows_in_bundle = sum(sum(1 for _ in p.open()) - 1 for p in bundle.rglob("*.csv") if p.name != "planted.csv")

    # ingest: one impoundments CSV of INGEST_ROWS rows on top of the reference tables
    only = OUT / "ingest-bundle"
    shutil.copytree(bundle / "reference", only / "reference")
    ingest_db = OUT / "ingest.duckdb"
    subprocess.run(pound("ingest", str(only), "--db", str(ingest_db)), check=True, capture_output=True)
    one = OUT / "ingest-one" / "registers"
    n = one_csv_of_impoundments(bundle, one, INGEST_ROWS)
    measure(f"ingest {n:,}-row impoundments CSV", pound("ingest", str(one.parent), "--db", str(ingest_db)), results)

    run_out = OUT / "run"
    measure(f"run ({cases:,} cases, {rows_in_bundle:,} rows)",
            pound("run", str(bundle), "--out", str(run_out), "--as-of", AS_OF), results)
    measure(f"build: the SQL models only ({cases:,} cases)",
            [sys.executable, "-m", "pipeline.tools.bench", "models", str(run_out / "pound.duckdb")], results)
    measure(f"build: models, CSV exports, workbook ({cases:,} cases)",
            pound("build", "--db", str(run_out / "pound.duckdb"), "--out", str(OUT / "build"), "--as-of", AS_OF), results)
    measure("report (one month, three reports)",
            pound("report", "--db", str(run_out / "pound.duckdb"), "--month", "2025-08", "--out", str(OUT / "reports")),
            results)

    print()
    print(f"{'step':<48} {'seconds':>8} {'peak MB':>8}")
    for r in results:
        print(f"{r['step']:<48} {r['seconds']:>8} {r['peak_mb']:>8}")
    meta = {"scale": "small" if SMALL else "full", "pounds": POUNDS, "months": MONTHS, "cases_per_month": PER_MONTH,
            "cases": cases, "rows": rows_in_bundle, "cpus": os.cpu_count(), "results": results}
    (OUT / "bench.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"\nfigures written to {OUT / 'bench.json'}")


def models_only(path: str) -> None:
    """Recompute every table of a database, writing nothing else (the 'build' of the accounts)."""
    import datetime as dt

    from pipeline.build import build
    from pipeline.core.params import Parameters
    from pipeline.load import db

    con = db.connect(path)
    build(con, Parameters(as_of=dt.date.fromisoformat(AS_OF)))
    con.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["models"]:
        models_only(sys.argv[2])
    else:
        main()
