"""The steps of a month, as plain functions: load, build, review, close, verify, papers, month, state.

Each takes plain arguments (paths, a month, names) and returns a small dataclass saying what it
did; none prints a result (a long step shows its progress on stderr through core/progress.py).
The command line (pipeline/cli) parses arguments into them and prints what they return; the
office desk calls the same functions. A user's mistake is a PoundError (or InputRejected), as
everywhere else.
"""

from __future__ import annotations

from pipeline.steps.build import Built, build, run
from pipeline.steps.close import Closed, Verified, add_signed, close, verify
from pipeline.steps.load import Loaded, load
from pipeline.steps.month import Month, build_and_review, folder_of, month
from pipeline.steps.papers import Papers, papers
from pipeline.steps.review import Reviewed, review
from pipeline.steps.state import State, state, states

__all__ = ["Built", "Closed", "Loaded", "Month", "Papers", "Reviewed", "State", "Verified", "add_signed", "build", "build_and_review",
           "close", "folder_of", "load", "month", "papers", "review", "run", "state", "states", "verify"]
