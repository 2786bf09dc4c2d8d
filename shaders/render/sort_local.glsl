#version 430
// Sort, the stages that stay inside blocks of KZ_SORT_BLOCK pairs, in shared memory: one
// dispatch instead of one per stage (on llvmpipe a dispatch and its barrier cost more than
// the compares of a small stage).
//   kz_k == 0: every stage with k <= KZ_SORT_BLOCK (each block sorted, in the direction
//              of the bigger block it belongs to)
//   kz_k > KZ_SORT_BLOCK: the stages j = KZ_SORT_BLOCK / 2 .. 1 of stage k (the tail of a
//              merge whose longer strides ran as global stages)
#include "render/sort_common.glsl"

#ifndef KZ_SORT_BLOCK
#define KZ_SORT_BLOCK 1024u
#endif

layout(local_size_x = 512) in;

uniform uint kz_k;

shared uvec2 block[KZ_SORT_BLOCK];

void exchange(uint t, uint k, uint j, uint base) {
    KZ_SORT_EXCHANGE(block, t, k, j, base)
}

void main() {
    uint p = sortArgs[3];
    uint base = gl_WorkGroupID.x * KZ_SORT_BLOCK;
    uint t = gl_LocalInvocationID.x;
    for (uint e = t; e < KZ_SORT_BLOCK; e += 512u) {
        block[e] = base + e < p ? pairs[base + e] : uvec2(0xFFFFFFFFu);
    }
    barrier();
    if (kz_k == 0u) {
        uint top = min(p, KZ_SORT_BLOCK);
        for (uint k = 2u; k <= top; k <<= 1u) {
            for (uint j = k >> 1u; j > 0u; j >>= 1u) {
                exchange(t, k, j, base);
                barrier();
            }
        }
    } else {
        for (uint j = KZ_SORT_BLOCK >> 1u; j > 0u; j >>= 1u) {
            exchange(t, kz_k, j, base);
            barrier();
        }
    }
    for (uint e = t; e < KZ_SORT_BLOCK; e += 512u) {
        if (base + e < p) {
            pairs[base + e] = block[e];
        }
    }
}
