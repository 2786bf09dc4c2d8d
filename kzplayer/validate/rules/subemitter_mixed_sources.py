"""A subemitter whose two buffers come from different emitters.

The event buffer and the particle-data buffer of a subemitter must come from the same
source emitter: an event record names the source particle that fired it by its slot in the
source's particle data, so FromEvents reads that slot to place the child. With events from
one emitter and particle data from another, children spawn at the positions of unrelated
particles (or of empty slots). Usually one binding was copied and its path not changed.

To fix: bind both consumer buffers to the same source emitter.

Failing:

    <Binding target="Emission.SourceEventBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>
    <Binding target="Emission.SourceParticleDataBuffer">{@../Other/ParticleEmitter.ParticleDataBuffer}</Binding>

Passing:

    <Binding target="Emission.SourceEventBuffer">{@../Source/ParticleEmitter.EventBuffer}</Binding>
    <Binding target="Emission.SourceParticleDataBuffer">{@../Source/ParticleEmitter.ParticleDataBuffer}</Binding>
"""
from kzplayer.diagnostics import Severity
from kzplayer.validate.context import SOURCE_DATA, SOURCE_EVENTS
from kzplayer.validate.engine import Problem

CODE = "KZ507"
RULE = "subemitter.mixed-sources"
SEVERITY = Severity.ERROR


def check(context):
    for emitter in context.emitters:
        sources = context.buffer_sources(emitter)
        events, data = sources.get(SOURCE_EVENTS, []), sources.get(SOURCE_DATA, [])
        if not events or not data:
            continue
        event_source = events[0][0]
        for source, b in data:
            if source is not event_source:
                yield Problem(b.target_span or b.span,
                              f"'{emitter.name}' takes its events from '{event_source.name}' but its particle "
                              f"data from '{source.name}': events name particles of the emitter that fired them",
                              f"bind {SOURCE_DATA} to {event_source.path}: ParticleEmitter.ParticleDataBuffer",
                              related=tuple(s for s in [events[0][1].target_span or events[0][1].span] if s))
