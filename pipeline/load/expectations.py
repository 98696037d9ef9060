"""The great-expectations suites: what "valid data" means for each register.

One suite per register and reference table lives in expectations/<name>.json.
The suites are written from the declarations in registers.py (`python -m
pipeline.load.expectations` rewrites them; a test fails if the files drift) and run
here, through GX's pandas route, on each file's typed frame. GX cannot validate
DuckDB through SQLAlchemy today, so the frame is pulled out of DuckDB first.

A reference to another file (a pound_id must be a row of pounds.csv) is
checked in two parts: the loader joins each value against the ids the database
already holds and adds a flag column `<column>__known`; the suite then expects
the column to be empty wherever that flag is false. (Passing a million ids into
GX as a value set costs minutes; the flag costs a join.)
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import sys
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core import paths
from pipeline.core.errors import Problem
from pipeline.core.money import rs
from pipeline.core.registers import COUNT, ENUM, MONEY, REGISTERS, Register
from pipeline.load.bundle import ROW

if TYPE_CHECKING:      # GX's frames are pandas'; the compiled suite needs no pandas (0.5 s to import)
    import pandas as pd

SUITES_DIR = Path(os.environ.get("POUND_EXPECTATIONS", paths.SUITES_DIR))


def suite_for(reg: Register) -> dict:
    """The suite of one register, as the JSON that is kept in expectations/."""
    exps: list[dict] = []
    for col in reg.columns:
        if col.required:
            exps.append({"type": "expect_column_values_to_not_be_null", "kwargs": {"column": col.name},
                         "meta": {"message": f"is blank; every {reg.name} row needs a {col.name}"}})
    for col in reg.columns:
        if col.required_when:
            on, value = col.required_when
            exps.append({"type": "expect_column_values_to_not_be_null",
                         "kwargs": {"column": col.name,
                                    "row_condition": {"type": "comparison", "column": {"name": on},
                                                      "operator": "==", "parameter": value}},
                         "meta": {"message": f"is blank on a row whose {on} is {value}; such a row needs a {col.name}"}})
    if len(reg.key) == 1:
        exps.append({"type": "expect_column_values_to_be_unique", "kwargs": {"column": reg.key[0]},
                     "meta": {"message": f"appears more than once in this file; {reg.key[0]} must be unique"}})
    else:
        exps.append({"type": "expect_compound_columns_to_be_unique", "kwargs": {"column_list": list(reg.key)},
                     "meta": {"message": "appears more than once in this file; the combination "
                              + " + ".join(reg.key) + " must be unique"}})
    for col in reg.columns:
        if col.kind == ENUM:
            exps.append({"type": "expect_column_values_to_be_in_set",
                         "kwargs": {"column": col.name, "value_set": list(col.values)},
                         "meta": {"message": "is not one of the allowed values; expected one of: " + ", ".join(col.values)}})
    for col in reg.columns:
        if col.kind in (COUNT, MONEY) and col.minimum is not None:
            if col.minimum == 0:
                msg = "is negative; amounts and counts cannot be below zero"
            else:
                msg = f"is below {col.minimum}; expected a whole number of at least {col.minimum}"
            exps.append({"type": "expect_column_values_to_be_between",
                         "kwargs": {"column": col.name, "min_value": col.minimum},
                         "meta": {"message": msg}})
    if reg.correctable:
        exps.append({"type": "expect_column_values_to_not_be_null",
                     "kwargs": {"column": "correction_note",
                                "row_condition": {"type": "comparison", "column": {"name": "void"},
                                                  "operator": "==", "parameter": True}},
                     "meta": {"message": "is blank on a row struck out (void = yes); say why the row is withdrawn "
                                         "in its correction_note"}})
    for col in reg.columns:
        if col.refers_to:
            target, tcol = col.refers_to.split(".")
            exps.append({"type": "expect_column_values_to_be_null",
                         "kwargs": {"column": col.name,
                                    "row_condition": {"type": "comparison", "column": {"name": known_flag(col.name)},
                                                      "operator": "==", "parameter": False}},
                         "meta": {"message": f"is not a {tcol} of any row in {target}; "
                                  f"expected a {tcol} listed in the {target} file",
                                  "refers_to": col.refers_to}})
    return {"name": reg.name, "meta": {"register": reg.name, "folder": reg.folder,
                                       "written_by": "python -m pipeline.load.expectations"},
            "expectations": exps}


def suite_path(reg: Register) -> Path:
    return SUITES_DIR / f"{reg.name}.json"


def suite(reg: Register) -> dict:
    """The committed suite of a register, as GX reads it."""
    return _suite(str(suite_path(reg)))


@cache
def _suite(path: str) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_suites(directory: Path = SUITES_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for reg in REGISTERS:
        path = directory / f"{reg.name}.json"
        path.write_text(json.dumps(suite_for(reg), indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written


def known_flag(column: str) -> str:
    """The column the loader adds: true where the value names a row of the referred file."""
    return f"{column}__known"


class Validator:
    """Runs the committed suites with one ephemeral GX context per process."""

    def __init__(self) -> None:
        os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
        logging.getLogger("great_expectations").setLevel(logging.ERROR)
        import great_expectations as gx
        from great_expectations.data_context.types.base import ProgressBarsConfig

        self._gx = gx
        self._ctx = gx.get_context(mode="ephemeral")
        self._ctx.variables.progress_bars = ProgressBarsConfig(globally=False)
        self._source = self._ctx.data_sources.add_pandas("registers")
        self._definitions: dict[str, object] = {}

    def _definition(self, reg: Register):
        if reg.name not in self._definitions:
            gx = self._gx
            gx_suite = self._ctx.suites.add(gx.ExpectationSuite(**json.loads(json.dumps(suite(reg)))))
            asset = self._source.add_dataframe_asset(reg.name)
            batch = asset.add_batch_definition_whole_dataframe(reg.name)
            self._definitions[reg.name] = self._ctx.validation_definitions.add(
                gx.ValidationDefinition(name=reg.name, data=batch, suite=gx_suite))
        return self._definitions[reg.name]

    def validate(self, reg: Register, frame: pd.DataFrame, label: str) -> list[Problem]:
        """Problems found by the register's suite in a typed frame (with _row and the known flags)."""
        return [p for exp, hits in self.unexpected(reg, frame) for p in problems_of(reg, exp, hits, label)]

    def unexpected(self, reg: Register, frame: pd.DataFrame) -> list[tuple[dict, list[dict]]]:
        """GX's verdict: for each failed expectation, (its JSON, the unexpected rows in _row order)."""
        if frame.empty:
            return []
        result = self._definition(reg).run(
            batch_parameters={"dataframe": frame},
            result_format={"result_format": "COMPLETE", "unexpected_index_column_names": [ROW]},
        )
        out = []
        for r in result.results:
            info = r.exception_info or {}
            if info.get("raised_exception"):
                raise RuntimeError(f"great-expectations failed on {reg.name}: {info.get('exception_message')}")
            if r.success:
                continue
            cfg = r.expectation_config
            hits = sorted(r.result.get("unexpected_index_list") or [], key=lambda h: int(h[ROW]))
            kwargs = {k: v for k, v in dict(cfg.kwargs).items() if k != "batch_id"}
            out.append(({"type": cfg.type, "kwargs": kwargs, "meta": dict(cfg.meta or {})}, hits))
        return out


