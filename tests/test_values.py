"""kzplayer.values.as_float: the one reading of "a number, or the default" that the
camera, the lights, the LOD and the renderer share."""
from __future__ import annotations

import math

import pytest

from kzplayer.values import Color4, Vector, as_float


@pytest.mark.parametrize("value, expected", [(3, 3.0), (-2.5, -2.5), (0, 0.0), (10**20, 1e20)])
def test_a_number_is_its_float(value, expected):
    assert as_float(value, 7.0) == expected and type(as_float(value, 7.0)) is float


@pytest.mark.parametrize("value", [True, False, None, "3", Vector((1, 2)), Color4(1, 1, 1), (1.0,)])
def test_anything_else_is_the_default(value):
    assert as_float(value, 7.0) == 7.0
    assert as_float(value) == 0.0                       # the default default


def test_nan_and_infinity_stay_what_they_are():
    assert math.isnan(as_float(float("nan"), 1.0)) and as_float(float("inf"), 1.0) == math.inf
