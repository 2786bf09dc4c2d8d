// Frame stage 8, second pass (one workgroup): each group's deaths become the index of its
// first free-stack entry (an exclusive prefix sum from the current top, last group first,
// so the lowest freed slot ends on top and is taken first), and the stack top and the
// death total move by the step's deaths. Up to 65,535 groups: each invocation sums a
// contiguous run of them, the 64 run sums are scanned in shared memory.
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"

shared uint runStart[WORKGROUP_SIZE];
shared uint stackTop;

void main() {
    uint t = gl_LocalInvocationIndex;
    uint groups = (kz_capacity + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint run = (groups + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint first = min(t * run, groups);
    uint last = min(first + run, groups);
    uint sum = 0u;
    for (uint r = first; r < last; ++r) {
        sum += killGroups[groups - 1u - r];
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
        stackTop = state.freeCount;
        state.freeCount += total;
        state.totalDied += total;
    }
    memoryBarrierShared();
    barrier();
    uint at = stackTop + runStart[t];
    for (uint r = first; r < last; ++r) {
        uint g = groups - 1u - r;
        uint n = killGroups[g];
        killGroups[g] = at;
        at += n;
    }
}