def problems_of(reg: Register, exp: dict, hits: list[dict], label: str) -> list[Problem]:
    """The problems of one failed expectation, from its unexpected rows (GX's or the SQL's)."""
    message = (exp.get("meta") or {}).get("message", exp["type"])
    kwargs = exp["kwargs"]
    columns = kwargs.get("column_list") or [kwargs["column"]]
    if exp["type"].endswith("to_be_unique"):
        return _duplicate_problems(label, columns, hits, message)
    out = []
    for hit in hits:
        value = hit.get(columns[0])
        text = None if _is_missing(value) else _text(value, columns[0], reg)
        out.append(Problem(label, int(hit[ROW]), columns[0], text, message))
    return out


def _is_missing(value) -> bool:
    if value is None:
        return True
    pd = sys.modules.get("pandas")     # NaN, NaT and pandas' NA come only from GX's frames
    if pd is None:
        return isinstance(value, float) and value != value
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _text(value, column: str, reg: Register) -> str:
    col = reg.column(column)
    if col.kind == MONEY:
        return rs(int(value))
    return _plain_text(value)


def _plain_text(value) -> str:
    """A value as the clerk wrote it, whichever judge handed it back (GX gives pandas' types)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value == dt.datetime.combine(value.date(), dt.time()):
        return value.date().isoformat()       # pandas gives a date as a midnight timestamp
    return str(value)


def _duplicate_problems(label: str, columns: list[str], hits: list[dict], message: str) -> list[Problem]:
    groups: dict[tuple, list[int]] = {}
    for hit in hits:
        groups.setdefault(tuple(_key_text(hit.get(c)) for c in columns), []).append(int(hit[ROW]))
    out = []
    for key, rows in groups.items():
        rows.sort()
        others = ", ".join(str(r) for r in rows[1:])
        out.append(Problem(label, rows[1] if len(rows) > 1 else rows[0], " + ".join(columns),
                           " / ".join(key), f"{message} (first at row {rows[0]}, again at row {others})"))
    return out


def _key_text(value) -> str:
    return "(blank)" if _is_missing(value) else _plain_text(value)


@lru_cache(maxsize=1)
def validator() -> Validator:
    return Validator()


def drifted(directory: Path = SUITES_DIR) -> list[str]:
    """Suites whose JSON file differs from what registers.py declares."""
    out = []
    for reg in REGISTERS:
        path = directory / f"{reg.name}.json"
        if not path.exists() or json.loads(path.read_text(encoding="utf-8")) != suite_for(reg):
            out.append(path.name)
    return out


if __name__ == "__main__":
    import sys

    if "--check" in sys.argv:
        stale = drifted()
        if stale:
            print("expectations out of date (run python -m pipeline.load.expectations): " + ", ".join(stale))
            sys.exit(1)
        print(f"{len(REGISTERS)} expectation suites match registers.py")
    else:
        for p in write_suites():
            print(p)
