"""A subemitter without a Particle Material (events page, gotcha 4; a warning).

Kanzi draws nothing for a subemitter whose `ParticleEmitter.ParticleMaterial` is empty:
the particles exist but are invisible, which is easy to misread as "the binding is not
firing". kzplayer draws them with a default billboard, so the effect looks right here and
wrong in Kanzi. Assign a rendering material (`ParticlesDefault`, `ParticlesColorOverLife`, ...).

To fix: set `ParticleEmitter.ParticleMaterial` on the subemitter (`ParticlesColorOverLife`,
`ParticlesDefault`, ...).

Failing:

    <ParticleEmitter name="Subemitter">
      <Property name="ParticleEmitter.EmissionMaterial">Emitter_FromEvents</Property>
      <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_FromEvents</Property>
      ...
    </ParticleEmitter>

Passing: the same with

      <Property name="ParticleEmitter.ParticleMaterial">ParticlesColorOverLife</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import PARTICLE_MATERIAL
from kzplayer.validate.engine import Problem

CODE = "KZ503"
RULE = "subemitter.no-particle-material"
SEVERITY = Severity.WARNING


def check(context):
    for emitter in context.emitters:
        subemitter = context.event_driven_slots(emitter) or context.consumers_bound(emitter)
        if subemitter and not context.material_name(emitter, PARTICLE_MATERIAL):
            yield Problem(emitter.span,
                          f"subemitter '{emitter.name}' has no {PARTICLE_MATERIAL}: Kanzi shows its particles "
                          "as nothing (kzplayer draws a default billboard)",
                          f"set {PARTICLE_MATERIAL}, for example to ParticlesColorOverLife")
