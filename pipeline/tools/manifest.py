"""Write pipeline/sql/manifest.json again: what each SQL file reads, from DuckDB's parse of it, and
which columns of each model DuckDB makes HUGEINT, from a build of every model in an empty database.

The build orders the models by it and casts those columns to BIGINT as it makes each table
(pipeline/build/models.py, pipeline/build/__init__.py). After changing a model or a rule:
`make manifest` (python -m pipeline.tools.manifest); `--check` fails when it is not current
(make lint runs it; tests/build/test_layers.py proves it equal to the parse).
"""

from __future__ import annotations

import sys

from pipeline.build import inferred_casts
from pipeline.build.models import MANIFEST, manifest_text


def cli(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: python -m pipeline.tools.manifest [--check]   (writes, or checks, pipeline/sql/manifest.json)",
              file=sys.stderr)
        return 2
    text = manifest_text(inferred_casts())
    if argv == ["--check"]:
        if not MANIFEST.exists() or MANIFEST.read_text(encoding="utf-8") != text:
            print(f"{MANIFEST} is not what the SQL files read now: run `make manifest`", file=sys.stderr)
            return 1
        return 0
    MANIFEST.write_text(text, encoding="utf-8")
    print(f"wrote {MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
