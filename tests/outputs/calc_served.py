"""calc_invalid.py --serve driven from the tests: one start of LibreOffice Calc answering a test
process's requests (conftest.py's fixture `calc`)."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
from pathlib import Path

SYSTEM_PYTHON = "/usr/bin/python3"          # Debian's, with LibreOffice's uno module (python3-uno)
HELPER = Path(__file__).with_name("calc_invalid.py")
# --convert-to's names: an extension and the filter it takes
XLSX = ("xlsx", "Calc MS Excel 2007 XML")
PDF = ("pdf", "calc_pdf_Export")
CSV = ("csv", "Text - txt - csv (StarCalc)")


def calc_ready() -> bool:
    """LibreOffice Calc and the uno module that drives it are installed (make calc)."""
    if not shutil.which("soffice") or not os.path.exists(SYSTEM_PYTHON):
        return False
    return subprocess.run([SYSTEM_PYTHON, "-c", "import sys; sys.path.append('/usr/lib/python3/dist-packages'); "
                           "import uno"], capture_output=True).returncode == 0


class Calc:
    """calc_invalid.py serving this test process's requests from one start of Calc."""

    def __init__(self, home: Path):
        self.home = home
        self.log = home / "stderr.txt"
        self.proc: subprocess.Popen | None = None

    def _start(self) -> None:
        with self.log.open("a") as err:
            self.proc = subprocess.Popen([SYSTEM_PYTHON, str(HELPER), "--serve"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, text=True,
                                         env={**os.environ, "HOME": str(self.home)})

    def ask(self, request: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], 240)
        line = self.proc.stdout.readline() if ready else ""
        if not line:                       # no answer: the next request starts Calc afresh
            self.proc.kill()
            self.proc.wait()
        assert line, f"calc_invalid.py gave no answer (exit {self.proc.poll()}): {self.log.read_text()[-2000:]}"
        return json.loads(line)

    def marked(self, workbook: Path, cells: list) -> set[tuple[int, int]]:
        """The cells of the sheet "releases" Calc's validity check marks once `cells` are written into it."""
        return {tuple(c) for c in self.ask({"path": str(workbook), "cells": {"releases": cells}})["releases"]}

    def convert(self, paths: list[Path], outdir: Path, to: tuple[str, str], options: str = "") -> list[Path]:
        """`soffice --convert-to EXT:FILTER:OPTIONS --outdir outdir PATHS`: each file opened by Calc and
        stored through the filter as outdir/<its stem>.<ext>; the files stored, in order."""
        ext, name = to
        assert len({Path(p).stem for p in paths}) == len(paths), paths
        outdir.mkdir(parents=True, exist_ok=True)
        said = self.ask({"convert": [str(p) for p in paths], "outdir": str(outdir), "ext": ext, "filter": name,
                         "options": options})
        assert "saved" in said, said
        return [Path(p) for p in said["saved"]]

    def close(self) -> None:
        if self.proc is None:
            return
        self.proc.stdin.close()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
