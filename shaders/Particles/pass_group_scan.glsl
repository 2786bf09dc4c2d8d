// One workgroup: the per-workgroup counts in killGroups[] (Particles/kill_groups.glsl)
// become each group's first index (an exclusive prefix sum). Up to 65,535 groups: each
// invocation sums a contiguous run of them, the 64 run sums are scanned in shared memory.
//   SCAN_FREE_STACK 1 (the kill stage): from the free stack's top, last group first, so
//     the lowest freed slot ends on top and is taken first; free_count and total_died
//     move by the step's deaths.
//   SCAN_FREE_STACK 0 (the events stage): from 0, first group first: the Event Buffer's
//     records in slot order; also the indirect dispatch arguments of pass_events_order
//     (one invocation per kept record), after the masks' words: killGroups[3G .. 3G+2].
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"
#if !SCAN_FREE_STACK
#include "Particles/event_buffer.glsl"
#endif

shared uint runStart[WORKGROUP_SIZE];
shared uint base;

uint groupAt(uint r, uint groups) {
#if SCAN_FREE_STACK
    return groups - 1u - r;
#else
    return r;
#endif
}

void main() {
    uint t = gl_LocalInvocationIndex;
    uint groups = (kz_capacity + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint run = (groups + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint first = min(t * run, groups);
    uint last = min(first + run, groups);
    uint sum = 0u;
    for (uint r = first; r < last; ++r) {
        sum += killGroups[groupAt(r, groups)];
    }
    runStart[t] = sum;
    memoryBarrierShared();
    barrier();
    if (t == 0u) {
        uint total = 0u;
        for (uint k = 0u; k < uint(WORKGROUP_SIZE); ++k) {
            uint n = runStart[k];
            runStart[k] = total;
            total += n;
        }
#if SCAN_FREE_STACK
        base = state.freeCount;
        state.freeCount += total;
        state.totalDied += total;
#else
        base = 0u;
        uint kept = min(eventHeader.count, eventHeader.capacity);
        killGroups[3u * groups] = (kept + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
        killGroups[3u * groups + 1u] = 1u;
        killGroups[3u * groups + 2u] = 1u;
#endif
    }
    memoryBarrierShared();
    barrier();
    uint at = base + runStart[t];
    for (uint r = first; r < last; ++r) {
        uint g = groupAt(r, groups);
        uint n = killGroups[g];
        killGroups[g] = at;
        at += n;
    }
}
