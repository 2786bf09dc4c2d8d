// The GPU sort of a live list (docs/rendering.md, "Sorting"): a bitonic sort of (key, slot)
// pairs over the next power of two above the live count, so every pair is distinct, ties
// break by slot, and the order repeats run to run. Padding pairs are all ones (they sort
// last). The indirect arguments (KzSortArgs, uint words) are written on the GPU from the
// live count:
//   0..2  keys pass, over P pairs   3  P, the padded size     4..6  scatter, over n
//   8 + 3 s .. : stage s of the network (k, j in the order the CPU dispatches them);
//                no groups where k > P, so a short list does not pay for the pool's size
#include "Particles/particle_data.glsl"
#include "render/live_list.glsl"

#define KZ_SORT_STAGES_AT 8u

layout(std430, binding = KZ_BINDING_KEYS) buffer KzPairs { uvec2 pairs[]; };
layout(std430, binding = KZ_BINDING_ARGS) buffer KzSortArgs { uint sortArgs[]; };

// A float as a uint whose unsigned order is the float's order.
uint kzSortable(float f) {
    uint u = floatBitsToUint(f);
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}

// The network's order of two pairs: by key, then by slot (no two pairs are equal).
bool greater(uvec2 a, uvec2 b) {
    return a.x > b.x || (a.x == b.x && a.y > b.y);
}

// The network's compare-exchange, once for its three homes: stage (k, j), invocation t, on
// the array A (the pairs in storage, a block in shared memory or in registers; GLSL has no
// reference to pass either, so a macro): places i and i + j, swapped into the direction of
// the k-block of place base + i.
#define KZ_SORT_EXCHANGE(A, t, k, j, base) {                   \
    uint low_ = (t) & ((j) - 1u);                                \
    uint i_ = (((t) - low_) << 1u) + low_;                       \
    uint l_ = i_ + (j);                                          \
    uvec2 a_ = A[i_];                                            \
    uvec2 b_ = A[l_];                                            \
    if (greater(a_, b_) == ((((base) + i_) & (k)) == 0u)) {      \
        A[i_] = b_;                                              \
        A[l_] = a_;                                              \
    }                                                            \
}
