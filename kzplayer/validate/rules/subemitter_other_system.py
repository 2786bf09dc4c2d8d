"""A subemitter whose source emitter is in another ParticleSystem (a warning).

The events page puts the subemitter under the same ParticleSystem as its source (usually
grouped with it under an EmptyNode). A ParticleSystem is one simulation: its own frame
rate, integration and simulation space, and the order in which its emitters run (a source
before the subemitters that read its events). Across systems none of that is shared, so
events may arrive a frame late or in another space.

Reported once per subemitter and source.

To fix: move the subemitter (or its source) so that both are in the same ParticleSystem.

Failing:

    <ParticleSystem name="Rockets">
      <ParticleEmitter name="Source">...</ParticleEmitter>
    </ParticleSystem>
    <ParticleSystem name="Sparks">
      <ParticleEmitter name="Subemitter">
        <Binding target="Emission.SourceEventBuffer">{@../../Rockets/Source/ParticleEmitter.EventBuffer}</Binding>
        ...

Passing: both emitters under one ParticleSystem.
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import particle_system
from kzplayer.validate.engine import Problem

CODE = "KZ508"
RULE = "subemitter.other-system"
SEVERITY = Severity.WARNING


def check(context):
    for emitter in context.emitters:
        mine = particle_system(emitter)
        said = set()            # one report per source, for both of its buffers
        for pairs in context.buffer_sources(emitter).values():
            for source, b in pairs:
                theirs = particle_system(source)
                if theirs is mine or id(source) in said:
                    continue
                said.add(id(source))
                yield Problem(b.target_span or b.span,
                              f"'{emitter.name}' is in {_name(mine)} but reads the buffers of '{source.name}' "
                              f"in {_name(theirs)}: a subemitter belongs in its source's ParticleSystem",
                              f"move '{emitter.name}' under {_name(theirs)}")


def _name(system) -> str:
    return f"ParticleSystem '{system.name}'" if system is not None else "no ParticleSystem"
