// What a rendering material's fragment shader stands on: the particle's sprite (the
// Particle.Texture, premultiplied and linear, or kzplayer's soft round sprite) and the one
// way to write a particle's colour for its blend mode (docs/rendering.md, "Blending").
// The renderer compiles a variant per case rather than branching on uniforms (llvmpipe pays
// for a texture fetch in a branch it skips): KZ_TEXTURED when Particle.Texture holds an
// image, KZ_OPAQUE for BlendMode Opaque, KZ_SOFT_DEPTH for soft particles.
#include "render/color.glsl"

uniform sampler2D Particle_Texture;
uniform int kz_blend;               // 0 additive, 1 alpha, 2 opaque
uniform float kz_intensity;         // brightness of one additive particle's centre
uniform float kz_opacity;           // Node.Opacity
uniform float Particle_SoftDepth = 0.0;
uniform sampler2D kz_sceneDepth;    // view distance of the opaque scene, per pixel
uniform vec2 kz_depthRange;         // the camera's near and far planes

layout(location = 0) out vec4 kzFragColor;

// Soft particles: 1 far in front of the opaque scene, falling to 0 where the particle meets
// it (Particle.SoftDepth metres), so smoke and dust do not show a hard line at the ground.
float kzSoftness() {
#ifndef KZ_SOFT_DEPTH
    return 1.0;
#else
    float n = kz_depthRange.x, f = kz_depthRange.y;
    float here = 2.0 * n * f / (f + n - (2.0 * gl_FragCoord.z - 1.0) * (f - n));
    float scene = texelFetch(kz_sceneDepth, ivec2(gl_FragCoord.xy), 0).r;
    return clamp((scene - here) / max(Particle_SoftDepth, 1e-6), 0.0, 1.0);
#endif
}

// Premultiplied linear RGBA of the sprite at `uv` (0..1 over the quad or the sheet frame);
// `corner` is where on the quad (-1..1), for the round sprite.
vec4 kzSprite(vec2 uv, vec2 corner) {
#if defined(KZ_TEXTURED)
    return texture(Particle_Texture, uv);
#elif defined(KZ_MESH)
    return vec4(1.0);
#else
    float r2 = dot(corner, corner);
    // a smooth bump reaching zero at the rim, plus a tighter hot core
    float body = (1.0 - r2) * (1.0 - r2);
    float weight = r2 < 1.0 ? 0.7 * body + 0.3 * exp(-r2 * 12.0) : 0.0;
    return vec4(weight);
#endif
}

// Write premultiplied linear colour: blended modes add or composite it; Opaque keeps full
// colour where the sprite is at least half covered and writes depth.
void kzWriteParticle(vec4 premultiplied) {
#ifdef KZ_OPAQUE
    if (premultiplied.a < 0.5) {
        discard;
    }
    kzFragColor = vec4(premultiplied.rgb / premultiplied.a, 1.0);
#else
    float scale = kz_opacity * (kz_blend == 0 ? kz_intensity : 1.0) * kzSoftness();
    kzFragColor = premultiplied * scale;
#endif
}
