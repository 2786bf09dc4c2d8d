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


def build_program(ctx, vertex: ShaderFile | str, fragment: ShaderFile | str, defines: dict | None = None,
                  paths: set | None = None):
    """A moderngl Program from two files (ShaderFiles, or names relative to shaders/); a
    compile or link error raises KzError with diagnostics at the files' own lines.
    `paths`, when given, gets every file the two stages were made of."""
    files = {"vertex_shader": _file(vertex), "fragment_shader": _file(fragment)}
    stages = {name: preprocess(f.path, defines, display_name=f.display, roots=f.roots)
              for name, f in files.items()}
    if paths is not None:
        paths.update(p for src in stages.values() for p in src.paths)
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
        self._paths: dict[tuple, set] = {}          # key -> the files it was made of (remake)
        self._made: dict[tuple, tuple] = {}         # key -> what it is made from (remake)
        self.generation = 0         # a new one when programs are replaced or released (what a draw keeps of them)

    def render(self, vertex: ShaderFile | str, fragment: ShaderFile | str, defines: dict | None = None):
        vertex, fragment = _file(vertex), _file(fragment)
        key = ("render", str(vertex.path), str(fragment.path), _key(defines))
        if key in self._failed:
            failed = self._failed[key]
            raise KzError(failed.diagnostics, failed.exit_code)
        if key not in self._programs:
            self._made[key] = (vertex, fragment, defines)
            paths = self._paths[key] = {vertex.path.resolve(), fragment.path.resolve()}
            try:
                program = build_program(self.ctx, vertex, fragment, defines, paths)
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
            self._made[key] = (f, defines)
            source = preprocess(f.path, defines, display_name=f.display, roots=f.roots)
            program = compile_compute(self.ctx, source)
            self._paths[key] = set(source.paths)
            self._programs[key] = (program, uniform_defaults(program))
        return self._programs[key]

    def release(self) -> None:
        for program, _ in self._programs.values():
            program.release()
        self._programs.clear()
        self._failed.clear()
        self.generation += 1

    def paths(self) -> set:
        """Every file the programs (and the pairs that failed) were made of, resolved."""
        return set().union(*self._paths.values())

    def remake(self, files) -> list:
        """Compile again the programs made of any of `files` (a live save of a shader file),
        all or none: when one does not compile, every old program stays and its diagnostics
        are returned ([] when all compiled and replaced the old ones)."""
        files = {Path(f).resolve() for f in files}
        made, found = {}, []
        for key in [k for k, paths in self._paths.items() if paths & files]:
            args = self._made[key]
            try:
                if key[0] == "render":
                    paths = {args[0].path.resolve(), args[1].path.resolve()}
                    made[key] = (build_program(self.ctx, *args, paths), paths)
                else:
                    source = preprocess(args[0].path, args[1], display_name=args[0].display, roots=args[0].roots)
                    made[key] = (compile_compute(self.ctx, source), set(source.paths))
            except KzError as exc:
                found += [d for d in exc.diagnostics if d not in found]
        if found:
            for program, _ in made.values():
                program.release()
            return found
        self.generation += 1
        for key, (program, paths) in made.items():
            old = self._programs.pop(key, None)
            if old is not None:
                old[0].release()
            self._failed.pop(key, None)
            self._programs[key], self._paths[key] = (program, uniform_defaults(program)), paths
        return []


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
