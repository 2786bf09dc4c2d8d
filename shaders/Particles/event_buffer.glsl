// The emitter's own Event Buffer (written by the events stage) and the per-slot tracks.
layout(std430, binding = BINDING_EVENTS) buffer EventBlock { EventHeader eventHeader; ParticleEvent events[]; };
layout(std430, binding = BINDING_TRACKS) buffer TrackBlock { ParticleTrack tracks[]; };
