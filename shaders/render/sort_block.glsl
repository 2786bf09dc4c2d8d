#version 430
// Sort, the stages inside blocks of KZ_SORT_BLOCK pairs, one block per INVOCATION, in its
// own registers: no shared memory and no barrier() (which llvmpipe runs as a switch of
// every invocation of the workgroup, more than the compares cost). The same network as
// sort_local.glsl; the renderer picks one by the driver (render/sort.py).
#include "render/sort_common.glsl"

#ifndef KZ_SORT_BLOCK
#define KZ_SORT_BLOCK 32u
#endif

layout(local_size_x = WORKGROUP_SIZE) in;

uniform uint kz_k;

uvec2 block[KZ_SORT_BLOCK];

void exchange(uint k, uint j, uint base) {
    for (uint t = 0u; t < KZ_SORT_BLOCK / 2u; ++t) {
        KZ_SORT_EXCHANGE(block, t, k, j, base)
    }
}

void main() {
    uint p = sortArgs[3];
    uint base = gl_GlobalInvocationID.x * KZ_SORT_BLOCK;
    if (base >= p) {
        return;
    }
    for (uint e = 0u; e < KZ_SORT_BLOCK; ++e) {
        block[e] = base + e < p ? pairs[base + e] : uvec2(0xFFFFFFFFu);
    }
    if (kz_k == 0u) {
        uint top = min(p, KZ_SORT_BLOCK);
        for (uint k = 2u; k <= top; k <<= 1u) {
            for (uint j = k >> 1u; j > 0u; j >>= 1u) {
                exchange(k, j, base);
            }
        }
    } else {
        for (uint j = KZ_SORT_BLOCK >> 1u; j > 0u; j >>= 1u) {
            exchange(kz_k, j, base);
        }
    }
    for (uint e = 0u; e < KZ_SORT_BLOCK; ++e) {
        if (base + e < p) {
            pairs[base + e] = block[e];
        }
    }
}
