"""A slot's material as the scene plays it: what a slot value names, resolved once here.

A material (stock or a project's custom MaterialType) is one .glsl file that defines the
function of its slot; kzplayer.gpu.generate inlines it into its system's programs. The
name in a slot may be an alias, an asset-package path (`kzb://.../Emitter_Box`) or a
legacy name (its preset is the value rule's business: kzplayer.scene.values); all resolve
to the catalog entry that plays. No GL here: the shader is found, not compiled.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity, a_or_an
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


def stock_spec(cat, ref):
    """The catalog's stock MaterialSpec a slot value names under any of its names (alias,
    asset-package path; a legacy name stays legacy), None for an empty slot, an unknown
    or a custom material."""
    spec = cat.material(str(ref)) if ref else None
    return spec if spec is not None and not spec.custom else None


def resolve_material(project, cat, ref, slot: str, where: str, span=None) -> Material | Diagnostic:
    """The Material a slot value names (stock, asset path, legacy, custom). A stock material
    whose shader is not in this build yet comes back as a warning Diagnostic (the slot is
    then skipped); an unknown material, a wrong slot or a missing custom shader raise."""
    name = str(ref)
    spec = cat.material(name)
    if spec is None:
        raise _material_error("material.unknown", f"{where}: unknown material '{name}'", span)
    if spec.legacy:      # its preset is the value rule's business (catalog.default_for)
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
