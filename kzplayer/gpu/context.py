"""The one place that creates the OpenGL context.

Headless by default: a standalone EGL context with no display (Mesa llvmpipe on machines
without a GPU, the real driver where one exists). With `window`, the context of that
already-created window (glfw makes it current) is wrapped instead. Either way the context
must offer OpenGL 4.3, the first version with compute shaders and SSBOs; anything less is a
`KzError` (exit 1) with a plain message, never a traceback.
"""
from __future__ import annotations

import moderngl

from kzplayer.diagnostics import Diagnostic, KzError, Severity

REQUIRED_GL = 430


def create_context(headless: bool = True, window=None) -> moderngl.Context:
    """An OpenGL >= 4.3 context: standalone EGL when headless, else the current context of
    `window` (the caller made it current, e.g. glfw.make_context_current)."""
    try:
        if window is not None or not headless:
            ctx = moderngl.create_context(require=REQUIRED_GL)
        else:
            ctx = moderngl.create_context(standalone=True, backend="egl", require=REQUIRED_GL)
    except Exception as exc:  # moderngl raises plain Exception subclasses for every failure
        raise _no_context(str(exc)) from None
    if ctx.version_code < REQUIRED_GL:
        version = ctx.version_code
        ctx.release()
        raise _no_context(f"the driver offers OpenGL {version // 100}.{version % 100 // 10}")
    return ctx


def describe(ctx: moderngl.Context) -> str:
    """`llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5`: for --stats headers and benchmarks."""
    v = ctx.version_code
    return f"{ctx.info.get('GL_RENDERER', '?')}, OpenGL {v // 100}.{v % 100 // 10}"


def _no_context(reason: str) -> KzError:
    first_line = reason.strip().splitlines()[0] if reason.strip() else "unknown reason"
    return KzError(Diagnostic(
        code="KZ901", rule="gpu.context", severity=Severity.ERROR,
        message=f"no OpenGL 4.3 context could be created ({first_line})",
        hint="kzplayer needs compute shaders: install Mesa (llvmpipe works without a GPU) "
             "with EGL, or a GPU driver with OpenGL 4.3",
    ), exit_code=1)
