// Frame stage 8, first pass: which particles of each workgroup die this step. The group
// writes its death count (for pass_group_scan) and a 64-bit mask of its dying slots, so the
// push pass reads 8 bytes per group instead of every particle again.
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"

#if WORKGROUP_SIZE != 64
#error "the death masks hold 64 slots per workgroup"
#endif

shared uint dyingMask[2];

void main() {
    uint local = gl_LocalInvocationIndex;
    if (local < 2u) {
        dyingMask[local] = 0u;
    }
    memoryBarrierShared();
    barrier();
    // No early return: every invocation of the group must reach both barriers.
    uint i;
    if (liveSlot(i) && diesThisStep(i)) {
        atomicOr(dyingMask[local >> 5u], 1u << (local & 31u));
    }
    memoryBarrierShared();
    barrier();
    if (local == 0u) {
        uint g = gl_WorkGroupID.x;
        killGroups[g] = bitCount(dyingMask[0]) + bitCount(dyingMask[1]);
        killGroups[gl_NumWorkGroups.x + 2u * g] = dyingMask[0];
        killGroups[gl_NumWorkGroups.x + 2u * g + 1u] = dyingMask[1];
    }
}
