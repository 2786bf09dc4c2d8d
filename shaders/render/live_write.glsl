#version 430
// Live list, pass 3 of 3: each 64-slot group writes its live slots, in slot order, from its
// first place (pass 2): the whole list is in ascending slot order, so Identity sorting is
// the list as it is and "ties by slot" holds for every sort built on it.
#include "render/particle_access.glsl"
#include "render/live_list.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

uniform uint kz_capacity;

layout(std430, binding = KZ_BINDING_GROUPS) readonly buffer KzGroups { uint groupBase[]; };
layout(std430, binding = KZ_BINDING_LIVE) buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint first = g * uint(WORKGROUP_SIZE);
    if (first >= kz_capacity) {
        return;
    }
    uint last = min(first + uint(WORKGROUP_SIZE), kz_capacity);
    uint at = groupBase[g];
    for (uint s = first; s < last; ++s) {
        if (isParticleAlive(s)) {
            liveSlots[at++] = s;
        }
    }
}
