#version 430
// Live list, pass 1 of 3: how many live particles each 64-slot group of the pool holds.
// One invocation per group walks its slots (no barrier(), which llvmpipe runs as coroutine
// switches), so the list that pass 3 writes is in ascending slot order.
#include "render/particle_access.glsl"
#include "render/live_list.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

uniform uint kz_capacity;

layout(std430, binding = KZ_BINDING_GROUPS) writeonly buffer KzGroups { uint groupCount[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint first = g * uint(WORKGROUP_SIZE);
    if (first >= kz_capacity) {
        return;
    }
    uint last = min(first + uint(WORKGROUP_SIZE), kz_capacity);
    uint n = 0u;
    for (uint s = first; s < last; ++s) {
        n += isParticleAlive(s) ? 1u : 0u;
    }
    groupCount[g] = n;
}
