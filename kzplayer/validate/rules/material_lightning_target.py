"""A Particles_Lightning emitter whose target cannot be what it says (a warning).

A bolt ends at `Lightning.Target` from its particle, or from the world position of the node
`Lightning.TargetNode` names, or at a live particle of the emitter whose ParticleDataBuffer
`Lightning.TargetParticles` is bound to. A TargetNode path that leads to no item, or to an
item that is not a node (a Mesh, a material), is not followed: the bolts end at
Lightning.Target from their own particles, which is rarely what was meant. Given both a
TargetNode and TargetParticles, the particles win while their emitter is drawn.

To fix: point Lightning.TargetNode at a node (a path relative to the emitter, or absolute),
or give only one of the two targets.

Failing:

    <Property name="Lightning.TargetNode">../../Rod Top</Property>        (the node is "Rod Tip")

Passing:

    <Property name="Lightning.TargetNode">../../Rod Tip</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.project.paths import resolve
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ408"
RULE = "material.lightning-target"
SEVERITY = Severity.WARNING


def check(context):
    scene = context.scene
    for item in context.items:
        if item.type != "ParticleEmitter" or not context.plays(item, "ParticleEmitter.ParticleMaterial",
                                                               "Particles_Lightning"):
            continue
        ref = scene.value(item, "Lightning.TargetNode")
        path = str(getattr(ref, "path", ref) or "").strip()
        prop = item.properties.get("Lightning.TargetNode")
        span = value_span(prop) if prop is not None else item.span
        if path:
            found = resolve(context.project, path, item)
            if not found:
                yield Problem(span, f"Particles_Lightning '{item.name}': Lightning.TargetNode: {found.message}; "
                              "its bolts end at Lightning.Target from their own particles",
                              "point it at a node: a path relative to the emitter (../../Rod) or absolute")
                continue
            spec = context.catalog.item_type(found.type) if context.catalog is not None else None
            if spec is None or not spec.is_node:
                yield Problem(span, f"Particles_Lightning '{item.name}': Lightning.TargetNode names {found.path}, "
                              f"a {found.type}, not a node; its bolts end at Lightning.Target from their own particles",
                              "point it at a node whose position is the bolts' far end")
                continue
            if getattr(scene.value(item, "Lightning.TargetParticles"), "owner", None):
                yield Problem(span, f"Particles_Lightning '{item.name}' has both Lightning.TargetNode and "
                              "Lightning.TargetParticles: its bolts end at the particles while their emitter is drawn",
                              "give one target")
