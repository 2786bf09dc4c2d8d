"""The OpenGL context: standalone EGL with compute shaders, and a plain KzError (exit 1)
when no OpenGL 4.3 context can be had."""
from __future__ import annotations

import moderngl
import pytest

from kzplayer.diagnostics import KzError
from kzplayer.gpu import context


def test_headless_context_has_compute_shaders(ctx):
    assert ctx.version_code >= 430
    assert "OpenGL" in context.describe(ctx)


def test_no_context_is_a_plain_error(monkeypatch):
    def refuse(**kwargs):
        raise moderngl.Error("eglInitialize failed (0x3001)\nmore detail")
    monkeypatch.setattr(context.moderngl, "create_context", refuse)
    with pytest.raises(KzError) as err:
        context.create_context(headless=True)
    assert err.value.exit_code == 1
    [d] = err.value.diagnostics
    assert d.rule == "gpu.context" and "OpenGL 4.3" in d.message and "eglInitialize failed" in d.message
    assert "more detail" not in d.message and d.hint


def test_too_old_a_context_is_refused(monkeypatch):
    class Old:
        version_code = 330
        released = False

        def release(self):
            self.released = True
    old = Old()
    monkeypatch.setattr(context.moderngl, "create_context", lambda **kwargs: old)
    with pytest.raises(KzError) as err:
        context.create_context(headless=True)
    assert "OpenGL 3.3" in err.value.diagnostics[0].message and old.released
