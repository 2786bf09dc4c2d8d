#version 430
// Sort, last pass: the sorted slots as a list of the live list's shape (count, slots[]).
#include "render/sort_common.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = KZ_BINDING_ORDER) writeonly buffer KzOrder { uint orderCount; uint orderPad[3]; uint orderSlots[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = sortArgs[7];
    if (i < n) {
        orderSlots[i] = pairs[i].y;
    }
}
