"""A mesh that cannot be drawn (an error).

A `Mesh` item of the project's `Meshes` library names a glTF 2.0 (`.glb`, `.gltf`) or OBJ
file with `Mesh.File`, relative to the project file; `Model3D.Mesh`,
`ParticleEmitter.ParticleMesh`, a mesh emitter's `ParticleEmitter.Mesh` (or `Emission.Mesh`) and a mesh collider's
`Collider.Mesh` name the Mesh item. kzplayer reads the file as the player will (trimesh)
and reports a file that is missing, lies outside the project folder, is no mesh or holds no
triangles, and a reference that leads to no Mesh item. The player draws such an emitter as
billboards, leaves such a Model3D out, and plays without such a mesh emitter or collider. A Mesh item that names no file and
that nothing draws is left alone (a Kanzi Studio project's Mesh Data keeps its geometry
elsewhere).

To fix: give Mesh.File a mesh file inside the project folder, or point the reference at a
Mesh item of the Meshes library.

Failing:

    <Model3D name="Floor"><Property name="Model3D.Mesh">Meshes/Flor</Property></Model3D>
    <Meshes><Mesh name="Floor"><Property name="Mesh.File">../floor.glb</Property></Mesh></Meshes>

Passing:

    <Model3D name="Floor"><Property name="Model3D.Mesh">Meshes/Floor</Property></Model3D>
    <Meshes><Mesh name="Floor"><Property name="Mesh.File">meshes/floor.glb</Property></Mesh></Meshes>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem
from kzplayer.meshes import MeshError, find_mesh_item, load_mesh, mesh_item_file

CODE = "KZ701"
RULE = "mesh.unreadable"
SEVERITY = Severity.ERROR
REFERENCES = ("Model3D.Mesh", "ParticleEmitter.ParticleMesh", "ParticleEmitter.Mesh", "Collider.Mesh")
DRAWERS = ("Model3D", "ParticleEmitter", "ParticleCollider")


def check(context):
    project = context.project
    drawn = set()          # the Mesh items kzplayer draws (a Kanzi MeshNode's are Kanzi's data)
    for item in context.items:
        if item.type not in DRAWERS:
            continue
        for name in REFERENCES:
            prop = item.own_property(name)          # under any name (Kanzi's ParticleEmitter.Mesh)
            if prop is not None and prop.value is not None:
                try:
                    drawn.add(id(find_mesh_item(project, prop.value, item)))
                except MeshError:
                    pass
    for item in context.items:
        prop = item.properties.get("Mesh.File") if item.type == "Mesh" else None
        if item.type == "Mesh" and (prop is not None or id(item) in drawn):
            try:
                load_mesh(mesh_item_file(project, item))
            except MeshError as exc:
                yield Problem(value_span(prop) if prop is not None else item.span, f"Mesh '{item.name}': {exc}",
                              "name a .glb, .gltf or .obj file inside the project folder, relative to the project file")
        for name in REFERENCES if item.type in DRAWERS else ():
            prop = item.own_property(name)
            if prop is None or prop.value is None or not str(getattr(prop.value, "path", prop.value)).strip():
                continue
            try:
                find_mesh_item(project, prop.value, item)
            except MeshError as exc:
                yield Problem(value_span(prop), f"{prop.name}: {exc}",
                              "name a Mesh item of the Meshes library, e.g. Meshes/Rock")
