#version 430
// Sort, pass 0: the padded size P and every dispatch of the sort, from the live count.
#include "render/sort_common.glsl"

layout(local_size_x = 1) in;

uniform uint kz_maxSize;     // the padded size of a full pool (a power of two)

layout(std430, binding = KZ_BINDING_LIVE) readonly buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };
layout(std430, binding = KZ_BINDING_ORDER) writeonly buffer KzOrder { uint orderCount; uint orderPad[3]; uint orderSlots[]; };

// KZ_SORT_BLOCK: pairs a block kernel sorts; KZ_BLOCKS_PER_GROUP: blocks a workgroup of it
// takes (1 for the shared-memory kernel, WORKGROUP_SIZE for the per-invocation one)
#ifndef KZ_SORT_BLOCK
#define KZ_SORT_BLOCK 1024u
#endif
#ifndef KZ_BLOCKS_PER_GROUP
#define KZ_BLOCKS_PER_GROUP 1u
#endif

void setStage(uint s, uint groups) {
    uint at = KZ_SORT_STAGES_AT + 3u * s;
    sortArgs[at] = groups;
    sortArgs[at + 1u] = 1u;
    sortArgs[at + 2u] = 1u;
}

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
    // the network as render/sort.py dispatches it: the local sort of every block, then for
    // each k above the block size its global stages (j >= KZ_SORT_BLOCK) and a local merge
    uint blocks = (p + KZ_SORT_BLOCK - 1u) / KZ_SORT_BLOCK;
    uint block_groups = (blocks + KZ_BLOCKS_PER_GROUP - 1u) / KZ_BLOCKS_PER_GROUP;
    uint half_groups = (p / 2u + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
    uint s = 0u;
#ifdef KZ_RADIX
    // the radix sort's count and scatter passes: a chunk of KZ_RADIX_CHUNK pairs an invocation
    uint chunks = (n + KZ_RADIX_CHUNK - 1u) / KZ_RADIX_CHUNK;
    setStage(s++, (chunks + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE));
    return;
#endif
    setStage(s++, block_groups);
    for (uint k = KZ_SORT_BLOCK * 2u; k <= kz_maxSize; k <<= 1u) {
        for (uint j = k >> 1u; j >= KZ_SORT_BLOCK; j >>= 1u) {
            setStage(s++, k <= p ? half_groups : 0u);
        }
        setStage(s++, k <= p ? block_groups : 0u);
    }
}
