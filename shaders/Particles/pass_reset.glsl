// Frame stage 2: clear the acceleration accumulator and the per-step state before the
// affectors add to them.
#include "Particles/common.glsl"

void main() {
    uint i;
    if (!liveSlot(i)) {
        return;
    }
    particles[i].acceleration = vec3(0.0);
    particles[i].timeScale = 1.0;
    particles[i].flags &= ~FLAG_HIT;
    particleDamping[i] = 0.0;
}
