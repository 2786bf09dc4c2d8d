"""The running scene: a project and its binding graph read once, as it plays.

`Scene(project, graph)` holds every ParticleSystem (kzplayer.scene.nodes) with its emitters
in dependency order, its affectors (its own and the global ones), colliders and channels;
each slot's material as it plays (kzplayer.scene.materials: aliases, asset paths, legacy
names; a material that cannot be resolved is left out with a diagnostic when
`leave_out_broken`, else raises); every value as it plays (kzplayer.scene.values:
bindings, presets, clamps, --set); visibility and opacity down the tree; the Model3D nodes,
lights and viewport. The GPU (kzplayer.gpu.Simulation), the frame builder
(kzplayer.render.frame), validate and `play` all read it.

It is also the one object that takes a change: `set_value(item, name, value)` and
`replace_item(old, new)` return a `Change` saying which systems, emitters and properties
it touches and whether the GPU must rebuild programs or buffers (else new parameter words
are enough).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kzplayer.bindings import resolve
from kzplayer.diagnostics import Diagnostic, KzError
from kzplayer.meshes import mesh_for
from kzplayer.project.prefab_instances import instance, is_placeholder, origins
from kzplayer.scene.events import dependency_order, event_source
from kzplayer.scene.materials import Material, resolve_material, stock_spec
from kzplayer.scene.nodes import SceneAffector, SceneCollider, SceneEmitter, SceneSystem, emitter_space
from kzplayer.scene.values import Values
from kzplayer.transforms import world_matrix

DEFAULT_VIEWPORT = (640, 360)
# slot property -> (the emitter record's field, the slot it fills)
EMITTER_SLOTS = {"ParticleEmitter.EmissionCountMaterial": ("count", "EmissionCount"),
                 "ParticleEmitter.EmissionMaterial": ("emission", "Emission"),
                 "ParticleEmitter.SelfAffectMaterial": ("self_affect", "Affector"),
                 "ParticleEmitter.GenerateEventsMaterial": ("events", "GenerateEvents")}


@dataclass
class Change:
    """What a change of the scene touches: the (item, property) nodes whose value changed
    (bindings downstream included), the systems and emitters (paths) whose records they
    reach, and whether programs or buffers must be rebuilt (`rebuild`: a material, a level,
    a pool, a space or a channel changed; else the parameter words are enough)."""
    values: set = field(default_factory=set)
    systems: list[str] = field(default_factory=list)
    emitters: list[str] = field(default_factory=list)
    rebuild: bool = False

    @property
    def params(self) -> set[str]:
        return {name for _, name in self.values}


class Scene:
    def __init__(self, project, graph=None, *, seed: int | None = None, leave_out_broken: bool = False,
                 records: bool = True):
        """`records=False`: values, materials and meshes only, no node records (validate,
        which reads a project that may not play: its graph may be None, its events a cycle)."""
        self.project = project
        self.graph = graph if graph is not None or not records else resolve(project)
        self.catalog = project.catalog      # the stock catalog plus the project's custom types
        self.values = Values(self.graph, self.catalog)
        self.seed = seed                    # overrides every Emission.Seed
        self.leave_out_broken = leave_out_broken
        self.diagnostics: list[Diagnostic] = []   # warnings: slots left out, sources refused
        self.systems: list[SceneSystem] = []
        self.emitters: list[SceneEmitter] = []    # every system's, dependency order within each
        if records:
            self._build()
            self.refresh()

    # -- values --------------------------------------------------------------------------
    def value(self, item, name: str):
        """A property as it plays (the one rule: kzplayer.scene.values)."""
        return self.values.value(item, name)

    def visible(self, item) -> bool:
        """False when the node or an ancestor has Node.Visible = false (the catalog: a hidden
        node and everything below it is neither simulated nor drawn)."""
        node = item
        while node is not None:
            if self.values.value(node, "Node.Visible") is False:
                return False
            node = node.parent
        return True

    def world(self, item) -> np.ndarray:
        return world_matrix(item, self.values.value)

    def warn(self, diagnostic: Diagnostic) -> None:
        if diagnostic not in self.diagnostics:
            self.diagnostics.append(diagnostic)

    # -- materials and meshes --------------------------------------------------------------
    def material(self, item, slot_property: str, slot: str) -> Material | None:
        """The material in a slot as it plays; None for an empty slot, one kzplayer does not
        run yet (a warning) or, with leave_out_broken, one that cannot be resolved."""
        ref = self.values.value(item, slot_property)
        if ref is None or str(ref) == "":
            return None
        try:
            found = resolve_material(self.project, self.catalog, ref, slot, f"{item.path}: {slot_property}",
                                     span=self.values.span(item, slot_property))
        except KzError as exc:           # unknown, another slot's, outside the project
            if not self.leave_out_broken:
                raise
            for d in exc.diagnostics:
                self.warn(d)
            return None
        if isinstance(found, Diagnostic):
            self.warn(found)
            return None
        return found

    def plays(self, item, slot_property: str, material: str) -> bool:
        """Whether the slot, after bindings, holds the stock `material` under any of its
        names (alias, asset-package path)."""
        spec = stock_spec(self.catalog, self.values.bound(item, slot_property))
        # a preset name plays its replacement (Kanzi's Emitter_MeshSurface is Emitter_Mesh)
        return spec is not None and material in (spec.name, spec.replacement)

    def mesh(self, item, name: str):
        """The MeshData a mesh reference names after bindings (Model3D.Mesh, Emission.Mesh,
        Collider.Mesh, ParticleEmitter.ParticleMesh), through the one mesh loader;
        kzplayer.meshes.MeshError when it cannot be read (an empty reference too)."""
        return mesh_for(self.project, self.values.value(item, name), item)

    def leave_out(self, node, field_name: str, diagnostics=()) -> None:
        """A node's material that cannot run (a mesh refused, a shader that does not compile)
        leaves its slot out; the diagnostics say why."""
        for d in diagnostics:
            self.warn(d)
        setattr(node, field_name, None)

    # -- the rest of the scene -----------------------------------------------------------
    def opacity(self, item, value=None) -> float:
        """Node.Opacity multiplied down the tree; 0 where the node or an ancestor is hidden.
        `value(item, name)`: a reader of the scene's values that keeps them (the frames')."""
        value = value or self.values.value
        opacity = 1.0
        node = item
        while node is not None:
            if value(node, "Node.Visible") is False:
                return 0.0
            o = value(node, "Node.Opacity")
            if isinstance(o, (int, float)) and not isinstance(o, bool):
                opacity *= min(max(float(o), 0.0), 1.0)
            node = node.parent
        return opacity

    def models(self) -> list:
        """The Model3D nodes, tree order."""
        return [item for item in self.project.walk() if item.type == "Model3D"]

    def viewport_size(self, limit: int) -> tuple[int, int]:
        """The first Viewport2D's Node.Width x Node.Height, else 640x360; a side past `limit`
        is clamped to it, a value that is no number (NaN, infinite) falls back to 640x360."""
        for item in self.project.walk():
            if item.type == "Viewport2D":
                sides = (self.values.bound(item, "Node.Width"), self.values.bound(item, "Node.Height"))
                if all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 1
                       for v in sides):
                    return tuple(int(round(min(v, limit))) for v in sides)
                break
        return DEFAULT_VIEWPORT

    # -- changes ---------------------------------------------------------------------------
    def set_value(self, item, name: str, value) -> Change:
        """Set a property through the binding graph and re-read the scene. Refreshed even
        when the graph's value did not change: setting a property to its catalog default
        still makes it the node's own, which beats a legacy preset."""
        changed = self.graph.set_value(item, name, value)
        return self._changed(changed | {(item, name)})

    def rebind(self, item, bindings) -> Change:
        """Give `item` new bindings through the graph (BindingGraph.rebind: only what they
        reach runs again) and re-read the systems whose values changed."""
        return self._changed(self.graph.rebind(item, bindings))

    def replace_item(self, old, new) -> Change:
        """Put `new` where `old` is in the tree (an edited node) and rebuild the scene's
        records and binding graph from it."""
        parent = old.parent
        if parent is None:
            raise ValueError(f"'{old.path}' is the project's root: it cannot be replaced")
        k = next(i for i, c in enumerate(parent.children) if c is old)
        parent.children[k] = new
        new.parent = parent
        self.graph = resolve(self.project)
        self.values = Values(self.graph, self.catalog)
        self.systems, self.emitters = [], []
        self._build()
        self.refresh()
        touched = [s for s in self.systems if _reaches(new, s)]
        return Change({(new, n) for n in new.properties}, [s.item.path for s in touched],
                      [e.path for s in touched for e in s.emitters if _reaches_emitter({(new, None)}, e)],
                      rebuild=True)       # new records: the GPU builds them afresh

    def _changed(self, nodes: set) -> Change:
        before = [_shape(s) for s in self.systems]
        # the systems the changed nodes are in or above; every system when one is an
        # affector (a global force acts on systems it is not in) or a DataContext value
        affected = None if any(i is None or i.type == "ParticleAffector" for i, _ in nodes) else \
            {s.item.path for s in self.systems if any(_reaches(i, s) for i, _ in nodes)}
        with self.values.steady():      # the graph is as it will stay: each value read once
            self.refresh(affected)
        items = {id(i) for i, _ in nodes if i is not None}
        touched = [s for s in self.systems if any(_reaches(i, s) for i, _ in nodes if i is not None)
                   or any(id(a.item) in items for a in s.affectors)
                   or any(_reaches_emitter(nodes, e) for e in s.emitters)]     # through a prefab
        rebuild = any(b != _shape(s) for b, s in zip(before, self.systems))
        return Change(set(nodes), [s.item.path for s in touched],
                      [e.path for s in touched for e in s.emitters if _reaches_emitter(nodes, e)], rebuild)

    # -- reading the tree ----------------------------------------------------------------
    def _build(self) -> None:
        number = 0
        self._affector_items = [item for item in self.project.walk() if item.type == "ParticleAffector"]
        for item in self.project.walk():
            if item.type != "ParticleSystem":
                continue
            system = SceneSystem(item)
            for node in _members(item):
                if node.type == "ParticleEmitter":
                    system.emitters.append(SceneEmitter(node, number, system))
                    number += 1
                elif node.type == "ParticleAffector":
                    system.own_affectors.add(id(node))
                elif node.type == "ParticleCollider":
                    system.colliders.append(SceneCollider(node))
            self.systems.append(system)
            self.emitters.extend(system.emitters)

    def refresh(self, only=None) -> None:
        """Re-read every record from the values (after a change of the graph); `only`: the
        records of these ParticleSystem paths alone (what a change reaches: _changed)."""
        value = self.values.value
        for system in self.systems:
            if only is not None and system.item.path not in only:
                continue
            item = system.item
            system.framerate = max(float(value(item, "ParticleSystem.Framerate") or 60.0), 1e-3)
            system.verlet = str(value(item, "ParticleSystem.IntegrationMethod")) == "Verlet"
            system.local_space = value(item, "ParticleSystem.LocalSpace") is True
            system.visible = self.visible(item)
            system.node_world = self.world(item)
            system.simulation_to_world = system.node_world if system.local_space else np.eye(4)
            to_sim = np.linalg.inv(system.simulation_to_world)
            system.world_to_simulation = to_sim
            for em in system.emitters:
                self._refresh_emitter(em, to_sim)
            system.affectors = self._affectors_of(system)
            for node, slot_property, slot in (*((a, "ParticleAffector.AffectorMaterial", "Affector")
                                                for a in system.affectors),
                                              *((c, "ParticleCollider.ColliderMaterial", "Collider")
                                                for c in system.colliders)):
                node.material = self.material(node.item, slot_property, slot)
                node.transform = to_sim @ self.world(node.item)
                node.visible = self.visible(node.item)
        self._order_emitters(only)      # a binding may have moved a buffer handle

    def _refresh_emitter(self, em: SceneEmitter, to_sim: np.ndarray) -> None:
        item, value = em.item, self.values.value
        em.pool = max(int(value(item, "ParticleEmitter.MaximumAmount") or 0), 0)
        for slot_property, (name, slot) in EMITTER_SLOTS.items():
            setattr(em, name, self.material(item, slot_property, slot))
        em.seed = int(self.seed if self.seed is not None else (value(item, "Emission.Seed") or 0))
        em.transform = to_sim @ self.world(item)
        em.visible = self.visible(item)
        space = str(value(item, "ParticleEmitter.Space") or "Inherit")
        em.space = emitter_space(space, em.system)
        em.space_kind = space if space in ("Local", "World") else ("Local" if em.system.local_space else "World")
        em.ignore_colliders = value(item, "ParticleEmitter.IgnoreColliders") is True
        em.destroy_on_collision = value(item, "ParticleEmitter.DestroyOnCollision") is True

    def _affectors_of(self, system: SceneSystem) -> list[SceneAffector]:
        """The affectors that act on a system, in tree order over the project: its own, and,
        when it accepts global forces (ParticleSystem.AcceptGlobalForces), every affector of
        its scene flagged ParticleAffector.Global, wherever it sits in the scene (inside
        another system, or at the scene's level). One record per system and affector node:
        a global force acts in each system's space."""
        accepts = self.values.value(system.item, "ParticleSystem.AcceptGlobalForces") is not False
        scene = _scene_of(system.item)
        chosen = []
        for item in self._affector_items:
            if id(item) in system.own_affectors:
                chosen.append(item)
            elif accepts and self.values.value(item, "ParticleAffector.Global") is True and _scene_of(item) is scene:
                chosen.append(item)
        records = {id(a.item): a for a in system.affectors}
        return [records.get(id(item)) or SceneAffector(item) for item in chosen]

    def _order_emitters(self, only=None) -> None:
        """Each subemitter's event source (same system only), every system's emitters in
        dependency order (sources before the subemitters that read their events), and each
        emitter's level (a source's subemitters run one level after it, in the same step);
        `only`: of these systems (paths) alone."""
        value = self.values.value
        by_path = {em.path: em for em in self.emitters}
        for em in self.emitters:
            if only is not None and em.system.item.path not in only:
                continue
            em.source, warning = event_source(em, value(em.item, "Emission.SourceEventBuffer"), by_path)
            if warning is not None:
                self.warn(warning)
            em.particle_source, _ = event_source(em, value(em.item, "Emission.SourceParticleDataBuffer"), by_path)
        for system in self.systems:
            if only is not None and system.item.path not in only:
                continue
            system.emitters = dependency_order(system.emitters, lambda em: em.source)
            for em in system.emitters:           # sources come first
                em.level = em.source.level + 1 if em.source is not None else 0
            self._channels(system)
        self.emitters = [em for system in self.systems for em in system.emitters]

    def _channels(self, system: SceneSystem) -> None:
        """A channel per bound subemitter (its count material EmissionCount_PerParticle): a
        hidden emitter record at its source's level whose Event Buffer receives the emission
        records the source's particles write in the fused step, one per child, in slot order;
        the subemitter reads them as events, one level later (docs/player.md)."""
        value = self.values.value
        keep = {id(ch.channel_of): ch for ch in system.channels}
        system.channels = []
        for em in system.emitters:
            em.per_event = max(int(value(em.item, "Emission.ParticlesPerEvent") or 1), 1)
            em.basis = str(value(em.item, "Emission.EmissionBasis") or "Emitter")
            bound = em.count is not None and em.count.name == "EmissionCount_PerParticle" and em.source is not None
            if not bound:
                em.channel = None
                continue
            parent = em.source
            ch = keep.get(id(em)) or SceneEmitter(em.item, em.index, system)
            ch.channel_of, ch.level, ch.source, ch.particle_source = em, parent.level, None, parent
            ch.pool = max(parent.pool, em.pool)      # its slots mirror the parent's; a record per child
            ch.visible = parent.visible and em.visible
            rate = value(em.item, "Emission.RatePerParticle")
            variance = value(em.item, "Emission.RatePerParticleVariance")
            ch.channel_rate = (max(float(rate or 0.0), 0.0), max(float(variance or 0.0), 0.0))
            em.channel = ch
            em.particle_source = em.particle_source or parent   # the parent's record: inheritance
            em.source = ch
            em.level = ch.level + 1
            system.channels.append(ch)


