"""experiments/op_model_selection.py reproduces the cross-validation table of docs/step-time.md#op-model."""
import importlib.util

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def selection():
    spec = importlib.util.spec_from_file_location("op_model_selection", REPO / "experiments" / "op_model_selection.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_calibration_half_matches_the_cpp_split(selection):
    # Same FNV-1a split as in_calibration_half() (efficiency_calibration.cpp), checked on a shape each way.
    halves = {selection.calibration_half(f"linear:linear B=1 M={i}") for i in range(20)}
    assert halves == {True, False}


def test_chosen_model_scores_as_documented(selection, shared):
    d = selection.read_calibration_half(shared / "data" / "kernels")
    assert d["shape"].nunique() == 2206  # the calibration half only; the held-out half has 2,246
    cv = selection.cross_validate(d, 16, 1e-3, (0, 0.3, 1))
    assert cv[0.3] == pytest.approx(0.0944, abs=5e-4)
    assert cv[0.3] < cv[0] < cv[1]  # the blend beats either end, which is why alpha = 0.3
