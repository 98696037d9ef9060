"""Progress lines for long steps: shown on a terminal, silent in a pipe."""

from __future__ import annotations

import os
import sys
import time


class Progress:
    def __init__(self, stream=None, enabled: bool | None = None):
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = self.stream.isatty() and os.environ.get("POUND_QUIET") != "1"
        self.enabled = enabled
        self._t0 = time.perf_counter()
        self._open = False

    def step(self, text: str) -> None:
        """Overwrite the current line with what is happening now."""
        if not self.enabled:
            return
        width = 100
        self.stream.write("\r" + text[:width].ljust(width))
        self.stream.flush()
        self._open = True

    def done(self, text: str) -> None:
        """Finish the current line with a result that stays on screen."""
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self._t0
        self.stream.write("\r" + f"{text} ({elapsed:.1f} s)".ljust(100) + "\n")
        self.stream.flush()
        self._open = False

    def close(self) -> None:
        if self.enabled and self._open:
            self.stream.write("\n")
            self._open = False


QUIET = Progress(enabled=False)
