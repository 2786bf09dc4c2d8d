"""An emitter, affector or collider that is not inside a ParticleSystem (a warning).

Emitters, affectors and colliders run as part of the ParticleSystem above them (directly or
through EmptyNodes that group them): the system steps the simulation and draws it. One that
sits elsewhere in the scene, dragged out of its system by accident, never runs. A global
force (an affector with `ParticleAffector.Global` on) is the exception: it acts on every
ParticleSystem of its scene that accepts global forces, so it may sit at the scene's level.

A part of a prefab template is not reported when a placeholder inside a ParticleSystem names
the template: it runs there, as that instance.

To fix: move the item under a ParticleSystem.

Failing:

    <Scene name="Scene">
      <ParticleEmitter name="Nozzle">...</ParticleEmitter>
    </Scene>

Passing:

    <Scene name="Scene">
      <ParticleSystem name="Particle System">
        <EmptyNode name="Group">
          <ParticleEmitter name="Nozzle">...</ParticleEmitter>
        </EmptyNode>
      </ParticleSystem>
    </Scene>
"""
from kzplayer.diagnostics import Severity
from kzplayer.project.paths import instances
from kzplayer.project.prefabs import prefab_root
from kzplayer.validate.context import particle_system
from kzplayer.validate.engine import Problem

CODE = "KZ509"
RULE = "emitter.outside-system"
SEVERITY = Severity.WARNING
PARTS = ("ParticleEmitter", "ParticleAffector", "ParticleCollider")


def check(context):
    for item in context.items:
        if item.type in PARTS and particle_system(item) is None and not _global(item) \
                and not _instanced_in_a_system(context.project, item):
            yield Problem(item.span, f"{item.type} '{item.name}' is not inside a ParticleSystem: it never runs",
                          "move it under a ParticleSystem (an EmptyNode in between is fine)"
                          + (", or make it a global force (ParticleAffector.Global)" if item.type == "ParticleAffector" else ""))


def _instanced_in_a_system(project, item) -> bool:
    """A part of a prefab template runs where its instances are: inside a ParticleSystem when a
    placeholder there names the template (kzplayer.project.prefab_instances)."""
    root = prefab_root(item)
    if root is None:
        return False
    return any(p.type == "ParticleSystem" or particle_system(p) is not None
               for p in instances(project, root.parent))


def _global(item) -> bool:
    prop = item.properties.get("ParticleAffector.Global") if item.type == "ParticleAffector" else None
    return prop is not None and prop.value is True
