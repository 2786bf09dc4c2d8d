"""A custom material's shader that does not compile.

A `<MaterialType>` in the project's `<Materials>` library names a GLSL file (relative to the
project file) that defines its slot's function (`void affectParticle(uint index)` for an
Affector, ...). kzplayer compiles it behind the slot's main, as the player will, and reports
the driver's errors at the line of the material's own file (or of the file it includes).
This needs an OpenGL 4.3 context (a GPU, or Mesa's llvmpipe through EGL); without one the
shaders are not compiled and a note says so. Stock materials are compiled by kzplayer's tests.

To fix: correct the shader at the reported line of the GLSL file; the message is the
driver's.

Failing (`shaders/swirl.glsl`):

    void affectParticle(uint index) {
        addParticleAcceleration(index, vec3(0.0, strength, 0.0))   // no ';', no 'strength'
    }

Passing:

    void affectParticle(uint index) {
        addParticleAcceleration(index, vec3(0.0, Swirl_Strength, 0.0));
    }
"""
import os
from dataclasses import replace
from functools import cache

from kzplayer.diagnostics import KzError, Severity
from kzplayer.validate.engine import Problem

CODE = "KZ601"
RULE = "shader.compile"
SEVERITY = Severity.ERROR


def check(context):
    customs = [i for i in context.items if i.type == "MaterialType" and i.attributes.get("shader")]
    if not customs:
        return
    from kzplayer.gpu.materials import SLOT_MAINS, ProgramCache, resolve_material
    runnable = []
    for item in customs:
        spec = context.catalog.material(item.name)
        if spec is None or spec.slot not in SLOT_MAINS:
            continue        # not a slot the player compiles (rendering materials), or unknown
        try:
            material = resolve_material(context.project, context.catalog, item.name, spec.slot,
                                        f"material '{item.name}'", item.span)
        except KzError:
            continue        # a missing shader file: the loader reports the path
        if not isinstance(material, KzError) and hasattr(material, "shader"):
            runnable.append((item, material))
    if not runnable:
        return
    ctx, why = _context()
    if ctx is None:
        yield Problem(runnable[0][0].span, f"custom shaders were not compiled: {why}",
                      severity=Severity.NOTE)
        return
    programs = ProgramCache(ctx)
    try:
        for item, material in runnable:
            try:
                programs.material(material)
            except KzError as exc:
                for d in exc.diagnostics:
                    yield Problem(_beside(context.project, d.span) or item.span, d.message, d.hint, d.severity)
    finally:
        programs.release()


def _beside(project, span):
    """Driver errors name the shader as the project writes it (relative to the project file);
    diagnostics name files as the user can open them."""
    if span is None or os.path.isabs(span.file) or not project.path:
        return span
    return replace(span, file=os.path.join(os.path.dirname(project.path), span.file))


@cache
def _context():
    """One headless GL context per process, or (None, why) where none can be had."""
    from kzplayer.gpu.context import create_context
    try:
        return create_context(headless=True), None
    except KzError as exc:
        return None, "; ".join(d.message for d in exc.diagnostics)
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"
