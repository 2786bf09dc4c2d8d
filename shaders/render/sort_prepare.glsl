#version 430
// Sort, pass 0: the padded size P and every dispatch of the sort, from the live count.
#include "render/sort_common.glsl"

layout(local_size_x = 1) in;

uniform uint kz_maxSize;     // the padded size of a full pool (a power of two)

layout(std430, binding = KZ_BINDING_LIVE) readonly buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };
layout(std430, binding = KZ_BINDING_ORDER) writeonly buffer KzOrder { uint orderCount; uint orderPad[3]; uint orderSlots[]; };

void main() {
    uint n = liveCount;
    orderCount = n;      // here, not in the scatter: with no live particle that runs no group
    uint p = 1u;
    while (p < n) {
        p <<= 1u;
    }
    uint groups = (p + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    sortArgs[0] = groups; sortArgs[1] = 1u; sortArgs[2] = 1u;
    sortArgs[3] = p;
    sortArgs[4] = (n + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE); sortArgs[5] = 1u; sortArgs[6] = 1u;
    sortArgs[7] = n;
    uint s = 0u;
    uint half_groups = (p / 2u + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    for (uint k = 2u; k <= kz_maxSize; k <<= 1u) {
        for (uint j = k >> 1u; j > 0u; j >>= 1u) {
            uint at = KZ_SORT_STAGES_AT + 3u * s;
            sortArgs[at] = k <= p ? half_groups : 0u;
            sortArgs[at + 1u] = 1u;
            sortArgs[at + 2u] = 1u;
            ++s;
        }
    }
}
