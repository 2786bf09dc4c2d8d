"""Fixtures of the project tests: the hand-written fountain in both layouts."""
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data() -> Path:
    return DATA


@pytest.fixture
def position_of():
    return _position_of


def _position_of(path: Path, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """(line, column) of the n-th `needle` in a file, both from 1: the truth spans are checked against."""
    text = path.read_text(encoding="utf-8")
    at = -1
    for _ in range(occurrence):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1
