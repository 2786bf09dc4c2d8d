// The lights of the frame: the scene's DirectionalLight, PointLight and SpotLight nodes (a
// uniform block the renderer fills from their properties) and the point lights that
// light-casting emitters' particles became this frame (a storage block written on the GPU,
// render/light_gather.glsl). Colours are linear, Light.ColorScale applied. Everything lit
// calls kzDiffuse(P, N, wrap): the irradiance at world position P with normal N, without the
// material's ambient; wrap > 0 lets light reach round the terminator (smoke). With
// KZ_SHADOWS (the frame has shadow maps: render/shadows.py) a DirectionalLight or SpotLight
// with CastShadows is multiplied by its shadow map's PCF lookup at P.
#include "render/live_list.glsl"

#define KZ_MAX_SCENE_LIGHTS 8
#define KZ_MAX_LIGHT_CASTERS 4
#define KZ_LIGHTS_PER_CASTER 16

layout(std140, binding = 0) uniform KzLights {
    ivec4 kzLightCounts;                              // directional, point, spot, casting emitters
    vec4 kzDirectionalDirection[KZ_MAX_SCENE_LIGHTS]; // towards where the light goes
    vec4 kzDirectionalColor[KZ_MAX_SCENE_LIGHTS];
    vec4 kzPointPosition[KZ_MAX_SCENE_LIGHTS];
    vec4 kzPointColor[KZ_MAX_SCENE_LIGHTS];
    vec4 kzPointAttenuation[KZ_MAX_SCENE_LIGHTS];     // constant, linear, quadratic
    vec4 kzSpotPosition[KZ_MAX_SCENE_LIGHTS];
    vec4 kzSpotDirection[KZ_MAX_SCENE_LIGHTS];
    vec4 kzSpotColor[KZ_MAX_SCENE_LIGHTS];
    vec4 kzSpotAttenuation[KZ_MAX_SCENE_LIGHTS];
    vec4 kzSpotCone[KZ_MAX_SCENE_LIGHTS];             // cos(cutoff), cos(inner), exponent, shadow map + 1
    mat4 kzShadowMatrix[2];                           // world -> the shadow map's clip space
    vec4 kzShadowParams[2];                           // texel (world m at the map), bias (depth), softness (texels)
};
// kzDirectionalDirection[k].w: the light's shadow map + 1 (0: it casts none)

#ifdef KZ_SHADOWS
uniform sampler2DShadow kz_shadowMaps[2];

// How much of the light reaches P (1 lit, 0 shadowed): the point pushed off its surface by a
// texel and a half along the normal (no acne on a surface facing the light at a grazing
// angle), then a 3 x 3 grid of bilinear depth compares across `softness` texels either side
// (percentage-closer filtering: each compare is itself a 2 x 2 bilinear one).
float kzShadow(float slot, vec3 P, vec3 N) {
    int map = int(slot + 0.5) - 1;
    if (map < 0) {
        return 1.0;
    }
    vec4 params = kzShadowParams[map];
    vec4 c = kzShadowMatrix[map] * vec4(P + N * params.x * 1.5, 1.0);
    vec3 p = c.xyz / c.w * 0.5 + 0.5;
    if (c.w <= 0.0 || any(lessThan(p.xy, vec2(0.0))) || any(greaterThan(p.xy, vec2(1.0)))) {
        return 1.0;                 // beside the map: nothing there casts
    }
    p.z = min(p.z, 1.0) - params.y; // beyond the map's far end: behind whatever the map holds
    vec2 step = params.z / vec2(textureSize(kz_shadowMaps[0], 0));
    float lit = 0.0;
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            lit += texture(kz_shadowMaps[map], vec3(p.xy + vec2(x, y) * step, p.z));
        }
    }
    return lit / 9.0;
}
#define KZ_SHADOW(slot, P, N) kzShadow(slot, P, N)
#else
#define KZ_SHADOW(slot, P, N) 1.0
#endif

struct KzParticleLight {
    vec4 positionRange;     // world position, range (Particle.LightRange)
    vec4 color;             // linear, intensity applied
};

layout(std430, binding = KZ_BINDING_PARTICLE_LIGHTS) readonly buffer KzParticleLights {
    uint kzParticleLightCounts[KZ_MAX_LIGHT_CASTERS];
    KzParticleLight kzParticleLights[KZ_MAX_LIGHT_CASTERS * KZ_LIGHTS_PER_CASTER];
};

float kzWrapped(float nl, float wrap) {
    return max((nl + wrap) / (1.0 + wrap), 0.0);
}

float kzAttenuation(vec4 c, float d) {
    return 1.0 / max(c.x + c.y * d + c.z * d * d, 1e-3);
}

vec3 kzDiffuse(vec3 P, vec3 N, float wrap) {
    vec3 sum = vec3(0.0);
    for (int k = 0; k < kzLightCounts.x; ++k) {
        sum += kzDirectionalColor[k].rgb * kzWrapped(dot(N, -kzDirectionalDirection[k].xyz), wrap)
             * KZ_SHADOW(kzDirectionalDirection[k].w, P, N);
    }
    for (int k = 0; k < kzLightCounts.y; ++k) {
        vec3 d = kzPointPosition[k].xyz - P;
        float dist = length(d);
        sum += kzPointColor[k].rgb * kzWrapped(dot(N, d / max(dist, 1e-6)), wrap)
             * kzAttenuation(kzPointAttenuation[k], dist);
    }
    for (int k = 0; k < kzLightCounts.z; ++k) {
        vec3 d = kzSpotPosition[k].xyz - P;
        float dist = length(d);
        vec3 L = d / max(dist, 1e-6);
        float c = dot(-L, kzSpotDirection[k].xyz);
        vec4 cone = kzSpotCone[k];
        float t = clamp((c - cone.x) / max(cone.y - cone.x, 1e-6), 0.0, 1.0);
        float spot = c < cone.x ? 0.0 : pow(t, cone.z);
        sum += kzSpotColor[k].rgb * kzWrapped(dot(N, L), wrap) * kzAttenuation(kzSpotAttenuation[k], dist) * spot
             * KZ_SHADOW(cone.w, P, N);
    }
    for (int e = 0; e < kzLightCounts.w; ++e) {
        uint n = min(kzParticleLightCounts[e], uint(KZ_LIGHTS_PER_CASTER));
        for (uint k = 0u; k < n; ++k) {
            KzParticleLight light = kzParticleLights[e * KZ_LIGHTS_PER_CASTER + int(k)];
            vec3 d = light.positionRange.xyz - P;
            float dist = length(d);
            // a smooth fall to 0 at the range: no 1/d^2 blow-up where a spark touches a floor
            float x = clamp(dist / max(light.positionRange.w, 1e-6), 0.0, 1.0);
            float falloff = (1.0 - x * x) * (1.0 - x * x);
            sum += light.color.rgb * kzWrapped(dot(N, d / max(dist, 1e-6)), wrap) * falloff;
        }
    }
    return sum;
}
