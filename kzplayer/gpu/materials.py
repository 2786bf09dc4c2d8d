"""Materials -> compute programs, and property values -> uniforms.

A material (stock or a project's custom MaterialType) is one .glsl file that defines the
function of its slot; the program is that file preprocessed behind the slot's main
(`Particles/main_<slot>.glsl`), so a driver error points into the material's own file.
A property `Type.Name` the material reads is the uniform `Type_Name`; its value comes from
the binding graph (catalog default when unset, the GLSL initializer as a last resort).
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

# The slots the simulation runs, and the main each one's material is compiled behind.
SLOT_MAINS = {
    "EmissionCount": "Particles/main_count.glsl",
    "Emission": "Particles/main_emission.glsl",
    "Affector": "Particles/main_affector.glsl",
    "Collider": "Particles/main_collider.glsl",
    "GenerateEvents": "Particles/main_events.glsl",
}


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
    """Compiled programs by (file, slot main, defines); emitters sharing a material share it."""

    def __init__(self, ctx: moderngl.Context):
        self.ctx = ctx
        self._programs: dict[tuple, tuple[moderngl.ComputeShader, dict]] = {}

    def material(self, material: Material, defines: dict | None = None):
        roots = (material.root,) if material.root is not None else None
        return self._get(material.shader, material.display, SLOT_MAINS[material.slot], defines, roots)

    def stage(self, file: str, defines: dict | None = None):
        """A built-in pass (Particles/pass_*.glsl)."""
        path = shader_dir() / file
        return self._get(path, f"shaders/{file}", "", defines)

    def _get(self, path: Path, display: str, main: str, defines: dict | None, roots=None):
        key = (str(path), main, tuple(sorted((defines or {}).items())))
        if key not in self._programs:
            prelude = f'#include "{main}"' if main else ""
            source = preprocess(path, defines, display_name=display, prelude=prelude, roots=roots)
            program = compile_compute(self.ctx, source)
            initial = {name: m.value for name, m in program._members.items()
                       if isinstance(m, moderngl.Uniform)}
            self._programs[key] = (program, initial)
        return self._programs[key]

    def release(self) -> None:
        for program, _ in self._programs.values():
            program.release()
        self._programs.clear()


def uniform_values(program_entry, material: Material, read, known=lambda name: False) -> list[tuple[str, object]]:
    """(uniform, value) pairs for the properties a program reads: those the material
    declares, and any other uniform named after a known property (`known(name)`), so a
    custom emitter that includes Particles/emitter_common.glsl gets the common contract.
    `read(name)` is the value after bindings, None when neither node nor catalog has one."""
    program, initial = program_entry
    by_uniform = {uniform_name(p): p for p in material.reads}
    for uname in initial:
        guess = uname.replace("_", ".", 1)
        if uname not in by_uniform and not uname.startswith("kz_") and known(guess):
            by_uniform[uname] = guess
    pairs = []
    for uname, prop in by_uniform.items():
        if uname not in initial:
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
