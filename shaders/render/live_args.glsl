#version 430
// Live list from the simulation (its own list, copied into the renderer's: docs/player.md,
// "The live list"): one invocation writes the indirect arguments live_scan.glsl would have
// written from the count, so the sort, the light gather and the draws read the same words.
#include "Particles/particle_data.glsl"
#include "render/live_list.glsl"

layout(local_size_x = 1) in;

uniform uint kz_vertexCount;    // of one particle's billboard (a triangle strip)
uniform uint kz_indexCount;     // of one particle's mesh

layout(std430, binding = KZ_BINDING_LIVE) readonly buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };
layout(std430, binding = KZ_BINDING_ARGS) writeonly buffer KzArgs { uint args[]; };

void main() {
    uint n = liveCount;
    args[0] = kz_vertexCount; args[1] = n; args[2] = 0u; args[3] = 0u; args[4] = 0u;
    args[5] = kz_indexCount; args[6] = n; args[7] = 0u; args[8] = 0u; args[9] = 0u;
    args[10] = 0u; args[11] = 0u;
    args[12] = (n + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE); args[13] = 1u; args[14] = 1u;
}
