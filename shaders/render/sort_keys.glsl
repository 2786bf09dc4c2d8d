#version 430
// Sort, pass 1: one (key, slot) pair per live particle, padding up to P.
//   SORT_KEY 1  Depth: back to front, far first (view depth descending; with SORT_DISTANCE,
//               a ParticleSystem.SortingCamera's: the distance to it)
//   SORT_KEY 2  ReverseDepth: front to back
//   SORT_KEY 3  brightness, brightest first (CastLight picks its lights)
#include "render/sort_common.glsl"
#include "render/particle_access.glsl"
#if SORT_KEY == 3
#include "render/cast_light.glsl"
#endif

layout(local_size_x = WORKGROUP_SIZE) in;

uniform mat4 kz_model;       // simulation space -> world
uniform mat4 kz_view;

layout(std430, binding = KZ_BINDING_LIVE) readonly buffer KzLive { uint liveCount; uint livePad[3]; uint liveSlots[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= sortArgs[3]) {
        return;
    }
    if (i >= liveCount) {
        pairs[i] = uvec2(0xFFFFFFFFu);
        return;
    }
    uint slot = liveSlots[i];
#if SORT_KEY == 3
    float key = kzLuminance(kzParticleLight(slot).rgb);
    pairs[i] = uvec2(~kzSortable(key), slot);
#else
#ifdef SORT_DISTANCE
    // a ParticleSystem's sorting camera: by distance to it (the glossary's sorting camera)
    float depth = length((kz_view * (kz_model * vec4(getParticlePosition(slot), 1.0))).xyz);
#else
    float depth = -(kz_view * (kz_model * vec4(getParticlePosition(slot), 1.0))).z;
#endif
#if SORT_KEY == 1
    pairs[i] = uvec2(~kzSortable(depth), slot);
#else
    pairs[i] = uvec2(kzSortable(depth), slot);
#endif
#endif
}
