"""A custom material's shader that does not compile.

A `<MaterialType>` in the project's `<Materials>` library names a GLSL file (relative to the
project file) that defines its slot's function (`void affectParticle(uint index)` for an
Affector, ...). kzplayer compiles it behind the slot's main, as the player will, and reports
the driver's errors at the line of the material's own file (or of the file it includes).
A rendering material (`slot="Particle"`) is a `vertex=` and `fragment=` pair: both are
compiled and linked, for each geometry it draws (a billboard; a mesh, with `KZ_MESH`).
This needs an OpenGL 4.3 context (a GPU, or Mesa's llvmpipe through EGL); without one the
shaders are not compiled and a note says so. Stock materials are compiled by kzplayer's tests.

To fix: correct the shader at the reported line of the GLSL file; the message is the
driver's. Until then `kzplayer play` leaves the material out and plays on: a simulation
material's slot is left empty, a rendering material's emitters are drawn with
ParticlesDefault (the hint says so).

Failing (`shaders/swirl.glsl`):

    void affectParticle(uint index) {
        addParticleAcceleration(index, vec3(0.0, strength, 0.0))   // no ';', no 'strength'
    }

Passing (the material's property `Swirl.Strength` is the uniform `Swirl_Strength`):

    uniform float Swirl_Strength;

    void affectParticle(uint index) {
        addParticleAcceleration(index, vec3(0.0, Swirl_Strength, 0.0));
    }
"""
from kzplayer.diagnostics import KzError, Severity
from kzplayer.validate.engine import Problem

CODE = "KZ601"
RULE = "shader.compile"
SEVERITY = Severity.ERROR


def check(context):
    # Lazy on purpose: compiling needs OpenGL (moderngl and the GPU stage); validate loads
    # them only when this rule runs, so every other rule works without GL.
    from kzplayer.gpu.check import check_material_shaders
    from kzplayer.render.check import check_render_shaders
    try:
        # no custom shader: no context is made
        found = check_material_shaders(context.project, ctx=None) + check_render_shaders(context.project, ctx=None)
    except KzError as exc:          # no OpenGL 4.3 context here
        why = "; ".join(d.message for d in exc.diagnostics)
        first = next((i for i in context.items if i.type == "MaterialType"
                      and any(i.attributes.get(a) for a in ("shader", "vertex", "fragment"))), None)
        yield Problem(first.span if first else None, f"custom shaders were not compiled: {why}",
                      severity=Severity.NOTE)
        return
    for d in found:
        yield Problem(d.span, d.message, d.hint, d.severity, d.related)
