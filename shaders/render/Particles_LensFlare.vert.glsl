#version 430
// Particles_LensFlare, vertex stage: a flare per particle, drawn over the finished picture
// (the frame's step 4), LensFlare.Elements quads of 6 vertices each (triangles). Element 0 is
// a glow at the particle; the others are ghosts at fixed places along the line from it
// through the screen's centre, each with its size, tint and shape.
// Occlusion (NeL: "testing if there is something in front of the particle ... without
// reading back the Z-buffer"): every vertex samples the opaque scene's depth (a copy, as view
// distance: render/scene_depth.frag.glsl) on a 5 x 5 grid within LensFlare.OcclusionRadius
// pixels of the particle; the share of samples at which the scene is farther than the
// particle is its visibility. On the GPU, in the same draw: nothing comes back to the CPU.
#include "render/representation.glsl"

uniform float LensFlare_Size = 0.25;
uniform float LensFlare_Intensity = 1.0;
uniform float LensFlare_OcclusionRadius = 3.0;
uniform sampler2D kz_sceneDepth;     // view distance of the opaque scene, per pixel

out vec2 v_corner;                   // -1..1 over the element
flat out int v_shape;                // 0 glow, 1 disc, 2 ring
out vec3 v_color;                    // linear, premultiplied by everything

// Element k's place along the line from the particle (0) through the centre (1), size (a
// share of the glow's) and tint; fixed, so a flare looks the same every frame.
const float KZ_FLARE_PLACE[16] = float[16](0.0, 0.42, 0.62, 0.78, 1.12, 1.3, 1.55, 1.85,
                                           0.3, 0.9, 1.05, 1.45, 1.7, 0.55, 2.0, 1.2);
const float KZ_FLARE_SIZE[16] = float[16](1.0, 0.16, 0.3, 0.09, 0.42, 0.2, 0.12, 0.55,
                                          0.07, 0.24, 0.11, 0.3, 0.08, 0.14, 0.7, 0.18);
const vec3 KZ_FLARE_TINT[4] = vec3[4](vec3(1.0, 0.55, 0.25), vec3(0.35, 1.0, 0.6), vec3(0.4, 0.6, 1.0),
                                      vec3(1.0, 0.4, 0.9));

float kzFlareVisibility(vec4 clip, float depth) {
    vec2 pixel = (clip.xy / clip.w * 0.5 + 0.5) * kz_viewport;
    ivec2 size = textureSize(kz_sceneDepth, 0);
    float seen = 0.0;
    for (int y = -2; y <= 2; ++y) {
        for (int x = -2; x <= 2; ++x) {
            vec2 at = pixel + vec2(x, y) * (LensFlare_OcclusionRadius * 0.5);
            ivec2 texel = clamp(ivec2(floor(at)), ivec2(0), size - 1);
            float scene = texelFetch(kz_sceneDepth, texel, 0).r;
            seen += scene >= depth * 0.999 ? 1.0 : 0.0;
        }
    }
    return seen / 25.0;
}

void main() {
    uint i = kzParticleIndex();
    int element = gl_VertexID / 6;
    int c = gl_VertexID % 6;
    // two triangles: (0, 1, 2), (2, 1, 3) of the corners (-1,-1) (1,-1) (-1,1) (1,1)
    int corner_index = c < 3 ? c : (c == 3 ? 2 : (c == 4 ? 1 : 3));
    vec2 corner = vec2(float(corner_index & 1), float(corner_index >> 1)) * 2.0 - 1.0;
    v_corner = corner;
    v_shape = element == 0 ? 0 : (element % 3 == 2 ? 2 : 1);
    vec3 view = (kz_view * vec4(kzWorldOf(getParticlePosition(i)), 1.0)).xyz;
    vec4 clip = kz_projection * vec4(view, 1.0);
    vec2 ndc = clip.xy / max(clip.w, 1e-6);
    float edge = 1.0 - smoothstep(0.85, 1.05, max(abs(ndc.x), abs(ndc.y)));
    if (!kzInFront(clip) || edge <= 0.0) {
        gl_Position = KZ_NOWHERE;            // behind the camera or off screen: no flare
        v_color = vec3(0.0);
        return;
    }
    float visible = kzFlareVisibility(clip, -view.z) * edge;
    vec4 color = kzRepresentationColor(i);
    float brightness = clamp(color.a, 0.0, 1.0) * LensFlare_Intensity * visible;
    int k = element % 16;
    vec3 tint = element == 0 ? vec3(1.0) : KZ_FLARE_TINT[k % 4];
    float weight = element == 0 ? 1.0 : 0.35;
    v_color = color.rgb * tint * brightness * weight;
    float radius = LensFlare_Size * KZ_FLARE_SIZE[k] * max(abs(kzRepresentationScale(i).x), 0.0);
    vec2 at = mix(ndc, vec2(0.0), KZ_FLARE_PLACE[k]);
    float aspect = kz_viewport.x / kz_viewport.y;
    // the glow is wider than tall: a streak across the picture
    vec2 extent = element == 0 ? vec2(2.5, 1.0) : vec2(1.0);
    gl_Position = visible > 0.0 ? vec4(at + corner * extent * vec2(radius * 2.0 / aspect, radius * 2.0), 0.0, 1.0)
                                : KZ_NOWHERE;
}
