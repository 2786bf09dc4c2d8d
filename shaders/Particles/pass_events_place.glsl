// Second ordering pass, after pass_group_scan: each live slot's first record index, its
// group's first index plus the records of the lower slots of the group.
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"
#include "Particles/kill_groups.glsl"

shared uint slotRecords[WORKGROUP_SIZE];

void main() {
    uint i;
    bool live = liveSlot(i);
    slotRecords[gl_LocalInvocationIndex] = live ? tracks[i].events : 0u;
    memoryBarrierShared();
    barrier();                      // every invocation reaches it: no return above
    if (!live) {
        return;
    }
    uint before = 0u;
    for (uint j = 0u; j < gl_LocalInvocationIndex; ++j) {
        before += slotRecords[j];
    }
    tracks[i].eventBase = killGroups[gl_WorkGroupID.x] + before;
}
