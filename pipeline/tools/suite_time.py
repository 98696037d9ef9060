"""How long the test suite took: `make test` runs pytest through this, which prints the time and,
when every test passed on a quiet machine (the load average at most QUIET at the start), writes it
to tests/suite_time.txt; the README states that time, and tests/tools/test_docs_true.py fails when
the two differ. A run on a busy machine (another run just before it, say) writes nothing, so that
running the suite again does not fail for want of a README edit.

    python -m pipeline.tools.suite_time [--record] -- PYTEST ARGS...

The record is one line: the wall time, the tests run, the day and the load average (1 minute) at the
start, e.g. `10 min 12 s, 1,313 tests, 6 Dec 2026, load 1.0`. A time is measured, never asserted: the
README is brought to the record by hand, on a quiet machine.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.paths import ROOT
from pipeline.core.whole import write_whole

RECORD = ROOT / "tests" / "suite_time.txt"
QUIET = 0.5          # the load average (1 minute) at the start of a run whose time is recorded
_SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b")
_LINE = re.compile(r"(?P<time>\d+ min \d+ s), (?P<tests>[\d,]+) tests, (?P<day>\d{1,2} \w{3} \d{4}), load (?P<load>[\d.]+)")


@dataclass(frozen=True)
class SuiteTime:
    seconds: int
    tests: int
    day: dt.date
    load: float

    @property
    def time_text(self) -> str:
        return f"{self.seconds // 60} min {self.seconds % 60} s"

    @property
    def day_text(self) -> str:
        return f"{self.day.day} {self.day:%b %Y}"

    def line(self) -> str:
        return f"{self.time_text}, {self.tests:,} tests, {self.day_text}, load {self.load:.1f}"

    def readme_words(self) -> str:
        """How the README says it."""
        return (f"the suite ({self.tests:,} tests) took {self.time_text} on two cores on {self.day_text}, "
                f"the load average {self.load:.1f} at its start")


def parse(line: str) -> SuiteTime:
    m = _LINE.fullmatch(line.strip())
    if m is None:
        raise ValueError(f"not a suite time: {line!r}")
    minutes, seconds = (int(x) for x in re.findall(r"\d+", m["time"]))
    return SuiteTime(minutes * 60 + seconds, int(m["tests"].replace(",", "")),
                     dt.datetime.strptime(m["day"], "%d %b %Y").date(), float(m["load"]))


def recorded(path: Path = RECORD) -> SuiteTime:
    return parse(path.read_text(encoding="utf-8"))


def _tests(output: str) -> int:
    """The tests of pytest's last summary line."""
    last = [line for line in output.splitlines() if _SUMMARY.search(line)]
    return sum(int(n) for n, _ in _SUMMARY.findall(last[-1])) if last else 0


def main(argv: list[str], record_to: Path = RECORD) -> int:
    record = "--record" in argv[: argv.index("--")] if "--" in argv else False
    command = argv[argv.index("--") + 1:] if "--" in argv else argv
    load = os.getloadavg()[0]
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    for line in proc.stdout:
        sys.stdout.write(line)
        seen.append(line)
    rc = proc.wait()
    took = SuiteTime(round(time.monotonic() - start), _tests("".join(seen)), dt.date.today(), load)
    print(f"suite time: {took.line()}")
    if record and rc == 0 and load <= QUIET:
        write_whole(record_to, took.line() + "\n")
        print(f"written to {record_to.name}: the README must now say: {recorded(record_to).readme_words()}")
    elif record and rc == 0:
        print(f"not recorded: the load average was {load:.1f} at the start, above {QUIET} (a quiet machine's time "
              "is the one the README states)")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
