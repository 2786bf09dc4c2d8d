from pathlib import Path

import pytest

import kzplayer

DATA = Path(__file__).parent / "data"


@pytest.fixture
def project_of(tmp_path):
    """project_of(body) -> a one-file project with `body` inside Screens/Screen (and its
    file path as project.path, for computing expected columns)."""
    def make(body: str, name: str = "Test", property_types: str = ""):
        f = tmp_path / "p.kzm"
        f.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<Project name="{name}" format="1">\n'
                     f'<Screens><Screen name="Screen">\n{body}\n</Screen></Screens>\n'
                     f'<Materials/><PropertyTypes>{property_types}</PropertyTypes></Project>\n',
                     encoding="utf-8")
        return kzplayer.load(f)
    return make


def where(path, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, column), 1-based, of the nth occurrence of `needle` in a file: expected positions
    come from the file's text, not from the code under test."""
    text = Path(path).read_text(encoding="utf-8")
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1
