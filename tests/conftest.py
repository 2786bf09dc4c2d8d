"""Shared fixtures. The OpenGL context is created once per session on standalone EGL
(Mesa llvmpipe where there is no GPU). A missing context FAILS the GPU tests: a GPU test
that skips on CI would hide the product."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# The one way tests find ../shared (spec pages, design contracts, real Kanzi files).
SHARED = Path(os.environ.get("KZPLAYER_SHARED") or REPO.parent / "shared")
KANZI39 = Path(os.environ.get("KZPLAYER_KANZI39") or SHARED / "kanzi39")


KANZI39_FOLDERS = ("", "demos")          # the real files: the top folder and demos/


def kanzi39_files() -> list[str]:
    """Every .kzproj and .kzmat of the real Kanzi files (top folder and demos/), as names
    relative to KANZI39, for parametrizing tests. A missing folder gives one placeholder
    name: the test still runs and fails through the `kanzi39` fixture, never skips."""
    names = [str((KANZI39 / sub / f.name).relative_to(KANZI39)) for sub in KANZI39_FOLDERS
             if (KANZI39 / sub).is_dir() for f in sorted((KANZI39 / sub).iterdir())
             if f.suffix in (".kzproj", ".kzmat")]
    return names or ["(the kanzi39 folder is missing)"]


def require_dir(path: Path, what: str, variable: str) -> Path:
    """`path` when it is a folder; else the test FAILS (a skipped check of the real files
    would pass silently on a machine that lacks them)."""
    if not Path(path).is_dir():
        pytest.fail(f"{what} not found at {path} (set {variable} to their folder)", pytrace=False)
    return Path(path)


@pytest.fixture(scope="session")
def gl_ctx():
    from kzplayer.gpu.context import create_context
    ctx = create_context(headless=True)   # raises KzError with a clear message when impossible
    yield ctx
    ctx.release()


@pytest.fixture
def ctx(gl_ctx):
    """The session context, checked for GL errors before and after each test."""
    assert gl_ctx.error == "GL_NO_ERROR"
    yield gl_ctx
    assert gl_ctx.error == "GL_NO_ERROR"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared: spec/, design/, kanzi39/. Absent folder = a clear failure, not a silent pass."""
    return require_dir(SHARED, "the shared folder (spec/, design/, kanzi39/)", "KZPLAYER_SHARED")


@pytest.fixture(scope="session")
def kanzi39() -> Path:
    """The real Kanzi Studio 3.9 files (KZPLAYER_KANZI39 overrides <shared>/kanzi39)."""
    return require_dir(KANZI39, "the real Kanzi files", "KZPLAYER_KANZI39")
