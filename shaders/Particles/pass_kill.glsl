// Frame stage 8: particles past their lifetime, or marked by a KillZone or collider, die;
// their slots go back on the free stack.
#include "Particles/common.glsl"

void main() {
    uint i;
    if (!liveSlot(i)) {
        return;
    }
    uint flags = particles[i].flags;
    if (particles[i].age >= particles[i].lifetime || (flags & FLAG_KILL) != 0u) {
        particles[i].flags = 0u;
        uint top = atomicAdd(state.freeCount, 1u);
        freeSlots[top] = i;
        atomicAdd(state.totalDied, 1u);
    }
}
