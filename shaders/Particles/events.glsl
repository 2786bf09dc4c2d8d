// Kanzi Particles 3.0's events include: a custom GenerateEventsMaterial written for Kanzi (an
// include of this file, its uniforms, and `void GenerateEvents(uint index)`) runs in
// kzplayer's GenerateEventsMaterial slot unchanged. Once per live particle per step, after
// integration and collision; it writes zero or more records into the emitter's Event Buffer
// with writeEvent(kind, index, position, normal) or writeParticleEvent(kind, index) (the
// particle's own position and velocity direction; Particles/stage_step.glsl), kinds EVENT_*
// (Particles/particle_data.glsl). This file maps the entry point onto kzplayer's
// (generateEvents(uint index)).
#include "Particles/kanzi.glsl"

void GenerateEvents(uint index);

void generateEvents(uint index) {
    GenerateEvents(index);
}
