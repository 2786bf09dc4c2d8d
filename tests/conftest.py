"""Shared fixtures. The OpenGL context is created once per session on standalone EGL
(Mesa llvmpipe where there is no GPU). A missing context FAILS the GPU tests: a GPU test
that skips on CI would hide the product."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
KANZI39 = Path(os.environ.get("KZPLAYER_KANZI39", SHARED / "kanzi39"))


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
def kanzi39() -> Path:
    """The real Kanzi Studio 3.9 files. Absent folder = a clear failure, not a silent pass."""
    if not KANZI39.is_dir():
        pytest.fail(f"real Kanzi files not found at {KANZI39} (set KZPLAYER_KANZI39 to their folder)")
    return KANZI39
