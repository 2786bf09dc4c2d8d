from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _standins(monkeypatch):
    """Until the loader and the evaluator land, tests run against bindings_standin.py."""
    import bindings_standin
    import kzplayer.expr as expr
    if not hasattr(expr, "evaluate"):
        from kzplayer.expr.errors import ExprError
        monkeypatch.setattr(expr, "evaluate", bindings_standin.evaluate, raising=False)
        monkeypatch.setattr(expr, "ExprError", ExprError, raising=False)
    if not hasattr(expr, "parse"):
        from kzplayer.expr.parser import parse
        monkeypatch.setattr(expr, "parse", parse, raising=False)


def _load(path):
    try:
        from kzplayer import load as real
    except ImportError:
        from bindings_standin import load as real
    return real(Path(path))


@pytest.fixture
def load():
    """load(path) -> Project; a bare name is a file of tests/bindings/data/."""
    return lambda path: _load(DATA / path if "/" not in str(path) else path)


@pytest.fixture
def project_of(tmp_path):
    """project_of(body) -> a one-file project with `body` inside Screens/Screen."""
    def make(body: str, name: str = "Test"):
        f = tmp_path / "p.kzm"
        f.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<Project name="{name}" format="1">\n'
                     f'<Screens><Screen name="Screen">\n{body}\n</Screen></Screens>\n'
                     '<Materials/><PropertyTypes/></Project>\n', encoding="utf-8")
        return _load(f)
    return make
