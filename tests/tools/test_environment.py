"""The tool's environment (.venv, requirements.lock) holds the tool and its tests, not the lab's
extras (.venv-lab, requirements-lab.lock): no import has to be made to fail for the tool to go
without them."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _pins(name: str) -> dict[str, str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return {m[1].lower().replace("_", "-"): m[2] for line in lines if (m := re.match(r"^([A-Za-z0-9_.-]+)==(\S+)$", line))}


def test_the_lab_extras_are_not_in_the_tools_environment():
    # jsonschema compiles 39 Lark grammars for its "iri" formats when rfc3987_syntax is installed
    # (JupyterLab's jupyter-events brings it): 2.5 s in every process that imports nbformat
    for module in ("rfc3987_syntax", "jupyterlab", "jupyter_server"):
        assert importlib.util.find_spec(module) is None, f"{module} is installed in the tool's environment: make install"
    tool, lab = _pins("requirements.lock"), _pins("requirements-lab.lock")
    assert "rfc3987-syntax" not in tool and "jupyterlab" not in tool and "jupyterlab" in lab


def test_the_lab_runs_every_package_of_the_tool_at_the_same_version():
    tool, lab = _pins("requirements.lock"), _pins("requirements-lab.lock")
    assert {k: v for k, v in tool.items() if lab.get(k) != v} == {}
