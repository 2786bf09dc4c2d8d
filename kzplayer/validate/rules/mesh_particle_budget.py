"""A ParticleMesh with more triangles than mesh particles may draw (a warning).

A rendering material that draws meshes (`ParticlesColorOverLife` among the stock ones, or
a custom one whose geometry is `mesh`) draws the whole `ParticleEmitter.ParticleMesh` for
every particle. kzplayer's triangle budget for it: 65,536 triangles a mesh, and 20,000,000 triangles for a full pool
(the mesh's triangles x `ParticleEmitter.MaximumAmount`), so that no draw takes billions of
triangles (a 120 KB glTF can make two million). Past either, `kzplayer play` draws the
emitter's particles as billboards and says so; this rule warns at the ParticleMesh
reference, with the same figures (docs/hardening.md, "Meshes"). The pool counted is the
MaximumAmount as it plays (after bindings, the work limit); a driver that holds fewer
particles an emitter draws fewer.

To fix: give the particles a simplified mesh (a few hundred triangles is typical for a
debris or rock particle), or fewer particles.

Failing (a 20,000-triangle rock):

    <Property name="ParticleEmitter.MaximumAmount">5000</Property>
    <Property name="ParticleEmitter.ParticleMaterial">ParticlesColorOverLife</Property>
    <Property name="ParticleEmitter.ParticleMesh">Meshes/Rock</Property>

Passing (a 320-triangle rock):

    <Property name="ParticleEmitter.MaximumAmount">5000</Property>
    <Property name="ParticleEmitter.ParticleMaterial">ParticlesColorOverLife</Property>
    <Property name="ParticleEmitter.ParticleMesh">Meshes/RockLow</Property>
"""
from kzplayer.diagnostics import KzError, Severity
from kzplayer.meshes import MeshError
from kzplayer.render.frame import particle_mesh_budget
from kzplayer.render.materials import RenderMaterial, resolve_render_material, stock_material
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ706"
RULE = "mesh.particle-budget"
SEVERITY = Severity.WARNING

MESH = "ParticleEmitter.ParticleMesh"


def check(context):
    scene = context.scene
    for emitter in context.emitters:
        if not _draws_meshes(context, emitter):
            continue
        try:
            mesh = scene.mesh(emitter, MESH)         # after bindings, as the player reads it
        except MeshError:
            continue                    # mesh.unreadable says why (or no mesh is named)
        pool = scene.value(emitter, "ParticleEmitter.MaximumAmount")
        pool = max(int(pool), 0) if isinstance(pool, (int, float)) else 0
        problem = particle_mesh_budget(emitter.path, mesh.triangles, pool) if pool else None
        if problem is None:
            continue
        prop = emitter.properties.get(MESH)
        yield Problem(value_span(prop) if prop is not None else scene.values.span(emitter, MESH), problem,
                      "give the particles a simplified mesh (a few hundred triangles), or fewer particles")


def _draws_meshes(context, emitter) -> bool:
    """Whether its rendering material (as play resolves it) draws a mesh per particle."""
    ref = context.scene.value(emitter, "ParticleEmitter.ParticleMaterial")
    try:
        found = resolve_render_material(context.project, context.catalog, ref, emitter.path)
    except KzError:                     # material.unknown / material.slot say why; play draws
        found = stock_material(context.catalog)        # with ParticlesDefault, its mesh too
    return isinstance(found, RenderMaterial) and "mesh" in found.geometry
