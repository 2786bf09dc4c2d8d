// Emitter_Point: every particle starts at the emitter origin; the velocity cap shapes the
// spray. Cone of half-angle t: Outer = t, Inner = 0. Fountain: Inner = t1, Outer = t2.
// Replaces the legacy Cone and Fountain materials.
#include "Particles/emitter_common.glsl"

void emitParticle(uint index) {
    emitFromShape(index, vec3(0.0), vec3(0.0));
}
