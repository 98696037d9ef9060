"""How make bench times a command (pipeline/tools/bench.py): wall and CPU seconds and peak memory
of one process, a command against its floor in turn with the medians, a long command once."""

from __future__ import annotations

import os
import statistics
import subprocess
import time

RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def _medians(name: str, pairs: list[tuple[float, float, int]], target: str) -> dict:
    """The medians of (seconds, floor, peak MB) runs and of their ratios."""
    return {"figure": name, "seconds": round(statistics.median(p[0] for p in pairs), 2),
            "floor": round(statistics.median(p[1] for p in pairs), 2),
            "ratio": round(statistics.median(p[0] / p[1] for p in pairs), 2),
            "peak_mb": max(p[2] for p in pairs), "target": target}


def timed(args: list[str], quiet_fail: bool = False) -> tuple[float, int]:
    """Wall seconds and peak resident MB of one process."""
    seconds, _, peak = cpu_timed(args, quiet_fail)
    return seconds, peak


def cpu_timed(args: list[str], quiet_fail: bool = False) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (the process's and every process it waited for: kernels, Chromium)
    and peak resident MB of one process: CPU, so that a loaded machine does not hide the work."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "POUND_QUIET": "1"})
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    output = proc.stdout.read()
    if os.waitstatus_to_exitcode(status) != 0 and not quiet_fail:
        print(output)
        raise SystemExit(f"bench: {' '.join(args)} failed")
    return seconds, usage.ru_utime + usage.ru_stime, round(usage.ru_maxrss / 1024)


def paired_cpu(name: str, args: list[str], floor: list[str], results: list[dict], target: str, runs: int = 3,
               before=None) -> dict:
    """The command and its floor in turn, `runs` times, in CPU seconds; the median ratio. `before`
    runs ahead of each command (clearing its output folder)."""
    print(f"-- {name}", flush=True)
    pairs = []
    for _ in range(runs):
        if before:
            before()
        _, s, peak = cpu_timed(args)
        _, f, _ = cpu_timed(floor)
        pairs.append((s, f, peak))
    row = {**_medians(name, pairs, target), "unit": "CPU s", "load_average": [round(x, 2) for x in os.getloadavg()]}
    results.append(row)
    print(f"   {row['seconds']} CPU s, floor {row['floor']} CPU s: {row['ratio']}x (target {target}; "
          f"load {row['load_average'][0]})", flush=True)
    return row


def paired(name: str, args: list[str], floor: list[str], results: list[dict], target: str,
           quiet_fail: bool = False, runs: int = RUNS) -> dict:
    """The command and its floor in turn, `runs` times; medians and the median ratio."""
    print(f"-- {name}", flush=True)
    timed(args, quiet_fail)                       # a warm-up: files into the page cache
    pairs = []
    for _ in range(runs):
        f, _peak = timed(floor)
        s, peak = timed(args, quiet_fail)
        pairs.append((s, f, peak))
    row = _medians(name, pairs, target)
    results.append(row)
    print(f"   {row['seconds']} s, floor {row['floor']} s: {row['ratio']}x (target {target})", flush=True)
    return row


def once(name: str, args: list[str], results: list[dict], target: str, floor: float | None = None,
         setup=None) -> dict:
    """A long command run once (after `setup`), against a floor already measured."""
    print(f"-- {name}", flush=True)
    if setup:
        setup()
    s, peak = timed(args)
    row = {"figure": name, "seconds": round(s, 1), "floor": floor, "ratio": round(s / floor, 2) if floor else None,
           "peak_mb": peak, "target": target}
    results.append(row)
    ratio = f": {row['ratio']}x" if floor else ""
    print(f"   {row['seconds']} s, peak {peak} MB{ratio} (target {target})", flush=True)
    return row
