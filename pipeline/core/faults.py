"""Points where the tests kill a command (POUND_KILL_AT=<point>), to show that what it leaves is
whole: the database and the exports of one build, as before or as after."""

from __future__ import annotations

import os
import signal


def point(name: str) -> None:
    if os.environ.get("POUND_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
