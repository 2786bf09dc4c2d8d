"""Render programs (vertex + fragment) from the shader library, through the gpu
preprocessor, so `#include "Particles/particle_data.glsl"` works and a driver error is
reported at the right file and line, as for compute shaders."""
from __future__ import annotations

from kzplayer.diagnostics import KzError
from kzplayer.gpu.preprocessor import preprocess
from kzplayer.gpu.shader_errors import parse_log
from kzplayer.resources import shader_dir


def build_program(ctx, vertex: str, fragment: str, defines: dict | None = None):
    """A moderngl Program from two files named relative to shaders/."""
    stages = {name: preprocess(shader_dir() / rel, defines, display_name=f"shaders/{rel}")
              for name, rel in (("vertex_shader", vertex), ("fragment_shader", fragment))}
    try:
        return ctx.program(**{name: src.text for name, src in stages.items()})
    except Exception as exc:  # moderngl raises a bare Error carrying the driver log
        log = str(exc)
        # moderngl names the failing stage in the log; source-string numbers are per stage.
        failing = next((name for name in stages if name in log), "vertex_shader")
        raise KzError(parse_log(log, stages[failing]), exit_code=1) from None
