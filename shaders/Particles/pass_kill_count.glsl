// Frame stage 8, first pass: how many particles of each workgroup die this step.
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"

shared uint groupDeaths;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        groupDeaths = 0u;
    }
    memoryBarrierShared();
    barrier();
    // No early return: every invocation of the group must reach both barriers.
    uint i;
    if (liveSlot(i) && diesThisStep(i)) {
        atomicAdd(groupDeaths, 1u);
    }
    memoryBarrierShared();
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        killGroups[gl_WorkGroupID.x] = groupDeaths;
    }
}
