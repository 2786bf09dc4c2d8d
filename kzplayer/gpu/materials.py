"""Materials on the GPU: compiled compute programs, and property values -> the words of parameters.

What a slot names is resolved by the scene (kzplayer.scene.materials); kzplayer.gpu.generate
inlines the material's file into its system's programs, so a driver error points into the
material's own file. A property `Type.Name` the material reads
is its uniform `Type_Name`, a parameter in the generated programs; its value comes from the
binding graph (catalog default when unset, the GLSL initializer as a last resort).
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer import values as V
from kzplayer.gpu.code_cache import CodeCache, stamp
from kzplayer.gpu.glsl import PARAM_TYPES
from kzplayer.gpu.preprocessor import preprocess
from kzplayer.gpu.shader_errors import compile_compute
from kzplayer.resources import shader_dir
# What a slot names is the scene's (kzplayer.scene.materials); named here too for
# generate.py and check.py, which import them from this module.
from kzplayer.scene.materials import SLOTS, Material, resolve_material, uniform_name  # noqa: F401
from kzplayer.transforms import srt_matrix


class ComputePrograms:
    """Compiled programs by source text: systems (and the fixed passes) that generate the
    same program share it. `_programs` maps a key to (program, its source)."""

    def __init__(self, ctx: moderngl.Context):
        self.ctx = ctx
        self._programs: dict[str, tuple[moderngl.ComputeShader, object]] = {}
        self.compiled = 0           # programs compiled so far (a live save says how many)
        self.code = CodeCache()     # the generated text of the systems' programs
        self._stages: dict[tuple, tuple] = {}     # (file, defines) -> (program, stamps of its files)

    def compile(self, source):
        if source.text not in self._programs:
            self._programs[source.text] = (compile_compute(self.ctx, source), source)
            self.compiled += 1
        return self._programs[source.text][0]

    def stage(self, file: str, defines: dict | None = None):
        """A fixed pass (Particles/pass_*.glsl) with these defines (preprocessed again only
        when one of its files changed)."""
        key = (file, tuple(sorted((defines or {}).items())))
        hit = self._stages.get(key)
        if hit is not None and all(stamp(p) == s for p, s in hit[1].items()):
            return hit[0]
        source = preprocess(shader_dir() / file, defines, display_name=f"shaders/{file}")
        program = self.compile(source)
        self._stages[key] = (program, {p: stamp(p) for p in source.paths})
        return program

    def release(self) -> None:
        for program, _ in self._programs.values():
            program.release()
        self._programs.clear()
        self._stages.clear()

    def keep_only(self, used) -> None:
        """Free every program not in `used` (a live save: the old programs of a rebuilt
        system, used by nobody now)."""
        keep = {id(p) for p in used}
        for text in [t for t, (p, _) in self._programs.items() if id(p) not in keep]:
            self._programs.pop(text)[0].release()
        self._stages = {k: v for k, v in self._stages.items() if id(v[0]) in keep}

    def sources(self) -> list:
        """The Source of every compiled program."""
        return [source for _, source in self._programs.values()]

    def paths_of(self, program) -> frozenset:
        """The files one compiled program was made of."""
        return next((source.paths for p, source in self._programs.values() if p is program), frozenset())

    def paths(self) -> set:
        """Every file the compiled programs were made of (resolved): what a save of one of
        them recompiles (kzplayer.render.live watches them)."""
        return {p for source in self.sources() for p in source.paths}


def property_of(uniform: str, material: Material, known) -> str | None:
    """The property a material's uniform `Type_Name` reads: one the material declares, else
    any property of the catalog or the project (`known(name)`), so a custom emitter that
    includes Particles/emitter_common.glsl gets the common contract; None for the others
    (kz_ uniforms are the simulation's own)."""
    for prop in material.reads:
        if uniform_name(prop) == uniform:
            return prop
    guess = uniform.replace("_", ".", 1)
    if not uniform.startswith("kz_") and known(guess):
        return guess
    return None


def uniform_values(program_entry, material: Material, read, known=lambda name: False) -> list[tuple[str, object]]:
    """(uniform, value) pairs for the plain uniforms of a program that is not generated (the
    renderer's materials): those the material declares, and any other uniform named after a
    known property (`known(name)`). `read(name)` is the value after bindings, None when
    neither node nor catalog has one; the uniform's initializer is used then."""
    program, initial = program_entry
    pairs = []
    for uname in initial:
        prop = property_of(uname, material, known)
        if prop is None:
            continue
        value = read(prop)
        converted = _to_uniform(value, program[uname]) if value is not None else None
        pairs.append((uname, initial[uname] if converted is None else converted))
    return pairs


def _to_uniform(value, uniform: moderngl.Uniform):
    """A property value in the shape moderngl wants for this uniform, None if it cannot."""
    if isinstance(value, V.EnumValue):
        return None
    if isinstance(value, V.Srt3D) and uniform.dimension == 16:
        return tuple(float(c) for c in srt_matrix(value).T.reshape(-1))     # column-major
    if isinstance(value, V.Matrix):
        return value.values if len(value.values) == uniform.dimension else None
    if isinstance(value, (V.Vector, V.Color4, tuple, list)):
        comps = tuple(float(c) for c in value)
        return comps if len(comps) == uniform.dimension else None
    if isinstance(value, (bool, int, float)):
        if uniform.gl_type in (0x1404, 0x1405, 0x8B56):     # int, uint, bool
            return int(value)
        return float(value)
    return None


def param_words(value, glsl_type: str):
    """A property value as the words of a parameter of this GLSL type (floats, ints, uints
    and bools as 32-bit words, matrices column-major); None when it does not fit."""
    n = PARAM_TYPES[glsl_type]
    if isinstance(value, V.EnumValue) or value is None:
        return None
    if isinstance(value, V.Srt3D):
        if glsl_type != "mat4":
            return None
        comps = tuple(float(c) for c in srt_matrix(value).T.reshape(-1))     # column-major
    elif isinstance(value, V.Matrix):
        comps = tuple(float(c) for c in value.values)
    elif isinstance(value, (V.Vector, V.Color4, tuple, list)):
        comps = tuple(float(c) for c in value)
    elif isinstance(value, (bool, int, float)):
        comps = (float(value),)
    else:
        return None
    if len(comps) != n:
        return None
    return components_words(comps, glsl_type)


def components_words(comps, glsl_type: str):
    """Numbers -> 32-bit words for a GLSL type (float bits, or integers)."""
    base = glsl_type.rstrip("0123456789")
    if base in ("int", "ivec"):
        return [int(np.int64(int(c)) & 0xFFFFFFFF) for c in comps]
    if base in ("uint", "uvec"):
        return [int(c) & 0xFFFFFFFF for c in comps]
    if base == "bool":
        return [1 if c else 0 for c in comps]
    return [int(w) for w in np.asarray(comps, np.float32).view(np.uint32)]


