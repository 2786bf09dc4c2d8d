#version 430
// CastLight: the first KZ_LIGHTS_PER_CASTER particles of the emitter's brightness-sorted
// list become point lights, in segment kz_caster of the particle-light buffer. The count
// stays on the GPU.
#include "render/particle_access.glsl"
#include "render/live_list.glsl"
#include "render/cast_light.glsl"

#define KZ_MAX_LIGHT_CASTERS 4
#define KZ_LIGHTS_PER_CASTER 16

layout(local_size_x = KZ_LIGHTS_PER_CASTER) in;

uniform mat4 kz_model;
uniform uint kz_caster;

struct KzParticleLight {
    vec4 positionRange;
    vec4 color;
};

layout(std430, binding = KZ_BINDING_ORDER) readonly buffer KzOrder { uint orderCount; uint orderPad[3]; uint orderSlots[]; };
layout(std430, binding = KZ_BINDING_PARTICLE_LIGHTS) buffer KzParticleLights {
    uint counts[KZ_MAX_LIGHT_CASTERS];
    KzParticleLight lights[KZ_MAX_LIGHT_CASTERS * KZ_LIGHTS_PER_CASTER];
};

void main() {
    uint k = gl_LocalInvocationID.x;
    uint n = min(orderCount, uint(KZ_LIGHTS_PER_CASTER));
    if (k == 0u) {
        counts[kz_caster] = n;
    }
    if (k < n) {
        uint slot = orderSlots[k];
        vec4 light = kzParticleLight(slot);
        lights[kz_caster * KZ_LIGHTS_PER_CASTER + k] =
            KzParticleLight(vec4((kz_model * vec4(getParticlePosition(slot), 1.0)).xyz, light.w), vec4(light.rgb, 1.0));
    }
}
