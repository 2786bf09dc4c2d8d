// Frame stage 8, first pass, one invocation per 64-slot workgroup of the pool: which of its
// slots die this step. It writes the group's death count (for pass_group_scan) and a
// 64-bit mask of the dying slots, so the push pass reads 8 bytes per group instead of every
// particle again. A serial walk rather than a shared-memory vote: no barrier(), which
// llvmpipe runs as coroutine switches.
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"

#if WORKGROUP_SIZE != 64
#error "the death masks hold 64 slots per workgroup"
#endif

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint groups = (kz_capacity + 63u) / 64u;
    if (g >= groups) {
        return;
    }
    uint first = g * 64u;
    uint last = min(first + 64u, kz_capacity);
    uvec2 mask = uvec2(0u);
    for (uint i = first; i < last; ++i) {
        if ((particles[i].flags & FLAG_ALIVE) != 0u && diesThisStep(i)) {
            uint local = i - first;
            mask[local >> 5u] |= 1u << (local & 31u);
        }
    }
    killGroups[g] = bitCount(mask.x) + bitCount(mask.y);
    killGroups[groups + 2u * g] = mask.x;
    killGroups[groups + 2u * g + 1u] = mask.y;
}
