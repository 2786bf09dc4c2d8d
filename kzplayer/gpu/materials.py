"""Materials: what a slot value names, and property values -> the words of parameters.

A material (stock or a project's custom MaterialType) is one .glsl file that defines the
function of its slot; kzplayer.gpu.generate inlines it into its system's programs, so a
driver error points into the material's own file. A property `Type.Name` the material reads
is its uniform `Type_Name`, a parameter in the generated programs; its value comes from the
binding graph (catalog default when unset, the GLSL initializer as a last resort).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import moderngl

from kzplayer import values as V
from kzplayer.diagnostics import Diagnostic, KzError, Severity, a_or_an
from kzplayer.gpu.preprocessor import preprocess
from kzplayer.gpu.shader_errors import compile_compute
from kzplayer.project.files import Outside, inside, is_file, project_folder
from kzplayer.resources import shader_dir

# The slots the simulation runs.
SLOTS = ("EmissionCount", "Emission", "Affector", "Collider", "GenerateEvents")


@dataclass
class Material:
    """A material resolved for the player: its shader file and the properties it reads."""
    name: str
    slot: str
    shader: Path
    display: str                    # how messages name the file
    reads: tuple[str, ...] = ()
    root: Path | None = None        # a custom material's project folder: its includes may read it


def uniform_name(property_name: str) -> str:
    return property_name.replace(".", "_")


def resolve_material(project, cat, ref, slot: str, where: str, span=None) -> Material | Diagnostic:
    """The Material a slot value names (stock, asset path, legacy, custom). A stock material
    whose shader is not in this build yet comes back as a warning Diagnostic (the slot is
    then skipped); an unknown material, a wrong slot or a missing custom shader raise."""
    name = str(ref)
    spec = cat.material(name)
    if spec is None:
        raise _material_error("material.unknown", f"{where}: unknown material '{name}'", span)
    if spec.legacy:      # its preset is the simulation's business (catalog.default_for)
        spec = cat.material(spec.replacement)
    if spec.slot != slot:
        raise _material_error("material.slot", f"{where}: '{spec.name}' is {a_or_an(spec.slot)} material, "
                                               f"not {a_or_an(slot)} one", span)
    root = None
    if spec.custom:
        root = project_folder(project).resolve()
        try:
            shader = inside(root, spec.shader, [root], f"the shader of material '{spec.name}' ({spec.shader})")
        except Outside as exc:      # the loader reported it (path.outside-project): never read
            raise _material_error("path.outside-project", f"{where}: {exc}", span) from None
        display = str(shader)       # absolute: openable from anywhere, whatever the cwd
    else:
        shader = shader_dir() / (spec.shader or f"{spec.name}.glsl")
        display = f"shaders/{shader.name}"
    if not is_file(shader):
        message = f"{where}: the shader of '{spec.name}' is missing: {display}"
        if spec.custom:
            raise _material_error("material.unknown", message, span)
        return Diagnostic("KZ803", "material.unsupported", Severity.WARNING,
                          f"{where}: kzplayer does not run '{spec.name}' yet; the slot is ignored", span)
    return Material(spec.name, slot, shader, display, tuple(spec.properties), root)


def _material_error(rule: str, message: str, span) -> KzError:
    return KzError(Diagnostic("KZ802", rule, Severity.ERROR, message, span), exit_code=1)


class ProgramCache:
    """Compiled programs by source text: systems (and the fixed passes) that generate the
    same program share it. `_programs` maps a key to (program, its source)."""

    def __init__(self, ctx: moderngl.Context):
        self.ctx = ctx
        self._programs: dict[str, tuple[moderngl.ComputeShader, object]] = {}

    def compile(self, source):
        if source.text not in self._programs:
            self._programs[source.text] = (compile_compute(self.ctx, source), source)
        return self._programs[source.text][0]

    def stage(self, file: str, defines: dict | None = None):
        """A fixed pass (Particles/pass_*.glsl) with these defines."""
        return self.compile(preprocess(shader_dir() / file, defines, display_name=f"shaders/{file}"))

    def release(self) -> None:
        for program, _ in self._programs.values():
            program.release()
        self._programs.clear()


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
        from kzplayer.transforms import srt_matrix
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
    from kzplayer.gpu.glsl import PARAM_TYPES
    n = PARAM_TYPES[glsl_type]
    if isinstance(value, V.EnumValue) or value is None:
        return None
    if isinstance(value, V.Srt3D):
        if glsl_type != "mat4":
            return None
        from kzplayer.transforms import srt_matrix
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
    import numpy as np
    base = glsl_type.rstrip("0123456789")
    if base in ("int", "ivec"):
        return [int(np.int64(int(c)) & 0xFFFFFFFF) for c in comps]
    if base in ("uint", "uvec"):
        return [int(c) & 0xFFFFFFFF for c in comps]
    if base == "bool":
        return [1 if c else 0 for c in comps]
    return [int(w) for w in np.asarray(comps, np.float32).view(np.uint32)]
