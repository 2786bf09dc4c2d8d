// Frame stage 8, last pass: particles past their lifetime, or marked by a KillZone or a
// collider, die (pass_kill_count found them: its mask, not the particle, is read here);
// each group pushes its freed slots at the place pass_group_scan reserved for it, highest
// slot first, so the stack's top is the lowest freed slot (Particles/kill_groups.glsl says
// why not atomics).
#include "Particles/common.glsl"
#include "Particles/kill_groups.glsl"

void main() {
    uint g = gl_WorkGroupID.x;
    uint local = gl_LocalInvocationIndex;
    uint lo = killGroups[gl_NumWorkGroups.x + 2u * g];
    uint hi = killGroups[gl_NumWorkGroups.x + 2u * g + 1u];
    uint word = local < 32u ? lo : hi;
    uint bit = 1u << (local & 31u);
    if ((word & bit) == 0u) {
        return;
    }
    // rank: dying slots above this one in the group (they are pushed first)
    uint above = bitCount(word & ~(bit | (bit - 1u))) + (local < 32u ? bitCount(hi) : 0u);
    uint i = gl_GlobalInvocationID.x;
    particles[i].flags = 0u;
    freeSlots[killGroups[g] + above] = i;
}
