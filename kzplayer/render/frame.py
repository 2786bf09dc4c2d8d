"""What one frame draws, read from the scene and the simulation (no GL here).

`FrameBuilder(scene).build(sim)` turns the running scene (kzplayer.scene) into a `Frame`: every
visible emitter with its rendering material, blend mode, sorting, mesh and Node.Opacity
(`EmitterDraw`), every visible Model3D with its mesh (`ModelDraw`), and the scene's lights,
each with its place in tree order (the order blended things are drawn in). Problems found on
the way (a mesh that cannot be read, a texture outside the project, a custom rendering
material without a shader pair) are Diagnostics in `Frame.problems`, not exceptions: the
rest of the frame still draws.

Property values are the scene's, as they play (bindings, legacy presets, the catalog's
clamps: kzplayer.scene.values); another name of a property (kzplayer's earlier
ColorOverLife.StartColor for ParticlesOverLife.ColorStart) and an earlier enum word
(SortingType BackToFront for Depth) are the catalog's aliases, read as the entry they name
by the loader and the binding graph.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu.mesh_data import PARTICLE_MESH_DRAW_BUDGET, PARTICLE_MESH_TRIANGLE_BUDGET
from kzplayer.meshes import MeshError, inside_project
from kzplayer.project.paths import resolve
from kzplayer.render.camera import camera_from_item
from kzplayer.render.lights import SceneLights, scene_lights
from kzplayer.render.materials import RenderMaterial, resolve_render_material, stock_material
from kzplayer.project.paths import resolve as resolve_path
from kzplayer.render.post import PostSettings, post_settings
from kzplayer.scene import Scene
from kzplayer.transforms import world_matrix

BLENDS = ("Additive", "Alpha", "Opaque")
SORTINGS = ("Identity", "Depth", "ReverseDepth", "Unsorted")


@dataclass(eq=False)
class EmitterDraw:
    """One emitter as the renderer draws it. `values(name)` reads the node's properties
    (uniforms come from them); `files(name)` turns a file name the node gives into a path
    inside the project (None when refused)."""
    key: str
    particles: object                      # the Particle Data Buffer (moderngl Buffer)
    capacity: int
    material: object                       # RenderMaterial
    values: Callable[[str], object]
    files: Callable[[str], Path | None] = lambda name: Path(name)
    model: np.ndarray = field(default_factory=lambda: np.eye(4))
    blend: str = "Additive"
    sorting: str = "Identity"
    mesh: object = None                    # MeshData of ParticleEmitter.ParticleMesh
    cast_light: bool = False
    opacity: float = 1.0
    order: int = 0                         # place in tree order
    history: "HistoryDraw | None" = None   # the position history, for trails
    sort_view: np.ndarray | None = None    # ParticleSystem.SortingCamera's view; None: the drawing camera's
    sides: int | None = None               # the geometry LOD's sides (fan, tube); None: the most
    bolt_node: tuple | None = None         # Particles_Lightning: Lightning.TargetNode's world position
    bolt_source: str | None = None         # ... the key of the emitter Lightning.TargetParticles names
    stamp: object = None                   # the same object while `values` reads the same (a live
    # edit that reaches the node gives a new one): what the renderer's per-draw values are kept by

    @property
    def opaque(self) -> bool:
        return self.blend == "Opaque"


@dataclass(frozen=True)
class HistoryDraw:
    """An emitter's position history as a drawing binds it (render/history.glsl): `buffer`
    (bind_to_storage_buffer) holds N rows of `stride` vec4, entry k of slot s at
    k x stride + s; `newest` is the ring entry the last step wrote."""
    buffer: object
    length: int
    newest: int
    stride: int


@dataclass(eq=False)
class ModelDraw:
    """A Model3D node: its mesh at its world matrix, with the scene's lit material."""
    key: str
    mesh: object                           # MeshData
    model: np.ndarray
    values: Callable[[str], object]
    files: Callable[[str], Path | None] = lambda name: Path(name)
    opacity: float = 1.0
    order: int = 0

    @property
    def opaque(self) -> bool:
        return self.opacity >= 1.0


@dataclass
class Frame:
    emitters: list[EmitterDraw] = field(default_factory=list)
    models: list[ModelDraw] = field(default_factory=list)
    lights: SceneLights = field(default_factory=SceneLights)
    post: PostSettings = field(default_factory=PostSettings)     # exposure, bloom, tone curve
    time: float = 0.0
    problems: list[Diagnostic] = field(default_factory=list)


def history_of(source) -> HistoryDraw | None:
    """The HistoryDraw of a simulation's emitter (em.buffers) or of hand-made RecordBuffers
    made with a history; None when it keeps none."""
    buffers = getattr(source, "buffers", source)
    n = getattr(buffers, "history_length", 0)
    if not n:
        return None
    newest = source.history_newest if hasattr(source, "history_newest") else buffers.history_newest
    return HistoryDraw(buffers.history, n, newest, buffers.history_stride)


def _warning(rule: str, code: str, message: str, span=None, hint=None) -> Diagnostic:
    return Diagnostic(code, rule, Severity.WARNING, message, span, hint=hint)


