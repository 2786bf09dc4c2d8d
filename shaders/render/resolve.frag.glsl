#version 430
// The last pass of a frame: the linear, float image the frame was blended into, clamped and
// encoded as sRGB once, for the 8-bit image that is written or shown. With KZ_POST
// (render/post.py): exposure, the bloom added (KZ_BLOOM), the tone curve (KZ_TONEMAP_ACES);
// KZ_HDR_OUT writes the linear result before the tone curve (tests).
#include "render/color.glsl"
#include "render/tonemap.glsl"

in vec2 v_uv;
uniform sampler2D kz_image;
#ifdef KZ_POST
uniform float kz_exposureScale;     // 2^Scene.Exposure
#endif
#ifdef KZ_BLOOM
uniform sampler2D kz_bloom;         // the blurred bright pass, at a mip level's size (bilinear)
uniform float kz_bloomIntensity;
#endif

layout(location = 0) out vec4 kzFragColor;

void main() {
    vec3 linear = texelFetch(kz_image, ivec2(gl_FragCoord.xy), 0).rgb;
#ifdef KZ_POST
    linear *= kz_exposureScale;
#endif
#ifdef KZ_BLOOM
    linear += kz_bloomIntensity * texture(kz_bloom, gl_FragCoord.xy / vec2(textureSize(kz_image, 0))).rgb;
#endif
#ifdef KZ_HDR_OUT
    kzFragColor = vec4(linear, 1.0);
#else
#ifdef KZ_TONEMAP_ACES
    linear = kzToneMapACES(linear);
#endif
    kzFragColor = vec4(kzLinearToSrgb(linear), 1.0);
#endif
}
