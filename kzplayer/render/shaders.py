"""The renderer's programs: vertex + fragment pairs (stock and custom rendering materials,
the scene's lit material, the resolve pass) and its compute passes (live list, sort, light
gather), all through the gpu preprocessor, so `#include` works and a driver error is
reported at the right file and line, as for compute materials.

Programs are cached per (files, defines); `RenderPrograms.release()` frees them. Each entry is
`(program, initial)` where `initial` holds every plain uniform's value as compiled (the GLSL
initializer), which is what a property without a value falls back to.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import moderngl
import numpy as np

from kzplayer.diagnostics import KzError
from kzplayer.gpu.preprocessor import preprocess
from kzplayer.gpu.shader_errors import compile_compute, parse_log
from kzplayer.gpu.shader_limits import check_compilable, compiling
from kzplayer.resources import shader_dir


@dataclass(frozen=True)
class ShaderFile:
    """A GLSL file and how messages name it; `root`: the folder its #includes may read
    besides the shader library (a custom material's project folder; None: its own folder)."""
    path: Path
    display: str
    root: Path | None = None

    @property
    def roots(self):
        return None if self.root is None else (self.root,)

    @staticmethod
    def stock(rel: str) -> "ShaderFile":
        return ShaderFile(shader_dir() / rel, f"shaders/{rel}")


def build_program(ctx, vertex: ShaderFile | str, fragment: ShaderFile | str, defines: dict | None = None):
    """A moderngl Program from two files (ShaderFiles, or names relative to shaders/); a
    compile or link error raises KzError with diagnostics at the files' own lines."""
    files = {"vertex_shader": _file(vertex), "fragment_shader": _file(fragment)}
    stages = {name: preprocess(f.path, defines, display_name=f.display, roots=f.roots)
              for name, f in files.items()}
    for src in stages.values():
        check_compilable(src)            # what would crash or hang the compiler, refused first
    try:
        with compiling():
            return ctx.program(**{name: src.text for name, src in stages.items()})
    except Exception as exc:  # moderngl raises a bare Error carrying the driver log
        log = str(exc)
        # moderngl names the failing stage in the log; source-string numbers are per stage.
        failing = next((name for name in stages if name in log), "vertex_shader")
        raise KzError(parse_log(log, stages[failing]), exit_code=1) from None


def _file(f: ShaderFile | str) -> ShaderFile:
    return f if isinstance(f, ShaderFile) else ShaderFile.stock(f)


def uniform_defaults(program) -> dict:
    """Every plain uniform of a program with its compiled (initializer) value."""
    return {name: m.value for name, m in program._members.items() if isinstance(m, moderngl.Uniform)}


class RenderPrograms:
    """Render and compute programs by (files, defines), compiled once."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._programs: dict[tuple, tuple] = {}
        self._failed: dict[tuple, KzError] = {}     # a pair that did not compile is not tried every frame

    def render(self, vertex: ShaderFile | str, fragment: ShaderFile | str, defines: dict | None = None):
        vertex, fragment = _file(vertex), _file(fragment)
        key = ("render", str(vertex.path), str(fragment.path), _key(defines))
        if key in self._failed:
            failed = self._failed[key]
            raise KzError(failed.diagnostics, failed.exit_code)
        if key not in self._programs:
            try:
                program = build_program(self.ctx, vertex, fragment, defines)
            except KzError as exc:
                self._failed[key] = exc
                raise
            self._programs[key] = (program, uniform_defaults(program))
        return self._programs[key]

    def compute(self, rel: ShaderFile | str, defines: dict | None = None):
        """A compute pass: a file of shaders/render/ (named relative to shaders/), or a
        ShaderFile (a stock material's vertex file compiled as its per-particle pass)."""
        f = _file(rel)
        key = ("compute", str(f.path), _key(defines))
        if key not in self._programs:
            source = preprocess(f.path, defines, display_name=f.display, roots=f.roots)
            program = compile_compute(self.ctx, source)
            self._programs[key] = (program, uniform_defaults(program))
        return self._programs[key]

    def release(self) -> None:
        for program, _ in self._programs.values():
            program.release()
        self._programs.clear()
        self._failed.clear()


def _key(defines: dict | None) -> tuple:
    return tuple(sorted((defines or {}).items()))


def set_uniform(program, initial: dict, name: str, value) -> None:
    """Set a uniform the program uses (drivers drop unused ones); numpy matrices go over
    column-major."""
    if name not in initial:
        return
    if isinstance(value, np.ndarray):
        program[name].write(np.asarray(value, dtype="f4").T.tobytes())
    else:
        program[name].value = value
