"""Importing jsonschema without the grammars it compiles and neither the reports nor GX ever use.

nbformat imports jsonschema, and jsonschema imports rfc3987_syntax, when it is installed, for its
checks of the "iri" formats (JupyterLab's jupyter-events asks for jsonschema[format-nongpl], which
brings it). That import compiles 39 Lark grammars: 2.5 s of CPU in every process that imports
nbformat, which is the process rendering the reports (papermill, nbconvert) and each of their
kernels (plotly imports nbformat), and of every process importing great_expectations (through
altair). No schema read there has an "iri" format (nbformat's schemas have no format at all; GX
reads no JSON schema with one), so those processes import jsonschema without it: its two iri
checks are missing there, and nothing else is. A process that has already imported either is
left as it is.
"""

from __future__ import annotations

import importlib
import sys

SKIPPED = "rfc3987_syntax"
# What a report's kernel runs before the notebook's first cell (IPKernelApp.exec_lines).
KERNEL_LINE = "import pipeline.core.lean as _lean; _lean.import_jsonschema(); del _lean"


def import_jsonschema() -> None:
    """Import jsonschema, unless it is already, with an import of rfc3987_syntax failing meanwhile
    (jsonschema then goes without the iri checks, as it does where rfc3987_syntax is not installed)."""
    if "jsonschema" in sys.modules or SKIPPED in sys.modules:
        return
    sys.modules[SKIPPED] = None         # `import rfc3987_syntax` raises ImportError while this stands
    try:
        importlib.import_module("jsonschema")
    finally:
        del sys.modules[SKIPPED]