class FrameBuilder:
    """Builds Frames for one scene (`FrameBuilder(scene)`; `FrameBuilder(project, graph)`
    reads a scene of its own); remembers what it resolved (materials, meshes, property
    values) and the problems it found, so each is reported once. A run does not change a
    property (--set comes before it); after a change of the scene, call `refresh()`."""

    def __init__(self, scene, graph=None, catalog=None):
        if not isinstance(scene, Scene):     # a project: its scene, its broken materials left out
            scene = Scene(scene, graph, leave_out_broken=True)
        self.scene = scene
        self.project = scene.project
        self.catalog = catalog or scene.catalog
        self.values = scene.values
        self.problems: list[Diagnostic] = []
        self._order = {id(item): n for n, item in enumerate(self.project.walk())}
        self._materials: dict = {}
        self._meshes: dict = {}
        self._values: dict = {}
        self._files: dict = {}        # a name -> its path or what refuses it (realpath per draw: slow)
        self._stamps: dict = {}       # id(item) -> its EmitterDraw.stamp

    def value(self, item, name):
        # read once per run: the scene's rule (presets, clamps) costs ~0.1 ms a property
        key = (id(item), name)
        if key not in self._values:
            self._values[key] = self.values.value(item, name)
        return self._values[key]

    def refresh(self) -> None:
        """Forget what was read: property values, materials and meshes are read again."""
        self.values = self.scene.values
        self._values.clear()
        self._stamps.clear()
        self._materials.clear()
        self._meshes.clear()
        self._files.clear()

    def forget(self, change) -> None:
        """Forget what was read of the items a live edit reached (the scene's Change): the
        nodes it set and everything below them, and the ParticleSystems it touched."""
        roots = [item for item, _ in change.values if item is not None]
        roots += [s.item for s in self.scene.systems if s.item.path in set(change.systems)]
        gone = {id(node) for root in roots for node in root.walk()}
        if gone:
            self._values = {k: v for k, v in self._values.items() if k[0] not in gone}
            self._stamps = {k: v for k, v in self._stamps.items() if k not in gone}

    def _problem(self, d: Diagnostic) -> None:
        if d not in self.problems:
            self.problems.append(d)

    def opacity(self, item) -> float:
        """Node.Opacity multiplied down the tree; 0 where the node or an ancestor has
        Node.Visible = false (catalog: a hidden node and everything below it is not drawn)."""
        key = (id(item), "#opacity")
        if key not in self._values:
            self._values[key] = self.scene.opacity(item, self.value)     # the ancestors' values kept too
        return self._values[key]

    def files_of(self, item) -> Callable[[str], Path | None]:
        def files(name):
            if name not in self._files:
                try:
                    self._files[name] = inside_project(self.project, name)
                except MeshError as exc:
                    self._files[name] = exc
            found = self._files[name]
            if isinstance(found, MeshError):
                self._problem(_warning("path.outside-project", "KZ008", f"{item.path}: {found}"))
                return None
            return found
        return files

    def material(self, item):
        ref = self.value(item, "ParticleEmitter.ParticleMaterial")
        key = str(ref) if ref is not None else ""
        if key not in self._materials:
            try:
                found = resolve_render_material(self.project, self.catalog, ref,
                                                f"{item.path}: ParticleEmitter.ParticleMaterial",
                                                span=self.values.span(item, "ParticleEmitter.ParticleMaterial"))
            except KzError as exc:
                for d in exc.diagnostics:
                    self._problem(Diagnostic(d.code, d.rule, Severity.WARNING,
                                             d.message + "; drawn with ParticlesDefault", d.span))
                found = stock_material(self.catalog)
            if not isinstance(found, RenderMaterial):
                self._problem(found)
                found = stock_material(self.catalog)
            self._materials[key] = found
        return self._materials[key]

    def mesh(self, item, name: str):
        ref = self.value(item, name)
        if ref is None or str(getattr(ref, "path", ref)).strip() == "":
            return None
        key = (id(item), name, str(getattr(ref, "path", ref)))
        if key not in self._meshes:
            try:
                self._meshes[key] = self.scene.mesh(item, name)
            except MeshError as exc:
                self._problem(_warning("mesh.unreadable", "KZ701", f"{item.path}: {name}: {exc}",
                                       self.values.span(item, name)))
                self._meshes[key] = None
        return self._meshes[key]

    def _bolt_target(self, item):
        """(world position of Lightning.TargetNode or None, the emitter key that
        Lightning.TargetParticles' buffer belongs to or None) of a lightning emitter."""
        node = None
        ref = self.value(item, "Lightning.TargetNode")
        path = str(getattr(ref, "path", ref) or "").strip()
        if path:
            found = resolve_path(self.project, path, item)
            if found:
                node = tuple(float(c) for c in world_matrix(found, self.value)[:3, 3])
            else:
                self._problem(_warning("path.unresolved", "KZ101", f"{item.path}: Lightning.TargetNode: {found.message}; "
                                       "the bolt ends at Lightning.Target from its particle",
                                       self.values.span(item, "Lightning.TargetNode")))
        owner = getattr(self.value(item, "Lightning.TargetParticles"), "owner", None)
        return node, (str(owner) if owner else None)

    def sorting_view(self, item):
        """The view matrix of the emitter's ParticleSystem.SortingCamera (the glossary's
        sorting camera), None when the system names none: then the drawing camera sorts.
        A reference to no Camera is a warning, and the drawing camera sorts."""
        system = item.parent
        while system is not None and system.type != "ParticleSystem":
            system = system.parent
        ref = self.value(system, "ParticleSystem.SortingCamera") if system is not None else None
        text = str(getattr(ref, "path", ref) or "").strip()
        if not text:
            return None
        key = (id(system), "#sorting-camera", text)
        if key not in self._values:
            found = resolve(self.project, text, system)
            if not found or found.type != "Camera":
                self._problem(_warning("path.unresolved", "KZ101", f"{system.path}: ParticleSystem.SortingCamera: "
                                       f"{text} names no Camera; the drawing camera sorts",
                                       self.values.span(system, "ParticleSystem.SortingCamera")))
                self._values[key] = None
            else:
                self._values[key] = camera_from_item(found, self.value).view
        return self._values[key]

    def build(self, sim, time: float = 0.0) -> Frame:
        frame = Frame(time=time)
        value = self.value
        for em in sim.emitters:
            item = em.item
            opacity = self.opacity(item)
            if opacity <= 0.0 or not em.capacity:
                continue
            material = self.material(item)
            mesh = self.mesh(item, "ParticleEmitter.ParticleMesh")
            if mesh is not None and "mesh" not in material.geometry:
                self._problem(_warning("material.unsupported", "KZ405",
                                       f"{item.path}: {material.name} cannot draw a ParticleMesh; drawn as billboards"))
                mesh = None
            if mesh is not None and (problem := particle_mesh_budget(item.path, mesh.triangles, em.capacity)):
                self._problem(Diagnostic("KZ706", "mesh.particle-budget", Severity.WARNING, problem,
                                         self.values.span(item, "ParticleEmitter.ParticleMesh")))
                mesh = None
            blend = str(value(item, "Particle.BlendMode") or "Additive")
            if mesh is not None and not self.values.authored(item, "Particle.BlendMode"):
                blend = "Opaque"            # mesh particles are solid unless the node says otherwise
            sorting = str(value(item, "ParticleEmitter.SortingType") or "Identity")
            frame.emitters.append(EmitterDraw(
                key=item.path, particles=em.particles, capacity=em.capacity, material=material,
                values=(lambda name, item=item: value(item, name)), files=self.files_of(item),
                model=em.simulation_to_world, blend=blend if blend in BLENDS else "Additive",
                sorting=sorting if sorting in SORTINGS else "Identity", mesh=mesh,
                cast_light=value(item, "ParticleEmitter.CastLight") is True, opacity=opacity,
                order=self._order.get(id(item), 0), history=history_of(em),
                sort_view=self.sorting_view(item) if sorting in ("Depth", "ReverseDepth") else None,
                stamp=self._stamps.setdefault(id(item), object())))
            if "bolt" in material.geometry:
                frame.emitters[-1].bolt_node, frame.emitters[-1].bolt_source = self._bolt_target(item)
        frame.emitters.sort(key=lambda e: e.order)
        for item in self.scene.models():
            opacity = self.opacity(item)
            if opacity <= 0.0:
                continue
            mesh = self.mesh(item, "Model3D.Mesh")
            if mesh is None:
                continue
            frame.models.append(ModelDraw(key=item.path, mesh=mesh, model=world_matrix(item, value),
                                          values=(lambda name, item=item: value(item, name)),
                                          files=self.files_of(item), opacity=opacity,
                                          order=self._order.get(id(item), 0)))
        frame.lights = scene_lights(self.project, value, lambda item: self.opacity(item) > 0.0)
        frame.post = post_settings(self.project, value)
        for item in frame.lights.dropped:
            self._problem(_warning("light.limit", "KZ703", f"{item.path}: more than 8 {item.type} nodes are on; "
                                   "this one lights nothing", item.span))
        frame.problems = self.problems
        return frame


def particle_mesh_budget(path: str, triangles: int, capacity: int) -> str | None:
    """Why a ParticleMesh is drawn as billboards instead (None: it is drawn): a mesh of more
    than PARTICLE_MESH_TRIANGLE_BUDGET triangles, or more than PARTICLE_MESH_DRAW_BUDGET
    triangles drawn for a full pool (every particle draws the whole mesh)."""
    if triangles > PARTICLE_MESH_TRIANGLE_BUDGET:
        return (f"{path}: the ParticleMesh has {triangles:,} triangles, more than a particle's mesh may have "
                f"({PARTICLE_MESH_TRIANGLE_BUDGET:,}); drawn as billboards")
    if triangles * capacity > PARTICLE_MESH_DRAW_BUDGET:
        return (f"{path}: {capacity:,} particles of a {triangles:,}-triangle ParticleMesh are "
                f"{triangles * capacity:,} triangles a frame, more than one emitter's draw may be "
                f"({PARTICLE_MESH_DRAW_BUDGET:,}); drawn as billboards")
    return None
