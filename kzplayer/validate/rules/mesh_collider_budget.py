"""A collision mesh with more triangles than a collider may have (an error).

`Collider_Mesh` sweeps every particle's path through a bounding volume hierarchy of its mesh
(`Collider.Mesh`) on the GPU; its budget is 65,536 triangles, enough for a simplified
stand-in of a scene's geometry (a few hundred to a few thousand triangles is typical), and
it keeps the tree small for every driver's buffer-texture limit. A mesh past it is refused:
the player plays without that collider (and says so), so particles would fall through what
the artist meant to be solid.

To fix: give the collider a simplified version of the mesh (a decimated copy, or boxes and
planes for the large flat parts) as a Mesh item of its own.

Failing:

    <ParticleCollider name="Terrain">
      <Property name="ParticleCollider.ColliderMaterial">Collider_Mesh</Property>
      <Property name="Collider.Mesh">Meshes/Terrain</Property>    (a 200,000-triangle scan)
    </ParticleCollider>

Passing:

    <ParticleCollider name="Terrain">
      <Property name="ParticleCollider.ColliderMaterial">Collider_Mesh</Property>
      <Property name="Collider.Mesh">Meshes/TerrainCollision</Property>    (4,000 triangles)
    </ParticleCollider>
"""
from kzplayer.diagnostics import Severity
from kzplayer.gpu.mesh_data import COLLIDER_TRIANGLE_BUDGET
from kzplayer.meshes import MeshError
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ704"
RULE = "mesh.collider-budget"
SEVERITY = Severity.ERROR


def check(context):
    for item in context.items:
        if item.type != "ParticleCollider" or not context.plays(item, "ParticleCollider.ColliderMaterial", "Collider_Mesh"):
            continue
        try:
            mesh = context.scene.mesh(item, "Collider.Mesh")     # after bindings, as the player reads it
        except MeshError:
            continue                    # mesh.unreadable says why (or no mesh is named)
        if mesh.triangles > COLLIDER_TRIANGLE_BUDGET:
            prop = item.properties.get("Collider.Mesh")
            yield Problem(value_span(prop) if prop is not None else context.scene.values.span(item, "Collider.Mesh"),
                          f"Collider.Mesh: the collision mesh has {mesh.triangles:,} triangles, more than a collision "
                          f"mesh may have ({COLLIDER_TRIANGLE_BUDGET:,}); the player leaves the collider out",
                          "give the collider a simplified mesh of its own (a decimated copy, or boxes and planes)")
