// After an emitter's GenerateEventsMaterial, first ordering pass: how many records the live
// slots of each workgroup kept (Particles/kill_groups.glsl).
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"
#include "Particles/kill_groups.glsl"

shared uint groupRecords;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        groupRecords = 0u;
    }
    memoryBarrierShared();
    barrier();
    uint i;                         // no early return: every invocation reaches the barriers
    if (liveSlot(i)) {
        atomicAdd(groupRecords, tracks[i].events);
    }
    memoryBarrierShared();
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        killGroups[gl_WorkGroupID.x] = groupRecords;
    }
}