def _shape(system: SceneSystem) -> tuple:
    """What the GPU builds programs and buffers from: materials, levels, pools, spaces."""
    def m(x):
        return x.name if x is not None else None
    return (tuple((id(em), m(em.count), m(em.emission), m(em.self_affect), m(em.events), em.level, em.pool,
                   em.space is not None, em.space_kind) for em in system.members),
            tuple((id(a), m(a.material)) for a in system.affectors), tuple(m(c.material) for c in system.colliders),
            system.verlet)


def _under(node, top) -> bool:
    """`node` is `top` or below it."""
    while node is not None:
        if node is top:
            return True
        node = node.parent
    return False


def _reaches(item, system: SceneSystem) -> bool:
    """A property of `item` bears on the system: the item is the system, inside it, or above it."""
    return _under(item, system.item) or _under(system.item, item)


def _reaches_emitter(nodes, em: SceneEmitter) -> bool:
    """A changed node is the emitter or above it (its values, transform, visibility), or, for
    a prefab instance, a template node or placeholder it stands for."""
    return any(i is not None and _under(x, i) for i, _ in nodes for x in origins(em.item))


def _scene_of(item):
    """The Scene a node is in (the project's root when it is in none)."""
    node = item
    while node.parent is not None and node.type != "Scene":
        node = node.parent
    return node


def _members(system_item, depth: int = 0):
    """Emitters and affectors of a system in tree order, not descending into nested systems;
    a placeholder of a template that holds an emitter is its instance (prefab_instances)."""
    for child in system_item.children:
        made = instance(child.project, child, depth) if is_placeholder(child) else None
        if made is not None:
            yield made
            if made.type != "ParticleSystem":
                yield from _members(made, depth + 1)
            continue
        yield child
        if child.type != "ParticleSystem":
            yield from _members(child, depth)
