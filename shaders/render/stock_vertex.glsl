// The vertex stage every stock rendering material shares: the material's file defines
// KZ_STOCK_COLOR(i) (linear RGB, alpha) and KZ_STOCK_SCALE(i) (a vec3), then includes this. It
// compiles three ways (docs/rendering.md, "The stock materials' per-particle pass"):
//   KZ_PREPARE_PASS  a compute shader, one invocation per live particle in draw order: all
//                    the per-particle work (accessors, colour over life, the flipbook
//                    frame, lighting) once, into a 64-byte record (112 when lit)
//   KZ_PREPARED      the billboard's vertex stage: its corner from that record, a few
//                    multiplies (on llvmpipe the vertex stage runs on one thread, four
//                    times per billboard: this is where a frame's time went)
//   neither          everything per vertex: meshes (a per-instance record measured no
//                    faster: their cost is their vertices and triangles, not the maths)
#include "render/particle_vertex.glsl"
#include "render/texture_sheet.glsl"

uniform float Particle_Size = 0.1;
uniform vec4 Particle_AmbientColor = vec4(0.04, 0.04, 0.05, 1.0);    // linear

#ifdef KZ_RECEIVE_LIGHT
#define KZ_CORNER_COLORS 4      // lit at each corner: the light's gradient across a puff
#else
#define KZ_CORNER_COLORS 1
#endif
#define KZ_BINDING_PREPARED 14

struct KzBillboard {
    vec4 centre;                // clip space
    vec4 halfSpin;              // half width, half height (clip), cos, sin of the spin
    vec4 sheet;                 // the flipbook frame: uv offset, uv scale
    vec4 color[KZ_CORNER_COLORS];
};

#if defined(KZ_PREPARE_PASS)
layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = KZ_BINDING_PREPARED) writeonly buffer KzPrepared {
    KzBillboard kzPrepared[];
};

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= kzOrderCount) {
        return;
    }
    kzInstance = k;
    uint i = kzParticleIndex();
    vec3 scale = KZ_STOCK_SCALE(i);
    KzBillboardClip clip = kzBillboardClip(i, Particle_Size, scale);
    KzBillboard b;
    b.centre = clip.centre;
    b.halfSpin = vec4(clip.half_clip, clip.spin);
    vec2 origin = kzSheetUV(vec2(0.0), kzSheetFrame(i));
    b.sheet = vec4(origin, kzSheetUV(vec2(1.0), kzSheetFrame(i)) - origin);
    vec4 color = KZ_STOCK_COLOR(i);
#ifdef KZ_RECEIVE_LIGHT
    for (int c = 0; c < 4; ++c) {
        vec2 corner = vec2(float(c & 1), float(c >> 1)) * 2.0 - 1.0;
        KzGeometry g = kzBillboardGeometry(i, Particle_Size, scale, corner);
        b.color[c] = vec4(color.rgb * kzParticleLighting(g, Particle_AmbientColor.rgb), color.a);
    }
#else
    b.color[0] = color;
#endif
    kzPrepared[k] = b;
}

#else
out vec2 v_uv;          // texture coordinates (inside the flipbook frame)
out vec2 v_corner;      // -1..1 over the billboard (the round sprite)
out vec4 v_color;       // linear RGB (lit when ReceiveLight), alpha

#if defined(KZ_PREPARED)
layout(std430, binding = KZ_BINDING_PREPARED) readonly buffer KzPrepared {
    KzBillboard kzPrepared[];
};

void main() {
    KzBillboard b = kzPrepared[gl_InstanceID];
    vec2 corner = kzBillboardCorner();
    vec2 spun = mat2(b.halfSpin.z, b.halfSpin.w, -b.halfSpin.w, b.halfSpin.z) * corner;
    gl_Position = b.centre + vec4(spun * b.halfSpin.xy, 0.0, 0.0);
    v_corner = corner;
    v_uv = b.sheet.xy + (corner * 0.5 + 0.5) * b.sheet.zw;
    v_color = b.color[KZ_CORNER_COLORS == 4 ? gl_VertexID : 0];
}

#else
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
#endif
#endif
