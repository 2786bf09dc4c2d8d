// After an emitter's GenerateEventsMaterial and pass_group_scan, one invocation per staged
// record: move it from the staging half of the Event Buffer to its place, in slot order
// (its writer's group's first index + the slot's first place in the group + its rank),
// staging fields cleared. The kept records fill 0 .. min(count, capacity) - 1 exactly.
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"
#include "Particles/kill_groups.glsl"

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= min(eventHeader.count, eventHeader.capacity)) {
        return;
    }
    ParticleEvent e = events[eventHeader.capacity + k];
    uint slot = e.stagedSlot;
    uint at = killGroups[slot / uint(WORKGROUP_SIZE)] + tracks[slot].eventBase + e.stagedRank;
    e.stagedSlot = 0u;
    e.stagedRank = 0u;
    events[at] = e;
}
