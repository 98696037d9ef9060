"""The desk shows the steps' own results: an action returns the step's dataclass, or a Shown holding it
unchanged beside the desk's own lines, and no module of the desk declares a class of a step result's
name again (a copy whose fields drift from the step's, as Loaded, Reviewed, Closed and Verified once
did). No build: the classes and the actions' annotations only; test_month_steps.py runs them."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import typing

import pytest

from pipeline import desk, steps
from pipeline.desk import actions

# what the steps return (steps.State aside: the page's looked.State says where the month stands in the
# desk's words, with "busy" and "error", which no step returns)
RESULTS = {name: obj for name, obj in vars(steps).items()
           if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and name != "State"}


def test_the_steps_results_are_known():
    assert {"Loaded", "Reviewed", "Closed", "Verified", "Papers"} <= set(RESULTS)


def test_no_module_of_the_desk_declares_a_step_result_again():
    declared = []
    for info in pkgutil.iter_modules(desk.__path__):
        module = importlib.import_module(f"{desk.__name__}.{info.name}")
        declared += [f"{module.__name__}.{name}" for name, obj in vars(module).items()
                     if inspect.isclass(obj) and obj.__module__ == module.__name__ and name in RESULTS]
    assert declared == []


@pytest.mark.parametrize(("action", "result"), [("load", "Loaded"), ("review", "Reviewed"), ("close", "Closed"),
                                                 ("verify", "Verified"), ("papers", "Papers")])
def test_each_action_returns_its_steps_own_result(action, result):
    returned = typing.get_type_hints(getattr(actions, action))["return"]
    kinds = typing.get_args(returned) if typing.get_origin(returned) is typing.Union else (returned,)
    step = RESULTS[result]
    assert step in kinds or actions.Shown[step] in kinds, returned
    assert all(k is step or k == actions.Shown[step] or k is actions.Sealed for k in kinds), returned


def test_shown_holds_the_steps_result_and_copies_none_of_its_fields():
    assert [f.name for f in dataclasses.fields(actions.Shown)] == ["result", "lines"]
