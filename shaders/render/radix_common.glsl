// The radix sort of a live list's (key, slot) pairs (render/sort.py, strategy "radix"):
// 8 passes of 4-bit digits, least significant first, each STABLE, so equal keys keep the
// live list's ascending slot order: ties break by slot with no comparison at all. Each
// invocation owns a chunk of KZ_RADIX_CHUNK consecutive pairs and walks it in order (no
// shared memory, no barrier(), no atomics): the order a pass writes is a function of the
// input alone, on any GPU.
//   count    per chunk, how many of its pairs have each digit    -> counts[digit][chunk]
//   scan     one workgroup: the exclusive prefix sum of counts in digit-major order
//   scatter  per chunk, each pair to base[digit][chunk] + its rank among the chunk's
#include "render/sort_common.glsl"

#ifndef KZ_RADIX_CHUNK
#define KZ_RADIX_CHUNK 64u
#endif
#define KZ_RADIX_BINS 16u
#define KZ_BINDING_RADIX_OUT 15
#define KZ_BINDING_RADIX_COUNTS 16

uniform uint kz_shift;          // the digit: bits kz_shift .. kz_shift + 3 of the key
uniform uint kz_maxChunks;      // the counts' row length (chunks of a full pool)

layout(std430, binding = KZ_BINDING_RADIX_COUNTS) buffer KzRadixCounts { uint counts[]; };

uint kzChunks(uint n) {
    return (n + KZ_RADIX_CHUNK - 1u) / KZ_RADIX_CHUNK;
}

uint kzDigit(uvec2 pair) {
    return (pair.x >> kz_shift) & (KZ_RADIX_BINS - 1u);
}
