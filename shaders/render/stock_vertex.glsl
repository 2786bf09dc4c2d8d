// The vertex stage every stock rendering material shares: the material's file defines
// KZ_STOCK_COLOR(i) (linear RGB, alpha) and KZ_STOCK_SCALE(i), then includes this.
#include "render/particle_vertex.glsl"
#include "render/texture_sheet.glsl"

uniform float Particle_Size = 0.1;
uniform vec4 Particle_AmbientColor = vec4(0.04, 0.04, 0.05, 1.0);    // linear

out vec2 v_uv;          // texture coordinates (inside the flipbook frame)
out vec2 v_corner;      // -1..1 over the billboard (the round sprite)
out vec4 v_color;       // linear RGB (lit when ReceiveLight), alpha

void main() {
    uint i = kzParticleIndex();
    KzGeometry g = kzParticleGeometry(i, Particle_Size, KZ_STOCK_SCALE(i));
    gl_Position = g.clipPosition;
    v_corner = g.uv * 2.0 - 1.0;
    v_uv = kzSheetUV(g.uv, kzSheetFrame(i));
    vec4 color = KZ_STOCK_COLOR(i);
#ifdef KZ_RECEIVE_LIGHT
    // compiled in only for a lit emitter (Particle.ReceiveLight): the light loops cost even
    // when a uniform switch skips them
    color.rgb *= kzParticleLighting(g, Particle_AmbientColor.rgb);
#endif
    v_color = color;
}
