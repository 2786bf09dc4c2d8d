#version 430
// Radix sort, pass 2 of 3 of each digit: one workgroup turns counts[digit][chunk] into the
// place of each (digit, chunk) run in the output, digit by digit, chunk by chunk: an
// exclusive prefix sum in that order (each invocation sums a stretch, then the stretches).
#include "render/radix_common.glsl"
#include "render/workgroup_scan.glsl"

layout(local_size_x = 256) in;

void main() {
    uint t = gl_LocalInvocationID.x;
    uint chunks = kzChunks(sortArgs[7]);
    uint total = KZ_RADIX_BINS * chunks;
    uint per = (total + 255u) / 256u;
    uint begin = min(t * per, total);
    uint end = min(begin + per, total);
    uint sum = 0u;
    for (uint e = begin; e < end; ++e) {
        sum += counts[(e / chunks) * kz_maxChunks + e % chunks];
    }
    uint base = kzWorkgroupScan(t, sum);
    for (uint e = begin; e < end; ++e) {
        uint at = (e / chunks) * kz_maxChunks + e % chunks;
        uint c = counts[at];
        counts[at] = base;
        base += c;
    }
}
