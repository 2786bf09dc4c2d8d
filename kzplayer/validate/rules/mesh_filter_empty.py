"""A mesh emitter whose normal filter admits no part of its mesh (a warning).

`Emitter_Mesh` spawns only on the faces, vertices or edges (`Emission.MeshMode`) whose normal,
as the emitter places the mesh in the world, lies within `Emission.NormalFilterAngle` of
`Emission.NormalFilterDirection` (NeL's wet character: drops only where the surface faces
down). When no element passes, the emitter spawns nothing that lives: its particles die in
their first step. The check reads the mesh, the filter and the emitter's transform as the player does (after
bindings).

To fix: widen NormalFilterAngle (π admits everything, π/2 the half of the mesh facing the
direction), point NormalFilterDirection where the mesh has faces, or check the emitter's
rotation.

Failing:

    <ParticleEmitter name="Drips">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Mesh</Property>
      <Property name="Emission.Mesh">Meshes/Roof</Property>              (faces up and sideways only)
      <Property name="Emission.NormalFilterDirection">0 -1 0</Property>
      <Property name="Emission.NormalFilterAngle">0.3</Property>
    </ParticleEmitter>

Passing:

    <ParticleEmitter name="Drips">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_Mesh</Property>
      <Property name="Emission.Mesh">Meshes/Roof</Property>
      <Property name="Emission.NormalFilterDirection">0 -1 0</Property>
      <Property name="Emission.NormalFilterAngle">1.8</Property>           (the eaves' undersides and edges)
    </ParticleEmitter>
"""
import math

from kzplayer.diagnostics import Severity
from kzplayer.gpu.mesh_data import MODES, emitter_elements
from kzplayer.meshes import MeshError
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ705"
RULE = "mesh.filter-empty"
SEVERITY = Severity.WARNING


def check(context):
    scene = context.scene
    for item in context.items:
        if item.type != "ParticleEmitter" or not context.plays(item, "ParticleEmitter.EmissionMaterial", "Emitter_Mesh"):
            continue
        try:
            mesh = scene.mesh(item, "Emission.Mesh")       # after bindings, as the player reads it
        except MeshError:
            continue                    # mesh.unreadable says why (or no mesh is named)
        mode = str(scene.value(item, "Emission.MeshMode") or "Surface")
        direction = tuple(float(c) for c in (scene.value(item, "Emission.NormalFilterDirection") or (0, -1, 0)))
        angle = scene.value(item, "Emission.NormalFilterAngle")
        angle = math.pi if angle is None else float(angle)
        elements = emitter_elements(mesh.positions, mesh.normals, mesh.indices, mode if mode in MODES else "Surface",
                                    scene.world(item), direction, angle)
        if len(elements.weights) == 0:
            prop = item.properties.get("Emission.NormalFilterAngle") or item.properties.get("Emission.NormalFilterDirection")
            yield Problem(value_span(prop) if prop is not None else item.span,
                          f"Emitter_Mesh '{item.name}': no {mode.lower()} element of the mesh has its normal within "
                          f"{math.degrees(angle):.1f} degrees of {direction}: the emitter emits nothing that lives",
                          "widen Emission.NormalFilterAngle (π admits every element) or turn NormalFilterDirection "
                          "towards faces the mesh has")
