"""The mesh nodes of a simulation: a Collider_Mesh collider's tree and an Emitter_Mesh
emitter's sampling table, from the project's Mesh items through the one mesh loader
(kzplayer.meshes, read through the scene), built once and cached (kzplayer.gpu.mesh_data), and the checks that
refuse one with a warning (the node is then left out, the rest plays):

    mesh.unreadable            the Mesh item or its file cannot be read
    mesh.collider-budget       a collision mesh of more than COLLIDER_TRIANGLE_BUDGET triangles
    mesh.filter-empty  an emitter whose normal filter admits no element

The validator reports the same problems before playing (kzplayer/validate/rules/).
"""
from __future__ import annotations

import math

import numpy as np

from kzplayer.diagnostics import Diagnostic, Severity
from kzplayer.meshes import MeshError
from kzplayer.gpu.mesh_data import COLLIDER_TRIANGLE_BUDGET, MODES, Block, collider_block, emitter_block, \
    emitter_elements


class MeshNodes:
    def __init__(self, sim):
        self.sim = sim
        self._cache: dict = {}

    def _value(self, item, name):
        return self.sim.values.value(item, name)

    def _mesh(self, item, prop: str):
        try:
            return self.sim.scene.mesh(item, prop)
        except MeshError as exc:
            self.sim._warn(Diagnostic("KZ701", "mesh.unreadable", Severity.WARNING,
                                      f"{item.path}: {prop}: {exc}; the node is left out",
                                      self.sim.values.span(item, prop)))
            return None

    def collider(self, col) -> Block | None:
        mesh = self._mesh(col.item, "Collider.Mesh")
        if mesh is None:
            return None
        if mesh.triangles > COLLIDER_TRIANGLE_BUDGET:
            self.sim._warn(Diagnostic(
                "KZ704", "mesh.collider-budget", Severity.WARNING,
                f"{col.item.path}: the collision mesh has {mesh.triangles:,} triangles, more than a collision "
                f"mesh may have ({COLLIDER_TRIANGLE_BUDGET:,}); the collider is left out",
                self.sim.values.span(col.item, "Collider.Mesh")))
            return None
        key = ("collider", id(mesh))
        if key not in self._cache:
            self._cache[key] = (mesh, collider_block(mesh.positions, mesh.indices))
        block = self._cache[key][1]
        return Block(block.texels, dict(block.words))

    def emitter(self, em, to_world: np.ndarray) -> Block | None:
        mesh = self._mesh(em.item, "Emission.Mesh")
        if mesh is None:
            return None
        mode = str(self._value(em.item, "Emission.MeshMode") or "Surface")
        mode = mode if mode in MODES else "Surface"
        direction = tuple(float(c) for c in (self._value(em.item, "Emission.NormalFilterDirection") or (0, -1, 0)))
        angle = self._value(em.item, "Emission.NormalFilterAngle")
        angle = math.pi if angle is None else float(angle)
        key = ("emitter", id(mesh), mode, np.asarray(to_world, np.float64).tobytes(), direction, angle)
        if key not in self._cache:
            elements = emitter_elements(mesh.positions, mesh.normals, mesh.indices, mode, to_world, direction, angle)
            self._cache[key] = (mesh, emitter_block(elements))
        block = self._cache[key][1]
        if block.words["kz_meshCount"] == 0:
            self.sim._warn(Diagnostic(
                "KZ705", "mesh.filter-empty", Severity.WARNING,
                f"{em.item.path}: no {mode.lower() if mode != 'Vertices' else 'vertex'} of the mesh has its normal "
                f"within {math.degrees(angle):.1f} degrees of {direction} (Emission.NormalFilterDirection, "
                f"NormalFilterAngle): the emitter emits nothing",
                self.sim.values.span(em.item, "Emission.NormalFilterAngle")))
        return Block(block.texels, dict(block.words))
