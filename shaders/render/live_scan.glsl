#version 430
// Live list, pass 2 of 3: one workgroup turns the group counts into each group's first place
// in the list (an exclusive prefix sum), writes the list's count, and the indirect arguments
// that everything after it reads: no count comes back to the CPU.
//
// Indirect arguments (uint words of KzArgs):
//   0..3   DrawArraysIndirectCommand   (vertices, instances = count, first, base instance)
//   5..9   DrawElementsIndirectCommand (indices, instances = count, 0, 0, 0): byte 20
//   12..14 DispatchIndirectCommand over the live particles, 64 per group: byte 48
#include "Particles/particle_data.glsl"
#include "render/live_list.glsl"
#include "render/workgroup_scan.glsl"

layout(local_size_x = 256) in;

uniform uint kz_groups;         // 64-slot groups in the pool
uniform uint kz_vertexCount;    // of one particle's billboard (a triangle strip)
uniform uint kz_indexCount;     // of one particle's mesh

layout(std430, binding = KZ_BINDING_GROUPS) buffer KzGroups { uint groupCount[]; };
layout(std430, binding = KZ_BINDING_LIVE) buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };
layout(std430, binding = KZ_BINDING_ARGS) writeonly buffer KzArgs { uint args[]; };

void main() {
    uint t = gl_LocalInvocationID.x;
    uint per = (kz_groups + 255u) / 256u;
    uint begin = min(t * per, kz_groups);
    uint end = min(begin + per, kz_groups);
    uint sum = 0u;
    for (uint g = begin; g < end; ++g) {
        sum += groupCount[g];
    }
    uint base = kzWorkgroupScan(t, sum);
    for (uint g = begin; g < end; ++g) {
        uint c = groupCount[g];
        groupCount[g] = base;
        base += c;
    }
    if (t == 255u) {
        uint n = kzScanPartial[255];
        liveCount = n;
        args[0] = kz_vertexCount; args[1] = n; args[2] = 0u; args[3] = 0u; args[4] = 0u;
        args[5] = kz_indexCount; args[6] = n; args[7] = 0u; args[8] = 0u; args[9] = 0u;
        args[10] = 0u; args[11] = 0u;
        args[12] = (n + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE); args[13] = 1u; args[14] = 1u;
    }
}
