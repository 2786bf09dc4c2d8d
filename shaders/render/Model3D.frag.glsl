#version 430
// The scene's simple lit material, fragment stage: Lambert diffuse from every light (the
// scene's and the light-casting particles'), plus Model3D.AmbientColor, on Model3D.Color x
// Model3D.Texture, plus Model3D.EmissiveColor x the texture (a sky, a glow: no light needed).
// Premultiplied, so a Model3D with Node.Opacity < 1 composites as alpha.
#include "render/camera.glsl"
#include "render/color.glsl"
#include "render/lighting.glsl"

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec4 Model3D_Color = vec4(0.7, 0.7, 0.7, 1.0);
uniform vec4 Model3D_AmbientColor = vec4(0.18, 0.18, 0.2, 1.0);
uniform vec4 Model3D_EmissiveColor = vec4(0.0, 0.0, 0.0, 1.0);
uniform sampler2D Model3D_Texture;      // sampled when KZ_TEXTURED (the renderer's variant)

layout(location = 0) out vec4 kzFragColor;

#ifdef KZ_DEPTH_ONLY
void main() {}              // a shadow map's pass: only the depth counts (render/shadows.py)
#else
void main() {
    vec3 n = normalize(v_normal);
    // seen from behind (an open mesh, a floor from below): light the side that faces us
    if (!gl_FrontFacing) {
        n = -n;
    }
#ifdef KZ_TEXTURED
    vec4 texel = texture(Model3D_Texture, v_uv);
#else
    vec4 texel = vec4(1.0);
#endif
    vec4 base = Model3D_Color * texel;          // colour properties arrive linear
    vec3 light = Model3D_AmbientColor.rgb + kzDiffuse(v_world, n, 0.0);
    vec3 glow = Model3D_EmissiveColor.rgb * texel.rgb;
    float a = clamp(base.a * kz_opacity, 0.0, 1.0);
    kzFragColor = vec4((base.rgb * light + glow) * a, a);
}
#endif
