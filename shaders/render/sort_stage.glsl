#version 430
// Sort, one stage (k, j) of the bitonic network over the first P pairs: each invocation
// compares one pair of places and swaps them into the direction of their k-block.
#include "render/sort_common.glsl"

layout(local_size_x = WORKGROUP_SIZE) in;

uniform uint kz_k;
uniform uint kz_j;

void main() {
    uint t = gl_GlobalInvocationID.x;
    if (t >= sortArgs[3] / 2u) {
        return;
    }
    KZ_SORT_EXCHANGE(pairs, t, kz_k, kz_j, 0u)
}
