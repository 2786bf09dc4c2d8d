// Frame stage 8, last pass: particles past their lifetime, or marked by a KillZone or a
// collider, die; each group pushes its freed slots at the place pass_group_scan reserved
// for it, highest slot first, so the stack's top is the lowest freed slot
// (Particles/kill_groups.glsl says why not atomics).
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"

shared uint dying[WORKGROUP_SIZE];

void main() {
    uint i;
    bool dies = liveSlot(i) && diesThisStep(i);
    dying[gl_LocalInvocationIndex] = dies ? 1u : 0u;
    memoryBarrierShared();
    barrier();                      // every invocation reaches it: no return above
    if (!dies) {
        return;
    }
    uint rank = 0u;
    for (uint j = gl_LocalInvocationIndex + 1u; j < uint(WORKGROUP_SIZE); ++j) {
        rank += dying[j];
    }
    particles[i].flags = 0u;
    freeSlots[killGroups[gl_WorkGroupID.x] + rank] = i;
}
