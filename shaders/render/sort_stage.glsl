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
    uint low = t & (kz_j - 1u);
    uint i = ((t - low) << 1u) + low;
    uint l = i + kz_j;
    uvec2 a = pairs[i];
    uvec2 b = pairs[l];
    bool ascending = (i & kz_k) == 0u;
    if (greater(a, b) == ascending) {
        pairs[i] = b;
        pairs[l] = a;
    }
}
