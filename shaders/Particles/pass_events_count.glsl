// After an emitter's GenerateEventsMaterial, first ordering pass: one invocation per
// workgroup of the pool (64 slots), walking its slots in order: each live slot's first
// place among the group's records, and the group's total for pass_group_scan. A serial
// walk rather than a shared-memory prefix sum: no barrier(), which llvmpipe runs as
// coroutine switches (several times dearer than these 64 reads).
#include "Particles/common.glsl"
#include "Particles/event_buffer.glsl"
#include "Particles/kill_groups.glsl"

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint first = g * uint(WORKGROUP_SIZE);
    if (first >= kz_capacity) {
        return;
    }
    uint last = min(first + uint(WORKGROUP_SIZE), kz_capacity);
    uint total = 0u;
    for (uint s = first; s < last; ++s) {
        if ((particles[s].flags & FLAG_ALIVE) != 0u) {
            tracks[s].eventBase = total;
            total += tracks[s].events;
        }
    }
    killGroups[g] = total;
}
